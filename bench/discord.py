"""Discord front end: API calls per move and acknowledgement latency, on the fake Discord.

    python -m bench.discord [--games 8] [--slow-games 2] [--delay 0.5:2.0]

Whole games of three scripted users and a bot seat (one round each), played by pressing
what each user is shown, against the local fake Discord (``tests/fakes/discord_api.py``)
with the real discord.py client, the real table service and SQLite. First with a plain
database, then with a slow store injected (every write waits ``--delay`` seconds, drawn
uniformly) while another user presses Draw out of turn at the same moments, contending
for the table's lock (and refused). Reported per move (every action committed: people,
bot, timers): the public messages posted, public edits, interaction answers, ephemeral
edits and follow-ups, the hand pictures uploaded; the time to draw each picture uploaded;
and the acknowledgement latency of every interaction (from the
gateway dispatch to the callback reaching Discord), whose budget is 3 s, and the hand
response latency (from a press of "Show hand" or of a hand's button to the hand shown
to the player). The calls are counted apart by the token they are made with: the bot's
(counted against Discord's global limit of 50 a second for the whole bot) or an
interaction's (its answer, the edits of its ephemeral messages: outside that limit); and
the edits of a hand message that left it as it was are counted (there should be none).
Then the plain games again with the cards as application emojis
(``--emoji-games``): the set uploaded before the games, once.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters.discord.adapter import HAND_ACTIONS
from tests.adapters.discord.harness import World, name_of
from tests.fakes.discord_api import Call

KINDS = {
    "public message": ("POST", r"^/api/v10/channels/\d+/messages$"),
    "public edit": ("PATCH", r"^/api/v10/channels/\d+/messages/\d+$"),
    "interaction answer": ("POST", r"^/api/v10/interactions/"),
    "ephemeral edit": ("PATCH", r"^/api/v10/webhooks/"),
    "follow-up": ("POST", r"^/api/v10/webhooks/"),
}


# Calls made with the bot's token count against Discord's global limit (50 a second for
# the whole bot); those made with an interaction's token (its answer, its webhook: edits of
# an ephemeral message, follow-ups) do not.
INTERACTION_TOKEN = r"^/api/v10/(interactions|webhooks)/"


@dataclass
class Run:
    label: str
    games: int = 0
    moves: int = 0
    calls: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    acks: list[float] = field(default_factory=list)
    hands: list[float] = field(default_factory=list)  # press -> the hand shown
    uploads: int = 0  # requests carrying a file (a hand picture)
    bot_token: int = 0  # calls made with the bot's token (Discord's global limit)
    interaction_token: int = 0  # calls made with an interaction's token
    same_edits: int = 0  # edits of an ephemeral message that left it as it was
    image_times: list[float] = field(default_factory=list)
    max_public_per_move: int = 0
    winners: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _kind(c: Call) -> str | None:
    for name, (method, pattern) in KINDS.items():
        if c.method == method and re.search(pattern, c.path):
            return name
    return None


async def _game(world: World, run: Run, contend: bool) -> None:
    alice, bob, carol = world.users
    fake = world.fake
    await world.slash(alice, "new")
    table = await world.table_message()
    for u in (bob, carol):
        cid = world.button(table, "join")
        assert cid is not None
        await world.press(u, table, cid)
    cid = world.button(table, "addbot")
    assert cid is not None
    await world.press(alice, table, cid)
    await world.svc.configure(world.key(), f"dc:{alice.id}", overrides={"target": 0})
    await world.settle()
    first_call = len(fake.calls)
    first_interaction = len(fake.interactions)
    first_shown = len(fake.shown)
    info = await world.info()
    start_version = info.version
    cid = world.button(table, "start")
    assert cid is not None
    await world.press(alice, table, cid)

    humans = {f"dc:{u.id}": u for u in world.users}
    for _ in range(2000):
        await world.settle(timeout=120)
        info = await world.info()
        v = info.view
        if info.status != "playing" or v is None:
            break
        cur = v.current
        if cur is None or info.is_bot(cur):
            continue
        if contend:  # someone presses Draw out of turn: it waits for the lock, is refused
            other = next(u for p, u in humans.items() if p != cur)
            draw = world.button(table, "draw")
            moves: list[Any] = [world.act(humans[cur])]
            if draw is not None:
                moves.append(world.press(other, table, draw))
            await asyncio.gather(*moves)
        else:
            await world.act(humans[cur])
    await world.settle(timeout=120)
    final = await world.info()
    assert final.status == "finished", final.status
    assert final.view is not None and final.view.winner is not None
    run.winners.append(final.name(final.view.winner))
    run.games += 1
    actions = await world.store.actions(world.key())
    run.moves += sum(
        1 for a in actions if a.game_no == final.game_no and a.version > start_version
    )
    calls = fake.calls[first_call:]
    run.uploads += sum(1 for c in calls if c.files)
    for c in calls:
        if re.search(INTERACTION_TOKEN, c.path):
            run.interaction_token += 1
        elif c.path.startswith("/api/v10/"):
            run.bot_token += 1
    last: dict[int, tuple[str, str, str]] = {}
    for seen in fake.shown[first_shown:]:
        if seen.audience is None:
            continue
        now = (seen.content, _visible(seen.components), repr(seen.attachments))
        if seen.kind == "edit" and last.get(seen.message_id) == now:
            run.same_edits += 1
        last[seen.message_id] = now
    public_since_edit = 0
    for c in calls:
        kind = _kind(c)
        if kind is None:
            continue
        run.calls[kind] += 1
        if kind == "public message":
            public_since_edit += 1
            run.max_public_per_move = max(run.max_public_per_move, public_since_edit)
        elif kind == "public edit":
            public_since_edit = 0
    shown_at: dict[int, list[float]] = {}
    for seen in fake.shown:
        if seen.audience is not None and "🃏" in seen.content:
            shown_at.setdefault(seen.message_id, []).append(seen.at)
    for rec in list(fake.interactions.values())[first_interaction:]:
        assert rec.ack_latency is not None, "an interaction was never acknowledged"
        run.acks.append(rec.ack_latency)
        action = name_of(rec.custom_id or "")[0]  # (as the ids before the codec named it)
        if action == "hand" or action in HAND_ACTIONS:
            at = [
                t
                for mid in (rec.original, rec.source_message)
                if mid is not None
                for t in shown_at.get(mid, ())
                if t >= rec.created
            ]
            if at:
                run.hands.append(min(at) - rec.created)


def _visible(components: list[dict[str, Any]]) -> str:
    """What a player sees of components: not their ids (they carry the table's version)."""

    def strip(c: Any) -> Any:
        if isinstance(c, dict):
            return {k: strip(v) for k, v in c.items() if k != "custom_id"}
        if isinstance(c, list):
            return [strip(v) for v in c]
        return c

    return repr(strip(components))


async def measure(
    label: str, games: int, delay: Any, contend: bool, seed: int, emojis: bool = False
) -> Run:
    run = Run(label)
    with tempfile.TemporaryDirectory() as tmp:
        world = World(
            Path(tmp) / "bench.sqlite3", write_delay=delay, seed=seed, card_emojis=emojis
        )
        await world.start()
        if emojis:  # the set uploaded before the games (once, at the first start)
            assert await world.bot.cards.wait(300) is not None, world.bot.cards.error
        try:
            t0 = time.monotonic()
            for _ in range(games):
                await _game(world, run, contend)
            run.seconds = time.monotonic() - t0
            run.image_times = list(world.bot.image_times)
        finally:
            await world.close()
    return run


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def report(run: Run) -> None:
    moves = max(run.moves, 1)
    print(f"\n{run.label}: {run.games} games, {run.moves} moves, {run.seconds:.1f} s")
    print(f"  winners: {', '.join(run.winners)}")
    print("  API calls per move:")
    total = 0
    for kind, n in run.calls.items():
        total += n
        print(f"    {kind:<20} {n / moves:6.2f}   ({n} in all)")
    print(f"    {'all of them':<20} {total / moves:6.2f}")
    print(
        f"    {'with the bot token':<20} {run.bot_token / moves:6.2f}   (Discord's global limit;"
        f" goal <= 1.2)"
    )
    print(f"    {'with an interaction':<20} {run.interaction_token / moves:6.2f}")
    print(f"  ephemeral edits that changed nothing: {run.same_edits}")
    print(f"    {'hand pictures sent':<20} {run.uploads / moves:6.2f}   ({run.uploads} in all)")
    pics = run.image_times
    if pics:
        print(
            f"  hand picture drawn in: p50 {1000 * _pct(pics, 0.5):.2f} ms, "
            f"p99 {1000 * _pct(pics, 0.99):.2f} ms ({len(pics)} pictures)"
        )
    print(f"  most public messages in one move: {run.max_public_per_move}")
    acks = run.acks
    print(
        f"  acknowledgement latency over {len(acks)} interactions: "
        f"p50 {1000 * _pct(acks, 0.5):.1f} ms, p99 {1000 * _pct(acks, 0.99):.1f} ms, "
        f"max {1000 * max(acks or [0]):.1f} ms, mean {1000 * statistics.fmean(acks or [0]):.1f} ms"
    )
    print(f"  within 3 s: {sum(1 for a in acks if a < 3.0)}/{len(acks)}")
    hands = run.hands
    print(
        f"  hand shown after a press, over {len(hands)} presses: "
        f"p50 {1000 * _pct(hands, 0.5):.1f} ms, p99 {1000 * _pct(hands, 0.99):.1f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.discord", description=__doc__)
    ap.add_argument("--games", type=int, default=8, help="games on a plain database")
    ap.add_argument("--slow-games", type=int, default=2, help="games on the slow store")
    ap.add_argument("--emoji-games", type=int, default=8, help="plain games, cards as emojis")
    ap.add_argument("--delay", default="0.5:2.0", help="seconds per write, LOW:HIGH")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    low, _, high = args.delay.partition(":")
    delay = (float(low), float(high or low))
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)

    async def _all() -> None:
        if args.games:
            report(await measure("plain SQLite", args.games, 0.0, False, args.seed))
        if args.emoji_games:
            label = "plain SQLite, cards as emojis"
            report(await measure(label, args.emoji_games, 0.0, False, args.seed, emojis=True))
        if args.slow_games:
            label = f"slow store ({delay[0]}-{delay[1]} s a write) with contention"
            report(await measure(label, args.slow_games, delay, True, args.seed + 1))

    asyncio.run(_all())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
