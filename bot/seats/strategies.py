"""Bot seats: strategies that pick one of the engine's legal actions.

``random`` picks uniformly among its legal actions in its turn (never leaving). ``basic``
plays a uniformly chosen playable card when it has one, else draws (RLCard's baseline, and
the engine benchmark's chooser). ``smart`` plays like a
careful person: it calls UNO with its next-to-last card, catches anyone exposed, stacks and
jumps in when allowed, keeps wilds for when it needs them, plays a Wild Draw Four only
legally, challenges when the odds favour it, and names the colour it holds most of.
``expert`` plays its turns by search (``bot.seats.expert``: determinized playouts from its view
and the public record, ``memory``), and out of turn as ``smart``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from engine import (
    COLORS,
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Color,
    Draw,
    Game,
    Leave,
    NextRound,
    Pass,
    Phase,
    Play,
    Rank,
    draw_four_legal,
    leaves_one_card,
    legal_actions,
)

__all__ = ["SEARCHERS", "STRATEGIES", "choose", "out_of_turn"]

STRATEGIES = ("smart", "random", "basic", "expert")

# the seats that decide by search, by strategy: ``bot.seats.expert`` registers its own when
# the package is imported (it builds on this module, which so never imports it)
SEARCHERS: dict[str, Callable[[Game, str, Any, random.Random], Action | None]] = {}


def choose(
    game: Game,
    player: str,
    strategy: str,
    rng: random.Random,
    memory: Any = None,  # bot.seats.expert.Memory: the table's public record
) -> Action | None:
    """The action bot ``player`` takes now (in turn, or out of turn), or ``None``.
    ``memory``: the table's public record, which ``expert`` reads (``bot.seats.expert``)."""
    search = SEARCHERS.get(strategy)
    if search is not None:
        return search(game, player, memory, rng)
    acts: list[Action] = [
        a for a in legal_actions(game, player) if not isinstance(a, Leave | NextRound)
    ]
    if not acts:
        return None
    if strategy == "random":
        if game.current != player:
            return None  # a random seat acts only in its turn: uniform among its actions
        return rng.choice(acts)
    if strategy == "basic":
        if game.current != player:
            return None
        plays = [a for a in acts if isinstance(a, Play)]
        if plays:
            return _with_uno(game, player, rng.choice(plays))  # it does say UNO
        rest = [a for a in acts if not isinstance(a, CallUno | CatchUno)]
        return rng.choice(rest or acts)
    return _smart(game, player, acts, rng)


def out_of_turn(game: Game, player: str, strategy: str) -> bool:
    """Whether bot ``player`` would act now although it is not its turn."""
    if game.current == player or strategy not in ("smart", "expert"):
        return False
    if game.phase not in (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE):
        return False
    acts = legal_actions(game, player)
    return any(
        (isinstance(a, CatchUno) and a.target in game.exposed_players)
        or (isinstance(a, CallUno) and game.hand_size(player) == 1)
        or isinstance(a, Play)
        for a in acts
    )


def _color_counts(hand: Sequence[object]) -> Counter[Color]:
    counts: Counter[Color] = Counter()
    for c in hand:
        color = getattr(c, "color", None)
        if color is not None:
            counts[color] += 1
    return counts


def _best_color(game: Game, player: str, exclude: Sequence[object] = ()) -> Color:
    hand: list[object] = list(game.hand(player))
    for c in exclude:
        if c in hand:
            hand.remove(c)
    counts = _color_counts(hand)
    if not counts:
        return game.color or COLORS[0]
    return max(COLORS, key=lambda c: (counts[c], -COLORS.index(c)))


def _score_play(game: Game, player: str, a: Play, best: Color, next_count: int) -> float:
    card = a.card
    n = len(game.hand(player))
    k = 1 + len(a.together)
    s = 0.0
    if k == n:
        return 1000.0  # going out
    s += 10 * (k - 1)  # shed several cards at once
    if card.rank is Rank.WILD_DRAW_FOUR:
        s += 30 if next_count <= 2 else -25  # keep it unless the next player is close
    elif card.rank is Rank.WILD:
        s -= 20  # keep wilds for when nothing else fits
    elif card.is_action:
        s += 12 if next_count <= 3 else 4
    else:
        s += card.number / 10  # shed high numbers first
    if a.color is not None:
        s += 5 if a.color is best else -5
    if card.color is not None and card.color is best:
        s += 2
    if a.target is not None:
        s += 50 - 5 * len(game.hand(a.target))  # swap with the smallest hand
    return s


def _smart(game: Game, player: str, acts: list[Action], rng: random.Random) -> Action | None:
    # out of turn: catch first, then call, then jump in
    for a in acts:
        if isinstance(a, CatchUno) and a.target in game.exposed_players:
            return a
    if game.hand_size(player) == 1 and CallUno() in acts:
        return CallUno()
    mine = game.current == player
    plays = [a for a in acts if isinstance(a, Play)]
    if not mine:
        return max(plays, key=lambda a: (a.card.is_action, rng.random())) if plays else None
    if game.phase is Phase.CHOOSING_COLOR:
        return ChooseColor(_best_color(game, player))
    players = game.players
    nxt = players[(players.index(player) + game.direction) % len(players)]
    next_count = game.hand_size(nxt) if nxt in players else 7
    if game.phase is Phase.CHALLENGE:
        if plays:  # stacking beats both
            return _pick(game, player, plays, next_count, rng)
        # the offender was innocent only if they held no card of the colour in play;
        # with many cards that is unlikely (each card is that colour about 1 in 4; under
        # draw_four_when=no_play a card of the top card's number counts too)
        offender = game.challenge_offender
        size = game.hand_size(offender) if offender in players else 0
        p_innocent = (0.7 if game.rules.draw_four_when == "no_play" else 0.76) ** size
        return Challenge() if p_innocent < 0.4 else Accept()
    if plays:
        return _with_uno(game, player, _pick(game, player, plays, next_count, rng))
    for kind in (Accept, Pass, Draw):
        for a in acts:
            if isinstance(a, kind):
                return a
    return None


def _with_uno(game: Game, player: str, play: Play) -> Play:
    """The play, calling UNO with it when it leaves one card."""
    target = game.hand_size(play.target) if play.target in game.players else None
    if leaves_one_card(game.rules, game.hand_size(player), play, target):
        return Play(play.card, play.color, play.target, play.together, uno=True)
    return play


def _pick(game: Game, player: str, plays: list[Play], next_count: int, rng: random.Random) -> Play:
    best = _best_color(game, player)
    # a Wild Draw Four only when legal (by the rule in force: draw_four_when)
    bluff = not draw_four_legal(game, player)
    legal = [p for p in plays if not (p.card.rank is Rank.WILD_DRAW_FOUR and bluff)]
    pool = legal or plays
    return max(pool, key=lambda a: (_score_play(game, player, a, best, next_count), rng.random()))
