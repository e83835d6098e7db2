"""Fit ``bot.seats.expert.rollout.THETA``: how a position values each seat's chance to win.

Rounds of smart self-play on the fast path (2 to 5 players); positions sampled along
them, each seat described by ``features``; the model is a softmax over the seats of
``THETA . features`` (a conditional logit), fitted by gradient ascent on the log
likelihood of the seat that went on to win. Prints the log likelihood per position
against the uniform guess, and the coefficients to paste into ``bot/seats/expert/rollout.py``.

    python -m bench.expert_value [--games 4000] [--preset official] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import random

from bot.seats.expert.rollout import smart_step
from engine import Rules, new_game
from engine.fast import CARD_RANK, OVER, PLAYING, WILD, WILD4, FastRound

Features = list[float]


def features(f: FastRound, i: int) -> Features:
    """Seat ``i`` (``rollout.value`` reads the same): cards held, holding one, two, three;
    Wilds, Wild Draw Fours, action cards; colours held; cards that fit the top card;
    whether one does; to play now, to play next."""
    h = f.hands[i]
    n = len(h)
    dist = ((i - f.cur) * f.direction) % f.n
    top = f.discard[-1]
    trank = CARD_RANK[top] if top < 52 else -1
    fit = sum(1 for c in h if c < 52 and (c // 13 == f.color or CARD_RANK[c] == trank))
    return [
        float(n),
        1.0 if n == 1 else 0.0,
        1.0 if n == 2 else 0.0,
        1.0 if n == 3 else 0.0,
        float(h.count(WILD)),
        float(h.count(WILD4)),
        float(sum(1 for c in h if c < 52 and CARD_RANK[c] > 9)),
        float(len({c // 13 for c in h if c < 52})),
        float(fit),
        1.0 if fit else 0.0,
        1.0 if dist == 0 else 0.0,
        1.0 if dist == 1 else 0.0,
    ]


def positions(
    preset: str, players: int, games: int, rnd: random.Random
) -> list[tuple[list[Features], int]]:
    rules = Rules.preset(preset, target=0)
    out: list[tuple[list[Features], int]] = []
    ids = [f"p{i}" for i in range(players)]
    for _ in range(games):
        f = FastRound.from_game(new_game(ids, rules, seed=rnd.getrandbits(32)))
        seen = []
        steps = 0
        while f.phase != OVER and steps < 2000:
            if f.phase == PLAYING and rnd.random() < 0.1:
                seen.append([features(f, i) for i in range(players)])
            smart_step(f, rnd)
            steps += 1
        if f.winner >= 0:
            out.extend((x, f.winner) for x in seen)
    return out


def fit(data: list[tuple[list[Features], int]], iters: int) -> list[float]:
    """Newton's method on the conditional logit's log likelihood (concave)."""
    k = len(data[0][0][0])
    theta = [0.0] * k
    for it in range(iters):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        ll = 0.0
        for seats, won in data:
            s = [sum(t * x for t, x in zip(theta, xs, strict=True)) for xs in seats]
            top = max(s)
            e = [math.exp(v - top) for v in s]
            z = sum(e)
            p = [v / z for v in e]
            ll += math.log(p[won])
            mean = [sum(p[i] * seats[i][j] for i in range(len(seats))) for j in range(k)]
            for j in range(k):
                grad[j] += seats[won][j] - mean[j]
            for i, xs in enumerate(seats):
                d = [xs[j] - mean[j] for j in range(k)]
                pi = p[i]
                for a in range(k):
                    da = pi * d[a]
                    row = hess[a]
                    for b in range(a, k):
                        row[b] += da * d[b]
        for a in range(k):
            hess[a][a] += 1e-6 * len(data)  # a ridge: features that never vary stay at 0
            for b in range(a):
                hess[a][b] = hess[b][a]
        step = _solve(hess, grad)
        theta = [t + d for t, d in zip(theta, step, strict=True)]
        print(f"  step {it}: log likelihood {ll / len(data):.5f}", flush=True)
    return theta


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=4000, help="rounds per table size")
    ap.add_argument("--preset", default="official")
    ap.add_argument("--iters", type=int, default=8, help="Newton steps")
    ap.add_argument("--players", default="2,3,4,5", help="table sizes, comma-separated")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rnd = random.Random(args.seed)
    data = []
    for players in (int(n) for n in args.players.split(",")):
        data += positions(args.preset, players, args.games, rnd)
    uniform = sum(math.log(1 / len(seats)) for seats, _ in data) / len(data)
    print(f"{len(data)} positions; uniform guess: log likelihood {uniform:.4f}")
    theta = fit(data, args.iters)
    print("THETA = (" + ", ".join(f"{t:.3f}" for t in theta) + ")")


if __name__ == "__main__":
    main()
