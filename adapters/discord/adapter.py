"""The Discord adapter: slash commands and components in, the table service's port out.

Every interaction is acknowledged first (``defer``: Discord allows 3 seconds, and a slow
database must not cost the answer), then turned into a service call, then answered from
the call's ``Result`` (what it tells the presser: ``told``) through the interaction token
(15 minutes): ephemeral for anything private. The port's calls arrive under the service's
table lock, so they only queue work in the :class:`~adapters.discord.outbox.Outbox`:

- ``show_table``: one edit of the table's one public message (coalesced per channel);
- ``show_hand``: an edit of the player's latest ephemeral hand message, by its id through
  the token of their latest interaction with it (a fresh "Show hand" after 15 minutes),
  with a picture of the cards attached (``hand.png``, uploaded again only when the cards
  or what can be played changed; ``UNO_CARD_IMAGES=false`` turns it off). The message
  and its token are kept with the table (``hand_record``): any process can draw it;
- ``announce``: a new public message for a round or game won and an AFK removal only
  (``bot.port.NEWS``; any other notice is one of the table message's recent lines);
- ``tell``: what a change tells a user who did not make it (a timer's, a bot's, another
  player's): a line under their live hand message, if they have one;
- ``closed``: the table message's last edit, without buttons.

Table key ``dc:<channel id>`` (a thread is a channel, so threads have their own tables),
scope ``dc:g:<guild id>``, player ``dc:<user id>``. The client runs the shards
``UNO_DISCORD_SHARDS`` names; on a shared database (PostgreSQL) other processes run the
others, and any of them may show any table: what it draws is read from the table.

This class only wires the parts and speaks the port: ``gateway`` (the client),
``inbound.presses`` (components), ``inbound.commands`` (the ``/uno`` group),
``outbound.menus`` (settings, kick), ``outbound.table`` (the table message, news),
``outbound.hands`` (hand messages), ``outbound.replies`` (answers), ``langs``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Sequence

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from adapters.discord.context import Context
from adapters.discord.emojis import CardEmojis, EmojiSets
from adapters.discord.gateway import IDENTIFY_SECONDS, IdentifyPacer, UnoClient
from adapters.discord.gateway import shards_label as _shards  # noqa: F401 (tests)
from adapters.discord.ids import OLD_HAND_ACTIONS as HAND_ACTIONS
from adapters.discord.inbound.commands import UnoCommands
from adapters.discord.inbound.presses import Presses
from adapters.discord.langs import Languages
from adapters.discord.markup import invite_url, md
from adapters.discord.outbound.hands import Hands
from adapters.discord.outbound.menus import Menus
from adapters.discord.outbound.replies import Replies
from adapters.discord.outbound.sessions import HAND_TTL, HandSession, hand_record
from adapters.discord.outbound.table import Board
from adapters.discord.outbox import Outbox
from bot import policy
from bot.ops.config import Settings
from bot.port import Notice, Port, TableInfo
from bot.service import Service
from engine import Event, View

__all__ = [
    "DEFAULT_API",
    "HAND_ACTIONS",
    "Adapter",
    "HandSession",
    "UnoClient",
    "hand_record",
    "md",
]

log = logging.getLogger(__name__)

DEFAULT_API = "https://discord.com/api/v10"
# at a start, tables changed this recently are drawn again (see ``Adapter._reshow``)
RESHOW_SECONDS = 15 * 60.0


class Adapter(Port):
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
        self.cards = EmojiSets(service, enabled=settings.card_images and card_emojis)
        langs = Languages(settings, service, lambda: self.ctx.client)
        self.ctx = Context(settings, service, Outbox(), langs, self.cards)
        self.board = Board(self.ctx)
        self.hands = Hands(self.ctx, hand_ttl)
        self.replies = Replies(langs, self.board.known, self.hands.has)
        self.menus = Menus(service, self.replies)
        self.presses = Presses(self.ctx, self.replies, self.hands, self.menus)
        self.pacer = IdentifyPacer(service, identify_seconds)
        self._guild_ready_timeout = guild_ready_timeout
        # the shards this process runs (None: all Discord recommends) and their count
        plan = settings.discord_shard_plan
        self.shard_ids: tuple[int, ...] | None = plan[0] if plan is not None else None
        self.shard_count: int | None = plan[1] if plan is not None else None
        # one process registers the commands: the one running shard 0 (or every shard)
        self._sync = sync_commands and (self.shard_ids is None or 0 in self.shard_ids)
        self._runner: asyncio.Task[None] | None = None
        self._saved: tuple[str, yarl.URL] | None = None

    # what tests and operators read
    @property
    def client(self) -> UnoClient | None:
        client = self.ctx.client
        assert client is None or isinstance(client, UnoClient)
        return client

    @property
    def outbox(self) -> Outbox:
        return self.ctx.outbox

    @property
    def emojis(self) -> CardEmojis | None:
        """The cards as emojis, once the set is complete (else the cards are text)."""
        return self.ctx.emojis

    @property
    def ack_latencies(self) -> deque[float]:
        """Seconds from receiving an interaction to acknowledging it (the latest ones)."""
        return self.ctx.gate.ack_latencies

    @property
    def image_times(self) -> deque[float]:
        """Seconds spent drawing each hand picture uploaded (the latest ones)."""
        return self.hands.image_times

    # -- life cycle ---------------------------------------------------------------------------

    async def start(self, *, timeout: float = 60.0) -> None:
        """Log in (syncing the commands), connect to the gateway, wait until ready."""
        token = self.settings.discord_token
        if token is None:
            raise RuntimeError("UNO_DISCORD_TOKEN is not set")
        base = self.settings.discord_api_url.rstrip("/")
        self.ctx.gate.closing = False
        self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        Route.BASE = base
        client = self.ctx.client = UnoClient(
            self.presses.on_component,
            UnoCommands(self.ctx, self.replies, self.hands, self.menus, self.presses),
            self.pacer, self.replies.command_failed,
            sync=self._sync, guilds=self.settings.discord_guild_ids,
            guild_ready_timeout=self._guild_ready_timeout,
            shard_ids=self.shard_ids, shard_count=self.shard_count,
        )  # fmt: skip
        try:
            await client.login(token.get_secret_value())
            await self._gateway(client, base)
            await self._connect(client, timeout)
            await self.cards.start(client)
        except BaseException:
            await self.stop()
            raise
        log.info("discord: logged in as %s", client.user)
        if client.application_id is not None:
            log.info("discord: add the bot to a server: %s", invite_url(client.application_id))
        reshow = asyncio.create_task(self._reshow(), name="uno-discord-reshow")
        self.ctx.gate.handlers.add(reshow)
        reshow.add_done_callback(self.ctx.gate.handlers.discard)

    async def _gateway(self, client: UnoClient, base: str) -> None:
        """How many shards may identify at once (and, with another API, where its gateway
        is: with a shard count given, discord.py dials DEFAULT_GATEWAY without asking
        /gateway/bot)."""
        recommended, url, limits = await client.http.get_bot_gateway()
        self.pacer.max_concurrency = max(1, int(limits.get("max_concurrency") or 1))
        if base != DEFAULT_API:
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        if self.shard_count is None:
            log.info("discord: running every shard (Discord recommends %d)", recommended)
        else:
            log.info(
                "discord: running shards %s of %d (Discord recommends %d)",
                ",".join(map(str, self.shard_ids or ())), self.shard_count, recommended,
            )  # fmt: skip

    async def _connect(self, client: UnoClient, timeout: float) -> None:
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

    async def stop(self, flush: float = 10.0) -> None:
        """Finish queued sends (for up to ``flush`` seconds), then disconnect (restoring the
        patched class defaults). An interaction that arrives meanwhile is answered at once
        and changes nothing: its work could be cut off halfway, its answer lost with the
        connection."""
        self.ctx.gate.closing = True
        await self.cards.stop()
        with contextlib.suppress(Exception):
            await self.idle(timeout=flush)
        self.hands.stop()
        await self.outbox.close()
        if self.ctx.client is not None:
            with contextlib.suppress(Exception):
                await self.ctx.client.close()
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
        client = self.ctx.client
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
                if self.ctx.gate.closing:
                    return
                if not key.startswith(self.prefix + ":"):
                    continue
                info = await self.service.table(key)
                if not policy.is_open(info) or info is None:
                    continue
                if info.updated >= since and self.runs(info.scope):
                    await self.show_table(info, [])
        except Exception:
            log.exception("discord: tables not shown again after the start")

    async def identify_turn(self, shard_id: int | None) -> None:
        """Wait until ``shard_id`` may IDENTIFY (``IdentifyPacer.turn``)."""
        await self.pacer.turn(shard_id)

    async def idle(self, timeout: float | None = None) -> None:
        """Wait until no interaction is being handled and nothing waits to be sent."""

        async def _wait() -> None:
            me = asyncio.current_task()
            while True:
                busy = [t for t in self.ctx.gate.handlers if t is not me and not t.done()]
                if busy:
                    await asyncio.gather(*busy, return_exceptions=True)
                    continue
                if self.outbox.busy:
                    await self.outbox.drain()
                    continue
                return

        await asyncio.wait_for(_wait(), timeout)

    def table_lang(self, info: TableInfo) -> str:
        """The table's language setting, else its server's locale, else the default."""
        return self.ctx.langs.table_lang(info)

    # -- the port -----------------------------------------------------------------------------

    def names(self, table: TableInfo) -> dict[str, str]:
        """The table's names, with those who left it (a notice may still name them)."""
        return self.board.names(table)

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        self.board.show(table)  # its recent lines included (kept with the table)
        self.hands.on_table(table)

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        self.hands.on_hand(table, player, events, self.names(table))

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        self.board.announce(table, notice)

    def reports_shown(self, key: str) -> bool:
        """Every table message drawn is reported (``Board``): a window's clock starts when
        its buttons are on screen, however long the edit waited."""
        return True

    async def tell(self, table_key: str, user: str, notice: Notice) -> None:
        """What a change tells ``user``, who did not make it (the caller is answered from
        the call's ``Result``): a line under their live hand message."""
        if notice.code == "info.revealed" and self.hands.has(table_key, user):
            # their hand message has it already: the challenge's line there (``show_hand``
            # comes first) names the cards
            return
        if not self.hands.on_notice(table_key, user, notice, self.board.known(table_key)):
            log.debug("no way to tell %s privately at %s: %s", user, table_key, notice.code)

    async def closed(self, table: TableInfo) -> None:
        self.board.close(table)
        self.hands.on_table(table, final=True)
