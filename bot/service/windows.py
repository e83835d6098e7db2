"""How long each kind of deadline is and when it falls: ``window(kind, game)`` (the one
place a window's length is read), ``longest`` (with the wait for a message to be seen),
``arm`` (a table's deadlines recomputed after a change), ``clamp`` and ``restarted`` (after
the clock went back; the terminal's clocks started afresh). Pure. What a due deadline does
is ``deadlines``; the timers that wait for them are ``bot.timers``."""

from __future__ import annotations

import logging

from bot import presence
from bot.model import LOBBY, PLAYING, Deadline, Table
from bot.seats import strategies as ai
from bot.service.steps import Ctx
from engine import Phase
from engine.game import ACTIVE, Game

log = logging.getLogger("bot.service")


def window(kind: str, g: Game | None) -> float | None:
    """How long a deadline of ``kind`` gives people to act once they see it, in game
    ``g`` (``None``: it is nobody's to see: a bot's move, the round pause, the lobby)."""
    if g is None:
        return None
    if kind == "turn":
        secs = g.rules.challenge_seconds if g.phase is Phase.CHALLENGE else g.rules.turn_seconds
        return float(secs)
    if kind.startswith("uno:"):
        return float(g.rules.uno_window_seconds)
    return None


def longest(t: Table, kind: str, ctx: Ctx) -> float | None:
    """The longest a deadline of ``kind`` can be armed for at table ``t``."""
    if kind == "lobby":
        return float(ctx.settings.lobby_seconds)
    if kind == "bot":
        return ctx.bot_delay
    if kind == "next_round":
        return ctx.settings.round_pause_seconds
    if kind == "vote":
        return presence.VOTE_SECONDS
    secs = window(kind, t.game)
    if secs is None:
        return None
    return secs + (ctx.settings.show_wait_seconds if ctx.reports else 0.0)


def clamp(t: Table, ctx: Ctx) -> bool:
    """A restored deadline further away than its kind can ever be (the clock went back
    while the bot was down) is brought to ``now`` plus that length: no table waits for
    what would have been a clock's mistake. Only in memory (on a store of its own: the
    table's next change stores it); whether any was."""
    ds = []
    now = ctx.now
    for d in t.deadlines:
        most = longest(t, d.kind, ctx)
        if most is not None and d.due > now + most:
            log.warning(
                "table %s: its %s deadline was %.0f s away, longer than it can be "
                "(%g s): the clock went back; it is due in %g s",
                t.key, d.kind, d.due - now, most, most,
            )  # fmt: skip
            d = Deadline(d.kind, now + most, d.version)
        ds.append(d)
    changed = tuple(ds) != t.deadlines
    t.deadlines = tuple(ds)
    return changed


def restarted(t: Table, ctx: Ctx) -> tuple[Deadline, ...]:
    """``t``'s deadlines armed afresh, each for its full length from now."""
    fresh = []
    for d in t.deadlines:
        length = longest(t, d.kind, ctx)
        fresh.append(d if length is None else Deadline(d.kind, ctx.now + length, d.version))
    return tuple(fresh)


def bot_wants(t: Table) -> bool:
    """Whether a seat a bot plays (a bot seat, a person on autopilot) has a move to make
    (its turn, or one out of turn)."""
    g = t.game
    if g is None:
        return False
    for p, strategy in presence.pilots(t):
        if g.current == p or ai.out_of_turn(g, p, strategy):
            return True
    return False


def arm(t: Table, ctx: Ctx) -> Table:
    """``t`` with its deadlines recomputed (kept as they were where nothing changed)."""
    now = ctx.now
    old = {d.kind: d for d in t.deadlines}
    out: list[Deadline] = []
    if t.status == LOBBY:
        out.append(old.get("lobby") or Deadline("lobby", now + ctx.settings.lobby_seconds, 0))
    elif t.status == PLAYING:
        g = t.game
        assert g is not None
        if g.phase in ACTIVE:
            prev = old.get("turn")
            if prev is not None and prev.version == t.turn_version:
                out.append(prev)
            else:
                secs = window("turn", g) or 0.0
                secs += ctx.unseen(t, t.turn_version)
                out.append(Deadline("turn", now + secs, t.turn_version))
            if g.rules.uno_window_seconds > 0:
                for p in g.exposed_players:
                    kind = f"uno:{p}"
                    # the version that opened the window: ``shown`` re-arms it from the
                    # moment that version is seen (until then it cannot run out)
                    secs = (window(kind, g) or 0.0) + ctx.unseen(t, t.version)
                    out.append(old.get(kind) or Deadline(kind, now + secs, t.version))
            if bot_wants(t):
                prev = old.get("bot")
                if prev is not None and prev.version == t.version:
                    out.append(prev)
                else:
                    out.append(Deadline("bot", now + ctx.bot_delay, t.version))
        elif g.phase is Phase.ROUND_OVER:
            out.append(
                old.get("next_round")
                or Deadline("next_round", now + ctx.settings.round_pause_seconds, 0)
            )
        if t.vote is not None:  # it lapses when it is due
            out.append(Deadline("vote", t.vote.until, t.vote.version))
    t.deadlines = tuple(out)
    return t
