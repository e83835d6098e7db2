"""Engine speed: random legal self-play, side by side with RLCard's UNO in the same run.

Both workloads are alike: the current player picks uniformly among its legal plays when it
has any, else among its other legal actions. RLCard lists a draw only when nothing is
playable, and it has no leaving, UNO calls or catches; so on our side the chooser ignores
``Leave``, ``CallUno`` and ``CatchUno`` (which a random seat would otherwise pick and
end games early or draw penalties RLCard never sees). A step is one ``legal_actions`` +
``apply`` here, one ``get_legal_actions`` + ``step`` there. RLCard plays one round per
game; so do we (``target=0``), and a game starts with a fresh deal on both sides.

    python -m bench.engine [--seconds S] [--players N] [--preset official|house|party]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine import (
    Action,
    CallUno,
    CatchUno,
    Leave,
    Play,
    Rules,
    apply,
    legal_actions,
    new_game,
)

_IGNORED = (Leave, CallUno, CatchUno)


def ours(rules: Rules, players: int, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Steps and elapsed seconds of our engine in random legal self-play."""
    ids = [f"p{i}" for i in range(players)]
    rnd = random.Random(seed)
    steps = 0
    game_no = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        g = new_game(ids, rules, seed=game_no)
        game_no += 1
        while g.winner is None:
            p = g.current
            assert p is not None
            acts = legal_actions(g, p)
            choice: list[Action] = [a for a in acts if type(a) is Play]
            if not choice:
                choice = [a for a in acts if not isinstance(a, _IGNORED)]
            g, _ = apply(g, p, rnd.choice(choice))
            steps += 1
    return steps, time.perf_counter() - start


def rlcard(players: int, seconds: float, seed: int = 0) -> tuple[int, float] | None:
    """Steps and elapsed seconds of RLCard's ``UnoGame``, or ``None`` if not installed."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=players)
    rnd = random.Random(seed)
    steps = 0
    game_no = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game.np_random = np.random.RandomState(game_no)
        game.init_game()
        game_no += 1
        while not game.is_over():
            acts = game.get_legal_actions()
            plays = [a for a in acts if a != "draw"]
            game.step(rnd.choice(plays or acts))
            steps += 1
    return steps, time.perf_counter() - start


def measure(fn: Callable[[], tuple[int, float] | None], repeats: int) -> float | None:
    rates = []
    for _ in range(repeats):
        r = fn()
        if r is None:
            return None
        rates.append(r[0] / r[1])
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    ap.add_argument("--repeats", type=int, default=3, help="median of this many")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument(
        "--preset", action="append", help="official, house, party (default: official, house)"
    )
    args = ap.parse_args(argv)
    presets = args.preset or ["official", "house"]
    print(f"random legal self-play, {args.players} players, single-round games")
    print(f"median of {args.repeats} x {args.seconds:.1f} s, interleaved\n")
    ref = measure(lambda: rlcard(args.players, args.seconds), args.repeats)
    if ref is None:
        print("RLCard not installed (pip install -e '.[bench]'); our figures only")
    else:
        print(f"{'RLCard UnoGame':<28}{ref:>12,.0f} steps/s")
    for name in presets:
        rules = Rules.preset(name, target=0)

        def run(r: Rules = rules) -> tuple[int, float]:
            return ours(r, args.players, args.seconds)

        rate = measure(run, args.repeats)
        assert rate is not None
        ratio = f"{rate / ref:>8.2f}x RLCard" if ref else ""
        print(f"{'engine, ' + name:<28}{rate:>12,.0f} steps/s{ratio}")


if __name__ == "__main__":
    main()
