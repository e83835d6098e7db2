"""The rules in words: presets, flags, their values and help, and a table's rules in short.

Every flag is declared once in ``bot.ui.settings_schema`` (its name, help, value names, unit,
what it needs): these are that schema's words, under the names ``bot.ui.render`` has always
had (``flag_name``, ``flag_value``, ``rules_summary``...)."""

from __future__ import annotations

from typing import Any

from bot.ui import settings_schema as schema
from bot.ui.settings_schema import (
    PRESET_NAMES,
    flag_help,
    flag_name,
    inactive_note,
    preset_name,
    rules_summary,
    rules_title,
)
from engine import Rules

__all__ = [
    "FLAG_HELP",
    "FLAG_NAMES",
    "PRESET_NAMES",
    "flag_help",
    "flag_menu_values",
    "flag_name",
    "flag_needs",
    "flag_value",
    "inactive_note",
    "preset_name",
    "rules_summary",
    "rules_title",
]

flag_needs = schema.needs
flag_value = schema.value_text
_int_bounds = schema.int_bounds

# the schema's message ids by flag (read-only views kept for the names callers use)
FLAG_NAMES: dict[str, str] = {f: s.title for f, s in schema.SCHEMA.items()}
FLAG_HELP: dict[str, str] = {f: s.help for f, s in schema.SCHEMA.items()}


def _flag_choices(flag: str) -> tuple[Any, ...]:
    """Every value a rule with a fixed set of values may take (``()`` for numbers), in the
    engine's order (a refusal lists them so)."""
    field = Rules.model_fields.get(flag)
    if field is None:
        return ()
    return schema.annotation_values(field.annotation)


def flag_menu_values(flag: str) -> list[Any]:
    """The values a settings menu offers for a rule with a fixed set of them, in menu
    order (off before on), ``[]`` for a number (``bot.ui.settings_schema.fixed_values``)."""
    return schema.fixed_values(flag)
