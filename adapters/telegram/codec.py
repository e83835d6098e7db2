"""Compact, stateless ids for Telegram: table keys, ``callback_data``, inline result ids and
deep-link payloads.

Telegram gives ``callback_data`` and inline result ids 64 bytes and deep-link payloads 64
characters of ``[A-Za-z0-9_-]``, so everything here is short and carries ids and the table
version, never state: a button works after a restart for as long as its version is current.

- table id (``tid``): the chat id, and ``_<topic>`` in a forum topic: ``-1001234567890_45``.
  Key ``tg:-1001234567890:45``, scope ``tg:-1001234567890``.
- an action code: ``d`` Draw, ``s`` Pass, ``a`` Accept, ``c`` Challenge, ``u`` CallUno,
  ``n`` NextRound, ``l`` Leave, ``k<colour>`` ChooseColor, ``x<who>`` CatchUno, and
  ``p<card>[+<card>...][/<colour>][@<who>][!]`` Play (``!`` calls UNO with it). Cards and
  colours are engine codes (``R5``, ``W4``, ``B``).
- a player (``<who>``) by a stable id, never a seat index (seats reorder when someone leaves
  and sits down again, and a catch is not version-checked): a person's Telegram user id
  (``tg:1234567890`` -> ``1234567890``), a bot seat's number (``bot:tg:-100123:2`` ->
  ``b2``). A player who is not seated at the table decodes to nothing (a forged button).
- ``callback_data``: ``<op>|<tid>|...`` (``a|<tid>|<version>|<action>`` for game actions);
  the operations are :class:`Op`.
- deep-link payload: ``<kind><tid>``, the kinds are :class:`Link`.
- inline result id: ``<tid>|<version>|<action>`` (``-<card>`` for a card not playable now).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine import (
    Accept,
    Action,
    CallUno,
    Card,
    CatchUno,
    Challenge,
    ChooseColor,
    Color,
    Draw,
    Leave,
    NextRound,
    Pass,
    Play,
)

__all__ = [
    "MAX_DATA",
    "Data",
    "Link",
    "Op",
    "chat_of",
    "decode_action",
    "encode_action",
    "key_of",
    "key_of_tid",
    "pack",
    "player_id",
    "player_of",
    "scope_of",
    "tid_of",
    "unpack",
    "user_of",
    "who_of",
]

PREFIX = "tg"
MAX_DATA = 64  # bytes: callback_data, inline result ids, deep-link payloads

_TID = re.compile(r"^(-?\d{1,20})(?:_(\d{1,12}))?$")
_WHO = r"[1-9]\d{0,15}|b[1-9]\d{0,5}"  # a Telegram user id (52 bits at most), a bot seat
_PLAY = re.compile(
    r"^p(?P<cards>[RYGBW][0-9SRDW]{0,2}(?:\+[RYGBW][0-9SRDW]{0,2}){0,19})"
    rf"(?:/(?P<color>[RYGB]))?(?:@(?P<target>{_WHO}))?(?P<uno>!)?$"
)
_CATCH = re.compile(rf"^x(?P<target>{_WHO})$")


# -- tables and users ---------------------------------------------------------------------


def key_of(chat_id: int, thread: int | None = None) -> str:
    """The table key of a chat, or of one forum topic in it."""
    return f"{PREFIX}:{chat_id}" if thread is None else f"{PREFIX}:{chat_id}:{thread}"


def scope_of(chat_id: int) -> str:
    """Settings and statistics are per chat (every topic of a forum shares them)."""
    return f"{PREFIX}:{chat_id}"


def chat_of(key: str) -> tuple[int, int | None]:
    """``(chat_id, topic)`` of a table key made by :func:`key_of`."""
    parts = key.split(":")
    if len(parts) not in (2, 3) or parts[0] != PREFIX:
        raise ValueError(f"not a Telegram table key: {key!r}")
    chat = int(parts[1])
    return chat, (int(parts[2]) if len(parts) == 3 else None)


def tid_of(key: str) -> str:
    chat, thread = chat_of(key)
    return str(chat) if thread is None else f"{chat}_{thread}"


def key_of_tid(tid: str) -> str | None:
    m = _TID.match(tid.strip())
    if m is None:
        return None
    chat, thread = m.groups()
    return key_of(int(chat), int(thread) if thread is not None else None)


def player_id(user_id: int) -> str:
    return f"{PREFIX}:{user_id}"


def user_of(player: str) -> int | None:
    """The Telegram user id of a seat (``None`` for a bot seat or another platform)."""
    head, _, rest = player.partition(":")
    if head != PREFIX or not rest.lstrip("-").isdigit():
        return None
    return int(rest)


# -- actions ------------------------------------------------------------------------------


def _who(player: str) -> str | None:
    """The stable short form of a seat id (``None`` for one that has none)."""
    uid = user_of(player)
    if uid is not None:
        return str(uid) if uid > 0 else None
    head, _, n = player.rpartition(":")
    if head.startswith("bot:") and n.isdigit() and not n.startswith("0"):
        return "b" + n
    return None


def who_of(player: str, seats: Sequence[str]) -> str | None:
    """How ``player`` is named in a code: ``None`` unless seated and named unambiguously."""
    if player not in seats:
        return None
    who = _who(player)
    if who is None or sum(1 for s in seats if _who(s) == who) != 1:
        return None
    return who


def player_of(who: str, seats: Sequence[str]) -> str | None:
    """The seated player ``who`` names (``None``: nobody at the table, a forgery)."""
    found = [s for s in seats if _who(s) == who]
    return found[0] if len(found) == 1 else None


def encode_action(action: Action, seats: Sequence[str]) -> str | None:
    """The compact code of ``action`` (``None`` if it cannot be encoded)."""
    if isinstance(action, Play):
        text = "p" + "+".join(c.code for c in action.cards)
        if action.color is not None:
            text += "/" + action.color.value
        if action.target is not None:
            who = who_of(action.target, seats)
            if who is None:
                return None
            text += "@" + who
        if action.uno:
            text += "!"
        return text
    if isinstance(action, ChooseColor):
        return "k" + action.color.value
    if isinstance(action, CatchUno):
        who = who_of(action.target, seats)
        return None if who is None else "x" + who
    simple = _SIMPLE_CODES.get(type(action))
    return simple


_SIMPLE: dict[str, Action] = {
    "d": Draw(),
    "s": Pass(),
    "a": Accept(),
    "c": Challenge(),
    "u": CallUno(),
    "n": NextRound(),
    "l": Leave(),
}
_SIMPLE_CODES: dict[type, str] = {type(a): code for code, a in _SIMPLE.items()}


def decode_action(code: str, seats: Sequence[str]) -> Action | None:
    """The action a code names (``None`` for anything malformed, or naming a player who is
    not at the table: a forged or an outdated button)."""
    if code in _SIMPLE:
        return _SIMPLE[code]
    try:
        if code.startswith("k") and len(code) == 2:
            return ChooseColor(Color.parse(code[1]))
        m = _CATCH.match(code)
        if m is not None:
            who = player_of(m["target"], seats)
            return CatchUno(who) if who is not None else None
        m = _PLAY.match(code)
        if m is None:
            return None
        cards = [Card.parse(c) for c in m["cards"].split("+")]
        color = Color.parse(m["color"]) if m["color"] else None
        target = None
        if m["target"] is not None:
            target = player_of(m["target"], seats)
            if target is None:
                return None
        return Play(cards[0], color, target, tuple(cards[1:]), uno=m["uno"] is not None)
    except ValueError:
        return None


# -- callback data --------------------------------------------------------------------------


class Op(StrEnum):
    """What a button does: the first field of its ``callback_data`` (kept short: 64 bytes
    for it all). Buttons already posted carry these: a value never changes meaning."""

    ACT = "a"  # a game action: ``a|<tid>|<version>|<action code>``
    JOIN = "j"
    LEAVE = "l"
    ADD_BOT = "b"
    START = "g"  # deal
    SETTINGS = "S"  # open the settings menu in the private chat
    HAND = "h"  # send (or refresh) the private hand
    # the settings menu (in the private chat)
    SETTINGS_MAIN = "sm"  # back to the menu
    SETTINGS_FLAG = "sf"  # ``sf|<tid>|<flag>``: open one flag
    SETTINGS_VALUE = "sv"  # ``sv|<tid>|<flag>|<choice>``: set it
    SETTINGS_PRESET = "sp"  # ``sp|<tid>|<preset>``
    SETTINGS_DONE = "sx"  # close the menu: the rules as set
    LANGUAGE = "L"  # ``L|<tid>|<c (the chat) or u (the user)>|<code, or - for Telegram's>``


class Link(StrEnum):
    """What a deep link (``t.me/<bot>?start=<kind><tid>``) opens in the private chat."""

    HAND = "h"
    SETTINGS = "s"


@dataclass(frozen=True, slots=True)
class Data:
    """Parsed ``callback_data``: an operation, a table and the rest of the fields."""

    op: str
    key: str
    args: tuple[str, ...]


def pack(op: str, tid: str, *args: object) -> str:
    """``callback_data`` for a button; raises if Telegram would refuse it (over 64 bytes)."""
    text = "|".join([op, tid, *(str(a) for a in args)])
    if len(text.encode()) > MAX_DATA:
        # the data itself stays out of the message: it may name a card of a private hand
        raise ValueError(f"callback_data over {MAX_DATA} bytes ({op!r} button)")
    return text


def unpack(data: str | None) -> Data | None:
    """The parsed data of a button, or ``None`` for data this bot never made."""
    if not data or len(data.encode()) > MAX_DATA:
        return None
    parts = data.split("|")
    if len(parts) < 2 or not parts[0]:
        return None
    key = key_of_tid(parts[1])
    if key is None:
        return None
    return Data(parts[0], key, tuple(parts[2:]))


def version_of(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) < 12 else None
