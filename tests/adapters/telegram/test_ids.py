"""Compact ids: every action round-trips, nothing exceeds Telegram's 64 bytes, forgeries fail."""

from __future__ import annotations

import pytest

from adapters.telegram.ids import (
    MAX_DATA,
    chat_of,
    decode_action,
    encode_action,
    key_of,
    key_of_tid,
    pack,
    tid_of,
    unpack,
    user_of,
)
from engine import (
    COLORS,
    Accept,
    Action,
    CallUno,
    Card,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    Leave,
    NextRound,
    Pass,
    Play,
    full_deck,
)

SEATS = [f"tg:{1_000_000_000 + i}" for i in range(9)] + ["bot:tg:-1001234567890_99:1"]


def test_keys_and_table_ids() -> None:
    assert key_of(-1001234567890) == "tg:-1001234567890"
    assert key_of(-1001234567890, 45) == "tg:-1001234567890:45"
    assert chat_of("tg:-1001234567890:45") == (-1001234567890, 45)
    assert tid_of("tg:-1001234567890:45") == "-1001234567890_45"
    assert key_of_tid("-1001234567890_45") == "tg:-1001234567890:45"
    assert key_of_tid("42") == "tg:42"
    for bad in ("", "abc", "-100_", "1_2_3", "tg:1"):
        assert key_of_tid(bad) is None
    assert user_of("tg:77") == 77
    assert user_of("bot:tg:-1:1") is None
    assert user_of("dc:77") is None


def _all_actions() -> list[Action]:
    out: list[Action] = [Draw(), Pass(), Accept(), Challenge(), CallUno(), NextRound(), Leave()]
    out += [ChooseColor(c) for c in COLORS]
    out += [CatchUno(p) for p in SEATS]
    for card in sorted(set(full_deck()), key=lambda c: c.order):
        if card.is_wild:
            out += [Play(card, c) for c in COLORS]
            out.append(Play(card))
        else:
            out.append(Play(card))
            out.append(Play(card, uno=True))
    seven = Card.parse("R7")
    out += [Play(seven, target=p, uno=True) for p in SEATS]
    out.append(Play(Card.parse("YD2"), together=(Card.parse("YD2"), Card.parse("YD2"))))
    out.append(Play(Card.parse("G5"), COLORS[0], together=(Card.parse("R5"),)))
    return out


@pytest.mark.parametrize("action", _all_actions(), ids=repr)
def test_actions_round_trip_within_64_bytes(action: Action) -> None:
    code = encode_action(action, SEATS)
    assert code is not None
    assert decode_action(code, SEATS) == action
    # the longest table id there is: a supergroup and a forum topic
    data = pack("a", "-1001234567890_2147483647", 999999, code)
    assert len(data.encode()) <= MAX_DATA
    parsed = unpack(data)
    assert parsed is not None
    assert parsed.key == "tg:-1001234567890:2147483647"
    assert decode_action(parsed.args[1], SEATS) == action


@pytest.mark.parametrize(
    "data",
    [None, "", "x", "a", "a|notachat|1|d", "|-100|1|d", "a|-100_x|1|d", "é" * 40],
)
def test_forged_data_does_not_parse(data: str | None) -> None:
    assert unpack(data) is None


@pytest.mark.parametrize(
    "code", ["", "p", "pZZ", "pR5/X", "pR5@99", "x99", "kQ", "zz", "pR5+", "pW/R/G", "d!"]
)
def test_forged_actions_do_not_decode(code: str) -> None:
    assert decode_action(code, SEATS) is None


def test_pack_refuses_over_64_bytes() -> None:
    with pytest.raises(ValueError, match="64"):
        pack("a", "-1001234567890_1", "x" * 60)


# -- players by stable ids (not seat indexes) ---------------------------------------------------

ALICE, BOB, CAROL, BOT = "tg:1001", "tg:1002", "tg:1003", "bot:tg:-100123:2"


def test_a_target_survives_the_seats_reordering() -> None:
    """A player who leaves and sits down again goes to the end of the seats: a button made
    before must still name the same player (a swap, a catch), never whoever sits there now."""
    before = [ALICE, BOB, CAROL, BOT]
    after = [BOB, CAROL, BOT, ALICE]  # Alice left and came back
    seven = Card.parse("R7")
    for target in (CAROL, BOT, ALICE):
        for action in (Play(seven, target=target), CatchUno(target)):
            code = encode_action(action, before)
            assert code is not None
            assert decode_action(code, after) == action, code
    assert encode_action(CatchUno(CAROL), before) == "x1003"
    assert encode_action(Play(seven, target=BOT, uno=True), before) == "pR7@b2!"


@pytest.mark.parametrize(
    "code",
    [
        "x1004",  # a user id nobody at the table has
        "pR7@1004",
        "xb3",  # a bot seat there is not
        "pR7@b9",
        "x01003",  # not the canonical form of an id
        "pR7@b02",
        "x-1003",
        "x",
        "pR7@",
        "xb",
        "x" + "9" * 17,  # longer than any Telegram user id
    ],
)
def test_a_player_not_at_the_table_decodes_to_nothing(code: str) -> None:
    assert decode_action(code, [ALICE, BOB, CAROL, BOT]) is None


def test_a_player_who_left_is_not_encoded() -> None:
    assert encode_action(CatchUno("tg:42"), [ALICE, BOB]) is None
    assert encode_action(Play(Card.parse("R7"), target="dc:42"), ["dc:42", ALICE]) is None


def test_the_longest_button_with_a_player_fits_in_64_bytes() -> None:
    """A forum topic of a supergroup (10-digit chat and topic ids), a 10-digit user id, a
    version of ten million, and the longest play that names a player: four sevens (two
    decks, multi-play) swapping hands, with UNO."""
    big = "tg:9999999999"
    seats = [ALICE, big, "bot:tg:-1009999999999:9999999999:99"]
    tid = "-1009999999999_9999999999"
    version = 10**7
    seven = Card.parse("R7")
    worst = [
        Play(seven, target=big, together=(seven, seven, seven), uno=True),
        Play(seven, target=seats[2], together=(seven, seven, seven), uno=True),
        CatchUno(big),
        CatchUno(seats[2]),
    ]
    for action in worst:
        code = encode_action(action, seats)
        assert code is not None
        data = pack("a", tid, version, code)  # raises over 64 bytes
        result_id = f"{tid}|{version}|{code}"  # an inline result's id
        assert len(data.encode()) <= MAX_DATA and len(result_id.encode()) <= MAX_DATA
        parsed = unpack(data)
        assert parsed is not None and parsed.key == "tg:-1009999999999:9999999999"
        assert decode_action(parsed.args[1], list(reversed(seats))) == action
