"""``legal_actions``: every family's listing put together for one player, cached per game.

The order is part of the behaviour (seeded playouts pick from it): a turn lists the
victim's answers (``Challenge``, ``Accept``), then the plays, then ``Pass`` or ``Draw``;
out of turn a jump-in; then anyone's UNO calls and catches; ``Leave`` last. Each family's
``can_*`` decides its entries. Fast paths, all exact: the ordinary turn (phase
``PLAYING``, no penalty, nothing drawn, the round opened) lists its plays and ``Draw``
without asking ``drawing.draw_refusal`` (which allows it there); and the UNO family is
not asked when nobody can call or be caught (one card held, someone exposed, or
``false_uno_penalty``: else ``uno.list_uno`` lists nothing). Each state of a turn asks
only the families that can answer yes in it: facing a penalty, the answers and the plays
on it (never ``Draw``/``Pass``); after a draw, the drawn card and ``Pass`` (never
``Draw``, ``Accept``, ``Challenge``); on the first play, the plays and ``Draw``.
``playing.list_plays`` and ``drawing.list_draw_pass`` list the same without knowing the
state (``test_families`` checks they agree).
"""

from __future__ import annotations

from engine.actions import Action
from engine.game import Game
from engine.play.base import (
    CHALLENGE,
    CHOOSING,
    DRAW,
    GAME_OVER,
    LEAVE,
    NEXT_ROUND,
    PASS,
    PLAYING,
    ROUND_OVER,
)
from engine.play.color import list_colors
from engine.play.dealing import can_next_round
from engine.play.drawing import draw_refusal, pass_refusal
from engine.play.jump_in import jump_in_open, jump_ins
from engine.play.leaving import list_leave
from engine.play.penalty import list_answers
from engine.play.playing import list_drawn_play, list_turn_plays
from engine.play.stacking import stack_plays
from engine.play.uno import list_uno


def list_actions(g: Game, p: str) -> list[Action]:
    s = g.seat.get(p)
    if s is None:
        return []
    ph = g.phase_
    if ph is GAME_OVER:
        return []
    out: list[Action] = []
    if ph is ROUND_OVER:
        if can_next_round(g):
            out.append(NEXT_ROUND)
        list_leave(out)
        return out
    if s == g.cur:
        if ph is PLAYING and not g.pending and g.drawn is None and not g.first_play:
            list_turn_plays(g, s, out)  # the ordinary turn, the hot path
            out.append(DRAW)
        elif ph is CHOOSING:
            list_colors(g, s, out)
        elif ph is CHALLENGE or g.pending:  # facing a penalty: no Draw, no Pass
            list_answers(g, s, out)
            stack_plays(g, s, out)
        elif g.drawn is not None:  # after a draw: the drawn card, Pass (never Draw again)
            n0 = len(out)
            list_drawn_play(g, s, out)
            if pass_refusal(g, s, len(out) > n0) is None:
                out.append(PASS)
        else:  # the first play of first_play_number: a number card, or Draw (2, skipped)
            n0 = len(out)
            list_turn_plays(g, s, out)
            if draw_refusal(g, s, len(out) > n0) is None:
                out.append(DRAW)
    elif jump_in_open(g):
        jump_ins(g, s, out)
    if g.exposed or len(g.hands[s]) == 1 or g.fl.false_uno_penalty:
        list_uno(g, s, out)
    out.append(LEAVE)  # leaving.list_leave, inline: every seated player, every step
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
    """``legal_actions`` without the copy, for ``apply`` (which never changes it)."""
    cache = game._cache
    if cache is not None and cache[0] == player:
        return cache[1]
    acts = list_actions(game, player)
    game._cache = (player, acts)
    return acts
