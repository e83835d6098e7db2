"""Issue 9 item 23: the terminal table printed "You passes", "You takes the penalty", "You is
skipped", "You deals" (and "你 出了" in Chinese). ``event_line(..., viewer=...)`` addresses
the reader in the second person; every event type is checked here with the reader in every
role it can hold, in English and both Chinese catalogues. Notices about the reader too."""

from __future__ import annotations

import dataclasses
import re

import pytest

import engine.events as events_module
from bot.port import Notice
from bot.ui import render
from bot.ui.i18n import translator
from engine import (
    Card,
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    Color,
    ColorChosen,
    DeckReshuffled,
    DirectionReversed,
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

ME, BOB = "term:p1", "bot:t:1"
MY_NAME = "Zyx"  # the reader's display name: never shown to them once they are "you"
NAMES = {ME: MY_NAME, BOB: "Bob"}
R5, W4 = Card.parse("R5"), Card.parse("W4")
LANGS = ["en", "zh_Hans", "zh_Hant"]


def _events() -> list[events_module.Event]:
    out: list[events_module.Event] = [
        RoundStarted(1, ME, (ME, BOB), R5, Color.RED, 1, ME, 7, dealer_draws=((ME, R5),)),
        RoundStarted(1, BOB, (ME, BOB), R5, Color.RED, 1, ME, 7),
        RoundStarted(1, BOB, (ME, BOB), Card.parse("W"), None, 1, ME, 7),
        RoundStarted(1, BOB, (ME, BOB), Card.parse("RD2"), Color.RED, 1, ME, 7, pending=2),
        CardPlayed(ME, R5, cards_left=1),
        CardPlayed(ME, R5, jump_in=True),
        CardPlayed(ME, W4, color=Color.BLUE),
        TurnSkipped(ME),
        DirectionReversed(-1),
        ColorChosen(ME, Color.GREEN),
        ColorChosen(ME, Color.GREEN, random=True),
        PenaltyStacked(ME, 4),
        Passed(ME),
        UnoCalled(ME),
        UnoCaught(ME, BOB, 2),
        UnoCaught(BOB, ME, 2),
        UnoFalseAlarm(ME, 2),
        UnoFalseAlarm(ME, 2, BOB),
        UnoFalseAlarm(BOB, 2, ME),
        UnoWindowClosed(ME),
        HandsSwapped(ME, BOB),
        HandsSwapped(BOB, ME),
        HandsRotated(ME, 1),
        DeckReshuffled(40),
        DeckReshuffled(80, "start"),
        PlayerLeft(ME),
        PlayerJoined(ME),
        TurnTimedOut(ME),
        GameWon(ME),
        # issue 14
        PlayerFinished(ME, 1),
        PlayerFinished(BOB, 2),
        ColorChosen(ME, Color.GREEN, kept=True),
        RoundWon(ME, 2, 30, "out", places=(ME, BOB)),
        RoundStarted(1, BOB, (ME, BOB), R5, Color.RED, 1, ME, 7, ((ME, R5),), draws_for="first"),
    ]
    for how in ("skip", "reverse", "wild"):
        out += [PenaltyPassed(ME, BOB, 2, how), PenaltyPassed(BOB, ME, 2, how)]
    for reason in ("draw", "penalty", "first_play", "last_card", "uno", "false_uno", "challenge"):
        out += [CardsDrawn(ME, 2, (R5, W4), reason), CardsDrawn(ME, 1, (R5,), reason)]
    out.append(CardsDrawn(ME, 0, (), "draw"))
    for guilty in (True, False):
        for who, other in ((ME, BOB), (BOB, ME)):
            out.append(ChallengeResolved(who, other, guilty, 4, other, (R5, W4)))
    for reason in ("out", "blocked", "last_player"):
        out += [RoundWon(ME, 2, 30, reason), RoundWon(ME, 2, 0, reason)]
    return out


EVENTS = _events()


def test_every_event_type_is_checked() -> None:
    kinds = {
        getattr(events_module, name)
        for name in events_module.__all__
        if dataclasses.is_dataclass(getattr(events_module, name))
    }
    assert kinds == {type(e) for e in EVENTS}


# "You passes", "You is", "you draws"... but "You pass", "You were"
WRONG_EN = re.compile(r"\b[Yy]ou (?:is|has|was|\w*[^s\W]s)\b")
WRONG_ZH = re.compile(r"你 [\u4e00-\u9fff]")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("event", EVENTS, ids=[type(e).__name__ for e in EVENTS])
def test_the_readers_own_events_address_them(event: events_module.Event, lang: str) -> None:
    tr = translator(lang)
    third = render.event_line(event, tr, NAMES)
    line = render.event_line(event, tr, NAMES, viewer=ME)
    assert (line is None) == (third is None)
    if line is None:
        return
    assert MY_NAME not in line, line
    if MY_NAME in (third or ""):
        # the line was about the reader: now it speaks to them
        assert ("You" in line or "you" in line) if lang == "en" else "你" in line, line
        assert line != third
    else:
        assert line == third  # nothing about the reader: the same line
    if lang == "en":
        assert not WRONG_EN.search(line), line
    else:
        assert not WRONG_ZH.search(line), line
        # names other than "you" keep the catalogue's space; "你" never has one after it
        assert "你 " not in line.replace("你 🟥", ""), line


@pytest.mark.parametrize("lang", LANGS)
def test_the_terminal_reader_named_you_reads_right(lang: str) -> None:
    """The terminal names its one person "You" (translated): with the viewer given, the
    verbs agree ("You pass", not "You passes"; "你不出", not "你 不出")."""
    tr = translator(lang)
    names = {ME: tr.gettext("You"), BOB: "Bob"}
    for e in EVENTS:
        line = render.event_line(e, tr, names, viewer=ME)
        if line is None:
            continue
        if lang == "en":
            assert not WRONG_EN.search(line), line
        else:
            assert not WRONG_ZH.search(line.replace("你 🟥", "")), line


def test_examples_in_english() -> None:
    en = translator("en")

    def say(e: events_module.Event) -> str | None:
        return render.event_line(e, en, NAMES, viewer=ME)

    assert say(Passed(ME)) == "You pass."
    assert say(TurnSkipped(ME)) == "You are skipped."
    assert say(CardsDrawn(ME, 2, None, "penalty")) == "You take the penalty and draw 2 cards."
    assert say(CardsDrawn(ME, 1, (R5,), "draw")) == "You drew 1 card: 🟥 5"
    assert say(UnoCaught(BOB, ME, 2)) == "Bob caught you without UNO! You draw 2 cards."
    assert say(PenaltyPassed(BOB, ME, 2, "reverse")) == "Bob reverses the +2 back to you!"
    started = say(RoundStarted(1, ME, (ME, BOB), R5, Color.RED, 1, BOB, 7))
    assert started is not None and "you deal 7 cards each" in started
    assert "Bob plays first." in started
    assert say(Passed(BOB)) == "Bob passes."  # others: third person as before
    zh = render.event_line(Passed(ME), translator("zh_Hans"), NAMES, viewer=ME)
    assert zh == "你不出，轮到下家。"
    played = render.event_line(CardPlayed(ME, R5), translator("zh_Hant"), NAMES, viewer=ME)
    assert played == "你出了 🟥 5。"


@pytest.mark.parametrize("lang", LANGS)
def test_news_about_the_reader_addresses_them(lang: str) -> None:
    tr = translator(lang)
    for code in render.INFOS_YOU:
        params = {"player": ME, "name": MY_NAME, "points": 20, "votes": 1, "needed": 2}
        text = render.notice_text(Notice(code, params), tr, NAMES, viewer=ME)
        assert MY_NAME not in text
        assert ("You" in text) if lang == "en" else ("你" in text and "你 " not in text), text
        assert not WRONG_EN.search(text), text
        # without the viewer: the third person, as the chats show it
        assert MY_NAME in render.notice_text(Notice(code, params), tr, NAMES)
    text = render.notice_text(Notice("info.round_won", {"player": ME}), tr, NAMES, viewer=ME)
    assert MY_NAME not in text
