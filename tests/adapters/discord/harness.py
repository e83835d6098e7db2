"""A world to test the Discord adapter in: the fake Discord, the real discord.py client, the
real table service on a temporary SQLite database, and scripted users who press what they
are shown. Used by the end-to-end tests and by ``bench/discord.py``."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from adapters.discord import Adapter, ids
from bot.model import PLAYING, Seat, Table
from bot.ops.config import Settings
from bot.port import RoutingPort, TableInfo
from bot.service import Service
from bot.store import SqliteStore, Store, WriteBatch, store_for
from bot.ui import settings_schema as schema
from bot.ui.intents import (
    Act,
    Back,
    Choose,
    CloseSettings,
    Intent,
    Kick,
    OpenSettings,
    Page,
    Pick,
    Press,
    SetFlag,
    SetPreset,
    decode,
)
from engine import CatchUno, ChooseColor, Game, Phase, Play, Rules, scenario
from tests.fakes.discord_api import Channel, FakeDiscord, Guild, Interaction, Message, User

__all__ = ["Cluster", "Node", "SlowStore", "World", "name_of"]

HAND_HEADER_EN = "🃏 Your cards"


# what each intent was called in the ids before the codec (``uno:<action>:...``)
_NAMES = {
    "Join": "join", "Leave": "leave", "AddBot": "addbot", "Start": "start",
    "OpenHand": "hand", "Refresh": "refresh", "Draw": "draw", "CallUno": "uno",
    "Challenge": "challenge", "Accept": "accept", "NextRound": "next", "Pass": "pass",
}  # fmt: skip


def name_of(custom_id: str) -> tuple[str, str | None]:
    """A component's custom id as the ids before the codec named it: its action and its
    argument (``("play", "W~R")``, ``("catch", "b1")``, ``("flag", "<key>")``); ``("", None)``
    for one that is not a press."""
    if custom_id.startswith("uno:"):
        parts = custom_id.split(":")
        return parts[1], parts[4] if len(parts) > 4 else None
    press = decode(custom_id, limit=ids.MAX_CUSTOM_ID)
    if not isinstance(press, Press):
        return "", None
    if isinstance(press.raw, Choose):  # a select
        menu = press.raw.menu
        return ("flag", menu[1:]) if menu.startswith("f") else (menu, None)
    return _name(press.raw)


def _name(intent: Intent) -> tuple[str, str | None]:
    if isinstance(intent, Act):
        a = intent.action
        if isinstance(a, Play):
            arg = "+".join(c.code for c in a.cards)
            arg += f"~{a.color.value}" if a.color is not None else ""
            arg += f"@{a.target}" if a.target is not None else ""
            return "play", arg + ("!" if a.uno else "")
        if isinstance(a, ChooseColor):
            return "color", a.color.value
        if isinstance(a, CatchUno):
            return "catch", a.target
        return _NAMES.get(type(a).__name__, ""), None
    if isinstance(intent, Pick):
        return "pick", intent.choice
    if isinstance(intent, Page):
        return "page", str(intent.n)
    if isinstance(intent, Back):
        return "back", None
    if isinstance(intent, OpenSettings):
        return "settings", str(intent.page)
    if isinstance(intent, CloseSettings):
        return "done", None
    return _NAMES.get(type(intent).__name__, ""), None


class SlowStore:
    """A store whose writes (and, optionally, reads) take longer: a slow disk or a
    database far away. Everything else is the wrapped store's."""

    def __init__(self, inner: SqliteStore, write_delay: float, read_delay: float = 0.0) -> None:
        self.inner = inner
        self.write_delay = write_delay
        self.read_delay = read_delay
        self.writes = 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if self.read_delay and name in (
            "get_table", "chat_settings", "user_lang", "leaderboard", "player_stats"
        ) and callable(attr):  # fmt: skip

            async def slow(*args: Any, **kwargs: Any) -> Any:
                await asyncio.sleep(self.read_delay)
                return await attr(*args, **kwargs)

            return slow
        return attr

    async def write(self, batch: WriteBatch) -> None:
        self.writes += 1
        delay = self.write_delay
        if isinstance(delay, tuple):
            delay = random.uniform(*delay)
        await asyncio.sleep(delay)
        await self.inner.write(batch)


class World:
    """One fake Discord with a guild, a channel and users, and the bot connected to it."""

    def __init__(
        self,
        db: Path,
        *,
        guild_locale: str = "en-US",
        user_locale: str | None = None,
        users: Sequence[str] = ("Alice", "Bob", "Carol"),
        admin: Sequence[str] = (),
        write_delay: Any = 0.0,
        read_delay: float = 0.0,
        hand_ttl: float = 14 * 60.0,
        token_ttl: float = 15 * 60.0,
        seed: int = 7,
        round_pause: float = 0.05,
        lobby_seconds: int = 600,
        guild_commands: bool = False,
        card_images: bool = True,
        card_emojis: bool = False,
    ) -> None:
        self.db = db
        self.guild_commands = guild_commands
        self.card_images = card_images
        self.card_emojis = card_emojis  # the cards as emojis (the hand picture is apart)
        self.fake = FakeDiscord(token_ttl=token_ttl)
        self.guild: Guild = self.fake.add_guild("UNO Club", locale=guild_locale)
        self.channel: Channel = self.fake.add_channel(self.guild, "uno")
        self.users: list[User] = [
            self.fake.add_user(
                self.guild, name, locale=user_locale or guild_locale, admin=name in admin
            )
            for name in users
        ]
        self.write_delay = write_delay
        self.read_delay = read_delay
        self.hand_ttl = hand_ttl
        self.seed = seed
        self.round_pause = round_pause
        self.lobby_seconds = lobby_seconds
        self.store: Any = None
        self.service: Service | None = None
        self.adapter: Adapter | None = None
        self.hands: dict[tuple[int, int], int] = {}  # (user, channel) -> hand message

    # -- life cycle ---------------------------------------------------------------------------

    @property
    def settings(self) -> Settings:
        return Settings(
            db=self.db,
            discord_token=SecretStr(self.fake.token),
            discord_api_url=self.fake.api_url,
            round_pause_seconds=self.round_pause,
            lobby_seconds=self.lobby_seconds,
            discord_guilds=str(self.guild.id) if self.guild_commands else "",
            card_images=self.card_images,
        )

    async def start(self) -> World:
        await self.fake.start()
        await self.boot()
        return self

    async def boot(self, tables: Sequence[Table] = ()) -> None:
        """Open the database (writing ``tables`` into it first), start the service and
        connect the bot."""
        inner = SqliteStore(self.db)
        await inner.open()
        if tables:
            await inner.write(WriteBatch(tables=list(tables)))
        self.store = (
            SlowStore(inner, self.write_delay, self.read_delay)
            if self.write_delay or self.read_delay
            else inner
        )
        router = RoutingPort()
        settings = self.settings
        self.service = Service(self.store, router, settings, bot_delay=0, seed=self.seed)
        self.adapter = Adapter(
            settings,
            self.service,
            hand_ttl=self.hand_ttl,
            guild_ready_timeout=0.05,
            card_emojis=self.card_emojis,
        )
        router.add(self.adapter.prefix, self.adapter)
        # as ``uno-bot run`` does: the tables first, the platform, then the timers
        await self.service.start(run_timers=False)
        await self.adapter.start()
        self.service.timers.start()

    async def halt(self) -> None:
        """Stop the bot as a process exit would (the database stays)."""
        if self.adapter is not None:
            await self.adapter.stop()
        if self.service is not None:
            await self.service.stop()
        if self.store is not None:
            await self.store.close()
        self.adapter = self.service = self.store = None

    async def restart(self) -> None:
        await self.halt()
        self.hands.clear()
        await self.boot()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.halt()
        await self.fake.close()

    @property
    def svc(self) -> Service:
        assert self.service is not None
        return self.service

    @property
    def bot(self) -> Adapter:
        assert self.adapter is not None
        return self.adapter

    async def load_scenario(
        self,
        hands: dict[User, Sequence[str]],
        discard: Sequence[str],
        draw_pile: Sequence[str] = (),
        *,
        current: User | None = None,
        color: str | None = None,
        channel: Channel | None = None,
        **overrides: Any,
    ) -> None:
        """Restart the bot on a table set up by hand: ``hands`` (seat order), the discard
        pile (top last), the draw pile (first drawn first), rule ``overrides``."""
        key = self.key(channel)
        ids = {u: f"dc:{u.id}" for u in hands}
        players: dict[str, Sequence[str]] = {ids[u]: cards for u, cards in hands.items()}
        rules = Rules.preset("official", **overrides)
        game = scenario(
            players,
            discard,
            draw_pile,
            current=ids[current] if current is not None else None,
            color=color,
            rules=rules,
        )
        seats = [Seat(ids[u], u.display_name) for u in hands]
        guild = (channel or self.channel).guild_id
        table = scenario_table(key, f"dc:g:{guild}", game, seats, overrides=dict(overrides))
        await self.halt()
        await self.boot(tables=[table])

    # -- waiting --------------------------------------------------------------------------------

    async def settle(self, timeout: float = 20.0) -> None:
        """Until every interaction is answered, nothing is queued or running, no timer is
        about to fire and the fake heard nothing for a moment."""
        end = time.monotonic() + timeout
        while True:
            if time.monotonic() > end:
                raise TimeoutError("the world did not settle")
            await asyncio.sleep(0.005)
            now = time.monotonic()
            limit = self.fake.ack_deadline + 1.0
            if any(
                r.acked_at is None and now - r.created < limit
                for r in self.fake.interactions.values()
            ):
                continue
            await self.bot.idle(timeout)
            timers = self.svc.timers
            nxt = timers.next_due()
            if timers._running or (nxt is not None and nxt - time.time() < 0.1):
                continue
            if time.monotonic() - self.fake.last_activity < 0.02:
                continue
            if self.bot.outbox.busy:
                continue
            return

    # -- what users do ------------------------------------------------------------------------

    async def slash(
        self, user: User, sub: str, channel: Channel | None = None, **options: Any
    ) -> Interaction:
        rec = await self.fake.slash(user, channel or self.channel, sub, **options)
        await self.settle()
        self._note_hand(rec)
        return rec

    def _note_hand(self, rec: Interaction) -> None:
        """The user's live hand message is the one they last got or pressed."""
        for mid in (rec.original, rec.source_message):
            msg = self.fake.messages.get(mid) if mid is not None else None
            if msg is not None and msg.audience == rec.user.id and "🃏" in msg.content:
                self.hands[(rec.user.id, rec.channel_id)] = msg.id
                return

    async def press(
        self,
        user: User,
        msg: Message | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        value: str | None = None,
        forge: bool = False,
        stale: bool = False,
    ) -> Interaction:
        rec = await self.fake.press(
            user, msg, custom_id, label=label, value=value, forge=forge, stale=stale
        )
        await self.settle()
        self._note_hand(rec)
        return rec

    # -- what users see -------------------------------------------------------------------------

    def key(self, channel: Channel | None = None) -> str:
        return f"dc:{(channel or self.channel).id}"

    async def info(self, channel: Channel | None = None) -> TableInfo:
        info = await self.svc.table(self.key(channel))
        assert info is not None
        return info

    async def table_message(self, channel: Channel | None = None) -> Message:
        info = await self.info(channel)
        mid = info.meta.get("dc_msg")
        assert mid is not None, "the table has no message yet"
        return self.fake.messages[int(mid)]

    @staticmethod
    def button(msg: Message, action: str, arg: str | None = None) -> str | None:
        """The custom id of the first enabled button of ``action`` (as the ids before the
        codec named them: ``join``, ``play`` ``R5``, ``catch`` ``b1``... ``name_of``)."""
        for b in msg.buttons():
            cid = b.get("custom_id", "")
            name, got = name_of(cid)
            if name == action and not b.get("disabled") and (arg is None or got == arg):
                return str(cid)
        return None

    @staticmethod
    def select(msg: Message, action: str) -> dict[str, Any] | None:
        """The first select of ``action`` (``cards``, ``preset``, ``flag``, ``kick``)."""
        for s in msg.selects():
            if name_of(s.get("custom_id", ""))[0] == action:
                return s
        return None

    @staticmethod
    def flag_select(msg: Message, flag: str) -> dict[str, Any] | None:
        """The select of ``flag`` on a settings menu."""
        key = schema.spec(flag).key
        for s in msg.selects():
            if name_of(s.get("custom_id", "")) == ("flag", key):
                return s
        return None

    async def flag_page(self, user: User, menu: Message, flag: str) -> dict[str, Any]:
        """Page through ``user``'s settings ``menu`` (◀, then ▶) to ``flag``'s select."""
        for arrow in ("◀", "▶"):
            while (found := self.flag_select(menu, flag)) is None:
                nxt = [b for b in menu.buttons() if b["label"] == arrow and not b.get("disabled")]
                if not nxt:
                    break
                await self.press(user, menu, nxt[0]["custom_id"])
            if found is not None:
                return found
        raise AssertionError(f"no page of the settings has {flag!r}")

    @staticmethod
    def option(select: dict[str, Any], value: str) -> str:
        """The value of the option of ``select`` that chooses ``value`` (a preset's name,
        a flag's value as a button writes it, a player's short form)."""
        for o in select["options"]:
            press = ids.read(o["value"], (), select=False)
            intent = press.raw if isinstance(press, Press) else None
            plain = (
                intent.name if isinstance(intent, SetPreset)
                else schema.encode_value(intent.value) if isinstance(intent, SetFlag)
                else intent.target if isinstance(intent, Kick)
                else None
            )  # fmt: skip
            if plain == value:
                return str(o["value"])
        raise AssertionError(f"no option {value!r} in {select.get('custom_id')}")

    def hand_message(self, user: User, channel: Channel | None = None) -> Message | None:
        mid = self.hands.get((user.id, (channel or self.channel).id))
        return None if mid is None else self.fake.messages[mid]

    async def show_hand(self, user: User, channel: Channel | None = None) -> Message:
        table = await self.table_message(channel)
        cid = self.button(table, "hand")
        assert cid is not None, "no Show hand button on the table"
        rec = await self.press(user, table, cid)
        assert rec.original is not None
        return self.fake.messages[rec.original]

    async def act(
        self, user: User, channel: Channel | None = None, *, call_uno: bool = True
    ) -> str:
        """``user`` does one sensible thing from their hand message (opening it first when
        it is missing or retired): name a colour, play a card (through the select and its
        pages when need be, and a picker), else draw, pass, or take the cards."""
        msg = self.hand_message(user, channel)
        if msg is None or msg.deleted or not msg.components:
            msg = await self.show_hand(user, channel)
        if call_uno and (cid := self.button(msg, "uno")):
            await self.press(user, msg, cid)
            return "uno"
        for action in ("color", "play", "pick"):
            cid = self.button(msg, action)
            if cid is not None:
                await self.press(user, msg, cid)
                if action == "pick":
                    picked = self.button(msg, "play")
                    assert picked is not None, "the picker offers nothing"
                    await self.press(user, msg, picked)
                return action
        sel = self.select(msg, "cards")
        if sel is not None:
            await self.press(user, msg, sel["custom_id"], value=sel["options"][0]["value"])
            if (picked := self.button(msg, "play")) is not None:
                await self.press(user, msg, picked)
            return "select"
        for action in ("draw", "pass", "accept", "next"):
            cid = self.button(msg, action)
            if cid is not None:
                await self.press(user, msg, cid)
                return action
        return "nothing"

    async def play_game(
        self, humans: dict[str, User], channel: Channel | None = None, max_steps: int = 600
    ) -> TableInfo:
        """Play until the table closes: the player whose turn it is acts (bots on their
        own); between rounds someone presses Next round."""
        for _ in range(max_steps):
            await self.settle()
            info = await self.svc.table(self.key(channel))
            assert info is not None
            v = info.view
            if info.status != PLAYING or v is None:
                return info
            if v.phase is Phase.ROUND_OVER:
                table = await self.table_message(channel)
                cid = self.button(table, "next")
                if cid is not None:
                    await self.press(next(iter(humans.values())), table, cid)
                continue
            cur = v.current
            if cur is None or info.is_bot(cur):
                continue
            await self.act(humans[cur], channel)
        raise AssertionError("the game did not end")


@dataclass
class Node:
    """One bot "process" of a ``Cluster``: a store (a pool) of its own on the shared
    database, a service and a Discord adapter running some shards."""

    shards: str
    store: Store
    service: Service
    adapter: Adapter

    def runs(self, guild: Guild) -> bool:
        plan = self.adapter.settings.discord_shard_plan
        if plan is None:
            return True
        ids, count = plan
        return FakeDiscord.shard_of(guild.id, count) in ids


class Cluster(World):
    """Several bot processes on one PostgreSQL database, each running some of the shards
    (``UNO_DISCORD_SHARDS``), all in this test process, all connected to one fake Discord.
    ``svc`` and ``bot`` are the first's; ``settle`` waits for every one."""

    def __init__(
        self,
        db: str,
        shards: Sequence[str],
        *,
        max_concurrency: int = 16,
        identify_seconds: float = 5.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(Path("unused.sqlite3"), **kwargs)
        self.url = db
        self.shards = list(shards)
        self.fake.max_concurrency = max_concurrency
        self.identify_seconds = identify_seconds
        self.nodes: list[Node] = []

    def settings_for(self, shards: str) -> Settings:
        return self.settings.model_copy(update={"db": self.url, "discord_shards": shards})

    async def boot(self, tables: Sequence[Table] = ()) -> None:
        if tables:
            store = store_for(self.url)
            await store.open()
            try:
                await store.write(WriteBatch(tables=list(tables)))
            finally:
                await store.close()
        for i, shards in enumerate(self.shards):
            await self.start_node(shards, seed=self.seed + i)

    async def start_node(self, shards: str, *, seed: int | None = None) -> Node:
        store = store_for(self.url)
        await store.open()
        router = RoutingPort()
        settings = Settings(**self.settings_for(shards).model_dump())
        service = Service(store, router, settings, bot_delay=0, seed=seed)
        adapter = Adapter(
            settings,
            service,
            hand_ttl=self.hand_ttl,
            guild_ready_timeout=0.05,
            identify_seconds=self.identify_seconds,
        )
        router.add(adapter.prefix, adapter)
        await service.start(run_timers=False)
        await adapter.start()
        service.timers.start()
        node = Node(shards, store, service, adapter)
        self.nodes.append(node)
        if self.service is None:
            self.store, self.service, self.adapter = store, service, adapter
        return node

    async def stop_node(self, node: Node) -> None:
        await node.adapter.stop()
        await node.service.stop()
        await node.store.close()
        self.nodes.remove(node)
        if self.service is node.service:
            first = self.nodes[0] if self.nodes else None
            self.store = first.store if first else None
            self.service = first.service if first else None
            self.adapter = first.adapter if first else None

    async def halt(self) -> None:
        for node in list(reversed(self.nodes)):
            await self.stop_node(node)

    def node_of(self, guild: Guild) -> Node:
        """The node running ``guild``'s shard."""
        return next(n for n in self.nodes if n.runs(guild))

    async def settle(self, timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while True:
            if time.monotonic() > end:
                raise TimeoutError("the cluster did not settle")
            await asyncio.sleep(0.005)
            now = time.monotonic()
            limit = self.fake.ack_deadline + 1.0
            if any(
                r.acked_at is None and now - r.created < limit
                for r in self.fake.interactions.values()
            ):
                continue
            busy = False
            for node in self.nodes:
                await node.adapter.idle(timeout)
                timers = node.service.timers
                nxt = timers.next_due() if timers._task is not None else None  # (stopped)
                if timers._running or (nxt is not None and nxt - time.time() < 0.1):
                    busy = True
                if node.adapter.outbox.busy:
                    busy = True
            if busy or time.monotonic() - self.fake.last_activity < 0.05:
                continue
            return


def scenario_table(
    key: str,
    scope: str,
    game: Game,
    seats: Sequence[Seat],
    *,
    version: int = 5,
    preset: str = "official",
    overrides: dict[str, Any] | None = None,
) -> Table:
    """A table in play with a hand-made game (``engine.scenario``), to write into a store."""
    t = Table(
        key=key,
        scope=scope,
        host=seats[0].id,
        status=PLAYING,
        version=version,
        turn_version=version,
        game_no=1,
        seats=tuple(seats),
        preset=preset,
        overrides=dict(overrides or {}),
        created=time.time(),
        updated=time.time(),
    )
    return t.evolve(game=game)
