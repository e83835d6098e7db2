"""The terminal table as its one person plays it (issue 9 items 2, 23, 24, 26; issue 19
items 12 to 19): lines about them in the second person, the seats with their card counts
above the hand, the cards they draw, UNO called (or forgotten) by them, the table's rules
on screen; the screen following the game, the clocks stopped while the program is, the
scores, jumping in, leaving and coming back. On a fake clock (``script.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.terminal.table import TerminalOptions, TerminalPort
from bot.model import Seat
from bot.port import TableInfo
from bot.ui import render
from bot.ui.i18n import translator
from engine import CardsDrawn, Passed, Rules, new_game, view
from tests.adapters.terminal.script import EOF, INTERRUPT, Answer, Script, Wait, run

COLOURED = ("🟥", "🟨", "🟩", "🟦", "🌈")
WRONG_EN = re.compile(r"\b[Yy]ou (?:is|has|was|\w*[^s\W]s)\b")
WRONG_ZH = re.compile(r"你 [\u4e00-\u9fff]")
Pick = Callable[[list[tuple[str, str]]], str]


def person(
    pick: Pick, *, stop: Callable[[Script], bool] = lambda s: False
) -> Callable[[Script], Answer]:
    """Answers each question with ``pick(moves)``; waits while there is nothing to decide;
    leaves (Ctrl-D) once ``stop`` says so."""

    def choose(s: Script) -> Answer:
        if stop(s):
            return EOF
        if s.prompt is None or s.prompt.waiting:
            return Wait(1)
        if s.question.startswith("Pass the keyboard"):
            return ""
        return pick(s.current_moves())

    return choose


def shed(uno: bool) -> Pick:
    """Play a card when one is listed (with the UNO call, or without, when offered)."""

    def pick(moves: list[tuple[str, str]]) -> str:
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

    return pick


def draw_first(moves: list[tuple[str, str]]) -> str:
    for wanted in ("Draw a card", "Pass", "Take the cards"):
        for n, label in moves:
            if label == wanted:
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


def lines_of(text: str) -> list[str]:
    """The table's own lines: what is neither a move, a prompt nor a seat."""
    return [
        line
        for line in text.splitlines()
        if line and not re.match(r"^\s|^[▶•] |^Your move|^🃏|^Top card", line)
    ]


# -- issue 9 item 23: "You pass", not "You passes" -------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh_Hans", "zh_Hant"])
async def test_the_persons_own_lines_are_in_the_second_person(tmp_path: Path, lang: str) -> None:
    script = Script(person(draw_first))
    opts = options(tmp_path / "y.db", players=3, bots=2, lang=lang, seed=11)
    summary = await run(opts, script)
    assert summary["status"] == "finished"
    text = script.screen
    you = translator(lang).gettext("You")
    lines = lines_of(text)
    if lang == "en":
        assert any(line.startswith("You ") for line in lines)
        for line in lines:
            assert not WRONG_EN.search(line), line
        assert "You pass." in text or "You drew" in text
    else:
        assert any(line.startswith(you) for line in lines)
        for line in lines:
            assert not WRONG_ZH.search(line.replace("你 🟥", "").replace("你 🟨", "")), line


# -- issue 9 item 24: the seats and their card counts, the drawn card ---------------------------


async def test_the_seats_with_their_card_counts_are_shown_above_the_hand(tmp_path: Path) -> None:
    script = Script(person(draw_first, stop=lambda s: s.screen.count("Your cards") >= 3))
    await run(options(tmp_path / "s.db", players=3, bots=2), script)
    blocks = script.screen.split("🃏 Your cards")[:-1]
    assert len(blocks) >= 2
    for block in blocks[1:]:
        before = block.split("\n\n")[-2]
        seats = [line for line in before.splitlines() if re.match(r"^[▶•] ", line)]
        assert len(seats) == 3, before
        for name in ("You", "Bot 1", "Bot 2"):
            assert any(re.match(rf"^[▶•] {name}: \d+ cards?", s) for s in seats), seats


async def test_the_card_the_person_draws_is_shown_to_them(tmp_path: Path) -> None:
    script = Script(person(draw_first, stop=lambda s: s.screen.count("You drew") >= 6))
    await run(options(tmp_path / "d.db", players=2, bots=1, seed=3), script)
    text = script.screen
    mine = [line for line in text.splitlines() if line.startswith("You drew")]
    assert len(mine) >= 3
    for line in mine:
        assert re.search(r"You drew \d+ cards?: (🟥|🟨|🟩|🟦|🌈) ", line), line
    assert "You drew 1 card." not in text  # never only the count, as the others see it


async def test_only_the_person_at_the_keyboard_sees_their_drawn_cards() -> None:
    """Hot seat: a draw by someone not at the keyboard shows the count only."""
    console = Script(lambda s: EOF)
    port = TerminalPort(console, translator("en"), quiet_private=False)
    seats = (Seat("term:p1", "Player 1"), Seat("term:p2", "Player 2"))
    g = new_game(["term:p1", "term:p2"], Rules(), 1)
    info = TableInfo("term:table", "term", 9, "playing", "term:p1", seats, (), Rules(),
                     "official", "en", view(g, None), {}, 1)  # fmt: skip
    port.keyboard = "term:p1"
    drawn = CardsDrawn("term:p2", 1, None, "draw")
    await port.show_table(info, [drawn, Passed("term:p2")])
    assert "Player 2 drew 1 card.\n" in console.screen
    mine = CardsDrawn("term:p1", 1, None, "draw")
    await port.show_table(info, [mine, Passed("term:p1")])
    assert "Player 1 drew" not in console.screen  # held for their own view
    card = g.hand("term:p1")[0]
    await port.show_hand(info, "term:p2", view(g, "term:p2"), [mine, Passed("term:p1")])
    assert "Player 1 drew" not in console.screen  # not to another player
    seen = CardsDrawn("term:p1", 1, (card,), "draw")
    await port.show_hand(info, "term:p1", view(g, "term:p1"), [seen, Passed("term:p1")])
    text = console.screen
    assert "Player 1 drew 1 card: " in text
    assert text.index("drew 1 card: ") < text.index("Player 1 passes.")


# -- issue 9 item 26: calling UNO is the person's -----------------------------------------------


UNO_RULES = {"target": 0, "hand_size": 3}


def offered_uno(script: Script) -> bool:
    return "and call UNO!" in script.screen


async def test_a_person_who_does_not_call_uno_is_caught_by_a_bot(tmp_path: Path) -> None:
    def choose(s: Script) -> Answer:
        if s.prompt is not None and not s.prompt.waiting and "⚡" in s.screen[-300:]:
            return Wait(1)  # offered the late call: they let it go
        return person(shed(uno=False))(s)

    script = Script(choose)
    summary = await run(options(tmp_path / "c.db", overrides=UNO_RULES, seed=4), script)
    assert summary["status"] == "finished"
    text = script.screen
    assert offered_uno(script)  # "play … and call UNO!" was offered beside the play
    assert "You call UNO!" not in text  # nobody called it for them
    assert "Bot 1 caught you without UNO! You draw 2 cards." in text


async def test_a_person_who_plays_and_calls_uno_is_safe(tmp_path: Path) -> None:
    script = Script(person(shed(uno=True)))
    summary = await run(options(tmp_path / "u.db", overrides=UNO_RULES, seed=4), script)
    assert summary["status"] == "finished"
    text = script.screen
    assert offered_uno(script)
    assert "You call UNO!" in text
    assert "caught you" not in text
    assert "⚡" not in text  # nothing forgotten, nothing to do out of turn


async def test_a_person_may_call_uno_after_the_play_while_nobody_has_caught_them(
    tmp_path: Path,
) -> None:
    """The bots catch after their delay (1 s here): before it, the late call is offered,
    out of turn, and taken."""
    script = Script(
        person(
            shed(uno=False), stop=lambda s: "You call UNO!" in s.screen or "caught you" in s.screen
        )
    )
    opts = options(tmp_path / "l.db", overrides=UNO_RULES, seed=4, delay=1.0)
    await run(opts, script)
    text = script.screen
    assert "⚡ Not your turn, but you may:\n   1. UNO!" in text  # offered after the play
    assert "You call UNO!" in text and "caught you" not in text


# -- issue 9 item 2: the rules on screen, inactive flags marked --------------------------------


async def test_the_rules_are_shown_with_inactive_flags_marked(tmp_path: Path) -> None:
    answers = iter(["r"])
    script = Script(lambda s: next(answers, EOF))
    opts = options(tmp_path / "r.db", preset="house", overrides={"stacking": "off"})
    await run(opts, script)
    text = script.screen
    note = "• Deflect a +2: on (needs “Stacking”)"
    assert text.count(note) == 2  # at the start, and again for "r"
    assert text.index("📜 Custom: House rules + 1 change") < text.index("🃏 Your cards")


# -- issue 14: UNO called with the play ---------------------------------------------------------


async def test_with_play_a_late_call_is_not_offered_and_the_bots_catch(tmp_path: Path) -> None:
    """uno_call=with_play (seed 001): the terminal lists "… and call UNO!" beside the play as
    always; once the play went without it, no late call is offered (it would not protect),
    and a bot catches the person."""
    script = Script(person(shed(uno=False)))
    rules = {**UNO_RULES, "uno_call": "with_play"}
    summary = await run(options(tmp_path / "w.db", overrides=rules, seed=4), script)
    assert summary["status"] == "finished"
    text = script.screen
    assert offered_uno(script)
    assert "⚡" not in text  # no late call offered
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


# -- issue 19 item 14: Ctrl-C leaves the game saved ---------------------------------------------


async def test_ctrl_c_leaves_at_once_with_the_game_saved(tmp_path: Path) -> None:
    script = Script(lambda s: INTERRUPT)
    summary = await run(options(tmp_path / "i.db"), script)
    assert summary["interrupted"] is True and summary["status"] == "playing"
    assert script.screen.endswith("The game is saved. To go on with it, run: uno-bot play\n")


# -- issue 19 item 12: the screen follows the game ----------------------------------------------


async def test_after_a_timeout_the_moves_and_the_prompt_come_back_unasked(tmp_path: Path) -> None:
    """The person lets their turn run out: the turn passes, the bots play, and at their
    next turn their hand, their moves and the prompt are drawn again, nothing typed."""
    turns: list[str] = []

    def choose(s: Script) -> Answer:
        if s.prompt is None or s.prompt.waiting:
            return Wait(1)
        turns.append(s.screen)
        return Wait(60) if len(turns) == 1 else EOF

    script = Script(choose)
    await run(options(tmp_path / "t.db", players=3, bots=2), script)
    assert len(turns) == 2 and script.typed == []
    first, second = turns
    after = second[len(first) :]
    assert "You ran out of time." in after
    assert after.index("You ran out of time.") < after.rindex("🃏 Your cards")
    assert after.rstrip().endswith("q. Quit (the game is saved)")  # the moves, then the prompt
    assert script.question == "Your move (60 s left): "


async def test_the_challenge_of_a_bots_plus_four_is_asked_when_it_is_the_persons(
    tmp_path: Path,
) -> None:
    """A bot plays +4 on the person: the screen changes without anything typed, and the
    challenge is offered with the challenge's own time."""
    found: list[tuple[str, list[tuple[str, str]]]] = []

    def choose(s: Script) -> Answer:
        if s.prompt is None or s.prompt.waiting:
            return Wait(1)
        moves = s.current_moves()
        if any(label == "Challenge" for _, label in moves):
            found.append((s.question, moves))
            return EOF
        return draw_first(moves)

    opts = options(tmp_path / "w4.db", players=3, bots=2)
    await run(opts, Script(choose))
    assert found, "no +4 was played on the person"
    question, moves = found[0]
    assert [label for _, label in moves] == ["Challenge", "Take the cards"]
    assert question == "Your move (20 s left): "


async def test_a_line_console_puts_each_prompt_on_its_own_line() -> None:
    """A pipe's console: what prints while a prompt waits starts on a new line, and the
    prompt comes again below it; leaving ends the prompt's line."""
    import io

    from adapters.terminal.console import LineConsole, Prompt

    out = io.StringIO()
    console = LineConsole(out, io.StringIO(), lambda: 100.0)
    prompt = Prompt("Your move: ", "Your move ({seconds} s left): ", 130.0)
    console.ask(prompt, fresh=True)
    console.write("Bot 1 caught you without UNO! You draw 2 cards.")
    console.ask(prompt, fresh=False)
    await console.close()
    console.write("The game is saved.")
    assert out.getvalue() == (
        "Your move (30 s left): \n"
        "Bot 1 caught you without UNO! You draw 2 cards.\n"
        "Your move (30 s left): \n"
        "The game is saved.\n"
    )


# -- issue 19 item 13: the clocks stop with the program -----------------------------------------


async def test_the_clock_stops_while_the_program_is_closed(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    first = Script(person(draw_first, stop=lambda s: s.screen.count("Your cards") >= 2))
    summary = await run(options(db, players=3, bots=2), first)
    assert summary["status"] == "playing"
    clock = first.clock
    clock.advance(3600)  # an hour later
    waited: list[str] = []

    def choose(s: Script) -> Answer:
        if s.prompt is None or s.prompt.waiting:
            return Wait(1)
        waited.append(s.question)
        return Wait(10) if len(waited) == 1 else EOF

    second = Script(choose, clock)
    summary = await run(options(db, players=3, bots=2), second)
    assert summary["resumed"] is True
    assert "ran out of time" not in second.screen  # no strike for being away
    assert waited == ["Your move (60 s left): ", "Your move (50 s left): "]  # the countdown


# -- issue 19 item 15: the scores -----------------------------------------------------------------


async def test_the_scores_after_each_round_at_the_end_and_on_request(tmp_path: Path) -> None:
    asked = []

    def choose(s: Script) -> Answer:
        if s.prompt is not None and not s.prompt.waiting and not asked:
            asked.append(True)
            return "r"
        return person(shed(uno=True))(s)

    script = Script(choose)
    opts = options(tmp_path / "sc.db", overrides={"target": 60, "hand_size": 3}, seed=7)
    summary = await run(opts, script)
    assert summary["status"] == "finished" and summary["rounds"] >= 2
    text = script.screen
    assert "Scores (to 60 points):\n1. You: 0 points\n2. Bot 1: 0 points" in text  # "r"
    for n in range(1, summary["rounds"]):
        assert f"🏁 Scores after round {n}:\n" in text
    final = text[text.rindex("Final scores:") :].splitlines()
    winner, points = summary["winner"], summary["scores"][summary["winner"]]
    assert final[1] == f"🥇 {winner}: {points} points"


# -- issue 19 item 16: jumping in -----------------------------------------------------------------


async def test_the_person_jumps_in_while_the_bots_play(tmp_path: Path) -> None:
    """With jump-in on and the card on top in their hand, out of turn, the person is
    offered it (the bots wait their delay) and jumps in."""

    def choose(s: Script) -> Answer:
        if "You jump in" in s.screen:
            return EOF
        moves = s.current_moves()
        if s.prompt is not None and not s.prompt.waiting:
            for n, label in moves:
                if label.startswith("Jump in: "):
                    return n
        return person(shed(uno=True))(s)

    script = Script(choose)
    opts = options(tmp_path / "j.db", players=4, bots=3, delay=1.0, seed=1,
                   overrides={"target": 0, "jump_in": True})  # fmt: skip
    await run(opts, script)
    text = script.screen
    assert "⚡ Not your turn, but you may:\n   1. Jump in: " in text
    jumped = re.search(r"Jump in: (\S+ \S+)\nYour move: \d+\nYou jump in with (\S+ \S+)!", text)
    assert jumped is not None and jumped.group(1) == jumped.group(2)


# -- issue 19 item 18: resuming, in another language; a new game ---------------------------------


async def test_a_resumed_game_says_so_in_the_persons_language_and_new_starts_another(
    tmp_path: Path,
) -> None:
    db = tmp_path / "r.db"
    first = Script(person(draw_first, stop=lambda s: "Your cards" in s.screen))
    summary = await run(options(db, players=3, bots=2), first)
    version = summary["version"]

    second = Script(lambda s: EOF)
    summary = await run(options(db, players=3, bots=2, lang="zh_Hans", settings=True), second)
    assert summary["resumed"] is True and summary["version"] == version
    text = second.screen
    assert "牌局已恢复到中断时的样子" in text
    assert "要改开新局，请运行：uno-bot play --new" in text
    assert "uno-bot play --new --settings" in text
    assert "⚙️" not in text  # no settings for a game under way
    assert "机器人 1" in text and "Bot 1" not in text  # the bots in the person's language
    assert "🃏 你的手牌" in text

    third = Script(lambda s: EOF)
    summary = await run(options(db, players=3, bots=2, new=True), third)
    assert summary["resumed"] is False and summary["status"] == "playing"
    assert summary["version"] > version and "back where it was left" not in third.screen
    assert "🃏 Your cards (7)" in third.screen


# -- issue 19 item 19: the smaller things --------------------------------------------------------


async def test_moves_are_listed_in_the_order_of_the_hand(tmp_path: Path) -> None:
    checked = 0

    def choose(s: Script) -> Answer:
        nonlocal checked
        if s.prompt is None or s.prompt.waiting:
            return Wait(1)
        block = s.screen[s.screen.rindex("🃏 Your cards") :]
        hand = " · ".join(block.split("\n\n")[0].splitlines()[1:])
        order = _cards(hand)
        plays = [label.split(" → ")[0] for _, label in s.current_moves()
                 if label.startswith(COLOURED)]  # fmt: skip
        assert plays == sorted(plays, key=order.index), (hand, plays)
        checked += 1
        return draw_first(s.current_moves()) if checked % 2 else s.current_moves()[0][0]

    await run(options(tmp_path / "o.db", players=2, bots=1, seed=8), Script(choose))
    assert checked >= 5


def _cards(hand: str) -> list[str]:
    """``🟥 5 · 7`` -> ``["🟥 5", "🟥 7"]``: the hand's cards as the moves name them."""
    out: list[str] = []
    colour = ""
    for part in hand.split(" · "):
        if part.startswith(COLOURED):
            colour, _, part = part.partition(" ")
        out.append(f"{colour} {part}")
    return out


async def test_a_bad_input_says_what_may_be_typed(tmp_path: Path) -> None:
    answers = iter(["x", "99"])
    script = Script(lambda s: next(answers, EOF))
    await run(options(tmp_path / "b.db"), script)
    n = len(script.current_moves())
    said = f"Type a number from 1 to {n} for a move, r for the rules and scores, q to quit."
    assert script.screen.count(said) == 2


@pytest.mark.parametrize("leave", ["q", EOF])
async def test_leaving_says_the_game_is_saved(tmp_path: Path, leave: Any) -> None:
    script = Script(lambda s: leave)
    summary = await run(options(tmp_path / "q.db"), script)
    assert summary["status"] == "playing" and summary["interrupted"] is False
    assert script.closed
    assert script.screen.endswith("The game is saved. To go on with it, run: uno-bot play\n")


@pytest.mark.parametrize(("lang", "bot"), [("zh_Hans", "机器人 2"), ("zh_Hant", "機器人 2")])
async def test_bots_are_named_in_the_tables_language(tmp_path: Path, lang: str, bot: str) -> None:
    script = Script(lambda s: EOF)
    await run(options(tmp_path / "n.db", players=3, bots=2, lang=lang), script)
    assert re.search(rf"^• {bot}：\d+ [张張] 🤖", script.screen, re.M), script.screen
    assert "Bot 1" not in script.screen


async def test_a_person_reads_no_version_numbers(tmp_path: Path) -> None:
    script = Script(person(draw_first, stop=lambda s: s.screen.count("Your cards") >= 3))
    await run(options(tmp_path / "v.db", players=3, bots=2), script)
    assert "Bot 1 " in script.screen
    assert not re.search(r"^#\d+ ", script.screen, re.M)


# -- issue 22: ratings, on t and after a game ----------------------------------------------------


async def _ladders(db: Path, lang: str) -> str:
    """The terminal's ladders as ``t`` shows them, read from the database."""
    from bot.ratings import ALL_TIME
    from bot.store import SqliteStore

    store = SqliteStore(db)
    await store.open()
    try:
        [game] = await store.game_results()
        assert game.rated and game.season is not None
        ladders = [
            (False, season, await store.ladder("term", season or ALL_TIME))
            for season in (game.season, None)
        ]
    finally:
        await store.close()
    return render.top_text(ladders, translator(lang))


@pytest.mark.parametrize("lang", ["en", "zh_Hans", "zh_Hant"])
async def test_the_ratings_after_a_game_and_on_t(tmp_path: Path, lang: str) -> None:
    tr = translator(lang)
    db = tmp_path / "r.db"
    first = Script(person(shed(uno=True)))
    summary = await run(options(db, players=3, bots=2, lang=lang, seed=3), first)
    assert summary["status"] == "finished"
    # the game changed the ratings: the screen says so at its end
    ladders = await _ladders(db, lang)
    assert tr.gettext("🏆 Ladder: {ladder}", ladder=tr.gettext("Here, all time")) in ladders
    you = tr.gettext("🏅 {player}", player=tr.gettext("You"))
    end = first.screen[first.screen.rindex(you) :]
    assert any(line.startswith(tr.gettext("Here, all time")) for line in end.splitlines())
    assert ladders in end

    # the next game: "t" at the first prompt shows them, and the moves list it
    asked: list[bool] = []

    def choose(s: Script) -> Answer:
        if s.prompt is not None and not s.prompt.waiting and not asked:
            asked.append(True)
            return "t"
        return person(shed(uno=True), stop=lambda _: bool(asked))(s)

    second = Script(choose)
    await run(options(db, players=3, bots=2, lang=lang, seed=4), second)
    assert asked
    assert "   t. " + tr.gettext("Ratings and the ladder") in second.screen
    shown = second.screen[second.screen.index(you) :]
    assert ladders in shown
