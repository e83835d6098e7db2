"""What the whole table saw of the round in play: the public record, folded.

A ``Memory`` is fed every move as it happened (the player, the action, its events as the
public sees them: ``engine.redact(event, None)``) and keeps what a careful player
remembers: the discard pile since the last reshuffle, the colour before the last Wild
Draw Four, who sent the pending penalty, whether the round has opened, and for every card
in every hand the cards it cannot be, learnt from the moves:

- a player who chose to draw held nothing playable then (no card of the colour, none of
  the top card's number or symbol, no wild); a card drawn and not kept for play did not
  fit either;
- a player who took a penalty they could have stacked on held nothing to stack with;
- a Wild Draw Four not found guilty was played holding none of the colour in play (but
  one put on a penalty, or jumped in with, which needs no such right);
- under ``jump_in``, a card that lay on top while anyone could jump in on it, until the
  player to move moved otherwise than with that card, was held by none of the others
  (anyone holding it jumps in: it sheds a card and takes the turn);
- a careful player sheds its action cards before its numbers and keeps its wilds for
  when nothing else fits: one who played a number card in its turn (not the card it had
  just drawn) held no Skip, Reverse or +2 that fitted; one who played a Wild, nothing
  else that fitted but a Wild Draw Four.

These are the inferences a person makes, not certainties (anyone may draw holding a card
that fits): a play that contradicts them drops them for that player. Nothing here sees a
hand: the record is public, and a seat's own hand comes from its ``engine.view``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine import (
    COLORS,
    Accept,
    Action,
    CardPlayed,
    CardsDrawn,
    Challenge,
    ChallengeResolved,
    ChooseColor,
    Color,
    DeckReshuffled,
    Draw,
    Event,
    HandsRotated,
    HandsSwapped,
    Pass,
    Passed,
    PenaltyPassed,
    Play,
    PlayerLeft,
    Rank,
    RoundStarted,
    RoundWon,
    Rules,
)
from engine.cards import ALL_CARDS, Card

__all__ = ["Memory", "Move"]

Move = tuple[str, Action | None, Sequence[Event]]  # who, what, what the public saw

COLOR_MASK = tuple(sum(1 << c.order for c in ALL_CARDS if c.color is col) for col in COLORS)
RANK_MASK = {r: sum(1 << c.order for c in ALL_CARDS if c.rank is r) for r in Rank}
WILDS = RANK_MASK[Rank.WILD] | RANK_MASK[Rank.WILD_DRAW_FOUR]
NUMBERS = sum(1 << c.order for c in ALL_CARDS if c.is_number)
ACTIONS = RANK_MASK[Rank.SKIP] | RANK_MASK[Rank.REVERSE] | RANK_MASK[Rank.DRAW_TWO]


# the ranks nobody may go out on, by ``last_card`` (``engine.play.last_card``)
_ACTION_RANKS = (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO, Rank.WILD, Rank.WILD_DRAW_FOUR)
_NOT_LAST: dict[str, frozenset[Rank]] = {
    "any": frozenset(),
    "play_and_draw": frozenset(),
    "number_only": frozenset(_ACTION_RANKS),
    "no_skip_reverse_wild": frozenset((Rank.SKIP, Rank.REVERSE, Rank.WILD, Rank.WILD_DRAW_FOUR)),
}
_LAST_OK = {
    k: sum(1 << c.order for c in ALL_CARDS if c.rank not in ranks)
    for k, ranks in _NOT_LAST.items()
}
# the moves only the player to move makes (a play of another card than the top one is one)
_IN_TURN = (Play, Draw, Pass, Accept, Challenge, ChooseColor)


def _color_mask(color: Color | None) -> int:
    return COLOR_MASK[COLORS.index(color)] if color is not None else 0


@dataclass
class Memory:
    """The public record of one table's round in play (see the module's docstring)."""

    rules: Rules = field(default_factory=Rules)
    round: int = 0
    players: list[str] = field(default_factory=list)
    # the discard pile bottom to top, since the deal (``None``: not seen from the deal)
    discard: list[Card] | None = None
    color: Color | None = None
    # per player, per card held: a mask (bit ``Card.order``) of the cards it cannot be
    slots: dict[str, list[int]] = field(default_factory=dict)
    opened: bool = False  # a card was played this round (first_play_number)
    pending_kind: Rank | None = None
    pending_from: str | None = None
    pending_by: str | None = None
    # the last Wild Draw Four: who, and the colour and top card it was played on
    last_w4: tuple[str, Color | None, Card] | None = None
    stalled: int = 0
    over: bool = False
    challenge: bool = False  # a Wild Draw Four waits to be challenged or accepted
    drawn_by: str | None = None  # who drew a card they may play now

    def copy(self) -> Memory:
        return Memory(
            rules=self.rules,
            round=self.round,
            players=list(self.players),
            discard=None if self.discard is None else list(self.discard),
            color=self.color,
            slots={p: list(s) for p, s in self.slots.items()},
            opened=self.opened,
            pending_kind=self.pending_kind,
            pending_from=self.pending_from,
            pending_by=self.pending_by,
            last_w4=self.last_w4,
            stalled=self.stalled,
            over=self.over,
            challenge=self.challenge,
            drawn_by=self.drawn_by,
        )

    # -- feeding -------------------------------------------------------------------------

    def feed_all(self, moves: Iterable[Move]) -> None:
        for player, action, events in moves:
            self.feed(player, action, events)

    def feed(self, player: str, action: Action | None, events: Sequence[Event]) -> None:
        """One move: ``player``'s ``action`` (``None`` for a deal) and the events it made,
        as the public saw them. Only public facts are read."""
        before = (self.color, self.top)
        self._after_draw = self.drawn_by == player  # a play now may be of the drawn card
        self.drawn_by = None
        if isinstance(action, _IN_TURN) and not (
            isinstance(action, Play) and self.top is not None and action.card == self.top
        ):
            # the player to move moved: nobody else held the top card to jump in with
            jump = self._jump_card()
            if jump is not None:
                self._nobody_else_holds(player, jump)
        if isinstance(action, Accept | Challenge) and self.pending_kind is not None:
            # they took the penalty (or challenged) rather than stack: nothing to stack
            self._exclude(player, self._stackable(), alone=True)
        drew = isinstance(action, Draw)
        for i, e in enumerate(events):
            if isinstance(e, RoundStarted):
                self._deal(e)
            elif isinstance(e, CardPlayed):
                self._played(e)
            elif isinstance(e, CardsDrawn):
                passed = any(isinstance(x, Passed) for x in events[i + 1 :])
                self._drawn(e, drew and e.player == player, passed, before)
            elif isinstance(e, DeckReshuffled):
                if e.reason == "discard" and self.discard:
                    self.discard = self.discard[-1:]
            elif isinstance(e, PenaltyPassed):
                self.pending_by = e.player
            elif isinstance(e, ChallengeResolved):
                if e.guilty:  # a bluff: what their +4 told about their hand was false
                    self.slots[e.offender] = [0] * len(self.slots.get(e.offender, ()))
                self._clear_penalty()
            elif isinstance(e, PlayerLeft):
                self.slots.pop(e.player, None)
                if e.player in self.players:
                    self.players.remove(e.player)
            elif isinstance(e, HandsSwapped):
                a, b = self.slots.get(e.player, []), self.slots.get(e.target, [])
                self.slots[e.player], self.slots[e.target] = b, a
            elif isinstance(e, HandsRotated):  # each hand passes one seat on
                order = [p for p in self.players if p in self.slots]
                old = [self.slots[p] for p in order]
                for j, held in enumerate(old):
                    self.slots[order[(j + e.direction) % len(order)]] = held
            elif isinstance(e, RoundWon):
                self.over = True

    @property
    def top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def _deal(self, e: RoundStarted) -> None:
        self.round = e.round
        self.players = list(e.players)
        self.discard = [e.top]
        self.color = e.color
        self.slots = {p: [0] * e.hand_size for p in e.players}
        self.opened = False
        self.pending_kind = Rank.DRAW_TWO if e.pending else None
        self.pending_from = e.dealer if e.pending else None
        self.pending_by = None
        self.last_w4 = None
        self.stalled = 0
        self.over = False
        self.challenge = False

    def _played(self, e: CardPlayed) -> None:
        cards = (e.card, *e.together)
        honest = 0  # what an honest Wild Draw Four's player held none of
        if e.card.rank is Rank.WILD_DRAW_FOUR and self.top is not None:
            self.last_w4 = (e.player, self.color, self.top)
            # on a penalty, or as a jump-in, a +4 needs no right to be played (but under
            # no_bluff): it says nothing of the hand
            free = e.jump_in or self.pending_kind is not None
            if self.rules.wild_draw_four == "no_bluff" or (
                self.rules.wild_draw_four == "challenge" and not free
            ):
                honest = self._w4_mask()
        elif not (
            e.together
            or e.jump_in
            or self.pending_kind is not None
            or self._after_draw
            or self.rules.swap != "off"
            or (self.rules.first_play_number and not self.opened)
        ):
            # a play of one card in an ordinary turn: what a careful player would have
            # played rather than this, it did not hold
            fitted = self._playable(self.color, self.top)
            if e.card.is_number:
                honest = fitted & ACTIONS
            elif e.card.rank is Rank.WILD:
                honest = fitted & ~WILDS
        slots = self.slots.get(e.player)
        if slots is not None:
            for c in cards:
                bit = 1 << c.order
                fits = [i for i, m in enumerate(slots) if not m & bit]
                if fits:  # the card it most likely was: the most constrained that fits
                    i = max(fits, key=lambda j: slots[j].bit_count())
                else:  # what we believed was wrong: forget it
                    slots[:] = [0] * len(slots)
                    i = 0
                if slots:
                    del slots[i]
            self._exclude(e.player, honest)
        if self.discard is not None:
            if e.together and e.color is not None and not e.card.is_wild:
                # multi_play=same_rank: the cards of the colour that stays go on top
                cards = tuple(c for c in cards if c.color is not e.color) + tuple(
                    c for c in cards if c.color is e.color
                )
            self.discard.extend(cards)
        self.color = e.color
        self.opened = True
        self.stalled = 0
        self.challenge = (
            e.card.rank is Rank.WILD_DRAW_FOUR and self.rules.wild_draw_four == "challenge"
        )
        if e.card.draw:
            self.pending_kind = e.card.rank
            if e.card.rank is Rank.DRAW_TWO or self.rules.deflect == "all":
                self.pending_from = e.player
            self.pending_by = e.player

    def _drawn(
        self,
        e: CardsDrawn,
        chose: bool,
        passed: bool,
        before: tuple[Color | None, Card | None],
    ) -> None:
        slots = self.slots.setdefault(e.player, [])
        if e.reason in ("penalty", "challenge"):
            self._clear_penalty()
        if e.count == 0:
            self.stalled += 1
        if chose and e.reason == "first_play":  # no number card to open the round with
            self._exclude(e.player, self._playable(*before))
        if not chose or e.reason != "draw":
            slots.extend([0] * e.count)
            return
        fits = self._playable(*before)
        held = fits & self._last_ok() if len(slots) == 1 else fits  # a last card may not fit
        for i in range(len(slots)):  # they drew: nothing they held was playable
            slots[i] |= held
        at_once = fits & ~WILDS & NUMBERS if self.rules.drawn_card == "number_only" else fits
        # drawing until playable: every card but the last did not fit; the last neither
        # when the turn ended at once
        new = [at_once] * (e.count - 1) + [at_once if passed else 0] * min(e.count, 1)
        slots.extend(new)
        if not passed and e.count:
            self.drawn_by = e.player

    def _clear_penalty(self) -> None:
        self.pending_kind = None
        self.pending_from = None
        self.pending_by = None
        self.challenge = False

    def _jump_card(self) -> Card | None:
        """The top card, if anyone holding its twin could jump in with it now
        (``jump_in.jump_ins``: the round opened, no colour to name or +4 to challenge,
        with a penalty pending only a +2 on +2s or a +4 on +4s where they stack)."""
        r = self.rules
        top = self.top
        if (
            not r.jump_in
            or top is None
            or self.over
            or self.challenge
            or self.color is None
            or (r.first_play_number and not self.opened)
            or r.after_penalty != "any"  # the colour to follow: not every twin may
            or (top.rank is Rank.WILD_DRAW_FOUR and r.wild_draw_four == "no_bluff")
        ):
            return None
        kind = self.pending_kind
        if kind is not None and not (
            (top.rank is Rank.DRAW_TWO and kind is Rank.DRAW_TWO)
            or (
                top.rank is Rank.WILD_DRAW_FOUR
                and kind is Rank.WILD_DRAW_FOUR
                and r.stacking in ("draw_four_on_two", "any")
            )
        ):
            return None
        return top

    def _nobody_else_holds(self, mover: str, card: Card) -> None:
        """Every player but ``mover`` holds no ``card`` (but one whose last card it could
        be: it may not go out with it, so it could not jump in)."""
        for p in self.slots:
            if p != mover:
                self._exclude(p, 1 << card.order, alone=True)

    def _exclude(self, player: str, mask: int, alone: bool = False) -> None:
        """Every card ``player`` holds is none of ``mask`` (``alone``: a play of one of
        them; a last card, only if it may be the last)."""
        slots = self.slots.get(player)
        if alone and slots is not None and len(slots) == 1:
            mask &= self._last_ok()
        if not slots or not mask:
            return
        for i in range(len(slots)):
            slots[i] |= mask

    # -- what fitted ---------------------------------------------------------------------

    def _playable(self, color: Color | None, top: Card | None) -> int:
        """The cards a player could have played on ``top`` in ``color``."""
        m = _color_mask(color) | WILDS
        if top is not None and not top.is_wild:
            m |= RANK_MASK[top.rank]
        if not self.opened and self.rules.first_play_number:
            m &= NUMBERS
        return m

    def _last_ok(self) -> int:
        """The cards a player may go out with (``last_card``)."""
        return _LAST_OK[self.rules.last_card]

    def _w4_mask(self) -> int:
        """What an honest Wild Draw Four's player did not hold (``draw_four_when``)."""
        m = _color_mask(self.color)
        top = self.top
        if self.rules.draw_four_when == "no_play" and top is not None and not top.is_wild:
            m |= RANK_MASK[top.rank]
        return m

    def _stackable(self) -> int:
        """The cards the victim of the pending penalty could have put on it."""
        r = self.rules
        if r.stacking == "off":
            return 0
        kind = self.pending_kind
        m = 0
        fours = r.stacking in ("draw_four_on_two", "any")
        if kind is Rank.DRAW_TWO:
            m |= RANK_MASK[Rank.DRAW_TWO]
            if r.deflect != "off":
                m |= _color_mask(self.color) & (RANK_MASK[Rank.SKIP] | RANK_MASK[Rank.REVERSE])
        elif kind is Rank.WILD_DRAW_FOUR:
            if r.stacking == "any":
                m |= _color_mask(self.color) & RANK_MASK[Rank.DRAW_TWO]
            if r.deflect == "all":
                m |= _color_mask(self.color) & RANK_MASK[Rank.REVERSE]
        if fours:
            m |= RANK_MASK[Rank.WILD_DRAW_FOUR]
        if r.wild_on_penalty:
            m |= RANK_MASK[Rank.WILD]
        return m
