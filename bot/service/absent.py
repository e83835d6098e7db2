"""Absent players and stuck games (issue 22, ``bot.presence``) as pure step builders:
``autopilot`` (a person hands their seat to the autopilot, "Play for me", or takes it
back), ``vote_end`` (a vote to end a stuck game opens, counts, or ends it as ``/stop``
does: ``play.stopped``) and ``vote_lapsed`` (its deadline: the vote closes unmet). What a
press or a timeout does to who is present is ``play.here`` and ``play.away``. Nothing here
touches the store or the port."""

from __future__ import annotations

from bot import presence
from bot.model import PLAYING, Deadline, Table, Vote
from bot.port import Notice
from bot.service.play import here, stopped
from bot.service.steps import Ctx, Refused, Step, open_table, touch, who
from bot.service.windows import arm


def autopilot(t: Table | None, player: str, on: bool, ctx: Ctx) -> Step:
    """``player`` hands their seat to the autopilot (``on``: "Play for me") or takes it
    back."""
    t = open_table(t)
    if t.status != PLAYING:
        raise Refused("not_started")
    if not isinstance(player, str) or player not in presence.people(t):
        raise Refused("not_a_player")
    if on == (player in t.autopilot):
        raise Refused("autopilot_on" if on else "autopilot_off")
    if not on:
        step = Step(touch(t, ctx))
        here(step, player, ctx.now)
        step.table = arm(step.table, ctx)
        return step
    nt = touch(
        t,
        ctx,
        autopilot=(*t.autopilot, player),
        asked=(*t.asked, player),
        acted=presence.acted(t, player, ctx.now),
    )
    step = Step(arm(nt, ctx))
    step.notices.append(Notice("info.autopilot_on", who(t, player)))
    step.hands.add(player)  # their hand offers their seat back
    return step


def vote_end(t: Table | None, player: str, vote: int, ctx: Ctx) -> Step:
    """``player`` votes to end the game (``vote``: the version the vote they pressed
    opened at, 0 for a button drawn while none was open): a vote opens, or counts, or
    ends the game (``bot.presence``), recorded as abandoned as ``/stop`` records it."""
    t = open_table(t)
    if t.status != PLAYING:
        raise Refused("not_started")
    if not isinstance(player, str) or player not in presence.people(t):
        raise Refused("vote_not_player")
    now = ctx.now
    current = presence.open_vote(t, now)
    if vote and (current is None or current.version != vote):
        raise Refused("vote_expired")
    if current is not None and player in current.voters:
        raise Refused("vote_twice")
    voters = (*current.voters, player) if current is not None else (player,)
    step = Step(t)
    here(step, player, now)
    need = presence.needed(step.table, voters, now)
    if len(voters) >= need:
        said = {"votes": len(voters), "needed": need}
        return stopped(Step(step.table), Notice("info.vote_ended", said), ctx)
    # the vote's id is the version that opens it (this one, for a new vote)
    opened = current or Vote(t.version + 1, now + presence.VOTE_SECONDS)
    nt = touch(step.table, ctx, vote=Vote(opened.version, opened.until, voters))
    step.table = arm(nt, ctx)
    left = round(opened.until - now)
    said = {**who(t, player), "votes": len(voters), "needed": need, "seconds": left}
    step.notices.append(Notice("info.vote_open", said))
    return step


def vote_lapsed(t: Table, d: Deadline, ctx: Ctx) -> Step | None:
    """The vote to end the game ran out without enough votes (its deadline ``d``): it
    closes, and the table says so."""
    v = t.vote
    if v is None or v.version != d.version:
        return None
    needed = presence.needed(t, v.voters, ctx.now)
    step = Step(arm(touch(t, ctx, vote=None), ctx))
    step.notices.append(Notice("info.vote_lapsed", {"votes": len(v.voters), "needed": needed}))
    return step
