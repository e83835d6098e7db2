"""Compact, stateless ids for Telegram: table keys, ``callback_data``, inline result ids and
deep-link payloads.

Telegram gives ``callback_data`` and inline result ids 64 bytes and deep-link payloads 64
characters of ``[A-Za-z0-9_-]``, so everything here is short and carries ids and the table
version, never state: a button works after a restart for as long as its version is current.

- table id (``tid``): the chat id, and ``_<topic>`` in a forum topic: ``-1001234567890_45``.
  Key ``tg:-1001234567890:45``, scope ``tg:-1001234567890``.
- a button's ``callback_data``: an intent in the one codec of ``bot.ui.intents``
  (``<kind>:<tid>[:<field>...]``, 64 bytes at most; ``views.callback_data``). Actions and
  players are coded there (a player by a stable id, never a seat index: a person's
  Telegram user id, a bot seat's number).
- the buttons posted before it: ``<op>|<tid>|...`` (:class:`Op`, :func:`pack`,
  :func:`unpack`), still read (``legacy``).
- inline result id: ``<tid>|<version>|<action code>`` (``-<card>`` for a card not playable
  now), the action code being the intent codec's (:func:`encode_action`).
- deep-link payload: ``<kind><tid>``, the kinds are :class:`Link`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.ui import intents
from bot.ui.intents import Act
from engine import Action, CatchUno, Play

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
    "scope_of",
    "tid_of",
    "unpack",
    "user_of",
    "who_of",
]

PREFIX = "tg"
MAX_DATA = 64  # bytes: callback_data, inline result ids, deep-link payloads

_TID = re.compile(r"^(-?\d{1,20})(?:_(\d{1,12}))?$")


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

# an action's code is the one codec's (``bot.ui.intents``): its last field in an ``Act``
_ANY_TOKEN = "0"
_NO_LIMIT = 1 << 16


def _who(player: str) -> str | None:
    """The stable short form of a Telegram seat id (``None`` for one that has none)."""
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


def _named(action: Action) -> str | None:
    if isinstance(action, CatchUno):
        return action.target
    if isinstance(action, Play):
        return action.target
    return None


def encode_action(action: Action, seats: Sequence[str]) -> str | None:
    """The compact code of ``action`` (``None`` if it cannot be encoded: it names a player
    not seated, or not unambiguously): the code ``bot.ui.intents`` gives it."""
    named = _named(action)
    if named is not None and who_of(named, seats) is None:
        return None
    text = intents.try_encode(Act(action, 0), _ANY_TOKEN, limit=_NO_LIMIT)
    return text.split(":", 3)[3] if text is not None else None


def decode_action(code: str, seats: Sequence[str]) -> Action | None:
    """The action a code names (``None`` for anything malformed, or naming a player who is
    not at the table: a forged or an outdated button)."""
    if ":" in code:
        return None
    press = intents.decode(f"a:{_ANY_TOKEN}:0:{code}", limit=_NO_LIMIT)
    if not isinstance(press, intents.Press):
        return None
    intent = press.resolve(seats)
    return intent.action if isinstance(intent, Act) else None


# -- callback data --------------------------------------------------------------------------


class Op(StrEnum):
    """What a button made before the intent codec does: the first field of its old
    ``callback_data``. Buttons already posted carry these (``legacy`` reads them): a
    value never changes meaning, and no new button is made with one."""

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
    CARDS = "c"  # (no table) how one's cards are shown: the /cards menu


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
