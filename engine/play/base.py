"""What every rule family shares: the shared action objects, copy-on-write of a game,
turn order, drawing cards from the piles, card points (seat limits: ``engine.rules``).

Nothing here is a rule of its own; the families (``engine.play.*``) build on it.
"""

from __future__ import annotations

from engine.actions import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    Leave,
    NextRound,
    Pass,
    Play,
)
from engine.cards import ALL_CARDS, COLORS, Card, Color, Rank
from engine.errors import Code, IllegalAction
from engine.events import CardsDrawn, DeckReshuffled, Event
from engine.game import Game, Phase
from engine.rng import Rng

PLAYING = Phase.PLAYING
CHOOSING = Phase.CHOOSING_COLOR
CHALLENGE = Phase.CHALLENGE
ROUND_OVER = Phase.ROUND_OVER
GAME_OVER = Phase.GAME_OVER

W = Rank.WILD
W4 = Rank.WILD_DRAW_FOUR
D2 = Rank.DRAW_TWO
SKIP = Rank.SKIP
REV = Rank.REVERSE

# Shared instances: legal_actions hands out the same objects every time, which keeps it fast
# and lets apply find a listed action by identity.
DRAW = Draw()
PASS = Pass()
ACCEPT = Accept()
CHALLENGE_A = Challenge()
CALL_UNO = CallUno()
LEAVE = Leave()
NEXT_ROUND = NextRound()
CHOOSE = tuple(ChooseColor(c) for c in COLORS)
_PLAYS: dict[tuple[Card, Color | None, str | None, tuple[Card, ...]], Play] = {}
_CATCH: dict[str, CatchUno] = {}

POINTS = {
    "standard": {c: (c.number if c.is_number else 50 if c.is_wild else 20) for c in ALL_CARDS},
    "low": {
        c: (c.number if c.is_number else 40 if c.rank is W4 else 20 if c.rank is W else 10)
        for c in ALL_CARDS
    },
}

# Why an action is refused: a stable code and a sentence for the log. Each family's
# ``*_refusal`` function returns one (``None``: allowed); its ``verify_*`` raises it as an
# ``IllegalAction`` and its ``can_*`` is ``refusal is None``. A tuple, not the exception,
# so that a listing asking ``can_*`` builds no exception.
Refusal = tuple[Code, str]


def refused(why: Refusal) -> IllegalAction:
    """The ``IllegalAction`` for a refusal."""
    return IllegalAction(why[0], why[1])


def check(why: Refusal | None) -> None:
    """What every ``verify_*`` does with its family's refusal: raise it, if any."""
    if why is not None:
        raise IllegalAction(why[0], why[1])


# refusals that several families give, in the same words
NAME_COLOR_FIRST: Refusal = (Code.CHOOSE_COLOR, "name the colour first")
CHALLENGE_OPEN: Refusal = (Code.CHALLENGE_OPEN, "challenge or accept the Wild Draw Four")
PENALTY_PENDING: Refusal = (Code.PENALTY_PENDING, "stack or accept the pending penalty")
NUMBER_FIRST: Refusal = (Code.FIRST_PLAY_NUMBER, "open the round with a number card")


def not_your_turn(g: Game) -> Refusal:
    return (Code.NOT_YOUR_TURN, f"it is {g.players_[g.cur]}'s turn")


def play_of(
    card: Card, color: Color | None, target: str | None, together: tuple[Card, ...]
) -> Play:
    key = (card, color, target, together)
    p = _PLAYS.get(key)
    if p is None:
        if len(_PLAYS) > 200_000:  # player ids in targets are unbounded; keep the memo small
            _PLAYS.clear()
        p = _PLAYS[key] = Play(card, color, target, together)
    return p


SINGLE: dict[Card, tuple[Play, ...]] = {
    c: tuple(play_of(c, col, None, ()) for col in COLORS)
    if c.is_wild
    else (play_of(c, None, None, ()),)
    for c in ALL_CARDS
}


def catch_of(target: str) -> CatchUno:
    c = _CATCH.get(target)
    if c is None:
        if len(_CATCH) > 100_000:
            _CATCH.clear()
        c = _CATCH[target] = CatchUno(target)
    return c


def hand_points(game: Game, player: str) -> int:
    """The value of ``player``'s hand under the game's card points."""
    table = POINTS[game.rules.card_points]
    return sum(table[c] for c in game.hands[game.seat[player]])


def distinct_cards(hand: list[Card]) -> list[Card]:
    return list(dict.fromkeys(hand))


ALL_SEATS = (1 << 64) - 1


def without(t: tuple[str, ...], x: str) -> tuple[str, ...]:
    return tuple(q for q in t if q != x) if x in t else t


def mhand(g: Game, s: int) -> list[Card]:
    """Seat ``s``'s hand, made private to ``g`` before it is changed (copy-on-write).

    ``g._hmask``: -1 while the list of hands itself is shared with the game ``g`` was
    copied from, else a bitmask of the seats whose hand list ``g`` owns."""
    m = g._hmask
    if m < 0:
        g.hands = g.hands[:]
        m = 0
    if not (m >> s) & 1:
        h = g.hands[s] = g.hands[s][:]
        g._hmask = m | (1 << s)
        return h
    g._hmask = m
    return g.hands[s]


def own_hands(g: Game) -> None:
    if g._hmask != ALL_SEATS:
        g.hands = [h[:] for h in g.hands]
        g._hmask = ALL_SEATS


def own(g: Game) -> Game:
    """Give ``g`` its own draw pile and RNG before changing either.

    ``Game._clone`` shares them (most actions draw nothing); every writer calls this."""
    if not g._own:
        g.draw_pile = g.draw_pile[:]
        g.rng = Rng(g.rng.state)
        g._own = True
    return g


def nxt(g: Game, s: int, steps: int = 1) -> int:
    if not g.out:
        return (s + g.direction_ * steps) % len(g.players_)
    # places: those who went out have no turn (nor a penalty); someone always holds cards
    n = len(g.players_)
    hands = g.hands
    d = g.direction_
    for _ in range(steps):
        s = (s + d) % n
        for _ in range(n):
            if hands[s]:
                break
            s = (s + d) % n
    return s


def close_windows(g: Game, actor: str) -> None:
    """A turn action by ``actor`` closes every other player's catch window."""
    if g.exposed:
        g.exposed = tuple(q for q in g.exposed if q == actor)


def fix_uno(g: Game, pid: str, size: int) -> None:
    """A hand that no longer holds exactly one card is neither exposed nor called."""
    if size != 1:
        g.exposed = without(g.exposed, pid)
        g.called = without(g.called, pid)
        if g.silent:
            g.silent = without(g.silent, pid)


def take(g: Game, ev: list[Event]) -> Card | None:
    own(g)
    if not g.draw_pile:
        if len(g.discard) <= 1:
            if not g.reserve:
                return None
            g.draw_pile = list(g.reserve)  # scenario(): the cards nobody placed
            g.reserve = ()
            return g.draw_pile.pop()
        pile = g.discard[:-1]  # the discard list is shared with earlier games: no pop
        g.discard = [g.discard[-1]]
        g.rng.shuffle(pile)
        g.draw_pile = pile
        ev.append(DeckReshuffled(len(pile)))
    return g.draw_pile.pop()


def give(g: Game, s: int, n: int, reason: str, ev: list[Event]) -> int:
    """Seat ``s`` draws up to ``n`` cards (fewer when both piles run out)."""
    if n <= 0:
        return 0
    got: list[Card] = []
    for _ in range(n):
        c = take(g, ev)
        if c is None:
            break
        got.append(c)
    hand = mhand(g, s)
    hand.extend(got)
    pid = g.players_[s]
    fix_uno(g, pid, len(hand))
    ev.append(CardsDrawn(pid, len(got), tuple(got), reason))
    return len(got)


def clear_penalty(g: Game) -> None:
    g.pending = 0
    g.pending_kind = None
    g.pending_from = None
    g.pending_by = None
    g.challenge = None
    g.phase_ = PLAYING
