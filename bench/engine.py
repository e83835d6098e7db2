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
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
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
    return steps, time.process_time() - start


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
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        game.np_random = np.random.RandomState(game_no)
        game.init_game()
        game_no += 1
        while not game.is_over():
            acts = game.get_legal_actions()
            plays = [a for a in acts if a != "draw"]
            game.step(rnd.choice(plays or acts))
            steps += 1
    return steps, time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    ap.add_argument("--repeats", type=int, default=5, help="rounds of measurements")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument(
        "--preset", action="append", help="official, house, party (default: official, house)"
    )
    args = ap.parse_args(argv)
    presets = args.preset or ["official", "house"]
    print(f"random legal self-play, {args.players} players, single-round games")
    print(
        f"{args.repeats} rounds of {args.seconds:.1f} CPU-seconds per workload, interleaved "
        "(CPU time, so other processes on the machine do not count); medians\n"
    )
    rates: dict[str, list[float]] = {"rlcard": [], **{p: [] for p in presets}}
    ratios: dict[str, list[float]] = {p: [] for p in presets}
    have_ref = True
    for _ in range(args.repeats):
        ref = rlcard(args.players, args.seconds)
        if ref is None:
            have_ref = False
        else:
            rates["rlcard"].append(ref[0] / ref[1])
        for name in presets:
            steps, secs = ours(Rules.preset(name, target=0), args.players, args.seconds)
            rates[name].append(steps / secs)
            if ref is not None:
                ratios[name].append((steps / secs) / (ref[0] / ref[1]))
    if have_ref:
        print(f"{'RLCard UnoGame':<28}{statistics.median(rates['rlcard']):>12,.0f} steps/s")
    else:
        print("RLCard not installed (pip install -e '.[bench]'); our figures only")
    for name in presets:
        line = f"{'engine, ' + name:<28}{statistics.median(rates[name]):>12,.0f} steps/s"
        if have_ref:
            r = ratios[name]
            line += f"{statistics.median(r):>8.2f}x RLCard (range {min(r):.2f}-{max(r):.2f})"
        print(line)


if __name__ == "__main__":
    main()
