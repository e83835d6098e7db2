"""Dealing and starting: new games (``new_game``, ``scenario``), seating between rounds
(``join``, new rules: ``set_rules``), the dealer, the deal and the start card's effect,
and ``NextRound`` (listed for every seated player between rounds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.cards import Card, Color, full_deck
from engine.errors import Code, IllegalAction
from engine.events import (
    DeckReshuffled,
    DirectionReversed,
    Event,
    PlayerJoined,
    RoundStarted,
    TurnSkipped,
)
from engine.game import Game
from engine.play.base import (
    ALL_SEATS,
    CHOOSING,
    D2,
    GAME_OVER,
    PLAYING,
    REV,
    ROUND_OVER,
    SKIP,
    W4,
    Refusal,
    W,
    check,
    give,
    own,
)
from engine.rng import Rng
from engine.rules import Rules, RulesRefused, check_seating, plain

_IN_PROGRESS: Refusal = (Code.ROUND_IN_PROGRESS, "the round is still being played")


def next_round_refusal(g: Game) -> Refusal | None:
    """``NextRound`` between rounds only (after the game: refused before, as everything)."""
    if g.phase_ is not ROUND_OVER:
        return _IN_PROGRESS
    return None


def verify_next_round(g: Game) -> None:
    check(next_round_refusal(g))


def can_next_round(g: Game) -> bool:
    return next_round_refusal(g) is None


def do_next_round(g: Game, ev: list[Event]) -> None:
    start_round(g, ev)


def validate_seating(players: Sequence[str], rules: Rules) -> None:
    """Player ids unique non-empty strings, and as many as the rules seat and deal to
    (``engine.rules.check_seating``: a ``RulesRefused``, which is a ``ValueError``)."""
    if len(set(players)) != len(players):
        raise ValueError("player ids must be unique")
    for p in players:
        if not isinstance(p, str) or not p:
            raise ValueError("player ids must be non-empty strings")
    check_seating(len(players), rules)


def clear_round(g: Game) -> None:
    """What a round starts from: clockwise, playing, nothing pending, drawn, exposed, called,
    deferred or out (a new game, and each deal)."""
    g.direction_ = 1
    g.phase_ = PLAYING
    g.pending = 0
    g.pending_kind = None
    g.pending_from = None
    g.pending_by = None
    g.challenge = None
    g.drawn = None
    g.stalled = 0
    g.exposed = ()
    g.called = ()
    g.after_color = None
    g.deferred = None
    g.follow = False
    g.silent = ()
    g.kept_color = None
    g.out = ()
    g.out_points = None


def blank(players: Sequence[str], rules: Rules, seed: int) -> Game:
    g = object.__new__(Game)
    g.rules = rules
    g.fl = plain(rules)
    g.players_ = list(players)
    g.seat = {p: i for i, p in enumerate(g.players_)}
    g.hands = [[] for _ in g.players_]
    g.draw_pile = []
    g.discard = []
    g.reserve = ()
    g.cur = 0
    g.play_color = None
    g.first_play = False
    clear_round(g)
    g.seating = tuple(g.players_) if rules.partners == "rotate" else None
    g.dealer_id = g.players_[0]
    g.round_no = 0
    g.scores_ = dict.fromkeys(g.players_, 0)
    n = len(g.players_)
    g.teams = {p: i % (n // 2) for i, p in enumerate(g.players_)} if rules.partners else None
    g.round_winner_ = None
    g.winner_ = None
    g.rng = Rng(seed)
    g._cache = None
    g._own = True
    g._hmask = ALL_SEATS
    return g


def new_game_events(
    players: Sequence[str], rules: Rules | None = None, seed: int = 0
) -> tuple[Game, list[Event]]:
    """Like ``new_game``, also returning the events of the first deal."""
    rules = rules if rules is not None else Rules()
    players = list(players)
    validate_seating(players, rules)
    g = blank(players, rules, seed)
    ev: list[Event] = []
    start_round(g, ev)
    return g, ev


def new_game(players: Sequence[str], rules: Rules | None = None, seed: int = 0) -> Game:
    """A new game with its first round dealt (dealer chosen, start card resolved).

    Same players, rules and seed give the identical game every time.
    """
    return new_game_events(players, rules, seed)[0]


def scenario(
    hands: Mapping[str, Sequence[Card | str]],
    discard: Sequence[Card | str],
    draw_pile: Sequence[Card | str] = (),
    current: str | None = None,
    direction: int = 1,
    color: Color | str | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    *,
    fill: bool | None = None,
) -> Game:
    """A round set up by hand, for tests.

    ``hands`` maps player id to card codes (dict order = seat order); ``discard`` lists
    cards bottom to top; ``draw_pile`` is the draw pile, first drawn first
    (``draw_pile_size == len(draw_pile)``). When it runs out the discard pile is reshuffled
    as in play; only when both are used up do the cards placed nowhere (the rest of the
    deck, shuffled by ``seed``) come into play, so a test that lists no cards still draws
    real ones. ``fill`` (an extra keyword): ``False``, no such reserve (both piles empty,
    a draw gives nothing: the blocked round); ``True``, the rest of the deck follows the
    given cards in the draw pile itself. ``color`` is the colour in play when the top card
    is a wild (a wild top without it asks ``current`` to name one). No start-card effect is
    applied and nothing is reshuffled.
    """
    rules = rules if rules is not None else Rules()
    players = list(hands)
    if len(players) < 2:
        raise ValueError("a scenario needs at least two players")
    if len(set(players)) != len(players):
        raise ValueError("player ids must be unique")
    if rules.partners and len(players) not in (4, 6):
        raise ValueError("partners needs 4 or 6 players")
    if not discard:
        raise ValueError("the discard pile needs a top card")
    if direction not in (1, -1):
        raise ValueError("direction is 1 or -1")
    g = blank(players, rules, seed)
    g.hands = [[Card.parse(c) for c in hands[p]] for p in players]
    g.discard = [Card.parse(c) for c in discard]
    first = [Card.parse(c) for c in draw_pile]
    if fill is not False:
        placed = Counter(c for h in g.hands for c in h)
        placed.update(g.discard)
        placed.update(first)
        rest = list((Counter(full_deck(rules.decks)) - placed).elements())
        g.rng.shuffle(rest)
        if fill:
            first += rest
        else:
            g.reserve = tuple(rest[::-1])  # the first of ``rest`` is drawn first
    g.draw_pile = first[::-1]  # the next card to draw is the last element
    if current is None:
        current = players[0]
    if current not in g.seat:
        raise ValueError(f"current player {current!r} is not in hands")
    g.cur = g.seat[current]
    g.direction_ = direction
    g.round_no = 1
    g.dealer_id = players[(g.cur - direction) % len(players)]
    top = g.discard[-1]
    if color is not None:
        g.play_color = Color.parse(color)
    elif top.is_wild:
        g.play_color = None
        g.phase_ = CHOOSING
        g.after_color = "start"
    else:
        g.play_color = top.color
    g.first_play = rules.first_play_number
    return g


def join(game: Game, player: str) -> tuple[Game, list[Event]]:
    """Seat ``player`` between rounds (nobody joins mid-round); they play from the next deal.

    A player who left keeps their score and gets it back on rejoining. Refused with
    ``IllegalAction``: mid-round (``round_in_progress``), after the game, when seated
    already, when the table is full, or with partners (teams are fixed).
    """
    g = game
    if g.phase_ is GAME_OVER:
        raise IllegalAction(Code.GAME_OVER, "the game is over")
    if g.phase_ is not ROUND_OVER:
        raise IllegalAction(Code.ROUND_IN_PROGRESS, "players join between rounds")
    if not isinstance(player, str) or not player:
        raise IllegalAction(Code.BAD_ACTION, "player ids are non-empty strings")
    if player in g.seat:
        raise IllegalAction(Code.ALREADY_SEATED, f"{player} is seated")
    if g.teams is not None:
        raise IllegalAction(Code.GAME_FULL, "partner teams are fixed for the game")
    try:
        check_seating(len(g.players_) + 1, g.rules)  # seats and cards for one more
    except RulesRefused:
        raise IllegalAction(Code.GAME_FULL, "the table is full") from None
    ng = g._clone()
    ng.players_ = [*g.players_, player]
    ng.seat = {p: i for i, p in enumerate(ng.players_)}
    ng.hands = [*(h[:] for h in ng.hands), []]
    ng._hmask = ALL_SEATS
    ng.scores_ = {**ng.scores_}
    ng.scores_.setdefault(player, 0)
    return ng, [PlayerJoined(player)]


def set_rules(game: Game, rules: Rules) -> Game:
    """The game with new rules for the rounds to come (between rounds only: a round's rules
    never change). Refused mid-round (``round_in_progress``); ``ValueError`` when the
    seated players do not fit the new rules or ``partners`` would change mid-game."""
    if game.phase_ is GAME_OVER:
        raise IllegalAction(Code.GAME_OVER, "the game is over")
    if game.phase_ is not ROUND_OVER:
        raise IllegalAction(Code.ROUND_IN_PROGRESS, "rules change between rounds only")
    if rules.partners != game.rules.partners:
        raise ValueError("partners cannot be switched during a game")
    validate_seating(game.players_, rules)
    ng = game._clone()
    ng.rules = rules
    ng.fl = plain(rules)
    return ng


def choose_dealer(g: Game, *, redraw: bool = False) -> tuple[str, tuple[tuple[str, Card], ...]]:
    """docs/rules.md "Dealer": everyone draws, the highest number deals (actions and wilds count
    as 0); the tied highest draw again. ``redraw`` (seed 001, ``high_plays_first``): an
    action card or a wild is drawn again ("摸到功能牌或万能牌则重摸")."""
    deck = full_deck(g.rules.decks)
    rng = g.rng
    draws: list[tuple[str, Card]] = []
    candidates = list(g.players_)
    while True:
        if len(deck) < len(candidates):
            deck = full_deck(g.rules.decks)
        values: dict[str, int] = {}
        for p in candidates:  # a random card from what is left: no need to shuffle all
            while True:
                if not deck:
                    deck = full_deck(g.rules.decks)
                i = rng.below(len(deck))
                deck[i], deck[-1] = deck[-1], deck[i]
                c = deck.pop()
                draws.append((p, c))
                if c.is_number or not redraw:
                    break
            values[p] = c.number if c.is_number else 0
        best = max(values.values())
        top = [p for p in candidates if values[p] == best]
        if len(top) == 1:
            return top[0], tuple(draws)
        candidates = top


def reseat(g: Game) -> None:
    """``partners=rotate`` (seed 003: "其他三人可以轮流坐在您的对家，每换一次对家就玩四局"):
    every four rounds the partners change, each player partnering every other once in a
    cycle (4 players: 3 pairings, 12 rounds), partners always sitting opposite. The first
    pairing is the first round's seating. While someone who sat down first is gone, the
    teams stay as they are."""
    base = g.seating
    n = len(g.players_)
    if base is None or n != len(base) or set(base) != set(g.seat):
        return
    half = n // 2
    # the circle method: the first player stays, the others turn one place a period; the
    # circle starts so that its first pairing is seat i with seat i + half
    circle = [*base[:half], *reversed(base[half:])]
    period = ((g.round_no - 1) // 4) % (n - 1)
    rest = circle[1:]
    k = period % len(rest)
    circle = [circle[0], *rest[len(rest) - k :], *rest[: len(rest) - k]]
    pairs = [(circle[i], circle[n - 1 - i]) for i in range(half)]
    order = [a for a, _ in pairs] + [b for _, b in pairs]
    g.players_ = order
    g.seat = {p: i for i, p in enumerate(order)}
    g.teams = {p: i % half for i, p in enumerate(order)}
    g.hands = [[] for _ in order]


def start_round(g: Game, ev: list[Event]) -> None:
    own(g)
    rules = g.rules
    n = len(g.players_)
    g.round_no += 1
    if rules.partners == "rotate":
        reseat(g)
    draws: tuple[tuple[str, Card], ...] = ()
    if g.round_no == 1:
        if rules.dealer == "draw_high":
            g.dealer_id, draws = choose_dealer(g)
        elif rules.dealer == "high_plays_first":
            opener, draws = choose_dealer(g, redraw=True)
            # seed 001: the high card plays first; the seat before them counts as dealer
            g.dealer_id = g.players_[(g.seat[opener] - 1) % n]
        else:
            g.dealer_id = g.players_[0]  # the table's creator is seated first
    elif g.round_winner_ in g.seat:
        g.dealer_id = g.round_winner_
    elif g.dealer_id not in g.seat:
        g.dealer_id = g.players_[0]
    d = g.seat[g.dealer_id]
    clear_round(g)
    g.round_winner_ = None
    deck = full_deck(rules.decks)
    g.rng.shuffle(deck)
    hands: list[list[Card]] = [[] for _ in range(n)]
    first = (d + 1) % n
    for _ in range(rules.hand_size):
        for i in range(n):
            hands[(first + i) % n].append(deck.pop())
    g.hands = hands
    g._hmask = ALL_SEATS
    dealt = {g.players_[i]: tuple(hands[i]) for i in range(n)}
    start_ev: list[Event] = []
    top = deck.pop()
    while top.rank is W4:  # a Wild Draw Four never starts: back into the deck, reshuffle
        deck.append(top)
        g.rng.shuffle(deck)
        start_ev.append(DeckReshuffled(len(deck), "start"))
        top = deck.pop()
    g.draw_pile = deck
    g.discard = [top]
    g.reserve = ()
    g.play_color = top.color
    g.first_play = rules.first_play_number
    first_id = g.players_[first]
    two = n == 2 and rules.two_player == "official"
    r = top.rank
    if r is SKIP:
        start_ev.append(TurnSkipped(first_id))
        g.cur = (first + 1) % n
    elif r is REV:
        if two:  # two players: a Reverse acts as a Skip
            start_ev.append(TurnSkipped(first_id))
            g.cur = d
        else:  # the dealer plays first, then play goes the other way
            g.direction_ = -1
            start_ev.append(DirectionReversed(-1))
            # seeds 003, 004: "（若是"reverse"则为右边）" the dealer's right plays first
            g.cur = (d - 1) % n if rules.start_reverse == "right_of_dealer" else d
    elif r is D2 and rules.stacking != "off":
        # seed 001: the first player answers a +2 start card with a +2 or +4 or draws 2,
        # exactly as if it had just been played at them (docs/rules.md "Penalties and
        # windows": drawn at once only without stacking). The dealer turned it up, so a
        # Reverse deflect sends it to the dealer.
        g.cur = first
        g.pending = 2
        g.pending_kind = D2
        g.pending_from = g.dealer_id
    elif r is D2:
        give(g, first, 2, "penalty", start_ev)
        start_ev.append(TurnSkipped(first_id))
        g.cur = (first + 1) % n
        g.follow = rules.after_penalty == "same_color"
    elif r is W:  # the first player names the colour, then plays
        g.cur = first
        g.phase_ = CHOOSING
        g.after_color = "start"
    else:
        g.cur = first
    ev.append(
        RoundStarted(
            round=g.round_no,
            dealer=g.dealer_id,
            players=tuple(g.players_),
            top=top,
            color=g.play_color,
            direction=g.direction_,
            current=g.players_[g.cur],
            hand_size=rules.hand_size,
            hands=dealt,
            dealer_draws=draws,
            pending=g.pending,
            draws_for="first" if draws and rules.dealer == "high_plays_first" else "dealer",
        )
    )
    ev.extend(start_ev)
