"""The open pages and what reaches them: every committed version of a table goes to every
page of that table, a hand to its owner's pages only.

Each page is a ``Conn`` with a writer of its own, so a slow page never holds the others up:
the newest ``table`` and ``hand`` frames wait in a slot each (a newer version replaces one
not sent yet: a page far behind skips to the newest), other frames (refusals, news, the
settings) in a queue. A change of a table (``changed``) starts one fan-out of that table
if none runs, else marks it to run again when the running one ends: the table is read once
(``Service.seen``: the public table and every connected player's own view, one version),
its public frame made once per language and sent as it is to every page, each hand made
once per player and language.

Several processes (PostgreSQL): a page may be held by any process. The process that
commits a version tells the others (``NOTIFY``, through the service) and each fans the table
out to its own pages; one that lost its listening connection looks again at every table it
has pages of once it listens again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from adapters.web import frames
from bot.port import Notice, TableInfo
from bot.service import Service
from bot.store import Listening
from bot.ui import render
from bot.ui.i18n import Translator, translator

__all__ = ["CHANNEL", "Conn", "Hub"]

log = logging.getLogger(__name__)

CHANNEL = "uno_web"  # PostgreSQL's notification channel of the web table
QUEUE_MAX = 64  # frames other than the table and the hand waiting for one page


@dataclass(eq=False)
class Conn:
    """One open page: its socket, its table, who it is (``player``: ``None`` for a
    spectator) and in which language it reads."""

    ws: web.WebSocketResponse
    key: str
    player: str | None
    lang: str
    name: str = ""
    settings_page: int | None = None  # the settings page it has open
    sent_version: int = 0  # the newest table version it was sent
    _slots: dict[str, str] = field(default_factory=dict)
    _queue: deque[str] = field(default_factory=lambda: deque(maxlen=QUEUE_MAX))
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _writer: asyncio.Task[None] | None = None
    closed: bool = False

    @property
    def tr(self) -> Translator:
        return translator(self.lang)

    def start(self) -> None:
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def put(self, text: str, slot: str | None = None) -> None:
        """Send ``text`` (in a ``slot``: replacing one of that slot not sent yet)."""
        if self.closed:
            return
        if slot is None:
            self._queue.append(text)
        else:
            self._slots[slot] = text
        self._wake.set()

    def send_json(self, frame: dict[str, Any]) -> None:
        self.put(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))

    async def _write(self) -> None:
        ws = self.ws
        try:
            while not self.closed:
                await self._wake.wait()
                self._wake.clear()
                while not self.closed and (self._slots or self._queue):
                    # the table first, then its hand (one version: the page shows them
                    # together), then the rest in order
                    if self._slots:
                        name = "table" if "table" in self._slots else next(iter(self._slots))
                        text = self._slots.pop(name)
                    else:
                        text = self._queue.popleft()
                    if ws.closed:
                        return
                    await ws.send_str(text)
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            return
        except Exception as e:  # a page gone mid-send: its own business
            log.debug("web: a page's writer ended: %s", type(e).__name__)

    async def flush(self, timeout: float = 1.0) -> None:
        """Wait (``timeout`` at most) for what is waiting to be sent."""
        end = asyncio.get_running_loop().time() + timeout
        while (self._slots or self._queue) and asyncio.get_running_loop().time() < end:
            if self._writer is None or self._writer.done():
                return
            await asyncio.sleep(0.01)

    async def close(self, code: int = 1000, message: bytes = b"") -> None:
        self.closed = True
        self._wake.set()
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        if not self.ws.closed:
            with contextlib.suppress(Exception):
                await self.ws.close(code=code, message=message)


class Hub:
    """The pages by table, and the fan-out of each table's versions to them."""

    def __init__(self, service: Service, clock: Callable[[], float] = time.time) -> None:
        self.service = service
        self.clock = clock
        self.pages: dict[str, set[Conn]] = {}
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._stale: dict[str, int] = {}  # tables another process changed (to a version)
        self.worker = service.worker
        self.listener: Listening | None = None
        self.frames_sent = 0  # table frames put to pages (bench, tests)

    # -- pages -------------------------------------------------------------------------------

    def add(self, conn: Conn) -> None:
        self.pages.setdefault(conn.key, set()).add(conn)
        conn.start()

    def remove(self, conn: Conn) -> None:
        found = self.pages.get(conn.key)
        if found is not None:
            found.discard(conn)
            if not found:
                del self.pages[conn.key]

    def count(self) -> int:
        return sum(len(p) for p in self.pages.values())

    # -- changes ----------------------------------------------------------------------------

    def changed(self, key: str) -> None:
        """Table ``key`` has a new version: bring every page of it there."""
        if key not in self.pages:
            return
        if key in self._running:
            self._again.add(key)
            return
        task = asyncio.get_running_loop().create_task(self._fan(key))
        self._running[key] = task

    async def _fan(self, key: str) -> None:
        try:
            while True:
                self._again.discard(key)
                try:
                    await self.show(key)
                except Exception:
                    log.exception("web: showing table %s to its pages failed", key)
                if key not in self._again:
                    return
        finally:
            self._running.pop(key, None)

    async def show(self, key: str, only: Conn | None = None) -> None:
        """Send table ``key`` as it is now to its pages (``only``: to that one page)."""
        conns = [only] if only is not None else list(self.pages.get(key, ()))
        if not conns:
            return
        players = sorted({c.player for c in conns if c.player is not None})
        reload = self._stale.pop(key, None) is not None
        info, own = await self.service.seen(key, players, reload=reload)
        if info is None:
            for c in conns:
                c.send_json({"type": "gone", "code": "no_table"})
            return
        now = self.clock()
        tables: dict[str, str] = {}
        hands: dict[tuple[str, str], str] = {}
        for c in conns:
            if c.closed:
                continue
            text = tables.get(c.lang)
            if text is None:
                text = tables[c.lang] = frames.table_frame(info, c.tr, now)
            c.put(text, "table")
            c.sent_version = max(c.sent_version, info.version)
            self.frames_sent += 1
            if c.player is not None:
                mine = own.get(c.player)
                if mine is not None:
                    hk = (c.player, c.lang)
                    hand = hands.get(hk)
                    if hand is None:
                        hand = hands[hk] = frames.hand_frame(info, mine[0], mine[1], c.tr)
                    c.put(hand, "hand")
                else:
                    c.put(json.dumps({"type": "hand", "version": info.version}), "hand")
            if c.settings_page is not None:
                c.put(frames.settings_frame(info, c.settings_page, c.tr), "settings")

    # -- notices ----------------------------------------------------------------------------

    def announce(self, info: TableInfo, notice: Notice) -> None:
        """News for every page of the table (a round won, the game won...)."""
        texts: dict[tuple[str, str | None], str] = {}
        for c in self.pages.get(info.key, ()):
            k = (c.lang, c.player)
            text = texts.get(k)
            if text is None:
                line = frames.notice_text(notice, info, c.tr, c.player)
                text = texts[k] = frames.notice_frame(line, "news", notice.code)
            c.put(text)

    def tell(self, key: str, user: str, notice: Notice, names: dict[str, str]) -> None:
        """A notice for ``user``'s pages at table ``key`` (a look at a hand after a
        challenge made from the chat: theirs to see wherever they look)."""
        for c in self.pages.get(key, ()):
            if c.player == user:
                line = render.notice_text(notice, c.tr, names, platform="web", viewer=user)
                c.put(frames.notice_frame(line, "private", notice.code))

    # -- other processes --------------------------------------------------------------------

    async def listen(self) -> None:
        """On a shared database: hear the other processes' changes (``Service.listen``,
        PostgreSQL's ``NOTIFY``); on a store of its own there are none."""
        self.listener = await self.service.listen(CHANNEL, self._heard, self._missed)

    def _heard(self, payload: str) -> None:
        try:
            msg = json.loads(payload)
            worker, key = msg["w"], msg["k"]
        except (ValueError, TypeError, KeyError):
            return
        if worker == self.worker or not isinstance(key, str):
            return  # our own: shown already
        notice = msg.get("n")
        if isinstance(notice, dict) and key in self.pages:
            code, params = notice.get("code"), notice.get("params") or {}
            if isinstance(code, str) and isinstance(params, dict):
                asyncio.get_running_loop().create_task(self._announce(key, Notice(code, params)))
            return
        version = msg.get("v")
        if isinstance(version, int) and key in self.pages:
            # another process committed it: this one's copy is behind, so read the table
            # at once (one read, not a revision check and then a read)
            self._stale[key] = max(self._stale.get(key, 0), version)
        self.changed(key)

    async def _announce(self, key: str, notice: Notice) -> None:
        info = await self.service.table(key)
        if info is not None:
            self.announce(info, notice)

    def _missed(self) -> None:
        for key in list(self.pages):
            self.changed(key)

    @property
    def shared(self) -> bool:
        """Whether other processes share the database (and hold pages): ``tell_others``."""
        return self.service.shared

    async def tell_others(
        self, key: str, notice: Notice | None = None, version: int | None = None
    ) -> None:
        """Tell the other processes that table ``key`` changed (to ``version``), or made
        ``notice`` (``Service.notify``)."""
        if not self.shared:
            return
        msg: dict[str, Any] = {"w": self.worker, "k": key}
        if version is not None:
            msg["v"] = version
        if notice is not None:
            msg["n"] = {"code": notice.code, "params": notice.params}
        text = json.dumps(msg, separators=(",", ":"), default=str)
        if len(text.encode()) > 7900:  # NOTIFY's limit: the change alone, then
            text = json.dumps({"w": self.worker, "k": key}, separators=(",", ":"))
        try:
            await self.service.notify(CHANNEL, text)
        except Exception as e:
            log.warning("web: telling the other processes of %s failed: %s", key, e)

    async def close(self) -> None:
        if self.listener is not None:
            await self.listener.close()
            self.listener = None
        for task in list(self._running.values()):
            task.cancel()
        for conns in list(self.pages.values()):
            for c in list(conns):
                await c.close(1001, b"shutting down")
        self.pages.clear()
