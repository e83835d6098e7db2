"""The terminal's settings (``--settings``): bot.controls' settings menu as numbered lines,
each number an intent dispatched to the service before the deal."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

from adapters.terminal.table import TerminalOptions, play


async def test_the_host_sets_a_rule_before_the_deal(tmp_path: Path) -> None:
    out = io.StringIO()
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        text = out.getvalue()
        if len(asked) == 1:  # the first page: pick "+2 on +2"
            return re.findall(r"^\s+(\d+)\.\s+\+2 on \+2$", text, re.M)[0]
        if len(asked) == 2:  # the next page
            return re.findall(r"^\s+(\d+)\.\s+▶$", text, re.M)[-1]
        if len(asked) == 3:
            assert "+4 and challenges: bluffs can be challenged" in text.split("⚙️")[-1]
            return re.findall(r"^\s+(\d+)\.\s+Done$", text, re.M)[-1]
        raise EOFError

    opts = TerminalOptions(
        players=2, bots=1, db=tmp_path / "s.db", delay=0.0, seed=5, overrides={"target": 0},
        interactive=True, round_pause=0.0, settings=True,
    )  # fmt: skip
    await asyncio.wait_for(play(opts, out=out, ask=ask), 60)
    text = out.getvalue()
    assert "✓ +2 on +2" in text
    assert text.count("• Stacking: +2 on +2") >= 2  # the menu after the change, the deal
    assert "🃏 Your cards" in text
    assert len(asked) == 4


async def test_a_line_that_is_no_number_leaves_the_menu_and_deals(tmp_path: Path) -> None:
    out = io.StringIO()
    answers = iter(["x"])

    def ask(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    opts = TerminalOptions(
        players=2, bots=1, db=tmp_path / "t.db", delay=0.0, seed=5, interactive=True,
        round_pause=0.0, settings=True,
    )  # fmt: skip
    await asyncio.wait_for(play(opts, out=out, ask=ask), 60)
    assert "⚙️ Settings" in out.getvalue() and "🃏 Your cards" in out.getvalue()
