"""Component ``custom_id``s: ``uno:<action>:<table>:<version>[:<arg>]``.

They carry ids and the table version the component was drawn for, never game state
(ARCHITECTURE.md): ``<table>`` is the channel (or thread) id of the table, ``<version>``
the table version, ``<arg>`` a card code, a colour, a player or a page. Discord allows at
most 100 characters. Anything that does not parse exactly is refused as forged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine import Action, CallUno, Card, CatchUno, ChooseColor, Color, Play

__all__ = [
    "BUTTON_ACTIONS",
    "MAX_CUSTOM_ID",
    "SELECT_ACTIONS",
    "CustomId",
    "decode_action",
    "decode_play",
    "decode_player",
    "encode_play",
    "encode_player",
    "group_key",
    "parse",
]

MAX_CUSTOM_ID = 100  # Discord's limit for a component's custom_id

# buttons on the public table message
TABLE_ACTIONS = frozenset(
    {"join", "leave", "addbot", "settings", "start", "hand", "draw", "uno", "catch",
     "challenge", "accept", "next"}
)  # fmt: skip
# buttons on a player's private (ephemeral) messages
PRIVATE_ACTIONS = frozenset(
    {"play", "pick", "color", "pass", "page", "back", "setpage", "refresh"}
)  # fmt: skip
BUTTON_ACTIONS = TABLE_ACTIONS | PRIVATE_ACTIONS
# select menus (all on private messages)
SELECT_ACTIONS = frozenset({"cards", "preset", "flag", "kick"})
# the actions whose id carries an ``<arg>`` (every other one never does)
ARG_ACTIONS = frozenset(
    {"play", "pick", "color", "catch", "page", "setpage", "refresh", "cards", "flag"}
)  # fmt: skip

_ID = re.compile(
    r"uno:(?P<action>[a-z]{1,12}):(?P<table>[1-9][0-9]{0,19}):(?P<version>[0-9]{1,12})"
    r"(?::(?P<arg>[A-Za-z0-9_+~@!.-]{1,64}))?"
)
_PLAY = re.compile(
    r"(?P<cards>[A-Z0-9]{1,3}(?:\+[A-Z0-9]{1,3}){0,15})"
    r"(?:~(?P<color>[RYGB]))?(?:@(?P<target>[0-9]{1,20}|b[0-9]{1,3}))?(?P<uno>!)?"
)


@dataclass(frozen=True, slots=True)
class CustomId:
    """A parsed custom id; ``str()`` gives it back."""

    action: str
    table: int
    version: int
    arg: str = ""

    def __str__(self) -> str:
        text = f"uno:{self.action}:{self.table}:{self.version}"
        if self.arg:
            text += f":{self.arg}"
        if len(text) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id longer than {MAX_CUSTOM_ID}: {text!r}")
        return text


def parse(custom_id: str, *, select: bool = False) -> CustomId | None:
    """The custom id's parts, or ``None`` if it is not one this bot makes."""
    if len(custom_id) > MAX_CUSTOM_ID:
        return None
    m = _ID.fullmatch(custom_id)
    if m is None:
        return None
    action = m["action"]
    if action not in (SELECT_ACTIONS if select else BUTTON_ACTIONS):
        return None
    if (m["arg"] is not None) != (action in ARG_ACTIONS):
        return None  # an argument where this bot draws none, or none where it does
    return CustomId(action, int(m["table"]), int(m["version"]), m["arg"] or "")


# -- players and plays ------------------------------------------------------------------------


def encode_player(player: str, key: str) -> str | None:
    """``dc:123`` -> ``123``; the bot seat ``bot:<key>:2`` -> ``b2``."""
    if player.startswith("dc:") and player[3:].isdigit():
        return player[3:]
    prefix = f"bot:{key}:"
    if player.startswith(prefix) and player[len(prefix) :].isdigit():
        return "b" + player[len(prefix) :]
    return None


def decode_player(text: str, key: str) -> str | None:
    if text.isdigit():
        return f"dc:{text}"
    if text.startswith("b") and text[1:].isdigit():
        return f"bot:{key}:{text[1:]}"
    return None


def group_key(play: Play) -> str:
    """The cards of a play: plays that differ only in colour or target share it."""
    return "+".join(c.code for c in play.cards)


def encode_play(play: Play, key: str) -> str | None:
    text = group_key(play)
    if play.color is not None:
        text += "~" + play.color.value
    if play.target is not None:
        target = encode_player(play.target, key)
        if target is None:
            return None
        text += "@" + target
    if play.uno:
        text += "!"
    return text


def decode_play(text: str, key: str) -> Play | None:
    m = _PLAY.fullmatch(text)
    if m is None:
        return None
    codes = m["cards"].split("+")
    target = decode_player(m["target"], key) if m["target"] else None
    try:
        return Play(
            Card.parse(codes[0]),
            color=Color.parse(m["color"]) if m["color"] else None,
            target=target,
            together=tuple(Card.parse(c) for c in codes[1:]),
            uno=bool(m["uno"]),
        )
    except ValueError:
        return None


def decode_action(cid: CustomId, key: str) -> Action | None:
    """The engine action of an action button (``play``, ``color``, ``catch``, ``uno``)."""
    if cid.action == "play":
        return decode_play(cid.arg, key)
    if cid.action == "color":
        try:
            return ChooseColor(Color.parse(cid.arg))
        except ValueError:
            return None
    if cid.action == "catch":
        target = decode_player(cid.arg, key)
        return CatchUno(target) if target is not None else None
    if cid.action == "uno":
        return CallUno()
    return None
