"""The web table's server (aiohttp): the page, its script and style, the card pictures, and
one WebSocket per page.

The page is plain HTML, CSS and JavaScript modules served from the package (``static/``):
no build step. It is served twice: at ``/`` (a browser: a Discord player's link, a public
table link) and at ``/tg/`` (inside Telegram, with Telegram's ``telegram-web-app.js``, the
only third-party origin its Content Security Policy allows, and only there). Every URL the
page uses is relative to it, so it runs under any prefix and in a frame.

A page's socket: its first message says who it is (``hello``: a table token, a player
token, or Telegram's initData; ``adapters.web.identity``); every later one is a press, an
intent in the one codec (``bot.ui.intents``), read and checked as a button press is and sent
through ``bot.ui.press``; a refusal is told to that page only. A socket whose ``Origin`` is
not the web table's own is refused (403), and each page may send ``RATE`` messages a
second (``BURST`` at once): past that it is told to slow down, and one that keeps on is
closed. Tokens and initData are never logged: the access log is off, and the page keeps
them in the URL's fragment (never sent) or in its ``hello``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from adapters.web import frames
from adapters.web.hub import Conn, Hub
from adapters.web.identity import INIT_DATA_SECONDS, telegram_login
from adapters.web.strings import page_strings, refusal
from bot import policy
from bot.port import Notice
from bot.ui import intents, render
from bot.ui.card_images import SET_VERSION, card_set, web_png
from bot.ui.i18n import resolve_lang
from bot.ui.intents import DecodeRefusal
from bot.ui.press import press as press_intent
from bot.weblinks import Links

__all__ = ["BURST", "RATE", "WebApp"]

log = logging.getLogger(__name__)

RATE = 5.0  # messages a second a page may send
BURST = 12  # at once
FLOOD = 60  # messages refused for speed before the page is closed
HELLO_SECONDS = 10.0  # a page says who it is within this
RENEW_SECONDS = 1800.0  # a player's page gets a fresh player token this often
MAX_MESSAGE = 4096  # bytes of one message from a page
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
_STATIC = ("app.js", "style.css", "render.js")
_TYPES = {".js": "text/javascript", ".css": "text/css"}
_CARDS = {f.name: f for f in card_set()}


class Bucket:
    """A token bucket: ``RATE`` a second, ``BURST`` at most."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()
        self.refused = 0
        self.warned = 0.0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


def _csp(telegram: bool) -> str:
    """No inline script, nothing from another origin but Telegram's script inside Telegram
    (whose web client shows a Mini App in a frame)."""
    script = "'self'" + (f" {TELEGRAM_SCRIPT}" if telegram else "")
    frames = "'self'" + (" https://web.telegram.org" if telegram else "")
    return (
        f"default-src 'none'; script-src {script}; style-src 'self'; img-src 'self' data:; "
        f"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors {frames}"
    )


@lru_cache(maxsize=4)
def _index(telegram: bool) -> bytes:
    html = resources.files("adapters.web").joinpath("static/index.html").read_text("utf-8")
    tag = f'<script src="{TELEGRAM_SCRIPT}"></script>' if telegram else ""
    return html.replace("<!--telegram-->", tag).encode()


@lru_cache(maxsize=8)
def _static(name: str) -> bytes:
    return resources.files("adapters.web").joinpath("static", name).read_bytes()


@lru_cache(maxsize=256)
def _card(name: str, dim: bool) -> bytes:
    return web_png(_CARDS[name], dim)


class WebApp:
    """The server: ``start()`` listens, ``stop()`` closes every page."""

    def __init__(self, settings: Any, service: Any, links: Links, hub: Hub) -> None:
        self.settings = settings
        self.service = service
        self.links = links
        self.hub = hub
        parts = urlsplit(settings.web_url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        token = getattr(settings, "telegram_token", None)
        self.bot_token = token.get_secret_value() if token is not None else None
        self.runner: web.AppRunner | None = None
        self.port: int | None = None
        self.clock = time.time

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers], client_max_size=MAX_MESSAGE)
        for prefix in ("", "/tg"):
            telegram = prefix == "/tg"
            app.router.add_get(f"{prefix}/", self._page(telegram))
            app.router.add_get(prefix + "/static/{name}", self._static)
            app.router.add_get(prefix + "/cards/{version}/{name}", self._card)
            app.router.add_get(prefix + "/ws", self._socket)
        app.router.add_get("/tg", self._to_slash)
        return app

    async def start(self) -> None:
        self.runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.settings.web_listen, self.settings.web_port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.settings.web_port
        log.info("web table: listening on %s:%s for %s", self.settings.web_listen, self.port,
                 self.settings.web_url)  # fmt: skip

    async def stop(self) -> None:
        await self.hub.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    # -- pages, files ------------------------------------------------------------------------

    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        telegram = request.path.startswith("/tg/")
        response.headers.setdefault("Content-Security-Policy", _csp(telegram))
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    def _page(self, telegram: bool) -> Any:
        async def page(request: web.Request) -> web.Response:
            return web.Response(
                body=_index(telegram),
                content_type="text/html",
                charset="utf-8",
                headers={"Cache-Control": "no-cache"},
            )

        return page

    async def _to_slash(self, request: web.Request) -> web.Response:
        raise web.HTTPFound("tg/" + (f"?{request.query_string}" if request.query_string else ""))

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in _STATIC:
            raise web.HTTPNotFound()
        body = _static(name)
        etag = f'"{hash(body) & 0xFFFFFFFF:x}"'
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers={"ETag": etag})
        ext = name[name.rindex(".") :]
        return web.Response(
            body=body,
            content_type=_TYPES[ext],
            charset="utf-8",
            headers={"Cache-Control": "no-cache", "ETag": etag},
        )

    async def _card(self, request: web.Request) -> web.Response:
        """A card's picture; its path names the set's version: cached for a year."""
        version, name = request.match_info["version"], request.match_info["name"]
        base, dot, ext = name.partition(".")
        dim = base.endswith("-d")
        base = base.removesuffix("-d")
        if version != str(SET_VERSION) or ext != "png" or not dot or base not in _CARDS:
            raise web.HTTPNotFound()
        body = await asyncio.get_running_loop().run_in_executor(None, _card, base, dim)
        return web.Response(
            body=body,
            content_type="image/png",
            headers={"Cache-Control": "public, max-age=31536000, immutable"},
        )

    # -- a page's socket ---------------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Origin") != self.origin:
            log.info("web: a socket from another origin refused")
            raise web.HTTPForbidden(text="origin")
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30.0)
        await ws.prepare(request)
        conn = await self._hello(ws)
        if conn is None:
            await ws.close(code=4001)
            return ws
        renew = asyncio.get_running_loop().create_task(self._renew(conn))
        try:
            await self._serve(conn)
        finally:
            renew.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renew
            self.hub.remove(conn)
            await conn.close()
        return ws

    async def _hello(self, ws: web.WebSocketResponse) -> Conn | None:
        """Who the page is: a ``Conn`` (registered, and sent the table), or ``None`` (it was
        told why not)."""
        try:
            msg = await ws.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            return None
        hello: Any = None
        if msg.type == WSMsgType.TEXT:
            with contextlib.suppress(ValueError):
                hello = json.loads(msg.data)
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            return None
        who = await self._identify(hello)
        if isinstance(who, str):
            lang = resolve_lang(_text(hello.get("lang")))
            await ws.send_str(json.dumps({"type": "gone", "code": who,
                                          "text": refusal(who, _tr(lang))}))  # fmt: skip
            return None
        key, player, name, lang = who
        conn = Conn(ws, key, player, lang, name)
        welcome: dict[str, Any] = {
            "type": "welcome",
            "me": player,
            "name": name,
            "lang": lang,
            "strings": page_strings(conn.tr),
            "table": self.links.table_token(key),
        }
        token = await self._player_token(conn)
        if token is not None:
            welcome["token"] = token
        await ws.send_str(json.dumps(welcome, ensure_ascii=False))  # before anything else
        self.hub.add(conn)
        await self.hub.show(key, only=conn)
        log.info("web: a page of %s opened at %s", player or "a spectator", key)
        return conn

    async def _identify(self, hello: dict[str, Any]) -> tuple[str, str | None, str, str] | str:
        """(table key, player or ``None``, their name, the page's language), or the code
        of a refusal."""
        wanted = _text(hello.get("lang"))
        key: str | None = None
        player: str | None = None
        name = ""
        platform_lang: str | None = None
        init_data = hello.get("initData")
        link = hello.get("link")
        table = hello.get("table")
        if init_data:
            if self.bot_token is None:
                return "bad_login"
            login = telegram_login(init_data, self.bot_token, self.clock(),
                                   max_age=INIT_DATA_SECONDS)  # fmt: skip
            if isinstance(login, str):
                # an old initData with the player token it was given: still that player
                if login != "old_login" or not link:
                    return login
            else:
                player, name, platform_lang = f"tg:{login.user}", login.name, login.language
                table = login.start_param or table
        if link and player is None:
            found = self.links.read_player(link)
            if found is None:
                return "expired" if self.links.read_player(link, expired=True) else "bad_link"
            info = await self.service.table(found.key)
            if info is None or not policy.is_open(info):
                return "expired"
            if not Links.same_game(found, info.created):
                return "expired"
            key, player = found.key, found.player
            name = info.name(player)
        if key is None:
            key = self.links.read_table(table)
            if key is None:
                return "bad_link"
        if player is not None and player.partition(":")[0] != key.partition(":")[0]:
            player = None  # a Telegram user at a Discord table: they may only watch
        info = await self.service.table(key)
        if info is None:
            return "no_table"
        saved = await self.service.user_lang(player) if player is not None else None
        lang = resolve_lang(saved, platform_lang, wanted, info.lang, self.settings.language)
        return key, player, name, lang

    async def _player_token(self, conn: Conn) -> str | None:
        if conn.player is None:
            return None
        info = await self.service.table(conn.key)
        if info is None or not policy.is_open(info):
            return None
        return self.links.player_token(conn.key, conn.player, info.created)

    async def _renew(self, conn: Conn) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            token = await self._player_token(conn)
            if token is not None:
                conn.send_json({"type": "token", "token": token})

    async def _serve(self, conn: Conn) -> None:
        bucket = Bucket()
        async for msg in conn.ws:
            if msg.type != WSMsgType.TEXT:
                break
            if not bucket.take():
                if bucket.refused > FLOOD:
                    log.info("web: a page of %s at %s closed: flooding", conn.player, conn.key)
                    await conn.flush()
                    await conn.close(1008, b"too fast")
                    return
                now = time.monotonic()
                if now - bucket.warned >= 1.0:
                    bucket.warned = now
                    self._refuse(conn, "too_fast")
                await asyncio.sleep(0)  # (its writer may send meanwhile)
                continue
            try:
                data = json.loads(msg.data)
            except ValueError:
                self._refuse(conn, "forged")
                continue
            try:
                await self._message(conn, data)
            except Exception:
                log.exception("web: a press at %s failed", conn.key)

    def _refuse(self, conn: Conn, code: str) -> None:
        conn.put(frames.notice_frame(refusal(code, conn.tr), "refusal", code))

    async def _answer(self, conn: Conn, told: Sequence[Notice]) -> None:
        """What a press's ``Result`` tells the presser (a refusal, a revealed hand): on the
        page pressed, alone."""
        info = await self.service.table(conn.key)
        names = info.names if info is not None else {}
        for notice in told:
            line = render.notice_text(notice, conn.tr, names, platform="web", viewer=conn.player)
            kind = "private" if notice.code.startswith("info.") else "refusal"
            conn.put(frames.notice_frame(line, kind, notice.code))

    async def _message(self, conn: Conn, data: Any) -> None:
        if not isinstance(data, dict):
            self._refuse(conn, "forged")
            return
        kind = data.get("type")
        if kind == "press":
            await self._press(conn, data.get("intent"))
        elif kind == "refresh":
            await self.hub.show(conn.key, only=conn)
        else:
            self._refuse(conn, "forged")

    def _kick_menu(self, conn: Conn, info: Any) -> None:
        """The host's menu of whom to remove (``bot.ui.controls.kick_menu``), as the chats
        offer it; anyone else is refused, as the service would refuse their kick."""
        assert conn.player is not None
        code = policy.refusal_code(info, conn.player, manage=True)
        if code is not None:
            line = frames.notice_text(Notice(code), info, conn.tr, conn.player)
            conn.put(frames.notice_frame(line, "refusal", code))
            return
        frame = frames.kick_frame(info, conn.player, conn.tr)
        if frame is None:
            self._refuse(conn, "nobody_to_kick")
            return
        conn.put(frame, "kick")

    async def _press(self, conn: Conn, text: Any) -> None:
        """An intent from the page, read and checked as a button press is."""
        press = intents.decode(text if isinstance(text, str) else None, limit=frames.WEB_LIMIT)
        if isinstance(press, DecodeRefusal):
            self._refuse(conn, "forged")
            return
        if press.token != frames.web_token(conn.key):
            self._refuse(conn, "other_table")
            return
        if conn.player is None:
            self._refuse(conn, "spectator")
            return
        info = await self.service.table(conn.key)
        if info is None:
            self._refuse(conn, "no_table")
            return
        intent = press.resolve([s.id for s in info.seats]) if press.needs_seats else press.raw
        if isinstance(intent, DecodeRefusal):
            self._refuse(conn, "forged")
            return
        match intent:
            case intents.OpenSettings(page):
                conn.settings_page = max(0, page)
                conn.put(frames.settings_frame(info, conn.settings_page, conn.tr), "settings")
                return
            case intents.OpenKick():
                self._kick_menu(conn, info)
                return
            case intents.CloseSettings():
                conn.settings_page = None
                conn.send_json({"type": "settings", "closed": True})
                return
            case intents.Refresh() | intents.OpenHand():
                await self.hub.show(conn.key, only=conn)
                return
            case (
                intents.Act()
                | intents.Join()
                | intents.LeaveTable()
                | intents.AddBot()
                | intents.Start()
                | intents.SetFlag()
                | intents.SetPreset()
                | intents.Kick()
                | intents.VoteEnd()
                | intents.Autopilot()
            ):
                log.debug("web: %s pressed %s at %s", conn.player, type(intent).__name__,
                          conn.key)  # fmt: skip
                res = await press_intent(
                    self.service, conn.key, conn.player, intent, name=conn.name
                )
                if res is not None and res.told:
                    await self._answer(conn, res.told)
                return
        self._refuse(conn, "forged")


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and len(value) <= 64 else None


def _tr(lang: str) -> Any:
    from bot.ui.i18n import translator

    return translator(lang)
