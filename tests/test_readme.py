"""The README's rules table is the engine's flags as the settings schema declares them:
every flag a row, every value listed, the default first (a flag added to ``engine.Rules``
and ``bot.settings_schema`` without its row fails here)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot import render
from bot import settings_schema as schema
from engine import Rules

README = Path(__file__).resolve().parents[1] / "README.md"
HEADER = "| flag | values (default first) | what it does |"


def _rows() -> dict[str, list[str]]:
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index(HEADER) + 2  # the header, then its |---| line
    rows: dict[str, list[str]] = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        flag, values = (cell.strip() for cell in line.strip("|").split("|")[:2])
        name = re.fullmatch(r"`(\w+)`", flag)
        assert name, line
        rows[name[1]] = re.findall(r"`([^`]+)`", values.split("(")[0])
    return rows


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_every_flag_has_its_row_in_model_order() -> None:
    assert list(_rows()) == list(Rules.model_fields) == list(schema.SCHEMA)


def test_every_value_is_listed_default_first() -> None:
    official = Rules()
    for flag, listed in _rows().items():
        default = _text(getattr(official, flag))
        assert listed and listed[0] == default, (flag, listed)
        choices = schema.fixed_values(flag)
        assert choices == render.flag_menu_values(flag)
        if choices:  # a fixed set of values: all of them, default first
            expected = [default, *(_text(v) for v in choices if _text(v) != default)]
            assert listed == expected, (flag, listed, expected)
        else:  # a number: the default, as a number
            assert len(listed) == 1 and listed[0].isdigit(), (flag, listed)
