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

from bot.model import FINISHED, PLAYING
from bot.store import Store, WriteBatch, store_for
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
        self.opened: list[tuple[float, int, int]] = []  # (when, user, channel) Show hand
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
            await self.open_hand(t, user, row.meta.get("dc_msg"))
            return
        await self.act(user, msg, row.version)

    async def open_hand(self, t: Table, user: User, table_msg: Any) -> None:
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
        self.opened.append((time.monotonic(), user.id, t.channel.id))
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


async def test_four_shards_over_two_processes_one_killed_and_restarted(
    postgres_url: str, tmp_path: Path
) -> None:
    started = time.monotonic()
    fake = FakeDiscord(max_concurrency=4)
    tables: list[Table] = []
    for k in range(4):
        guild = fake.add_guild(f"server {k}", shard=(k, 4))
        channel = fake.add_channel(guild, "uno")
        names = ["Ann", "Ben"] if k % 2 else ["Cat"]
        users = [fake.add_user(guild, f"{n} {k}") for n in names]
        tables.append(Table(guild, channel, {f"dc:{u.id}": u for u in users}))
    await fake.start()
    store = store_for(postgres_url)
    await store.open()
    procs: list[Proc] = []
    try:
        # each server's default rules (what /uno new takes): a short single round
        scopes = [(f"dc:g:{t.guild.id}", "official", RULES, None) for t in tables]
        await store.write(WriteBatch(chat_settings=scopes))
        starting = (start_bot(fake, postgres_url, s, tmp_path) for s in SHARDS)
        procs = list(await asyncio.gather(*starting))
        marks = {"started": time.monotonic() - started}
        assert fake.shards_connected == {0, 1, 2, 3}
        assert fake.command_puts == 1  # by shard 0's process only

        async def slash(user: User, t: Table, sub: str, **options: Any) -> None:
            rec = await fake.slash(user, t.channel, sub, **options)
            await asyncio.wait_for(rec.done.wait(), 5)

            async def answered() -> bool:
                return bool(fake.replies(rec)) and not fake.replies(rec)[0].loading

            await until(answered, 10, f"/uno {sub} answered")

        for t in tables:
            host, *others = t.humans.values()
            await slash(host, t, "new")
            for other in others:
                await slash(other, t, "join")
            for _ in range(4 - len(t.humans)):
                await slash(host, t, "addbot")
            await slash(host, t, "start")

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
                await asyncio.sleep(0.03)

        async def all_going() -> bool:
            logs = [await store.actions(k) for k in keys]
            return min(len(x) for x in logs) >= 6

        marks["set up"] = time.monotonic() - started
        await play_until(all_going, 30, "every game under way")
        killed_at = time.monotonic()
        marks["kill"] = killed_at - started
        victim = procs[1]
        playing = [
            t
            for t in tables[2:]
            if (row := await store.get_table(t.key)) and row.status == PLAYING
        ]
        assert playing, "the killed process's games ended before the kill"
        # hand messages opened before the kill, in the servers of the killed process's shards
        channels = {t.channel.id for t in playing}
        before = {where: mid for where, mid in players.hands.items() if where[1] in channels}
        assert before, "nobody had opened a hand there"
        await stop_bot(victim, signal.SIGKILL)
        assert not fake.carried(tables[2].guild.id) and fake.carried(tables[0].guild.id)
        down_until = time.monotonic() + 1.5

        async def a_while() -> bool:
            return time.monotonic() > down_until

        await play_until(a_while, 5, "a while without shards 2-3")
        # started again (the other servers' people play on meanwhile)
        restart = asyncio.create_task(start_bot(fake, postgres_url, SHARDS[1], tmp_path))

        async def restarted() -> bool:
            return restart.done()

        await play_until(restarted, 30, "shards 2-3 back")
        procs[1] = restart.result()
        assert fake.shards_connected == {0, 1, 2, 3}
        marks["restarted"] = time.monotonic() - started

        async def all_over() -> bool:
            rows = [await store.get_table(k) for k in keys]
            return all(r is not None and r.status != PLAYING for r in rows)

        await play_until(all_over, 30, "every game over")
        marks["over"] = time.monotonic() - started
        await fake.wait_quiet(0.5)  # the last edits (the games' ends) are on their way

        gaps = []
        for t in tables:
            row = await store.get_table(t.key)
            assert row is not None and row.status == FINISHED, (t.key, row and row.status)
            log = await store.actions(t.key)
            gaps.append(
                max(
                    (b.at - a.at, a.player[:6], b.player[:6], b.action.get("type"))
                    for a, b in itertools.pairwise(log)
                )
            )
            versions = [r.version for r in log]
            assert versions == sorted(set(versions)), versions  # each change applied once
            assert row.game is not None
            assert game_json(replay(log, row.game_no)) == game_json(row.game)
        # the hands opened before the kill kept being shown: edited after it (through the
        # tokens kept with the tables), and nobody had to open another
        for mid in before.values():
            edits = [s for s in fake.shown if s.message_id == mid and s.at > killed_at]
            assert any(s.via == "webhook" for s in edits), f"hand {mid} not kept up"
            assert not fake.messages[mid].components  # the game is over: no buttons left
        reopened = [
            (u, c) for when, u, c in players.opened if when > killed_at and (u, c) in before
        ]
        assert reopened == []
        assert fake.errors == []
        for p in procs:
            assert await stop_bot(p) == 0
            assert not p.said("Traceback"), "\n".join(p.lines[-40:])
        # the interaction tokens kept in the database never show in a log
        tokens = [rec.token for rec in fake.interactions.values()]
        for p in [victim, *procs]:
            assert not any(tok in line for line in p.lines for tok in tokens)
        marks["stopped"] = time.monotonic() - started
        print("longest wait between two actions, per table:", gaps)
        print("hands opened after the kill:", len([o for o in players.opened if o[0] > killed_at]))
        print(
            "four shards, two processes, one killed:", {k: round(v, 1) for k, v in marks.items()}
        )
    finally:
        for p in procs:
            if p.proc.returncode is None:
                p.proc.kill()
                await p.proc.wait()
        await store.close()
        await fake.close()
