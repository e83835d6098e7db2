"""Telegram: what a game costs in Bot API calls, and how fast the table follows a choice.

Whole games run through the real adapter, service and SQLite store against the local fake
Bot API (``tests/fakes/telegram_api.py``), which enforces Telegram's flood control (20
sends or edits a minute per group, else ``429 retry_after``). Scripted people play through
inline mode, at full speed (about a second to choose) or at a human pace (3 to 8 seconds);
bot seats move after the usual 1.5 seconds. Time runs ``--scale`` times faster than the
clock: every figure is in game time.

Reported per scenario: API calls per turn (new group messages, edits of the table message,
all calls), the most new group messages and the most sends+edits in any minute, 429s
received, the reaction time from a player's choice to the table's update (p50/p99), and
how long after the round's last move its result was posted (p50/max), and how long the
bot takes to answer a Play query (real milliseconds, p50/p99). Each scenario runs twice in
the same run: with the group pacing of today (``window``: a sliding window of 20 sends a
minute, a second apart, evenly spread once half of it is used) and with the one before it
(``bucket``: a bucket of 3 tokens refilled at 17 a minute). A scenario marked "stickers"
runs with the card set made (``UNO_TELEGRAM_OWNER``): the hand answers with card stickers,
and a card chosen posts its sticker (the player's message).
A turn is a move (a card played, a draw, a pass, a penalty taken, a challenge, a colour, a
turn timed out) or a deal (the start of each round, which the table must show too); UNO
calls, catches and new players are extra actions, not turns.

For scale: the most used Telegram UNO bot posts about 1.5 new group messages a turn
("Next player" after every move) and never edits; at full speed it passes the 20-a-minute
limit, where Telegram refuses its messages and they are lost.

    python -m bench.telegram [--games N] [--scale S] [--target POINTS] [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters.telegram import Adapter, Limits
from bot.ops.config import Settings
from bot.port import RoutingPort
from bot.service import Service
from bot.store import ActionRecord, SqliteStore
from bot.ui import intents
from bot.ui.intents import Press
from tests.fakes.telegram_api import Call, FakeBotAPI, FakeChat, FakeUser, InlineAnswer, Result

MOVES = frozenset({"Play", "Draw", "Pass", "Accept", "Challenge", "ChooseColor", "Timeout"})
DEALS = frozenset({"Start", "NextRound"})
EDITS = ("editMessageText", "editMessageReplyMarkup")
_VERSION = re.compile(r"^a\|[^|]+\|(\d+)\|")  # the buttons posted before issue 12


@dataclass
class Scenario:
    name: str
    humans: int
    bots: int
    games: int
    storm: float = 0.0  # probability that Telegram answers a send or edit with 429
    think: tuple[float, float] = (0.5, 1.5)  # seconds a person takes to choose
    stickers: bool = False  # the card set made: the hand as stickers


@dataclass
class Figures:
    """What one scenario measured (times in game seconds)."""

    name: str
    games: int = 0
    finished: int = 0
    moves: int = 0
    deals: int = 0
    actions: int = 0
    group_new: int = 0
    group_edits: int = 0
    lobby_edits: int = 0
    calls: int = 0
    refused_429: int = 0
    max_new_per_minute: int = 0
    max_sent_per_minute: int = 0
    moves_per_minute: float = 0.0
    reactions: list[float] = field(default_factory=list)
    news_delays: list[float] = field(default_factory=list)
    inline: list[float] = field(default_factory=list)  # real seconds to answer a query
    announcements_expected: int = 0
    announcements_seen: int = 0
    final_ok: int = 0
    seconds: float = 0.0

    @property
    def turns(self) -> int:
        return self.moves + self.deals

    def per_turn(self, n: int) -> float:
        return n / self.turns if self.turns else 0.0

    def pct(self, q: float, of: list[float] | None = None) -> float:
        xs = sorted(self.reactions if of is None else of)
        if not xs:
            return float("nan")
        return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


class Bench:
    """One fake Telegram, one bot process, several games one after the other."""

    def __init__(
        self, scale: float, seed: int, target: int, pacing: str = "window", stickers: bool = False
    ) -> None:
        self.stickers = stickers
        self.scale = scale
        self.pacing = pacing
        self.seed = seed
        self.target = target
        self.rng = random.Random(seed)
        self.api = FakeBotAPI()
        self.api.group_limit = (20, 60.0)
        self.api.time_scale = scale

    async def __aenter__(self) -> Bench:
        await self.api.start()
        self.tmp = tempfile.TemporaryDirectory()
        s = self.scale
        self.settings = Settings(
            db=Path(self.tmp.name) / "bench.sqlite3",
            telegram_token=self.api.token,
            telegram_api_url=self.api.base_url,
            telegram_webhook_url=None,
            bot_delay=1.5 / s,
            round_pause_seconds=15 / s,
            lobby_seconds=600,
            telegram_owner=self.api.user("Operator", started=True).id if self.stickers else None,
        )
        self.store = SqliteStore(self.settings.db)
        await self.store.open()
        router = RoutingPort()
        self.service = Service(self.store, router, self.settings, seed=self.seed)
        limits = Limits(group_pacing=self.pacing).scaled(s)  # type: ignore[arg-type]
        self.adapter = Adapter(self.settings, self.service, limits=limits, poll_timeout=1.0)
        router.add(self.adapter.prefix, self.adapter)
        await self.adapter.start()
        if self.stickers:  # the card set made before the games (once, at the first start)
            assert await self.adapter.cards.wait(300) is not None, self.adapter.cards.error
        await self.service.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.service.stop()
        await self.adapter.stop()
        await self.store.close()
        await self.api.stop()
        self.tmp.cleanup()

    def game_seconds(self, real: float) -> float:
        return real * self.scale

    async def _until(self, pred: Any, timeout: float = 30.0) -> Any:
        return await self.api.wait_for(pred, timeout)

    async def game(self, sc: Scenario, n: int, fig: Figures) -> None:
        api = self.api
        chat = api.group(f"{sc.name} {n}")
        people = [api.user(f"P{i + 1}") for i in range(sc.humans)]
        host = people[0]
        key = f"tg:{chat.id}"
        first_call = len(api.calls)
        await host.send(chat, "/new")
        await self._until(lambda: self.service._tables.get(key) is not None)
        table = await self._until(lambda: api.bot_messages(chat))
        msg = table[0]
        for u in people[1:]:
            await u.click(msg, "Join")
        for _ in range(sc.bots):
            await host.click(msg, "Add a bot")
        res = await self.service.configure(key, host.pid, overrides={"target": self.target})
        assert res.ok, res
        if sc.storm:
            api.storm(sc.storm, retry_after=2, seed=self.seed + n)
        t_start = asyncio.get_running_loop().time()
        await host.click(msg, "Start")
        choices: list[tuple[float, int]] = []
        await asyncio.gather(
            *(self._person(u, chat, key, choices, sc.think, fig.inline) for u in people)
        )
        t_end = asyncio.get_running_loop().time()
        assert self.adapter.outbox is not None
        await self.adapter.outbox.flush(120)
        api.calm()
        self._measure(sc, chat, key, first_call, choices, msg.message_id, t_start, t_end, fig)
        t = await self.store.get_table(key)
        self._news_delays(chat, await self.store.actions(key), fig)
        fig.finished += int(t is not None and t.status == "finished")
        log = [a for a in await self.store.actions(key) if a.game_no == (t.game_no if t else 0)]
        fig.moves += sum(1 for a in log if _is_move(a.action))
        fig.deals += sum(1 for a in log if a.action.get("type") in DEALS)
        fig.actions += len(log)
        rounds = sum(1 for a in log if a.action.get("type") == "NextRound")
        fig.announcements_expected += rounds + 1  # a round won each (the last with the game)
        texts = [m.text for m in api.bot_messages(chat) if m.message_id != msg.message_id]
        fig.announcements_seen += sum(t.count("🏁") for t in texts)
        final = api.messages[(chat.id, msg.message_id)]
        winner = t.game.winner if t is not None and t.game is not None else None
        names = {s.id: s.name for s in t.seats} if t is not None else {}
        if winner and final.markup is None and names.get(winner, "?") in final.text:
            fig.final_ok += 1
        fig.games += 1

    async def _person(
        self,
        user: FakeUser,
        chat: FakeChat,
        key: str,
        choices: list[tuple[float, int]],
        think: tuple[float, float],
        inline: list[float],
    ) -> None:
        """Play whenever it is this person's turn, after thinking a moment."""
        loop = asyncio.get_running_loop()
        while True:
            t = self.service._tables.get(key)
            if t is None or t.status != "playing":
                return
            g = t.game
            if g is None or g.current != user.pid:
                await asyncio.sleep(0.002)
                continue
            await asyncio.sleep(self.rng.uniform(*think) / self.scale)
            version = t.version
            t = self.service._tables.get(key)
            if t is None or t.version != version:
                continue
            asked = time.perf_counter()
            answer = await user.inline(str(chat.id), timeout=30)
            inline.append(time.perf_counter() - asked)
            choice = _pick(answer)
            if choice is None:
                await asyncio.sleep(0.01)
                continue
            choices.append((loop.time(), int(choice.id.split("|")[1])))
            await user.choose(answer, choice, chat)
            await self._until(
                lambda v=version: (x := self.service._tables.get(key)) is None or x.version > v
            )

    def _measure(
        self,
        sc: Scenario,
        chat: FakeChat,
        key: str,
        first_call: int,
        choices: list[tuple[float, int]],
        table_id: int,
        t_start: float,
        t_end: float,
        fig: Figures,
    ) -> None:
        calls = [c for c in self.api.calls[first_call:] if c.method != "getUpdates"]
        mine = [c for c in calls if c.params.get("chat_id") == chat.id]
        new = [c for c in mine if c.method == "sendMessage" and c.ok]
        edits = [c for c in mine if c.method in EDITS and c.ok]
        fig.group_new += len(new) - 1  # the first table message is not news
        # the lobby's edits (joins, bots, start) come before the first turn
        fig.lobby_edits += sum(1 for c in edits if c.t < t_start)
        edits = [c for c in edits if c.t >= t_start]
        fig.group_edits += len(edits)
        fig.calls += len(calls)
        fig.refused_429 += sum(1 for c in calls if c.error is not None and c.error.code == 429)
        minute = 60 / self.scale
        fig.max_new_per_minute = max(fig.max_new_per_minute, _most_in(new, minute))
        fig.max_sent_per_minute = max(fig.max_sent_per_minute, _most_in(new + edits, minute))
        fig.seconds += self.game_seconds(t_end - t_start)
        # reaction: a choice -> the first edit of the table showing a later version
        table_edits = [c for c in edits if c.params.get("message_id") == table_id]
        for t0, version in choices:
            for c in table_edits:
                if c.t >= t0 and _shown_version(c) > version:
                    fig.reactions.append(self.game_seconds(c.t - t0))
                    break

    def _news_delays(self, chat: FakeChat, log: list[ActionRecord], fig: Figures) -> None:
        """For each result posted: game seconds from the round's last action (committed
        at ``at``, wall time) to the message."""
        offset = time.time() - asyncio.get_running_loop().time()
        news = [
            c
            for c in self.api.calls
            if c.method == "sendMessage"
            and c.ok
            and c.params.get("chat_id") == chat.id
            and "🏁" in str(c.params.get("text", ""))
        ]
        for c in news:
            before = [a.at - offset for a in log if a.at - offset <= c.t]
            if before:
                fig.news_delays.append(self.game_seconds(c.t - max(before)))


def _is_move(action: dict[str, Any]) -> bool:
    """A player's turn: not a UNO call, a catch, a closing catch window or a new round."""
    kind = action.get("type")
    if kind == "Timeout":
        return bool(action.get("window", "turn") == "turn")
    return kind in MOVES


def _shown_version(call: Call) -> int:
    """The table version an edit shows (from its buttons; no buttons: the end)."""
    markup = call.params.get("reply_markup")
    if not markup:
        return 1 << 30
    for row in markup.get("inline_keyboard", []):
        for b in row:
            data = str(b.get("callback_data", ""))
            press = intents.decode(data, limit=64)
            version = getattr(press.raw, "version", None) if isinstance(press, Press) else None
            if isinstance(version, int):
                return version
            m = _VERSION.match(data)
            if m:
                return int(m.group(1))
    return 0


def _most_in(calls: list[Call], window: float) -> int:
    stamps = sorted(c.t for c in calls)
    best = 0
    j = 0
    for i, t in enumerate(stamps):
        while stamps[j] <= t - window:
            j += 1
        best = max(best, i - j + 1)
    return best


def _pick(answer: InlineAnswer) -> Result | None:
    rs = answer.results
    plays = [r for r in rs if r.code.startswith("p")]
    uno = [r for r in plays if r.code.endswith("!")]
    if uno:
        return uno[0]
    if plays:
        return plays[0]
    for code in ("k", "c", "a", "d", "s"):
        found = [r for r in rs if r.code.startswith(code)]
        if found:
            return found[0]
    return None


async def run(
    scenarios: list[Scenario], scale: float, seed: int, target: int, pacing: str = "window"
) -> list[Figures]:
    out = []
    for stickers in (False, True):  # a bot process each: with the card set made, or not
        group = [sc for sc in scenarios if sc.stickers is stickers]
        if not group:
            continue
        async with Bench(scale, seed, target, pacing, stickers) as bench:
            for sc in group:
                fig = Figures(f"{sc.name} [{pacing}]")
                for n in range(sc.games):
                    await bench.game(sc, n, fig)
                out.append(fig)
    return out


def report(figs: list[Figures], scale: float, wall: float) -> str:
    lines = [
        f"Telegram adapter, fake Bot API with flood control, time x{scale:g} "
        f"(figures in game time; {wall:.0f} s on the clock)",
        "",
        f"{'scenario':<44}{'games':>6}{'turns':>7}{'new/turn':>10}{'edits/turn':>11}"
        f"{'calls/turn':>11}{'new/min':>9}{'sent/min':>9}{'429s':>6}{'p50 s':>7}{'p99 s':>7}"
        f"{'news p50':>9}{'max':>6}{'query p50 ms':>13}{'p99 ms':>7}",
    ]
    for f in figs:
        lines.append(
            f"{f.name:<44}{f.games:>6}{f.turns:>7}{f.per_turn(f.group_new):>10.3f}"
            f"{f.per_turn(f.group_edits):>11.3f}{f.per_turn(f.calls):>11.2f}"
            f"{f.max_new_per_minute:>9}{f.max_sent_per_minute:>9}{f.refused_429:>6}"
            f"{f.pct(0.5):>7.2f}{f.pct(0.99):>7.2f}"
            f"{f.pct(0.5, f.news_delays):>9.2f}{f.pct(1.0, f.news_delays):>6.2f}"
            f"{1000 * f.pct(0.5, f.inline):>13.1f}{1000 * f.pct(0.99, f.inline):>7.1f}"
        )
    lines.append("")
    for f in figs:
        rate = f.moves / (f.seconds / 60) if f.seconds else 0.0
        per_move = f.group_edits / f.moves if f.moves else 0.0
        lines.append(
            f"{f.name}: {f.finished}/{f.games} games finished, {f.moves} moves and "
            f"{f.deals} deals ({f.actions} actions), {per_move:.3f} edits a move, "
            f"{f.lobby_edits} lobby edits before the first turn; "
            f"{rate:.0f} turns a minute (a bot posting 1.5 messages a turn would need "
            f"{1.5 * rate:.0f} a minute); announcements {f.announcements_seen}/"
            f"{f.announcements_expected} delivered; final table correct in "
            f"{f.final_ok}/{f.games}"
        )
    lines.append("")
    worst_new = max(f.per_turn(f.group_new) for f in figs)
    worst_edit = max(f.per_turn(f.group_edits) for f in figs)
    lost = sum(f.announcements_expected - f.announcements_seen for f in figs)
    finals = all(f.final_ok == f.games for f in figs)
    over = max(f.max_sent_per_minute for f in figs)
    lines.append(
        "goals: new group messages per turn <= 0.2: "
        f"{'yes' if worst_new <= 0.2 else 'NO'} ({worst_new:.3f}); edits per turn <= 1: "
        f"{'yes' if worst_edit <= 1 else 'NO'} ({worst_edit:.3f}); nothing lost under 429: "
        f"{'yes' if lost == 0 and finals else 'NO'}; sends+edits per minute <= 20: "
        f"{'yes' if over <= 20 else 'NO'} ({over})"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.telegram", description=__doc__)
    ap.add_argument("--games", type=int, default=3, help="games per scenario")
    ap.add_argument("--scale", type=float, default=20.0, help="game seconds per second")
    ap.add_argument("--target", type=int, default=100, help="points that end a game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="", help="run the scenarios whose name contains this")
    ap.add_argument(
        "--pacing",
        default="window,bucket",
        help="group pacings to compare: window (today's), bucket (the one before)",
    )
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    scenarios = [
        Scenario("1 person + 3 bots", 1, 3, args.games),
        Scenario("3 people + 1 bot", 3, 1, args.games),
        Scenario("3 people (3-8 s) + 1 bot", 3, 1, args.games, think=(3.0, 8.0)),
        Scenario("4 people (3-6 s)", 4, 0, args.games, think=(3.0, 6.0)),
        Scenario("4 people (2-4 s)", 4, 0, args.games, think=(2.0, 4.0)),
        Scenario("429 storm (30%)", 1, 3, args.games, storm=0.3),
        Scenario("3 people + 1 bot, stickers", 3, 1, args.games, stickers=True),
    ]
    scenarios = [sc for sc in scenarios if args.only in sc.name] or scenarios
    t0 = time.perf_counter()
    figs: list[Figures] = []
    pacings = [p.strip() for p in args.pacing.split(",") if p.strip()]
    for sc in scenarios:  # each scenario under each pacing, one after the other
        for pacing in pacings:
            figs += asyncio.run(run([sc], args.scale, args.seed, args.target, pacing))
    print(report(figs, args.scale, time.perf_counter() - t0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

__all__ = ["Figures", "Scenario", "main", "run"]
