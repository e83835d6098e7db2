"""Typed intents and their one text form: every intent round-trips under both platforms'
limits; anything else decodes to a typed refusal."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ui import intents as it
from bot.ui import settings_schema as schema
from engine import (
    COLORS,
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    NextRound,
    Pass,
    Play,
    Rules,
    full_deck,
)
from engine import Leave as LeaveAction

SEATS = ["tg:1234567890", "dc:998877665544332211", "bot:tg:-1001:2", "term:p1", "bot:dc:5:17"]
LIMITS = (it.TELEGRAM_LIMIT, it.DISCORD_LIMIT)
CARDS = sorted(set(full_deck(1)), key=lambda c: c.order)

tokens = st.sampled_from(["-1001234567890_45", "123", "998877665544332211", "term", "a_b-c"])
versions = st.integers(0, 10**10)
players = st.sampled_from(SEATS)
colors = st.sampled_from(COLORS)


@st.composite
def plays(draw: Any) -> Play:
    card = draw(st.sampled_from(CARDS))
    together = draw(st.lists(st.sampled_from(CARDS), max_size=6))
    return Play(
        card,
        draw(st.none() | colors),
        draw(st.none() | players),
        tuple(together),
        uno=draw(st.booleans()),
    )


actions = st.one_of(
    st.sampled_from(
        [Draw(), Pass(), Accept(), Challenge(), CallUno(), NextRound(), LeaveAction()]
    ),
    colors.map(ChooseColor),
    players.map(CatchUno),
    plays(),
)


@st.composite
def set_flags(draw: Any) -> it.SetFlag:
    flag = draw(st.sampled_from(list(schema.SCHEMA)))
    return it.SetFlag(flag, draw(st.sampled_from(schema.menu_values(flag))))


choices = st.lists(st.sampled_from(CARDS), min_size=1, max_size=4).flatmap(
    lambda cs: st.sampled_from(["+".join(c.code for c in cs), "+".join(c.code for c in cs) + "!"])
)

intents = st.one_of(
    st.builds(it.Act, actions, versions),
    st.sampled_from(
        [
            it.Join(),
            it.LeaveTable(),
            it.AddBot(),
            it.Start(),
            it.OpenHand(),
            it.Refresh(),
            it.CloseSettings(),
            it.OpenKick(),
        ]
    ),
    st.builds(it.OpenSettings, st.integers(0, 40)),
    st.sampled_from(list(schema.SCHEMA)).map(it.OpenFlag),
    set_flags(),
    st.sampled_from(Rules.PRESET_NAMES).map(it.SetPreset),
    players.map(it.Kick),
    st.builds(it.Page, st.integers(0, 99), versions),
    st.builds(it.Pick, choices, versions),
    st.builds(it.Back, versions),
    st.builds(
        it.Language,
        st.sampled_from(["chat", "user"]),
        st.none() | st.sampled_from(["en", "zh_Hans", "zh_Hant"]),
    ),
    st.from_regex(r"[A-Za-z0-9_]{1,16}", fullmatch=True).map(it.Choose),
    st.sampled_from(CARDS).map(it.Unplayable),
    st.sampled_from(it.CARD_LOOKS).map(it.CardLook),
    st.booleans().map(it.Autopilot),  # issue 22
    st.builds(it.VoteEnd, st.just(0) | versions),
)


@given(intents, tokens)
def test_every_intent_round_trips_under_both_limits(intent: it.Intent, token: str) -> None:
    for limit in LIMITS:
        try:
            text = it.encode(intent, token, limit=limit)
        except it.TooLong:
            assert limit == it.TELEGRAM_LIMIT  # only long plays overflow, and on Telegram
            assert it.try_encode(intent, token, limit=limit) is None
            continue
        assert len(text.encode()) <= limit and text.isascii()
        press = it.decode(text, limit=limit)
        assert isinstance(press, it.Press), text
        assert press.token == token
        assert press.resolve(SEATS) == intent, text


@given(st.text(max_size=120) | st.binary(max_size=80).map(lambda b: b.decode("latin-1")))
def test_garbage_decodes_to_a_refusal(text: str) -> None:
    for limit in LIMITS:
        got = it.decode(text, limit=limit)
        if isinstance(got, it.Press):  # it can happen: then it is exactly a text we make
            intent = got.resolve(SEATS)
            if not isinstance(intent, it.DecodeRefusal):
                assert it.encode(intent, got.token, limit=limit) == text
        else:
            assert got.reason in ("forged", "outdated")


@pytest.mark.parametrize(
    "text",
    [
        "",
        None,
        "a:123:5",  # no action
        "a:123:x:d",  # no version
        "a:123:5:q",  # no such action
        "a:123:5:pZ9",  # no such card
        "j:123:extra",
        "j:12 3",
        "v:123:zz:true",  # no such flag
        "v:123:ji:7",  # a yes/no flag given a number
        "v:123:st:sideways",
        "p:123:chaos",
        "f:123:st:x",
        "i:123:4:Q",
        "L:123:x:en",
        "q:123",
        "u:123:Q9",
        "P:123:2",  # the autopilot: 1 or 0 only
        "P:123",
        "e:123",  # a vote: its version
        "e:123:x",
        "a:" + "1" * 70 + ":1:d",
    ],
)
def test_forged_inputs(text: str | None) -> None:
    assert it.decode(text, limit=it.DISCORD_LIMIT) == it.DecodeRefusal("forged")


@pytest.mark.parametrize(
    "text",
    [
        "a|-1001234567890_45|17|pR5",
        "sv|-100123|3|1",
        "j|-100123",
        "uno:join:123456789:4",
        "uno:play:123456789:4:R5~B@b2!",
        "uno:flag:123456789:4:stacking",
    ],
)
def test_buttons_of_the_old_forms_are_outdated(text: str) -> None:
    assert it.decode(text, limit=it.DISCORD_LIMIT) == it.DecodeRefusal("outdated")


def test_a_player_not_seated_is_a_forgery() -> None:
    text = it.encode(it.Kick("tg:42"), "7", limit=64)
    press = it.decode(text, limit=64)
    assert isinstance(press, it.Press) and press.needs_seats
    assert press.resolve(["tg:42"]) == it.Kick("tg:42")
    assert press.resolve(["tg:43"]) == it.DecodeRefusal("forged")
    catch = it.decode(it.encode(it.Act(CatchUno("bot:tg:7:3"), 9), "7", limit=64), limit=64)
    assert isinstance(catch, it.Press)
    # the table moved: its bot seats keep the ids of the key they were added under
    assert catch.resolve(["bot:tg:old:3"]) == it.Act(CatchUno("bot:tg:old:3"), 9)
    assert catch.resolve(["bot:tg:a:3", "bot:tg:b:3"]) == it.DecodeRefusal("forged")  # ambiguous
    join = it.decode("j:7", limit=64)
    assert isinstance(join, it.Press) and not join.needs_seats and join.resolve() == it.Join()


def test_flags_are_named_by_their_key_not_their_position() -> None:
    text = it.encode(it.SetFlag("deflect", "all"), "-100123", limit=64)
    assert text == "v:-100123:df:all"
    assert it.encode(it.SetFlag("jump_in", True), "1", limit=64) == "v:1:ji:true"
    assert it.encode(it.Act(Play("R5", target="tg:9", uno=True), 3), "1", limit=64) == (
        "a:1:3:pR5@9!"
    )


def test_what_no_button_can_carry() -> None:
    with pytest.raises(ValueError):
        it.encode(it.Kick("nobody"), "1", limit=64)  # no short form
    with pytest.raises(ValueError):
        it.encode(it.Join(), "1:2", limit=64)  # not a token
    with pytest.raises(it.TooLong):
        it.encode(it.Join(), "1" * 48, limit=20)
    assert it.short_player("tg:b12") is None  # would read as a bot seat
    assert it.short_player("bot:tg:-100:2") == "b2"
