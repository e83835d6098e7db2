"""The Discord adapter: slash commands and components in, the table service's port out.

Every interaction is acknowledged first (``defer``: Discord allows 3 seconds, and a slow
database must not cost the answer), then turned into a service call with
``origin=<the interaction>``, then answered through the interaction token (15 minutes):
ephemeral for anything private. The port's calls arrive under the service's table lock, so
they only queue work in the :class:`~adapters.discord.outbox.Outbox`:

- ``show_table``: one edit of the table's one public message (coalesced per channel);
- ``show_hand``: an edit of the player's latest ephemeral hand message, by its id through
  the token of their latest interaction with it (a fresh "Show hand" after 15 minutes),
  with a picture of the cards attached (``hand.png``, uploaded again only when the cards
  or what can be played changed; ``UNO_CARD_IMAGES=false`` turns it off). The message
  and its token are kept with the table (``hand_record``): any process can draw it;
- ``announce``: a new public message for a round or game won and an AFK removal only;
- ``tell``: an ephemeral answer to the interaction that caused it (said on its own, a
  line under the player's hand);
- ``closed``: the table message's last edit, without buttons.

Table key ``dc:<channel id>`` (a thread is a channel, so threads have their own tables),
scope ``dc:g:<guild id>``, player ``dc:<user id>``. The client runs the shards
``UNO_DISCORD_SHARDS`` names; on a shared database (PostgreSQL) other processes run the
others, and any of them may show any table: what it draws is read from the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from adapters.discord import ids, text, views
from adapters.discord.commands import CommandTranslator, UnoCommands
from adapters.discord.emojis import CardEmojis, EmojiSets
from adapters.discord.outbox import Outbox
from bot import images, metrics, render
from bot.config import Settings
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, Translator, resolve_lang, translator
from bot.model import LOBBY, PLAYING
from bot.port import Notice, TableInfo
from bot.service import GLOBAL, Result, Service
from engine import (
    Accept,
    Action,
    Card,
    Challenge,
    ChooseColor,
    Draw,
    Event,
    NextRound,
    Pass,
    Phase,
    Play,
    Rules,
    View,
)

__all__ = ["DEFAULT_API", "Adapter", "UnoClient"]

log = logging.getLogger(__name__)

DEFAULT_API = "https://discord.com/api/v10"
# Discord lets ``max_concurrency`` shards IDENTIFY per 5 seconds: one per bucket
# (``shard_id % max_concurrency``), for the whole bot, whichever process runs the shard
IDENTIFY_SECONDS = 5.0
# An interaction token lives 15 minutes; a hand view is retired a little before that.
TOKEN_SECONDS = 15 * 60.0
HAND_TTL = 14 * 60.0
RECENT_PRIVATE = 4  # event lines under a hand
# a player's hand message kept with the table (``hand_record``), under this meta key prefix;
# written when what another process needs changed, or when its token is this much older
# than the one this process uses (so that the kept token stays good for another ~14 min)
HAND_META = "dc_hand:"
KEEP_SECONDS = 60.0
SWEEP_SECONDS = 60.0  # how often sessions whose token ran out are forgotten
# at a start, tables changed this recently are drawn again (see ``Adapter._reshow``)
RESHOW_SECONDS = 15 * 60.0
# how long a user's saved language is taken as read (another process may change it)
USER_LANG_SECONDS = 60.0
TEXT_MAX = 2000
HAND_IMAGE = "hand.png"
# Discord's JSON error codes
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
THREAD_ARCHIVED = 50083
# notices worth a message of their own; the rest is written under the table
NOTABLE = frozenset({"info.round_won", "info.game_won", "info.afk_removed"})
# actions whose buttons are refused once the table moved on (CallUno and CatchUno are not)
_VERSIONED = (Play, Draw, Pass, Accept, Challenge, ChooseColor, NextRound)
# private actions on a hand message
HAND_ACTIONS = frozenset(
    {"play", "pick", "color", "pass", "page", "back", "draw", "uno", "catch", "challenge",
     "accept", "next", "cards"}
)  # fmt: skip
# private actions on a settings or kick menu
MENU_ACTIONS = frozenset({"refresh", "setpage", "preset", "flag", "kick"})


def _cut(content: str) -> str:
    return content if len(content) <= TEXT_MAX else content[: TEXT_MAX - 1] + "…"


def md(text: str) -> str:
    """``text`` (a name) as it is to read inside a Discord message: its markdown shown as
    typed (no bold, no heading, no masked link, even one made with a neighbouring name: every
    ``]`` is escaped) and no mention that could ping (``@everyone``, ``<@id>``). Button
    labels and menu options show text as it is, so they take names unescaped."""
    escaped = discord.utils.escape_markdown(text, ignore_links=False).replace("]", "\\]")
    return discord.utils.escape_mentions(escaped)


def md_names(names: Mapping[str, str], notices: Sequence[Notice] = ()) -> dict[str, str]:
    """``names`` for a message's text (:func:`md`), with the names ``notices`` carry for
    players who are not in ``names`` (who left: render falls back to them)."""
    out = dict(names)
    for n in notices:
        pid, name = n.params.get("player"), n.params.get("name")
        if isinstance(pid, str) and isinstance(name, str):
            out.setdefault(pid, name)
    return {pid: md(name) for pid, name in out.items()}


def md_info(info: TableInfo) -> TableInfo:
    """``info`` with its seats' names ready for a message's text (:func:`md`)."""
    seats = tuple(dataclasses.replace(s, name=md(s.name)) for s in info.seats)
    return dataclasses.replace(info, seats=seats)


def notice_text(notice: Notice, tr: Translator, names: Mapping[str, str]) -> str:
    """A service notice as a Discord message says it: who else may do what the host may
    is Discord's own check (Manage Channels), and names are escaped."""
    return render.notice_text(notice, tr, md_names(names, (notice,)), platform="dc")


def table_key(channel_id: int) -> str:
    return f"dc:{channel_id}"


def scope_of(guild_id: int) -> str:
    return f"dc:g:{guild_id}"


def player_of(user: discord.abc.Snowflake) -> str:
    return f"dc:{user.id}"


@dataclass
class Origin:
    """What the adapter passes as ``origin`` to the service: the interaction being
    answered, whose refusals and private notices are collected to answer it."""

    interaction: discord.Interaction[Any]
    player: str
    lang: str
    notices: list[Notice] = field(default_factory=list)
    answer: int | None = None  # the message the deferred answer is (or edits), if known

    @property
    def tr(self) -> Translator:
        return translator(self.lang)


@dataclass
class HandSession:
    """A player's live ephemeral hand message at a table, and the way to edit it: the
    webhook token of their latest interaction with it, which lives 15 minutes from
    ``since`` (``PATCH /webhooks/<app>/<token>/messages/<message>``). Kept with the table
    too (``hand_record``): any process can then edit it, a restarted one included."""

    key: str
    player: str
    token: str
    app: int
    since: float  # unix time the token's interaction was created (its 15 minutes count)
    lang: str
    message: int | None = None  # the hand message (None: an answer not known yet)
    # the interaction whose token it is, in the process it came to (None: read from the
    # table's record); such a session's process also retires it when its token runs out
    interaction: discord.Interaction[Any] | None = None
    page: int = 0
    picking: str | None = None  # the group key of a card waiting for its colour or target
    forced: bool = True  # redraw even if nothing they can do changed
    final: bool = False  # the table closed: a last edit without buttons
    shown: Any = None  # what the last drawing offered (see ``hand_message``)
    drawn: str | None = None  # the token last drawn through
    drawn_in: int | None = None  # the message last drawn into
    drawn_sig: Any = None  # what was drawn into it then (text, components, picture)
    drawn_at: tuple[int, str] | None = None  # the table's (version, status) it showed
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_PRIVATE))
    expiry: asyncio.TimerHandle | None = None
    picture: Picture | None = None  # the cards to picture, as the game stands now
    # (message, attachment id, the picture) it carries, as this process last saw it
    pictured: tuple[int, int, Picture] | None = None
    stored: dict[str, Any] | None = None  # the record as last written or read here


def hand_record(s: HandSession) -> dict[str, Any]:
    """What is kept with the table (its meta, ``dc_hand:<player>``) of a player's hand
    message, so that another process (or this one after a restart) can edit it: the
    application id and the interaction token (a credential for 15 minutes, for that
    interaction's messages only), the message id, when the token's interaction was created,
    and what the message shows (language, page, a card waiting for its colour, and the
    private lines under the hand as they were then: they are not written for each line)."""
    return {
        "a": s.app,
        "t": s.token,
        "m": s.message,
        "s": s.since,
        "l": s.lang,
        "p": s.page,
        "k": s.picking,
        "r": list(s.recent),
    }


def _session_of(key: str, player: str, rec: Any) -> HandSession | None:
    """A session from a table's record of it (``None`` if the record is not one)."""
    if not isinstance(rec, Mapping):
        return None
    app, token, mid, since = rec.get("a"), rec.get("t"), rec.get("m"), rec.get("s")
    lang, page, picking = rec.get("l"), rec.get("p"), rec.get("k")
    if not (
        isinstance(app, int)
        and isinstance(token, str)
        and isinstance(mid, int)
        and isinstance(since, int | float)
        and isinstance(lang, str)
        and isinstance(page, int)
        and (picking is None or isinstance(picking, str))
    ):
        return None
    s = HandSession(key, player, token, app, float(since), lang, mid, page=page, picking=picking)
    s.drawn_in = mid  # (written once drawn)
    lines = rec.get("r")
    if isinstance(lines, list):
        s.recent.extend(str(x) for x in lines[-RECENT_PRIVATE:])
    s.stored = dict(rec)
    return s


# a hand picture: the cards in order, and the playable ones (None: nothing is marked)
Picture = tuple[tuple[Card, ...], frozenset[Card] | None]


class UnoClient(discord.AutoShardedClient):
    """The discord.py client: one command tree, the dynamic items, the adapter. Sharded:
    ``shard_ids`` of ``shard_count`` (``UNO_DISCORD_SHARDS``), or (both ``None``) every
    shard Discord recommends (discord.py asks ``/gateway/bot``)."""

    def __init__(
        self,
        adapter: Adapter,
        *,
        guild_ready_timeout: float = 2.0,
        shard_ids: Sequence[int] | None = None,
        shard_count: int | None = None,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels, threads and the guild's locale
        shards: dict[str, Any] = {}
        if shard_ids is not None:
            shards = {"shard_ids": list(shard_ids), "shard_count": shard_count}
        super().__init__(
            intents=intents,
            max_messages=None,
            guild_ready_timeout=guild_ready_timeout,
            # display names go into table texts: none of them may ever ping anyone
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=metrics.aiohttp_trace("dc", lambda: _shards(self)),  # counts 429s
            **shards,
        )
        self.adapter = adapter
        self.tree: app_commands.CommandTree[UnoClient] = app_commands.CommandTree(self)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # Discord's identify limit, not discord.py's flat 5 s between any two shards
        await self.adapter.identify_turn(shard_id)

    async def setup_hook(self) -> None:
        # buttons and selects keep working after a restart: the templates parse every id
        self.add_dynamic_items(views.UnoButton, views.UnoSelect)
        await self.tree.set_translator(CommandTranslator())
        self.tree.add_command(UnoCommands(self.adapter))
        self.tree.on_error = self.adapter.command_failed  # type: ignore[method-assign]
        await self.adapter.sync_commands()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A component that no template claims (not ``uno:...``) is refused, not ignored;
        one that discord.py will not hand to its template (below) is handled here."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, Any] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        templates = (views.UnoButton, views.UnoSelect)
        if not any(t.__discord_ui_compiled_template__.fullmatch(custom_id) for t in templates):
            await self.adapter.refuse_unknown(interaction)
        elif not _dispatched(interaction, custom_id):
            # discord.py calls a DynamicItem only when the message the interaction carries
            # still shows that component; a click that raced an edit of the message (the
            # table moves on every turn) carries the edited message, and would go
            # unanswered. The adapter checks the id and its version like any other press.
            await self.adapter.on_component(
                interaction, custom_id, views.select_values(interaction), select=_is_select(data)
            )


def _shards(client: discord.Client) -> str:
    """The shards ``client`` runs, as a metrics label (``"0-1/4"``; ``""``: unsharded)."""
    one = client.shard_id
    ids = getattr(client, "shard_ids", None) or ([] if one is None else [one])
    return metrics.shard_range(ids, client.shard_count)


class Adapter:
    """Discord for the table service: ``await start()``, ``await stop()``; a ``Port``."""

    prefix = "dc"

    def __init__(
        self,
        settings: Settings,
        service: Service,
        *,
        hand_ttl: float = HAND_TTL,
        sync_commands: bool = True,
        guild_ready_timeout: float = 2.0,
        card_emojis: bool = True,
        identify_seconds: float = IDENTIFY_SECONDS,
    ) -> None:
        self.settings = settings
        self.service = service
        # the cards as application emojis (``UNO_CARD_IMAGES``): checked or made at start
        self.cards = EmojiSets(
            getattr(service, "store", None),
            enabled=settings.card_images and card_emojis,
            worker=getattr(service, "worker", "discord"),
        )
        self.hand_ttl = hand_ttl
        self._guild_ready_timeout = guild_ready_timeout
        # the shards this process runs (None: all Discord recommends) and their count
        plan = settings.discord_shard_plan
        self.shard_ids: tuple[int, ...] | None = plan[0] if plan is not None else None
        self.shard_count: int | None = plan[1] if plan is not None else None
        # one process registers the commands: the one running shard 0 (or every shard)
        self._sync = sync_commands and (self.shard_ids is None or 0 in self.shard_ids)
        self.identify_seconds = identify_seconds
        self._max_concurrency = 1
        self._identified: dict[int, float] = {}  # identify bucket -> when this process last did
        self._identifies = 0
        self.client: UnoClient | None = None
        self.outbox = Outbox()
        self._runner: asyncio.Task[None] | None = None
        self._msg: dict[str, int] = {}  # table key -> its public message
        self._latest: dict[str, TableInfo] = {}  # the newest state to draw per table
        self._known: dict[str, dict[str, str]] = {}  # every name seen at a table
        self._news: dict[str, list[str]] = {}  # announcements waiting to be posted
        self._sessions: dict[tuple[str, str], HandSession] = {}
        self._swept = time.monotonic()
        # users' saved languages as read (and when): another process may change one
        self._user_lang: dict[str, tuple[str | None, float]] = {}
        self._guild_locale: dict[int, str] = {}
        self._handlers: set[asyncio.Task[Any]] = set()
        self._gone: set[str] = set()  # tables whose channel was deleted
        self._forbidden: set[str] = set()  # tables whose channel the bot may not write to
        self._saved: tuple[str, yarl.URL] | None = None
        self.closing = False  # stopping: new interactions are answered, not handled
        # seconds from receiving an interaction to acknowledging it (the latest ones)
        self.ack_latencies: deque[float] = deque(maxlen=10_000)
        # seconds spent drawing each hand picture uploaded (the latest ones)
        self.image_times: deque[float] = deque(maxlen=10_000)

    # -- life cycle ---------------------------------------------------------------------------

    async def start(self, *, timeout: float = 60.0) -> None:
        """Log in (syncing the commands), connect to the gateway, wait until ready."""
        token = self.settings.discord_token
        if token is None:
            raise RuntimeError("UNO_DISCORD_TOKEN is not set")
        base = self.settings.discord_api_url.rstrip("/")
        self.closing = False
        self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = base
        client = self.client = UnoClient(
            self,
            guild_ready_timeout=self._guild_ready_timeout,
            shard_ids=self.shard_ids,
            shard_count=self.shard_count,
        )
        try:
            await client.login(token.get_secret_value())
            # how many shards may identify at once (and, with another API, where its
            # gateway is: with a shard count given, discord.py dials DEFAULT_GATEWAY
            # without asking /gateway/bot)
            recommended, url, limits = await client.http.get_bot_gateway()
            self._max_concurrency = max(1, int(limits.get("max_concurrency") or 1))
            if base != DEFAULT_API:
                DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
            if self.shard_count is None:
                log.info("discord: running every shard (Discord recommends %d)", recommended)
            else:
                log.info(
                    "discord: running shards %s of %d (Discord recommends %d)",
                    ",".join(map(str, self.shard_ids or ())), self.shard_count, recommended,
                )  # fmt: skip
            self._runner = asyncio.create_task(client.connect(reconnect=True), name="uno-discord")
            ready = asyncio.create_task(client.wait_until_ready())
            done, _ = await asyncio.wait(
                {ready, self._runner}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if ready not in done:
                ready.cancel()
                if self._runner in done:
                    self._runner.result()  # raises what stopped the connection
                raise TimeoutError("Discord did not get ready in time")
            await self.cards.start(client)
        except BaseException:
            await self.stop()
            raise
        log.info("discord: logged in as %s", client.user)
        reshow = asyncio.create_task(self._reshow(), name="uno-discord-reshow")
        self._handlers.add(reshow)
        reshow.add_done_callback(self._handlers.discard)

    async def stop(self, flush: float = 10.0) -> None:
        """Finish queued sends (for up to ``flush`` seconds), then disconnect (restoring the
        patched class defaults). An interaction that arrives meanwhile is answered at once
        and changes nothing: its work could be cut off halfway, its answer lost with the
        connection."""
        self.closing = True
        await self.cards.stop()
        with contextlib.suppress(Exception):
            await self.idle(timeout=flush)
        for s in self._sessions.values():
            if s.expiry is not None:
                s.expiry.cancel()
        self._sessions.clear()
        await self.outbox.close()
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.close()
        if self._runner is not None:
            with contextlib.suppress(BaseException):
                await self._runner
            self._runner = None
        if self._saved is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    def connected(self) -> bool | dict[str, bool]:
        """Whether the gateway is connected (per shard, for a client with shards): for
        ``/healthz``."""
        client = self.client
        if client is None or client.is_closed():
            return False
        shards = getattr(client, "shards", None)  # an AutoShardedClient's
        if isinstance(shards, dict) and shards:
            return {str(i): not s.is_closed() for i, s in sorted(shards.items())}
        return client.is_ready() and client.ws is not None and client.ws.open

    def runs(self, scope: str) -> bool:
        """Whether this process runs the shard of the server of ``scope`` (``dc:g:<id>``)."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        try:
            guild = int(scope.rsplit(":", 1)[1])
        except (ValueError, IndexError):
            return False
        return (guild >> 22) % self.shard_count in self.shard_ids

    async def _reshow(self) -> None:
        """Once started: draw again the open tables of this process's servers that changed
        in the last ``RESHOW_SECONDS``, and the hand messages kept with them. A process
        killed between a commit and its edits (``kill -9``, a crash) left them behind what
        was committed; no later change may come soon (a person's turn waits for them)."""
        since = time.time() - RESHOW_SECONDS
        try:
            for key in self.service.open_tables():
                if self.closing:
                    return
                if not key.startswith(self.prefix + ":"):
                    continue
                info = await self.service.table(key)
                if info is None or info.status not in (LOBBY, PLAYING):
                    continue
                if info.updated >= since and self.runs(info.scope):
                    await self.show_table(info, [])
        except Exception:
            log.exception("discord: tables not shown again after the start")

    async def identify_turn(self, shard_id: int | None) -> None:
        """Wait until ``shard_id`` may IDENTIFY: Discord allows one identify per bucket
        (``shard_id % max_concurrency``) every 5 seconds for the whole bot. This process
        spaces its own; on a shared database a lease per bucket (``dc:identify:<bucket>``,
        held 5 seconds) spaces those of every process, so processes starting together (or
        one restarting) take turns instead of having sessions refused."""
        bucket = (shard_id or 0) % self._max_concurrency
        last = self._identified.get(bucket)
        if last is not None:
            wait = last + self.identify_seconds - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        if self.service.shared:
            self._identifies += 1
            owner = f"{self.service.worker}:{shard_id}:{self._identifies}"  # each identify's own
            name = f"dc:identify:{bucket}"
            store = self.service.store
            while not await store.lease(name, owner, time.time(), self.identify_seconds):
                await asyncio.sleep(0.2)
        self._identified[bucket] = time.monotonic()

    async def idle(self, timeout: float | None = None) -> None:
        """Wait until no interaction is being handled and nothing waits to be sent."""

        async def _wait() -> None:
            me = asyncio.current_task()
            while True:
                busy = [t for t in self._handlers if t is not me and not t.done()]
                if busy:
                    await asyncio.gather(*busy, return_exceptions=True)
                    continue
                if self.outbox.busy:
                    await self.outbox.drain()
                    continue
                return

        await asyncio.wait_for(_wait(), timeout)

    async def sync_commands(self) -> None:
        """Register ``/uno`` unless Discord already has exactly these commands."""
        client = self.client
        if client is None or not self._sync or client.application_id is None:
            return
        tree = client.tree
        translator_ = tree.translator
        assert translator_ is not None
        wanted = [await c.get_translated_payload(tree, translator_) for c in tree.get_commands()]
        guilds = self.settings.discord_guild_ids
        if not guilds:
            have = await client.http.get_global_commands(client.application_id)
            if _same_commands(have, wanted):
                log.info("discord: application commands are up to date")
                return
            await tree.sync()
            log.info("discord: application commands synced")
            return
        # UNO_DISCORD_GUILDS: registered in those servers only (a server's commands change
        # at once; global ones are left as they are)
        for gid in guilds:
            guild = discord.Object(gid)
            tree.copy_global_to(guild=guild)
            try:
                have = await client.http.get_guild_commands(client.application_id, gid)
                if _same_commands(have, wanted):
                    log.info("discord: application commands of server %s are up to date", gid)
                    continue
                await tree.sync(guild=guild)
                log.info("discord: application commands synced in server %s", gid)
            except discord.HTTPException as e:  # not in that server, or no access
                log.warning("discord: commands not registered in server %s: %s", gid, e)

    # -- languages ----------------------------------------------------------------------------

    def _guild_lang(self, scope: str) -> str | None:
        try:
            gid = int(scope.rsplit(":", 1)[1])
        except (ValueError, IndexError):
            return None
        found = self._guild_locale.get(gid)
        if found is None and self.client is not None:
            guild = self.client.get_guild(gid)
            if guild is not None:
                found = guild.preferred_locale.value
        return found

    def table_lang(self, info: TableInfo) -> str:
        """The table's language setting, else the guild's locale (as kept with the table
        where this process does not run the guild's shard), else the default."""
        kept = info.meta.get("dc_locale")
        guild = self._guild_lang(info.scope) or (kept if isinstance(kept, str) else None)
        return resolve_lang(info.lang, guild, self.settings.language)

    async def private_lang(self, interaction: discord.Interaction[Any]) -> str:
        """The user's saved language, else their Discord client's."""
        user = player_of(interaction.user)
        saved = self._saved_lang(user)
        if saved is None:
            lang = await self.service.user_lang(user)
            self._user_lang[user] = (lang, time.monotonic())
        else:
            lang = saved[0]
        return resolve_lang(lang, interaction.locale.value)

    def _saved_lang(self, user: str) -> tuple[str | None] | None:
        """A user's saved language as read lately (``None``: not known, or read too long
        ago: on a shared database another process may have changed it)."""
        got = self._user_lang.get(user)
        if got is None:
            return None
        if self.service.shared and time.monotonic() - got[1] > USER_LANG_SECONDS:
            del self._user_lang[user]
            return None
        return (got[0],)

    def _note_guild(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self._guild_locale[interaction.guild_id] = interaction.guild_locale.value

    @property
    def emojis(self) -> CardEmojis | None:
        """The cards as emojis, once the set is complete (else the cards are text)."""
        return self.cards.emojis

    # -- the port -----------------------------------------------------------------------------

    def names(self, table: TableInfo) -> dict[str, str]:
        """The table's names, with those who left it (a notice may still name them)."""
        known = self._known.setdefault(table.key, {})
        known.update(table.names)
        return dict(known)

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        self.names(table)  # who sat here: a notice may name them after they left
        self._latest[table.key] = table  # its recent lines included (kept with the table)
        self._queue_table(table.key)
        self._adopt(table)
        for s in self._sessions_at(table.key):
            self._queue_hand(s)

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        self._adopt(table)
        s = self._sessions.get((table.key, player))
        if s is None:
            return  # no live hand message: they see it on their next "Show hand"
        names = md_names(self.names(table))
        s.recent.extend(render.event_lines(events, translator(s.lang), names))
        self._queue_hand(s, force=True)

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        tr = translator(self.table_lang(table))
        line = notice_text(notice, tr, self.names(table))
        if notice.code in NOTABLE:
            # one message for the news of one change (a round and the game won together)
            self._news.setdefault(table.key, []).append(line)
            self.outbox.put(f"t:{table.key}", "news", lambda: self._post_news(table.key))
        else:  # one of the table's recent lines (``on_table``)
            self._latest.setdefault(table.key, table)
            self._queue_table(table.key)

    def on_table(self, key: str, status: str, notice: Notice) -> bool:
        """A notice shown among the table message's recent lines (kept with the table),
        not news of its own."""
        return notice.code not in NOTABLE

    async def tell(self, table_key: str, user: str, notice: Notice, origin: Any) -> None:
        if notice.code == "info.revealed" and (table_key, user) in self._sessions:
            # their hand message has it already: the challenge's line there (``show_hand``
            # comes first) names the cards
            return
        if isinstance(origin, Origin) and origin.player == user:
            origin.notices.append(notice)  # answered by the handler, after the call
            return
        s = self._sessions.get((table_key, user))
        if s is None or not self._alive(s):
            log.debug("no way to tell %s privately at %s: %s", user, table_key, notice.code)
            return
        # a line under their hand (whichever process says it: no follow-up message needs
        # the interaction itself)
        names = self._known.get(table_key, {})
        s.recent.append(notice_text(notice, translator(s.lang), names))
        self._queue_hand(s, force=True)

    async def closed(self, table: TableInfo) -> None:
        key = table.key
        lane = f"t:{key}"
        self.outbox.discard(lane, "table")
        names = self.names(table)
        self._latest.pop(key, None)
        self._known.pop(key, None)
        self.outbox.put(lane, None, lambda: self._close_table(table, names))
        self._adopt(table)
        for s in self._sessions_at(key):
            self._queue_hand(s, force=True, final=True)

    # -- the public table message -------------------------------------------------------------

    def _queue_table(self, key: str) -> None:
        self.outbox.put(f"t:{key}", "table", lambda: self._draw_table(key))

    def _table_content(self, info: TableInfo, names: Mapping[str, str]) -> tuple[str, Translator]:
        tr = translator(self.table_lang(info))
        # names as the message is to show them; a recent notice may name one who left
        notices = [Notice(r.code, dict(r.params)) for r in info.recent if r.code]
        names = md_names(names, notices)
        # the lobby's news included, until the game is dealt (old news then)
        recent = render.recent_lines(info, tr, names, this_status=True)
        art, v = self.emojis, info.view
        top = art.markup(v.top, v.color) if art is not None and v is not None else None
        content = render.table_text(md_info(info), tr, recent, top_picture=top)
        if info.status == PLAYING and info.deadline is not None:
            v = info.view
            if v is not None and v.phase in (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE):
                content += "\n" + tr.gettext(text.TURN_ENDS, when=f"<t:{int(info.deadline)}:R>")
        return _cut(content), tr

    def _channel(self, key: str, info: TableInfo) -> discord.PartialMessageable:
        assert self.client is not None
        guild_id = int(info.scope.rsplit(":", 1)[1]) if info.scope.startswith("dc:g:") else None
        return self.client.get_partial_messageable(views.channel_of(key), guild_id=guild_id)

    def _table_message(self, key: str, info: TableInfo | None) -> int | None:
        """The table's message: the newest of the one this process last drew or posted and
        the one kept with the table (a table only ever moves on to a newer message)."""
        ids_ = [self._msg.get(key), None if info is None else _int(info.meta.get("dc_msg"))]
        known = [m for m in ids_ if m is not None]
        return max(known) if known else None

    async def _draw_table(self, key: str) -> None:
        info = self._latest.get(key)
        if info is None or self.client is None or key in self._gone:
            return
        content, tr = self._table_content(info, {**self._known.get(key, {}), **info.names})
        view = views.table_view(info, tr)
        channel = self._channel(key, info)
        mid = self._table_message(key, info)
        if mid is None and self.service.shared:  # posted by another process meanwhile?
            mid = self._table_message(key, await self.service.table(key))
        archived = None
        try:
            if mid is not None:
                try:
                    await channel.get_partial_message(mid).edit(content=content, view=view)
                    self._msg[key] = mid
                    self._forbidden.discard(key)
                    await self._converge(key, info)
                    return
                except discord.HTTPException as e:
                    if e.code not in (UNKNOWN_MESSAGE, THREAD_ARCHIVED):
                        raise
                    if self.service.shared:
                        newer = self._table_message(key, await self.service.table(key))
                        if newer is not None and newer > mid:  # another process posted it
                            self._msg[key] = newer
                            self._queue_table(key)
                            return
                    # deleted by a moderator, or in a thread that archived itself (edits
                    # are refused there, a new message wakes it up): post the table again
                    log.info("table message %s of %s: %s: posting a new one", mid, key, e.code)
                    archived = mid if e.code == THREAD_ARCHIVED else None
            msg = await channel.send(content=content, view=view or discord.utils.MISSING)
        except discord.HTTPException as e:
            await self._unreachable(key, info, e)
            return
        self._msg[key] = msg.id
        self._forbidden.discard(key)
        # kept with the table: any process edits this message; and the server's language,
        # which only the processes running its shard learn from Discord
        locale = self._guild_lang(info.scope)
        extra = {"dc_locale": locale} if locale else {}
        await self.service.set_meta(key, dc_msg=msg.id, **extra)
        if archived is not None:  # the thread is awake again: one table message, not two
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(archived).edit(view=None)
        await self._converge(key, info)

    async def _converge(self, key: str, drawn: TableInfo) -> None:
        """On a shared database, after the table message was drawn for ``drawn``: another
        process may have drawn a newer version just before this edit landed, so if the
        stored table is not ``drawn`` it is drawn again (or closed): the newest committed
        version is the one that stays."""
        if not self.service.shared or self._latest.get(key) is not drawn:
            return  # (a newer one is queued here already)
        now = await self.service.table(key)
        if now is None or (now.version, now.status) == (drawn.version, drawn.status):
            return
        if self._latest.get(key) is not drawn:
            return
        if now.status in (LOBBY, PLAYING):
            self._latest[key] = now
            self._queue_table(key)
        else:
            names = self.names(now)
            self._latest.pop(key, None)
            self.outbox.put(f"t:{key}", None, lambda: self._close_table(now, names))

    async def _unreachable(self, key: str, info: TableInfo, e: discord.HTTPException) -> None:
        """The table's channel cannot be written to. Deleted (with its threads): the table
        is stopped, nobody can ever see or press it again. No access: said once, not with
        a traceback every turn (the next change tries again)."""
        if isinstance(e, discord.NotFound) and e.code == UNKNOWN_CHANNEL:
            log.warning("the channel of table %s was deleted: stopping the table", key)
            self._gone.add(key)
            if info.status in (LOBBY, PLAYING):
                await self.service.stop_game(key, info.host, admin=True)
        elif isinstance(e, discord.Forbidden):
            if key not in self._forbidden:
                log.warning("table %s cannot be shown: no access (%s)", key, e.code)
            self._forbidden.add(key)
        else:
            raise e

    async def _close_table(self, info: TableInfo, names: Mapping[str, str]) -> None:
        key = info.key
        mid = self._table_message(key, info)
        self._msg.pop(key, None)
        self._forbidden.discard(key)
        if self.client is None or key in self._gone:
            self._gone.discard(key)
            return
        content, _ = self._table_content(info, names)
        channel = self._channel(key, info)
        try:
            if mid is not None:
                try:
                    await channel.get_partial_message(mid).edit(content=content, view=None)
                    return
                except discord.HTTPException as e:
                    if e.code not in (UNKNOWN_MESSAGE, THREAD_ARCHIVED):
                        raise
            await channel.send(content=content)
        except (discord.NotFound, discord.Forbidden) as e:
            log.warning("the last state of table %s cannot be shown: %s", key, e.code)

    async def _post_news(self, key: str) -> None:
        lines = self._news.pop(key, [])
        if lines and self.client is not None:
            await self._post(key, "\n".join(lines))

    async def _post(self, key: str, line: str) -> None:
        if self.client is None or key in self._gone:
            return
        info = self._latest.get(key)
        guild_id = None
        if info is not None and info.scope.startswith("dc:g:"):
            guild_id = int(info.scope.rsplit(":", 1)[1])
        channel = self.client.get_partial_messageable(views.channel_of(key), guild_id=guild_id)
        try:
            await channel.send(content=_cut(line))
        except (discord.NotFound, discord.Forbidden) as e:
            log.warning("news of table %s cannot be posted: %s", key, e.code)

    # -- private hands ------------------------------------------------------------------------

    def _sessions_at(self, key: str) -> list[HandSession]:
        return [s for (k, _), s in self._sessions.items() if k == key]

    def _alive(self, s: HandSession) -> bool:
        return time.time() - s.since < self.hand_ttl

    def _adopt(self, info: TableInfo) -> None:
        """Take up the hand messages kept with the table (``hand_record``) that are newer
        than what this process knows: opened or pressed through another process, or
        before this one started. A session this process holds a newer token of stays."""
        self._sweep()
        for name, rec in info.meta.items():
            if not name.startswith(HAND_META):
                continue
            player = name[len(HAND_META) :]
            kept = _session_of(info.key, player, rec)
            if kept is None or not self._alive(kept):
                continue
            s = self._sessions.get((info.key, player))
            if s is None:
                self._sessions[(info.key, player)] = kept
                continue
            if kept.since <= s.since:
                continue  # the same token, or an older one: this process's is the newest
            if kept.message != s.message:
                s.pictured, s.shown, s.recent = None, None, kept.recent
            s.token, s.app, s.since, s.lang = kept.token, kept.app, kept.since, kept.lang
            s.message, s.page, s.picking = kept.message, kept.page, kept.picking
            s.interaction, s.stored, s.drawn_in = None, kept.stored, kept.drawn_in
            s.forced, s.drawn_sig = True, None  # drawn elsewhere: what, this one cannot tell
            if s.expiry is not None:  # retired by the process that has the token's press
                s.expiry.cancel()
                s.expiry = None

    def _sweep(self) -> None:
        """Now and then, forget the sessions whose token has run out (those taken up from
        a table have no timer of their own): dead credentials, and memory."""
        now = time.monotonic()
        if now - self._swept < SWEEP_SECONDS:
            return
        self._swept = now
        dead = time.time() - TOKEN_SECONDS
        for s in [s for s in self._sessions.values() if s.since < dead]:
            self._drop(s)

    async def _keep(self, s: HandSession) -> None:
        """Keep the session with the table (``hand_record``) when what another process
        needs to draw it changed: another message, page, card being picked or language,
        or a token over ``KEEP_SECONDS`` older than this process's (the kept one must stay
        good for long). A process alone on its database writes it for a new message only
        (each write waits for the table's lock: one per "Show hand", not per press)."""
        if s.message is None or s.final:
            return
        rec = hand_record(s)
        old = s.stored
        if old is not None and not self.service.shared:
            # one process: the record is for its restart only, a new hand message is what
            # it must know (a token grown old, or a page, costs a "Show hand" at worst)
            if old.get("m") == rec["m"]:
                return
        elif old is not None and all(old.get(k) == rec[k] for k in ("a", "m", "l", "p", "k")):
            since = old.get("s")
            if isinstance(since, int | float) and rec["s"] - since < KEEP_SECONDS:
                return
        s.stored = rec
        await self.service.set_meta(s.key, **{HAND_META + s.player: rec})

    def _open_session(
        self,
        key: str,
        player: str,
        interaction: discord.Interaction[Any],
        lang: str,
        message: int | None,
    ) -> HandSession:
        """``interaction``'s message (``message``: the hand message pressed, or the answer
        to a "Show hand") is now the player's hand message, and its token the fresh one.
        The one it replaces, if another, is emptied: its buttons would act on a view that
        nobody updates any more."""
        s = self._sessions.get((key, player))
        token, since = interaction.token, interaction.created_at.timestamp()
        app = interaction.application_id
        if s is None:
            s = HandSession(key, player, token, app, since, lang, message, interaction)
            self._sessions[(key, player)] = s
        else:
            old = s.message
            if old is not None and old == s.drawn_in and old != message and self._alive(s):
                # (one never drawn into yet is emptied by its own answer: ``_open_hand``)
                self._retire(s, s.app, s.token, old, text.REPLACED)
            s.token, s.app, s.since, s.lang = token, app, since, lang
            s.message, s.interaction = message, interaction
        if s.expiry is not None:
            s.expiry.cancel()
        loop = asyncio.get_running_loop()
        wait = max(0.0, since + self.hand_ttl - time.time())
        s.expiry = loop.call_later(wait, self._expire, s, since)
        return s

    def _expire(self, s: HandSession, since: float) -> None:
        """The token is about to die: tell the player how to get a fresh hand."""
        if self._sessions.get((s.key, s.player)) is not s or s.since != since:
            return
        del self._sessions[(s.key, s.player)]
        if s.message is not None:
            self._retire(s, s.app, s.token, s.message, text.EXPIRED, slot="hand")

    def _retire(
        self,
        s: HandSession,
        app: int,
        token: str,
        message: int,
        note: str,
        *,
        slot: str | None = None,
    ) -> None:
        """Queue the edit that empties hand message ``message`` (through ``token``, still
        within its 15 minutes) into ``note``: no buttons, no picture. Not if a press on it
        made it the live one again meanwhile."""
        tr = translator(s.lang)
        line = tr.gettext(note, hand=render.button_label("hand", tr))

        async def _job() -> None:
            live = self._sessions.get((s.key, s.player)) is s
            if live and s.message == message:
                return
            with contextlib.suppress(discord.HTTPException):
                await self._empty_message(app, token, message, line)

        self.outbox.put(f"h:{s.key}:{s.player}", slot, _job)

    def _webhook(self, app: int, token: str) -> discord.Webhook:
        """The webhook of an interaction's token: its messages are editable for 15 minutes
        by whoever has the token (any process)."""
        assert self.client is not None
        return discord.Webhook.partial(app, token, client=self.client)

    async def _empty_message(self, app: int, token: str, message: int, line: str) -> None:
        """Edit ``message`` into ``line`` alone (an old picture of a hand goes)."""
        hook = self._webhook(app, token)
        if self.settings.card_images:
            await hook.edit_message(message, content=line, view=None, attachments=[])
        else:
            await hook.edit_message(message, content=line, view=None)

    async def _empty(self, target: discord.Interaction[Any], line: str) -> None:
        """Edit ``target``'s message into ``line`` alone (an old picture of a hand goes)."""
        if self.settings.card_images:
            await target.edit_original_response(content=line, view=None, attachments=[])
        else:
            await target.edit_original_response(content=line, view=None)

    def _queue_hand(
        self, s: HandSession, *, force: bool = False, final: bool = False
    ) -> asyncio.Future[None]:
        s.forced = s.forced or force
        s.final = s.final or final
        return self.outbox.put(f"h:{s.key}:{s.player}", "hand", lambda: self._draw_hand(s))

    async def _draw_hand(self, s: HandSession) -> None:
        if self._sessions.get((s.key, s.player)) is not s:
            return
        content, view, shown = await self.hand_message(s)
        final = s.final
        if not (s.forced or final) and shown is not None and shown == s.shown:
            # a player waiting for their turn, whose possible actions did not change:
            # the public table tells the rest; their hand is redrawn when it concerns them
            return
        s.forced, s.shown = False, shown
        if final:
            view = None
            self._drop(s)
        drawn = (content, _view_signature(view), s.picture)
        if s.message is not None and s.drawn_in == s.message and drawn == s.drawn_sig:
            return  # the message shows exactly this already: an edit would change nothing
        token, drawn_at = s.token, s.drawn_at
        try:
            msg = await self._edit_hand(s, content, view)
        except discord.HTTPException as e:
            log.info("hand of %s at %s no longer reachable: %s", s.player, s.key, e)
            self._drop(s)
            return
        s.drawn, s.message, s.drawn_in = token, msg.id, msg.id
        s.drawn_sig = drawn
        if final:
            return
        await self._keep(s)
        if self.service.shared:
            # another process may have drawn a newer state into this message just before
            # this edit landed: the newest committed version is the one that stays
            now = await self.service.table(s.key)
            if now is None or (now.version, now.status) != drawn_at:
                gone = now is None or now.status not in (LOBBY, PLAYING)
                self._queue_hand(s, force=True, final=gone)

    async def _edit(
        self, s: HandSession, content: str, view: discord.ui.View | None, **files: Any
    ) -> discord.Message:
        """Edit the hand message: by its id through the session's token (any process),
        or, an answer whose id is not known yet, as the interaction's original response."""
        if s.message is None:
            assert s.interaction is not None
            return await s.interaction.edit_original_response(content=content, view=view, **files)
        hook = self._webhook(s.app, s.token)
        return await hook.edit_message(s.message, content=content, view=view, **files)

    async def _edit_hand(
        self, s: HandSession, content: str, view: discord.ui.View | None
    ) -> discord.Message:
        """Edit the hand message with ``s.picture``, uploaded only to a message that does
        not carry it yet. What it carries is known from the last edit's answer (the
        attachment's id): one that another process changed since gets it again. An upload
        Discord refuses does not cost the player their hand: it is shown again without a
        picture (an expired token still raises)."""
        if not self.settings.card_images:
            return await self._edit(s, content, view)
        mid = s.message
        files = self._attachments(s, mid)
        if files is None and s.pictured is not None and mid is not None:
            # the picture stays: the answer says whether it is the one this process put there
            msg = await self._edit(s, content, view)
            if _attachment_id(msg) == s.pictured[1]:
                return msg
            s.pictured = None  # another process changed it meanwhile: upload it again
            files = self._attachments(s, msg.id)
        if files is None:
            return await self._edit(s, content, view)
        try:
            msg = await self._edit(s, content, view, attachments=files)
            ok = bool(files)
        except discord.NotFound:
            raise
        except discord.HTTPException as e:
            log.warning("hand picture not uploaded (%s %s): shown without it", e.status, e.code)
            msg = await self._edit(s, content, view, attachments=[])
            ok = False
        carried = _attachment_id(msg)
        picture = s.picture
        if ok and picture is not None and carried is not None:
            s.pictured = (msg.id, carried, picture)
        else:
            s.pictured = None
        return msg

    def _attachments(self, s: HandSession, mid: int | None) -> list[discord.File] | None:
        """The attachments for an edit of message ``mid`` (``None``: a new message) that is
        to show ``s.picture``: ``None`` to keep what it has, else the new list."""
        carried = s.pictured if s.pictured is not None and s.pictured[0] == mid else None
        if s.picture is None:
            # nothing to picture (no cards, or no longer a player): remove an old picture
            return None if mid is None else []
        if carried is not None and carried[2] == s.picture:
            return None  # only the buttons changed: the picture stays
        file = self._hand_file(s.picture)
        if file is None:  # not drawn: an old picture would show other cards
            return None if mid is None else []
        return [file]

    def _hand_file(self, picture: Picture) -> discord.File | None:
        started = time.perf_counter()
        try:
            data = images.hand_png(*picture)
        except Exception:  # a picture is an extra: never a reason to lose the hand
            log.exception("a hand picture could not be drawn")
            return None
        self.image_times.append(time.perf_counter() - started)
        return discord.File(io.BytesIO(data), filename=HAND_IMAGE)

    def _drop(self, s: HandSession) -> None:
        if self._sessions.get((s.key, s.player)) is s:
            del self._sessions[(s.key, s.player)]
        if s.expiry is not None:
            s.expiry.cancel()

    async def hand_message(self, s: HandSession) -> tuple[str, discord.ui.View | None, Any]:
        """The hand message as the game stands now: text, components, and what it offers
        (with the turn it was drawn for, when its buttons carry the table version)."""
        tr = translator(s.lang)
        info = await self.service.table(s.key)
        hand = await self.service.hand(s.key, s.player)
        s.picture = None
        s.drawn_at = None if info is None else (info.version, info.status)
        if info is None or hand is None:
            return tr.gettext(render.REFUSALS["not_a_player"]), None, ("gone",)
        legal = await self.service.legal(s.key, s.player) if info.status == PLAYING else []
        if info.status not in (LOBBY, PLAYING) and hand.phase is not Phase.GAME_OVER:
            # stopped mid-round: not "your turn" any more, whatever the game's last state
            hand = dataclasses.replace(hand, phase=Phase.GAME_OVER)
        if self.settings.card_images and hand.hand:
            s.picture = _picture(hand.hand, legal)
        # what it offers; buttons that carry the version stay good while the turn is the
        # same (a call or a catch of UNO moves the version on, not the turn)
        versioned = any(isinstance(a, _VERSIONED) for a in legal)
        turn = info.turn_version if versioned else None
        shown = (info.status, frozenset(repr(a) for a in legal), len(hand.hand or ()), turn)
        names = info.names  # raw in labels, escaped in the message's text
        body = render.hand_text(hand, tr, md_names(names))
        if s.recent:
            body += "\n\n" + "\n".join(s.recent)
        if not legal:
            return _cut(body), None, shown
        if s.picking is not None:
            choices = views.hand_choices(hand.hand or (), legal, hand.rules, hand.counts)
            choice = next((c for c in choices if c.key == s.picking), None)
            if choice is not None and choice.needs() is not None:
                prompt, view = views.picker_view(
                    s.key, info.version, choice, tr, names, self.emojis
                )
                return _cut(body + "\n\n" + prompt), view, shown
            s.picking = None
        view, s.page, _ = views.hand_view(
            s.key, info.version, hand.hand or (), legal, tr, names, page=s.page,
            rules=hand.rules, counts=hand.counts, art=self.emojis,
        )  # fmt: skip
        return _cut(body), view, shown

    # -- answering ----------------------------------------------------------------------------

    async def _origin(
        self,
        interaction: discord.Interaction[Any],
        answered: discord.InteractionCallbackResponse[Any] | None = None,
    ) -> Origin:
        self._note_guild(interaction)
        o = Origin(interaction, player_of(interaction.user), await self.private_lang(interaction))
        o.answer = answered.message_id if answered is not None else None
        return o

    def _notices_text(self, o: Origin, names: Mapping[str, str]) -> str:
        key = table_key(o.interaction.channel_id or 0)
        names = {**self._known.get(key, {}), **names}
        return "\n".join(notice_text(n, o.tr, names) for n in o.notices)

    async def _answer(
        self,
        o: Origin,
        content: str | None,
        *,
        view: discord.ui.View | None = None,
        names: Mapping[str, str] | None = None,
    ) -> None:
        """Fill a deferred ("thinking") answer: the content, else the notices."""
        notes = self._notices_text(o, names or {})
        o.notices.clear()
        body = content if content else notes
        if content and notes:
            body = notes + "\n\n" + content
        await o.interaction.edit_original_response(content=_cut(body or "✅"), view=view)

    async def _follow(self, o: Origin, names: Mapping[str, str] | None = None) -> None:
        """Send the collected notices as an ephemeral follow-up (after a silent defer)."""
        notes = self._notices_text(o, names or {})
        o.notices.clear()
        if notes:
            await o.interaction.followup.send(_cut(notes), ephemeral=True)

    async def _forged(self, o: Origin) -> None:
        """An id of the right shape whose contents make no sense (a card code that is no
        card, a player who is not one): refused like any id this bot never made."""
        await o.interaction.followup.send(o.tr.gettext(text.BAD_BUTTON), ephemeral=True)

    def _track(self) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)

    def _acked(self, started: float) -> None:
        self.ack_latencies.append(time.monotonic() - started)

    async def refuse_unknown(self, interaction: discord.Interaction[Any]) -> None:
        """A component id this bot never made."""
        self._track()
        await self._reply_now(interaction, text.BAD_BUTTON)

    async def _restarting(self, interaction: discord.Interaction[Any]) -> None:
        await self._reply_now(interaction, text.RESTARTING)

    async def _reply_now(self, interaction: discord.Interaction[Any], message: str) -> None:
        """Answer at once, privately, without deferring: a refusal that changes nothing."""
        tr = translator(await self.user_lang_of(interaction))
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(tr.gettext(message), ephemeral=True)

    async def user_lang_of(self, interaction: discord.Interaction[Any]) -> str:
        """The user's saved language, else their Discord client's."""
        user = player_of(interaction.user)
        known = self._saved_lang(user)
        if known is not None:
            return resolve_lang(known[0], interaction.locale.value)
        saved = None
        with contextlib.suppress(Exception):  # a refusal must go out even if the store hiccups
            saved = await asyncio.wait_for(self.service.user_lang(user), timeout=0.5)
        return resolve_lang(saved, interaction.locale.value)

    async def command_failed(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A slash command that failed before or inside its handler (an option that no
        longer converts, say a member who left): answered, never left hanging."""
        log.warning("discord command failed: %s", type(error).__name__)
        await self._fail(interaction, logged=True)

    async def _fail(self, interaction: discord.Interaction[Any], *, logged: bool = False) -> None:
        if not logged:
            log.exception("discord interaction %s failed", interaction.id)
        tr = translator(await self.user_lang_of(interaction))
        with contextlib.suppress(Exception):
            if interaction.response.is_done():
                await interaction.followup.send(tr.gettext(text.ERROR), ephemeral=True)
            else:
                await interaction.response.send_message(tr.gettext(text.ERROR), ephemeral=True)

    # -- components ---------------------------------------------------------------------------

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        custom_id: str,
        values: Sequence[str],
        *,
        select: bool,
    ) -> None:
        """A button press or a select choice on any of this bot's messages."""
        started = time.monotonic()
        self._track()
        if self.closing:
            await self._restarting(interaction)
            return
        cid = ids.parse(custom_id, select=select)
        if (
            cid is None
            or interaction.guild_id is None
            or interaction.channel_id != cid.table
            or (select and not values)
        ):
            await self.refuse_unknown(interaction)
            return
        private = interaction.message is not None and interaction.message.flags.ephemeral
        try:
            # acknowledge within 3 s, before anything that may wait on the database
            if cid.action in ("hand", "settings") or (cid.action == "draw" and not private):
                answered = await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                answered = await interaction.response.defer()
            self._acked(started)
            o = await self._origin(interaction, answered)
            key = table_key(cid.table)
            # each action only where this bot draws it: a table button on a private
            # message, or a card on the public one, is forged
            if private and cid.action in HAND_ACTIONS:
                await self._hand_action(o, key, cid, values)
            elif private and cid.action in MENU_ACTIONS:
                # on its own menu only: slipped into a hand message it would overwrite it
                menu = "kick" if cid.action == "kick" else "settings"
                if o.interaction.message is None or views.menu_of(o.interaction.message) != menu:
                    await self._forged(o)
                else:
                    await self._private_action(o, key, cid, values)
            elif not private and cid.action in ids.TABLE_ACTIONS:
                await self._table_action(o, key, cid)
            else:
                await self._forged(o)
        except Exception:
            await self._fail(interaction)

    async def _table_action(self, o: Origin, key: str, cid: ids.CustomId) -> None:
        """A button of the public table message."""
        svc, user, admin = self.service, o.player, _admin(o.interaction)
        a = cid.action
        names: Mapping[str, str] = {}
        if a == "join":
            res = await svc.join(key, user, _display_name(o.interaction), origin=o)
        elif a == "leave":
            res = await svc.leave(key, user, origin=o)
        elif a == "addbot":
            res = await svc.add_bot(key, user, "smart", admin=admin, origin=o)
        elif a == "start":
            res = await svc.start_game(key, user, admin=admin, origin=o)
        elif a == "settings":
            await self._open_settings(o, key)
            return
        elif a in ("hand", "draw"):
            await self._open_hand(o, key, draw_version=cid.version if a == "draw" else None)
            return
        else:
            action = _table_button_action(cid, key)
            if action is None:
                await self._forged(o)
                return
            res = await svc.act(key, user, action, seen_version=cid.version, origin=o)
        if res.table is not None:
            names = res.table.names
        await self._follow(o, names)

    async def _open_hand(self, o: Origin, key: str, *, draw_version: int | None = None) -> None:
        """Answer with the player's hand (a new ephemeral message: their hand message now).
        ``draw_version``: they pressed Draw on the table; draw first."""
        info = await self.service.table(key)
        if info is None or info.status not in (LOBBY, PLAYING):
            o.notices.append(Notice("no_table"))
            await self._answer(o, None)
            return
        if await self.service.hand(key, o.player) is None:
            o.notices.append(Notice("not_a_player" if info.status == PLAYING else "not_started"))
            await self._answer(o, None, names=info.names)
            return
        self._adopt(info)  # the hand message another process (or before a restart) drew
        s = self._open_session(key, o.player, o.interaction, o.lang, o.answer)
        s.picking = None
        if draw_version is not None:
            res = await self.service.act(
                key, o.player, Draw(), seen_version=draw_version, origin=o
            )
            if res.table is not None:
                info = res.table
        await asyncio.wait({self._queue_hand(s, force=True)})  # (cancelled when stopping)
        token = o.interaction.token
        if token not in (s.drawn, s.token):
            # another press took the hand message over meanwhile (a double click, Show hand
            # and Draw at once): this answer, deferred as "thinking", says where it went, or
            # it would think forever
            await self._empty(o.interaction, o.tr.gettext(text.REPLACED))
        elif s.drawn != token:
            # the drawing failed: this answer still gets the hand
            await self._answer_hand(o, s)
        await self._follow(o, info.names)

    async def _answer_hand(self, o: Origin, s: HandSession) -> None:
        """Draw the hand into ``o``'s own answer (with a picture if one can be sent)."""
        content, view, _ = await self.hand_message(s)
        file = None if s.picture is None else self._hand_file(s.picture)
        if file is None:
            await o.interaction.edit_original_response(content=content, view=view)
            return
        try:
            await o.interaction.edit_original_response(
                content=content, view=view, attachments=[file]
            )
        except discord.NotFound:
            raise
        except discord.HTTPException as e:
            log.warning("hand picture not uploaded (%s %s): shown without it", e.status, e.code)
            await o.interaction.edit_original_response(content=content, view=view, attachments=[])

    async def _hand_action(
        self, o: Origin, key: str, cid: ids.CustomId, values: Sequence[str]
    ) -> None:
        """A button or select of a hand message: it becomes the live hand message. One
        of a game that is over, or an older hand message than the live one (its emptying
        failed, or this press raced it), is emptied by this press, and said to be so."""
        info = await self.service.table(key)
        if info is None or info.status != PLAYING:
            # its last edit could not reach it (the token had run out): this press can
            await o.interaction.edit_original_response(view=None)
            o.notices.append(Notice("no_table" if info is None else "game_over"))
            await self._follow(o)
            return
        self._adopt(info)  # the hand message another process (or before a restart) drew
        pressed = _pressed(o.interaction)
        live = self._sessions.get((key, o.player))
        if live is not None and live.message not in (None, pressed):
            await self._empty(
                o.interaction, o.tr.gettext(text.EXPIRED, hand=render.button_label("hand", o.tr))
            )
            return
        s = self._open_session(key, o.player, o.interaction, o.lang, pressed)
        a = cid.action
        action: Action | None = None
        if a == "page":
            s.page = _int(cid.arg) or 0
        elif a == "back":
            s.picking = None
        elif a in ("pick", "cards"):
            group = values[0] if a == "cards" else cid.arg
            legal = await self.service.legal(key, o.player)
            plays = views.uno_plays(group, legal)  # "R5!": R5 calling UNO with it
            if len(plays) == 1:
                action = plays[0]
            elif plays:
                s.picking = group
            else:
                o.notices.append(Notice("stale"))
        else:
            action = _hand_button_action(cid, key)
            if action is None:
                await self._forged(o)
                return
        names: Mapping[str, str] = {}
        if action is not None:
            s.picking = None
            res = await self.service.act(key, o.player, action, seen_version=cid.version, origin=o)
            if res.table is not None:
                names = res.table.names
        await self._queue_hand(s, force=True)
        await self._follow(o, names)

    async def _private_action(
        self, o: Origin, key: str, cid: ids.CustomId, values: Sequence[str]
    ) -> None:
        """Settings and kick menus (ephemeral, edited in place). A refusal is a reply of its
        own: the menu stays, to try again."""
        a = cid.action
        if a == "refresh":
            return
        if a == "kick":
            target = ids.decode_player(values[0], key)
            if target is None:
                o.notices.append(Notice("not_seated"))
                await self._follow(o)
                return
            res = await self.service.kick(
                key, o.player, target, admin=_admin(o.interaction), origin=o
            )
            names = res.table.names if res.table is not None else {}
            if o.notices:
                await self._follow(o, names)
            else:
                await self._answer(o, "✅", names=names)
            return
        page = (_int(cid.arg) or 0) if a == "setpage" else None
        if a == "preset":
            if values[0] not in Rules.PRESET_NAMES:
                await self._forged(o)  # not a preset the menu offered
                return
            await self.service.configure(
                key, o.player, preset=values[0], admin=_admin(o.interaction), origin=o
            )
        elif a == "flag":
            info = await self.service.table(key)
            if info is not None and info.status in (LOBBY, PLAYING):
                try:
                    value = views.decode_value(cid.arg, values[0], info.rules)
                except ValueError:
                    await self._forged(o)  # not a value the menu offered
                    return
                await self.service.configure(
                    key, o.player, overrides={cid.arg: value}, admin=_admin(o.interaction),
                    origin=o,
                )  # fmt: skip
            page = _flag_page(cid.arg)
        await self._show_settings(o, key, page or 0, edit=True)

    # -- settings -----------------------------------------------------------------------------

    async def _open_settings(self, o: Origin, key: str) -> None:
        info = await self.service.table(key)
        if info is None or info.status not in (LOBBY, PLAYING):
            o.notices.append(Notice("no_table"))
            await self._answer(o, None)
            return
        if o.player != info.host and not _admin(o.interaction):
            o.notices.append(Notice("not_host"))
            await self._answer(o, None)
            return
        await self._show_settings(o, key, 0, edit=False)

    async def _show_settings(self, o: Origin, key: str, page: int, *, edit: bool) -> None:
        info = await self.service.table(key)
        if info is None or info.status not in (LOBBY, PLAYING):
            o.notices.append(Notice("no_table"))
            if edit:  # the menu of a table that closed: nothing left to set
                await o.interaction.edit_original_response(view=None)
                await self._follow(o)
            else:
                await self._answer(o, None)
            return
        content, view, _ = views.settings_view(info, o.tr, page)
        notes = self._notices_text(o, info.names)
        o.notices.clear()
        if edit:
            await o.interaction.edit_original_response(content=_cut(content), view=view)
            if notes:
                await o.interaction.followup.send(_cut(notes), ephemeral=True)
        else:
            await self._answer(o, content, view=view)

    # -- slash commands -----------------------------------------------------------------------

    async def _command(
        self,
        interaction: discord.Interaction[Any],
        handler: Callable[[Origin, str, str], Awaitable[None]],
        *,
        ephemeral: bool = True,
    ) -> None:
        """Acknowledge a slash command at once, then run ``handler(origin, key, scope)``."""
        started = time.monotonic()
        self._track()
        if self.closing:
            await self._restarting(interaction)
            return
        try:
            if interaction.guild_id is None or interaction.channel_id is None:
                tr = translator(resolve_lang(interaction.locale.value))
                await interaction.response.send_message(
                    tr.gettext(text.SERVER_ONLY), ephemeral=True
                )
                return
            answered = await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            self._acked(started)
            o = await self._origin(interaction, answered)
            await handler(o, table_key(interaction.channel_id), scope_of(interaction.guild_id))
        except Exception:
            await self._fail(interaction)

    async def _done(self, o: Origin, res: Result) -> None:
        """The answer to a command that changed the table: its refusal, or a tick."""
        names = res.table.names if res.table is not None else None
        await self._answer(o, None if o.notices else "✅", names=names)

    async def cmd_new(self, interaction: discord.Interaction[Any], preset: str | None) -> None:
        """``/uno new``: open a table here."""

        async def run(o: Origin, key: str, scope: str) -> None:
            if not _can_post(o.interaction):
                # a table nobody would see: say why rather than open it
                await self._answer(o, o.tr.gettext(text.NO_ACCESS))
                return
            name = _display_name(o.interaction)
            res = await self.service.create(key, scope, o.player, name, preset=preset, origin=o)
            opened = None
            if res.ok:
                opened = o.tr.gettext(text.OPENED, join=render.button_label("join", o.tr))
            await self._answer(o, opened, names=res.table.names if res.table else None)

        await self._command(interaction, run)

    async def cmd_simple(self, interaction: discord.Interaction[Any], what: str) -> None:
        """``/uno join``, ``start``, ``leave``, ``stop``."""

        async def run(o: Origin, key: str, scope: str) -> None:
            svc, admin = self.service, _admin(o.interaction)
            if what == "join":
                name = _display_name(o.interaction)
                res = await svc.join(key, o.player, name, origin=o)
            elif what == "start":
                res = await svc.start_game(key, o.player, admin=admin, origin=o)
            elif what == "leave":
                res = await svc.leave(key, o.player, origin=o)
            else:
                res = await svc.stop_game(key, o.player, admin=admin, origin=o)
            await self._done(o, res)

        await self._command(interaction, run)

    async def cmd_kick(
        self, interaction: discord.Interaction[Any], member: discord.abc.User | None
    ) -> None:
        """``/uno kick [player]``: remove someone, or choose from the seats (bots too)."""

        async def run(o: Origin, key: str, scope: str) -> None:
            admin = _admin(o.interaction)
            if member is not None:
                target = player_of(member)
                await self._done(
                    o, await self.service.kick(key, o.player, target, admin=admin, origin=o)
                )
                return
            info = await self.service.table(key)
            if info is None or info.status not in (LOBBY, PLAYING):
                o.notices.append(Notice("no_table"))
            elif o.player != info.host and not admin:
                o.notices.append(Notice("not_host"))
            else:
                view = views.kick_view(info, o.player, o.tr)
                if view is None:
                    await self._answer(o, o.tr.gettext(text.NOBODY_TO_KICK))
                else:
                    await self._answer(o, o.tr.gettext(text.KICK_PLACEHOLDER), view=view)
                return
            await self._answer(o, None)

        await self._command(interaction, run)

    async def cmd_hand(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno hand``: the same as the table's Show hand."""

        async def run(o: Origin, key: str, scope: str) -> None:
            await self._open_hand(o, key)

        await self._command(interaction, run)

    async def cmd_rules(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno rules``: the open table's rules, else this server's defaults."""

        async def run(o: Origin, key: str, scope: str) -> None:
            info = await self.service.table(key)
            if info is not None and info.status in (LOBBY, PLAYING):
                await self._answer(o, render.rules_summary(info.rules, o.tr, info.preset))
                return
            preset, over, _ = await self.service.chat_settings(scope)
            name = preset or self.settings.default_preset
            try:
                rules = Rules.preset(name, **(over or {}))
            except ValueError:
                name, rules = "official", Rules()
            await self._answer(o, render.rules_summary(rules, o.tr, name))

        await self._command(interaction, run)

    async def cmd_settings(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno settings``: the settings menu (host or Manage Channels)."""

        async def run(o: Origin, key: str, scope: str) -> None:
            await self._open_settings(o, key)

        await self._command(interaction, run)

    async def cmd_stats(
        self,
        interaction: discord.Interaction[Any],
        member: discord.abc.User | None,
        where: str | None,
    ) -> None:
        """``/uno stats [whose] [scope]``: here, or everywhere."""

        async def run(o: Origin, key: str, scope: str) -> None:
            who = player_of(member) if member is not None else o.player
            line = await self.service.player_stats(GLOBAL if where == "global" else scope, who)
            if line is not None:
                line = dataclasses.replace(line, name=md(line.name))
            await self._answer(o, render.stats_text(line, o.tr))

        await self._command(interaction, run)

    async def cmd_leaderboard(
        self, interaction: discord.Interaction[Any], where: str | None
    ) -> None:
        """``/uno leaderboard [scope]``: for everyone to see, in the server's language."""

        async def run(o: Origin, key: str, scope: str) -> None:
            lines = await self.service.leaderboard(GLOBAL if where == "global" else scope, 10)
            lines = [dataclasses.replace(s, name=md(s.name)) for s in lines]
            saved = await self.service.chat_lang(scope)
            lang = resolve_lang(saved, self._guild_lang(scope), self.settings.language)
            await self._answer(o, render.leaderboard_text(lines, translator(lang)))

        await self._command(interaction, run, ephemeral=False)

    async def cmd_language(
        self, interaction: discord.Interaction[Any], language: str, where: str | None
    ) -> None:
        """``/uno language``: yours, or the server's (a member with Manage Channels only:
        it applies to every table of the server, and anyone can host a table)."""

        async def run(o: Origin, key: str, scope: str) -> None:
            if where == "guild":
                if not _admin(o.interaction):
                    await self._answer(o, o.tr.gettext(text.LANGUAGE_ADMINS))
                    return
                if language == "auto":
                    # the server's own setting goes: its tables speak its Discord language
                    await self.service.set_chat_language(key, scope, None)
                    spoken = resolve_lang(self._guild_lang(scope), self.settings.language)
                    await self._answer(o, translator(spoken).gettext(text.LANGUAGE_SERVER_AUTO))
                    return
                if language not in LANGUAGES:
                    o.notices.append(Notice("bad_setting"))
                else:
                    await self.service.set_chat_language(key, scope, language)
                    done = translator(language).gettext(
                        text.LANGUAGE_SERVER, language=LANGUAGE_NAMES[language]
                    )
                    await self._answer(o, done)
                    return
                await self._answer(o, None)
                return
            lang = language if language in LANGUAGES else None
            await self.service.set_user_language(o.player, lang)
            self._user_lang[o.player] = (lang, time.monotonic())
            o.lang = resolve_lang(lang, o.interaction.locale.value)
            for s in [s for (_, p), s in self._sessions.items() if p == o.player]:
                s.lang = o.lang
                self._queue_hand(s, force=True)
            if lang is None:
                await self._answer(o, o.tr.gettext(text.LANGUAGE_AUTO))
            else:
                await self._answer(
                    o, o.tr.gettext(text.LANGUAGE_ME, language=LANGUAGE_NAMES[lang])
                )

        await self._command(interaction, run)

    async def cmd_addbot(
        self, interaction: discord.Interaction[Any], strategy: str | None
    ) -> None:
        """``/uno addbot [strategy]``."""

        async def run(o: Origin, key: str, scope: str) -> None:
            admin = _admin(o.interaction)
            await self._done(
                o,
                await self.service.add_bot(
                    key, o.player, strategy or "smart", admin=admin, origin=o
                ),
            )

        await self._command(interaction, run)

    async def cmd_help(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno help``."""

        async def run(o: Origin, key: str, scope: str) -> None:
            await self._answer(o, render.help_text(o.tr, "discord"))

        await self._command(interaction, run)


# -- helpers ---------------------------------------------------------------------------------


def _is_select(data: Mapping[str, Any]) -> bool:
    return _int(data.get("component_type")) not in (None, discord.ComponentType.button.value)


def _dispatched(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Whether discord.py's view store hands this component interaction to a dynamic item:
    only when the message it carries has a component of that type and ``custom_id``
    (``ViewStore.schedule_dynamic_item_call``)."""
    msg = interaction.message
    if msg is None:
        return False
    data: Mapping[str, Any] = interaction.data or {}
    kind = _int(data.get("component_type"))
    try:
        found = views.message_components(msg)
    except Exception:  # a message discord.py cannot read back: it would not dispatch
        return False
    return any(c.type.value == kind and getattr(c, "custom_id", None) == custom_id for c in found)


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _admin(interaction: discord.Interaction[Any]) -> bool:
    """Members with Manage Channels may run any table in their server."""
    return bool(interaction.permissions.manage_channels)


def _can_post(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may post the table message where ``interaction`` came from."""
    perms = interaction.app_permissions
    if perms.value == 0:
        return True  # not said (Discord always sends them now): let the posting tell
    thread = isinstance(interaction.channel, discord.Thread)
    send = perms.send_messages_in_threads if thread else perms.send_messages
    return perms.view_channel and send


def _display_name(interaction: discord.Interaction[Any]) -> str:
    return interaction.user.display_name


def _flag_page(flag: str) -> int:
    flags = views.settings_flags()
    return flags.index(flag) // views.FLAGS_PER_PAGE if flag in flags else 0


def _table_button_action(cid: ids.CustomId, key: str) -> Action | None:
    if cid.action == "challenge":
        return Challenge()
    if cid.action == "accept":
        return Accept()
    if cid.action == "next":
        return NextRound()
    return ids.decode_action(cid, key)


def _view_signature(view: discord.ui.View | None) -> tuple[Any, ...]:
    """What a view shows and does, comparable: each item's kind, id, label, emoji, style,
    whether it is disabled, and a select's options."""
    if view is None:
        return ()
    out: list[Any] = []
    for item in view.children:
        d = item.to_component_dict()
        out.append(repr(sorted(d.items(), key=lambda kv: kv[0])))
    return tuple(out)


def _picture(hand: Sequence[Card], legal: Sequence[Action]) -> Picture:
    """The hand's picture: its cards in card order, the playable ones marked when the
    player has a move to make with them (playing or drawing), else none marked."""
    cards = tuple(sorted(hand, key=lambda c: c.order))
    if not any(isinstance(a, (Play, Draw)) for a in legal):
        return cards, None
    return cards, frozenset(a.card for a in legal if isinstance(a, Play))


def _attachment_id(msg: discord.Message) -> int | None:
    """The id of the (one) attachment a hand message carries."""
    return msg.attachments[0].id if msg.attachments else None


def _pressed(interaction: discord.Interaction[Any]) -> int | None:
    """The private message whose component ``interaction`` is (its original response
    edits that message), else ``None`` (its answer is a new message)."""
    msg = interaction.message
    if (
        interaction.type is discord.InteractionType.component
        and msg is not None
        and msg.flags.ephemeral
    ):
        return msg.id
    return None


def _hand_button_action(cid: ids.CustomId, key: str) -> Action | None:
    if cid.action == "draw":
        return Draw()
    if cid.action == "pass":
        return Pass()
    return _table_button_action(cid, key)


def _normal(cmd: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a command that matter for deciding whether to sync."""
    return {
        "name": cmd.get("name"),
        "description": cmd.get("description", ""),
        "type": cmd.get("type", 1),
        "name_localizations": cmd.get("name_localizations") or {},
        "description_localizations": cmd.get("description_localizations") or {},
        "required": bool(cmd.get("required", False)),
        "choices": [
            {
                "name": c.get("name"),
                "value": c.get("value"),
                "name_localizations": c.get("name_localizations") or {},
            }
            for c in cmd.get("choices") or ()
        ],
        "options": [_normal(o) for o in cmd.get("options") or ()],
    }


def _same_commands(have: Sequence[Mapping[str, Any]], wanted: Sequence[Mapping[str, Any]]) -> bool:
    a = sorted((_normal(c) for c in have), key=lambda c: str(c["name"]))
    b = sorted((_normal(c) for c in wanted), key=lambda c: str(c["name"]))
    return a == b
