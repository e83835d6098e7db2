"""Texts and keyboards: the buttons of each phase, Telegram's size limits, personal results."""

from __future__ import annotations

import dataclasses

import pytest

import engine
from adapters.telegram import widgets
from adapters.telegram.ids import encode_action
from adapters.telegram.inbound.legacy import FLAGS_V1
from bot.model import Seat
from bot.port import TableInfo
from bot.ui import controls, intents, render
from bot.ui import settings_schema as schema
from bot.ui.i18n import translator
from engine import Card, Game, Play, Rules, scenario

EN = translator("en")
KEY = "tg:-1001234567890:2147483647"  # the longest table id: a supergroup's forum topic
PLAYERS = ["tg:1000000001", "tg:1000000002", "tg:1000000003"]


def _info(game: Game | None, status: str = "playing", version: int = 123456) -> TableInfo:
    rules = game.rules if game is not None else Rules()
    return TableInfo(
        key=KEY,
        scope="tg:-1001234567890",
        version=version,
        status=status,
        host=PLAYERS[0],
        seats=tuple(Seat(p, f"Player {i}") for i, p in enumerate(PLAYERS)),
        waiting=(),
        rules=rules,
        preset="official",
        lang=None,
        view=engine.view(game, None) if game is not None else None,
        meta={},
        game_no=1,
    )


def _data(markup: object) -> list[str]:
    rows = getattr(markup, "inline_keyboard", ())
    return [b.callback_data for row in rows for b in row if b.callback_data]


def _labels(markup: object) -> list[str]:
    return [b.text for row in getattr(markup, "inline_keyboard", ()) for b in row]


def _game(hands: list[list[str]], top: str = "R5", **rules: object) -> Game:
    return scenario(
        dict(zip(PLAYERS, hands, strict=False)),
        [top],
        draw_pile=["G1", "G2", "G3", "G4", "G5", "G6"],
        rules=Rules.preset("official", **rules),
    )


def test_the_keyboard_follows_the_phase() -> None:
    lobby = widgets.table_keyboard(_info(None, "lobby"), EN, "uno_bot")
    assert _labels(lobby) == ["✋ Join", "Leave", "🤖 Add a bot", "⚙️ Settings", "▶️ Start"]

    g = _game([["R1", "B2"], ["G3", "Y4"], ["B5", "B6"]])
    playing = widgets.table_keyboard(_info(g), EN, "uno_bot")
    assert _labels(playing) == ["🃏 Play", "📥 Draw", "🗳 End the game", "🔒 My cards"]
    assert playing.inline_keyboard[1][0].callback_data == "e:-1001234567890_2147483647:0"
    play = playing.inline_keyboard[0][0]  # type: ignore[union-attr]
    assert play.switch_inline_query_current_chat == "-1001234567890_2147483647"

    # a +2 waiting under stacking: take it (or stack, through Play)
    g2, _ = engine.apply(
        _game([["RD2", "B2"], ["YD2", "Y4"], ["B5"]], stacking="draw_two"),
        PLAYERS[0],
        Play(Card.parse("RD2")),
    )
    assert "Take +2" in _labels(widgets.table_keyboard(_info(g2), EN))

    # a Wild Draw Four: the victim's choice
    g3, _ = engine.apply(
        _game([["W4", "R2", "B3"], ["G3", "Y4"], ["B5"]]), PLAYERS[0], Play(Card.parse("W4"), "B")
    )
    labels = _labels(widgets.table_keyboard(_info(g3), EN))
    assert "⚖️ Challenge" in labels and "Take +4" in labels and "📥 Draw" not in labels

    # one card left and no UNO called: UNO! and Catch
    g4, _ = engine.apply(_game([["R1", "B2"], ["G3", "Y4"], ["B5"]]), PLAYERS[0], Play("R1"))
    labels = _labels(widgets.table_keyboard(_info(g4), EN))
    assert "📢 UNO!" in labels and "🎯 Catch Player 0" in labels

    assert widgets.table_keyboard(_info(g4, "finished"), EN) is None
    assert widgets.table_keyboard(_info(g4, "stopped"), EN) is None


def test_every_button_fits_in_64_bytes() -> None:
    g = _game([["R1", "B2"], ["G3", "Y4"], ["B5"]])
    g, _ = engine.apply(g, PLAYERS[0], Play("R1"))
    markups = [widgets.table_keyboard(_info(g, version=10**9), EN, "uno_bot")]
    info = _info(g, version=10**9)
    for p in PLAYERS:
        view = engine.view(g, p)
        markups.append(widgets.hand_message(info, view, engine.legal_actions(g, p), EN)[1])
    markups.append(widgets.settings_main(_info(None, "lobby"), EN)[1])
    for flag in schema.flags():
        markups.append(widgets.settings_flag(_info(None, "lobby"), flag, EN)[1])
    data = [d for m in markups for d in _data(m)]
    assert data and all(len(d.encode()) <= 64 for d in data)


def test_a_huge_hand_keeps_to_50_results_and_the_draw() -> None:
    big = ["W", "W4", "W", "W4"] + [f"{c}{n}" for c in "RYGB" for n in range(1, 10)] * 2
    g = _game([big, ["G3"], ["B5"]], decks=2, multi_play="same_rank")
    view = engine.view(g, PLAYERS[0])
    legal = engine.legal_actions(g, PLAYERS[0])
    assert len(legal) > 1000  # every combination of same-rank cards
    results, button = widgets.inline_answer(_info(g), view, legal, EN, "uno_bot")
    assert len(results) == 50
    codes = [r.id.split("|")[2] for r in results]
    # trimmed from the plays, never the other moves ("Play for me" last)
    assert codes[-2:] == ["d", "P1"]
    assert len({r.id for r in results}) == 50
    assert all(len(r.id.encode()) <= 64 for r in results)
    assert button is not None and button.start_parameter == "h-1001234567890_2147483647"
    # what a choice posts is neutral: never a card, let alone the hand
    for r in results:
        assert r.input_message_content.message_text == widgets.POSTED  # type: ignore[attr-defined]
    _, markup = widgets.hand_message(_info(g), view, legal, EN)
    assert markup is not None and sum(len(row) for row in markup.inline_keyboard) <= 100


def test_results_put_playable_cards_first_and_mark_them() -> None:
    g = _game([["R1", "B2", "R9", "W"], ["G3"], ["B5"]])
    view = engine.view(g, PLAYERS[0])
    results, _ = widgets.inline_answer(
        _info(g), view, engine.legal_actions(g, PLAYERS[0]), EN, "uno_bot"
    )
    kinds = [r.id.split("|")[2][0] for r in results]
    # R1, R9, four colours of W; Draw; B2; Play for me
    assert kinds == ["p"] * 6 + ["d", "-", "P"]
    assert all(r.description == "✅ Playable" for r in results[:6])
    assert results[-2].title == "✖ 🟦 2" and results[-1].title == "🤖 Play for me"


def test_a_table_never_shows_a_hand() -> None:
    g = _game([["R1", "B2"], ["G3", "Y4"], ["B5"]])
    text, _ = widgets.table_message(_info(g), EN, ["Player 0 played 🟥 1."])
    assert "Your cards" not in text
    for p in PLAYERS:
        for card in g.hands[g.seat[p]]:
            assert EN.gettext("🃏 Your cards ({n}):", n=len(g.hands[g.seat[p]])) not in text
            assert card.code not in text


HANS = translator("zh_Hans")
HANT = translator("zh_Hant")


def _rules_info(rules: Rules) -> TableInfo:
    return dataclasses.replace(_info(None, "lobby"), rules=rules)


def _house_without_stacking() -> Rules:
    try:
        return Rules.preset("house", stacking="off")
    except ValueError:  # an engine that still refuses the pair: the same rules, unchecked
        return Rules.model_construct(**{**Rules.preset("house").model_dump(), "stacking": "off"})


def test_chinese_settings_buttons_use_a_full_width_colon() -> None:
    for tr in (HANS, HANT):
        _, markup = widgets.settings_main(_info(None, "lobby"), tr)
        flags = [label for label in _labels(markup) if "：" in label]
        assert len(flags) == len(schema.flags())
        assert not [label for label in _labels(markup) if ":" in label]
        text, _ = widgets.settings_flag(_info(None, "lobby"), "target", tr)
        assert text.splitlines()[0].startswith("⚙️ ") and "：" in text.splitlines()[0]
        assert ":" not in text.splitlines()[0]
    _, markup = widgets.settings_main(_info(None, "lobby"), EN)
    assert "Target score: 500 points" in _labels(markup)


def test_flags_that_need_stacking_are_shown_inactive_without_it() -> None:
    """With stacking off, Deflect and Wild on a penalty say what they need, whether they
    are set or not; with stacking on they are plain flags."""
    deflect = "deflect"
    wild = "wild_on_penalty"
    house_off = _rules_info(_house_without_stacking())  # deflect on, stacking off
    official = _rules_info(Rules())  # deflect off, stacking off
    house = _rules_info(Rules.preset("house"))  # deflect on, stacking on
    labels = _labels(widgets.settings_main(house_off, EN)[1])
    assert "Deflect a +2: on (needs “Stacking”)" in labels
    assert "Wild on a penalty: off (needs “Stacking”)" in labels
    assert "Stacking: off" in labels
    main = widgets.settings_main(official, EN)[1]
    assert "Deflect a +2: off (needs “Stacking”)" in _labels(main)
    assert "Deflect a +2: on" in _labels(widgets.settings_main(house, EN)[1])
    for info in (house_off, official):
        text, markup = widgets.settings_flag(info, deflect, EN)
        assert "(needs “Stacking”)" in text.splitlines()[0]
        assert "Inactive while “Stacking” is off." in text
        # off, on, on with a +4 too (issue 14), back: it can still be set
        assert len(_labels(markup)) == 4
        assert "Inactive while “Stacking” is off." in widgets.settings_flag(info, wild, EN)[0]
    text, _ = widgets.settings_flag(house, deflect, EN)
    assert "needs" not in text and "Inactive" not in text
    labels = _labels(widgets.settings_main(house_off, HANS)[1])
    assert any(label.startswith("化解 +2：开") and "叠加" in label for label in labels), labels


def test_the_language_prompt_is_in_every_language_until_one_is_chosen() -> None:
    text, markup = widgets.language_menu("-100123", "c", None, EN)
    assert text.splitlines() == [
        "Choose the language of this chat:",
        HANS.gettext("Choose the language of this chat:"),
        HANT.gettext("Choose the language of this chat:"),
    ]
    assert len(set(text.splitlines())) == 3
    assert _labels(markup) == ["English", "简体中文", "繁體中文"]
    text, _ = widgets.language_menu("-100123", "c", "zh_Hans", HANS)
    assert text == HANS.gettext("Choose the language of this chat:")
    text, _ = widgets.language_menu("1001", "u", None, HANT)
    assert text.splitlines()[0] == "Choose your language:" and len(text.splitlines()) == 3


# -- issue 14: the variants' flags, and calling UNO with the play ------------------------------

ISSUE_14 = {
    "draw_four_when": ["without the colour in play", "with nothing else to play"],
    "after_penalty": ["match as usual", "follow its colour"],
    "drawn_card": ["any card that fits", "number cards only"],
    "uno_call": ["until caught", "with the play"],
    "color_timeout": ["random colour", "colour stays"],
    "places": ["off", "on"],
    "start_reverse": ["dealer plays first", "dealer's right plays first"],
    "deflect": ["off", "on", "on, a +4 too"],
    "partners": ["off", "on", "rotating"],
    "last_card": ["any card", "number cards only", "action card, then draw 1",
                  "no Skip, Reverse or wild"],
    "dealer": ["highest card drawn", "table creator", "highest card plays first"],
}  # fmt: skip


def test_the_settings_offer_every_value_of_the_variants() -> None:
    """Each flag of issue 14 has its button in the menu, and each of its values a button
    (callback data still within 64 bytes: test_every_button_fits_in_64_bytes)."""
    labels = _labels(widgets.settings_main(_info(None, "lobby"), EN)[1])
    for flag, values in ISSUE_14.items():
        assert any(label.startswith(render.flag_name(flag, EN) + ":") for label in labels), flag
        menu = widgets.settings_flag(_info(None), flag, EN)[1]
        shown = [t.removeprefix("✓ ") for t in _labels(menu)]
        assert shown == [*values, "⬅️ Back"], (flag, shown)
    # the flags that were there keep their places: an old menu's callback names a flag by
    # index (buttons posted before the intent codec, read by ``legacy``)
    assert FLAGS_V1[: FLAGS_V1.index("challenge_seconds") + 1] == (
        "stacking", "deflect", "jump_in", "multi_play", "swap", "draw", "force_play",
        "wild_draw_four", "guilty_challenger", "wild_on_penalty", "last_card",
        "first_play_number", "uno_penalty", "false_uno_penalty", "scoring", "card_points",
        "target", "partners", "two_player", "decks", "hand_size", "dealer", "turn_seconds",
        "afk_strikes", "uno_window_seconds", "challenge_seconds",
    )  # fmt: skip


def test_with_play_offers_the_call_beside_the_card() -> None:
    """uno_call=with_play (seed 001): the play that leaves one card comes with its "· UNO!"
    twin in the inline results and the private hand, also a last action card under
    play_and_draw (its draw leaves one); the table's UNO! button is not offered to a
    player whose play left them one card without the call."""
    g = _game(
        [["RS"], ["G3", "Y4"], ["B5", "B6"]],
        uno_call="with_play",
        last_card="play_and_draw",
    )
    d = g.to_dict()
    d["called"] = [PLAYERS[0]]  # they called when they came down to it
    g = Game.from_dict(d)
    view = engine.view(g, PLAYERS[0])
    legal = engine.legal_actions(g, PLAYERS[0])
    results, _ = widgets.inline_answer(_info(g), view, legal, EN, "uno_bot")
    assert [r.title for r in results][:2] == ["🟥 Skip · UNO!", "🟥 Skip"]
    hand = _labels(widgets.hand_message(_info(g), view, legal, EN)[1])
    assert hand[:2] == ["🟥⊘ · UNO!", "🟥⊘"]
    # after a play without the call: no UNO! for them on the table, catching only
    g2 = _game([["R1", "B2"], ["G3", "Y4"], ["B5", "B6"]], uno_call="with_play")
    g2, _ = engine.apply(g2, PLAYERS[0], Play("R1"))
    labels = _labels(widgets.table_keyboard(_info(g2), EN))
    assert "📢 UNO!" not in labels and "🎯 Catch Player 0" in labels
    # the official reading: the same play leaves the call for later, as before
    g3 = _game([["RS"], ["G3", "Y4"], ["B5", "B6"]], last_card="play_and_draw")
    legal3 = engine.legal_actions(g3, PLAYERS[0])
    hand3 = _labels(widgets.hand_message(_info(g3), engine.view(g3, PLAYERS[0]), legal3, EN)[1])
    assert "🟥⊘ · UNO!" not in hand3


# -- issue 12 item 3: the table's buttons are bot.ui.controls.table_controls', mapped ------------


def _mapped(info: TableInfo, username: str | None) -> list[tuple[str, str]]:
    """What the Telegram keyboard must be: each control of ``table_controls`` (with the
    options Telegram declares) as (text, callback data or the widget's other field)."""
    tid = "-1001234567890_2147483647"
    out: list[tuple[str, str]] = []
    last: list[tuple[str, str]] = []
    for row in controls.table_controls(info, EN, **widgets.TABLE_OPTIONS):
        for c in row:
            if isinstance(c.intent, intents.OpenHand):
                out.append((c.icon + " Play", "inline:" + tid))
                if username:
                    last.append(("🔒 My cards", f"https://t.me/{username}?start=h{tid}"))
                continue
            text = c.glyph or (c.icon + " " if c.icon else "") + c.label
            out.append((text, intents.encode(c.intent, tid, limit=intents.TELEGRAM_LIMIT)))
    return out + last


def _shown(markup: object) -> list[tuple[str, str]]:
    rows = getattr(markup, "inline_keyboard", ())
    return [
        (b.text, b.callback_data or b.url or "inline:" + b.switch_inline_query_current_chat)
        for row in rows
        for b in row
    ]


def _phases() -> list[Game]:
    g = _game([["R1", "B2"], ["G3", "Y4"], ["B5", "B6"]])
    stacked, _ = engine.apply(
        _game([["RD2", "B2"], ["YD2", "Y4"], ["B5"]], stacking="draw_two"),
        PLAYERS[0],
        Play(Card.parse("RD2")),
    )
    challenge, _ = engine.apply(
        _game([["W4", "R2", "B3"], ["G3", "Y4"], ["B5"]]), PLAYERS[0], Play(Card.parse("W4"), "B")
    )
    choosing, _ = engine.apply(_game([["W", "R2", "B3"], ["G3"], ["B5"]]), PLAYERS[0], Play("W"))
    one, _ = engine.apply(_game([["R1", "B2"], ["G3", "Y4"], ["B5"]]), PLAYERS[0], Play("R1"))
    return [g, stacked, challenge, choosing, one]


def test_the_round_keyboard_is_the_mapping_of_table_controls() -> None:
    phases = _phases()
    assert phases[3].phase is engine.Phase.CHOOSING_COLOR
    for g in phases:
        for username in ("uno_bot", None):
            markup = widgets.table_keyboard(_info(g), EN, username)
            assert _shown(markup) == _mapped(_info(g), username)


def test_a_control_changed_in_the_core_shows_on_telegram(monkeypatch: pytest.MonkeyPatch) -> None:
    """The adapter derives nothing itself: a label, an icon or a control more in
    ``table_controls`` is on the Telegram keyboard as it is."""
    real = controls.table_controls

    def changed(info: TableInfo, tr: object, **kw: object) -> list[controls.Row]:
        rows = real(info, tr, **kw)  # type: ignore[arg-type]
        first = tuple(
            dataclasses.replace(c, label="Pick one up", icon="🫳")
            if c.intent == intents.Act(engine.Draw(), info.version)
            else c
            for c in rows[0]
        )
        extra = controls.Row((controls.Control(intents.Act(engine.Pass(), info.version), "Pass"),))
        return [controls.Row(first), *rows[1:], extra]

    monkeypatch.setattr(controls, "table_controls", changed)
    g = _phases()[0]
    labels = _labels(widgets.table_keyboard(_info(g), EN, "uno_bot"))
    assert labels == ["🃏 Play", "🫳 Pick one up", "🗳 End the game", "Pass", "🔒 My cards"]
    assert _shown(widgets.table_keyboard(_info(g), EN)) == _mapped(_info(g), None)


def test_the_private_hand_is_the_mapping_of_hand_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    """The private hand's buttons are ``hand_menu``'s (the UNO twin first, no next round:
    ``widgets.HAND_OPTIONS``), and a label changed in the core shows as it is."""
    g = _game(
        [["RS"], ["G3", "Y4"], ["B5", "B6"]], uno_call="with_play", last_card="play_and_draw"
    )
    view, legal = engine.view(g, PLAYERS[0]), engine.legal_actions(g, PLAYERS[0])
    rows = controls.hand_menu(_info(g), view, legal, EN, **widgets.HAND_OPTIONS)
    tid = "-1001234567890_2147483647"
    want = [
        (
            c.glyph or (c.icon + " " if c.icon else "") + c.label,
            intents.encode(c.intent, tid, limit=intents.TELEGRAM_LIMIT),
        )
        for row in rows
        for c in row
    ]
    assert want[-1] == ("🤖 Play for me", f"P:{tid}:1")
    assert _shown(widgets.hand_message(_info(g), view, legal, EN)[1]) == want
    real = controls.hand_menu

    def changed(*args: object, **kw: object) -> list[controls.Row]:
        rows = real(*args, **kw)  # type: ignore[arg-type]
        return [
            controls.Row(
                tuple(dataclasses.replace(c, label=c.label + "!") for c in r), menu=r.menu
            )
            for r in rows
        ]

    monkeypatch.setattr(controls, "hand_menu", changed)
    labels = _labels(widgets.hand_message(_info(g), view, legal, EN)[1])
    # 🔄: its glyph
    assert labels == ["🟥⊘ · UNO!!", "🟥⊘!", "Draw a card!", "UNO!!", "🔄", "🤖 Play for me!"]


def test_the_inline_results_are_hand_menus_moves_then_the_rest_of_the_hand() -> None:
    """Inline results: ``hand_menu``'s plays then its other moves, in its order (titles in
    the words of the move, the other moves after ▶️ with their detail), then the cards
    that cannot be played now."""
    g = _game([["R1", "B2", "R9", "W"], ["G3"], ["B5"]])
    view, legal = engine.view(g, PLAYERS[0]), engine.legal_actions(g, PLAYERS[0])
    rows = controls.hand_menu(_info(g), view, legal, EN, **widgets.HAND_OPTIONS)
    moves = [c for row in rows for c in row if isinstance(c.intent, intents.Act)]
    results, _ = widgets.inline_answer(_info(g), view, legal, EN, "uno_bot")
    seats = list(PLAYERS)
    assert [r.id.split("|")[2] for r in results[: len(moves)]] == [
        encode_action(c.intent.action, seats)  # type: ignore[union-attr]
        for c in moves
    ]
    assert results[len(moves) - 1].title == "▶️ " + moves[-1].detail == "▶️ Draw a card"
    assert [r.id.split("|")[2] for r in results[len(moves) :]] == ["-B2", "P1"]
