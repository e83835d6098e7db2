"""The terminal's settings (``--settings``): bot.ui.controls' settings menu as numbered lines,
each number an intent dispatched to the service before the deal; the pages, Done and
leaving on fixed keys (issue 19 item 17)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from adapters.terminal.table import TerminalOptions
from tests.adapters.terminal.script import EOF, Answer, Script, run


def options(db: Path, **kw: Any) -> TerminalOptions:
    base: dict[str, Any] = {
        "players": 2, "bots": 1, "db": db, "delay": 0.0, "seed": 5,
        "overrides": {"target": 0}, "interactive": True, "round_pause": 0.0, "settings": True,
    }  # fmt: skip
    base.update(kw)
    return TerminalOptions(**base)


def number(screen: str, label: str) -> str:
    """The number of ``label`` in the last settings page drawn."""
    page = screen.rsplit("⚙️", maxsplit=1)[-1]
    return re.findall(rf"^\s+(\d+)\. [ ✓] {re.escape(label)}$", page, re.M)[0]


def answers(*steps: Any) -> Any:
    """A person answering each question with the next step (a line, or a function of the
    screen giving one); Ctrl-D after the last."""
    it: Iterator[Any] = iter(steps)

    def choose(s: Script) -> Answer:
        step = next(it, EOF)
        return step(s.screen) if callable(step) else step

    return choose


async def test_the_host_sets_a_rule_before_the_deal(tmp_path: Path) -> None:
    script = Script(
        answers(
            lambda screen: number(screen, "+2 on +2"),
            "n",  # the next page
            "p",  # and back: the same key on every page
            "d",  # Done: the deal
        )
    )
    summary = await run(options(tmp_path / "s.db", overrides={}), script)
    text = script.screen
    pages = text.split("⚙️")[1:]
    assert len(pages) == 4
    assert "Page 1/12" in pages[0] and "   n. ▶ Next page" in pages[0]
    assert "   p. ◀ Previous page" not in pages[0] and "◀" not in pages[0]  # nowhere to go
    assert "Page 2/12" in pages[2] and "   p. ◀ Previous page" in pages[2]
    assert "+4 and challenges: bluffs can be challenged" in pages[2]
    assert "Page 1/12" in pages[3]
    # changed: custom rules, and no preset ticked any more
    assert "📜 Official rules" in pages[0] and "   1. ✓ Official rules" in pages[0]
    assert "📜 Custom: Official rules + 1 change" in pages[1]
    assert "   1.   Official rules" in pages[1]
    assert re.search(r"^\s+\d+\. ✓ \+2 on \+2$", pages[1], re.M)
    assert "• Stacking: +2 on +2" in text.split("   d. ")[-1]  # the rules of the deal
    assert "🃏 Your cards" in text and summary["status"] == "playing"


async def test_the_needs_note_is_said_once_per_flag(tmp_path: Path) -> None:
    script = Script(answers("d"))
    await run(options(tmp_path / "n.db"), script)
    page = script.screen.split("⚙️")[1]
    assert page.count("(needs “Stacking”)") == 2  # Deflect a +2, Wild on a penalty
    assert "Deflect a +2: off (needs “Stacking”)\n" in page
    assert re.search(r"^\s+\d+\. ✓ off$", page, re.M)  # its values, without the note


async def test_q_leaves_the_menu_without_dealing(tmp_path: Path) -> None:
    script = Script(answers("q"))
    summary = await run(options(tmp_path / "q.db"), script)
    assert "🃏 Your cards" not in script.screen
    assert script.screen.endswith("No game was started.\n")
    assert summary["status"] == "stopped" and summary["rounds"] == 0


async def test_a_line_that_is_no_key_says_which_keys_there_are(tmp_path: Path) -> None:
    script = Script(answers("x", "99", "d"))
    await run(options(tmp_path / "t.db"), script)
    text = script.screen
    n = len(re.findall(r"^\s+\d+\. ", text.split("⚙️")[1], re.M))
    assert text.count(f"Type a number from 1 to {n}, or n, p, d or q.") == 2
    assert text.count("⚙️ Settings") == 3 and "🃏 Your cards" in text
