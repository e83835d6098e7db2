"""What one player may see of a game (``None``: the public)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card, Color
from engine.game import Game, Phase
from engine.rules import Rules

__all__ = ["View", "view"]


@dataclass(frozen=True, slots=True)
class View:
    """A player's (or the public's) view: own hand only, others' card counts."""

    viewer: str | None
    hand: tuple[Card, ...] | None
    players: tuple[str, ...]
    counts: dict[str, int]
    top: Card
    color: Color | None
    direction: int
    current: str | None
    phase: Phase
    pending_draw: int
    scores: dict[str, int]
    dealer: str
    round: int
    draw_pile_size: int
    discard_pile_size: int
    exposed: tuple[str, ...]
    called: tuple[str, ...]
    round_winner: str | None
    winner: str | None
    rules: Rules
    drawn: Card | None = None  # the viewer's own drawn card, still playable this turn
    challenge_from: str | None = None  # while a challenge is open: who played the W4
    teams: dict[str, int] | None = field(default=None)
    # issue 14
    follow: bool = False  # after_penalty=same_color: the next play is of the colour in play
    silent: tuple[str, ...] = ()  # uno_call=with_play: one card by their play, no call: late
    places: tuple[str, ...] = ()  # places: who went out this round, in order


def view(game: Game, player: str | None) -> View:
    """What ``player`` may see: their own hand, everyone's card counts, the table."""
    seated = player is not None and player in game.seat
    hand = tuple(game.hands[game.seat[player]]) if seated and player is not None else None
    cur = game.current
    return View(
        viewer=player,
        hand=hand,
        players=tuple(game.players_),
        counts={p: len(h) for p, h in zip(game.players_, game.hands, strict=True)},
        top=game.discard[-1],
        color=game.play_color,
        direction=game.direction_,
        current=cur,
        phase=game.phase_,
        pending_draw=game.pending_draw,
        scores=dict(game.scores_),
        dealer=game.dealer_id,
        round=game.round_no,
        draw_pile_size=len(game.draw_pile),
        discard_pile_size=len(game.discard),
        exposed=tuple(game.exposed),
        called=tuple(game.called),
        round_winner=game.round_winner_,
        winner=game.winner_,
        rules=game.rules,
        drawn=game.drawn if cur is not None and cur == player else None,
        challenge_from=game.challenge_offender,
        teams=dict(game.teams) if game.teams is not None else None,
        follow=game.follow,
        silent=game.silent,
        places=game.out,
    )
