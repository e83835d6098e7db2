"""The public side of a table: its one message (drawn, posted again where it is gone,
closed without buttons) and its news (a message of its own for a round or game won and an
AFK removal). Work is queued in the outbox's lane ``t:<table>``; the newest state wins.
Each message drawn is reported to the service (``Service.shown``): a window counts from
the moment its buttons are on screen (``bot.port``)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping

import discord

from adapters.discord import text, widgets
from adapters.discord.context import Context
from adapters.discord.markup import (
    as_int,
    channel_of,
    cut,
    guild_of,
    md_info,
    md_names,
    notice_text,
)
from bot import policy
from bot.model import PLAYING
from bot.port import NEWS, Notice, TableInfo
from bot.ui import render
from bot.ui.i18n import Translator, translator
from bot.weblinks import links_for
from engine.game import ACTIVE

__all__ = ["Board"]

log = logging.getLogger(__name__)

# Discord's JSON error codes
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
THREAD_ARCHIVED = 50083


class Board:
    """The table messages this process draws, the names seen at each table, the news
    waiting to be posted, and the channels that are gone or closed to the bot."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._msg: dict[str, int] = {}  # table key -> its public message
        self.latest: dict[str, TableInfo] = {}  # the newest state to draw per table
        self._known: dict[str, dict[str, str]] = {}  # every name seen at a table
        self._news: dict[str, list[str]] = {}  # announcements waiting to be posted
        self._gone: set[str] = set()  # tables whose channel was deleted
        self._forbidden: set[str] = set()  # tables whose channel the bot may not write to
        self.links = links_for(ctx.settings)  # the web table's, if it is on

    # -- what the port hands over --------------------------------------------------------

    def names(self, table: TableInfo) -> dict[str, str]:
        """The table's names, with those who left it (a notice may still name them)."""
        known = self._known.setdefault(table.key, {})
        known.update(table.names)
        return dict(known)

    def known(self, key: str) -> Mapping[str, str]:
        """Every name seen at the table ``key`` (none for a table not seen here)."""
        return self._known.get(key, {})

    def show(self, table: TableInfo) -> None:
        """Draw the table message for ``table`` (its recent lines included)."""
        self.names(table)  # who sat here: a notice may name them after they left
        self.latest[table.key] = table
        self.queue(table.key)

    def announce(self, table: TableInfo, notice: Notice) -> None:
        tr = translator(self.ctx.langs.table_lang(table))
        line = notice_text(notice, tr, self.names(table))
        if notice.code in NEWS:  # worth a message of its own; the rest is under the table
            # one message for the news of one change (a round and the game won together)
            self._news.setdefault(table.key, []).append(line)
            self.ctx.outbox.put(f"t:{table.key}", "news", lambda: self._post_news(table.key))
        else:  # one of the table's recent lines (``bot.port.on_table``)
            self.latest.setdefault(table.key, table)
            self.queue(table.key)

    def close(self, table: TableInfo) -> None:
        """The table closed: its message's last edit, without buttons."""
        key = table.key
        lane = f"t:{key}"
        self.ctx.outbox.discard(lane, "table")
        names = self.names(table)
        self.latest.pop(key, None)
        self._known.pop(key, None)
        self.ctx.outbox.put(lane, None, lambda: self._close_table(table, names))

    def queue(self, key: str) -> None:
        self.ctx.outbox.put(f"t:{key}", "table", lambda: self._draw_table(key))

    # -- drawing -------------------------------------------------------------------------

    def content(self, info: TableInfo, names: Mapping[str, str]) -> tuple[str, Translator]:
        """The table message's text, and the translator it speaks with."""
        tr = translator(self.ctx.langs.table_lang(info))
        # names as the message is to show them; a recent notice may name one who left
        notices = [Notice(r.code, dict(r.params)) for r in info.recent if r.code]
        names = md_names(names, notices)
        # the lobby's news included, until the game is dealt (old news then)
        recent = render.recent_lines(info, tr, names, this_status=True)
        art, v = self.ctx.emojis, info.view
        top = art.markup(v.top, v.color) if art is not None and v is not None else None
        content = render.table_text(md_info(info), tr, recent, top_picture=top)
        deadline = info.deadline
        if info.status == PLAYING and deadline is not None and v is not None and v.phase in ACTIVE:
            content += "\n" + tr.gettext(text.TURN_ENDS, when=f"<t:{int(deadline)}:R>")
        return cut(content), tr

    def _channel(self, key: str, info: TableInfo | None) -> discord.PartialMessageable:
        assert self.ctx.client is not None
        guild_id = guild_of(info.scope) if info is not None else None
        return self.ctx.client.get_partial_messageable(channel_of(key), guild_id=guild_id)

    def _message(self, key: str, info: TableInfo | None) -> int | None:
        """The table's message: the newest of the one this process last drew or posted and
        the one kept with the table (a table only ever moves on to a newer message)."""
        ids_ = [self._msg.get(key), None if info is None else as_int(info.meta.get("dc_msg"))]
        known = [m for m in ids_ if m is not None]
        return max(known) if known else None

    async def _draw_table(self, key: str) -> None:
        info = self.latest.get(key)
        if info is None or self.ctx.client is None or key in self._gone:
            return
        service = self.ctx.service
        content, tr = self.content(info, {**self._known.get(key, {}), **info.names})
        links = self.links
        web = links.page_url(table=links.table_token(key)) if links is not None else None
        view = widgets.table_view(info, tr, web)
        channel = self._channel(key, info)
        mid = self._message(key, info)
        if mid is None and service.shared:  # posted by another process meanwhile?
            mid = self._message(key, await service.table(key))
        archived = None
        try:
            if mid is not None:
                try:
                    await channel.get_partial_message(mid).edit(content=content, view=view)
                    self._msg[key] = mid
                    self._forbidden.discard(key)
                    await self._shown(key, info)
                    await self._converge(key, info)
                    return
                except discord.HTTPException as e:
                    if e.code not in (UNKNOWN_MESSAGE, THREAD_ARCHIVED):
                        raise
                    if service.shared:
                        newer = self._message(key, await service.table(key))
                        if newer is not None and newer > mid:  # another process posted it
                            self._msg[key] = newer
                            self.queue(key)
                            return
                    # deleted by a moderator, or in a thread that archived itself (edits
                    # are refused there, a new message wakes it up): post the table again
                    log.info("table message %s of %s: %s: posting a new one", mid, key, e.code)
                    archived = mid if e.code == THREAD_ARCHIVED else None
            msg = await channel.send(content=content, view=view or discord.utils.MISSING)
        except discord.HTTPException as e:
            await self._unreachable(key, info, e)
            return
        await self._posted(key, info, msg.id, archived)

    async def _posted(self, key: str, info: TableInfo, mid: int, archived: int | None) -> None:
        """The table message is ``mid`` now (a new one, ``archived`` the one before it in a
        thread that had archived itself)."""
        self._msg[key] = mid
        self._forbidden.discard(key)
        # kept with the table: any process edits this message; and the server's language,
        # which only the processes running its shard learn from Discord
        locale = self.ctx.langs.guild_lang(info.scope)
        extra = {"dc_locale": locale} if locale else {}
        await self.ctx.service.set_meta(key, dc_msg=mid, **extra)
        if archived is not None:  # the thread is awake again: one table message, not two
            with contextlib.suppress(discord.HTTPException):
                await self._channel(key, info).get_partial_message(archived).edit(view=None)
        await self._shown(key, info)
        await self._converge(key, info)

    async def _shown(self, key: str, info: TableInfo) -> None:
        """The table message shows ``info`` now: the service is told (``Service.shown``),
        so that the windows it opens (a turn, a +4 challenge, a catch) count from now."""
        try:
            await self.ctx.service.shown(key, info.version)
        except Exception as err:  # a courtesy to the timers: never the reason a draw fails
            log.warning("table %s: could not note version %d shown: %s", key, info.version, err)

    async def _converge(self, key: str, drawn: TableInfo) -> None:
        """On a shared database, after the table message was drawn for ``drawn``: another
        process may have drawn a newer version just before this edit landed, so if the
        stored table is not ``drawn`` it is drawn again (or closed): the newest committed
        version is the one that stays."""
        service = self.ctx.service
        if not service.shared or self.latest.get(key) is not drawn:
            return  # (a newer one is queued here already)
        now = await service.table(key)
        if now is None or (now.version, now.status) == (drawn.version, drawn.status):
            return
        if self.latest.get(key) is not drawn:
            return
        if policy.is_open(now):
            self.latest[key] = now
            self.queue(key)
        else:
            names = self.names(now)
            self.latest.pop(key, None)
            self.ctx.outbox.put(f"t:{key}", None, lambda: self._close_table(now, names))

    async def _unreachable(self, key: str, info: TableInfo, e: discord.HTTPException) -> None:
        """The table's channel cannot be written to. Deleted (with its threads): the table
        is stopped, nobody can ever see or press it again. No access: said once, not with
        a traceback every turn (the next change tries again)."""
        if isinstance(e, discord.NotFound) and e.code == UNKNOWN_CHANNEL:
            log.warning("the channel of table %s was deleted: stopping the table", key)
            self._gone.add(key)
            if policy.is_open(info):
                await self.ctx.service.stop_game(key, info.host, admin=True)
        elif isinstance(e, discord.Forbidden):
            if key not in self._forbidden:
                log.warning("table %s cannot be shown: no access (%s)", key, e.code)
            self._forbidden.add(key)
        else:
            raise e

    async def _close_table(self, info: TableInfo, names: Mapping[str, str]) -> None:
        key = info.key
        mid = self._message(key, info)
        self._msg.pop(key, None)
        self._forbidden.discard(key)
        if self.ctx.client is None or key in self._gone:
            self._gone.discard(key)
            return
        content, _ = self.content(info, names)
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

    # -- news ----------------------------------------------------------------------------

    async def _post_news(self, key: str) -> None:
        lines = self._news.pop(key, [])
        if not lines or self.ctx.client is None or key in self._gone:
            return
        channel = self._channel(key, self.latest.get(key))
        try:
            await channel.send(content=cut("\n".join(lines)))
        except (discord.NotFound, discord.Forbidden) as e:
            log.warning("news of table %s cannot be posted: %s", key, e.code)
