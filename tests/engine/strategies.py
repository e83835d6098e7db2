"""Hypothesis strategies for the engine's tests, and their plain-``random`` twins.

Every generator here is written once against a small *picker* (``choice``, ``integer``,
``chance``): the hypothesis strategy picks with ``draw`` (so examples shrink), the twin
picks with a ``random.Random`` (so long random playouts are cheap and reproducible by
seed). Both respect the model's validation:

- ``deflect`` and ``wild_on_penalty`` with any ``stacking`` (without it they are accepted
  and have nothing to act on: ``check_listing`` and ``check_step`` say so);
- ``places`` never with ``partners`` (a partners round ends when one partner goes out);
- ``players * hand_size <= 108 * decks - 4 * decks - 1`` (a start card must remain);
- ``partners`` only with 4 or 6 players.

The random-play chooser used by the playouts and the property tests also lives here
(``choose_step``): the current player acts most of the time, out-of-turn actions
(catches, calls, jump-ins) happen sometimes, timeouts now and then, and ``Leave`` rarely.
So do the invariants that both check after a step (``check_*``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

import engine
from engine import (
    Accept,
    CallUno,
    CardsDrawn,
    CatchUno,
    Challenge,
    ChallengeResolved,
    ChooseColor,
    Color,
    Draw,
    Game,
    GameWon,
    Leave,
    NextRound,
    Pass,
    Phase,
    Play,
    RoundStarted,
    RoundWon,
    Rules,
    Timeout,
    full_deck,
    legal_actions,
    redact,
    view,
)
from engine.actions import ACTION_TYPES

T = TypeVar("T")

ALL_CARDS: tuple[engine.Card, ...] = tuple(dict.fromkeys(full_deck()))
"""The 54 distinct cards, in deck order."""
CARD_CODES: tuple[str, ...] = tuple(str(c) for c in ALL_CARDS)
COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
PRESET_NAMES: tuple[str, ...] = ("official", "house", "party")

# Every flag of docs/rules.md section 2 with the values the model accepts.
CHOICE_FLAGS: dict[str, tuple[Any, ...]] = {
    "stacking": ("off", "draw_two", "draw_four_on_two", "any"),
    "jump_in": (False, True),
    "multi_play": ("off", "identical", "same_rank"),
    "swap": ("off", "seven_zero", "five"),
    "draw": ("one", "until_playable"),
    "force_play": (False, True),
    "wild_draw_four": ("challenge", "no_bluff", "free"),
    "guilty_challenger": ("plays", "skipped"),
    "last_card": ("any", "number_only", "play_and_draw", "no_skip_reverse_wild"),
    "first_play_number": (False, True),
    "scoring": ("winner_takes", "penalty"),
    "card_points": ("standard", "low"),
    "partners": (False, True, "rotate"),
    "two_player": ("official", "plain"),
    "decks": (1, 2),
    "dealer": ("draw_high", "creator", "high_plays_first"),
    # issue 14
    "draw_four_when": ("no_color", "no_play"),
    "after_penalty": ("any", "same_color"),
    "drawn_card": ("any", "number_only"),
    "uno_call": ("after_play", "with_play"),
    "color_timeout": ("random", "keep"),
    "places": (False, True),
    "start_reverse": ("dealer", "right_of_dealer"),
    "absent": ("remove", "autopilot"),
}
# flags that act only on a stacked penalty: accepted (and inactive) without stacking
NEEDS_STACKING: dict[str, tuple[Any, ...]] = {
    "deflect": ("off", "draw_two", "all"),
    "wild_on_penalty": (False, True),
}
INT_FLAGS: dict[str, tuple[int, int]] = {
    "uno_penalty": (0, 8),
    "false_uno_penalty": (0, 8),
    "target": (0, 100_000),
    "hand_size": (3, 15),
    "turn_seconds": (1, 7 * 24 * 3600),
    "afk_strikes": (0, 20),
    "uno_window_seconds": (0, 600),
    "challenge_seconds": (1, 3600),
}
ALL_FLAGS: tuple[str, ...] = (*CHOICE_FLAGS, *NEEDS_STACKING, *INT_FLAGS)

# Opaque player ids of the kinds the service uses, and a few odd ones.
PLAYER_IDS: tuple[str, ...] = (
    "tg:101",
    "dc:456",
    "alice",
    "tg:-1002",
    "dc:7",
    "bob smith",
    "ünï",
    "tg:9",
    "x",
    "dc:0",
    "p10",
    "p11",
    "p12",
    "p13",
    "p14",
    "p15",
    "p16",
    "p17",
    "p18",
    "p19",
)
UNKNOWN_IDS: tuple[str, ...] = ("nobody", "", "tg:000", "ALICE")


# Things that are not actions at all.
JUNK: tuple[Any, ...] = (
    None,
    0,
    "Draw",
    "R5",
    Draw,  # the class, not an instance
    ALL_CARDS[5],
    Color.RED,
    ("play", "R5"),
    {},
    object(),
    1.5,
)


class Picker(Protocol):
    def choice(self, seq: Sequence[T]) -> T: ...

    def integer(self, lo: int, hi: int) -> int: ...

    def chance(self, p: float) -> bool: ...


class RandomPicker:
    """Picks with a ``random.Random``."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.rnd.randrange(len(seq))]

    def integer(self, lo: int, hi: int) -> int:
        return self.rnd.randint(lo, hi)

    def chance(self, p: float) -> bool:
        return self.rnd.random() < p


class DrawPicker:
    """Picks with hypothesis' ``draw`` (shrinks towards the first choice / ``False``)."""

    def __init__(self, draw: Callable[[st.SearchStrategy[Any]], Any]) -> None:
        self.draw = draw

    def choice(self, seq: Sequence[T]) -> T:
        return self.draw(st.sampled_from(seq))  # type: ignore[no-any-return]

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))  # type: ignore[no-any-return]

    def chance(self, p: float) -> bool:
        return self.draw(st.integers(0, 999)) >= 1000 - round(p * 1000)  # type: ignore[no-any-return]


# ----------------------------------------------------------------------------- rules


def build_rules(pick: Picker, overrides: dict[str, Any] | None = None) -> Rules:
    """A valid ``Rules`` with every flag picked; ``overrides`` fixes some flags (a value,
    or a list/tuple of values to pick from)."""
    fixed = dict(overrides or {})

    def value(flag: str, default: Callable[[], Any]) -> Any:
        if flag in fixed:
            v = fixed[flag]
            return pick.choice(v) if isinstance(v, (list, tuple)) else v
        return default()

    v: dict[str, Any] = {}
    for flag, options in CHOICE_FLAGS.items():
        v[flag] = value(flag, lambda options=options: pick.choice(options))
    for flag, options in NEEDS_STACKING.items():
        v[flag] = value(flag, lambda options=options: pick.choice(options))
    if v["places"] and v["partners"]:  # refused together: keep whichever was fixed
        if "places" in fixed and "partners" not in fixed:
            v["partners"] = False
        else:
            v["places"] = False
    for flag, (lo, hi) in INT_FLAGS.items():
        if flag == "target":  # mostly small targets, sometimes anything
            v[flag] = value(
                flag,
                lambda lo=lo, hi=hi: (
                    pick.choice((0, 50, 100, 500)) if pick.chance(0.8) else pick.integer(lo, hi)
                ),
            )
        else:
            v[flag] = value(flag, lambda lo=lo, hi=hi: pick.integer(lo, hi))
    return Rules(**v)


def random_rules(rnd: random.Random, **overrides: Any) -> Rules:
    """``rules()``'s twin for plain-random playouts."""
    return build_rules(RandomPicker(rnd), overrides)


@st.composite
def _rules(draw: Callable[[st.SearchStrategy[Any]], Any], overrides: dict[str, Any]) -> Rules:
    resolved = {
        k: draw(v) if isinstance(v, st.SearchStrategy) else v for k, v in overrides.items()
    }
    return build_rules(DrawPicker(draw), resolved)


def rules(**overrides: Any) -> st.SearchStrategy[Rules]:
    """A valid ``engine.Rules`` drawing every flag of docs/rules.md section 2.

    ``overrides`` fix flags: a value, a list of values, or a strategy."""
    return _rules(overrides)


def valid_player_counts(r: Rules, most: int | None = None) -> list[int]:
    """Player counts a game with rules ``r`` can seat (capped at ``most``)."""
    top = 10 * r.decks if most is None else min(most, 10 * r.decks)
    spare = 108 * r.decks - 4 * r.decks - 1
    counts = [n for n in range(2, top + 1) if n * r.hand_size <= spare]
    if r.partners:
        counts = [n for n in counts if n in (4, 6)]
    return counts


def player_counts(r: Rules, most: int | None = None) -> st.SearchStrategy[int]:
    """How many players a game with rules ``r`` may seat."""
    return st.sampled_from(valid_player_counts(r, most))


def random_player_count(rnd: random.Random, r: Rules, most: int | None = None) -> int:
    return rnd.choice(valid_player_counts(r, most))


def player_ids(n: int) -> list[str]:
    return list(PLAYER_IDS[:n])


def cards() -> st.SearchStrategy[engine.Card]:
    """Any of the 54 distinct cards."""
    return st.sampled_from(ALL_CARDS)


def card_codes() -> st.SearchStrategy[str]:
    """The code of any card (``R0``..``B9``, ``GS``, ``BR``, ``YD2``, ``W``, ``W4``)."""
    return st.sampled_from(CARD_CODES)


# ---------------------------------------------------------------------------- actions

_KINDS = (
    "play",
    "play",
    "play",
    "near",
    "near",
    "near",
    "draw",
    "pass",
    "accept",
    "challenge",
    "choose",
    "call",
    "catch",
    "leave",
    "next",
    "timeout",
    "junk",
)


def _near_miss(pick: Picker, game: Game, ids: Sequence[str], held: list[Any]) -> Any:
    """A listed play of a player (the current one mostly) with one field changed (often
    still legal)."""
    cur = game.current
    who = cur if cur is not None and pick.chance(0.7) else pick.choice(game.players)
    plays = [a for a in legal_actions(game, who) if isinstance(a, Play)]
    if not plays:
        return None
    a = pick.choice(plays)
    card, color, target, together, uno = a.card, a.color, a.target, a.together, a.uno
    field = pick.choice(("color", "target", "together", "card", "uno", "none"))
    if field == "color":
        color = None if color is not None and pick.chance(0.5) else pick.choice(COLORS)
    elif field == "target":
        target = None if target is not None and pick.chance(0.5) else pick.choice(ids)
    elif field == "together":
        if together and pick.chance(0.5):
            together = together[:-1]
        else:
            together = (*together, pick.choice(held or ALL_CARDS))
    elif field == "card":
        card = pick.choice(held or ALL_CARDS)
    elif field == "uno":
        uno = not uno
    return Play(card, color=color, target=target, together=together, uno=uno)


def build_action(pick: Picker, game: Game) -> Any:
    """An arbitrary action (mostly illegal), or something that is no action at all."""
    ids = (*game.players, *UNKNOWN_IDS)
    cur = game.current
    mine = game.hand(cur) if cur is not None else []
    held = [c for p in game.players for c in game.hand(p)]
    kind = pick.choice(_KINDS)

    def card() -> Any:
        if mine and pick.chance(0.5):
            c = pick.choice(mine)
        elif held and pick.chance(0.5):
            c = pick.choice(held)
        else:
            c = pick.choice(ALL_CARDS)
        return str(c) if pick.chance(0.2) else c  # actions accept codes too

    if kind == "near":
        near = _near_miss(pick, game, ids, held)
        if near is not None:
            return near
        kind = "play"
    if kind == "play":
        color = pick.choice(COLORS) if pick.chance(0.5) else None
        target = pick.choice(ids) if pick.chance(0.3) else None
        together = tuple(card() for _ in range(pick.integer(0, 3))) if pick.chance(0.3) else ()
        return Play(card(), color=color, target=target, together=together, uno=pick.chance(0.3))
    if kind == "draw":
        return Draw()
    if kind == "pass":
        return Pass()
    if kind == "accept":
        return Accept()
    if kind == "challenge":
        return Challenge()
    if kind == "choose":
        return ChooseColor(pick.choice(COLORS))
    if kind == "call":
        return CallUno()
    if kind == "catch":
        return CatchUno(pick.choice(ids))
    if kind == "leave":
        return Leave()
    if kind == "next":
        return NextRound()
    if kind == "timeout":
        return Timeout(window=pick.choice(("turn", "uno", "garbage")))
    return pick.choice(JUNK)


@st.composite
def _actions(draw: Callable[[st.SearchStrategy[Any]], Any], game: Game) -> Any:
    return build_action(DrawPicker(draw), game)


def actions(game: Game) -> st.SearchStrategy[Any]:
    """Arbitrary actions for ``game``: ``Play`` with random cards (held ones mostly),
    colours, targets (seated and unknown ids), ``together`` and ``uno``; ``Draw``,
    ``Pass``, ``Accept``, ``Challenge``, ``ChooseColor``, ``CallUno``, ``CatchUno``,
    ``Leave``, ``NextRound``, ``Timeout`` (``turn``/``uno``/``garbage``), and non-actions."""
    return _actions(game)


def random_action(rnd: random.Random, game: Game) -> Any:
    return build_action(RandomPicker(rnd), game)


# ------------------------------------------------------------------ accepted actions


def listed_form(game: Game, player: str, action: Any) -> bool:
    """Whether the contract says ``apply`` accepts ``action`` by ``player`` because of the
    listing: listed, a listed ``Play`` with ``uno=True``, a wild ``Play`` with
    ``color=None`` whose coloured form is listed, or a ``same_rank`` play of several colours
    with ``color=None`` whose form in the lead card's colour is listed. (``Timeout`` is
    judged apart.)"""
    if not isinstance(action, ACTION_TYPES) or isinstance(action, Timeout):
        return False
    listed = legal_actions(game, player)
    if action in listed:
        return True
    if not isinstance(action, Play):
        return False
    plain = Play(action.card, action.color, action.target, action.together, uno=False)
    if plain in listed:
        return True
    if action.color is None and action.card.is_wild:
        return any(
            Play(action.card, c, action.target, action.together, uno=False) in listed
            for c in COLORS
        )
    if (
        action.color is None
        and not action.card.is_wild
        and any(c.color is not action.card.color for c in action.together)
    ):  # same_rank in several colours, no colour: the lead card's stays
        lead = Play(action.card, action.card.color, action.target, action.together)
        return lead in listed
    return False


# ------------------------------------------------------------------------ random play


def _variant(rnd: random.Random, game: Game, player: str, a: Any) -> Any:
    """Sometimes use the accepted unlisted forms of a listed ``Play``."""
    if isinstance(a, Play):
        if a.card.is_wild and rnd.random() < 0.15:
            return Play(a.card, None, a.target, a.together, uno=rnd.random() < 0.5)
        mixed = any(c.color is not a.card.color for c in a.together)
        if a.color is a.card.color and mixed and not a.card.is_wild and rnd.random() < 0.3:
            return Play(a.card, None, a.target, a.together)  # the lead's colour stays
        if game.hand_size(player) - len(a.cards) == 1 and rnd.random() < 0.6:
            return Play(a.card, a.color, a.target, a.together, uno=True)
    return a


def choose_step(
    rnd: random.Random, game: Game, *, leave: float = 0.001, timeout: float = 0.03
) -> tuple[str, Any]:
    """One step of biased random play: ``(player, action)``.

    The current player acts most of the time (a play when one is listed, 85%);
    out-of-turn actions (jump-ins, catches, calls) sometimes; timeouts now and then;
    ``Leave`` rarely; between rounds a random seated player deals the next round."""
    players = game.players
    r = rnd.random()
    if r < leave:
        return rnd.choice(players), Leave()
    cur = game.current
    if cur is None:  # between rounds
        return rnd.choice(players), NextRound()
    r -= leave
    if r < timeout:
        return cur, Timeout()
    r -= timeout
    exposed = game.exposed_players
    if exposed and r < 0.01:
        return rnd.choice(exposed), Timeout(window="uno")
    if r < 0.12:
        other = rnd.choice(players)
        if other != cur:
            acts = [a for a in legal_actions(game, other) if not isinstance(a, Leave)]
            # false alarms (false_uno_penalty) cost cards: make them rare
            good = [a for a in acts if not isinstance(a, (CallUno, CatchUno))]
            good += [a for a in acts if isinstance(a, CatchUno) and a.target in exposed]
            if game.hand_size(other) == 1:
                good += [a for a in acts if isinstance(a, CallUno)]
            if good or (acts and rnd.random() < 0.05):
                return other, _variant(rnd, game, other, rnd.choice(good or acts))
    acts = [a for a in legal_actions(game, cur) if not isinstance(a, Leave)]
    plays = [a for a in acts if isinstance(a, Play)]
    if plays and rnd.random() < 0.85:
        return cur, _variant(rnd, game, cur, rnd.choice(plays))
    turn = [a for a in acts if not isinstance(a, (CallUno, CatchUno))]
    return cur, rnd.choice(turn or acts)


# ----------------------------------------------------------------------------- checks
# Invariants checked after every step by the playouts and after every accepted action by
# the property tests. ``ctx`` says where (formatted only when a check fails).

DECKS = {1: Counter(full_deck(1)), 2: Counter(full_deck(2))}


def check_cards(game: Game, ctx: Any) -> None:
    """hands + draw pile + discard == the full deck, as a multiset."""
    # The contract exposes only the piles' sizes; their content is read from the state.
    draw, discard = game.draw_pile, game.discard
    assert len(draw) == game.draw_pile_size, ctx
    assert len(discard) == game.discard_pile_size >= 1, ctx
    cards = Counter(draw)
    cards.update(discard)
    for p in game.players:
        cards.update(game.hand(p))
    expected = DECKS[game.rules.decks]
    if not dict.__eq__(cards, expected):  # plain dict equality: fast, and no zero counts
        raise AssertionError(
            f"cards not accounted for ({ctx}): missing {dict(expected - cards)}, "
            f"extra {dict(cards - expected)}"
        )


def check_views(game: Game, ctx: Any, who: list[str] | None = None) -> None:
    """The public view has no hand; each player's view (of ``who``, default everyone)
    holds their own hand only, and everyone's card counts."""
    public = view(game, None)
    assert public.hand is None, ctx
    assert public.drawn is None, ctx
    counts = {p: len(game.hand(p)) for p in game.players}
    assert public.counts == counts, ctx
    for p in game.players if who is None else who:
        if p not in counts:
            continue
        v = view(game, p)
        assert v.hand == tuple(game.hand(p)), ctx
        assert v.counts == counts, ctx
        assert v.top is game.top, ctx
        assert v.current == game.current and v.phase is game.phase, ctx
        assert v.pending_draw == game.pending_draw and v.color is game.color, ctx
        assert v.direction == game.direction and v.scores == game.scores, ctx
        assert list(v.players) == game.players, ctx
        assert v.draw_pile_size == game.draw_pile_size, ctx
        assert v.discard_pile_size == game.discard_pile_size, ctx
        if v.drawn is not None:  # the viewer's own drawn card, on their own turn only
            assert p == game.current, ctx
            assert v.drawn in v.hand, ctx


def check_events(events: list[Any], players: list[str], ctx: Any) -> None:
    """Events are complete; their public redaction carries no card of a hand, a player's
    redaction only their own cards."""
    viewers = [*players, "nobody"]
    for e in events:
        pub = redact(e, None)
        assert type(pub) is type(e), ctx
        if isinstance(e, CardsDrawn):
            assert e.cards is not None and len(e.cards) == e.count, (ctx, e)
            assert pub.cards is None, (ctx, e)
            for q in viewers:
                seen = redact(e, q).cards
                assert seen == (e.cards if q == e.player else None), (ctx, q, e)
        elif isinstance(e, ChallengeResolved):
            assert e.hand is not None, (ctx, e)
            assert pub.hand is None, (ctx, e)
            for q in viewers:
                seen = redact(e, q).hand
                assert seen == (e.hand if q in (e.challenger, e.offender) else None), (ctx, q)
        elif isinstance(e, RoundStarted):
            assert set(e.hands) == set(e.players), (ctx, e)
            assert all(len(h) == e.hand_size for h in e.hands.values()), (ctx, e)
            assert pub.hands == {}, (ctx, e)
            for q in viewers:
                seen = redact(e, q).hands
                assert seen == ({q: e.hands[q]} if q in e.hands else {}), (ctx, q)
        else:
            assert pub == e, (ctx, e)


def check_state(game: Game, ctx: Any) -> None:
    """What the game says of itself is consistent (ENGINE.md "Reading a game")."""
    phase = game.phase
    assert game.direction in (1, -1), ctx
    if phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        assert game.current is None and game.pending_draw == 0, ctx
        assert (game.winner is not None) == (phase is Phase.GAME_OVER), ctx
        return
    assert game.winner is None, ctx
    assert game.current in game.players, ctx
    for p in game.players:  # places: those out of the round; or naming their last wild's colour
        if not game.hand(p):
            chooser = p == game.current and phase is Phase.CHOOSING_COLOR
            assert game.rules.places and (p in game.places or chooser), f"empty hand ({ctx})"
    if game.rules.places:
        assert all(not game.hand(p) for p in game.places), ctx
        assert game.current not in game.places, ctx
        assert len(set(game.places)) == len(game.places), ctx
    assert (game.color is None) == (phase is Phase.CHOOSING_COLOR), ctx
    if phase is Phase.CHALLENGE:
        assert str(game.top) == "W4" and game.pending_draw >= 4, ctx
    for q in game.exposed_players:  # one card, no call: catchable by everyone else
        assert len(game.hand(q)) == 1, ctx


def check_outcome(game: Game, new: Game, events: list[Any], ctx: Any) -> None:
    """Scores never go down; a round or the game ends exactly when its event says so."""
    for p in new.players:
        assert new.scores[p] >= game.scores.get(p, 0), ctx
    won = [e for e in events if isinstance(e, GameWon)]
    if game.winner is None and new.winner is not None:
        assert [e.player for e in won] == [new.winner], ctx
        assert new.phase is Phase.GAME_OVER, ctx
    else:
        assert won == [] and new.winner == game.winner, ctx
    ended = any(isinstance(e, RoundWon) for e in events)
    if new.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and game.current is not None:
        assert ended or won, ctx  # a round ends with RoundWon (or the game with GameWon)
    if ended:
        assert new.phase in (Phase.ROUND_OVER, Phase.GAME_OVER), ctx
        assert new.current is None, ctx
        check_scoring(game, new, events, ctx)
    for e in won:
        assert e.scores == new.scores, ctx


POINTS = {
    "standard": {"S": 20, "R": 20, "D2": 20, "W": 50, "W4": 50},
    "low": {"S": 10, "R": 10, "D2": 10, "W": 20, "W4": 40},
}


def card_points(card: engine.Card, table: str) -> int:
    """docs/rules.md "Scoring" and flag ``card_points``."""
    return card.number if card.is_number else POINTS[table][card.rank.value]


def check_scoring(game: Game, new: Game, events: list[Any], ctx: Any) -> None:
    """A round's scores (docs/rules.md "Scoring", flags ``scoring``, ``card_points``,
    ``partners``): hand values, the winner's points, everyone's new totals."""
    (rw,) = [e for e in events if isinstance(e, RoundWon)]
    r = new.rules
    assert new.round_winner == rw.player, ctx
    assert rw.scores == new.scores, ctx
    hp = {p: sum(card_points(c, r.card_points) for c in new.hand(p)) for p in new.players}
    if r.places:
        # the round's points as they stood when the first player went out; everyone placed
        assert sorted(rw.places) == sorted(new.players), (ctx, rw)
        assert rw.places[0] == rw.player, (ctx, rw)
        assert set(rw.hand_points) == set(hp), (ctx, rw)
        if rw.reason == "out":  # the last one left still holds cards; the others none
            assert all(not new.hand(p) for p in rw.places[:-1]), (ctx, rw)
        hp = dict(rw.hand_points)
    else:
        assert rw.places == (), (ctx, rw)
    assert rw.hand_points == hp, (ctx, rw)

    def team(p: str) -> list[str]:
        mate = new.partner_of(p) if r.partners else None
        return [p] if mate is None or mate not in hp else [p, mate]

    mates = team(rw.player)
    losers = [p for p in new.players if p not in mates]
    if r.scoring == "winner_takes":
        assert rw.points == sum(hp[p] for p in losers), (ctx, rw)
    for p in new.players:
        gained = new.scores[p] - game.scores.get(p, 0)
        if r.scoring == "winner_takes":
            expected = rw.points if p in mates else 0
        else:
            expected = 0 if p in mates else sum(hp[q] for q in team(p))
        assert gained == expected, (ctx, p, rw)


def check_listing(game: Game, p: str, listed: list[Any], ctx: Any) -> None:
    """What a listing may hold, by the rules (docs/rules.md, docs/engine.md): jump-ins are the
    identical card; an in-turn play matches; a drawn card is the only play; no play and no
    draw while a colour is named; Challenge only on a W4 under ``challenge``; targets only
    on swap cards; wild plays always name their colour; ``together`` per ``multi_play``."""
    r = game.rules
    phase = game.phase
    cur = game.current
    top = game.top
    hand = game.hand(p) if p in game.players else []
    plays = [a for a in listed if isinstance(a, Play)]
    kinds = {type(a) for a in listed}
    if p != cur:
        assert not kinds & {Draw, Pass, Accept, Challenge, ChooseColor}, (ctx, listed)
        for a in plays:  # a jump-in: the identical card, alone, in phase PLAYING
            assert r.jump_in and phase is Phase.PLAYING, (ctx, a)
            assert a.card is top and not a.together, (ctx, a)
    else:
        if phase is Phase.CHOOSING_COLOR:
            assert not plays and Draw not in kinds, (ctx, listed)
            assert sum(isinstance(a, ChooseColor) for a in listed) == 4, (ctx, listed)
        else:
            assert ChooseColor not in kinds, (ctx, listed)
        assert (Challenge in kinds) == (phase is Phase.CHALLENGE), (ctx, listed)
        if phase is Phase.CHALLENGE:
            assert r.wild_draw_four == "challenge" and top.rank.value == "W4", ctx
        if game.pending_draw:
            assert Draw not in kinds, (ctx, listed)
            if phase is not Phase.CHOOSING_COLOR:  # naming the colour comes first
                assert Accept in kinds, (ctx, listed)
            if r.stacking == "off":  # nothing goes on a penalty: no stack, deflect, wild pass
                assert not plays, (ctx, "a play on a penalty without stacking", listed)
        else:
            assert Accept not in kinds, (ctx, listed)
        drawn = game.drawn_card
        for a in plays:
            if drawn is not None:
                assert a.card is drawn and not a.together, (ctx, a)
            elif not game.pending_draw and phase is Phase.PLAYING:
                # the lead matches; under same_rank any card of the group may (any may lead)
                group = a.cards if r.multi_play == "same_rank" else (a.card,)
                ok = any(
                    c.is_wild or c.color is game.color or (not top.is_wild and c.rank is top.rank)
                    for c in group
                )
                assert ok, (ctx, "does not match", a)
    for a in plays:
        cards = a.cards
        assert all(hand.count(c) >= cards.count(c) for c in cards), (ctx, a)
        if a.card.is_wild:
            assert a.color is not None, (ctx, a)
        if r.multi_play == "off":
            assert not a.together, (ctx, a)
        elif r.multi_play == "identical" or a.card.is_wild:
            assert all(c is a.card for c in a.together), (ctx, a)
        else:
            assert all(c.rank is a.card.rank for c in a.together), (ctx, a)
        if a.target is not None:
            swap_rank = {"seven_zero": "7", "five": "5"}.get(r.swap)
            assert a.card.rank.value == swap_rank, (ctx, a)
            assert a.target in game.players and a.target != p, (ctx, a)
            assert len(cards) < len(hand), (ctx, "no swap with the last card", a)
        if len(cards) == len(hand) and r.last_card == "number_only":
            assert a.card.is_number, (ctx, "number_only last card", a)
        if len(cards) == len(hand) and r.last_card == "no_skip_reverse_wild":
            assert a.card.rank.value not in ("S", "R", "W", "W4"), (ctx, "last card", a)
        if a.card.rank.value == "W4" and r.wild_draw_four == "no_bluff":
            assert not any(c.color is game.color for c in hand), (ctx, "no_bluff", a)
            if r.draw_four_when == "no_play":  # nothing else that matches, wilds apart
                trank = None if top.is_wild else top.rank
                fits = [c for c in hand if not c.is_wild and c.rank is trank]
                assert not fits or game.follow, (ctx, "no_play", a)
        if game.follow and p == cur and not game.pending_draw:  # after a taken +2: its colour
            assert all(c.color is game.color or c.rank.value == "W4" for c in cards), (ctx, a)
    if r.drawn_card == "number_only" and p == cur and game.drawn_card is not None:
        assert game.drawn_card.is_number, (ctx, "drawn_card", game.drawn_card)
    if p in game.players and p in game.silent:  # uno_call=with_play: no call after the play
        assert r.uno_call == "with_play" and CallUno not in kinds, (ctx, listed)
    if r.places and p in game.places:  # out of the round: nothing to play, call or draw
        assert not plays and not kinds & {Draw, Pass, Accept, Challenge, CallUno}, (ctx, listed)


def check_step(
    game: Game, player: str, action: Any, new: Game, events: list[Any], ctx: Any
) -> None:
    """What one accepted action did, by the contract and docs/engine.md "UNO"."""
    r = game.rules
    if isinstance(action, Timeout) and action.window == "uno":
        # closes the catch window on the player: nothing else changes
        assert player not in new.exposed_players, ctx
        before, after = game.to_dict(), new.to_dict()
        before.pop("exposed"), after.pop("exposed")
        assert before == after, ctx
    if isinstance(action, Leave):
        assert player not in new.players, ctx
        assert any(isinstance(e, engine.PlayerLeft) and e.player == player for e in events)
    if isinstance(action, CallUno) and len(game.hand(player)) == 1:
        assert player not in new.exposed_players, ctx
        assert engine.UnoCalled(player) in events, ctx
    if isinstance(action, CatchUno) and action.target in game.exposed_players:
        caught = [e for e in events if isinstance(e, engine.UnoCaught)]
        assert caught == [engine.UnoCaught(player, action.target, r.uno_penalty)], ctx
        assert action.target not in new.exposed_players, ctx
        got = len(new.hand(action.target)) - len(game.hand(action.target))
        assert got == r.uno_penalty or new.draw_pile_size == 0, ctx
    if isinstance(action, (Draw, Accept, Challenge)):
        # a turn action closes every other player's catch window
        assert set(new.exposed_players) <= {player}, ctx
    if isinstance(action, Play) and r.swap == "off" and new.phase is not Phase.GAME_OVER:
        assert set(new.exposed_players) <= {player}, ctx
    if isinstance(action, Draw) and r.draw == "one":
        drawn = [e for e in events if isinstance(e, CardsDrawn) and e.reason == "draw"]
        assert all(e.count <= 1 for e in drawn), ctx
    if r.stacking == "off":  # deflect and wild_on_penalty have nothing to act on
        passed = (engine.PenaltyPassed, engine.PenaltyStacked)
        assert not any(isinstance(e, passed) for e in events), (ctx, events)
    reversed_to = [e.direction for e in events if isinstance(e, engine.DirectionReversed)]
    if reversed_to and new.current is not None:
        assert new.direction == reversed_to[-1], ctx
    if isinstance(action, NextRound):
        assert new.round == game.round + 1, ctx
