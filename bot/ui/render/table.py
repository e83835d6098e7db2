"""The public table message (lobby, game in play, its end) and its recent lines."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from bot.port import Notice, TableInfo
from bot.ui.i18n import Translator
from bot.ui.render.card_text import (
    _name,
    _sep,
    button_label,
    card_text,
    color_text,
    direction_text,
)
from bot.ui.render.events import _SAID_ELSEWHERE, event_line
from bot.ui.render.flags import rules_title
from bot.ui.render.notices import notice_text
from bot.ui.render.stats import _scores
from engine import Card, Color, Phase, Rules, View
from engine.rules import max_seats

log = logging.getLogger(__name__)


def _top_line(top: Card, color: Color | None, tr: Translator, picture: str | None = None) -> str:
    card = card_text(top, tr) if picture is None else f"{picture} {card_text(top, tr)}"
    if color is None:
        return tr.gettext("Top card: {card} (colour to be named)", card=card)
    if top.is_wild or color is not top.color:
        return tr.gettext("Top card: {card} → {color}", card=card, color=color_text(color, tr))
    return tr.gettext("Top card: {card}", card=card)


def _follow_line(color: Color, tr: Translator) -> str:
    """after_penalty=same_color, after a taken +2."""
    return tr.gettext(
        "After the +2: the next card must be {color} (or a +4).", color=color_text(color, tr)
    )


def _turn_line(v: View, tr: Translator, names: Mapping[str, str]) -> str | None:
    if v.current is None:
        return None
    who = _name(names, v.current)
    if v.phase is Phase.CHOOSING_COLOR:
        return tr.gettext("▶ {player} is choosing a colour.", player=who)
    if v.phase is Phase.CHALLENGE:
        return tr.gettext(
            "▶ {player} faces +{total}: challenge {offender}'s +4 within {seconds} s, "
            "or take the cards.",
            player=who,
            total=v.pending_draw,
            offender=_name(names, v.challenge_from),
            seconds=v.rules.challenge_seconds,
        )
    if v.pending_draw:
        return tr.gettext(
            "▶ {player} faces +{total}: stack on it or take the cards.",
            player=who,
            total=v.pending_draw,
        )
    return tr.gettext("▶ Turn: {player}", player=who)


def _player_line(info: TableInfo, v: View, p: str, tr: Translator) -> str:
    names = info.names
    mark = "▶" if p == v.current else "•"
    n = v.counts.get(p, 0)
    line = f"{mark} " + tr.ngettext(
        "{player}: {n} card", "{player}: {n} cards", n, player=_name(names, p)
    )
    tags = []
    if info.is_bot(p):
        tags.append("🤖")
    elif p in info.autopilot:  # a person whose seat a bot plays (bot.presence)
        tags.append(tr.gettext("🤖 (autopilot)"))
    if p == v.dealer:
        tags.append(tr.gettext("(dealer)"))
    if v.teams is not None and p in v.teams:
        tags.append(tr.gettext("(team {team})", team=v.teams[p] + 1))
    if p in v.places:
        tags.append(tr.gettext("🏅 place {place}", place=v.places.index(p) + 1))
    if p in v.exposed:
        tags.append(tr.gettext("❗ no UNO!"))
    elif p in v.called and n == 1:
        tags.append("📢 UNO")
    text = " ".join([line, *tags])
    return text.replace(" （", "（") if tr.is_chinese else text


def seat_lines(info: TableInfo, tr: Translator) -> list[str]:
    """The seats of the round in play, one line each, as the table message shows them:
    whose turn, how many cards, bot, dealer, team, UNO (``[]`` between games)."""
    v = info.view
    if v is None or v.phase not in (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE):
        return []
    return [_player_line(info, v, p, tr) for p in v.players]


def _rules_line(info: TableInfo, tr: Translator) -> str:
    """``Rules: Custom: House rules + 2 changes``: the preset, and how many flags differ
    from it (``rules_title``, as /rules names them)."""
    return tr.gettext("Rules: {rules}", rules=rules_title(info.rules, tr, info.preset))


def _lobby_seat_lines(info: TableInfo, tr: Translator, halves: int) -> list[str]:
    """The seated players in order: host, bots and (``halves``: partners) teams marked."""
    lines = []
    for i, s in enumerate(info.seats, 1):
        tags = []
        if s.id == info.host:
            tags.append("👑")
        if s.bot is not None:
            tags.append("🤖")
        if halves:
            tags.append(tr.gettext("(team {team})", team=(i - 1) % halves + 1))
        text = " ".join([f"{i}. {s.name}", *tags])
        lines.append(text.replace(" （", "（") if tr.is_chinese else text)
    return lines


def _lobby_text(info: TableInfo, tr: Translator, recent: Sequence[str]) -> str:
    """The table before its game (or closed without one): host, rules, who sits."""
    lobby = info.status == "lobby"
    lines = [tr.gettext("🎴 UNO — waiting for players") if lobby else "🎴 UNO"]
    lines.append(tr.gettext("Host: {player}", player=_name(info.names, info.host)))
    lines.append(_rules_line(info, tr))
    seats = info.seats
    lines.append(tr.gettext("Players ({n}/{max}):", n=len(seats), max=max_seats(info.rules)))
    if not seats:
        lines.append(tr.gettext("Nobody has joined yet."))
    # partners sit opposite: with 4 or 6 seats, seat i plays in team i mod (seats / 2)
    halves = len(seats) // 2 if info.rules.partners and len(seats) in (4, 6) else 0
    lines.extend(_lobby_seat_lines(info, tr, halves))
    if lobby:
        lines.append("")
        if info.rules.partners and not halves:
            lines.append(tr.gettext("👥 Partners: the game needs exactly 4 or 6 players."))
        lines.append(
            tr.gettext(
                "Press “{join}” to sit down; the host presses “{start}” once two or more "
                "have joined.",
                join=button_label("join", tr),
                start=button_label("start", tr),
            )
        )
    else:
        lines.append(tr.gettext("⏹ The table is closed."))
    if recent:  # lobby news too: who left, who was removed
        lines.append("")
        lines.extend(recent)
    return "\n".join(lines)


def _table_scores(v: View, tr: Translator, names: Mapping[str, str]) -> str:
    """The scores, best first: fixed partners share their total; rotating ones
    (partners=rotate) keep their own."""
    teams = v.teams if v.rules.partners is True else None
    return _scores(v.scores, tr, names, low_wins=v.rules.scoring == "penalty", teams=teams)


def scores_lines(v: View, tr: Translator, names: Mapping[str, str]) -> list[str]:
    """The scores under their heading: the final ones once the game is won, those after
    the round between rounds, else the scores so far with what ends the game (the
    terminal shows them at each round's end and on request)."""
    if v.phase is Phase.GAME_OVER:
        penalty = v.rules.scoring == "penalty"
        heading = (
            tr.gettext("Final scores (lowest wins):") if penalty else tr.gettext("Final scores:")
        )
    elif v.phase is Phase.ROUND_OVER:
        heading = tr.gettext("🏁 Scores after round {round}:", round=v.round)
    else:
        heading = _scores_heading(v.rules, tr)
    return [heading, _table_scores(v, tr, names)]


def _round_over_lines(v: View, tr: Translator, names: Mapping[str, str]) -> list[str]:
    """Between rounds: the scores, what ends the game, how the next round starts (who won
    the round is the news of it, ``info.round_won``)."""
    rules = v.rules
    low_wins = rules.scoring == "penalty"
    lines = [tr.gettext("🏁 Scores after round {round}:", round=v.round)]
    lines.append(_table_scores(v, tr, names))
    if rules.target and low_wins:
        lines.append(
            tr.ngettext(
                "The game ends when someone reaches {n} point; the lowest total wins.",
                "The game ends when someone reaches {n} points; the lowest total wins.",
                rules.target,
            )
        )
    elif rules.target:
        lines.append(tr.ngettext("Playing to {n} point.", "Playing to {n} points.", rules.target))
    lines.append(
        tr.gettext(
            "The next round starts soon, or press “{next}”.",
            next=button_label("next_round", tr),
        )
    )
    return lines


def _play_lines(info: TableInfo, v: View, tr: Translator, top_picture: str | None) -> list[str]:
    """A round in play: the top card, direction and pile, whose turn, one line a seat,
    and the scores so far."""
    names = info.names
    lines = [tr.gettext("🎴 UNO — round {round}", round=v.round)]
    lines.append(_top_line(v.top, v.color, tr, top_picture))
    lines.append(
        tr.ngettext(
            "Direction: {direction} · draw pile: {n} card",
            "Direction: {direction} · draw pile: {n} cards",
            v.draw_pile_size,
            direction=direction_text(v.direction, tr),
        )
    )
    turn = _turn_line(v, tr, names)
    if turn:
        lines.append(turn)
    if v.follow and v.color is not None:
        lines.append(_follow_line(v.color, tr))
    lines.append("")
    for p in v.players:
        lines.append(_player_line(info, v, p, tr))
    if any(v.scores.values()):
        lines.append("")
        lines.append(_scores_heading(v.rules, tr))
        lines.append(_table_scores(v, tr, names))
    return lines


def _scores_heading(rules: Rules, tr: Translator) -> str:
    """Above the scores during a round: what ends the game."""
    if not rules.target:
        return tr.gettext("Scores:")
    if rules.scoring == "penalty":
        return tr.ngettext(
            "Scores (the game ends at {n} point; lowest wins):",
            "Scores (the game ends at {n} points; lowest wins):",
            rules.target,
        )
    return tr.ngettext("Scores (to {n} point):", "Scores (to {n} points):", rules.target)


def _game_lines(info: TableInfo, v: View, tr: Translator, top_picture: str | None) -> list[str]:
    """The game: won, stopped, between rounds, or a round in play."""
    names = info.names
    if v.phase is Phase.GAME_OVER or (info.status == "finished" and v.winner is not None):
        return [
            tr.gettext("🏆 {player} wins the game!", player=_name(names, v.winner)),
            tr.gettext("Final scores (lowest wins):")
            if v.rules.scoring == "penalty"
            else tr.gettext("Final scores:"),
            _table_scores(v, tr, names),
        ]
    if info.status == "stopped":
        return [
            tr.gettext("⏹ The game was stopped."),
            tr.gettext("Scores:"),
            _table_scores(v, tr, names),
        ]
    if v.phase is Phase.ROUND_OVER:
        return _round_over_lines(v, tr, names)
    return _play_lines(info, v, tr, top_picture)


def table_text(
    info: TableInfo,
    tr: Translator,
    recent: Sequence[str] = (),
    *,
    top_picture: str | None = None,
) -> str:
    """The public table message: the lobby, the game in play, or its end.

    Made from the public view only, so it never shows a hand. ``top_picture``: the top
    card's picture in the platform's markup (a Discord emoji), put before its name."""
    v = info.view
    if info.status == "lobby" or v is None:
        return _lobby_text(info, tr, recent)
    lines = _game_lines(info, v, tr, top_picture)
    over = info.status in ("finished", "stopped") or v.phase is Phase.GAME_OVER
    waiting = () if over else info.waiting
    if waiting:
        lines.append(
            tr.gettext(
                "Joining next round: {players}",
                players=_sep(tr).join(_name(info.names, w) for w in waiting),
            )
        )
    if info.vote is not None and not over:
        lines.append(vote_line(info, tr))
    if recent:
        lines.append("")
        lines.extend(recent)
    return "\n".join(lines)


def vote_line(info: TableInfo, tr: Translator) -> str:
    """The open vote to end the game (``bot.presence``): how many voted, how many end it."""
    votes = len(info.vote.voters) if info.vote is not None else 0
    return tr.gettext(
        "🗳 Vote to end the game: {votes} of {needed} votes. Press “{button}” to vote too.",
        votes=votes,
        needed=info.vote_needed,
        button=button_label("vote_end", tr),
    )


def recent_lines(
    info: TableInfo,
    tr: Translator,
    names: Mapping[str, str] | None = None,
    *,
    this_status: bool = False,
) -> list[str]:
    """The table's recent public lines (``info.recent``), oldest first, in ``tr``'s
    language, players named by ``names`` (the seats' names by default; a notice names
    who has left). ``this_status``: only those since the table's status last changed
    (the lobby's news is old news once dealt)."""
    names = info.names if names is None else names
    items = list(info.recent)
    if this_status:
        i = len(items)
        while i and items[i - 1].status == info.status:
            i -= 1
        items = items[i:]
    out = []
    for r in items:
        try:
            if isinstance(r.event, _SAID_ELSEWHERE):  # stored by an earlier version
                continue
            if r.event is not None:
                line = event_line(r.event, tr, names)
            elif r.code:
                line = notice_text(Notice(r.code, dict(r.params)), tr, names)
            else:  # stored by another version, unreadable here
                continue
        except (TypeError, ValueError, KeyError, AttributeError):
            # a line stored by another version that reads but does not render: the
            # table message must still show, without it
            log.warning("a recent line of table %s cannot be shown: %s", info.key, r.text)
            continue
        if line:
            out.append(line)
    return out
