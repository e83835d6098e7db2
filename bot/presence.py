"""Who is at a table (issue 22, "no dead tables"): the autopilot and the vote to end a game.

**The autopilot.** A seat may be played by a bot although a person sits in it: under the
table setting ``absent=autopilot`` from the player's first turn that times out, or at any
time when they ask for it ("Play for me"). The autopilot is the ``smart`` strategy
(``bot.seats.strategies``): it plays their turns and makes their other decisions (a colour,
a challenge, calling UNO, catching) through the same path as a bot seat, from the same
deadline. Any press of theirs that the table takes (a move, a vote, "Take my seat back")
hands the seat back; opening one's hand only looks. The people on autopilot are kept with
the table (``Table.autopilot``, stored), so a restart keeps them, and every table message
shows them.
**Nobody left.** Under ``absent=autopilot``, when nobody is at a game any more (every
person in it let their last turn time out, none asked for the autopilot, and nobody has
pressed anything for :func:`window` seconds), the game ends unrated, as ``/stop`` ends it,
at the next timeout or move of the autopilot: the bots would only be playing among
themselves for people who are gone. Those who asked for the autopilot may be watching: a
game left to it goes on to its result. (``absent=remove`` is as it was: its timeouts
remove a player after ``afk_strikes`` in a row, and a table with no person left closes.)

**The vote.** When neither the host nor an admin is around to ``/stop`` a stuck game, the
people playing it vote to end it (a button on the table). It ends when more than half of
those *present* have voted: the people in the game who pressed something the table took in
the last :func:`window` seconds (five minutes, or two turns' time at a table whose turns
are longer), each voter counting among them. A vote is open for :data:`VOTE_SECONDS`; then
it lapses (the table says so) and a new press opens a new one. A game ended by a vote is
stopped exactly as ``/stop`` stops it: recorded as abandoned, counted for nobody.

Pure functions of a table and the time; the service (``bot.service``) commits what they
decide (``bot.service.absent``, ``bot.service.play``).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.model import Table, Vote

__all__ = [
    "ACTIVE_SECONDS",
    "AUTOPILOT",
    "VOTE_SECONDS",
    "acted",
    "all_away",
    "needed",
    "open_vote",
    "people",
    "pilots",
    "present",
    "window",
]

# a person who pressed something the table took this recently is present (counts in a vote)
ACTIVE_SECONDS = 300.0
VOTE_SECONDS = 120.0  # how long a vote to end the game stays open
AUTOPILOT = "smart"  # the strategy that plays for a person on autopilot


def window(t: Table) -> float:
    """How recently a person must have pressed something to count as present: five
    minutes, or two turns' time at a table whose turns are longer (a slow game's thinker
    is not gone)."""
    return max(ACTIVE_SECONDS, 2.0 * t.rules.turn_seconds)


def people(t: Table) -> list[str]:
    """The people (not bot seats) playing the table's game, in seat order."""
    g = t.game
    if g is None:
        return []
    humans = {s.id for s in t.seats if s.bot is None}
    return [p for p in g.players if p in humans]


def acted(t: Table, player: str, now: float) -> dict[str, float]:
    """The table's ``acted`` with ``player`` pressing something at ``now``."""
    return {**t.acted, player: now}


def present(t: Table, now: float) -> set[str]:
    """The people in the game who pressed something in the last :func:`window` seconds."""
    since = now - window(t)
    return {p for p in people(t) if t.acted.get(p, float("-inf")) >= since}


def needed(t: Table, voters: Iterable[str], now: float) -> int:
    """The votes that end the game: more than half of those present, voters included."""
    return len(present(t, now) | set(voters)) // 2 + 1


def open_vote(t: Table, now: float) -> Vote | None:
    """The table's vote, if it is still open at ``now``."""
    v = t.vote
    return v if v is not None and v.until > now else None


def pilots(t: Table) -> list[tuple[str, str]]:
    """Every seat of the game a bot plays, with its strategy: the bot seats, and the
    people on autopilot."""
    g = t.game
    if g is None:
        return []
    out = [(s.id, s.bot) for s in t.seats if s.bot is not None and s.id in g.players]
    seated = set(g.players)
    out.extend((p, AUTOPILOT) for p in t.autopilot if p in seated)
    return out


def all_away(t: Table, now: float) -> bool:
    """Whether nobody is at the game any more: every person in it let their last turn time
    out (``Table.strikes``: a move of theirs resets it) and did not ask for the autopilot
    (they may be watching), and none has pressed anything for :func:`window` seconds."""
    everyone = people(t)
    return (
        bool(everyone)
        and all(t.strikes.get(p, 0) >= 1 and p not in t.asked for p in everyone)
        and not present(t, now)
    )
