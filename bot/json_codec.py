"""Actions (the action log) and events (a table's recent lines) as plain JSON and back."""

from __future__ import annotations

import dataclasses
from typing import Any

from engine import (
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    Event,
    Leave,
    NextRound,
    Pass,
    Play,
    Timeout,
)
from engine import events as _events
from engine.cards import Card, Color

__all__ = ["action_from_dict", "action_to_dict", "event_from_dict", "event_to_dict"]

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


# -- events ------------------------------------------------------------------------------------

_EVENTS: dict[str, type[Any]] = {
    name: getattr(_events, name)
    for name in _events.__all__
    if dataclasses.is_dataclass(getattr(_events, name))
}


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


_DEFAULTS: dict[str, dict[str, Any]] = {
    name: {f.name: _default(f) for f in dataclasses.fields(cls)} for name, cls in _EVENTS.items()
}


def _cards(value: Any) -> tuple[Card, ...]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"cards are a list, not {value!r}")
    return tuple(Card.parse(c) for c in value)


def _opt_cards(value: Any) -> tuple[Card, ...] | None:
    return None if value is None else _cards(value)


def _opt_color(value: Any) -> Color | None:
    return None if value is None else Color(value)


def _hands(value: Any) -> dict[str, tuple[Card, ...]]:
    return {str(p): _cards(cs) for p, cs in dict(value).items()}


def _draws(value: Any) -> tuple[tuple[str, Card], ...]:
    return tuple((str(p), Card.parse(c)) for p, c in value)


# the fields that are not plain JSON values (ids, numbers, flags, {id: number})
_FIELD: dict[str, Any] = {
    "card": Card.parse,
    "top": Card.parse,
    "color": _opt_color,
    "together": _cards,
    "cards": _opt_cards,
    "hand": _opt_cards,
    "hands": _hands,
    "dealer_draws": _draws,
    "players": lambda v: tuple(str(p) for p in v),
}


def event_to_dict(e: Event) -> dict[str, Any]:
    """``{"type": "CardPlayed", "player": ..., "card": "R5"}``: fields left at their
    default are left out. Cards and colours are their codes."""
    name = type(e).__name__
    defaults = _DEFAULTS[name]
    d: dict[str, Any] = {"type": name}
    for f in dataclasses.fields(e):
        value = getattr(e, f.name)
        if value == defaults[f.name]:
            continue
        if isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        elif isinstance(value, dict):
            value = {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
        d[f.name] = value
    return d


def event_from_dict(d: dict[str, Any]) -> Event:
    """Raises ``ValueError`` on anything malformed."""
    if not isinstance(d, dict):
        raise ValueError(f"an event is a JSON object, not {type(d).__name__}")
    cls = _EVENTS.get(d.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown event {d.get('type')!r}")
    kwargs = {}
    try:
        for k, v in d.items():
            if k == "type":
                continue
            conv = _FIELD.get(k)
            kwargs[k] = conv(v) if conv is not None else v
        event: Event = cls(**kwargs)
    except (TypeError, KeyError, AttributeError) as e:
        raise ValueError(f"malformed event: {e}") from None
    return event
