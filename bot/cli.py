"""The ``uno-bot`` command line: the composition root.

It reads the configuration and starts what is configured, importing each platform adapter
lazily, so a missing token never imports an unused platform library.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from bot import __version__
from engine.rules import max_seats

log = logging.getLogger("uno")

# SIGTERM to exit: under the 8 s promised (Docker kills after 10), leaving the
# interpreter time to exit; a deadline being handled gets TIMER_GRACE of it to commit
# and show its change, the store STORE_RESERVE to commit what is queued
SHUTDOWN_SECONDS = 6.0
TIMER_GRACE = 2.0
STORE_RESERVE = 1.0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="uno-bot", description="UNO for group chats: Discord, Telegram and the terminal."
    )
    ap.add_argument("--version", action="version", version=f"uno-bot {__version__}")
    sub = ap.add_subparsers(dest="command")

    from bot.ops.config import env_help

    r = sub.add_parser(
        "run",
        help="start every configured platform (the default)",
        description="Start the bot on every platform configured (a token set), with the\n"
        "settings below, read from the environment or a .env file in the working folder.",
        epilog=env_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument(
        "--demo",
        action="store_true",
        help="with no platform configured, show a game in the terminal instead of failing "
        "(make run): you against three bots on a terminal, else four bots",
    )

    p = sub.add_parser("play", help="a table in the terminal against bot seats")
    p.add_argument("--players", type=int, default=4, help="seats in all (default 4)")
    p.add_argument("--bots", type=int, default=None, help="bot seats (default: all but one)")
    p.add_argument(
        "--bot-strategy", choices=("smart", "expert", "random", "basic"), default="smart"
    )
    p.add_argument("--rules", default="official", help="preset: official, house, party")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FLAG=VALUE",
        help="override a rule flag (repeatable), e.g. --set stacking=any",
    )
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--db", type=Path, default=None, help="SQLite database file (default: UNO_DB)")
    p.add_argument("--delay", type=float, default=None, help="seconds before a bot moves")
    p.add_argument("--lang", default=None, help="en, zh_Hans or zh_Hant")
    p.add_argument(
        "--json",
        action="store_true",
        help="each line of the game starts with the table version it shows (#12 ...); "
        "end with one JSON summary line",
    )
    p.add_argument("--settings", action="store_true", help="set the rules in a menu first")
    p.add_argument(
        "--new",
        action="store_true",
        help="start a new game even if one was left unfinished (that one is stopped)",
    )

    sub.add_parser(
        "stickers",
        help="make (or finish) the card stickers on Telegram, for UNO_TELEGRAM_OWNER",
    )

    k = sub.add_parser(
        "ratings",
        help="the ladders of UNO_DB; --rebuild rates every recorded game again",
        description="Print a ladder (everywhere's, or a chat's or server's with --scope): "
        "the season's and all time's. --rebuild first computes every rating again from "
        "the recorded games, in one transaction (the same numbers the bot keeps live).",
    )
    k.add_argument("--db", default=None, help="the database (default: UNO_DB)")
    k.add_argument("--rebuild", action="store_true", help="rate every recorded game again")
    k.add_argument("--scope", default="*", help="a chat's or server's scope (default: *)")
    k.add_argument("--top", type=int, default=20, help="players shown per ladder (default 20)")

    s = sub.add_parser("simulate", help="bot strategies against each other (engine only)")
    s.add_argument("--games", type=int, default=200)
    s.add_argument("--players", type=int, default=4)
    s.add_argument("--rules", default="official")
    s.add_argument("--set", action="append", default=[], metavar="FLAG=VALUE")
    s.add_argument("--strategies", default="smart,random", help="seat strategies, cycled")
    s.add_argument("--seed", type=int, default=0)
    return ap


def parse_sets(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        flag, sep, value = item.partition("=")
        if not sep or not flag.strip():
            raise SystemExit(f"--set needs FLAG=VALUE, got {item!r}")
        out[flag.strip()] = value.strip()
    return out


def _rules(preset: str, sets: list[str]) -> Any:
    from engine import Rules

    try:
        return Rules.preset(preset, **parse_sets(sets))
    except ValueError as e:
        raise SystemExit(f"bad rules: {e}") from None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from pydantic import ValidationError

    from bot.ops.config import load_settings
    from bot.store import StoreError

    try:
        settings = load_settings()
    except ValidationError as e:  # secrets are never part of the message
        raise SystemExit(f"bad configuration: {e}") from None
    _logging(settings)
    try:
        if args.command == "simulate":
            return _simulate(args)
        if args.command == "play":
            return _play(args, settings)
        if args.command == "stickers":
            return _stickers(settings)
        if args.command == "ratings":
            return asyncio.run(ratings_command(args, settings))
        return _run(settings, demo=getattr(args, "demo", False))
    except StoreError as e:  # one clear line naming the file, not a traceback
        raise SystemExit(str(e)) from None


def _logging(settings: Any, file: Path | None = None) -> None:
    from bot.ops.logs import setup_logging

    secrets = (
        settings.telegram_token,
        settings.discord_token,
        settings.telegram_webhook_secret,
        settings.web_secret,
    )
    setup_logging(
        settings.log_level,
        [t.get_secret_value() for t in secrets if t is not None],
        file=file,
    )


def _simulate(args: argparse.Namespace) -> int:
    from bot.seats.simulate import simulate
    from bot.seats.strategies import STRATEGIES

    rules = _rules(args.rules, args.set)
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    unknown = sorted(set(strategies) - set(STRATEGIES))
    if unknown or not strategies:
        raise SystemExit(
            f"--strategies takes {', '.join(STRATEGIES)} (comma-separated), "
            f"not {', '.join(unknown) or repr(args.strategies)}"
        )
    if args.games < 1:
        raise SystemExit("--games must be at least 1")
    if not 2 <= args.players <= max_seats(rules):
        raise SystemExit("--players must be between 2 and 10 (20 with decks=2)")
    res = simulate(args.games, args.players, rules, strategies, seed=args.seed)
    print(
        f"{res.games} games, {args.players} players, rules {args.rules}, "
        f"seats {' '.join(res.seats)}, {res.actions} actions"
    )
    for strat in sorted(set(strategies)):
        lo, hi = res.interval(strat)
        print(
            f"  {strat:<8} won {res.wins.get(strat, 0):>5} games  "
            f"{res.share(strat):6.1%}  95 % interval {lo:.1%} - {hi:.1%}  "
            f"(fair share {res.fair_share(strat):.1%})"
        )
    return 0


def _play(args: argparse.Namespace, settings: Any) -> int:
    from adapters.terminal.table import TerminalOptions, play, print_summary, saved_line
    from bot.ui.i18n import resolve_lang, translator

    rules = _rules(args.rules, args.set)
    bots = args.bots if args.bots is not None else max(0, args.players - 1)
    if not 2 <= args.players <= max_seats(rules):
        raise SystemExit("--players must be between 2 and 10 (20 with decks=2)")
    if not 0 <= bots <= args.players:
        raise SystemExit("--bots must be between 0 and --players")
    if args.delay is not None and not args.delay >= 0:  # also refuses nan
        raise SystemExit("--delay must be 0 or more seconds")
    if args.lang is not None and _unknown_lang(args.lang):
        raise SystemExit("--lang takes en, zh_Hans or zh_Hant")
    interactive = None if bots < args.players else False
    delay = args.delay if args.delay is not None else (0.8 if bots < args.players else 0.0)
    db = args.db or _terminal_db(settings.db)
    opts = TerminalOptions(
        players=args.players,
        bots=bots,
        strategy=args.bot_strategy,
        preset=args.rules,
        overrides=parse_sets(args.set),
        seed=args.seed,
        db=db,
        delay=delay,
        # the person's language: --lang, else the game's own (a resumed one), else UNO_LANG
        lang=resolve_lang(args.lang) if args.lang is not None else None,
        fallback_lang=resolve_lang(settings.language),
        json=args.json,
        interactive=interactive,
        settings=args.settings,
        new=args.new,
        command="uno-bot play" + (f" --db {shlex.quote(str(args.db))}" if args.db else ""),
    )
    # log lines would print into the game: they go to a file beside the database, and
    # only warnings and errors to the terminal as well
    from bot.ops.logs import log_file

    _logging(settings, log_file(opts.db))
    try:
        summary = asyncio.run(play(opts, handle_signals=True))
    except KeyboardInterrupt:  # Ctrl-C before the table could catch it (still starting)
        tr = translator(opts.lang or opts.fallback_lang)
        print("\n" + saved_line(tr, opts.command), flush=True)
        return 130
    print_summary(summary, sys.stdout, args.json)
    return 130 if summary.get("interrupted") else 0


def _terminal_db(db: str) -> Path:
    """The SQLite file the terminal table keeps its game in: ``UNO_DB``'s, unless that is a
    server (the terminal table is one person's, on their machine: it is not put there)."""
    from bot.store import is_server_url, sqlite_path

    if is_server_url(db):
        raise SystemExit(
            "uno-bot play keeps its table in an SQLite file, and UNO_DB names a PostgreSQL "
            "server: give it a file with --db PATH"
        )
    return sqlite_path(db)


def _stickers(settings: Any) -> int:
    if settings.telegram_token is None:
        raise SystemExit("uno-bot stickers needs UNO_TELEGRAM_TOKEN (the bot's token)")
    if settings.telegram_owner is None:
        raise SystemExit(
            "uno-bot stickers needs UNO_TELEGRAM_OWNER: your Telegram user id (the sticker "
            "sets are yours, made by the bot; send the bot /start in a private chat first)"
        )
    if not settings.card_images:
        raise SystemExit("UNO_CARD_IMAGES is false: the cards are text, no stickers are made")
    return asyncio.run(make_stickers(settings))


async def make_stickers(settings: Any, out: Any = print) -> int:
    """Make or finish this version's card stickers (``adapters.telegram.outbound.stickers``), with
    what is uploaded kept in ``UNO_DB``; 0 once the set is ready, 1 with a line saying why
    not (run it again: it goes on from there)."""
    from telegram import Bot
    from telegram.error import InvalidToken

    from adapters.telegram.outbound.stickers import StickerError, StickerSets, Uploader, set_name
    from bot.port import NullPort
    from bot.service import Service
    from bot.store import store_for
    from bot.ui.card_set import Uploads

    store = store_for(settings.db)
    await store.open()
    # a one-off command: a service of its own on the store (no table loaded, no timer
    # run), whose lease and records the uploads take, as the adapters' do
    service = Service(store, NullPort(), settings)
    try:
        bot = Bot(settings.telegram_token.get_secret_value(), base_url=settings.telegram_api_url)
        try:
            await bot.initialize()
        except InvalidToken:
            raise SystemExit(
                "Telegram rejected UNO_TELEGRAM_TOKEN (check it with @BotFather)"
            ) from None
        try:
            worker = "uno-bot stickers"
            if not await service.lease(StickerSets.LEASE, 3600.0, owner=worker):
                out("another uno-bot process is making the stickers now: try again later")
                return 1
            try:
                uploads = await Uploads(service, "tg").load()
                uploader = Uploader(bot, settings.telegram_owner, bot.username, uploads,
                                    progress=out)  # fmt: skip
                pictures = await uploader.run()
            except StickerError as e:
                out(f"the stickers are not ready: {e}")
                out("run uno-bot stickers again to go on from there")
                return 1
            finally:
                await service.release(StickerSets.LEASE, owner=worker)
        finally:
            await bot.shutdown()
        out(f"the card set is ready: {len(pictures)} stickers, {uploader.calls} calls made")
        for part in range(2):
            out(f"  https://t.me/addstickers/{set_name(bot.username, part)}")
        return 0
    finally:
        await service.stop()
        await store.close()


async def ratings_command(args: argparse.Namespace, settings: Any, out: Any = print) -> int:
    """``uno-bot ratings``: the ladders of ``--scope``; ``--rebuild`` first."""
    from bot import ratings
    from bot.store import WriteBatch, store_for
    from bot.ui import render
    from bot.ui.i18n import translator

    store = store_for(args.db or settings.db)
    await store.open()
    try:
        if args.rebuild:
            await store.write(WriteBatch(rebuild_ratings=True))
            games = await store.game_results()
            rated = sum(1 for g in games if g.rated)
            out(f"ratings rebuilt from {rated} rated games ({len(games)} recorded)")
        season = ratings.season_of(time.time(), settings.season)
        ladders = [
            (args.scope == ratings.GLOBAL, s, await store.ladder(args.scope, s or "all", args.top))
            for s in dict.fromkeys((season, None))
        ]
        out(render.top_text(ladders, translator(settings.language)))
        return 0
    finally:
        await store.close()


def settle_gc() -> None:
    """Once started: what was loaded (modules, restored tables) lives long, and every action
    makes short-lived objects. Freezing the former keeps full collections from rescanning
    them, which is what made the slowest actions slow (``bench/service.py``: p99 halved)."""
    gc.collect()
    gc.freeze()


def _unknown_lang(lang: str) -> bool:
    from bot.ui.i18n import resolve_lang

    # a language we have wins over either fallback; one we lack falls through to it
    return (
        resolve_lang(lang, "zh_Hans") == "zh_Hans" and resolve_lang(lang, "zh_Hant") == "zh_Hant"
    )


def _run(settings: Any, *, demo: bool = False) -> int:
    from bot.ops.config import misnamed_tokens

    platforms = settings.platforms
    stray = [
        f"{found} is set in {where}, but uno-bot reads {read} (rename it)"
        for found, read, where in misnamed_tokens(settings)
    ]
    if not platforms:
        # one line and a failure, never a game: in a container (restart: unless-stopped) a
        # game that ends well would be started again for ever; a token under another
        # name was meant for the bot
        if stray:
            raise SystemExit(f"uno-bot run: no platform configured: {'; '.join(stray)}")
        if not demo:
            raise SystemExit(
                "uno-bot run: no platform configured: set UNO_TELEGRAM_TOKEN and/or "
                "UNO_DISCORD_TOKEN (in the environment or a .env file); uno-bot play opens "
                "a table in the terminal"
            )
        print(
            "No platform configured. To run the bot in a chat, set UNO_TELEGRAM_TOKEN "
            "and/or UNO_DISCORD_TOKEN (in the environment or a .env file) and run again.\n"
            "Meanwhile, here is a table in the terminal.\n",
            flush=True,
        )
        interactive = sys.stdin.isatty()
        argv = ["play", "--players", "4"]
        if not interactive:
            argv += ["--bots", "4"]
        return main(argv)
    for line in stray:
        log.warning("%s: that platform does not start", line)
    if settings.web_url and settings.web_secret is None:
        raise SystemExit(
            "uno-bot run: UNO_WEB_URL is set, and the web table signs its links with "
            "UNO_WEB_SECRET: set it too (a long random string, the same in every process)"
        )
    asyncio.run(run_platforms(settings))
    return 0


async def run_platforms(settings: Any) -> None:
    """Run every configured platform adapter in this one event loop until interrupted.

    Each adapter (``adapters.<platform>.Adapter``) is a port for its tables (key prefix
    ``prefix``) with ``start()``/``stop()``; the service is shared."""
    import signal

    from bot.port import RoutingPort
    from bot.service import Service
    from bot.store import store_for

    store = store_for(settings.db)
    await store.open()
    router = RoutingPort()
    web = None
    port: Any = router
    if settings.web_url:
        from adapters.web import Web

        web = Web(settings)
        port = web.port(router)  # the chats' port, teed to the web table's pages
    service = Service(store, port, settings)
    if web is not None:
        web.attach(service)
    adapters: list[Any] = []
    if settings.telegram_token is not None:
        from adapters.telegram import Adapter as TelegramAdapter

        adapters.append(TelegramAdapter(settings, service))
    if settings.discord_token is not None:
        from adapters.discord import Adapter as DiscordAdapter

        adapters.append(DiscordAdapter(settings, service))
    for a in adapters:
        router.add(a.prefix, a)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    started: list[Any] = []
    monitor = await _monitor(settings, service, lambda: started)
    try:
        # tables first (before any update can arrive), timers last (after the platforms
        # are up, so what an overdue deadline shows reaches them)
        await service.start(run_timers=False)
        for a in adapters:
            try:
                await a.start()
            except Exception as e:  # one platform down must not take the others with it
                log.error("the %s adapter did not start: %s", a.prefix, e)
                continue
            started.append(a)
            log.info("%s adapter started", a.prefix)
        if not started:
            raise SystemExit("no platform adapter could start; see the log above")
        if web is not None:
            try:
                await web.start()
            except OSError as e:
                raise SystemExit(
                    f"cannot serve the web table on {settings.web_listen}:{settings.web_port} "
                    f"(UNO_WEB_PORT): {e.strerror or e}"
                ) from None
            started.append(web)
        service.timers.start()
        settle_gc()
        if monitor is not None:
            monitor.ready()
        await stop.wait()
    finally:
        log.info("shutting down")
        if monitor is not None:
            monitor.stopping()  # unhealthy from now on: a balancer sends nothing more
        await _shutdown(service, started, store, monitor)


async def _monitor(settings: Any, service: Any, started: Any) -> Any:
    """``/metrics`` and ``/healthz`` on ``UNO_METRICS_PORT``, if set (else ``None``)."""
    if settings.metrics_port is None:
        return None
    from bot.ops.health import Monitor

    monitor = Monitor(service, platforms=started)
    try:
        await monitor.start(settings.metrics_host, settings.metrics_port)
    except OSError as e:
        await service.store.close()
        raise SystemExit(
            f"cannot serve metrics on {settings.metrics_host}:{settings.metrics_port} "
            f"(UNO_METRICS_PORT): {e.strerror or e}"
        ) from None
    return monitor


async def _shutdown(service: Any, adapters: list[Any], store: Any, monitor: Any = None) -> None:
    """Stop within ``SHUTDOWN_SECONDS`` with everything committed: the timers (whatever
    they are handling commits), then the platforms (each flushing what it has queued
    with the time left), then the store (which commits what is queued)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + SHUTDOWN_SECONDS

    def left(reserve: float = 0.0) -> float:
        return max(0.0, end - reserve - loop.time())

    try:
        await service.stop(grace=min(TIMER_GRACE, left(STORE_RESERVE)))
        # the platforms at once: each has the time left, not a share of it
        await asyncio.gather(*(_stop_adapter(a, left(STORE_RESERVE)) for a in adapters))
    finally:
        if monitor is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(monitor.stop(), max(0.1, left()))
        await store.close()


async def _stop_adapter(a: Any, budget: float) -> None:
    """Stop an adapter within ``budget`` seconds. One whose ``stop`` takes ``flush`` (the
    seconds it may spend sending what is queued) gets what is left after a second for
    its own shutting down; one still stopping when the budget is spent is left behind
    (the process is exiting; what it had not sent is lost, what was committed is not)."""
    import inspect

    try:
        takes_flush = "flush" in inspect.signature(a.stop).parameters
    except (TypeError, ValueError):
        takes_flush = False
    stopping = a.stop(flush=max(0.0, budget - 1.0)) if takes_flush else a.stop()
    try:
        await asyncio.wait_for(stopping, budget)
    except TimeoutError:
        log.warning("the %s adapter did not stop within %.1f s; exiting anyway", a.prefix, budget)
    except Exception as e:
        log.warning("the %s adapter failed to stop: %s", a.prefix, e)
