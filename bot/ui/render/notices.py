"""Service notices: refusals and news (``notice_text``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.port import Notice
from bot.ui.i18n import N_, Translator
from bot.ui.render.card_text import _name, _sep, card_text
from bot.ui.render.events import _round_won
from bot.ui.render.flags import _flag_choices, _int_bounds, flag_name, flag_value
from engine import Card, Rules

# -- notices: refusals and information ---------------------------------------------------------

REFUSAL_FALLBACK = N_("That is not possible right now.")

REFUSALS: dict[str, str] = {
    # engine.Code
    "bad_action": N_("That action is not possible."),
    "not_a_player": N_("You are not playing in this game."),
    "game_over": N_("The game is over."),
    "round_over": N_("The round is over: wait for the next one."),
    "round_in_progress": N_("A round is being played: wait until it ends."),
    "not_your_turn": N_("It is not your turn."),
    "card_not_in_hand": N_("You do not have that card."),
    "does_not_match": N_(
        "That card does not match: play the same colour, the same number or symbol, or a wild."
    ),
    "choose_color": N_("Choose a colour first."),
    "no_color_needed": N_("That card needs no colour."),
    "choose_target": N_("Choose the player to swap hands with."),
    "no_target_needed": N_("That card swaps with nobody."),
    "penalty_pending": N_("A penalty is waiting for you: stack on it or take the cards first."),
    "cannot_stack": N_("That card cannot be stacked on this penalty."),
    "nothing_pending": N_("There is no penalty to take."),
    "nothing_to_challenge": N_("There is no +4 to challenge."),
    "challenge_open": N_("Decide first: challenge the +4 or take the cards."),
    "must_play_drawn": N_("After drawing you may only play the card you drew."),
    "already_drawn": N_("You have drawn already: play that card or pass."),
    "must_play": N_("The card you drew can be played, so you must play it."),
    "nothing_to_pass": N_("You can only pass after drawing a card."),
    "wild_draw_four_illegal": N_(
        "You hold a card of the colour in play, so you may not play a +4."
    ),
    "not_as_last_card": N_("That card cannot be your last card."),
    "wild_draw_four_playable": N_("You hold a card you could play, so you may not play a +4."),
    "follow_color": N_("After a +2 was taken, the next card must be of its colour (or a +4)."),
    "uno_too_late": N_("Too late: at this table UNO is called with the card that leaves you one."),
    "first_play_number": N_("The first play of a round must be a number card."),
    "multi_play_off": N_("One card at a time at this table."),
    "bad_combination": N_("Those cards cannot be played together."),
    "no_jump_in": N_("You cannot jump in now."),
    "not_identical": N_(
        "Jumping in needs the identical card: same colour, same number or symbol."
    ),
    "not_one_card": N_("Call UNO when you are down to one card."),
    "already_called": N_("You have called UNO already."),
    "not_catchable": N_("Nobody to catch: they called UNO, or it is too late."),
    "cannot_catch_self": N_("You cannot catch yourself: call UNO instead!"),
    "no_window": N_("There is no UNO to catch now."),
    "game_full": N_("The game is full."),
    "already_seated": N_("You are already seated."),
    # bot.service
    "stale": N_("That button is out of date: the game has moved on."),
    "no_table": N_("There is no open table here."),
    "table_exists": N_("A table is already open here."),
    "already_joined": N_("You have joined already."),
    "table_full": N_("The table is full."),
    "teams_fixed": N_("Teams are fixed in a partners game: nobody can join until it ends."),
    "not_host": N_("Only the host can do that."),
    "not_seated": N_("That player is not at the table."),
    "not_mid_round": N_("Rules can only change before the game or between rounds."),
    "bad_setting": N_("That setting is not possible: {detail}"),
    "already_started": N_("The game has started already."),
    "not_enough_players": N_("At least two players are needed to start."),
    "not_started": N_("The game has not started yet."),
    "no_next_round": N_(
        "This game is a single round: nobody can join until it ends. Join the next game!"
    ),
    # bot.service, issue 22 (bot.presence)
    "autopilot_on": N_("The autopilot is playing for you already."),
    "autopilot_off": N_("You are playing your seat already."),
    "vote_not_player": N_("Only the people playing this game can vote to end it."),
    "vote_twice": N_("You have voted already: the others decide now."),
    "vote_expired": N_("That vote has ended. Press “End the game” again to open a new one."),
}

INFOS: dict[str, str] = {
    "info.next_round": N_("You are in: you will be dealt in at the next round."),
    "info.left": N_("{player} left the table."),
    "info.kicked": N_("{player} was removed from the table."),
    "info.closed_empty": N_("Everyone has left: the table is closed."),
    "info.new_host": N_("{player} is the new host."),
    "info.stopped": N_("{player} stopped the game."),
    "info.revealed": N_("Hand of {player}: {cards}"),
    "info.round_won": N_("🏁 {player} wins the round! +{points}"),
    "info.afk_removed": N_("{player} timed out too many times and leaves the game."),
    "info.game_won": N_("🏆 {player} wins the game!"),
    "info.lobby_expired": N_("Nobody started the game in time: the table is closed."),
    "info.resumed": N_("The game is back where it was left: carry on."),
    # issue 22 (bot.presence)
    "info.autopilot_away": N_(
        "{player} is away: the autopilot plays for them until they press anything."
    ),
    "info.autopilot_on": N_("{player} hands their seat to the autopilot."),
    "info.autopilot_off": N_("{player} is back and plays their own seat."),
    "info.all_away": N_("Everyone playing is away: the game ends here, counted for nobody."),
    "info.vote_open": N_(
        "🗳 {player} votes to end the game: {votes} of {needed} votes, {seconds} s to vote."
    ),
    "info.vote_ended": N_("🗳 The players voted to end the game: it is counted for nobody."),
    "info.vote_lapsed": N_("🗳 The vote to end the game ran out: {votes} of {needed} votes."),
}
# the news about the reader, addressed to them (a screen that is theirs alone: the terminal)
INFOS_YOU: dict[str, str] = {
    "info.left": N_("You left the table."),
    "info.kicked": N_("You were removed from the table."),
    "info.new_host": N_("You are the new host."),
    "info.stopped": N_("You stopped the game."),
    "info.afk_removed": N_("You timed out too many times and leave the game."),
    "info.round_won": N_("🏁 You win the round! +{points}"),
    "info.game_won": N_("🏆 You win the game!"),
    "info.autopilot_away": N_(
        "You are away: the autopilot plays for you until you press anything."
    ),
    "info.autopilot_on": N_("You hand your seat to the autopilot until you take it back."),
    "info.autopilot_off": N_("You are back: your seat is yours again."),
    "info.vote_open": N_("🗳 You vote to end the game: {votes} of {needed} votes."),
}
_STOPPED_BY_NOBODY = N_("The game was stopped.")
_ROUND_WON_NO_POINTS = N_("🏁 {player} wins the round!")
_GAME_OVER_NO_WINNER = N_("🏆 The game is over.")
_BAD_SETTING_PLAIN = N_("That setting is not possible.")
# why rules were refused (bot.service.steps.setting_error's "reason")
_BAD_SETTING: dict[str, str] = {
    "value": N_("“{flag}” cannot take that value."),
    "value_range": N_("“{flag}” must be a number from {low} to {high}."),
    "value_choice": N_("“{flag}” can only be: {choices}."),
    "unknown_flag": N_("There is no such rule."),
    "preset": N_("There is no such preset: choose official, house or party."),
    "needs": N_("“{flag}” needs “{needs}” to be on first."),
    "deal": N_("That many cards cannot be dealt to this many players."),
    "seats": N_("This number of players cannot play with these rules."),
    "partners": N_("Partners need 4 or 6 players, and cannot be switched during a game."),
    "conflict": N_("“{flag}” cannot be combined with “{other}”."),
}


# refusals whose reason differs by platform (table key prefix): who else may do what the
# host may is each platform's own check
PLATFORM_REFUSALS: dict[str, dict[str, str]] = {
    "dc": {"not_host": N_("Only the host, or someone with Manage Channels here, can do that.")},
    "tg": {"not_host": N_("Only the host or a group admin can do that.")},
}


def _round_won_notice(
    notice: Notice, tr: Translator, names: Mapping[str, str], viewer: str | None
) -> str:
    """``info.round_won`` with its round: worded as the round's event line is, one wording
    wherever it shows."""
    params = notice.params
    pid = params.get("player")
    points, reason = params.get("points"), params.get("reason")
    places = params.get("places")
    return _round_won(
        names.get(pid or "") or str(params.get("name") or _name(names, pid)),
        params["round"],
        points if isinstance(points, int) else 0,
        reason if isinstance(reason, str) else None,
        tr,
        you=viewer is not None and pid == viewer,
        places=[
            tr.gettext("You") if viewer is not None and p == viewer else _name(names, str(p))
            for p in places
        ]
        if isinstance(places, list)
        else (),
    )


def _hand_param(cards: Iterable[Any] | None, tr: Translator) -> str:
    """A revealed hand (card codes): in card order, as a hand is shown; a code this
    version cannot read is shown as it is, after the others."""
    read: list[Card] = []
    unread: list[str] = []
    for c in cards or ():
        try:
            read.append(Card.parse(c))
        except ValueError:
            unread.append(str(c))
    shown = [card_text(c, tr) for c in sorted(read, key=lambda c: c.order)] + unread
    return _sep(tr).join(shown) or "—"


def _notice_params(notice: Notice, tr: Translator, names: Mapping[str, str]) -> dict[str, Any]:
    """A notice's parameters as shown: players by name, a revealed hand in words."""
    params = dict(notice.params)
    if "player" in params:  # a player who already left is no longer in names: "name" says
        pid = params["player"]
        params["player"] = names.get(pid) or notice.params.get("name") or _name(names, pid)
    if "target" in params:
        params["target"] = _name(names, params["target"])
    if "cards" in params:
        params["cards"] = _hand_param(params["cards"], tr)
    return params


def _info_text(notice: Notice, params: Mapping[str, Any], tr: Translator) -> str:
    """News (an ``info.*`` code), in the third person."""
    code = notice.code
    if code == "info.stopped" and notice.params.get("player") is None:
        return tr.gettext(_STOPPED_BY_NOBODY)
    if code == "info.game_won" and notice.params.get("player") is None:
        return tr.gettext(_GAME_OVER_NO_WINNER)
    if code == "info.round_won" and not notice.params.get("points"):
        return tr.format(_ROUND_WON_NO_POINTS, **params)
    msg = INFOS.get(code)
    if msg is None:
        return code
    return tr.format(msg, **params)


def _bad_value_text(flag: str, tr: Translator) -> str | None:
    """What a rule accepts, so the host can try again: its range, or its values."""
    bounds = _int_bounds(flag)
    choices = _flag_choices(flag)
    if bounds is not None:
        low, high = bounds
        return tr.format(_BAD_SETTING["value_range"], flag=flag_name(flag, tr), low=low, high=high)
    if choices:
        return tr.format(
            _BAD_SETTING["value_choice"],
            flag=flag_name(flag, tr),
            # " / ": some values have a comma of their own
            choices=" / ".join(flag_value(flag, c, tr) for c in choices),
        )
    return None


def _bad_setting_text(params: dict[str, Any], tr: Translator) -> str | None:
    """Why rules were refused (``bad_setting``), by its ``reason``; ``None``: the refusal's
    own wording, with its English ``detail``."""
    reason = str(params.get("reason"))
    if reason == "value" and params.get("flag") in Rules.model_fields:
        text = _bad_value_text(str(params["flag"]), tr)
        if text is not None:
            return text
    why = _BAD_SETTING.get(reason)
    if why is not None and not reason.startswith("value_"):
        for key in ("flag", "needs", "other"):
            if key in params:
                params[key] = flag_name(str(params[key]), tr)
        return tr.format(why, **params)
    if not params.get("detail") or tr.lang != "en":  # the detail is English only
        return tr.gettext(_BAD_SETTING_PLAIN)
    return None


def notice_text(
    notice: Notice,
    tr: Translator,
    names: Mapping[str, str],
    platform: str | None = None,
    viewer: str | None = None,
) -> str:
    """A service notice in the reader's language: ``info.*`` codes are news, every other
    code is a refusal (``refuse.<code>`` is accepted too); an unknown one gets a generic
    refusal. ``platform`` (``dc``, ``tg``: a table key's prefix) picks the platform's own
    wording of a refusal where it has one (:data:`PLATFORM_REFUSALS`). ``viewer``: news
    about the reader addresses them (:data:`INFOS_YOU`; see ``event_line``)."""
    code = notice.code
    if code == "info.round_won" and isinstance(notice.params.get("round"), int):
        return _round_won_notice(notice, tr, names, viewer)
    you = INFOS_YOU.get(code)
    if viewer is not None and you is not None and notice.params.get("player") == viewer:
        if code == "info.round_won" and not notice.params.get("points"):
            return tr.gettext("🏁 You win the round!")
        return tr.format(you, **notice.params)
    params = _notice_params(notice, tr, names)
    if code.startswith("info."):
        return _info_text(notice, params, tr)
    code = code.removeprefix("refuse.")
    msg = PLATFORM_REFUSALS.get(platform or "", {}).get(code) or REFUSALS.get(code)
    if msg is None:
        return tr.gettext(REFUSAL_FALLBACK)
    if code == "bad_setting":
        text = _bad_setting_text(params, tr)
        if text is not None:
            return text
    return tr.format(msg, **params)
