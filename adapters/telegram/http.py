"""python-telegram-bot's HTTP requests on aiohttp instead of httpx.

PTB lets the HTTP client be replaced (``ApplicationBuilder.request`` and
``get_updates_request`` take any :class:`telegram.request.BaseRequest`). Its default,
httpx, costs about 1.2 ms of CPU a request on this machine; aiohttp (already here for
discord.py and the webhook server) about 0.1 ms. A turn makes four or five requests (the
updates it brings, the inline answer, the table edit), so the client was most of the CPU a
turn cost (``bench/telegram_cpu.py``). What is sent is the same: the parameters as a form
(``application/x-www-form-urlencoded``, or ``multipart/form-data`` with files), exactly
the body PTB's own client sends; errors map to the same PTB exceptions (``TimedOut``,
``NetworkError``), and PTB reads the answer as usual.
"""

from __future__ import annotations

from typing import Any

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

__all__ = ["AiohttpRequest"]


class AiohttpRequest(BaseRequest):
    """A :class:`~telegram.request.BaseRequest` on an ``aiohttp.ClientSession``, with the
    timeouts of PTB's own (seconds; ``None``: no limit). aiohttp has no write timeout of
    its own: writing a request is part of the time its answer may take."""

    __slots__ = ("_connect", "_media_write", "_pool", "_read", "_session", "_size", "_write")

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._size = connection_pool_size
        self._read = read_timeout
        self._write = write_timeout
        self._connect = connect_timeout
        self._pool = pool_timeout
        self._media_write = media_write_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._size),
                headers={"User-Agent": self.USER_AGENT},
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data else None
        fields = request_data.json_parameters if request_data else None
        read = self._read if isinstance(read_timeout, DefaultValue) else read_timeout
        write = self._write if isinstance(write_timeout, DefaultValue) else write_timeout
        if files and isinstance(write_timeout, DefaultValue):
            write = self._media_write
        connect = self._connect if isinstance(connect_timeout, DefaultValue) else connect_timeout
        pool = self._pool if isinstance(pool_timeout, DefaultValue) else pool_timeout
        timeout = aiohttp.ClientTimeout(
            total=None,
            # aiohttp's ``connect`` includes waiting for a free connection of the pool
            connect=_sum(pool, connect),
            sock_connect=connect,
            sock_read=_sum(read, write),
        )
        body: Any = fields or None
        if files:
            form = aiohttp.FormData()
            for name, value in (fields or {}).items():
                form.add_field(name, value)
            for name, (filename, content, mimetype) in files.items():
                form.add_field(name, content, filename=filename, content_type=mimetype)
            body = form
        try:
            async with session.request(method, url, data=body, timeout=timeout) as res:
                return res.status, await res.read()
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{type(err).__name__}: {err}") from err


def _sum(*seconds: float | None) -> float | None:
    """Timeouts added up; ``None`` (no limit) if any is."""
    if any(s is None for s in seconds):
        return None
    return float(sum(s for s in seconds if s is not None))
