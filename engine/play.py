"""The rules in motion: ``new_game``, ``legal_actions``, ``apply``, ``scenario``, ``join``.

One legality source: ``legal_actions`` lists every action a player may take now, and
``apply`` accepts exactly those (plus a listed ``Play`` with ``uno=True`` and a wild ``Play``
with ``color=None``). Refusals are diagnosed afterwards, only to give a stable reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import product

from engine.actions import (
    ACTION_TYPES,
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    Leave,
    NextRound,
    Pass,
    Play,
    Timeout,
)
from engine.cards import ALL_CARDS, COLORS, Card, Color, Rank, full_deck
from engine.errors import Code, IllegalAction
from engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColorChosen,
    DeckReshuffled,
    DirectionReversed,
    Event,
    GameWon,
    HandsRotated,
    HandsSwapped,
    Passed,
    PenaltyPassed,
    PenaltyStacked,
    PlayerFinished,
    PlayerJoined,
    PlayerLeft,
    RoundStarted,
    RoundWon,
    TurnSkipped,
    TurnTimedOut,
    UnoCalled,
    UnoCaught,
    UnoFalseAlarm,
    UnoWindowClosed,
)
from engine.game import ACTIVE, Game, Phase
from engine.rng import Rng
from engine.rules import Rules, plain
from engine.view import View

__all__ = [
    "MAX_SEATS_PER_DECK",
    "apply",
    "draw_four_legal",
    "join",
    "leaves_one_card",
    "legal_actions",
    "new_game",
    "new_game_events",
    "scenario",
    "set_rules",
]

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
_ACTION_SET = frozenset(ACTION_TYPES)

_POINTS = {
    "standard": {c: (c.number if c.is_number else 50 if c.is_wild else 20) for c in ALL_CARDS},
    "low": {
        c: (c.number if c.is_number else 40 if c.rank is W4 else 20 if c.rank is W else 10)
        for c in ALL_CARDS
    },
}
MAX_SEATS_PER_DECK = 10  # seats a game may have per deck of 108 cards
# last_card: the ranks a player may not go out on
_NOT_LAST: dict[str, frozenset[Rank]] = {
    "any": frozenset(),
    "play_and_draw": frozenset(),
    "number_only": frozenset((SKIP, REV, D2, W, W4)),
    # seed 004: "「Reverse」「Skip」「Wild和Wild Draw 4」不能當最後一張牌使用" (a +2 may)
    "no_skip_reverse_wild": frozenset((SKIP, REV, W, W4)),
}


def _play(card: Card, color: Color | None, target: str | None, together: tuple[Card, ...]) -> Play:
    key = (card, color, target, together)
    p = _PLAYS.get(key)
    if p is None:
        if len(_PLAYS) > 200_000:  # player ids in targets are unbounded; keep the memo small
            _PLAYS.clear()
        p = _PLAYS[key] = Play(card, color, target, together)
    return p


_SINGLE: dict[Card, tuple[Play, ...]] = {
    c: tuple(_play(c, col, None, ()) for col in COLORS)
    if c.is_wild
    else (_play(c, None, None, ()),)
    for c in ALL_CARDS
}


def _catch(target: str) -> CatchUno:
    c = _CATCH.get(target)
    if c is None:
        if len(_CATCH) > 100_000:
            _CATCH.clear()
        c = _CATCH[target] = CatchUno(target)
    return c


def draw_four_legal(game: Game | View, player: str | None = None) -> bool:
    """Whether ``player`` (a view: its viewer) could play a Wild Draw Four now without
    bluffing: the rule a challenge checks (``draw_four_when``). For bot seats, which play
    one only legally, and for a hand's hints."""
    if isinstance(game, Game):
        assert player is not None
        return _w4_legal(game, game.hands[game.seat[player]])
    v = game
    return _w4_fits(v.rules, v.follow, list(v.hand or ()), v.color, v.top)


def leaves_one_card(rules: Rules, held: int, play: Play, target_held: int | None = None) -> bool:
    """Whether ``play``, from a hand of ``held`` cards, leaves its player holding one card:
    the play UNO is called with (``Play(..., uno=True)``). One card left over; and under
    ``uno_call=with_play``, where a call after the play is too late, also a last action
    card or wild under ``last_card=play_and_draw`` (its draw leaves one) and a swap with a
    player holding one card (``target_held``)."""
    left = held - 1 - len(play.together)
    if rules.uno_call == "with_play":
        if play.target is not None and left > 0:
            return target_held == 1
        if left == 0:
            return rules.last_card == "play_and_draw" and not play.card.is_number
    return left == 1


def hand_points(game: Game, player: str) -> int:
    """The value of ``player``'s hand under the game's card points."""
    table = _POINTS[game.rules.card_points]
    return sum(table[c] for c in game.hands[game.seat[player]])


# ---------------------------------------------------------------------------- new games


def _validate_seating(players: Sequence[str], rules: Rules) -> None:
    if len(set(players)) != len(players):
        raise ValueError("player ids must be unique")
    for p in players:
        if not isinstance(p, str) or not p:
            raise ValueError("player ids must be non-empty strings")
    n = len(players)
    most = MAX_SEATS_PER_DECK * rules.decks
    if n < 2 or n > most:
        raise ValueError(f"a game needs 2 to {most} players with {rules.decks} deck(s), not {n}")
    if rules.partners and n not in (4, 6):
        raise ValueError("partners needs 4 or 6 players (teams of two sitting opposite)")
    deck = 108 * rules.decks
    spare = 4 * rules.decks + 1  # a start card that is not a Wild Draw Four must exist
    if n * rules.hand_size > deck - spare:
        raise ValueError(
            f"{n} hands of {rules.hand_size} cards do not fit in {deck} cards; "
            "deal fewer cards or use two decks"
        )


def _blank(players: Sequence[str], rules: Rules, seed: int) -> Game:
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
    g.direction_ = 1
    g.play_color = None
    g.phase_ = PLAYING
    g.pending = 0
    g.pending_kind = None
    g.pending_from = None
    g.pending_by = None
    g.challenge = None
    g.drawn = None
    g.first_play = False
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
    _validate_seating(players, rules)
    g = _blank(players, rules, seed)
    ev: list[Event] = []
    _start_round(g, ev)
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
    g = _blank(players, rules, seed)
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
    most = MAX_SEATS_PER_DECK * g.rules.decks
    deck = 108 * g.rules.decks
    if len(g.players_) >= most or (len(g.players_) + 1) * g.rules.hand_size > deck - (
        4 * g.rules.decks + 1
    ):
        raise IllegalAction(Code.GAME_FULL, "the table is full")
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
    _validate_seating(game.players_, rules)
    ng = game._clone()
    ng.rules = rules
    ng.fl = plain(rules)
    return ng


def _choose_dealer(g: Game, *, redraw: bool = False) -> tuple[str, tuple[tuple[str, Card], ...]]:
    """RULES.md "Dealer": everyone draws, the highest number deals (actions and wilds count
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


def _reseat(g: Game) -> None:
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


def _start_round(g: Game, ev: list[Event]) -> None:
    _own(g)
    rules = g.rules
    n = len(g.players_)
    g.round_no += 1
    if rules.partners == "rotate":
        _reseat(g)
    draws: tuple[tuple[str, Card], ...] = ()
    if g.round_no == 1:
        if rules.dealer == "draw_high":
            g.dealer_id, draws = _choose_dealer(g)
        elif rules.dealer == "high_plays_first":
            opener, draws = _choose_dealer(g, redraw=True)
            # seed 001: the high card plays first; the seat before them counts as dealer
            g.dealer_id = g.players_[(g.seat[opener] - 1) % n]
        else:
            g.dealer_id = g.players_[0]  # the table's creator is seated first
    elif g.round_winner_ in g.seat:
        g.dealer_id = g.round_winner_
    elif g.dealer_id not in g.seat:
        g.dealer_id = g.players_[0]
    d = g.seat[g.dealer_id]
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
        # exactly as if it had just been played at them (RULES.md "Penalties and
        # windows": drawn at once only without stacking). The dealer turned it up, so a
        # Reverse deflect sends it to the dealer.
        g.cur = first
        g.pending = 2
        g.pending_kind = D2
        g.pending_from = g.dealer_id
    elif r is D2:
        _give(g, first, 2, "penalty", start_ev)
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


# ---------------------------------------------------------------------------- legality


def _holds_color(hand: list[Card], color: Color | None) -> bool:
    for c in hand:  # noqa: SIM110 - a plain loop is faster than any() on the hot path
        if c.color is color:
            return True
    return False


def _w4_legal(g: Game, hand: list[Card]) -> bool:
    """Whether a Wild Draw Four from ``hand`` is a legal play now, not a bluff (what a
    challenge checks). RULES.md: no card of the colour in play. ``draw_four_when=no_play``
    (seeds 003, 004, and 000's option): no other card of the hand can be played at all;
    cards of the colour in play and of the top card's number or symbol count, wilds do not
    (seed 003: "黑色牌不算"). After a taken +2 under ``after_penalty=same_color`` only the
    colour in play can be played, so only it counts."""
    return _w4_fits(g.fl, g.follow, hand, g.play_color, g.discard[-1])


def _w4_fits(rules: Rules, follow: bool, hand: list[Card], color: Color | None, top: Card) -> bool:
    if rules.draw_four_when == "no_color" or follow:
        return not _holds_color(hand, color)
    trank = None if top.is_wild else top.rank
    for c in hand:  # noqa: SIM110 - as _holds_color
        if (c.color is color or c.rank is trank) and not c.is_wild:
            return False
    return True


def _w4_ok(g: Game, hand: list[Card]) -> bool:
    """Whether a Wild Draw Four is allowed at all (``no_bluff`` refuses an illegal one)."""
    return g.fl.wild_draw_four != "no_bluff" or _w4_legal(g, hand)


def _matches(g: Game, c: Card, hand: list[Card]) -> bool:
    """A normal play (no penalty pending): wild, colour in play, or same number/symbol.
    After a taken +2 under ``after_penalty=same_color`` (seed 000: "罰摸者的下家繼續出同最後
    一個 +2 顏色相同的牌"): the colour in play, or a +4 ("+4：可以在任何時候出")."""
    if c.is_wild:
        if g.follow:
            return c.rank is W4 and _w4_ok(g, hand)
        return c.rank is not W4 or _w4_ok(g, hand)
    if c.color is g.play_color:
        return True
    if g.follow:
        return False
    top = g.discard[-1]
    return c.rank is top.rank and not top.is_wild


def _swap_kind(rules: Rules, rank: Rank) -> str | None:
    """``target`` for a card that swaps with a chosen player, ``rotate`` for a 0."""
    if rules.swap == "seven_zero":
        if rank is Rank.SEVEN:
            return "target"
        if rank is Rank.ZERO:
            return "rotate"
    elif rules.swap == "five" and rank is Rank.FIVE:
        return "target"
    return None


def _groups(g: Game, hand: list[Card], lead: Card) -> list[tuple[Card, ...]]:
    """The ``together`` tuples ``lead`` may be played with under ``multi_play``."""
    mode = g.fl.multi_play
    out: list[tuple[Card, ...]] = [()]
    if mode == "off":
        return out
    if mode == "identical" or lead.is_wild:
        extra = hand.count(lead) - 1
        out.extend((lead,) * k for k in range(1, extra + 1))
        return out
    counts: dict[Card, int] = {}
    for c in hand:
        if c.rank is lead.rank:
            counts[c] = counts.get(c, 0) + 1
    counts[lead] -= 1
    kinds = sorted((c for c in counts if counts[c] > 0), key=lambda c: c.order)
    for ks in product(*(range(counts[c] + 1) for c in kinds)):
        if any(ks):
            tog: list[Card] = []
            for c, k in zip(kinds, ks, strict=True):
                tog.extend((c,) * k)
            out.append(tuple(tog))
    return out


def _emit_plays(
    g: Game,
    s: int,
    hand: list[Card],
    lead: Card,
    groups: Sequence[tuple[Card, ...]],
    out: list[Action],
    *,
    swaps: bool = True,
) -> None:
    """Expand ``lead`` with each group into Plays: wild colours, colour choice, targets."""
    rules = g.fl
    not_last = _NOT_LAST[rules.last_card]
    swap = _swap_kind(rules, lead.rank) if swaps else None
    for tog in groups:
        empties = len(tog) + 1 == len(hand)
        if empties and lead.rank in not_last:
            continue
        colors: Sequence[Color | None]
        if lead.is_wild:
            colors = COLORS
        elif tog:
            distinct: list[Color] = []
            for c in (lead, *tog):
                if c.color is not None and c.color not in distinct:
                    distinct.append(c.color)
            colors = distinct if len(distinct) > 1 else (None,)
        else:
            colors = (None,)
        if swap == "target" and not empties:
            targets: Sequence[str | None] = [
                p for i, p in enumerate(g.players_) if i != s and g.hands[i]
            ]
        else:
            targets = (None,)
        for col in colors:
            for t in targets:
                out.append(_play(lead, col, t, tog))


def _distinct(hand: list[Card]) -> list[Card]:
    return list(dict.fromkeys(hand))


def _bounce_target(g: Game, s: int) -> str | None:
    """Where a Reverse deflect sends the penalty: back to whoever played the last +2, or,
    when that is the deflecting player themselves (it came back to them), to whoever sent
    it to them (seed 001: "如果此时该玩家手上刚好也有同色的反转的话，则可以反还给你")."""
    me = g.players_[s]
    for p in (g.pending_from, g.pending_by):
        if p is not None and p != me and p in g.seat and g.hands[g.seat[p]]:
            return p
    return None


def _stack_plays(g: Game, s: int, out: list[Action]) -> None:
    """What the victim of a pending penalty may play on it."""
    rules = g.fl
    st = rules.stacking
    if st == "off":
        return
    hand = g.hands[s]
    kind = g.pending_kind
    not_last = _NOT_LAST[rules.last_card]
    for c in _distinct(hand):
        r = c.rank
        if r is D2:
            if kind is D2 or (kind is W4 and st == "any" and c.color is g.play_color):
                _emit_plays(g, s, hand, c, _groups(g, hand, c), out)
        elif r is W4:
            if st in ("draw_four_on_two", "any") and _w4_ok(g, hand):
                _emit_plays(g, s, hand, c, _groups(g, hand, c), out)
        elif r is W:
            if rules.wild_on_penalty and not (len(hand) == 1 and W in not_last):
                _emit_plays(g, s, hand, c, ((),), out)
        elif (
            (r is SKIP or r is REV)
            and (
                (kind is D2 and rules.deflect != "off")
                or (kind is W4 and rules.deflect == "all")  # seed 001: "或同色反转牌"
            )
            and c.color is g.play_color
            and len(hand) > 1
            and (r is SKIP or _bounce_target(g, s) is not None)
        ):
            out.append(_play(c, None, None, ()))


def _turn_actions(g: Game, s: int, out: list[Action]) -> None:
    ph = g.phase_
    if ph is CHOOSING:
        out.extend(CHOOSE)
        return
    if ph is CHALLENGE:
        out.append(CHALLENGE_A)
        out.append(ACCEPT)
        _stack_plays(g, s, out)
        return
    if g.pending:
        out.append(ACCEPT)
        _stack_plays(g, s, out)
        return
    hand = g.hands[s]
    drawn = g.drawn
    if drawn is not None:
        n0 = len(out)
        if _matches(g, drawn, hand):  # still: a false UNO call may have brought the colour
            _emit_plays(g, s, hand, drawn, ((),), out)
        rules = g.fl
        bluff = drawn.rank is W4 and rules.wild_draw_four == "challenge" and not _w4_legal(g, hand)
        if not (rules.force_play and len(out) > n0 and not bluff):
            out.append(PASS)  # force_play: a playable drawn card must be played (not a bluff)
        return
    if g.first_play:
        n0 = len(out)
        same_rank = g.fl.multi_play == "same_rank"
        for c in _distinct(hand):
            if not c.is_number:
                continue
            groups = _groups(g, hand, c)
            if g.follow:  # every card played is of the colour to follow
                if not _matches(g, c, hand):
                    continue
                groups = [t for t in groups if all(x.color is c.color for x in t)]
            elif not _matches(g, c, hand):
                if not same_rank:
                    continue
                groups = [t for t in groups if any(_matches(g, x, hand) for x in t)]
            if groups:
                _emit_plays(g, s, hand, c, groups, out)
        if len(out) == n0:
            out.append(DRAW)  # no number to open with: draw 2 and lose the turn
        return
    rules = g.fl
    multi = rules.multi_play
    if rules.swap == "off" and multi != "same_rank" and not g.follow:
        # the common case, kept fast: nothing to choose but a colour (and identical pairs)
        color = g.play_color
        top = g.discard[-1]
        trank = None if top.is_wild else top.rank
        n_hand = len(hand)
        not_last = _NOT_LAST[rules.last_card]
        no_bluff = rules.wild_draw_four == "no_bluff"
        distinct = dict.fromkeys(hand)
        pairs = multi == "identical" and len(distinct) < n_hand
        for c in distinct:
            if c.color is color or c.rank is trank:
                pass
            elif c.is_wild:
                if no_bluff and c.rank is W4 and not _w4_legal(g, hand):
                    continue
            else:
                continue
            if n_hand != 1 or c.rank not in not_last:
                out.extend(_SINGLE[c])
            if pairs:
                m = hand.count(c)
                if m > 1:
                    _emit_plays(g, s, hand, c, [(c,) * x for x in range(1, m)], out)
    else:
        same_rank = multi == "same_rank"
        for c in _distinct(hand):
            groups = _groups(g, hand, c)
            if g.follow:  # every card played is of the colour to follow
                if not _matches(g, c, hand):
                    continue
                if same_rank:
                    groups = [t for t in groups if all(x.color is c.color for x in t)]
            elif not _matches(g, c, hand):
                if not same_rank:
                    continue
                # several of one rank: any of them may lead if one of them matches
                groups = [t for t in groups if any(_matches(g, x, hand) for x in t)]
                if not groups:
                    continue
            _emit_plays(g, s, hand, c, groups, out)
    out.append(DRAW)


def _jump_ins(g: Game, s: int, out: list[Action]) -> None:
    hand = g.hands[s]
    top = g.discard[-1]
    if top not in hand:
        return
    if g.pending:  # only an identical +2, or a +4 on a +4 where +4s stack, adds to it
        stackable = (top.rank is D2 and g.pending_kind is D2) or (
            top.rank is W4
            and g.pending_kind is W4
            and g.fl.stacking in ("draw_four_on_two", "any")
        )
        if not stackable:
            return
    if top.rank is W4 and not _w4_ok(g, hand):
        return
    if g.follow and not _matches(g, top, hand):  # the next play follows the +2's colour
        return
    _emit_plays(g, s, hand, top, ((),), out)


def _legal(g: Game, p: str) -> list[Action]:
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
        _turn_actions(g, s, out)
    elif ph is PLAYING and g.fl.jump_in and not g.first_play:
        _jump_ins(g, s, out)
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
            out.append(_catch(t))
    if false_pen:
        hands = g.hands
        for i, t in enumerate(g.players_):
            if t != p and t not in g.exposed and hands[i]:
                out.append(_catch(t))
    out.append(LEAVE)
    return out


def legal_actions(game: Game, player: str) -> list[Action]:
    """Every action ``player`` may take now, in turn or out of it (catching, challenging,
    jumping in). Wild colours, swap targets and ``together`` combinations are expanded.
    ``Timeout`` is never listed."""
    cache = game._cache
    if cache is not None and cache[0] == player:
        return list(cache[1])
    acts = _legal(game, player)
    game._cache = (player, acts)
    return list(acts)


def _listed(game: Game, player: str) -> list[Action]:
    cache = game._cache
    if cache is not None and cache[0] == player:
        return cache[1]
    acts = _legal(game, player)
    game._cache = (player, acts)
    return acts


# ---------------------------------------------------------------------------- apply


def apply(game: Game, player: str, action: Action) -> tuple[Game, list[Event]]:
    """Apply ``player``'s ``action``: the new game and what happened, in order.

    Raises ``IllegalAction`` (and leaves ``game`` untouched) for anything not legal now.
    """
    kind = type(action)
    if kind not in _ACTION_SET and not isinstance(action, ACTION_TYPES):
        raise IllegalAction(Code.BAD_ACTION, f"not an action: {kind.__name__}")
    if kind is Timeout:
        return _timeout(game, player, action)  # type: ignore[arg-type]
    acts = _listed(game, player)
    for listed in acts:  # identity first: callers usually pass an object we listed
        if listed is action:
            break
    else:
        if action not in acts:
            unlisted = _accepted_unlisted(action, acts)
            if unlisted is None:
                raise _diagnose(game, player, action)
            action = unlisted
    g = game._clone()
    ev: list[Event] = []
    s = g.seat[player]
    if type(action) is Play:
        _do_play(g, s, action, ev)
    elif isinstance(action, Draw):
        _do_draw(g, s, ev)
    elif isinstance(action, Pass):
        g.drawn = None
        g.follow = False
        ev.append(Passed(player))
        g.cur = _nxt(g, s)
    elif isinstance(action, Accept):
        _do_accept(g, s, ev)
    elif isinstance(action, Challenge):
        _do_challenge(g, s, ev)
    elif isinstance(action, ChooseColor):
        g.play_color = action.color
        ev.append(ColorChosen(player, action.color))
        _after_color(g, ev)
    elif isinstance(action, CallUno):
        _do_call(g, s, ev)
    elif isinstance(action, CatchUno):
        _do_catch(g, s, action.target, ev)
    elif isinstance(action, Leave):
        _do_leave(g, s, ev)
    elif isinstance(action, NextRound):
        _start_round(g, ev)
    return g, ev


def _accepted_unlisted(action: Action, acts: list[Action]) -> Action | None:
    """The accepted forms never listed, as the action to apply (``None``: not accepted):
    ``uno=True``; a wild with no colour yet (asked for next); and a ``same_rank`` play of
    several colours with no colour, where the lead card's colour stays in play (the player
    chose it by leading with it; it is laid on top)."""
    if not isinstance(action, Play):
        return None
    card, together, target, color = action.card, action.together, action.target, action.color
    mixed = bool(together) and not card.is_wild
    mixed = mixed and any(c.color is not card.color for c in together)
    if color is None and mixed:
        if _play(card, card.color, target, together) not in acts:
            return None
        return Play(card, card.color, target, together, action.uno)
    if action.uno and _play(card, color, target, together) in acts:
        return action
    if (
        color is None
        and card.is_wild
        and any(_play(card, c, target, together) in acts for c in COLORS)
    ):
        return action
    return None


def _timeout(game: Game, player: str, action: Timeout) -> tuple[Game, list[Event]]:
    window = action.window
    if player not in game.seat:
        raise IllegalAction(Code.NOT_A_PLAYER, f"{player} is not seated")
    if window == "uno":
        if player not in game.exposed:
            raise IllegalAction(Code.NO_WINDOW, f"no catch window is open on {player}")
        g = game._clone()
        g.exposed = _without(g.exposed, player)
        return g, [UnoWindowClosed(player)]
    if window != "turn":
        raise IllegalAction(Code.BAD_ACTION, f"unknown timeout window {window!r}")
    if game.phase_ is GAME_OVER:
        raise IllegalAction(Code.GAME_OVER, "the game is over")
    if game.phase_ is ROUND_OVER:
        raise IllegalAction(Code.ROUND_OVER, "no turn between rounds")
    if game.current != player:
        raise IllegalAction(Code.NOT_YOUR_TURN, f"it is {game.current}'s turn")
    g = game._clone()
    s = g.cur
    g.follow = False  # whatever happens, this turn ends
    ev: list[Event] = [TurnTimedOut(player, "turn")]
    ph = g.phase_
    if ph is CHOOSING:  # a colour not named in time is chosen at random (or kept)
        _name_missing_color(g, player, ev)
        start = g.after_color == "start"
        _after_color(g, ev)
        if start:  # the first player, who was to name it and then play, is skipped
            g.first_play = g.rules.first_play_number
            ev.append(TurnSkipped(player))
            g.cur = _nxt(g, s)
    elif ph is CHALLENGE or g.pending:  # take the penalty
        _do_accept(g, s, ev)
    elif g.drawn is not None:
        g.drawn = None
        ev.append(Passed(player))
        g.cur = _nxt(g, s)
    elif g.first_play and DRAW in _listed(game, player):
        _do_draw(g, s, ev)  # no number card to open with: the first-play penalty
    else:  # draw one card for the player, then pass (the first play is still to come)
        _close(g, player)
        got = _give(g, s, 1, "draw", ev)
        if got:
            g.stalled = 0
        elif _stall(g, s, ev):
            return g, ev
        ev.append(Passed(player))
        g.cur = _nxt(g, s)
    return g, ev


# ---------------------------------------------------------------------------- effects


ALL_SEATS = (1 << 64) - 1


def _without(t: tuple[str, ...], x: str) -> tuple[str, ...]:
    return tuple(q for q in t if q != x) if x in t else t


def _mhand(g: Game, s: int) -> list[Card]:
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


def _own_hands(g: Game) -> None:
    if g._hmask != ALL_SEATS:
        g.hands = [h[:] for h in g.hands]
        g._hmask = ALL_SEATS


def _own(g: Game) -> Game:
    """Give ``g`` its own draw pile and RNG before changing either.

    ``Game._clone`` shares them (most actions draw nothing); every writer calls this."""
    if not g._own:
        g.draw_pile = g.draw_pile[:]
        g.rng = Rng(g.rng.state)
        g._own = True
    return g


def _nxt(g: Game, s: int, steps: int = 1) -> int:
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


def _close(g: Game, actor: str) -> None:
    """A turn action by ``actor`` closes every other player's catch window."""
    if g.exposed:
        g.exposed = tuple(q for q in g.exposed if q == actor)


def _fix_uno(g: Game, pid: str, size: int) -> None:
    """A hand that no longer holds exactly one card is neither exposed nor called."""
    if size != 1:
        g.exposed = _without(g.exposed, pid)
        g.called = _without(g.called, pid)
        if g.silent:
            g.silent = _without(g.silent, pid)


def _take(g: Game, ev: list[Event]) -> Card | None:
    _own(g)
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


def _give(g: Game, s: int, n: int, reason: str, ev: list[Event]) -> int:
    """Seat ``s`` draws up to ``n`` cards (fewer when both piles run out)."""
    if n <= 0:
        return 0
    got: list[Card] = []
    for _ in range(n):
        c = _take(g, ev)
        if c is None:
            break
        got.append(c)
    hand = _mhand(g, s)
    hand.extend(got)
    pid = g.players_[s]
    _fix_uno(g, pid, len(hand))
    ev.append(CardsDrawn(pid, len(got), tuple(got), reason))
    return len(got)


def _stall(g: Game, s: int, ev: list[Event]) -> bool:
    """A draw found both piles empty. True when that ended the round (everyone passed)."""
    g.stalled += 1
    playing = sum(1 for h in g.hands if h) if g.out else len(g.players_)
    if g.stalled < playing:
        return False
    table = _POINTS[g.rules.card_points]
    n = len(g.players_)
    order = [(s + g.direction_ * i) % n for i in range(n)]
    best = min(order, key=lambda i: sum(table[c] for c in g.hands[i]))
    _end_round(g, best, "blocked", ev)
    return True


def _do_draw(g: Game, s: int, ev: list[Event]) -> None:
    pid = g.players_[s]
    _close(g, pid)
    if g.first_play:  # first_play_number: no number card to open with
        g.first_play = False
        g.follow = False
        _give(g, s, 2, "first_play", ev)
        ev.append(TurnSkipped(pid))
        g.cur = _nxt(g, s)
        return
    hand = _mhand(g, s)
    got: list[Card] = []
    playable = False
    rules = g.fl
    until = rules.draw == "until_playable"
    while True:
        c = _take(g, ev)
        if c is None:
            break
        got.append(c)
        hand.append(c)
        playable = _matches(g, c, hand)
        if playable and not c.is_number and rules.drawn_card == "number_only":
            playable = False  # seed 000: played at once only "可以出牌且不是功能牌"
        if playable or not until:
            break
    _fix_uno(g, pid, len(hand))
    ev.append(CardsDrawn(pid, len(got), tuple(got), "draw"))
    if not got:
        if _stall(g, s, ev):
            return
    else:
        g.stalled = 0
        if playable:
            g.drawn = got[-1]
            return
    g.follow = False
    ev.append(Passed(pid))
    g.cur = _nxt(g, s)


def _clear_penalty(g: Game) -> None:
    g.pending = 0
    g.pending_kind = None
    g.pending_from = None
    g.pending_by = None
    g.challenge = None
    g.phase_ = PLAYING


def _do_accept(g: Game, s: int, ev: list[Event]) -> None:
    pid = g.players_[s]
    _close(g, pid)
    total = g.pending
    g.follow = g.pending_kind is D2 and g.fl.after_penalty == "same_color"
    _clear_penalty(g)
    _give(g, s, total, "penalty", ev)
    ev.append(TurnSkipped(pid))
    g.cur = _nxt(g, s)


def _do_challenge(g: Game, s: int, ev: list[Event]) -> None:
    pid = g.players_[s]
    _close(g, pid)
    assert g.challenge is not None
    offender, legal = g.challenge
    total = g.pending
    _clear_penalty(g)
    os = g.seat[offender]
    shown = tuple(g.hands[os])
    if not legal:  # guilty: the offender draws the whole penalty
        ev.append(ChallengeResolved(pid, offender, True, total, offender, shown))
        _give(g, os, total, "challenge", ev)
        if g.rules.guilty_challenger == "plays":
            g.cur = s
        else:
            ev.append(TurnSkipped(pid))
            g.cur = _nxt(g, s)
    else:  # innocent: the challenger draws the penalty + 2 and loses the turn
        ev.append(ChallengeResolved(pid, offender, False, total + 2, pid, shown))
        _give(g, s, total + 2, "challenge", ev)
        ev.append(TurnSkipped(pid))
        g.cur = _nxt(g, s)


def _do_call(g: Game, s: int, ev: list[Event]) -> None:
    pid = g.players_[s]
    if len(g.hands[s]) == 1:
        g.called = (*g.called, pid)
        g.exposed = _without(g.exposed, pid)
        ev.append(UnoCalled(pid))
        return
    pen = g.rules.false_uno_penalty
    ev.append(UnoFalseAlarm(pid, pen))
    _give(g, s, pen, "false_uno", ev)


def _do_catch(g: Game, s: int, target: str, ev: list[Event]) -> None:
    pid = g.players_[s]
    if target in g.exposed:
        g.exposed = _without(g.exposed, target)
        pen = g.rules.uno_penalty
        ev.append(UnoCaught(pid, target, pen))
        _give(g, g.seat[target], pen, "uno", ev)
        return
    pen = g.rules.false_uno_penalty
    ev.append(UnoFalseAlarm(pid, pen, target))
    _give(g, s, pen, "false_uno", ev)


def _do_play(g: Game, s: int, a: Play, ev: list[Event]) -> None:
    rules = g.fl
    pid = g.players_[s]
    jump = s != g.cur
    if g.exposed:
        _close(g, pid)
    hand = _mhand(g, s)
    lead = a.card
    rank = lead.rank
    together = a.together
    k = 1 + len(together)
    hand.remove(lead)
    for c in together:
        hand.remove(c)
    w4_legal = rank is not W4 or _w4_legal(g, hand)
    # under same_rank the card of the chosen colour goes on top
    if together and a.color is not None and not lead.is_wild:
        cards = [c for c in (lead, *together) if c.color is not a.color]
        cards += [c for c in (lead, *together) if c.color is a.color]
        g.discard = [*g.discard, *cards]
    else:
        g.discard = [*g.discard, lead, *together]
    g.cur = s  # a jump-in: the players in between lose their turn
    g.drawn = None
    if g.follow:
        g.follow = False
    g.first_play = False
    g.stalled = 0
    facing = g.pending > 0
    if facing:
        kind = "deflect" if rank is SKIP or rank is REV else "pass" if rank is W else "stack"
    else:
        kind = "normal"
    g.challenge = None
    g.phase_ = PLAYING
    if lead.is_wild:
        new_color: Color | None = a.color
    elif a.color is not None:
        new_color = a.color
    else:
        new_color = g.discard[-1].color
    ev.append(
        CardPlayed(
            pid,
            lead,
            together,
            new_color,
            a.target,
            jump,
            len(hand),
        )
    )
    out = not hand
    if out:
        if rules.last_card == "play_and_draw" and not lead.is_number:
            _give(g, s, 1, "last_card", ev)
            out = not hand
        if out and not rules.places:  # going out: a last +2/+4 is still drawn, and scored
            if new_color is not None:
                g.play_color = new_color
            victim_draws = g.pending + (k * lead.draw if kind in ("stack", "normal") else 0)
            _clear_penalty(g)
            if victim_draws:
                v = _nxt(g, s)
                _give(g, v, victim_draws, "penalty", ev)
            _end_round(g, s, "out", ev)
            return
        # places: the player who went out plays on no more; their card takes its effect
        # (no swap with a last card), and their place is settled once it has
        if out:
            _fix_uno(g, pid, 0)
    swap = _swap_kind(rules, rank) if rules.swap != "off" and not out else None
    if len(hand) == 1 and swap is None:  # with a swap, UNO is settled after it
        g.called = _without(g.called, pid)
        if a.uno:
            g.called = (*g.called, pid)
            g.exposed = _without(g.exposed, pid)
            g.silent = _without(g.silent, pid)
            ev.append(UnoCalled(pid))
        else:
            if pid not in g.exposed:
                g.exposed = (*g.exposed, pid)
            if rules.uno_call == "with_play" and pid not in g.silent:
                g.silent = (*g.silent, pid)  # seed 001: "必须在倒数第2张牌落地的时候喊出"
    if swap is not None:
        _do_swap(g, s, swap, a, ev)
    if lead.is_wild and new_color is None:  # the player names the colour next
        if rules.color_timeout == "keep":
            g.kept_color = g.play_color
        g.play_color = None
        g.phase_ = CHOOSING
        g.after_color = "effect"
        g.deferred = (pid, rank, k, kind, w4_legal)
        return
    g.play_color = new_color
    if kind == "normal" and lead.is_number and swap is None and not out and not g.out:
        g.cur = (s + g.direction_) % len(g.players_)  # the common case
        return
    _resolve(g, s, rank, k, kind, w4_legal, ev)
    if out:
        _settle_out(g, s, ev)


def _do_swap(g: Game, s: int, how: str, a: Play, ev: list[Event]) -> None:
    pid = g.players_[s]
    _own_hands(g)
    if how == "target":
        assert a.target is not None
        t = g.seat[a.target]
        g.hands[s], g.hands[t] = g.hands[t], g.hands[s]
        changed = [s, t]
        ev.append(HandsSwapped(pid, a.target))
    else:
        n = len(g.players_)
        new: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n):
            if g.hands[i] or not g.out:  # places: hands pass among those still playing
                new[_nxt(g, i)] = g.hands[i]
        g.hands = new
        changed = list(range(n))
        ev.append(HandsRotated(pid, g.direction_))
    with_play = g.fl.uno_call == "with_play"
    for i in changed:  # a player left with one card by a swap must call UNO
        q = g.players_[i]
        g.exposed = _without(g.exposed, q)
        g.called = _without(g.called, q)
        g.silent = _without(g.silent, q)
        if len(g.hands[i]) == 1:
            if i == s and a.uno:
                g.called = (*g.called, q)
                ev.append(UnoCalled(q))
            else:
                g.exposed = (*g.exposed, q)
                if i == s and with_play:  # the one who played: the call came with it or not
                    g.silent = (*g.silent, q)


def _name_missing_color(g: Game, pid: str, ev: list[Event]) -> None:
    """A colour that was never named: chosen at random (RULES.md section 4), or under
    ``color_timeout=keep`` the colour in play before the wild stays (seed 001: "如果忘记说颜色，
    则以之前颜色为准"); a wild start card had none before it: random then too."""
    kept = g.kept_color
    if kept is not None:
        g.play_color = kept
        ev.append(ColorChosen(pid, kept, kept=True))
        return
    _own(g)
    color = COLORS[g.rng.below(4)]
    g.play_color = color
    ev.append(ColorChosen(pid, color, random=True))


def _after_color(g: Game, ev: list[Event], *, settle: bool = True) -> None:
    how = g.after_color
    g.after_color = None
    g.kept_color = None
    g.phase_ = PLAYING
    if how == "effect" and g.deferred is not None:
        pid, rank, k, kind, w4_legal = g.deferred
        g.deferred = None
        s = g.seat[pid]
        _resolve(g, s, rank, k, kind, w4_legal, ev)
        if settle and g.rules.places and not g.hands[s]:
            _settle_out(g, s, ev)


def _resolve(
    g: Game, s: int, rank: Rank, k: int, kind: str, w4_legal: bool, ev: list[Event]
) -> None:
    """The effect of the card(s) just played from seat ``s``; sets whose turn it is."""
    rules = g.fl
    n = len(g.players_)
    pid = g.players_[s]
    two = n == 2 and rules.two_player == "official"
    if kind == "deflect":
        total = g.pending
        if rank is SKIP:
            to = _nxt(g, s)
            how = "skip"
        else:
            if not two:
                g.direction_ = -g.direction_
                ev.append(DirectionReversed(g.direction_))
            back = _bounce_target(g, s)
            assert back is not None
            to = g.seat[back]
            how = "reverse"
        g.cur = to
        g.pending_by = pid
        ev.append(PenaltyPassed(pid, g.players_[to], total, how))
        return
    if kind == "pass":
        to = _nxt(g, s)
        g.cur = to
        g.pending_by = pid
        ev.append(PenaltyPassed(pid, g.players_[to], g.pending, "wild"))
        if not g.hands[s]:  # places: a last card is never stacked on; drawn at once
            _draw_at_once(g, to, g.pending_kind is D2, ev)
        return
    if rank is D2 or rank is W4:
        per = 2 if rank is D2 else 4
        g.pending += k * per
        g.pending_kind = rank
        if rank is D2 or rules.deflect == "all":  # where a Reverse deflect sends it back
            g.pending_from = pid
        if kind == "stack":
            ev.append(PenaltyStacked(pid, g.pending))
        challengeable = rank is W4 and rules.wild_draw_four == "challenge"
        v = _nxt(g, s)
        # drawn at once, victim skipped (places: also a last card, never stacked on)
        if (rules.stacking == "off" and not challengeable) or not g.hands[s]:
            _draw_at_once(g, v, rank is D2, ev)
        else:  # the victim decides: stack, challenge or accept
            g.cur = v
            g.pending_by = pid
            if challengeable:
                g.phase_ = CHALLENGE
                g.challenge = (pid, w4_legal)
        return
    if rank is SKIP or (rank is REV and two):
        # several Skips skip as many players, but never the one who played them: with two
        # players any number of them means "play again" (RULES.md, two players)
        if g.out or not g.hands[s]:  # places: among those still playing, never back to s
            others = sum(1 for i, h in enumerate(g.hands) if h and i != s)
            k = min(k, others if g.hands[s] else others - 1)
        else:
            k = min(k, n - 1)
        for i in range(1, k + 1):
            ev.append(TurnSkipped(g.players_[_nxt(g, s, i)]))
        g.cur = _nxt(g, s, k + 1)
        return
    if rank is REV and k % 2 == 1:
        g.direction_ = -g.direction_
        ev.append(DirectionReversed(g.direction_))
    g.cur = _nxt(g, s)


def _draw_at_once(g: Game, v: int, two: bool, ev: list[Event]) -> None:
    """Seat ``v`` draws the pending total and loses the turn; after a +2 under
    ``after_penalty=same_color`` the next play follows its colour."""
    total = g.pending
    _clear_penalty(g)
    _give(g, v, total, "penalty", ev)
    ev.append(TurnSkipped(g.players_[v]))
    g.cur = _nxt(g, v)
    g.follow = two and g.fl.after_penalty == "same_color"


def _settle_out(g: Game, s: int, ev: list[Event]) -> None:
    """``places``: seat ``s`` played its last card and its effect is done. They take the
    next place; the round's points are counted when the first player goes out (as without
    places); the round ends when one player is left holding cards."""
    pid = g.players_[s]
    if pid in g.out or g.phase_ not in ACTIVE:
        return
    if g.out_points is None:
        table = _POINTS[g.rules.card_points]
        g.out_points = {
            p: sum(table[c] for c in h) for p, h in zip(g.players_, g.hands, strict=True)
        }
    g.out = (*g.out, pid)
    ev.append(PlayerFinished(pid, len(g.out)))
    if sum(1 for h in g.hands if h) <= 1:
        _end_round(g, s, "out", ev)


def _add_score(g: Game, pid: str, pts: int) -> None:
    g.scores_ = dict(g.scores_)  # shared with the game this one was copied from
    if g.teams is None:
        g.scores_[pid] = g.scores_.get(pid, 0) + pts
        return
    team = g.teams[pid]
    for q, t in g.teams.items():
        if t == team:
            g.scores_[q] = g.scores_.get(q, 0) + pts


def _end_round(g: Game, ws: int, reason: str, ev: list[Event], *, final: bool = False) -> None:
    rules = g.rules
    table = _POINTS[rules.card_points]
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
        _add_score(g, winner, gained)
    else:
        for p in losers:
            _add_score(g, p, hp[p])
    g.round_winner_ = winner
    g.phase_ = ROUND_OVER
    g.cur = ws
    g.drawn = None
    g.exposed = ()
    g.called = ()
    g.after_color = None
    g.deferred = None
    _clear_penalty(g)
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


def _do_leave(g: Game, s: int, ev: list[Event]) -> None:
    """RULES.md section 4: cards under the draw pile, turn passes, aimed penalty cancelled."""
    pid = g.players_[s]
    ev.append(PlayerLeft(pid))
    _own(g)
    _own_hands(g)
    g.draw_pile[0:0] = g.hands[s]
    g.hands[s] = []
    g.exposed = _without(g.exposed, pid)
    g.called = _without(g.called, pid)
    g.silent = _without(g.silent, pid)
    next_id: str | None = None
    if g.phase_ in ACTIVE and g.phase_ is CHOOSING and s == g.cur:
        # a colour still to be named is chosen at random (or kept), the card takes effect
        # (places: if it was their last card, they leave without a place)
        _name_missing_color(g, pid, ev)
        _after_color(g, ev, settle=False)
    if g.phase_ in ACTIVE:
        if g.phase_ is CHALLENGE and g.challenge is not None and g.challenge[0] == pid:
            # they played the Wild Draw Four being challenged: the victim draws it
            v = g.cur
            total = g.pending
            _clear_penalty(g)
            _give(g, v, total, "penalty", ev)
            ev.append(TurnSkipped(g.players_[v]))
            g.cur = _nxt(g, v)
        if g.pending_from == pid:
            g.pending_from = None
        if g.pending_by == pid:
            g.pending_by = None
        if g.cur == s:  # their turn passes on; a penalty aimed at them is cancelled
            if g.pending:
                _clear_penalty(g)
            g.drawn = None
            g.follow = False
            g.cur = _nxt(g, s)
        next_id = g.players_[g.cur]
    players = [p for p in g.players_ if p != pid]
    del g.hands[s]
    g.players_ = players
    g.seat = {p: i for i, p in enumerate(players)}
    g.cur = g.seat[next_id] if next_id is not None else 0
    if pid in g.out:  # places: the others move up
        g.out = _without(g.out, pid)
    # a game left with one player (or one team) ends: they win the round and the game
    alone = len(players) == 1 or (g.teams is not None and len({g.teams[p] for p in players}) == 1)
    if alone and g.phase_ is not GAME_OVER:
        if g.phase_ in ACTIVE:
            _end_round(g, g.cur, "last_player", ev, final=True)
        else:
            g.winner_ = players[0]
            g.phase_ = GAME_OVER
            ev.append(GameWon(players[0], dict(g.scores_)))
    elif g.rules.places and g.phase_ in ACTIVE and sum(1 for h in g.hands if h) <= 1:
        _end_round(g, g.cur, "last_player", ev)  # places: one player is left holding cards


# ---------------------------------------------------------------------------- refusals


def _diagnose(g: Game, player: str, a: Action) -> IllegalAction:
    """Why ``a`` is not legal: a stable code for the user, a sentence for the log."""
    s = g.seat.get(player)
    if s is None:
        return IllegalAction(Code.NOT_A_PLAYER, f"{player} is not seated")
    ph = g.phase_
    if ph is GAME_OVER:
        return IllegalAction(Code.GAME_OVER, "the game is over")
    if isinstance(a, NextRound):
        return IllegalAction(Code.ROUND_IN_PROGRESS, "the round is still being played")
    if ph is ROUND_OVER:
        return IllegalAction(Code.ROUND_OVER, "the round is over; deal the next one")
    hand = g.hands[s]
    mine = s == g.cur
    if isinstance(a, CallUno):
        if len(hand) == 1 and player in g.silent:
            return IllegalAction(Code.UNO_TOO_LATE, "UNO is called with the play at this table")
        if len(hand) == 1:
            return IllegalAction(Code.ALREADY_CALLED, "UNO was called already")
        return IllegalAction(Code.NOT_ONE_CARD, "UNO is called holding one card")
    if isinstance(a, CatchUno):
        if a.target == player:
            return IllegalAction(Code.CANNOT_CATCH_SELF, "you cannot catch yourself")
        return IllegalAction(Code.NOT_CATCHABLE, f"{a.target} cannot be caught now")
    if isinstance(a, ChooseColor):
        if mine and ph is CHOOSING:
            return IllegalAction(Code.BAD_ACTION, "not a colour")
        if ph is CHOOSING:
            return IllegalAction(Code.NOT_YOUR_TURN, "another player names the colour")
        return IllegalAction(Code.NO_COLOR_NEEDED, "no colour is asked for now")
    if isinstance(a, Challenge):
        if ph is CHALLENGE and not mine:
            return IllegalAction(Code.NOT_YOUR_TURN, "only the player facing the +4 challenges")
        return IllegalAction(Code.NOTHING_TO_CHALLENGE, "no Wild Draw Four to challenge")
    if not mine and not isinstance(a, Play):
        return IllegalAction(Code.NOT_YOUR_TURN, f"it is {g.players_[g.cur]}'s turn")
    if isinstance(a, Accept):
        return IllegalAction(Code.NOTHING_PENDING, "no penalty to accept")
    if ph is CHOOSING:
        if mine:
            return IllegalAction(Code.CHOOSE_COLOR, "name the colour first")
        if g.rules.jump_in and isinstance(a, Play):
            return IllegalAction(Code.NO_JUMP_IN, "no jumping in while a colour is named")
        return IllegalAction(Code.NOT_YOUR_TURN, "a colour is being named")
    if isinstance(a, Pass):
        if g.drawn is None:
            return IllegalAction(Code.NOTHING_TO_PASS, "draw before passing")
        return IllegalAction(Code.MUST_PLAY, "the drawn card must be played")
    if isinstance(a, Draw):
        if ph is CHALLENGE:
            return IllegalAction(Code.CHALLENGE_OPEN, "challenge or accept the Wild Draw Four")
        if g.pending:
            return IllegalAction(Code.PENALTY_PENDING, "stack or accept the pending penalty")
        if g.drawn is not None:
            return IllegalAction(Code.ALREADY_DRAWN, "play the drawn card or pass")
        if g.first_play:
            return IllegalAction(Code.FIRST_PLAY_NUMBER, "open the round with a number card")
        return IllegalAction(Code.BAD_ACTION, "drawing is not possible now")
    if not isinstance(a, Play):
        return IllegalAction(Code.BAD_ACTION, "not possible now")
    return _diagnose_play(g, s, a)


def _w4_refusal(g: Game) -> IllegalAction:
    if g.rules.draw_four_when == "no_play" and not g.follow:
        return IllegalAction(
            Code.WILD_DRAW_FOUR_PLAYABLE, "a Wild Draw Four only with nothing else to play"
        )
    return IllegalAction(
        Code.WILD_DRAW_FOUR_ILLEGAL, "a Wild Draw Four only without the colour in play"
    )


def _diagnose_play(g: Game, s: int, a: Play) -> IllegalAction:
    rules = g.rules
    hand = g.hands[s]
    mine = s == g.cur
    cards = a.cards
    if not mine and not rules.jump_in:  # the turn first: whatever the card, not now
        return IllegalAction(Code.NOT_YOUR_TURN, f"it is {g.players_[g.cur]}'s turn")
    for c in dict.fromkeys(cards):  # in play order: the same message in every process
        if hand.count(c) < cards.count(c):
            return IllegalAction(Code.CARD_NOT_IN_HAND, f"{c.code} is not in the hand")
    top = g.discard[-1]
    if not mine:
        if a.together:
            return IllegalAction(Code.BAD_COMBINATION, "jump in with one card")
        if a.card is not top:
            return IllegalAction(Code.NOT_IDENTICAL, "jumping in needs the identical card")
        if g.phase_ is not PLAYING or g.first_play or g.pending:
            return IllegalAction(Code.NO_JUMP_IN, "no jumping in right now")
    last = len(cards) == len(hand)
    if mine and last and a.card.rank in _NOT_LAST[rules.last_card]:
        return IllegalAction(Code.NOT_AS_LAST_CARD, f"{a.card.code} may not be the last card")
    if mine and last and g.pending and a.card.rank in (SKIP, REV):
        return IllegalAction(Code.NOT_AS_LAST_CARD, "a deflect is never the last card")
    if a.card.rank is W4 and not _w4_ok(g, hand):
        return _w4_refusal(g)
    if (
        mine
        and g.phase_ is CHALLENGE
        and a.card.rank not in (D2, W4, W)
        and not (rules.deflect == "all" and a.card.rank in (SKIP, REV))
    ):
        return IllegalAction(Code.CHALLENGE_OPEN, "challenge or accept the Wild Draw Four")
    if mine and g.pending and a.card.rank not in (D2, W4, W, SKIP, REV):
        return IllegalAction(Code.PENALTY_PENDING, "stack or accept the pending penalty")
    if mine and g.pending:
        return IllegalAction(Code.CANNOT_STACK, f"{a.card.code} cannot go on this penalty")
    if mine and g.drawn is not None and a.card is not g.drawn:
        return IllegalAction(Code.MUST_PLAY_DRAWN, "only the drawn card may be played")
    if a.together:
        if rules.multi_play == "off":
            return IllegalAction(Code.MULTI_PLAY_OFF, "one card at a time")
        if (
            g.drawn is not None
            or any(c.rank is not a.card.rank for c in a.together)
            or (rules.multi_play == "identical" and any(c is not a.card for c in a.together))
        ):
            return IllegalAction(Code.BAD_COMBINATION, "these cards cannot be played together")
    if mine and g.first_play and not a.card.is_number:
        return IllegalAction(Code.FIRST_PLAY_NUMBER, "open the round with a number card")
    if a.card.rank is W4 and not _w4_ok(g, hand):
        return _w4_refusal(g)
    if len(cards) == len(hand) and a.card.rank in _NOT_LAST[rules.last_card]:
        return IllegalAction(Code.NOT_AS_LAST_CARD, f"{a.card.code} may not be the last card")
    if g.follow:
        color = g.play_color
        trank = None if top.is_wild else top.rank
        off = any(c.color is not color for c in cards if not c.is_wild) or a.card.rank is W
        if off and any(c.is_wild or c.color is color or c.rank is trank for c in cards):
            return IllegalAction(
                Code.FOLLOW_COLOR, "after a taken +2 the next play follows its colour"
            )
    if not _matches(g, a.card, hand) and not (
        a.together and any(_matches(g, c, hand) for c in a.together)
    ):
        return IllegalAction(Code.DOES_NOT_MATCH, f"{a.card.code} does not match")
    if a.card.is_wild:
        return IllegalAction(Code.CHOOSE_COLOR, "name a colour for the wild card")
    if a.color is not None:
        colors = {c.color for c in cards}
        if len(colors) < 2:
            return IllegalAction(Code.NO_COLOR_NEEDED, "this play takes no colour")
        if a.color not in colors:
            return IllegalAction(Code.CHOOSE_COLOR, "choose one of the played colours")
    elif a.together and len({c.color for c in cards}) > 1:
        return IllegalAction(Code.CHOOSE_COLOR, "choose which played colour stays")
    swap = _swap_kind(rules, a.card.rank)
    if swap == "target" and len(cards) < len(hand):
        if (
            a.target is None
            or a.target not in g.seat
            or a.target == g.players_[s]
            or not g.hands[g.seat[a.target]]  # places: out of the round
        ):
            return IllegalAction(Code.CHOOSE_TARGET, "choose a player to swap hands with")
    elif a.target is not None:
        return IllegalAction(Code.NO_TARGET_NEEDED, "this play swaps with nobody")
    return IllegalAction(Code.DOES_NOT_MATCH, f"{a.card.code} cannot be played now")
