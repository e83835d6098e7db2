"""Bot strategies against each other: win rates with 95 % (Wilson) intervals, and the
expert seat's CPU time per decision.

Whole games straight on the engine (``bot.seats.simulate``: seats rotated every game, seeded),
split into chunks played in several processes; each chunk's seed is the run's seed plus
its number, so a run is the same on any number of processes. The expert seat searches
with the budget the bot gives it (``bot.seats.expert.BOT_BUDGET``: its playouts; the time box
itself is not applied here, so that a seed gives the same games on a busy machine;
``--time-box`` applies it, as the bot does, to measure the CPU per decision the bot
spends). A game is one round by default (``--target 0``, as in the published figures it
is compared with); ``--target 500`` plays games to 500 points.

    python -m bench.ai [--players 4] [--games 5000] [--preset official]
                       [--strategies expert,smart] [--procs 2] [--seed 0] [--time-box]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from bot.seats.expert import BOT_BUDGET
from bot.seats.simulate import simulate, wilson
from engine import Rules

CHUNK = 20  # games per task: a multiple of every table size from 2 to 5 seats


def _chunk(
    args: tuple[int, int, str, int, tuple[str, ...], int, bool],
) -> tuple[dict[str, int], list[float], int]:
    """Play one chunk: wins per strategy, the expert's CPU seconds per decision, actions."""
    games, players, preset, target, strategies, seed, boxed = args
    from bot.seats.expert import search

    times: list[float] = []
    decide = search.decide

    def timed(*a: object, **kw: object) -> object:
        if boxed:  # the bot's budget, time box and all (``decide``'s fourth argument)
            a = (*a[:3], BOT_BUDGET, *a[4:])
        t = time.thread_time()
        out = decide(*a, **kw)  # type: ignore[arg-type]
        times.append(time.thread_time() - t)
        return out

    search.decide = timed  # type: ignore[assignment]
    try:
        res = simulate(games, players, Rules.preset(preset, target=target), strategies, seed=seed)
    finally:
        search.decide = decide
    return res.wins, times, res.actions


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--preset", default="official")
    ap.add_argument("--target", type=int, default=0, help="points to win (0: one round)")
    ap.add_argument("--strategies", default="expert,smart", help="seat strategies, cycled")
    ap.add_argument("--procs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--time-box",
        action="store_true",
        help="apply the bot's CPU time box to each decision (a seed no longer replays)",
    )
    args = ap.parse_args(argv)
    strategies = tuple(s.strip() for s in args.strategies.split(",") if s.strip())
    seats = [strategies[i % len(strategies)] for i in range(args.players)]
    chunks = [
        (
            min(CHUNK, args.games - i),
            args.players,
            args.preset,
            args.target,
            strategies,
            args.seed + n,
            args.time_box,
        )
        for n, i in enumerate(range(0, args.games, CHUNK))
    ]
    box = BOT_BUDGET.seconds if args.time_box else None
    print(
        f"{args.games} games, {args.players} players, {args.preset} rules"
        f"{'' if args.target == 0 else f' to {args.target} points'}"
        f"{' (one round each)' if args.target == 0 else ''}, seats {' '.join(seats)} rotated, "
        f"seed {args.seed}, {args.procs} processes; expert: {BOT_BUDGET.playouts} playouts "
        f"a decision{f', time box {box * 1e3:.0f} ms' if box else ''}",
        flush=True,
    )
    wins: Counter[str] = Counter()
    times: list[float] = []
    actions = 0
    done = 0
    start = time.time()
    with ProcessPoolExecutor(args.procs) as pool:
        for (w, t, a), c in zip(pool.map(_chunk, chunks), chunks, strict=True):
            wins.update(w)
            times.extend(t)
            actions += a
            done += c[0]
            if done % 500 < CHUNK or done == args.games:
                share = wins.get(strategies[0], 0) / done
                print(
                    f"  {done} games: {strategies[0]} {share:.1%} ({time.time() - start:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    for strat in sorted(set(strategies)):
        k = wins.get(strat, 0)
        lo, hi = wilson(k, args.games)
        fair = seats.count(strat) / len(seats)
        print(
            f"  {strat:<8} won {k:>5} of {args.games}  {k / args.games:6.1%}  "
            f"95 % interval {lo:.1%} - {hi:.1%}  (fair share {fair:.1%})"
        )
    if times:
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"  expert decisions: {len(times)}, CPU per decision: median "
            f"{statistics.median(times) * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms, "
            f"max {times[-1] * 1e3:.1f} ms"
        )
    print(f"  {actions} actions, {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
