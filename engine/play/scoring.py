"""The end of a round and of the game: places, points and the winner."""

from __future__ import annotations

from engine.events import (
    Event,
    GameWon,
    PlayerFinished,
    RoundWon,
)
from engine.game import ACTIVE, Game
from engine.play.base import GAME_OVER, POINTS, ROUND_OVER, clear_penalty


def stall(g: Game, s: int, ev: list[Event]) -> bool:
    """A draw found both piles empty. True when that ended the round (everyone passed)."""
    g.stalled += 1
    playing = sum(1 for h in g.hands if h) if g.out else len(g.players_)
    if g.stalled < playing:
        return False
    table = POINTS[g.rules.card_points]
    n = len(g.players_)
    order = [(s + g.direction_ * i) % n for i in range(n)]
    best = min(order, key=lambda i: sum(table[c] for c in g.hands[i]))
    end_round(g, best, "blocked", ev)
    return True


def settle_out(g: Game, s: int, ev: list[Event]) -> None:
    """``places``: seat ``s`` played its last card and its effect is done. They take the
    next place; the round's points are counted when the first player goes out (as without
    places); the round ends when one player is left holding cards."""
    pid = g.players_[s]
    if pid in g.out or g.phase_ not in ACTIVE:
        return
    if g.out_points is None:
        table = POINTS[g.rules.card_points]
        g.out_points = {
            p: sum(table[c] for c in h) for p, h in zip(g.players_, g.hands, strict=True)
        }
    g.out = (*g.out, pid)
    ev.append(PlayerFinished(pid, len(g.out)))
    if sum(1 for h in g.hands if h) <= 1:
        end_round(g, s, "out", ev)


def add_score(g: Game, pid: str, pts: int) -> None:
    g.scores_ = dict(g.scores_)  # shared with the game this one was copied from
    if g.teams is None:
        g.scores_[pid] = g.scores_.get(pid, 0) + pts
        return
    team = g.teams[pid]
    for q, t in g.teams.items():
        if t == team:
            g.scores_[q] = g.scores_.get(q, 0) + pts


def end_round(g: Game, ws: int, reason: str, ev: list[Event], *, final: bool = False) -> None:
    rules = g.rules
    table = POINTS[rules.card_points]
    winner = g.players_[ws]
    hp = {p: sum(table[c] for c in g.hands[i]) for i, p in enumerate(g.players_)}
    places: tuple[str, ...] = ()
    if rules.places:
        # those who went out, in order; then whoever still holds cards, the lowest hand
        # first, ties in turn order from ``ws`` (one player, unless the round was blocked
        # or everyone else left)
        n = len(g.players_)
        left = [g.players_[(ws + g.direction_ * i) % n] for i in range(n)]
        left = [p for p in left if p not in g.out]
        left.sort(key=hp.__getitem__)
        places = (*(p for p in g.out if p in g.seat), *left)
        winner = places[0]
        ws = g.seat[winner]
        if g.out_points is not None:  # the points as they stood when the first went out
            hp = {p: g.out_points.get(p, hp[p]) for p in g.players_}
    teams = g.teams
    losers = [
        p for p in g.players_ if p != winner and (teams is None or teams[p] != teams[winner])
    ]
    gained = 0
    if rules.scoring == "winner_takes":
        gained = sum(hp[p] for p in losers)
        add_score(g, winner, gained)
    else:
        for p in losers:
            add_score(g, p, hp[p])
    g.round_winner_ = winner
    g.phase_ = ROUND_OVER
    g.cur = ws
    g.drawn = None
    g.exposed = ()
    g.called = ()
    g.after_color = None
    g.deferred = None
    clear_penalty(g)
    g.phase_ = ROUND_OVER
    ev.append(RoundWon(winner, g.round_no, gained, reason, hp, dict(g.scores_), places))
    seated = g.players_
    champion: str | None = None
    if final:
        champion = winner
    elif rules.scoring == "winner_takes" and rules.partners == "rotate":
        # seed 003: the partners change, so the totals are each player's own ("依累计分数
        # 产生冠军"): once anyone reaches the target, the highest total wins (ties: the
        # round's winner, then turn order from them)
        if rules.target == 0 or any(g.scores_[p] >= rules.target for p in seated):
            n = len(seated)
            order = [seated[(ws + g.direction_ * i) % n] for i in range(n)]
            champion = max(order, key=lambda p: g.scores_[p])  # max keeps the first of a tie
    elif rules.scoring == "winner_takes":
        if rules.target == 0 or g.scores_[winner] >= rules.target:
            champion = winner
    elif rules.target == 0 or any(g.scores_[p] >= rules.target for p in seated):
        n = len(seated)
        order = [seated[(ws + g.direction_ * i) % n] for i in range(n)]
        champion = min(order, key=lambda p: g.scores_[p])  # min keeps the first of a tie
    if champion is not None:
        g.winner_ = champion
        g.phase_ = GAME_OVER
        ev.append(GameWon(champion, dict(g.scores_)))
