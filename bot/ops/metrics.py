"""What an operator watches: Prometheus metrics of one process (``UNO_METRICS_PORT``).

Each ``Service`` has a ``Metrics`` with a registry of its own (not prometheus-client's
global one: a test may run several services in one process). Every series carries the
``process`` label, the service's ``worker`` id (the pid and a random suffix, as in the
database's claims and the log), so the processes sharing one database can be told apart.

- ``uno_actions_total{platform, kind}``: changes of a table committed; ``platform`` is the
  table key's prefix (``dc`` Discord, ``tg`` Telegram), ``kind`` the engine action
  recorded (``Play``, ``Draw``, ``Timeout`` ..., ``Start``, ``Join``, ``Rules``), or
  ``table`` for a change that records none (a lobby joined, a table stopped).
- ``uno_action_seconds{platform}``: from the service call to its commit (a histogram).
- ``uno_refusals_total{platform, code}``: refusals told to a user, by refusal code.
- ``uno_stale_retries_total``: changes decided again because another process had changed
  the table first (a shared database).
- ``uno_open_tables{platform}``, ``uno_deadlines_armed``, ``uno_deadlines_overdue`` (due and
  not yet handed out), ``uno_deadlines_running``: read when scraped.
- ``uno_deadlines_fired_total{kind}``, ``uno_deadline_lateness_seconds{kind}``: deadlines
  fired (``turn``, ``uno``, ``bot``, ``lobby``, ``next_round``, ``vote``) and how late each
  was.
- ``uno_deadlines_taken_over_total``: overdue deadlines of a dead (or stuck) process
  fired here.
- ``uno_platform_rate_limited_total{platform, shard}``: the platform's 429 answers (an
  adapter calls ``rate_limited``), ``uno_platform_connected{platform, shard}``.
- ``uno_process_info{version, store}``, and the standard ``process_*`` series (memory,
  CPU, open files) on Linux.

The hot path (an action) costs two dictionary lookups, a counter increment and a histogram
observation (a few microseconds); everything that can be is computed when scraped.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, Info, ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest

from bot import __version__

__all__ = [
    "CONTENT_TYPE",
    "Metrics",
    "aiohttp_trace",
    "connected",
    "rate_limited",
    "shard_range",
]

# the classic text format: every Prometheus (and most other scrapers) read it
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
MAX_PLATFORMS = 16  # distinct key prefixes kept as labels; any further one is "other"
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LATENESS_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

# the platforms' 429 answers in this OS process, by (platform, shard): adapters count them
# where they meet them, without a reference to a service; every registry exports them
_limited: dict[tuple[str, str], int] = {}
_limited_lock = threading.Lock()


def rate_limited(platform: str, shard: str = "") -> None:
    """The platform answered 429 (rate limited): ``platform`` is the adapter's prefix
    (``dc``, ``tg``), ``shard`` the shards of this process (``shard_range``), if any."""
    with _limited_lock:
        _limited[platform, shard] = _limited.get((platform, shard), 0) + 1


def shard_range(ids: Iterable[int] | None, count: int | None) -> str:
    """The shards a process runs as a label: ``"2-3/4"``, ``"0,2/4"``, or ``""`` unsharded."""
    ids = sorted(set(ids or ()))
    if not ids or not count:
        return ""
    if ids == list(range(ids[0], ids[-1] + 1)):
        first = str(ids[0]) if len(ids) == 1 else f"{ids[0]}-{ids[-1]}"
    else:
        first = ",".join(map(str, ids))
    return f"{first}/{count}"


def aiohttp_trace(platform: str, shard: Callable[[], str] = lambda: "") -> Any:
    """An ``aiohttp.TraceConfig`` that counts the 429 answers of a client session
    (discord.py takes one as ``http_trace``; it honours the 429s itself)."""
    import aiohttp

    async def on_end(_session: Any, _ctx: Any, params: Any) -> None:
        if params.response.status == 429:
            rate_limited(platform, shard())

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_end)
    return trace


def connected(adapter: Any) -> bool | Mapping[str, bool] | None:
    """Whether a started adapter is connected to its platform: its ``connected()`` (a
    bool, or one per shard), or ``None`` where it cannot tell."""
    probe = getattr(adapter, "connected", None)
    if not callable(probe):
        return None
    try:
        return probe()  # type: ignore[no-any-return]
    except Exception:  # a probe that fails says no
        return False


class ServiceView(Protocol):
    """What the metrics read of a service when scraped."""

    timers: Any

    def open_tables(self) -> list[str]: ...


class Metrics:
    """The metrics of one process (see the module docstring): ``registry`` to serve."""

    def __init__(
        self, process: str, *, store: str = "", registry: CollectorRegistry | None = None
    ) -> None:
        self.process = process
        self.registry = r = registry or CollectorRegistry()
        self.service: ServiceView | None = None
        self.platforms: Callable[[], Sequence[Any]] = list  # the started adapters
        p = ["process"]
        self._actions = Counter(
            "uno_actions",
            "Changes of a table committed, by platform (table key prefix) and kind",
            [*p, "platform", "kind"],
            registry=r,
        )
        self._latency = Histogram(
            "uno_action_seconds",
            "Seconds from a service call to the commit of its change",
            [*p, "platform"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self._refusals = Counter(
            "uno_refusals",
            "Refusals told to a user, by platform and refusal code",
            [*p, "platform", "code"],
            registry=r,
        )
        self._stale = Counter(
            "uno_stale_retries",
            "Changes decided again: another process had changed the table first",
            p,
            registry=r,
        )
        self._fired = Counter(
            "uno_deadlines_fired", "Deadlines fired, by kind", [*p, "kind"], registry=r
        )
        self._lateness = Histogram(
            "uno_deadline_lateness_seconds",
            "Seconds a deadline fired after it was due, by kind",
            [*p, "kind"],
            buckets=LATENESS_BUCKETS,
            registry=r,
        )
        self._taken = Counter(
            "uno_deadlines_taken_over",
            "Overdue deadlines that no process held (a dead one's) fired here",
            p,
            registry=r,
        ).labels(process)
        self._stale_child = self._stale.labels(process)
        Info("uno_process", "This process: uno-bot version, store", p, registry=r).labels(
            process
        ).info({"version": __version__, "store": store, "pid": str(os.getpid())})
        if os.path.exists("/proc/self/stat"):
            ProcessCollector(registry=r)
        r.register(_Live(self))
        self._prefixes: dict[str, str] = {}
        self._action_children: dict[tuple[str, str], Any] = {}
        self._latency_children: dict[str, Any] = {}
        self._fired_children: dict[str, tuple[Any, Any]] = {}

    def watch(self, service: ServiceView) -> None:
        """Read the open tables and the timers of ``service`` when scraped."""
        self.service = service

    # -- the hot path -----------------------------------------------------------------------

    def platform(self, key: str) -> str:
        """The platform label of table ``key``: its prefix (a bounded set of labels)."""
        prefix = key.partition(":")[0]
        label = self._prefixes.get(prefix)
        if label is None:
            label = prefix if len(self._prefixes) < MAX_PLATFORMS else "other"
            self._prefixes[prefix] = label
        return label

    def committed(self, key: str, kinds: Iterable[str], seconds: float) -> None:
        """A change of table ``key`` committed ``seconds`` after its call: one count per
        action it recorded (``kinds``; none: one ``table``)."""
        platform = self.platform(key)
        counted = False
        for kind in kinds:
            self._action(platform, kind).inc()
            counted = True
        if not counted:
            self._action(platform, "table").inc()
        h = self._latency_children.get(platform)
        if h is None:
            h = self._latency_children[platform] = self._latency.labels(self.process, platform)
        h.observe(seconds)

    def _action(self, platform: str, kind: str) -> Any:
        c = self._action_children.get((platform, kind))
        if c is None:
            c = self._actions.labels(self.process, platform, kind)
            self._action_children[platform, kind] = c
        return c

    def refused(self, key: str, code: str) -> None:
        self._refusals.labels(self.process, self.platform(key), code).inc()

    def stale(self) -> None:
        self._stale_child.inc()

    def fired(self, kind: str, late: float) -> None:
        """A deadline of ``kind`` (``uno:<player>`` counts as ``uno``) fired ``late``
        seconds after it was due."""
        kind = kind.partition(":")[0]
        pair = self._fired_children.get(kind)
        if pair is None:
            pair = (
                self._fired.labels(self.process, kind),
                self._lateness.labels(self.process, kind),
            )
            self._fired_children[kind] = pair
        pair[0].inc()
        pair[1].observe(max(0.0, late))

    def taken_over(self, n: int) -> None:
        self._taken.inc(n)

    # -- reading ----------------------------------------------------------------------------

    def exposition(self) -> bytes:
        """Every series, in the Prometheus text format (``CONTENT_TYPE``)."""
        return generate_latest(self.registry)

    def value(self, name: str, **labels: str) -> float:
        """The current value of sample ``name`` with ``labels`` (and this process), 0 if
        it has none yet: for tests and benchmarks."""
        labels = {"process": self.process, **labels}
        got = self.registry.get_sample_value(name, labels)
        return 0.0 if got is None else got


class _Live:
    """The series computed when scraped: tables, deadlines, 429s and connections."""

    def __init__(self, metrics: Metrics) -> None:
        self.m = metrics

    def collect(self) -> Iterator[Metric]:
        m = self.m
        proc = m.process
        svc = m.service
        if svc is not None:
            tables = GaugeMetricFamily(
                "uno_open_tables",
                "Tables in the lobby or in play held by this process",
                labels=["process", "platform"],
            )
            by: dict[str, int] = {}
            for key in svc.open_tables():
                label = m.platform(key)
                by[label] = by.get(label, 0) + 1
            for label, n in sorted(by.items()):
                tables.add_metric([proc, label], n)
            yield tables
            timers = svc.timers
            for name, doc, value in (
                ("uno_deadlines_armed", "Deadlines armed in this process", len(timers)),
                ("uno_deadlines_overdue", "Deadlines due and not yet fired", timers.overdue()),
                ("uno_deadlines_running", "Deadlines being handled", timers.running),
            ):
                g = GaugeMetricFamily(name, doc, labels=["process"])
                g.add_metric([proc], value)
                yield g
        limited = CounterMetricFamily(
            "uno_platform_rate_limited",
            "Rate-limited (429) answers of a platform, by platform and shard",
            labels=["process", "platform", "shard"],
        )
        with _limited_lock:
            counts = sorted(_limited.items())
        for (platform, shard), n in counts:
            limited.add_metric([proc, platform, shard], n)
        yield limited
        up = GaugeMetricFamily(
            "uno_platform_connected",
            "1 while a started platform is connected (per shard where it has shards)",
            labels=["process", "platform", "shard"],
        )
        for adapter in m.platforms():
            state = connected(adapter)
            prefix = str(getattr(adapter, "prefix", "?"))
            if isinstance(state, Mapping):
                for shard, ok in sorted(state.items()):
                    up.add_metric([proc, prefix, str(shard)], 1.0 if ok else 0.0)
            elif state is not None:
                up.add_metric([proc, prefix, ""], 1.0 if state else 0.0)
        yield up
