"""The layers of docs/MAP.md are import-linter contracts in pyproject.toml, checked by
`lint-imports` in `make lint`. What a contract cannot say: that every module of bot/ is in
one of the layers (a new module outside them would escape the layer rules)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def test_every_module_of_bot_is_in_a_layer() -> None:
    (layers,) = [c["layers"] for c in _contracts() if c["type"] == "layers"]
    assert isinstance(layers, list)
    named = {m.strip() for layer in layers for m in str(layer).replace(":", "|").split("|")}
    children = {
        f"bot.{p.stem if p.is_file() else p.name}"
        for p in (ROOT / "bot").iterdir()
        if (p.suffix == ".py" and p.stem not in ("__init__", "__main__"))
        or (p / "__init__.py").is_file()
    }
    assert children - named == set(), "modules of bot/ in no layer of pyproject.toml"
    assert named - children - {"adapters", "engine"} == set(), "layers naming no module"


def test_the_cli_is_the_top_layer_and_the_engine_the_bottom() -> None:
    (layers,) = [c["layers"] for c in _contracts() if c["type"] == "layers"]
    assert isinstance(layers, list)
    assert layers[0] == "bot.cli" and layers[1] == "adapters" and layers[-1] == "engine"
