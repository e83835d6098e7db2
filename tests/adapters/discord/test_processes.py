"""Discord over several ``uno-bot run`` processes on one PostgreSQL database: four shards,
two real OS processes running two each, whole games in a server on each shard (people
pressing buttons through the fake Discord, and bot seats); the process running shards 2-3
is killed with SIGKILL mid-game and started again. Every game finishes, every table's log
holds each version once and replays to its stored game, and the hand messages players
opened before the kill keep being shown (edited by the other process meanwhile, then by
the restarted one) without their opening new ones."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.model import FINISHED, PLAYING
from bot.store import ChatUpdate, Store, WriteBatch, store_for
from engine import Phase
from tests.adapters.discord.harness import World
from tests.bot.helpers import game_json, replay
from tests.fakes.discord_api import Channel, FakeDiscord, Guild, Message, User

ROOT = Path(__file__).resolve().parents[3]
SHARDS = ("0-1/4", "2-3/4")
# a short single round: a few minutes of play for people become seconds here
RULES: dict[str, Any] = {"target": 0, "hand_size": 5, "turn_seconds": 60}
WAIT_FOR_REDRAW = 6.0  # how long a player waits for their hand to show their turn


@dataclass
class Proc:
    """One ``uno-bot run`` process and what it wrote to stderr."""

    shards: str
    proc: asyncio.subprocess.Process
    lines: list[str] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    async def read(self) -> None:
        assert self.proc.stderr is not None
        async for raw in self.proc.stderr:
            self.lines.append(raw.decode(errors="replace").rstrip())

    def said(self, text: str) -> bool:
        return any(text in line for line in self.lines)


async def start_bot(fake: FakeDiscord, db: str, shards: str, cwd: Path) -> Proc:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
    env.update(
        PYTHONPATH=str(ROOT),
        UNO_DISCORD_TOKEN=fake.token,
        UNO_DISCORD_API_URL=fake.api_url,
        UNO_DB=db,
        UNO_DISCORD_SHARDS=shards,
        UNO_BOT_DELAY="0.05",
        UNO_ROUND_PAUSE_SECONDS="0.3",
        UNO_CARD_IMAGES="false",
        UNO_LOG_LEVEL="INFO",
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run",
        cwd=cwd, env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    p = Proc(shards, proc)
    p.reader = asyncio.create_task(p.read())
    for _ in range(300):  # up, its shards connected, its timers running
        if p.said("dc adapter started"):
            return p
        if proc.returncode is not None:
            break
        await asyncio.sleep(0.05)
    raise AssertionError(f"uno-bot run ({shards}) did not start: {p.lines[-20:]}")


async def stop_bot(p: Proc, sig: int = signal.SIGTERM) -> int:
    if p.proc.returncode is None:
        p.proc.send_signal(sig)
    code = await asyncio.wait_for(p.proc.wait(), 15)
    if p.reader is not None:
        await p.reader
    return code


@dataclass
class Table:
    guild: Guild
    channel: Channel
    humans: dict[str, User]

    @property
    def key(self) -> str:
        return f"dc:{self.channel.id}"


class Players:
    """Scripted people: each acts, when it is their turn, on what their hand message
    shows; they open a hand message ("Show hand") only when they have none with buttons,
    or it did not show their turn within ``WAIT_FOR_REDRAW`` seconds."""

    def __init__(self, fake: FakeDiscord, store: Store) -> None:
        self.fake = fake
        self.store = store
        self.hands: dict[tuple[int, int], int] = {}  # (user, channel) -> hand message
        # (when, user, channel, game number): each "Show hand" pressed
        self.opened: list[tuple[float, int, int, int]] = []
        self.game: dict[tuple[int, int], int] = {}  # the game each hand message is of
        self.waiting: dict[tuple[int, int], float] = {}  # their turn seen, since
        self.pressed: dict[tuple[int, str], float] = {}  # (message, custom id) -> when

    async def step(self, t: Table) -> None:
        row = await self.store.get_table(t.key)
        if row is None or row.status != PLAYING or row.game is None:
            return
        if not self.fake.carried(t.guild.id):
            return  # its shard's process is down: presses would fail ("interaction failed")
        g = row.game
        user = t.humans.get(g.current or "")
        if user is None or g.phase is Phase.ROUND_OVER:
            return
        where = (user.id, t.channel.id)
        mid = self.hands.get(where)
        msg = self.fake.messages.get(mid) if mid is not None else None
        now = time.monotonic()
        since = self.waiting.setdefault(where, now)
        if msg is None or msg.deleted or not msg.components:
            if msg is not None and now - since < WAIT_FOR_REDRAW:
                return  # their hand shows them waiting still: its redraw is on its way
            await self.open_hand(t, user, row.meta.get("dc_msg"), row.game_no)
            return
        await self.act(user, msg, row.version)

    async def open_hand(self, t: Table, user: User, table_msg: Any, game_no: int) -> None:
        if table_msg is None:
            return
        table = self.fake.messages[int(table_msg)]
        cid = World.button(table, "hand")
        if cid is None or self.recently(table.id, f"{cid}:{user.id}", 3.0):
            return
        rec = await self.fake.press(user, table, cid)
        await asyncio.wait_for(rec.done.wait(), 5)
        assert rec.original is not None
        self.hands[(user.id, t.channel.id)] = rec.original
        self.game[(user.id, t.channel.id)] = game_no
        self.opened.append((time.monotonic(), user.id, t.channel.id, game_no))
        self.waiting.pop((user.id, t.channel.id), None)

    def recently(self, message: int, what: str, seconds: float) -> bool:
        now = time.monotonic()
        last = self.pressed.get((message, what))
        if last is not None and now - last < seconds:
            return True
        self.pressed[(message, what)] = now
        return False

    async def act(self, user: User, msg: Message, version: int) -> None:
        """One sensible press on the hand message (as the in-process harness plays)."""
        choice: tuple[str, str | None] | None = None
        for action in ("uno", "color", "play", "pick"):
            cid = World.button(msg, action)
            if cid is not None:
                choice = (cid, None)
                break
        if choice is None and (sel := World.select(msg, "cards")) is not None:
            choice = (sel["custom_id"], sel["options"][0]["value"])
        if choice is None:
            for action in ("draw", "pass", "accept", "next"):
                cid = World.button(msg, action)
                if cid is not None:
                    choice = (cid, None)
                    break
        if choice is None or self.recently(msg.id, f"{choice[0]}={choice[1]}", 2.0):
            return
        rec = await self.fake.press(user, msg, choice[0], value=choice[1])
        await asyncio.wait_for(rec.done.wait(), 5)
        self.waiting.pop((user.id, rec.channel_id), None)


async def until(what: Any, seconds: float, why: str) -> None:
    end = time.monotonic() + seconds
    while not await what():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {why}")
        await asyncio.sleep(0.05)


def _count(shards: str) -> int:
    return int(shards.rsplit("/", 1)[1])


def _ids(shards: str) -> set[int]:
    ids: set[int] = set()
    for item in shards.rsplit("/", 1)[0].split(","):
        lo, _, hi = item.partition("-")
        ids.update(range(int(lo), int(hi or lo) + 1))
    return ids


async def play_with_kills(
    postgres_url: str,
    tmp_path: Path,
    shards: tuple[str, ...],
    kills: tuple[int, ...],
    *,
    rules: dict[str, Any] | None = None,
    seconds: float = 30,
) -> dict[str, Any]:
    """A server on each shard, its game played by its people and bot seats, while the
    processes ``kills`` name (by their index in ``shards``) are killed with SIGKILL in turn,
    each mid-game, and started again. Checks everything the module promises; returns
    figures to print."""
    started = time.monotonic()
    count = _count(shards[0])
    fake = FakeDiscord(max_concurrency=4)
    tables: list[Table] = []
    for k in range(count):
        guild = fake.add_guild(f"server {k}", shard=(k, count))
        channel = fake.add_channel(guild, "uno")
        names = ["Ann", "Ben"] if k % 2 else ["Cat"]
        users = [fake.add_user(guild, f"{n} {k}") for n in names]
        tables.append(Table(guild, channel, {f"dc:{u.id}": u for u in users}))
    await fake.start()
    store = store_for(postgres_url)
    await store.open()
    procs: list[Proc] = []
    killed: list[Proc] = []
    marks: dict[str, float] = {}
    try:
        # each server's default rules (what /uno new takes): a short single round
        scopes = [
            ChatUpdate(f"dc:g:{t.guild.id}", preset="official", overrides=rules or RULES)
            for t in tables
        ]
        await store.write(WriteBatch(chat_settings=scopes))
        starting = (start_bot(fake, postgres_url, s, tmp_path) for s in shards)
        procs = list(await asyncio.gather(*starting))
        marks["started"] = time.monotonic() - started
        assert fake.shards_connected == set(range(count))
        assert fake.command_puts == 1  # by shard 0's process only

        async def slash(user: User, t: Table, sub: str, **options: Any) -> None:
            rec = await fake.slash(user, t.channel, sub, **options)
            await asyncio.wait_for(rec.done.wait(), 5)

            async def answered() -> bool:
                return bool(fake.replies(rec)) and not fake.replies(rec)[0].loading

            await until(answered, 10, f"/uno {sub} answered")

        async def open_game(t: Table) -> None:
            host, *others = t.humans.values()
            await slash(host, t, "new")
            for other in others:
                await slash(other, t, "join")
            for _ in range(4 - len(t.humans)):
                await slash(host, t, "addbot")
            await slash(host, t, "start")

        for t in tables:
            await open_game(t)
        marks["set up"] = time.monotonic() - started
        # while kills are to come, a game over is followed by another (``rematch``)
        rematch = len(kills) > 1

        players = Players(fake, store)
        keys = [t.key for t in tables]

        async def situation() -> str:
            out = []
            for t in tables:
                row = await store.get_table(t.key)
                if row is None or row.game is None:
                    continue
                g = row.game
                out.append(f"{t.key} {row.status} v{row.version} {g.phase} {g.current}")
                for u in t.humans.values():
                    mid = players.hands.get((u.id, t.channel.id))
                    msg = fake.messages.get(mid) if mid else None
                    if msg is not None:
                        ids_ = [
                            c.get("custom_id") for r in msg.components for c in r["components"]
                        ]
                        out.append(f"  {u.name}: {msg.content!r} {ids_}")
            return "\n".join(out)

        async def play_until(done: Any, seconds: float, why: str) -> None:
            end = time.monotonic() + seconds
            while not await done():
                if time.monotonic() > end:
                    raise AssertionError(f"timed out: {why}\n" + await situation())
                for t in tables:
                    with contextlib.suppress(RuntimeError):  # its shard went down meanwhile
                        await players.step(t)
                        if rematch and fake.carried(t.guild.id):
                            row = await store.get_table(t.key)
                            if row is not None and row.status == FINISHED:
                                await open_game(t)
                await asyncio.sleep(0.03)

        # the hand messages opened before a kill, in the servers of the killed process, of
        # the games going then: (message, when killed, game number)
        before: dict[tuple[int, int], tuple[int, float, int]] = {}
        done_actions = dict.fromkeys(keys, 0)
        for n, victim_index in enumerate(kills):
            victim = procs[victim_index]
            mine = [t for t in tables if fake.shard_of(t.guild.id, count) in _ids(victim.shards)]

            async def going(mine: list[Table] = mine) -> bool:
                logs = [await store.actions(t.key) for t in mine]
                return all(
                    len(x) >= done_actions[t.key] + 6 for t, x in zip(mine, logs, strict=True)
                )

            await play_until(going, seconds, f"games under way before kill {n + 1}")
            rows = {t.key: await store.get_table(t.key) for t in mine}
            playing = [t for t in mine if (r := rows[t.key]) and r.status == PLAYING]
            assert playing, "the killed process's games ended before the kill"
            killed_at = time.monotonic()
            games = {t.channel.id: r.game_no for t in playing if (r := rows[t.key])}
            for where, mid in players.hands.items():
                if players.game.get(where) == games.get(where[1]):
                    before[where] = (mid, killed_at, games[where[1]])
            await stop_bot(victim, signal.SIGKILL)
            killed.append(victim)
            assert not any(fake.carried(t.guild.id) for t in mine)
            down_until = time.monotonic() + 1.5

            async def a_while(down_until: float = down_until) -> bool:
                return time.monotonic() > down_until

            await play_until(a_while, 5, "a while without the killed process's shards")
            # started again (the other servers' people play on meanwhile)
            restart = asyncio.create_task(start_bot(fake, postgres_url, victim.shards, tmp_path))

            async def restarted(restart: asyncio.Task[Proc] = restart) -> bool:
                return restart.done()

            await play_until(restarted, 30, "the killed process back")
            procs[victim_index] = restart.result()
            assert fake.shards_connected == set(range(count))
            marks[f"restarted {n + 1}"] = time.monotonic() - started
            for key in keys:
                done_actions[key] = len(await store.actions(key))
        rematch = False

        async def all_over() -> bool:
            rows = [await store.get_table(k) for k in keys]
            return all(r is not None and r.status != PLAYING for r in rows)

        await play_until(all_over, seconds, "every game over")
        marks["over"] = time.monotonic() - started
        await fake.wait_quiet(0.5)  # the last edits (the games' ends) are on their way

        gaps = []
        for t in tables:
            row = await store.get_table(t.key)
            assert row is not None and row.status == FINISHED, (t.key, row and row.status)
            log = await store.actions(t.key)
            versions = [r.version for r in log]
            assert versions == sorted(set(versions)), versions  # each change applied once
            assert row.game is not None
            assert game_json(replay(log, row.game_no)) == game_json(row.game)
            for n in range(1, row.game_no):  # (games before, with rematches: they replay)
                assert replay(log, n).phase is Phase.GAME_OVER
            gaps.append(max(b.at - a.at for a, b in itertools.pairwise(log)))
        # the hands opened before a kill kept being shown: edited after it (through the
        # tokens kept with the tables), and nobody had to open another
        for mid, at, _ in before.values():
            edits = [s for s in fake.shown if s.message_id == mid and s.at > at]
            assert any(s.via == "webhook" for s in edits), f"hand {mid} not kept up"
            assert not fake.messages[mid].components  # the game is over: no buttons left
        again = [
            (u, c)
            for when, u, c, game in players.opened
            if (u, c) in before and when > before[(u, c)][1] and game == before[(u, c)][2]
        ]
        assert again == []
        assert fake.errors == []
        for p in procs:
            assert await stop_bot(p) == 0
            assert not p.said("Traceback"), "\n".join(p.lines[-40:])
        # the interaction tokens kept in the database never show in a log
        tokens = [rec.token for rec in fake.interactions.values()]
        for p in [*killed, *procs]:
            assert not any(tok in line for line in p.lines for tok in tokens)
        marks["stopped"] = time.monotonic() - started
        return {
            "seconds": {k: round(v, 1) for k, v in marks.items()},
            "longest wait between two actions (per table)": [round(g, 1) for g in gaps],
            "hands opened again after a kill": len(again),
        }
    finally:
        for p in [*procs, *killed]:
            if p.proc.returncode is None:
                p.proc.kill()
                await p.proc.wait()
        await store.close()
        await fake.close()


async def test_four_shards_over_two_processes_one_killed_and_restarted(
    postgres_url: str, tmp_path: Path
) -> None:
    figures = await play_with_kills(postgres_url, tmp_path, SHARDS, kills=(1,))
    print("four shards, two processes, one killed:", figures)


@pytest.mark.soak
async def test_eight_shards_over_three_processes_each_killed_in_turn(
    postgres_url: str, tmp_path: Path
) -> None:
    rules = {**RULES, "target": 300, "hand_size": 7}  # several rounds: a game spans the kills
    figures = await play_with_kills(
        postgres_url,
        tmp_path,
        ("0-2/8", "3-5/8", "6-7/8"),
        kills=(1, 0, 2),
        rules=rules,
        seconds=180,
    )
    print("eight shards, three processes, each killed:", figures)
