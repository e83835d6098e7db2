"""The web table: the chat's own table as a live page (a Telegram Mini App; the page a
Discord player opens from their hand), a third front end on the same service.

- ``port``: ``WebPort``, the chats' port teed: every committed version reaches the pages;
- ``hub``: the open pages by table, the fan-out (one read and one public frame a version
  and language; a hand to its owner's pages only), other processes through ``NOTIFY``;
- ``app``: the aiohttp server: the page (``static/``: HTML, CSS, JavaScript modules, no
  build step), card pictures, one WebSocket a page whose messages are intents of
  ``bot.ui.intents`` sent through ``bot.ui.press``;
- ``identity``: Telegram's initData validated; ``frames``: what a page is sent;
  ``strings``: the page's words (the ``web`` domain).

Off unless ``UNO_WEB_URL`` is set (then ``UNO_WEB_SECRET`` signs its links,
``bot.weblinks``). ``Web`` wires it: ``port(inner)`` before the service is made, then
``attach(service)`` and ``start()``.
"""

from __future__ import annotations

from typing import Any

from adapters.web.app import WebApp
from adapters.web.hub import Conn, Hub
from adapters.web.port import WebPort
from bot.port import Port
from bot.service import Service
from bot.weblinks import Links, links_for

__all__ = ["Conn", "Hub", "Web", "WebApp", "WebPort"]


class Web:
    """The web table of one process."""

    prefix = "web"

    def __init__(self, settings: Any) -> None:
        links = links_for(settings)
        if links is None:
            raise ValueError("the web table needs UNO_WEB_URL and UNO_WEB_SECRET")
        self.settings = settings
        self.links: Links = links
        self.tee: WebPort | None = None
        self.hub: Hub | None = None
        self.server: WebApp | None = None

    def port(self, inner: Port) -> WebPort:
        """The port the service is given: ``inner`` (the chats'), teed to the pages."""
        self.tee = WebPort(inner)
        return self.tee

    def attach(self, service: Service) -> None:
        self.hub = Hub(service)
        self.server = WebApp(self.settings, service, self.links, self.hub)
        if self.tee is not None:
            self.tee.hub = self.hub

    def connected(self) -> bool:
        return self.server is not None and self.server.runner is not None

    async def start(self) -> None:
        assert self.server is not None and self.hub is not None, "attach(service) first"
        await self.server.start()
        await self.hub.listen()

    async def stop(self) -> None:
        if self.server is not None:
            await self.server.stop()
