"""Deadlines as they fall due: what a due one does (``build``: a turn or a catch window
timed out, the next round dealt, a bot seat's move, a lobby that expired), firing it through
the one path (``fire``), and on a shared store which process fires each (``claim``) and
who takes over the overdue ones of a dead process (``poll_overdue``); the terminal's clocks
started afresh (``restart_clocks``) and restored deadlines clamped (``store_clamped``).
How long each kind is and when it falls: ``windows`` (``window(kind, game)``, ``arm``)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable

from bot import presence
from bot.model import LOBBY, PLAYING, STOPPED, Deadline, Table
from bot.port import Notice
from bot.service import absent, play
from bot.service.runner import Runner
from bot.service.steps import (
    CLAIM_SECONDS,
    LATE_SECONDS,
    OVERDUE_SECONDS,
    Ctx,
    Refused,
    Step,
    touch,
)
from bot.service.windows import arm, restarted
from bot.store import Stale, WriteBatch
from engine import Action, Phase, Timeout

log = logging.getLogger("bot.service")


def build(t: Table | None, d: Deadline, ctx: Ctx, late: Callable[[], bool]) -> Step | None:
    """Deadline ``d`` is due: the step it makes, if it still applies (``None``: the table
    moved on). ``late()``: whether a turn's deadline fires long after it was due (the bot
    was down: no AFK strike)."""
    if t is None or t.deadline(d.kind) != d:
        return None  # the table moved on
    if d.kind == "lobby":
        if t.status != LOBBY:
            return None
        step = Step(arm(touch(t, ctx, status=STOPPED), ctx))
        step.notices.append(Notice("info.lobby_expired"))
        step.closed = True
        return step
    if t.status != PLAYING:
        return None
    g = t.game
    assert g is not None
    if d.kind == "vote":
        return absent.vote_lapsed(t, d, ctx)
    step = Step(t)
    try:
        if d.kind == "turn":
            if g.current is None or d.version != t.turn_version:
                return None
            play.apply(step, g.current, Timeout(), ctx, source="late" if late() else "timer")
        elif d.kind.startswith("uno:"):
            p = d.kind[4:]
            if p not in g.exposed_players:
                return None
            play.apply(step, p, Timeout(window="uno"), ctx, source="timer")
        elif d.kind == "next_round":
            if g.phase is not Phase.ROUND_OVER:
                return None
            play.next_round(step, g.players[0], ctx, source="timer")
        elif d.kind == "bot":
            if d.version != t.version:
                return None
            if t.autopilot and presence.all_away(t, ctx.now):
                # nobody left but the autopilot: the game ends unrated (``bot.presence``)
                return play.stopped(step, Notice("info.all_away"), ctx)
            if not play.bot_move(step, ctx):
                return None
        else:
            return None
    except Refused as r:
        log.warning("deadline %s at %s refused: %s", d.kind, t.key, r.code)
        return None
    return step


async def fire(core: Runner, key: str, d: Deadline) -> None:
    """A deadline is due: act on it if it still applies, through the one path."""
    changed = False
    plan = await _plan(core, key, d) if d.kind == "bot" else None

    def decide(t: Table | None) -> Step | None:
        nonlocal changed
        ctx = dataclasses.replace(core.ctx(key), plan=plan)
        step = build(t, d, ctx, lambda: core.timers.late(key, d) > LATE_SECONDS)
        changed = step is not None
        return step

    # a deadline that changed nothing stays handed out by the timers: it does not fire
    # again until the table arms a new one
    await core._run(key, None, decide)
    if core.shared and not changed:  # nor, kept claimed, in any other process
        await core.store.spend(core.worker, key, d)


async def _plan(core: Runner, key: str, d: Deadline) -> tuple[int, str, Action | None] | None:
    """An expert seat whose turn it is at the version of deadline ``d``: its move,
    searched in the experts' worker before the table is locked (the other tables, and
    this one, go on meanwhile). ``None``: no expert to move, or the search failed."""
    t = core.cache.tables.get(key)
    g = t.game if t is not None else None
    if t is None or g is None or t.version != d.version or g.current is None:
        return None
    if not any(s.id == g.current and s.bot == "expert" for s in t.seats):
        return None
    try:
        action = await core.experts.decide(key, g, g.current, core._rng.getrandbits(64))
    except Exception:
        log.exception("table %s: the expert seat's search failed; it plays as smart", key)
        return None
    return t.version, g.current, action


async def claim(core: Runner, due: list[tuple[str, Deadline]]) -> list[tuple[str, Deadline]]:
    """The deadlines of ``due`` this process fires: those it claimed in the database.
    A table whose deadline another process claimed (or changed) is that one's now."""
    granted = await core.store.claim(core.worker, due, core.clock(), CLAIM_SECONDS)
    mine = []
    for key, d in due:
        if (key, d.kind) in granted:
            mine.append((key, d))
        elif core.timers.armed(key).get(d.kind) == d:  # (not re-armed here meanwhile)
            log.debug("table %s: its %s deadline is another process's", key, d.kind)
            core.timers.set(key, ())
            core.cache.forget(key)
    return mine


async def poll_overdue(core: Runner) -> int:
    """Claim the deadlines overdue that no process holds (their process died, or is
    stuck) and arm them here: they fire at once. Every ``POLL_SECONDS`` on a shared store
    (the timers call it); returns how many were taken."""
    now = core.clock()
    got = await core.store.claim_overdue(
        core.worker, now - OVERDUE_SECONDS, now, CLAIM_SECONDS, core.timers.max_running
    )
    for key, d in got:
        async with core.cache.lock(key):
            t = await core.cache.current(key)
            if t is None or t.deadline(d.kind) != d:
                continue  # changed meanwhile: whoever changed it armed the new ones
            core.timers.set(key, t.deadlines)
            core.timers.again(key, d)  # (if it was armed here, and handed out)
    if got:
        log.info("process %s took over %d overdue deadlines", core.worker, len(got))
        core.metrics.taken_over(len(got))
    return len(got)


async def restart_clocks(core: Runner, key: str) -> None:
    """Arm table ``key``'s deadlines afresh, each for its full length from now, and store
    them (see ``Service.restart_clocks``)."""
    async with core.cache.lock(key):
        t = core.cache.tables.get(key)
        if t is None:
            return
        fresh = restarted(t, core.ctx(key))
        if fresh == t.deadlines:
            return
        nt = t.evolve(deadlines=fresh)
        try:
            await asyncio.shield(core.store.write(WriteBatch(tables=[nt], expect={key: t.rev})))
        except Stale:  # another process has the table: its clocks are that one's
            await core.cache.load(key)
            return
        nt.rev = t.rev + 1
        core.cache.tables[key] = nt
        core.timers.set(key, nt.deadlines)


async def store_clamped(core: Runner, t: Table) -> None:
    """Deadlines clamped at start (``windows.clamp``), stored: other processes claim
    them as stored."""
    async with core.cache.lock(t.key):
        try:
            await core.store.write(WriteBatch(tables=[t], expect={t.key: t.rev}))
        except Stale:  # another process has it (and stored its own deadlines)
            await core.cache.load(t.key)
            return
        t.rev += 1
