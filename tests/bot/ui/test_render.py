"""bot.ui.render: every event, action, refusal, notice and rule flag has its text in every
language, and the public table never shows a hand."""

from __future__ import annotations

import random
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from bot.model import Seat
from bot.port import Notice, TableInfo
from bot.store import StatLine
from bot.ui import render
from bot.ui.i18n import LANGUAGES, Translator, translator
from engine import (
    Accept,
    CallUno,
    Card,
    CardsDrawn,
    CatchUno,
    Challenge,
    ChallengeResolved,
    ChooseColor,
    Code,
    Color,
    DeckReshuffled,
    Draw,
    Event,
    Game,
    Leave,
    NextRound,
    Pass,
    Phase,
    Play,
    Rank,
    RoundStarted,
    Rules,
    Timeout,
    UnoWindowClosed,
    apply,
    full_deck,
    join,
    legal_actions,
    new_game_events,
    redact,
    scenario,
    view,
)
from engine.cards import ALL_CARDS

ROOT = Path(__file__).resolve().parents[3]
SERVICE = "\n".join(
    p.read_text(encoding="utf-8") for p in sorted((ROOT / "bot" / "service").glob("*.py"))
)
SERVICE_REFUSALS = sorted(set(re.findall(r'Refused\(\s*"(\w+)"', SERVICE)))
SERVICE_INFOS = sorted(set(re.findall(r'"(info\.\w+)"', SERVICE)))
NAMES = {"A": "Alice", "B": "Bob", "C": "小明", "D": "Dave"}
TRS = [translator(lang) for lang in LANGUAGES]
EN, HANS, HANT = TRS
ZH = (HANS, HANT)
LEFTOVER = re.compile(r"\{\w*\}")


def ids(tr: Translator) -> str:
    return tr.lang


# -- building real events --------------------------------------------------------------------


def _run(game: Game, steps: list[tuple[str, Any]]) -> tuple[Game, list[Event]]:
    out: list[Event] = []
    for player, action in steps:
        game, events = apply(game, player, action)
        out.extend(events)
    return game, out


def _three(a: str, b: str, c: str) -> dict[str, list[str]]:
    return {"A": a.split(), "B": b.split(), "C": c.split()}


def all_kinds_of_events() -> list[Event]:
    """At least one event of every engine event type, from real games."""
    blues = ["B1"] * 9
    evs: list[Event] = []
    _, e = new_game_events(["A", "B", "C"], Rules(), seed=1)
    evs += e
    cases: list[tuple[Game, list[tuple[str, Any]]]] = [
        (
            scenario(_three("R1 R2 G5", "Y3 B4 R7", "G1 G2 B9"), ["R5"], ["B1", "B2", "B3"]),
            [("A", Play("R1")), ("B", Draw())],
        ),
        (scenario(_three("RS R2", "Y3", "G1"), ["R5"], blues), [("A", Play("RS"))]),
        (scenario(_three("RR R2", "Y3", "G1"), ["R5"], blues), [("A", Play("RR"))]),
        (
            scenario(_three("W R2", "Y3", "G1"), ["R5"], blues),
            [("A", Play("W")), ("A", ChooseColor(Color.BLUE))],
        ),
        (
            scenario(_three("W R2", "Y3", "G1"), ["R5"], blues),
            [("A", Play("W")), ("A", Timeout())],
        ),
        (
            scenario(
                _three("RD2 R2", "YD2 Y3", "G1 G2"),
                ["R5"],
                blues,
                rules=Rules(stacking="draw_two"),
            ),
            [("A", Play("RD2")), ("B", Play("YD2")), ("C", Accept())],
        ),
        (
            scenario(
                _three("YD2 R2", "YS Y3", "G1 G2"),
                ["Y5"],
                blues,
                rules=Rules(stacking="draw_two", deflect=True),
            ),
            [("A", Play("YD2")), ("B", Play("YS"))],
        ),
        (
            scenario(
                _three("R2 R3", "Y3 Y4", "G1 G2"), ["R5"], blues, rules=Rules(false_uno_penalty=2)
            ),
            [("A", Play("R2")), ("B", CatchUno("A")), ("C", CallUno()), ("C", CatchUno("B"))],
        ),
        (
            scenario(_three("R2 R3", "Y3 Y4", "G1 G2"), ["R5"], blues),
            [("A", Play("R2")), ("A", Timeout(window="uno"))],
        ),
        (
            scenario(_three("R2 R3", "Y3 Y4", "G1 G2"), ["R5"], blues),
            [("A", Play("R2", uno=True))],
        ),
        (
            scenario(_three("W4 R3", "Y3 Y4", "G1 G2"), ["R5"], blues),
            [("A", Play("W4", color=Color.GREEN)), ("B", Challenge())],
        ),
        (
            scenario(_three("W4 G3", "Y3 Y4", "G1 G2"), ["R5"], blues),
            [("A", Play("W4", color=Color.GREEN)), ("B", Challenge())],
        ),
        (
            scenario(
                _three("R7 R3", "Y3 Y4", "G1 G2"), ["R5"], blues, rules=Rules(swap="seven_zero")
            ),
            [("A", Play("R7", target="C")), ("B", Timeout())],
        ),
        (
            scenario(
                _three("R0 R3", "Y3 Y4", "G1 G2"), ["R5"], blues, rules=Rules(swap="seven_zero")
            ),
            [("A", Play("R0")), ("B", Leave())],
        ),
        (  # the draw pile runs out: reshuffle
            scenario(_three("R1 R3", "Y3 Y4", "G1 G2"), ["Y9", "G9", "R5"], [], fill=False),
            [("A", Draw())],
        ),
        (  # both piles empty: everyone passes, the round is blocked
            scenario(_three("R1 R3", "Y3 Y4", "G1 G2"), ["R5"], [], fill=False),
            [("A", Draw()), ("B", Draw()), ("C", Draw())],
        ),
        (
            scenario(
                _three("GS Y3", "Y3 Y4", "G1 G2"),
                ["R5"],
                blues,
                rules=Rules(first_play_number=True),
            ),
            [("A", Draw())],
        ),
        (
            scenario(
                _three("RS", "Y3 Y4", "G1 G2"),
                ["R5"],
                blues,
                rules=Rules(last_card="play_and_draw"),
            ),
            [("A", Play("RS"))],
        ),
    ]
    cases += [
        (  # places: the first out plays no more, the others play on (issue 14)
            scenario(_three("R1", "R2 R3", "G1 G2"), ["R5"], blues, rules=Rules(places=True)),
            [("A", Play("R1")), ("B", Play("R2"))],
        ),
        (  # color_timeout=keep: a wild whose colour is not named keeps the one before
            scenario(
                _three("W R3", "Y3 Y4", "G1 G2"), ["R5"], blues, rules=Rules(color_timeout="keep")
            ),
            [("A", Play("W")), ("A", Timeout())],
        ),
    ]
    for game, steps in cases:
        _, e = _run(game, steps)
        evs += e
    g, e = _run(scenario(_three("R1", "Y3 Y4", "G1 G2"), ["R5"], blues), [("A", Play("R1"))])
    evs += e
    _, e = join(g, "D")
    evs += e
    _, e = _run(
        scenario(_three("R1", "Y3 Y4", "G1 G2"), ["R5"], blues, rules=Rules(target=0)),
        [("A", Play("R1"))],
    )
    evs += e
    evs.append(DeckReshuffled(size=90, reason="start"))
    return evs


EVENTS = all_kinds_of_events()


def test_the_events_cover_every_engine_event_type() -> None:
    assert {type(e) for e in EVENTS} == set(typing.get_args(Event))


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_event_line_for_every_event(tr: Translator) -> None:
    for event in EVENTS:
        for viewer in (None, "A", "B"):
            e = redact(event, viewer)
            line = render.event_line(e, tr, NAMES)
            if isinstance(e, UnoWindowClosed):
                assert line is None
                continue
            if isinstance(e, CardsDrawn) and e.reason in ("uno", "false_uno", "challenge"):
                # said by the event before it; only the drawer sees their cards
                assert (line is None) == (not e.cards)
                if line is None:
                    continue
            if isinstance(e, CardsDrawn) and e.count == 0 and e.reason != "draw":
                continue
            assert line, (tr.lang, e)
            assert not LEFTOVER.search(line), (tr.lang, line)
            assert "\n" not in line


@pytest.mark.parametrize("tr", ZH, ids=ids)
def test_event_lines_are_translated(tr: Translator) -> None:
    for event in EVENTS:
        line = render.event_line(redact(event, None), tr, NAMES)
        if line is None:
            continue
        english = render.event_line(redact(event, None), EN, NAMES)
        assert line != english, line
        assert not re.search(r"\b(played|draws?|drew|wins|the|and)\b", line), line


def test_event_lines_name_players() -> None:
    lines = render.event_lines([redact(e, None) for e in EVENTS], EN, NAMES)
    text = "\n".join(lines)
    assert "Alice" in text and "Bob" in text and "小明" in text
    assert "A played" not in text


def test_drawn_cards_show_only_when_the_event_carries_them() -> None:
    event = CardsDrawn("A", 2, (Card.parse("R5"), Card.parse("GS")), "draw")
    for tr in TRS:
        mine = render.event_line(redact(event, "A"), tr, NAMES)
        public = render.event_line(redact(event, None), tr, NAMES)
        other = render.event_line(redact(event, "B"), tr, NAMES)
        assert mine is not None and public is not None
        assert render.card_text(Card.parse("GS"), tr) in mine
        assert public == other
        assert render.card_text(Card.parse("GS"), tr) not in public
        assert render.card_text(Card.parse("R5"), tr) not in public


def test_challenged_hand_shows_for_the_challenger_only() -> None:
    event = next(e for e in EVENTS if isinstance(e, ChallengeResolved))
    hand = event.hand
    assert hand
    for tr in TRS:
        theirs = render.event_line(redact(event, event.challenger), tr, NAMES) or ""
        public = render.event_line(redact(event, None), tr, NAMES) or ""
        assert all(render.card_text(c, tr) in theirs for c in hand)
        assert not any(render.card_text(c, tr) in public for c in hand)


def test_plural_forms_in_event_lines() -> None:
    one = CardsDrawn("A", 1, None, "draw")
    three = CardsDrawn("A", 3, None, "draw")
    assert render.event_line(one, EN, NAMES) == "Alice drew 1 card."
    assert render.event_line(three, EN, NAMES) == "Alice drew 3 cards."
    assert render.event_line(one, HANS, NAMES) == "Alice 摸了 1 张牌。"
    assert render.event_line(three, HANS, NAMES) == "Alice 摸了 3 张牌。"
    assert render.event_line(three, HANT, NAMES) == "Alice 摸了 3 張牌。"


def test_round_started_line() -> None:
    event = next(e for e in EVENTS if isinstance(e, RoundStarted))
    for tr in TRS:
        line = render.event_line(redact(event, None), tr, NAMES) or ""
        assert render.card_text(event.top, tr) in line
        assert NAMES[event.dealer] in line
        for _p, card in event.dealer_draws:
            assert render.card_text(card, tr) in line


# -- cards and actions ---------------------------------------------------------------------------


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_card_text_for_all_54_cards(tr: Translator) -> None:
    assert len(ALL_CARDS) == 54
    texts = [render.card_text(c, tr) for c in ALL_CARDS]
    assert len(set(texts)) == 54
    for card, text in zip(ALL_CARDS, texts, strict=True):
        mark = render.WILD_MARK if card.color is None else render.COLOR_EMOJI[card.color]
        assert text.startswith(mark + " ")
        if card.is_number:
            assert text.endswith(str(card.number))


def test_card_text_examples() -> None:
    def c(code: str) -> Card:
        return Card.parse(code)

    assert render.card_text(c("R5"), EN) == "🟥 5"
    assert render.card_text(c("GS"), EN) == "🟩 Skip"
    assert render.card_text(c("GS"), HANS) == "🟩 跳过"
    assert render.card_text(c("GS"), HANT) == "🟩 跳過"
    assert render.card_text(c("BR"), HANS) == "🟦 反转"
    assert render.card_text(c("BD2"), EN) == "🟦 +2"
    assert render.card_text(c("W"), EN) == "🌈 Wild"
    assert render.card_text(c("W"), HANS) == "🌈 变色"
    assert render.card_text(c("W4"), HANT) == "🌈 +4"
    assert render.color_name(Color.RED, HANS) == "红色"
    assert render.color_name(Color.GREEN, HANT) == "綠色"


def test_card_short() -> None:
    shorts = [render.card_short(c) for c in ALL_CARDS]
    assert len(set(shorts)) == 54
    assert render.card_short(Card.parse("R5")) == "🟥5"
    assert render.card_short(Card.parse("GS")) == "🟩⊘"
    assert render.card_short(Card.parse("BR")) == "🟦⇄"
    assert render.card_short(Card.parse("YD2")) == "🟨+2"
    assert render.card_short(Card.parse("W")) == "🌈"
    assert render.card_short(Card.parse("W4")) == "🌈+4"


def _actions() -> list[Any]:
    r5 = Card.parse("R5")
    return [
        Play(r5),
        Play("W", color=Color.BLUE),
        Play("R7", target="B"),
        Play("R5", together=("R5",)),
        Play("G5", color=Color.RED, together=("R5",)),
        Play("R2", uno=True),
        Draw(),
        Pass(),
        Accept(),
        Challenge(),
        ChooseColor(Color.YELLOW),
        CallUno(),
        CatchUno("B"),
        Leave(),
        NextRound(),
        Timeout(),
    ]


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_action_label_for_every_action(tr: Translator) -> None:
    labels = [render.action_label(a, tr, NAMES) for a in _actions()]
    assert all(labels)
    assert len(set(labels)) == len(labels)
    assert "Bob" in render.action_label(CatchUno("B"), tr, NAMES)
    assert "Bob" in render.action_label(Play("R7", target="B"), tr, NAMES)
    assert render.color_name(Color.BLUE, tr) in render.action_label(
        Play("W", color=Color.BLUE), tr, NAMES
    )
    assert render.action_label(CallUno(), tr, NAMES) == "UNO!"


def test_action_labels_of_a_real_game() -> None:
    g = scenario(
        {"A": ["R7", "W", "W4", "R5", "G5"], "B": ["Y3"], "C": ["G1"]},
        ["R9"],
        ["B1"] * 5,
        rules=Rules(swap="seven_zero", multi_play="same_rank"),
    )
    for tr in TRS:
        for a in legal_actions(g, "A"):
            assert render.action_label(a, tr, NAMES)


# -- notices -------------------------------------------------------------------------------------


def test_every_refusal_code_has_its_own_message() -> None:
    codes = {c.value for c in Code} | set(SERVICE_REFUSALS)
    assert SERVICE_REFUSALS, "no Refused(...) found in bot/service/"
    assert codes <= set(render.REFUSALS)
    assert len(set(render.REFUSALS.values())) == len(render.REFUSALS)
    for tr in TRS:
        fallback = tr.gettext(render.REFUSAL_FALLBACK)
        for code in codes:
            text = render.notice_text(Notice(code, {"detail": "x"}), tr, NAMES)
            assert text and text != fallback, (tr.lang, code)
            assert not LEFTOVER.search(text)
            if tr in ZH:
                assert text != render.notice_text(Notice(code, {"detail": "x"}), EN, NAMES)
            assert render.notice_text(Notice("refuse." + code, {"detail": "x"}), tr, NAMES) == text


def test_unknown_refusal_falls_back() -> None:
    for tr in TRS:
        text = render.notice_text(Notice("no_such_code"), tr, NAMES)
        assert text == tr.gettext(render.REFUSAL_FALLBACK)
    assert render.notice_text(Notice("no_such_code"), EN, {}) == "That is not possible right now."


def test_bad_setting_says_why_in_the_readers_language() -> None:
    """The service names the flag and the reason; the English detail (pydantic's text) is
    never shown to a Chinese reader."""
    detail = "hand_size: Input should be less than or equal to 15"
    value = Notice("bad_setting", {"reason": "value", "flag": "hand_size", "detail": detail})
    assert render.flag_name("hand_size", HANS) in render.notice_text(value, HANS, {})
    assert "Input should" not in render.notice_text(value, HANS, {})
    needs = Notice("bad_setting", {"reason": "needs", "flag": "deflect", "needs": "stacking"})
    text = render.notice_text(needs, HANT, {})
    assert render.flag_name("deflect", HANT) in text
    assert render.flag_name("stacking", HANT) in text
    plain = Notice("bad_setting", {"detail": detail})  # no reason: English shows the detail
    assert detail in render.notice_text(plain, EN, {})
    assert detail not in render.notice_text(plain, HANS, {})
    assert render.notice_text(Notice("bad_setting"), EN, {}).endswith(".")


def test_every_info_code_has_its_message() -> None:
    assert SERVICE_INFOS, "no info.* notices found in bot/service/"
    assert set(SERVICE_INFOS) <= set(render.INFOS)
    params = {"player": "A", "points": 42, "cards": ["R5", "W4", "GS"]}
    params |= {"votes": 1, "needed": 2, "seconds": 120}  # a vote to end the game (issue 22)
    for tr in TRS:
        for code in render.INFOS:
            text = render.notice_text(Notice(code, dict(params)), tr, NAMES)
            assert text and not LEFTOVER.search(text), (tr.lang, code, text)
            assert text != code
            if tr in ZH:
                assert text != render.notice_text(Notice(code, dict(params)), EN, NAMES)


def test_revealed_hand_notice() -> None:
    notice = Notice("info.revealed", {"player": "B", "cards": ["R5", "W4"]})
    for tr in TRS:
        text = render.notice_text(notice, tr, NAMES)
        assert "Bob" in text
        assert render.card_text(Card.parse("R5"), tr) in text
        assert render.card_text(Card.parse("W4"), tr) in text
    assert render.notice_text(Notice("info.stopped", {"player": None}), EN, NAMES)


# -- rules --------------------------------------------------------------------------------------


def test_every_rules_field_has_a_name_and_help() -> None:
    fields = set(Rules.model_fields)
    assert set(render.FLAG_NAMES) == fields
    assert set(render.FLAG_HELP) == fields
    for tr in TRS:
        names = [render.flag_name(f, tr) for f in fields]
        assert len(set(names)) == len(names), tr.lang
        for f in fields:
            assert render.flag_name(f, tr) not in ("", f), (tr.lang, f)
            assert render.flag_help(f, tr), (tr.lang, f)
            if tr in ZH:
                assert render.flag_name(f, tr) != render.flag_name(f, EN)
                assert render.flag_help(f, tr) != render.flag_help(f, EN)


def _literal_values(flag: str) -> tuple[Any, ...]:
    hints = typing.get_type_hints(Rules)
    return typing.get_args(hints[flag]) if typing.get_origin(hints[flag]) is typing.Literal else ()


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_every_flag_value_reads_as_words(tr: Translator) -> None:
    official = Rules()
    for flag in Rules.model_fields:
        values = list(_literal_values(flag)) or [getattr(official, flag)]
        if isinstance(getattr(official, flag), bool):
            values = [True, False]
        texts = [render.flag_value(flag, v, tr) for v in values]
        assert len(set(texts)) == len(texts), (flag, texts)
        for v, text in zip(values, texts, strict=True):
            assert text, (flag, v)
            if isinstance(v, str) and (tr in ZH or "_" in v):
                assert text != v, (flag, v)
    assert render.flag_value("stacking", "off", EN) == "off"
    assert render.flag_value("stacking", "draw_two", EN) == "+2 on +2"
    assert render.flag_value("turn_seconds", 60, EN) == "60 seconds"
    assert render.flag_value("turn_seconds", 60, HANS) == "60 秒"
    assert render.flag_value("target", 0, EN) == "one round"
    assert render.flag_value("jump_in", True, HANT) == "開"


def test_rules_summary() -> None:
    for tr in TRS:
        official = render.rules_summary(Rules(), tr)
        assert render.preset_name("official", tr) in official
        house = render.rules_summary(Rules.preset("house"), tr)
        assert render.preset_name("house", tr) in house
        for flag in Rules.preset("house").overrides("official"):
            assert render.flag_name(flag, tr) in house
        assert render.flag_name("swap", tr) not in house
        custom = render.rules_summary(Rules(hand_size=5), tr)
        assert render.preset_name(None, tr) in custom
        assert render.flag_value("hand_size", 5, tr) in custom
        named = render.rules_summary(Rules.preset("party", target=0), tr, preset="party")
        assert render.preset_name("party", tr) in named
        assert render.flag_value("target", 0, tr) in named
    assert render.preset_name("house", HANS) == "民间玩法"


# -- the table and the hand ---------------------------------------------------------------


def _info(game: Game | None, status: str = "playing", **kw: Any) -> TableInfo:
    players = game.players if game is not None else ["A", "B", "C"]
    seats = tuple(Seat(p, NAMES.get(p, p), "smart" if p == "C" else None) for p in players)
    fields: dict[str, Any] = {
        "key": "t",
        "scope": "s",
        "version": 1,
        "status": status,
        "host": "A",
        "seats": seats,
        "waiting": (),
        "rules": game.rules if game is not None else Rules(),
        "preset": "official",
        "lang": None,
        "view": view(game, None) if game is not None else None,
        "meta": {},
        "game_no": 1,
    }
    fields.update(kw)
    return TableInfo(**fields)


def _hand_markers(tr: Translator) -> list[str]:
    """Text only a hand shows."""
    return [tr.gettext("🃏 Your cards ({n}):").split("{")[0], tr.gettext("▶ Your turn!")]


def _assert_no_hand(text: str, game: Game, tr: Translator) -> None:
    for marker in _hand_markers(tr):
        assert marker not in text
    top = game.top
    for card in ALL_CARDS:
        if card is not top:
            assert render.card_text(card, tr) not in text, (tr.lang, card)


@pytest.mark.parametrize("preset", ["official", "house", "party"])
def test_table_text_never_shows_a_hand(preset: str) -> None:
    rng = random.Random(preset)
    rules = Rules.preset(preset, target=150)
    for seed in range(3):
        game, _ = new_game_events(["A", "B", "C", "D"], rules, seed=seed)
        for _step in range(250):
            if game.current is None:
                if game.phase is Phase.GAME_OVER:
                    break
                game, _ = apply(game, "A", NextRound())
                continue
            acts = [a for a in legal_actions(game, game.current) if not isinstance(a, Leave)]
            game, _ = apply(game, game.current, rng.choice(acts))
            if _step % 5:
                continue
            info = _info(game, preset=preset)
            assert info.view is not None and info.view.hand is None
            for tr in TRS:
                text = render.table_text(info, tr)
                assert text and not LEFTOVER.search(text)
                _assert_no_hand(text, game, tr)


def test_a_held_card_never_reaches_the_table() -> None:
    """Bob holds the only 🟩 7; whatever the public sees, that card is never in it."""
    g = scenario(
        {"A": ["R1", "R2", "R3"], "B": ["G7", "Y3", "B8"], "C": ["R4", "Y4", "Y9"]},
        ["R5"],
        ["Y2", "B2", "Y1", "B1"],
    )
    recent: list[str] = []
    steps = [("A", Play("R1")), ("B", Draw()), ("C", Play("R4")), ("A", Play("R2"))]
    secret = Card.parse("G7")
    for player, action in steps:
        g, events = apply(g, player, action)
        for tr in TRS:
            recent = render.event_lines([redact(e, None) for e in events], tr, NAMES)
            text = render.table_text(_info(g), tr, recent)
            assert render.card_text(secret, tr) not in text
            assert render.card_short(secret) not in text
            # Bob's own view does show it
            assert "7" in render.hand_text(view(g, "B"), tr, NAMES)


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_table_text_in_play(tr: Translator) -> None:
    g = scenario(
        {"A": ["R1", "R2"], "B": ["G7"], "C": ["R4", "Y4", "Y9"]},
        ["R5"],
        ["B1", "Y1", "B2", "Y2"],
        current="C",
    )
    game, _ = _run(g, [("C", Play("R4"))])
    game, _ = _run(game, [("A", Play("R2"))])  # Alice is down to one card, no UNO
    text = render.table_text(_info(game), tr, ["line one", "line two"])
    assert render.card_text(Card.parse("R2"), tr) in text
    for p in ("Alice", "Bob", "小明"):
        assert p in text
    assert "▶" in text and "🤖" in text
    assert tr.gettext("❗ no UNO!") in text
    assert text.endswith("line one\nline two")
    assert tr.gettext("(dealer)").strip() in text


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_table_text_penalty_and_challenge(tr: Translator) -> None:
    g = scenario(
        {"A": ["W4", "R2"], "B": ["G7", "G1"], "C": ["R4", "Y4", "Y9"]},
        ["R5"],
        ["B1"] * 8,
    )
    game, _ = _run(g, [("A", Play("W4", color=Color.GREEN))])
    text = render.table_text(_info(game), tr)
    assert "+4" in text and "Bob" in text and "Alice" in text
    assert render.color_name(Color.GREEN, tr) in text
    hand = render.hand_text(view(game, "B"), tr, NAMES)
    assert "+4" in hand and "Alice" in hand


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_table_text_lobby_round_over_and_game_over(tr: Translator) -> None:
    lobby = render.table_text(_info(None, status="lobby"), tr)
    assert "Alice" in lobby and "👑" in lobby
    assert render.button_label("join", tr) in lobby
    assert render.preset_name("official", tr) in lobby
    g = scenario({"A": ["R1"], "B": ["Y3", "Y4"], "C": ["G1", "GS"]}, ["R5"], ["B1"] * 9)
    over, _ = _run(g, [("A", Play("R1"))])
    assert over.phase is Phase.ROUND_OVER
    text = render.table_text(_info(over), tr)
    assert "Alice" in text and "28" in text
    g = scenario(
        {"A": ["R1"], "B": ["Y3", "Y4"], "C": ["G1", "GS"]},
        ["R5"],
        ["B1"] * 9,
        rules=Rules(target=0),
    )
    done, _ = _run(g, [("A", Play("R1"))])
    text = render.table_text(_info(done, status="finished"), tr)
    assert "🏆" in text and "Alice" in text
    stopped = render.table_text(_info(g, status="stopped"), tr)
    assert "⏹" in stopped


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_hand_text(tr: Translator) -> None:
    g = scenario(
        {"A": ["W4", "B2", "R9", "GS", "R1", "W", "YD2"], "B": ["G7"], "C": ["R4"]},
        ["R5"],
        ["B1"] * 8,
    )
    text = render.hand_text(view(g, "A"), tr, NAMES)
    order = ["R1", "R9", "YD2", "GS", "B2", "W", "W4"]
    marks = [render.COLOR_EMOJI[c] for c in (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)]
    positions = [text.index(m) for m in [*marks, render.WILD_MARK]]
    assert positions == sorted(positions)
    red_line = next(line for line in text.splitlines() if line.startswith("🟥"))
    assert red_line.index("1") < red_line.index("9")
    assert tr.gettext("▶ Your turn!") in text
    assert render.card_text(Card.parse("R5"), tr) in text
    assert len(order) == 7
    waiting = render.hand_text(view(g, "B"), tr, NAMES)
    assert "Alice" in waiting
    assert "❗" in waiting  # one card, no UNO called
    g2 = scenario({"A": ["Y3"], "B": ["G7"], "C": ["R4"]}, ["R5"], ["R8"])
    g2, _ = _run(g2, [("A", Draw())])
    assert render.card_text(Card.parse("R8"), tr) in render.hand_text(view(g2, "A"), tr, NAMES)
    assert render.hand_text(view(g, None), tr, NAMES)


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_challenge_says_how_long_and_what_is_at_stake(tr: Translator) -> None:
    """The victim of a +4 learns the time to challenge and both outcomes; so does the table."""
    g = scenario(
        {"A": ["W4", "R2"], "B": ["G7", "G1"], "C": ["R4"]},
        ["R5"],
        ["B1"] * 8,
        rules=Rules(challenge_seconds=15),
    )
    game, _ = _run(g, [("A", Play("W4", color=Color.GREEN))])
    table = render.table_text(_info(game), tr)
    assert "15" in table and "Alice" in table
    hand = render.hand_text(view(game, "B"), tr, NAMES)
    assert "15" in hand and "4" in hand and "6" in hand  # take 4, a bluff: 4, no bluff: 6
    other = render.hand_text(view(game, "C"), tr, NAMES)
    assert "Bob" in other and "+4" in other


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_a_forced_drawn_card_is_not_offered_a_pass(tr: Translator) -> None:
    g = scenario(
        {"A": ["Y3", "G5"], "B": ["G7"], "C": ["R4"]},
        ["R5"],
        ["R8"],
        rules=Rules(force_play=True),
    )
    g, _ = _run(g, [("A", Draw())])
    forced = render.hand_text(view(g, "A"), tr, NAMES)
    r8 = render.card_text(Card.parse("R8"), tr)
    assert tr.gettext("▶ You drew {card}: play it, or pass.", card=r8) not in forced
    assert (
        tr.gettext("▶ You drew {card}: it can be played, so you must play it.", card=r8) in forced
    )
    # a drawn +4 that would be a bluff is not forced (docs/rules.md section 2, force_play)
    g = scenario(
        {"A": ["R3", "Y1"], "B": ["G7"], "C": ["R4"]}, ["R5"], ["W4"], rules=Rules(force_play=True)
    )
    g, _ = _run(g, [("A", Draw())])
    free = render.hand_text(view(g, "A"), tr, NAMES)
    assert tr.gettext("▶ You drew {card}: play it, or pass.", card=render.card_text(
        Card.parse("W4"), tr)) in free  # fmt: skip


def test_waiting_line_says_what_the_player_is_deciding() -> None:
    g = scenario({"A": ["W", "R2"], "B": ["G7"], "C": ["R4"]}, ["R5"], ["B1"] * 8)
    g, _ = _run(g, [("A", Play("W"))])
    assert "Waiting for Alice to choose a colour." in render.hand_text(view(g, "B"), EN, NAMES)
    assert "等待 Alice 选颜色。" in render.hand_text(view(g, "B"), HANS, NAMES)


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_others_are_told_to_catch_a_player_without_uno(tr: Translator) -> None:
    g = scenario({"A": ["R2", "R3"], "B": ["Y3", "Y4"], "C": ["G1", "G2"]}, ["R5"], ["B1"] * 9)
    g, _ = _run(g, [("A", Play("R2"))])
    hint = tr.gettext("🎯 {players} did not call UNO: catch them!", players="Alice")
    assert hint in render.hand_text(view(g, "B"), tr, NAMES)
    assert "🎯" not in render.hand_text(view(g, "A"), tr, NAMES)


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_penalty_scoring_reads_as_lowest_wins(tr: Translator) -> None:
    """Under penalty scoring the round's winner scores nothing: no "0 points" anywhere, and
    the table says that the lowest total wins."""
    rules = Rules(scoring="penalty", target=100)
    g = scenario({"A": ["R1"], "B": ["Y3", "Y4"], "C": ["G1", "GS"]}, ["R5"], ["B1"] * 9,
                 rules=rules)  # fmt: skip
    over, events = _run(g, [("A", Play("R1"))])
    won = render.event_lines(events, tr, NAMES)[-1]
    assert "Alice" in won and tr.ngettext("{n} point", "{n} points", 0) not in won
    table = render.table_text(_info(over), tr)
    assert tr.ngettext("Playing to {n} point.", "Playing to {n} points.", 100) not in table
    assert "100" in table
    notice = render.notice_text(Notice("info.round_won", {"player": "A", "points": 0}), tr, NAMES)
    assert "Alice" in notice and "+0" not in notice
    g = scenario({"A": ["R1"], "B": ["Y3", "Y4"], "C": ["G1", "GS"]}, ["R5"], ["B1"] * 9,
                 rules=Rules(scoring="penalty", target=0))  # fmt: skip
    done, _ = _run(g, [("A", Play("R1"))])
    final = render.table_text(_info(done, status="finished"), tr)
    assert tr.gettext("Final scores (lowest wins):") in final
    assert tr.gettext("The game is over.") in render.hand_text(view(done, "B"), tr, NAMES)


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_partners_scores_show_once_per_team(tr: Translator) -> None:
    g = scenario(
        {"A": ["R1"], "B": ["Y3", "Y4"], "C": ["G1", "GS"], "D": ["B2"]},
        ["R5"],
        ["B1"] * 9,
        rules=Rules(partners=True),
    )
    over, _ = _run(g, [("A", Play("R1"))])
    table = render.table_text(_info(over), tr)
    assert "Alice & 小明" in table and "Bob & Dave" in table
    lobby = render.table_text(
        _info(None, status="lobby", seats=tuple(Seat(p, NAMES[p]) for p in "ABCD"),
              rules=Rules(partners=True)), tr,
    )  # fmt: skip
    assert tr.gettext("(team {team})", team=2) in lobby
    short = render.table_text(_info(None, status="lobby", rules=Rules(partners=True)), tr)
    assert tr.gettext("👥 Partners: the game needs exactly 4 or 6 players.") in short


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_a_refused_value_says_what_is_allowed(tr: Translator) -> None:
    def bad(flag: str) -> str:
        notice = Notice("bad_setting", {"reason": "value", "flag": flag, "detail": "x"})
        return render.notice_text(notice, tr, NAMES)

    assert "3" in bad("hand_size") and "15" in bad("hand_size")
    stacking = bad("stacking")
    for value in ("off", "draw_two", "draw_four_on_two", "any"):
        assert render.flag_value("stacking", value, tr) in stacking
    assert render.flag_value("jump_in", True, tr) in bad("jump_in")


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_game_won_notice_without_a_winner(tr: Translator) -> None:
    text = render.notice_text(Notice("info.game_won", {}), tr, NAMES)
    assert text and not LEFTOVER.search(text)


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_a_reverse_start_card_names_the_direction_once(tr: Translator) -> None:
    for seed in range(300):
        _, events = new_game_events(["A", "B", "C", "D"], Rules(), seed=seed)
        start = next(e for e in events if isinstance(e, RoundStarted))
        if start.top.rank is Rank.REVERSE:
            break
    else:
        pytest.skip("no Reverse start card in these seeds")
    text = "\n".join(render.event_lines(events, tr, NAMES))
    assert text.count(render.direction_text(-1, tr)) == 1


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_a_closed_lobby_does_not_wait_for_players(tr: Translator) -> None:
    closed = render.table_text(_info(None, status="stopped"), tr)
    assert tr.gettext("🎴 UNO — waiting for players") not in closed
    assert tr.gettext("⏹ The table is closed.") in closed


# -- scores, statistics, help -------------------------------------------------------------


def test_scores_text_order() -> None:
    text = render.scores_text({"A": 10, "B": 90, "C": 40}, EN, NAMES)
    assert text.index("Bob") < text.index("小明") < text.index("Alice")
    low = render.scores_text({"A": 10, "B": 90, "C": 40}, EN, NAMES, low_wins=True)
    assert low.index("Alice") < low.index("小明") < low.index("Bob")
    assert "90 points" in text
    assert "90 分" in render.scores_text({"B": 90}, HANS, NAMES)


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_statistics(tr: Translator) -> None:
    lines = [StatLine("A", "Alice", 12, 5, 20, 340, 210), StatLine("B", "Bob", 1, 1, 3, 90, 20)]
    board = render.leaderboard_text(lines, tr)
    assert board.index("Alice") < board.index("Bob")
    assert "340" in board and not LEFTOVER.search(board)
    assert render.leaderboard_text([], tr)
    stats = render.stats_text(lines[0], tr)
    assert "Alice" in stats and "42%" in stats and "210" in stats
    assert render.stats_text(None, tr)


@pytest.mark.parametrize("tr", TRS, ids=ids)
def test_help_text_lists_every_command(tr: Translator) -> None:
    commands = [
        "new", "join", "start", "leave", "kick", "stop", "hand", "rules", "settings",
        "stats", "leaderboard", "language", "addbot", "help",
    ]  # fmt: skip
    telegram = render.help_text(tr, "telegram")
    discord = render.help_text(tr, "discord")
    for cmd in commands:
        assert f"/{cmd} " in telegram
        assert f"/uno {cmd} " in discord
        assert render.command_help(cmd, tr)
    for key in render.BUTTONS:
        assert render.button_label(key, tr)


def test_full_deck_cards_all_render() -> None:
    for tr in TRS:
        assert render.cards_text(full_deck(), tr).count(render.WILD_MARK) == 8


def test_flags_that_need_stacking_are_inactive_without_it() -> None:
    """deflect and wild_on_penalty act on a stacked penalty only (issue 9 item 2): with
    stacking off the settings show them inactive, with the flag they need named."""
    off, on = Rules(), Rules(stacking="draw_two")
    assert render.flag_needs("deflect", off) == "stacking"
    assert render.flag_needs("wild_on_penalty", off) == "stacking"
    assert render.flag_needs("deflect", on) is None
    assert render.flag_needs("jump_in", off) is None
    assert render.inactive_note("deflect", on, translator("en")) == ""
    assert "Stacking" in render.inactive_note("deflect", off, translator("en"))
    assert "叠加" in render.inactive_note("deflect", off, translator("zh_Hans"))
