"""A player's own hand, as only they see it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.ui.i18n import Translator
from bot.ui.render.card_text import COLOR_EMOJI, WILD_MARK, _name, _rank_text, _sep, card_text
from bot.ui.render.notices import REFUSALS
from bot.ui.render.table import _follow_line, _top_line
from engine import Card, Color, Phase, Rank, View, draw_four_legal

# -- a player's own hand ----------------------------------------------------------------------


def _hand_lines(hand: Sequence[Card], tr: Translator) -> list[str]:
    """One line per colour (then the wilds), cards in rank order."""
    groups: dict[Color | None, list[Card]] = {}
    for c in sorted(hand, key=lambda c: c.order):
        groups.setdefault(c.color, []).append(c)
    lines = []
    for color, cards in groups.items():
        mark = WILD_MARK if color is None else COLOR_EMOJI[color]
        lines.append(f"{mark} " + " · ".join(_rank_text(c, tr) for c in cards))
    return lines


def _must_play_drawn(v: View) -> bool:
    """``force_play``: the drawn card must be played (``Pass`` is not offered), unless it
    is a +4 that would be a bluff (docs/rules.md section 2, ``force_play``)."""
    drawn = v.drawn
    if drawn is None or not v.rules.force_play:
        return False
    if drawn.rank is Rank.WILD_DRAW_FOUR and v.rules.wild_draw_four == "challenge":
        return draw_four_legal(v)
    return True


def _waiting_line(v: View, tr: Translator, names: Mapping[str, str]) -> str:
    """Whose move it is, and what they are deciding, seen from another player's hand."""
    who = _name(names, v.current)
    if v.phase is Phase.CHOOSING_COLOR:
        return tr.gettext("Waiting for {player} to choose a colour.", player=who)
    if v.phase is Phase.CHALLENGE:
        return tr.gettext(
            "Waiting for {player} to challenge the +4 or take {total} cards.",
            player=who,
            total=v.pending_draw,
        )
    if v.pending_draw:
        return tr.gettext(
            "Waiting for {player} to stack on the +{total} or take the cards.",
            player=who,
            total=v.pending_draw,
        )
    return tr.gettext("Waiting for {player}.", player=who)


def _your_turn_lines(v: View, tr: Translator, names: Mapping[str, str]) -> list[str]:
    """What the player whose turn it is has to do: name a colour, answer a +4 or a
    penalty, play the card they drew, or just play."""
    if v.phase is Phase.CHOOSING_COLOR:
        return [tr.gettext("▶ Choose a colour.")]
    if v.phase is Phase.CHALLENGE:
        return [
            tr.gettext(
                "▶ {offender} played a +4 on you: take {total} cards, or challenge within "
                "{seconds} s. If they held a card of the colour they changed from, they "
                "draw {total}; if not, you draw {more}.",
                offender=_name(names, v.challenge_from),
                total=v.pending_draw,
                more=v.pending_draw + 2,
                seconds=v.rules.challenge_seconds,
            )
        ]
    if v.pending_draw:
        return [
            tr.gettext(
                "▶ +{total} is coming your way: stack on it, or take the cards.",
                total=v.pending_draw,
            )
        ]
    if v.drawn is not None and _must_play_drawn(v):
        return [
            tr.gettext(
                "▶ You drew {card}: it can be played, so you must play it.",
                card=card_text(v.drawn, tr),
            )
        ]
    if v.drawn is not None:
        return [tr.gettext("▶ You drew {card}: play it, or pass.", card=card_text(v.drawn, tr))]
    lines = [tr.gettext("▶ Your turn!")]
    if v.follow and v.color is not None:
        lines.append(_follow_line(v.color, tr))
    return lines


def _uno_lines(
    v: View, hand: Sequence[Card], me: str, tr: Translator, names: Mapping[str, str]
) -> list[str]:
    """A place earned, UNO to call (or called too late), players to catch."""
    lines = []
    active = v.phase in (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE)
    if active and me in v.places:
        lines.append(tr.gettext("🏅 You are out: place {place}.", place=v.places.index(me) + 1))
    if me in v.silent:  # uno_call=with_play: the call had to come with the play
        lines.append(tr.gettext("❗ You did not call UNO with your card: too late now."))
    elif me in v.exposed or (active and len(hand) == 1 and me not in v.called):
        lines.append(tr.gettext("❗ One card left: call UNO!"))
    elif active and v.rules.uno_call == "with_play" and len(hand) == 2 and v.current == me:
        lines.append(tr.gettext("📢 UNO is called with your next-to-last card: play it with UNO!"))
    others = [p for p in v.exposed if p != me]
    if active and others:
        lines.append(
            tr.gettext(
                "🎯 {players} did not call UNO: catch them!",
                players=_sep(tr).join(_name(names, p) for p in others),
            )
        )
    return lines


def hand_text(view: View, tr: Translator, names: Mapping[str, str] | None = None) -> str:
    """A player's private view: their cards (by colour, then rank), the top card and
    colour, whose turn it is, a pending penalty, the card they just drew."""
    names = names or {}
    v = view
    if v.hand is None or v.viewer is None:
        return tr.gettext(REFUSALS["not_a_player"])
    lines = [tr.gettext("🃏 Your cards ({n}):", n=len(v.hand))]
    lines.extend(_hand_lines(v.hand, tr) or [tr.gettext("(no cards)")])
    lines.append("")
    lines.append(_top_line(v.top, v.color, tr))
    me = v.viewer
    if v.phase is Phase.GAME_OVER:
        lines.append(tr.gettext(REFUSALS["game_over"]))
    elif v.phase is Phase.ROUND_OVER:
        lines.append(tr.gettext("The round is over."))
    elif v.current == me:
        lines.extend(_your_turn_lines(v, tr, names))
    elif v.current is not None:
        lines.append(_waiting_line(v, tr, names))
    lines.extend(_uno_lines(v, v.hand, me, tr, names))
    return "\n".join(lines)
