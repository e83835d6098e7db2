"""Actions as plain JSON (the action log) and back."""

from __future__ import annotations

from typing import Any

from engine import (
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    Leave,
    NextRound,
    Pass,
    Play,
    Timeout,
)

__all__ = ["action_from_dict", "action_to_dict"]

_SIMPLE: dict[str, type[Any]] = {
    "Draw": Draw,
    "Pass": Pass,
    "Accept": Accept,
    "Challenge": Challenge,
    "CallUno": CallUno,
    "Leave": Leave,
    "NextRound": NextRound,
}


def action_to_dict(a: Action) -> dict[str, Any]:
    name = type(a).__name__
    if isinstance(a, Play):
        d: dict[str, Any] = {"type": name, "card": a.card.code}
        if a.color is not None:
            d["color"] = a.color.value
        if a.target is not None:
            d["target"] = a.target
        if a.together:
            d["together"] = [c.code for c in a.together]
        if a.uno:
            d["uno"] = True
        return d
    if isinstance(a, ChooseColor):
        return {"type": name, "color": a.color.value}
    if isinstance(a, CatchUno):
        return {"type": name, "target": a.target}
    if isinstance(a, Timeout):
        return {"type": name, "window": a.window}
    return {"type": name}


def action_from_dict(d: dict[str, Any]) -> Action:
    """Raises ``ValueError`` (or ``KeyError``) on anything malformed."""
    if not isinstance(d, dict):
        raise ValueError(f"an action is a JSON object, not {type(d).__name__}")
    try:
        return _from_dict(d)
    except TypeError as e:  # a field of the wrong type (a number for a list...)
        raise ValueError(f"malformed action: {e}") from None


def _from_dict(d: dict[str, Any]) -> Action:
    kind = d["type"]
    if not isinstance(kind, str):
        raise ValueError(f"unknown action {kind!r}")
    if kind == "Play":
        return Play(
            d["card"],
            color=d.get("color"),
            target=d.get("target"),
            together=tuple(d.get("together", ())),
            uno=bool(d.get("uno", False)),
        )
    if kind == "ChooseColor":
        return ChooseColor(d["color"])
    if kind == "CatchUno":
        target = d["target"]
        if not isinstance(target, str):
            raise ValueError(f"a player id is a string, not {target!r}")
        return CatchUno(target)
    if kind == "Timeout":
        window = d.get("window", "turn")
        if window not in ("turn", "uno"):
            raise ValueError(f"unknown timeout window {window!r}")
        return Timeout(window)
    cls = _SIMPLE.get(kind)
    if cls is None:
        raise ValueError(f"unknown action {kind!r}")
    result: Action = cls()
    return result
