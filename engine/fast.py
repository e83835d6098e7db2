"""A fast path for playouts: one round of UNO as a mutable state of small integers, no
events, no action objects, no copies but the ones asked for (``FastRound.copy``).

Search (the ``expert`` bot seat) plays thousands of rounds to their end per decision;
``apply`` validates, copies and reports every step, which is what a table needs and what a
playout does not. ``FastRound`` keeps the same rules for the flags it supports
(``supported``): the listings and effects below mirror ``engine.play``'s, line for line
where a comment names the function, and ``tests/engine/test_fast.py`` checks them step for
step against ``legal_actions`` and ``apply`` over random playouts. Unsupported flags
(``swap``, ``multi_play=same_rank``, ``after_penalty=same_color``, ``places``) are for
``apply`` alone.

Cards are ``Card.order`` (0-53): colour ``c // 13`` for the 52 coloured cards, ``WILD``
(52) and ``WILD4`` (53). A move is ``(card, extra, color)``: ``extra`` identical cards
played with it (``multi_play=identical``), ``color`` the colour a wild names (0-3), or -1.
UNO calls and catches are not modelled: every playout calls UNO with its play.
"""

from __future__ import annotations

from engine.cards import ALL_CARDS, COLORS, Card
from engine.game import Game, Phase
from engine.rng import Rng
from engine.rules import Rules

__all__ = [
    "CARD_COLOR",
    "CARD_RANK",
    "CHALLENGE",
    "CHOOSING",
    "D2",
    "OVER",
    "PLAYING",
    "REV",
    "SKIP",
    "WILD",
    "WILD4",
    "FastRound",
    "Move",
    "supported",
]

Move = tuple[int, int, int]  # (card, extra identical cards, colour named or -1)

# ranks: 0-9 the numbers, then the symbols, as engine.cards orders them
SKIP, REV, D2, W, W4 = 10, 11, 12, 13, 14
WILD, WILD4 = 52, 53
CARD_COLOR: tuple[int, ...] = tuple(c // 13 if c < 52 else -1 for c in range(54))
CARD_RANK: tuple[int, ...] = tuple(
    c % 13 if c < 52 else (W if c == WILD else W4) for c in range(54)
)
_DRAW = tuple(2 if r == D2 else 4 if r == W4 else 0 for r in CARD_RANK)
_POINTS = {
    "standard": tuple(r if r < 10 else 50 if r >= W else 20 for r in CARD_RANK),
    "low": tuple(r if r < 10 else 40 if r == W4 else 20 if r == W else 10 for r in CARD_RANK),
}
_NOT_LAST = {
    "any": frozenset[int](),
    "play_and_draw": frozenset[int](),
    "number_only": frozenset((SKIP, REV, D2, W, W4)),
    "no_skip_reverse_wild": frozenset((SKIP, REV, W, W4)),
}
_RANK_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(54) if CARD_RANK[c] == r) for r in range(15)
)
assert all(ALL_CARDS[i].order == i for i in range(54))

# phases
PLAYING, CHOOSING, CHALLENGE, OVER = 0, 1, 2, 3
_PHASE = {Phase.PLAYING: PLAYING, Phase.CHOOSING_COLOR: CHOOSING, Phase.CHALLENGE: CHALLENGE}


def supported(rules: Rules) -> bool:
    """Whether ``FastRound`` plays these rules exactly as ``apply`` does."""
    return (
        rules.swap == "off"
        and rules.multi_play != "same_rank"
        and rules.after_penalty == "any"
        and not rules.places
    )


class Flags:
    """The flags a playout reads, as plain values (one per Rules)."""

    __slots__ = (
        "challenge",
        "deflect",
        "deflect_all",
        "draw_no_play",
        "fours_stack",
        "free",
        "guilty_plays",
        "identical",
        "jump_in",
        "no_bluff",
        "not_last",
        "number_only_drawn",
        "play_and_draw",
        "points",
        "stack_any",
        "stacking",
        "two_official",
        "until",
        "wild_on_penalty",
    )

    def __init__(self, rules: Rules) -> None:
        self.stacking = rules.stacking != "off"
        self.stack_any = rules.stacking == "any"
        self.fours_stack = rules.stacking in ("draw_four_on_two", "any")
        self.deflect = rules.deflect != "off"
        self.deflect_all = rules.deflect == "all"
        self.jump_in = rules.jump_in
        self.identical = rules.multi_play == "identical"
        self.until = rules.draw == "until_playable"
        self.challenge = rules.wild_draw_four == "challenge"
        self.no_bluff = rules.wild_draw_four == "no_bluff"
        self.free = rules.wild_draw_four == "free"
        self.guilty_plays = rules.guilty_challenger == "plays"
        self.wild_on_penalty = rules.wild_on_penalty
        self.not_last = _NOT_LAST[rules.last_card]
        self.play_and_draw = rules.last_card == "play_and_draw"
        self.two_official = rules.two_player == "official"
        self.draw_no_play = rules.draw_four_when == "no_play"
        self.number_only_drawn = rules.drawn_card == "number_only"
        self.points = _POINTS[rules.card_points]


_FLAGS: dict[int, tuple[Rules, Flags]] = {}


def flags_of(rules: Rules) -> Flags:
    hit = _FLAGS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_FLAGS) > 256:
        _FLAGS.clear()
    f = Flags(rules)
    _FLAGS[id(rules)] = (rules, f)
    return f


class FastRound:
    """One round in play, changed in place. Seats are indices; -1 is "none"."""

    __slots__ = (
        "chal_legal",
        "chal_off",
        "color",
        "cur",
        "direction",
        "discard",
        "draw",
        "drawn",
        "first_play",
        "fl",
        "force_play",
        "hands",
        "n",
        "pby",
        "pending",
        "pfrom",
        "phase",
        "pkind",
        "rng",
        "stalled",
        "winner",
    )

    fl: Flags
    force_play: bool
    n: int
    hands: list[list[int]]
    draw: list[int]  # the next card is the last
    discard: list[int]  # bottom to top
    color: int  # -1 while a colour is to be named
    cur: int
    direction: int
    phase: int
    pending: int
    pkind: int  # D2, W4 or -1
    pfrom: int
    pby: int
    chal_off: int
    chal_legal: bool
    drawn: int
    first_play: bool
    stalled: int
    winner: int
    rng: Rng

    # -- building ------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        hands: list[list[int]],
        draw: list[int],
        discard: list[int],
        *,
        cur: int,
        direction: int,
        color: int,
        phase: int = PLAYING,
        pending: int = 0,
        pkind: int = -1,
        pfrom: int = -1,
        pby: int = -1,
        chal_off: int = -1,
        chal_legal: bool = True,
        drawn: int = -1,
        first_play: bool = False,
        stalled: int = 0,
        seed: int = 0,
    ) -> FastRound:
        r = object.__new__(cls)
        r.fl = flags_of(rules)
        r.force_play = rules.force_play
        r.n = len(hands)
        r.hands = hands
        r.draw = draw
        r.discard = discard
        r.color = color
        r.cur = cur
        r.direction = direction
        r.phase = phase
        r.pending = pending
        r.pkind = pkind
        r.pfrom = pfrom
        r.pby = pby
        r.chal_off = chal_off
        r.chal_legal = chal_legal
        r.drawn = drawn
        r.first_play = first_play
        r.stalled = stalled
        r.winner = -1
        r.rng = Rng(seed)
        return r

    @classmethod
    def from_game(cls, g: Game) -> FastRound:
        """The round ``g`` is playing (every hand and the deck's order: for tests, and for
        playouts from a game whose hidden cards were sampled)."""
        if not supported(g.rules) or g.phase_ not in _PHASE or g.reserve or g.deferred:
            raise ValueError("FastRound does not play this game")
        seat = g.seat
        ch = g.challenge if g.phase_ is Phase.CHALLENGE else None
        r = cls.new(
            g.rules,
            [[c.order for c in h] for h in g.hands],
            [c.order for c in g.draw_pile],
            [c.order for c in g.discard],
            cur=g.cur,
            direction=g.direction_,
            color=COLORS.index(g.play_color) if g.play_color is not None else -1,
            phase=_PHASE[g.phase_],
            pending=g.pending,
            pkind=-1 if g.pending_kind is None else (D2 if g.pending_kind.value == "D2" else W4),
            pfrom=seat.get(g.pending_from, -1) if g.pending_from is not None else -1,
            pby=seat.get(g.pending_by, -1) if g.pending_by is not None else -1,
            chal_off=seat[ch[0]] if ch else -1,
            chal_legal=ch[1] if ch else True,
            drawn=g.drawn.order if g.drawn is not None else -1,
            first_play=g.first_play,
            stalled=g.stalled,
        )
        r.rng = Rng(g.rng.state)
        return r

    def copy(self) -> FastRound:
        r = object.__new__(FastRound)
        r.fl = self.fl
        r.force_play = self.force_play
        r.n = self.n
        r.hands = [h[:] for h in self.hands]
        r.draw = self.draw[:]
        r.discard = self.discard[:]
        r.color = self.color
        r.cur = self.cur
        r.direction = self.direction
        r.phase = self.phase
        r.pending = self.pending
        r.pkind = self.pkind
        r.pfrom = self.pfrom
        r.pby = self.pby
        r.chal_off = self.chal_off
        r.chal_legal = self.chal_legal
        r.drawn = self.drawn
        r.first_play = self.first_play
        r.stalled = self.stalled
        r.winner = self.winner
        r.rng = Rng(self.rng.state)
        return r

    # -- reading -------------------------------------------------------------------------

    def nxt(self, s: int, steps: int = 1) -> int:
        return (s + self.direction * steps) % self.n

    def w4_legal(self, hand: list[int]) -> bool:
        """``matching.w4_fits`` (no colour to follow here)."""
        color = self.color
        if not self.fl.draw_no_play:
            for c in hand:  # noqa: SIM110 - a plain loop is faster than any()
                if CARD_COLOR[c] == color:
                    return False
            return True
        top = self.discard[-1]
        trank = CARD_RANK[top] if top < 52 else -1
        for c in hand:
            if c < 52 and (CARD_COLOR[c] == color or CARD_RANK[c] == trank):
                return False
        return True

    def matches(self, c: int, hand: list[int]) -> bool:
        """``matching.matches``."""
        if c >= 52:
            return c == WILD or not self.fl.no_bluff or self.w4_legal(hand)
        if CARD_COLOR[c] == self.color:
            return True
        top = self.discard[-1]
        return top < 52 and CARD_RANK[c] == CARD_RANK[top]

    def _emit(self, hand: list[int], c: int, extra_max: int, out: list[Move]) -> None:
        """``matching.emit_plays`` for ``c`` alone and with up to ``extra_max`` of its
        identical cards (the last card rule; a wild in each colour)."""
        n_hand = len(hand)
        last_ok = CARD_RANK[c] not in self.fl.not_last
        for x in range(extra_max + 1):
            if x + 1 == n_hand and not last_ok:
                continue
            if c >= 52:
                out.extend(((c, x, 0), (c, x, 1), (c, x, 2), (c, x, 3)))
            else:
                out.append((c, x, -1))

    def turn_plays(self, s: int, out: list[Move]) -> None:
        """``playing.list_turn_plays`` (phase PLAYING, nothing pending, nothing drawn)."""
        hand = self.hands[s]
        fl = self.fl
        color = self.color
        top = self.discard[-1]
        trank = CARD_RANK[top] if top < 52 else -1
        first = self.first_play
        for c in dict.fromkeys(hand):
            if first and CARD_RANK[c] > 9:
                continue  # first_play_number: a number card opens the round
            if CARD_COLOR[c] == color or (c < 52 and CARD_RANK[c] == trank):
                pass
            elif c >= 52:
                if c == WILD4 and fl.no_bluff and not self.w4_legal(hand):
                    continue
            else:
                continue
            self._emit(hand, c, hand.count(c) - 1 if fl.identical else 0, out)

    def stack_plays(self, s: int, out: list[Move]) -> None:
        """``stacking.stack_plays``: what the victim of a pending penalty may play on it."""
        fl = self.fl
        if not fl.stacking:
            return
        hand = self.hands[s]
        kind = self.pkind
        deflects = (kind == D2 and fl.deflect) or (kind == W4 and fl.deflect_all)
        for c in dict.fromkeys(hand):
            r = CARD_RANK[c]
            if r == D2:
                if kind == D2 or (kind == W4 and fl.stack_any and CARD_COLOR[c] == self.color):
                    self._emit(hand, c, hand.count(c) - 1 if fl.identical else 0, out)
            elif r == W4:
                if fl.fours_stack and (not fl.no_bluff or self.w4_legal(hand)):
                    self._emit(hand, c, hand.count(c) - 1 if fl.identical else 0, out)
            elif r == W:
                if fl.wild_on_penalty and (len(hand) > 1 or W not in fl.not_last):
                    self._emit(hand, c, 0, out)
            elif (
                deflects
                and (r in (SKIP, REV))
                and (r == REV or kind == D2)
                and CARD_COLOR[c] == self.color
                and len(hand) > 1
                and (r == SKIP or self.bounce_target(s) >= 0)
            ):
                out.append((c, 0, -1))

    def bounce_target(self, s: int) -> int:
        """``stacking.bounce_target``."""
        for p in (self.pfrom, self.pby):
            if p >= 0 and p != s and self.hands[p]:
                return p
        return -1

    def jump_ins(self, s: int, out: list[Move]) -> None:
        """``jump_in.jump_ins`` (the caller checked ``jump_in_open``)."""
        hand = self.hands[s]
        top = self.discard[-1]
        if top not in hand:
            return
        if self.pending and not (
            (CARD_RANK[top] == D2 and self.pkind == D2)
            or (top == WILD4 and self.pkind == W4 and self.fl.fours_stack)
        ):
            return
        if top == WILD4 and self.fl.no_bluff and not self.w4_legal(hand):
            return
        self._emit(hand, top, 0, out)

    def jump_in_open(self) -> bool:
        return self.phase == PLAYING and self.fl.jump_in and not self.first_play

    def plays(self, s: int) -> list[Move]:
        """``playing.list_plays``: every play seat ``s`` may make now."""
        out: list[Move] = []
        if s != self.cur:
            if self.jump_in_open():
                self.jump_ins(s, out)
            return out
        ph = self.phase
        if ph in (CHOOSING, OVER):
            return out
        if ph == CHALLENGE or self.pending:
            self.stack_plays(s, out)
        elif self.drawn >= 0:
            d = self.drawn
            if self.matches(d, self.hands[s]):
                self._emit(self.hands[s], d, 0, out)
        else:
            self.turn_plays(s, out)
        return out

    def may_draw(self) -> bool:
        """``drawing.draw_refusal`` for the current player (the first play of
        ``first_play_number``: only without a number card to play)."""
        if self.phase != PLAYING or self.pending or self.drawn >= 0:
            return False
        if self.first_play:
            return not self.plays(self.cur)
        return True

    def may_pass(self) -> bool:
        """``drawing.pass_refusal`` for the current player."""
        if self.phase != PLAYING or self.drawn < 0 or self.pending:
            return False
        if self.force_play:
            hand = self.hands[self.cur]
            bluff = self.drawn == WILD4 and self.fl.challenge and not self.w4_legal(hand)
            if not bluff and self.plays(self.cur):
                return False
        return True

    # -- changing ------------------------------------------------------------------------

    def take(self) -> int:
        """``base.take``: the next card, the discard pile reshuffled when the draw pile is
        empty; -1 when both are used up."""
        draw = self.draw
        if not draw:
            if len(self.discard) <= 1:
                return -1
            pile = self.discard[:-1]
            self.discard = [self.discard[-1]]
            self.rng.shuffle(pile)
            self.draw = draw = pile
        return draw.pop()

    def give(self, s: int, k: int) -> int:
        hand = self.hands[s]
        got = 0
        for _ in range(k):
            c = self.take()
            if c < 0:
                break
            hand.append(c)
            got += 1
        return got

    def clear_penalty(self) -> None:
        self.pending = 0
        self.pkind = -1
        self.pfrom = -1
        self.pby = -1
        self.chal_off = -1
        self.phase = PLAYING

    def end_round(self, s: int) -> None:
        self.winner = s
        self.cur = s
        self.drawn = -1
        self.clear_penalty()
        self.phase = OVER

    def play(self, s: int, card: int, extra: int, color: int) -> None:
        """``playing.do_play``: seat ``s`` plays ``card`` and ``extra`` identical cards
        (in turn, or out of turn as a jump-in); a wild names ``color``."""
        fl = self.fl
        hand = self.hands[s]
        rank = CARD_RANK[card]
        k = 1 + extra
        for _ in range(k):
            hand.remove(card)
        w4_legal = rank != W4 or self.w4_legal(hand)
        self.discard.extend((card,) * k)
        self.cur = s
        self.drawn = -1
        self.first_play = False
        self.stalled = 0
        # 0 a normal play; on a penalty 1 a stack, 2 a deflect, 3 a Wild passing it
        kind = (2 if rank in (SKIP, REV) else 3 if rank == W else 1) if self.pending else 0
        self.chal_off = -1
        self.phase = PLAYING
        new_color = color if card >= 52 else CARD_COLOR[card]
        if not hand:
            if fl.play_and_draw and rank > 9:
                self.give(s, 1)  # last_card=play_and_draw: an action card or wild draws one
            if not hand:
                self.color = new_color
                victim = self.pending + (k * _DRAW[card] if kind <= 1 else 0)
                self.clear_penalty()
                if victim:
                    self.give(self.nxt(s), victim)
                self.end_round(s)
                return
        self.color = new_color
        if kind == 0 and rank <= 9:
            self.cur = (s + self.direction) % self.n
            return
        self.resolve(s, rank, k, kind, w4_legal)

    def resolve(self, s: int, rank: int, k: int, kind: int, w4_legal: bool) -> None:
        """``playing.resolve``."""
        n = self.n
        two = n == 2 and self.fl.two_official
        if kind == 2:  # stacking.do_deflect
            if rank == SKIP:
                to = self.nxt(s)
            else:
                if not two:
                    self.direction = -self.direction
                to = self.bounce_target(s)
            self.cur = to
            self.pby = s
            return
        if kind == 3:  # stacking.do_wild_pass
            self.cur = self.nxt(s)
            self.pby = s
            return
        if rank in (D2, W4):  # stacking.do_penalty_card
            fl = self.fl
            self.pending += k * (2 if rank == D2 else 4)
            self.pkind = rank
            if rank == D2 or fl.deflect_all:
                self.pfrom = s
            challengeable = rank == W4 and fl.challenge
            v = self.nxt(s)
            if not fl.stacking and not challengeable:
                self.draw_at_once(v)
            else:
                self.cur = v
                self.pby = s
                if challengeable:
                    self.phase = CHALLENGE
                    self.chal_off = s
                    self.chal_legal = w4_legal
            return
        if rank == SKIP or (rank == REV and two):
            k = min(k, n - 1)
            self.cur = self.nxt(s, k + 1)
            return
        if rank == REV and k % 2 == 1:
            self.direction = -self.direction
        self.cur = self.nxt(s)

    def draw_at_once(self, v: int) -> None:
        """``penalty.draw_at_once``."""
        total = self.pending
        self.clear_penalty()
        self.give(v, total)
        self.cur = self.nxt(v)

    def do_draw(self, s: int) -> None:
        """``drawing.do_draw`` for the current player ``s``."""
        if self.first_play:
            self.first_play = False
            self.give(s, 2)
            self.cur = self.nxt(s)
            return
        hand = self.hands[s]
        fl = self.fl
        got = -1
        playable = False
        while True:
            c = self.take()
            if c < 0:
                break
            got = c
            hand.append(c)
            playable = self.matches(c, hand)
            if playable and CARD_RANK[c] > 9 and fl.number_only_drawn:
                playable = False
            if playable or not fl.until:
                break
        if got < 0:
            if self.stall(s):
                return
        else:
            self.stalled = 0
            if playable:
                self.drawn = got
                return
        self.cur = self.nxt(s)

    def stall(self, s: int) -> bool:
        """``scoring.stall``: both piles empty; the round ends when everyone found so."""
        self.stalled += 1
        if self.stalled < self.n:
            return False
        pts = self.fl.points
        order = [(s + self.direction * i) % self.n for i in range(self.n)]
        best = min(order, key=lambda i: sum(pts[c] for c in self.hands[i]))
        self.end_round(best)
        return True

    def do_pass(self, s: int) -> None:
        self.drawn = -1
        self.cur = self.nxt(s)

    def accept(self, s: int) -> None:
        """``penalty.do_accept``."""
        total = self.pending
        self.clear_penalty()
        self.give(s, total)
        self.cur = self.nxt(s)

    def do_challenge(self, s: int) -> None:
        """``penalty.do_challenge``."""
        off, legal = self.chal_off, self.chal_legal
        total = self.pending
        self.clear_penalty()
        if not legal:
            self.give(off, total)
            self.cur = s if self.fl.guilty_plays else self.nxt(s)
        else:
            self.give(s, total + 2)
            self.cur = self.nxt(s)

    def choose_color(self, color: int) -> None:
        """``color.do_choose_color`` on a wild start card (the only colour a playout is
        asked for: its plays name theirs)."""
        self.color = color
        self.phase = PLAYING

    def points(self, s: int) -> int:
        pts = self.fl.points
        return sum(pts[c] for c in self.hands[s])


def card_of(c: int) -> Card:
    return ALL_CARDS[c]
