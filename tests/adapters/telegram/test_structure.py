"""The shape of the Telegram adapter's code (issue 12 item 4): no class or function grown
past what a reader takes in at once. No import circle between its modules: the
import-linter contract "No import circle between the modules of one package"
(pyproject.toml)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "adapters.telegram"
ROOT = Path(__file__).resolve().parents[3] / "adapters" / "telegram"
MAX_CLASS = 400  # lines
MAX_FUNCTION = 80


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join((PACKAGE, *parts)).removesuffix(".__init__")
        found[name] = path
    return found


def _sizes() -> list[tuple[str, str, int, int]]:
    out = []
    for path in _modules().values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                limit = MAX_CLASS if isinstance(node, ast.ClassDef) else MAX_FUNCTION
                lines = node.end_lineno - node.lineno + 1
                out.append((path.name, node.name, lines, limit))
    return out


@pytest.mark.parametrize("kind", ["class", "function"])
def test_no_class_or_function_too_long(kind: str) -> None:
    limit = MAX_CLASS if kind == "class" else MAX_FUNCTION
    long = [f"{f}: {name} ({n} lines)" for f, name, n, lim in _sizes() if lim == limit and n > lim]
    assert not long, f"over {limit} lines: {long}"


def test_every_change_a_button_asks_goes_through_service_press() -> None:
    """Issue 20 item 3: the buttons' handlers (``inbound/presses.py``) change a table only
    through ``bot.ui.press.press`` (the intent -> the service call); of the service they
    otherwise only read (the table, a hand). No route is a string resolved by ``getattr``."""
    path = ROOT / "inbound" / "presses.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    called = {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "svc"
    }
    assert called <= {"table", "hand"}, called
    pressed = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "press"
    ]
    imported = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "bot.ui.press"
    ]
    assert pressed and imported
    getattrs = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and not (
            isinstance(node.args[0], ast.Attribute) and node.args[0].attr in ("rules", "message")
        )
    ]
    assert not getattrs
