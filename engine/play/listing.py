"""legal_actions: every family's listing put together, for one player, cached per game."""

from __future__ import annotations

from engine.actions import (
    Action,
)
from engine.game import Game
from engine.play.base import (
    CALL_UNO,
    GAME_OVER,
    LEAVE,
    NEXT_ROUND,
    PLAYING,
    ROUND_OVER,
    catch_of,
)
from engine.play.jump_in import jump_ins
from engine.play.playing import turn_actions


def list_actions(g: Game, p: str) -> list[Action]:
    s = g.seat.get(p)
    if s is None:
        return []
    ph = g.phase_
    if ph is GAME_OVER:
        return []
    if ph is ROUND_OVER:
        return [NEXT_ROUND, LEAVE]
    out: list[Action] = []
    if s == g.cur:
        turn_actions(g, s, out)
    elif ph is PLAYING and g.fl.jump_in and not g.first_play:
        jump_ins(g, s, out)
    n_cards = len(g.hands[s])
    # a player out of the round (places) holds nothing: no false alarm brings cards back
    false_pen = g.fl.false_uno_penalty if n_cards else 0
    if n_cards == 1:
        if p not in g.called and p not in g.silent:  # uno_call=with_play: too late now
            out.append(CALL_UNO)
    elif false_pen:
        out.append(CALL_UNO)
    for t in g.exposed:
        if t != p:
            out.append(catch_of(t))
    if false_pen:
        hands = g.hands
        for i, t in enumerate(g.players_):
            if t != p and t not in g.exposed and hands[i]:
                out.append(catch_of(t))
    out.append(LEAVE)
    return out


def legal_actions(game: Game, player: str) -> list[Action]:
    """Every action ``player`` may take now, in turn or out of it (catching, challenging,
    jumping in). Wild colours, swap targets and ``together`` combinations are expanded.
    ``Timeout`` is never listed."""
    cache = game._cache
    if cache is not None and cache[0] == player:
        return list(cache[1])
    acts = list_actions(game, player)
    game._cache = (player, acts)
    return list(acts)


def listed_actions(game: Game, player: str) -> list[Action]:
    cache = game._cache
    if cache is not None and cache[0] == player:
        return cache[1]
    acts = list_actions(game, player)
    game._cache = (player, acts)
    return acts
