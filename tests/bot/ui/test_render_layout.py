"""bot.ui.render's layout: one module per concern, no long function, every name callers use
still ``bot.ui.render.X``."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.ui import render

PACKAGE = Path(render.__file__).parent
LONGEST = 80  # lines, decorators and docstring included


def test_no_function_in_bot_render_is_over_80_lines() -> None:
    long = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > LONGEST:
                    long.append(f"{path.name}:{node.name} ({size} lines)")
    assert long == []


def test_every_name_is_exported_from_the_package() -> None:
    for name in render.__all__:
        assert getattr(render, name) is not None, name
    for name in ("event_line", "table_text", "notice_text", "hand_text", "rules_summary"):
        assert name in render.__all__
