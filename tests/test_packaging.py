"""``pyproject.toml`` as packaging tools read it today (issue 19 item 19): the licence is an
SPDX expression (a table is deprecated by setuptools 77 and warned about twice on every
``pip install -e .``), the build asks for a setuptools that reads it, and every licence
file it names is in the repository and in the Docker image's build context."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


def test_the_licence_is_an_spdx_string_read_by_the_setuptools_required() -> None:
    data = _pyproject()
    assert data["project"]["license"] == "MIT"
    (setuptools,) = [r for r in data["build-system"]["requires"] if r.startswith("setuptools")]
    assert setuptools.replace(" ", "") == "setuptools>=77"  # the first to read the string
    # a classifier naming the licence is refused beside an SPDX expression
    assert not [c for c in data["project"].get("classifiers", []) if c.startswith("License")]


def test_every_licence_file_named_is_there_and_in_the_image() -> None:
    files = _pyproject()["project"]["license-files"]
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    copied = [line.split()[1:-1] for line in dockerfile.splitlines() if line.startswith("COPY")]
    for name in files:
        assert (ROOT / name).is_file(), name
        assert any(name in sources for sources in copied), name
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
