"""Issue 22 at the terminal table: ``a`` hands the person's seat to the autopilot (a bot
plays it while they watch) and takes it back, a timeout under ``absent=autopilot`` does the
same, and ``e`` ends the game (the one person's vote is a majority), counted for nobody. On
a fake clock (``script.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adapters.terminal.table import TerminalOptions
from tests.adapters.terminal.script import Answer, Script, Wait, run

PILOT = "🤖 The autopilot plays for you"


def options(db: Path, **kw: Any) -> TerminalOptions:
    base: dict[str, Any] = {
        "players": 3,
        "bots": 2,
        "db": db,
        "delay": 1.0,  # the autopilot moves a second later: the person sees it
        "seed": 5,
        "overrides": {"target": 0},
        "interactive": True,
        "round_pause": 0.0,
    }
    base.update(kw)
    return TerminalOptions(**base)


def first_or_wait(s: Script) -> Answer:
    """Take the first move listed, or wait while there is nothing to decide."""
    if s.prompt is None or s.prompt.waiting:
        return Wait(1)
    moves = s.current_moves()
    return moves[0][0] if moves else "1"


async def test_a_hands_the_seat_to_the_autopilot_and_back(tmp_path: Path) -> None:
    said: list[str] = []

    def person(s: Script) -> Answer:
        if s.prompt is not None and s.question.startswith(PILOT):
            if "a-again" not in said:  # watch one move of the autopilot's, then take it back
                said.append("a-again")
                return Wait(1)
            if "back" not in said:
                said.append("back")
                return "a"
        if s.prompt is not None and not s.prompt.waiting and not said:
            said.append("a")
            return "a"
        return first_or_wait(s)

    script = Script(person)
    summary = await run(options(tmp_path / "a.db"), script)
    text = script.screen
    assert "   a. 🤖 Play for me (a bot plays your seat until you press a)" in text
    assert "You hand your seat to the autopilot until you take it back." in text
    assert PILOT in text and said == ["a", "a-again", "back"]
    assert "You are back: your seat is yours again." in text
    assert summary["status"] == "finished"


async def test_a_timeout_under_absent_autopilot_hands_the_seat_over(tmp_path: Path) -> None:
    seen: list[str] = []

    def person(s: Script) -> Answer:
        if s.prompt is not None and s.question.startswith(PILOT):
            seen.append("pilot")
            return "a" if len(seen) == 1 else Wait(1)
        if s.prompt is not None and not s.prompt.waiting and not seen:
            return Wait(61)  # gone past the turn's 60 s
        return first_or_wait(s)

    script = Script(person)
    opts = options(tmp_path / "t.db", overrides={"target": 0, "absent": "autopilot"})
    summary = await run(opts, script)
    text = script.screen
    assert "You are away: the autopilot plays for you until you press anything." in text
    assert "You are back: your seat is yours again." in text
    assert summary["status"] == "finished"


async def test_e_ends_the_game_counted_for_nobody(tmp_path: Path) -> None:
    def person(s: Script) -> Answer:
        if s.prompt is not None and not s.prompt.waiting:
            return "e"
        return Wait(1)

    script = Script(person)
    summary = await run(options(tmp_path / "e.db", overrides={"target": 500}), script)
    assert summary["status"] == "stopped" and summary["winner"] is None
    assert "   e. 🗳 End the game (counted for nobody)" in script.screen
    assert "🗳 The players voted to end the game: it is counted for nobody." in script.screen
    assert "The game is saved" not in script.screen
