"""``/metrics`` and ``/healthz`` of one process (``UNO_METRICS_PORT``), served by aiohttp in
the bot's own event loop.

``/metrics``: the process's Prometheus metrics (``bot.ops.metrics``), text format.

``/healthz``: JSON, HTTP 200 when healthy, 503 otherwise. Healthy: the process has started
(its tables loaded, its platforms started) and is not stopping; the store answered a
round trip (``Store.ping``) within ``timeout`` seconds; and every platform it started says
it is connected (an adapter's ``connected()``: a bool, or one per shard; one that cannot
tell is reported ``null`` and not held against the process).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aiohttp import web

from bot import __version__
from bot.ops.metrics import CONTENT_TYPE, connected

__all__ = ["Monitor"]

log = logging.getLogger(__name__)

STORE_TIMEOUT = 2.0  # seconds the store has to answer the health check


class Monitor:
    """The HTTP endpoints of ``service``'s process: ``await start(host, port)``, then
    ``ready()`` once the platforms are up, ``stopping()`` when shutting down, ``stop()``."""

    def __init__(
        self,
        service: Any,
        *,
        platforms: Callable[[], Sequence[Any]] = tuple,
        timeout: float = STORE_TIMEOUT,
    ) -> None:
        self.service = service
        self.metrics = service.metrics
        self.platforms = platforms
        self.metrics.platforms = platforms
        self.timeout = timeout
        self.state = "starting"
        self._runner: web.AppRunner | None = None

    def ready(self) -> None:
        self.state = "running"

    def stopping(self) -> None:
        self.state = "stopping"

    # -- what is served ---------------------------------------------------------------------

    async def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether this process is healthy, and the details (see the module docstring)."""
        store = await self._store()
        platforms: dict[str, Any] = {}
        up = True
        for adapter in self.platforms():
            state = connected(adapter)
            entry: dict[str, Any]
            if isinstance(state, Mapping):
                shards = {str(k): bool(v) for k, v in sorted(state.items())}
                entry = {"connected": bool(shards) and all(shards.values()), "shards": shards}
            else:
                entry = {"connected": state}
            up = up and entry["connected"] is not False
            platforms[str(getattr(adapter, "prefix", type(adapter).__name__))] = entry
        ok = self.state == "running" and store["reachable"] and up
        svc = self.service
        body = {
            "status": "ok" if ok else ("unhealthy" if self.state == "running" else self.state),
            "process": svc.worker,
            "pid": os.getpid(),
            "version": __version__,
            "store": store,
            "platforms": platforms,
            "open_tables": len(svc.open_tables()),
            "deadlines_overdue": svc.timers.overdue(),
        }
        return ok, body

    async def _store(self) -> dict[str, Any]:
        store = self.service.store
        out: dict[str, Any] = {"kind": getattr(store, "dialect", type(store).__name__)}
        start = time.perf_counter()
        try:
            await asyncio.wait_for(store.ping(), self.timeout)
        except TimeoutError:
            out.update(reachable=False, error=f"no answer within {self.timeout:g} s")
        except Exception as e:
            text = (str(e).splitlines() or [""])[0][:200]
            out.update(reachable=False, error=f"{type(e).__name__}: {text}".rstrip(": "))
        else:
            out.update(reachable=True, ms=round((time.perf_counter() - start) * 1000, 2))
        return out

    async def _metrics(self, _request: web.Request) -> web.Response:
        return web.Response(body=self.metrics.exposition(), headers={"Content-Type": CONTENT_TYPE})

    async def _healthz(self, _request: web.Request) -> web.Response:
        ok, body = await self.health()
        return web.json_response(body, status=200 if ok else 503)

    # -- life cycle -------------------------------------------------------------------------

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host:port`` (port 0: a free one, see ``port``). Raises ``OSError``
        when it cannot (the port is taken)."""
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        runner = web.AppRunner(app, access_log=None)  # a scrape every few seconds: no log
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        log.info("metrics and health on http://%s:%d/ (/metrics, /healthz)", host, self.port)

    @property
    def port(self) -> int:
        """The port listened on (once started)."""
        assert self._runner is not None
        return int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
