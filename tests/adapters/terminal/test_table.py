"""The terminal table as its one person plays it (issue 9 items 2, 23, 24, 26): lines about
them in the second person, the seats with their card counts above the hand, the cards they
draw, UNO called (or forgotten) by them, and the table's rules on screen."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.terminal.table import TerminalOptions, TerminalPort, play
from bot.i18n import translator
from bot.model import Seat
from bot.port import TableInfo
from engine import CardsDrawn, Passed, Rules, new_game, view

COLOURED = ("🟥", "🟨", "🟩", "🟦", "🌈")
MOVE = re.compile(r"^\s+(\d+)\. (.*)$", re.M)
WRONG_EN = re.compile(r"\b[Yy]ou (?:is|has|was|\w*[^s\W]s)\b")
WRONG_ZH = re.compile(r"你 [\u4e00-\u9fff]")


class Player:
    """Stands in for ``input``: reads the moves the terminal listed since the last
    question and answers with ``choose(hand size, [(number, label)])``; answers the late
    UNO offer with ``late``; quits (EOF) once ``stop()`` says so."""

    def __init__(
        self,
        out: io.StringIO,
        choose: Callable[[int, list[tuple[str, str]]], str],
        late: str = "",
        stop: Callable[[str], bool] = lambda text: False,
    ) -> None:
        self.out = out
        self.choose = choose
        self.late = late
        self.stop = stop
        self.seen = 0
        self.asked: list[str] = []
        self.offered_uno = 0

    def __call__(self, prompt: str) -> str:
        self.asked.append(prompt)
        text = self.out.getvalue()
        block, self.seen = text[self.seen :], len(text)
        if self.stop(text):
            raise EOFError
        if prompt.startswith("❗"):
            return self.late
        moves = MOVE.findall(block)
        hands = re.findall(r"Your cards \((\d+)\)", block)
        if any(label.endswith("and call UNO!") for _, label in moves):
            self.offered_uno += 1
        return self.choose(int(hands[-1]) if hands else 0, moves)


def shed(uno: bool) -> Callable[[int, list[tuple[str, str]]], str]:
    """Play a card when one is listed (with the UNO call, or without, when offered)."""

    def choose(hand: int, moves: list[tuple[str, str]]) -> str:
        labels = dict(moves)
        for n, label in moves:
            if label.endswith("and call UNO!"):
                if uno:
                    return n
                plain = label.removesuffix(" and call UNO!")
                return next(k for k, v in labels.items() if v == plain)
        for n, label in moves:
            if label.startswith(COLOURED):
                return n
        return moves[0][0] if moves else "1"

    return choose


def draw_first(hand: int, moves: list[tuple[str, str]]) -> str:
    for n, label in moves:
        if label == "Draw a card":
            return n
    for n, label in moves:
        if label in ("Pass", "Take the cards"):
            return n
    return moves[0][0] if moves else "1"


def options(db: Path, **kw: Any) -> TerminalOptions:
    base: dict[str, Any] = {
        "players": 2,
        "bots": 1,
        "db": db,
        "delay": 0.0,
        "seed": 5,
        "overrides": {"target": 0},
        "interactive": True,
        "round_pause": 0.0,
    }
    base.update(kw)
    return TerminalOptions(**base)


async def run(opts: TerminalOptions, player: Player, out: io.StringIO) -> dict[str, Any]:
    return await asyncio.wait_for(play(opts, out=out, ask=player), 120)


# -- item 23: "You pass", not "You passes" ----------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh_Hans", "zh_Hant"])
async def test_the_persons_own_lines_are_in_the_second_person(tmp_path: Path, lang: str) -> None:
    out = io.StringIO()
    opts = options(tmp_path / "y.db", players=3, bots=2, lang=lang, seed=11)
    summary = await run(opts, Player(out, draw_first), out)
    assert summary["status"] == "finished"
    text = out.getvalue()
    you = translator(lang).gettext("You")
    lines = [line for line in text.splitlines() if line.startswith("#")]
    assert lines
    if lang == "en":
        assert any(line.split(" ", 1)[1].startswith("You ") for line in lines)
        for line in lines:
            assert not WRONG_EN.search(line), line
        assert "You pass." in text or "You drew" in text
    else:
        assert any(you in line for line in lines)
        for line in lines:
            assert not WRONG_ZH.search(line.replace("你 🟥", "").replace("你 🟨", "")), line


# -- item 24: the seats and their card counts, the drawn card -----------------------------------


async def test_the_seats_with_their_card_counts_are_shown_above_the_hand(tmp_path: Path) -> None:
    out = io.StringIO()
    player = Player(out, draw_first, stop=lambda text: text.count("Your cards") >= 3)
    await run(options(tmp_path / "s.db", players=3, bots=2), player, out)
    text = out.getvalue()
    blocks = text.split("🃏 Your cards")[:-1]
    assert len(blocks) >= 2
    for block in blocks[1:] if len(blocks) > 1 else blocks:
        before = block.split("\n\n")[-2] if "\n\n" in block else block
        seats = [line for line in before.splitlines() if re.match(r"^[▶•] ", line)]
        assert len(seats) == 3, before
        for name in ("You", "Bot 1", "Bot 2"):
            assert any(re.match(rf"^[▶•] {name}: \d+ cards?", s) for s in seats), seats


async def test_the_card_the_person_draws_is_shown_to_them(tmp_path: Path) -> None:
    out = io.StringIO()
    player = Player(out, draw_first, stop=lambda text: text.count("You drew") >= 6)
    await run(options(tmp_path / "d.db", players=2, bots=1, seed=3), player, out)
    text = out.getvalue()
    mine = [line for line in text.splitlines() if line.startswith("#") and "You drew" in line]
    assert len(mine) >= 3
    for line in mine:
        assert re.search(r"You drew \d+ cards?: (🟥|🟨|🟩|🟦|🌈) ", line), line
    assert "You drew 1 card." not in text  # never only the count, as the others see it


async def test_only_the_person_at_the_keyboard_sees_their_drawn_cards() -> None:
    """Hot seat: a draw by someone not at the keyboard shows the count only."""
    out = io.StringIO()
    port = TerminalPort(out, translator("en"), quiet_private=False)
    seats = (Seat("term:p1", "Player 1"), Seat("term:p2", "Player 2"))
    g = new_game(["term:p1", "term:p2"], Rules(), 1)
    info = TableInfo("term:table", "term", 9, "playing", "term:p1", seats, (), Rules(),
                     "official", "en", view(g, None), {}, 1)  # fmt: skip
    port.keyboard = "term:p1"
    drawn = CardsDrawn("term:p2", 1, None, "draw")
    await port.show_table(info, [drawn, Passed("term:p2")])
    assert "Player 2 drew 1 card.\n" in out.getvalue()
    mine = CardsDrawn("term:p1", 1, None, "draw")
    await port.show_table(info, [mine, Passed("term:p1")])
    assert "Player 1 drew" not in out.getvalue()  # held for their own view
    card = g.hand("term:p1")[0]
    await port.show_hand(info, "term:p2", view(g, "term:p2"), [mine, Passed("term:p1")])
    assert "Player 1 drew" not in out.getvalue()  # not to another player
    seen = CardsDrawn("term:p1", 1, (card,), "draw")
    await port.show_hand(info, "term:p1", view(g, "term:p1"), [seen, Passed("term:p1")])
    text = out.getvalue()
    assert "#9 Player 1 drew 1 card: " in text and text.index("drew 1 card: ") < text.index(
        "#9 Player 1 passes."
    )


# -- item 26: calling UNO is the person's -------------------------------------------------------


UNO_RULES = {"target": 0, "hand_size": 3}


async def test_a_person_who_does_not_call_uno_is_caught_by_a_bot(tmp_path: Path) -> None:
    out = io.StringIO()
    player = Player(out, shed(uno=False), late="")
    opts = options(tmp_path / "c.db", overrides=UNO_RULES, seed=4)
    summary = await run(opts, player, out)
    assert summary["status"] == "finished"
    text = out.getvalue()
    assert player.offered_uno >= 1  # "play … and call UNO!" was offered beside the play
    assert "You call UNO!" not in text  # nobody called it for them
    assert "Bot 1 caught you without UNO! You draw 2 cards." in text


async def test_a_person_who_plays_and_calls_uno_is_safe(tmp_path: Path) -> None:
    out = io.StringIO()
    player = Player(out, shed(uno=True))
    opts = options(tmp_path / "u.db", overrides=UNO_RULES, seed=4)
    summary = await run(opts, player, out)
    assert summary["status"] == "finished"
    text = out.getvalue()
    assert player.offered_uno >= 1
    assert "You call UNO!" in text
    assert "caught you" not in text
    assert not any(p.startswith("❗") for p in player.asked)  # nothing forgotten


async def test_a_person_may_call_uno_after_the_play_while_nobody_has_caught_them(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    player = Player(
        out,
        shed(uno=False),
        late="u",
        stop=lambda text: "You call UNO!" in text or "caught you" in text,
    )
    opts = options(tmp_path / "l.db", overrides=UNO_RULES, seed=3, delay=1.0)
    await run(opts, player, out)
    text = out.getvalue()
    assert any(p.startswith("❗") for p in player.asked)  # offered after the play
    assert "You call UNO!" in text and "caught you" not in text


# -- item 2: the rules on screen, inactive flags marked ------------------------------------------


async def test_the_rules_are_shown_with_inactive_flags_marked(tmp_path: Path) -> None:
    out = io.StringIO()
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) == 1:
            return "r"
        raise EOFError

    opts = options(tmp_path / "r.db", preset="house", overrides={"stacking": "off"})
    await asyncio.wait_for(play(opts, out=out, ask=ask), 60)
    text = out.getvalue()
    note = "• Deflect a +2: on (needs “Stacking”)"
    assert text.count(note) == 2  # at the start, and again for "r"
    assert text.index("📜 House rules") < text.index("🃏 Your cards")


# -- issue 14: UNO called with the play ----------------------------------------------------------


async def test_with_play_a_late_call_is_not_offered_and_the_bots_catch(tmp_path: Path) -> None:
    """uno_call=with_play (seed 001): the terminal lists "… and call UNO!" beside the play as
    always; once the play went without it, no late call is offered (it would not protect),
    and a bot catches the person."""
    out = io.StringIO()
    player = Player(out, shed(uno=False), late="u")
    rules = {**UNO_RULES, "uno_call": "with_play"}
    opts = options(tmp_path / "w.db", overrides=rules, seed=4)
    summary = await run(opts, player, out)
    assert summary["status"] == "finished"
    text = out.getvalue()
    assert player.offered_uno >= 1
    assert not any(p.startswith("❗") for p in player.asked)  # no late call offered
    assert "Bot 1 caught you without UNO! You draw 2 cards." in text
    assert "too late now" in text  # the hand says why


async def test_the_variants_are_set_on_the_command_line(tmp_path: Path) -> None:
    """``--set`` takes issue 14's flags and values; the old yes/no of deflect still reads."""
    from bot.cli import _rules

    r = _rules("official", ["places=true", "uno_call=with_play", "deflect=true"])
    assert (r.places, r.uno_call, r.deflect) == (True, "with_play", "draw_two")
    assert _rules("official", ["partners=rotate"]).partners == "rotate"
    with pytest.raises(SystemExit):
        _rules("official", ["places=true", "partners=true"])
