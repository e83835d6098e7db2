"""The README's rules table and docs/rules.md's are the engine's flags as the settings schema
declares them: every flag a row, every value listed, the default first (a flag added to
``engine.Rules`` and ``bot.ui.settings_schema`` without its row fails here). And the README
and the docs are the project's own: nothing points at a file a clone does not have."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.ui import render
from bot.ui import settings_schema as schema
from engine import Rules

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RULES = ROOT / "docs" / "rules.md"
HEADER = "| flag | values (default first) | what it does |"
RULES_HEADER = "| flag | values | what it changes | from |"


def _table(path: Path = README, header: str = HEADER) -> dict[str, list[str]]:
    """The flag table of ``path``: each flag's row, its cells."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index(header) + 2  # the header, then its |---| line
    rows: dict[str, list[str]] = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        name = re.fullmatch(r"`(\w+)`", cells[0])
        assert name, line
        rows[name[1]] = cells[1:]
    return rows


def _rows(path: Path = README, header: str = HEADER) -> dict[str, list[str]]:
    """Each flag's values as the table lists them."""
    return {
        flag: re.findall(r"`([^`]+)`", cells[0].split("(")[0])
        for flag, cells in _table(path, header).items()
    }


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_every_flag_has_its_row_in_model_order() -> None:
    assert list(_rows()) == list(Rules.model_fields) == list(schema.SCHEMA)


@pytest.mark.parametrize(
    ("path", "header"), [(README, HEADER), (RULES, RULES_HEADER)], ids=["README", "rules"]
)
def test_every_value_is_listed_default_first(path: Path, header: str) -> None:
    official = Rules()
    for flag, listed in _rows(path, header).items():
        default = _text(getattr(official, flag))
        assert listed and listed[0] == default, (flag, listed)
        choices = schema.fixed_values(flag)
        assert choices == render.flag_menu_values(flag)
        if choices:  # a fixed set of values: all of them, default first
            expected = [default, *(_text(v) for v in choices if _text(v) != default)]
            assert listed == expected, (flag, listed, expected)
        else:  # a number: the default, as a number
            assert len(listed) == 1 and listed[0].isdigit(), (flag, listed)


def test_docs_rules_has_every_flag_with_where_it_comes_from() -> None:
    """Issue 19 item 23: docs/rules.md is the project's own rules text: every flag, in the
    model's order, each saying where its variants come from (a seed, the official sheet,
    what bots offer)."""
    rows = _table(RULES, RULES_HEADER)
    assert list(rows) == list(Rules.model_fields)
    for flag, (_values, what, source) in rows.items():
        assert what, flag
        assert re.search(r"seeds? 00[0134]|bots|all|sources disagree", source), flag
    text = RULES.read_text(encoding="utf-8")
    for preset in Rules.PRESET_NAMES:
        assert f"**{preset}**" in text
    assert "docs/engine.md" in text  # the readings are there, not repeated here


def _tracked() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [ROOT / name for name in out.split("\0") if name]


def test_nothing_points_outside_the_project() -> None:
    """Issue 19 item 23: the README sent readers to ``../shared/docs/RULES.md``, which a
    clone does not have. No tracked file names that folder; the rules are docs/rules.md."""
    files = _tracked()
    assert README in files and RULES in files
    this = Path(__file__).resolve()
    for path in files:
        if path == this or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a picture
        for needle in ("../shared", "shared/docs", "shared/seeds"):
            assert needle not in text, (path.relative_to(ROOT), needle)
    readme = README.read_text(encoding="utf-8")
    assert "docs/rules.md" in readme


def test_every_link_in_the_readme_and_docs_reaches_a_file() -> None:
    """A relative link of the README or docs/ names a file of the repository."""
    for doc in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" in target:
                continue
            assert (doc.parent / target).exists(), (doc.name, target)


def _sections() -> list[str]:
    return re.findall(r"^## (.+)$", README.read_text(encoding="utf-8"), re.M)


def test_playing_comes_first_with_each_platforms_first_steps() -> None:
    """Issue 19 item 22: a newcomer reads how to play in a chat before PostgreSQL, shards
    and metrics: a Telegram token line, the Discord application's steps (where its token
    is, the invite link the bot logs, with the permissions it checks)."""
    from adapters.discord.markup import POSTING

    sections = _sections()
    assert sections[0] == "Playing in a chat", sections
    assert sections.index("Running it") < sections.index("Running at scale")
    text = README.read_text(encoding="utf-8")
    chat = text.split("## Playing in a chat", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^UNO_TELEGRAM_TOKEN=\d+:\S+$", chat, re.M)  # a token line
    assert re.search(r"^UNO_DISCORD_TOKEN=\S+$", chat, re.M)
    for step in ("Developer Portal", "New Application", "Reset Token", "@BotFather"):
        assert step in chat, step
    (url,) = re.findall(r"https://discord\.com/oauth2/authorize\?\S+", chat)
    assert "scope=bot+applications.commands" in url
    assert f"permissions={POSTING.value}" in url


def test_the_readme_names_every_setting_and_how_to_run_the_image() -> None:
    """Every variable ``uno-bot run`` reads is in the README (``run --help`` lists them
    too); the image is built and run by an example; ``run`` without a platform fails."""
    from bot.ops.config import Settings

    text = README.read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"UNO_{name.upper()}" in text, name
    assert re.search(r"^docker build -t uno-bot \.$", text, re.M)
    (run,) = re.findall(r"^docker run .+$", text, re.M)
    assert "--env-file .env" in run and ":/data" in run and run.endswith(" uno-bot")
    assert "uno-bot run --help" in text
    assert "COMPOSE_PROFILES" in text
