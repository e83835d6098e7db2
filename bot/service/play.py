"""Play as pure step builders: ``build(table, ..., ctx) -> Step`` (or ``Refused``), the way
the engine's families are functions of a game. ``act`` (a person's move) and what it
shares with a due deadline (``deadlines.build``: a timeout, the next round, a bot's
move): ``apply`` (one engine action, with its records, statistics and notices),
``next_round``, ``finish``, ``abandon`` and ``stopped`` (the one way a game ends without a
result: ``/stop``, a vote, nobody left), ``after_membership`` (a host who left hands the
table on; a table nobody is left at closes), and presence (``bot.presence``): ``here`` (a
press the table takes: present, the seat back from the autopilot), ``away`` (a turn timed
out under ``absent=autopilot``). Nothing here touches the store or the port:
the runner commits and shows what these build."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import engine
from bot import policy, presence, ratings
from bot.json_codec import action_to_dict
from bot.model import FINISHED, LOBBY, PLAYING, STOPPED, Deadline, Table
from bot.port import Notice
from bot.seats import strategies as ai
from bot.service.steps import GLOBAL, Ctx, Refused, Step, open_table, touch, who
from bot.service.windows import arm, window
from bot.store import ActionRecord, StatUpdate
from engine import (
    Action,
    CallUno,
    CardPlayed,
    CatchUno,
    ChallengeResolved,
    GameWon,
    IllegalAction,
    Leave,
    NextRound,
    Phase,
    RoundWon,
    Timeout,
    redact,
)
from engine.game import ACTIVE
from engine.play import can as can_apply

log = logging.getLogger("bot.service")

# actions that leave the turn as it was: they do not make other players' buttons stale
KEEPS_TURN = (CallUno, CatchUno)
# buttons that are never out of date: calling, catching, leaving
ANY_TIME = (CallUno, CatchUno, Leave)


def act(t: Table | None, player: str, action: Action, seen_version: int | None, ctx: Ctx) -> Step:
    """A game action by a person. ``seen_version``: the table version their button was
    drawn for; a button older than the turn is refused as ``stale``."""
    t = open_table(t)
    if t.status != PLAYING:
        raise Refused("not_started")
    g = t.game
    assert g is not None
    if not isinstance(player, str) or player not in g.players:
        raise Refused("not_a_player")
    if seen_version is not None and (
        not isinstance(seen_version, int) or isinstance(seen_version, bool)
    ):
        raise Refused("bad_action")
    if seen_version is not None and (
        seen_version > t.version
        or (seen_version < t.turn_version and not isinstance(action, ANY_TIME))
    ):
        raise Refused("stale")
    if isinstance(action, Timeout):
        raise Refused("bad_action")  # only the service's own timers time out
    step = Step(t)
    if player in presence.people(t):
        here(step, player, ctx.now)  # (refused below: none of it kept)
    if isinstance(action, NextRound):
        next_round(step, player, ctx, source="player")
    elif isinstance(action, Leave):
        apply(step, player, action, ctx, source="player")
        step.notices.append(Notice("info.left", who(t, player)))
        return after_membership(step, ctx)
    else:
        apply(step, player, action, ctx, source="player")
    return step


def apply(step: Step, player: str, action: Action, ctx: Ctx, *, source: str) -> None:
    """Apply one engine action to ``step.table`` (raises ``Refused`` if illegal)."""
    t = step.table
    g = t.game
    assert g is not None
    try:
        g2, events = engine.apply(g, player, action)
    except IllegalAction as err:
        raise Refused(err.code.value) from None
    now = ctx.now
    version = t.version + 1
    turn_version = t.turn_version if isinstance(action, KEEPS_TURN) else version
    if isinstance(action, Timeout) and action.window == "uno":
        turn_version = t.turn_version
    strikes = dict(t.strikes)
    if source == "player":
        strikes.pop(player, None)
    elif isinstance(action, Timeout) and action.window == "turn" and source == "timer":
        # (a turn that ran out while the bot itself was down is no strike: "late")
        strikes[player] = strikes.get(player, 0) + 1
    played = dict(t.played)
    for e in events:
        if isinstance(e, CardPlayed):
            played[e.player] = played.get(e.player, 0) + 1 + len(e.together)
    nt = t.evolve(
        game=g2,
        version=version,
        turn_version=turn_version,
        strikes=strikes,
        played=played,
        updated=now,
    )
    step.table = nt
    step.events.extend(events)
    step.moves.append((player, action, [redact(e, None) for e in events]))
    step.actions.append(
        ActionRecord(nt.key, nt.game_no, version, player, action_to_dict(action), now)
    )
    for e in events:
        if isinstance(e, ChallengeResolved) and e.hand is not None:
            step.tells.append(
                (
                    e.challenger,
                    Notice(
                        "info.revealed",
                        {"player": e.offender, "cards": [c.code for c in e.hand]},
                    ),
                )
            )
        elif isinstance(e, RoundWon):
            won: dict[str, Any] = {"points": e.points, "round": e.round, "reason": e.reason}
            if e.places:  # the places rule: everyone in finishing order
                won["places"] = list(e.places)
            step.notices.append(Notice("info.round_won", {**who(nt, e.player), **won}))
            count_round(step, e.player, e.places)
    if isinstance(action, Leave) and player in nt.autopilot:
        nt = step.table = nt.evolve(
            autopilot=tuple(p for p in nt.autopilot if p != player),
            asked=tuple(p for p in nt.asked if p != player),
        )
    # (a turn that ran out while the bot itself was down is nobody's absence: "late")
    timed_out = isinstance(action, Timeout) and action.window == "turn" and source == "timer"
    if timed_out and nt.rules.absent == "autopilot":
        away(step, player, ctx)
        return
    # AFK: a player timed out afk_strikes times in a row leaves
    limit = nt.rules.afk_strikes
    if (
        isinstance(action, Timeout)
        and limit > 0
        and strikes.get(player, 0) >= limit
        and player in g2.players
        and g2.phase in ACTIVE
    ):
        step.notices.append(Notice("info.afk_removed", who(nt, player)))
        step.table = nt.evolve(strikes={p: n for p, n in strikes.items() if p != player})
        apply(step, player, Leave(), ctx, source="afk")
        s = step.table.seat(player)
        if s is not None and s.bot is None:
            # leaving by timing out is leaving: the host's role passes on, and a table
            # with nobody left but bots closes
            after_membership(step, ctx)
        return
    if any(isinstance(e, GameWon) for e in events):
        finish(step, ctx)
    else:
        step.table = arm(step.table, ctx)


def next_round(step: Step, by: str, ctx: Ctx, *, source: str) -> None:
    t = step.table
    g = t.game
    assert g is not None
    if g.phase is not Phase.ROUND_OVER:
        raise Refused("round_in_progress")
    waiting: list[str] = []
    strikes = dict(t.strikes)
    version = t.version
    for p in t.waiting:  # players who sat down during the round join now
        try:
            g, ev = engine.join(g, p)
        except IllegalAction:
            waiting.append(p)
            continue
        step.events.extend(ev)
        strikes.pop(p, None)
        # in the log too, so that replaying it rebuilds the game
        version += 1
        step.actions.append(ActionRecord(t.key, t.game_no, version, p, {"type": "Join"}, ctx.now))
    step.table = t.evolve(game=g, waiting=tuple(waiting), version=version, strikes=strikes)
    apply(step, by, NextRound(), ctx, source=source)


def finish(step: Step, ctx: Ctx) -> None:
    t = step.table
    g = t.game
    assert g is not None
    winner = g.winner
    names = t.names
    # fixed partners win as a team; rotating ones (partners=rotate) each for themselves
    wteam = g.team_of(winner) if winner is not None and g.rules.partners is True else None
    for p, score in g.scores.items():
        s = t.seat(p)
        if s is None or s.bot is not None:
            continue  # bots keep no statistics
        won = p == winner or (wteam is not None and g.team_of(p) == wteam)
        for scope in (t.scope, GLOBAL):
            step.stats.append(
                StatUpdate(
                    scope=scope,
                    player=p,
                    name=names.get(p, p),
                    games=1,
                    wins=1 if won else 0,
                    points=score,
                    cards_played=t.played.get(p, 0),
                )
            )
    step.notices.append(Notice("info.game_won", who(t, winner) if winner else {}))
    step.games.append(ratings.finished(t, g, step.events, ctx.now, ctx.settings.season))
    step.table = arm(touch(t, ctx, status=FINISHED), ctx)
    step.closed = True


def abandon(step: Step, ctx: Ctx) -> None:
    """The game in play at ``step.table`` ends without a result (stopped, left by every
    person, voted to an end): recorded as abandoned, with its players, and never rated
    (``bot.ratings``). Call it before the table is closed; a table with no game in play
    (a lobby) records nothing."""
    t = step.table
    if t.status != PLAYING or t.game is None:
        return
    step.games.append(ratings.abandoned(t, ctx.now, ctx.settings.season))


def stopped(step: Step, notice: Notice, ctx: Ctx) -> Step:
    """The one way a table's game ends without a result (``/stop``, a vote to end it,
    nobody left at it, every person gone): the game recorded as abandoned (``abandon``:
    never rated), the table stopped, its scores counted for nobody, its vote closed."""
    abandon(step, ctx)
    step.table = arm(touch(step.table, ctx, status=STOPPED, vote=None), ctx)
    step.closed = True
    step.notices.append(notice)
    return step


def count_round(step: Step, winner: str, places: Sequence[str] = ()) -> None:
    """A round won by a person counts in their statistics at once; so does each person's
    place in a round played out for places."""
    t = step.table
    s = t.seat(winner)
    if s is not None and s.bot is None:
        for scope in (t.scope, GLOBAL):
            step.stats.append(StatUpdate(scope, winner, s.name, rounds_won=1))
    for place, p in enumerate(places, 1):
        s = t.seat(p)
        if s is None or s.bot is not None:
            continue
        for scope in (t.scope, GLOBAL):
            step.stats.append(StatUpdate(scope, p, s.name, rounds_placed=1, places_total=place))


def after_membership(step: Step, ctx: Ctx) -> Step:
    """A host who left hands the table on; a table with no person left closes."""
    t = step.table
    g = t.game
    if not policy.is_open(t):
        return step
    if t.status == LOBBY:
        present = [s for s in t.seats if s.bot is None]
    else:
        here = set(g.players if g is not None else ()) | set(t.waiting)
        present = [s for s in t.seats if s.bot is None and s.id in here]
    if not present:
        return stopped(step, Notice("info.closed_empty"), ctx)
    if t.host not in {s.id for s in present} and present:
        step.table = arm(touch(step.table, ctx, host=present[0].id), ctx)
        step.notices.append(Notice("info.new_host", who(t, present[0].id)))
    return step


def bot_move(step: Step, ctx: Ctx) -> bool:
    """A move of a seat a bot plays (a bot seat, or a person on autopilot), applied: the
    one whose turn it is first, then any that would act out of turn; whether one moved."""
    t = step.table
    g = t.game
    assert g is not None
    pilots = sorted(presence.pilots(t), key=lambda pilot: pilot[0] != g.current)
    for p, strategy in pilots:
        if g.current != p and not ai.out_of_turn(g, p, strategy):
            continue
        if strategy != "expert":
            action = ai.choose(g, p, strategy, ctx.rng)
        elif (
            ctx.plan is not None
            and ctx.plan[:2] == (t.version, p)
            and ctx.plan[2] is not None
            and can_apply(g, p, ctx.plan[2])
        ):
            action = ctx.plan[2]  # searched on this very version
        else:  # out of turn (or its search did not come): as smart
            action = ai.choose(g, p, "smart", ctx.rng)
        if action is None:
            continue
        apply(step, p, action, ctx, source="bot")
        return True
    return False


# -- presence: who is at the table (``bot.presence``) ------------------------------------


def here(step: Step, player: str, now: float) -> None:
    """``player`` pressed something the table takes: they are present, and a seat the
    autopilot played is theirs again (a turn of theirs running: its clock in full)."""
    t = step.table
    changes: dict[str, Any] = {"acted": presence.acted(t, player, now)}
    if player in t.strikes:  # timeouts in a row: not any more
        changes["strikes"] = {p: n for p, n in t.strikes.items() if p != player}
    if player in t.autopilot:
        changes["autopilot"] = tuple(p for p in t.autopilot if p != player)
        changes["asked"] = tuple(p for p in t.asked if p != player)
        step.notices.append(Notice("info.autopilot_off", who(t, player)))
        step.hands.add(player)  # their hand offers "Play for me" again
        g = t.game
        turn = t.deadline("turn")
        if g is not None and g.current == player and turn is not None:
            length = window("turn", g)
            if length is not None:
                changes["deadlines"] = tuple(
                    Deadline("turn", max(d.due, now + length), d.version)
                    if d.kind == "turn" else d
                    for d in t.deadlines
                )  # fmt: skip
    step.table = t.evolve(**changes)


def away(step: Step, player: str, ctx: Ctx) -> None:
    """``player``'s turn timed out under ``absent=autopilot``: the autopilot plays their
    seat from now on (``bot.presence``)."""
    t = step.table
    g = t.game
    assert g is not None
    if g.phase is Phase.GAME_OVER:
        finish(step, ctx)
        return
    if player in presence.people(t) and player not in t.autopilot:
        t = step.table = t.evolve(autopilot=(*t.autopilot, player))
        step.notices.append(Notice("info.autopilot_away", who(t, player)))
        step.hands.add(player)
    if not nobody_here(step, ctx):
        step.table = arm(step.table, ctx)


def nobody_here(step: Step, ctx: Ctx) -> bool:
    """Whether nobody is at the table's game any more (``presence.all_away``): then it
    ends unrated, as ``/stop`` ends it (its version follows the timeout's)."""
    if not presence.all_away(step.table, ctx.now):
        return False
    stopped(step, Notice("info.all_away"), ctx)
    return True
