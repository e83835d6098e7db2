"""Component ``custom_id``s: ``bot.ui.intents``' one codec, under Discord's 100 characters,
with the table's channel (or thread) id as its token; and a reader of the ids posted
before it, ``uno:<action>:<table>:<version>[:<arg>]``, so that old buttons keep working.

They carry ids and the table version the component was drawn for, never game state
(ARCHITECTURE.md). A select's id is ``Choose(menu)``; each of its options' value is an
intent itself. Anything that does not decode exactly is refused as forged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ui import settings_schema as schema
from bot.ui.intents import (
    DISCORD_LIMIT,
    Act,
    AddBot,
    Back,
    Choose,
    DecodeRefusal,
    Intent,
    Join,
    Kick,
    LeaveTable,
    OpenHand,
    OpenSettings,
    Page,
    Pick,
    Press,
    SetFlag,
    SetPreset,
    Start,
    decode,
    try_encode,
)
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
    NextRound,
    Pass,
    Play,
    Rules,
)

__all__ = [
    "MAX_CUSTOM_ID",
    "OLD_HAND_ACTIONS",
    "OLD_TABLE_ACTIONS",
    "encode",
    "group_key",
    "player",
    "read",
    "read_legacy",
    "resolve",
    "token_of",
]

MAX_CUSTOM_ID = DISCORD_LIMIT  # Discord's limit for a component's custom_id
_SNOWFLAKE = re.compile(r"[1-9][0-9]{0,19}")
FORGED = DecodeRefusal("forged")
OUTDATED = DecodeRefusal("outdated")


def token_of(channel: int) -> str:
    """The codec's table token of a channel (or thread): its id."""
    return str(channel)


def encode(intent: Intent, channel: int) -> str | None:
    """``intent``'s custom id at the table in ``channel`` (``None``: it cannot be one)."""
    return try_encode(intent, token_of(channel), limit=MAX_CUSTOM_ID)


def group_key(play: Play) -> str:
    """The cards of a play: plays that differ only in colour or target share it."""
    return "+".join(c.code for c in play.cards)


def read(custom_id: str, values: Sequence[str], *, select: bool) -> Press | DecodeRefusal:
    """What a press means: a button's id, or a select's id with the value chosen (itself an
    intent, of the same table). An old id (``uno:...``) is read by :func:`read_legacy`."""
    if custom_id.startswith("uno:"):
        return read_legacy(custom_id, values, select=select)
    press = decode(custom_id, limit=MAX_CUSTOM_ID)
    if not isinstance(press, Press):
        return press
    if not _SNOWFLAKE.fullmatch(press.token):
        return FORGED  # a table here is a channel: its id, no leading zero
    if isinstance(press.raw, Choose) is not select:
        return FORGED  # a select's id on a button, or a button's on a select
    if not select:
        return press
    if len(values) != 1:
        return FORGED
    chosen = decode(values[0], limit=MAX_CUSTOM_ID)
    if not isinstance(chosen, Press):
        return FORGED  # (an old form here was never drawn: options are new)
    if chosen.token != press.token or not _offered_by(press.raw, chosen.raw):
        return FORGED
    return chosen


def _offered_by(menu: Choose | Intent, chosen: Intent) -> bool:
    """Whether the select ``menu`` offers intents like ``chosen`` at all."""
    name = menu.menu if isinstance(menu, Choose) else ""
    if name == "cards":
        return isinstance(chosen, Pick) or (
            isinstance(chosen, Act) and isinstance(chosen.action, Play)
        )
    if name == "preset":
        return isinstance(chosen, SetPreset)
    if name == "kick":
        return isinstance(chosen, Kick)
    if name.startswith("f") and isinstance(chosen, SetFlag):
        return schema.flag_of_key(name[1:]) == chosen.flag
    return False


def resolve(press: Press, key: str) -> Intent | DecodeRefusal:
    """The intent of ``press`` at the table ``key``, its players named in full: on Discord
    a short form is a user id (``123``: ``dc:123``) or a bot seat (``b2``:
    ``bot:<key>:2``), whether or not they sit there now (the service says if not)."""
    if not press.needs_seats:
        return press.raw
    return press.resolve([p for who in _named(press.raw) if (p := player(who, key)) is not None])


def _named(intent: Intent) -> list[str]:
    if isinstance(intent, Kick):
        return [intent.target]
    if isinstance(intent, Act):
        target = getattr(intent.action, "target", None)
        return [target] if isinstance(target, str) else []
    return []


def player(who: str, key: str) -> str | None:
    """The player a short form names at the table ``key``."""
    if who.isascii() and who.isdigit():
        return f"dc:{who}"
    if who[:1] == "b" and who[1:].isascii() and who[1:].isdigit():
        return f"bot:{key}:{who[1:]}"
    return None


# -- the ids posted before the codec ----------------------------------------------------------

_OLD = re.compile(
    r"uno:(?P<action>[a-z]{1,12}):(?P<table>[1-9][0-9]{0,19}):(?P<version>[0-9]{1,12})"
    r"(?::(?P<arg>[A-Za-z0-9_+~@!.-]{1,64}))?"
)
_OLD_PLAY = re.compile(
    r"(?P<cards>[A-Z0-9]{1,3}(?:\+[A-Z0-9]{1,3}){0,15})"
    r"(?:~(?P<color>[RYGB]))?(?:@(?P<target>[0-9]{1,20}|b[0-9]{1,3}))?(?P<uno>!)?"
)
_OLD_SELECTS = frozenset({"cards", "preset", "flag", "kick"})
# what the public table message drew then (anything else there is forged)
OLD_TABLE_ACTIONS = frozenset(
    {"join", "leave", "addbot", "settings", "start", "hand", "draw", "uno", "catch",
     "challenge", "accept", "next"}
)  # fmt: skip
# and what a hand message drew (as the harness names a press, for bench.discord)
OLD_HAND_ACTIONS = frozenset(
    {"play", "pick", "color", "pass", "page", "back", "draw", "uno", "catch", "challenge",
     "accept", "next", "cards"}
)  # fmt: skip
# the actions whose id carried an ``<arg>`` (every other one never did)
_OLD_ARGS = frozenset(
    {"play", "pick", "color", "catch", "page", "setpage", "refresh", "cards", "flag"}
)  # fmt: skip
_OLD_SIMPLE: dict[str, Intent] = {
    "join": Join(),
    "leave": LeaveTable(),
    "addbot": AddBot(),
    "start": Start(),
    "settings": OpenSettings(0),
    "hand": OpenHand(),
}
_OLD_ACTIONS: dict[str, Action] = {
    "draw": Draw(),
    "uno": CallUno(),
    "challenge": Challenge(),
    "accept": Accept(),
    "next": NextRound(),
    "pass": Pass(),
}


@dataclass(frozen=True, slots=True)
class _Old:
    action: str
    table: str
    version: int
    arg: str


def _parse_old(custom_id: str, select: bool) -> _Old | None:
    m = _OLD.fullmatch(custom_id) if len(custom_id) <= MAX_CUSTOM_ID else None
    if m is None:
        return None
    action = m["action"]
    if (action in _OLD_SELECTS) is not select:
        return None
    if (m["arg"] is not None) != (action in _OLD_ARGS):
        return None  # an argument where none was drawn, or none where one was
    return _Old(action, m["table"], int(m["version"]), m["arg"] or "")


def read_legacy(custom_id: str, values: Sequence[str], *, select: bool) -> Press | DecodeRefusal:
    """An id of the form before the codec, as the intent it meant then (players by their
    short form, as the codec's: ``123`` a person, ``b2`` a bot seat). ``refresh`` (the
    settings menu's page label, never pressable) is outdated; anything else that does not
    parse exactly is forged."""
    old = _parse_old(custom_id, select)
    if old is None or (select and len(values) != 1):
        return FORGED
    if old.action == "refresh":
        return OUTDATED
    try:
        intent = _old_intent(old, values[0] if select else "")
    except ValueError:
        return FORGED
    if intent is None:
        return FORGED
    named = isinstance(intent, Kick) or (
        isinstance(intent, Act)
        and (isinstance(intent.action, CatchUno) or getattr(intent.action, "target", None))
    )
    return Press(old.table, intent, bool(named))


def _old_intent(old: _Old, value: str) -> Intent | None:
    a, v, arg = old.action, old.version, old.arg
    if a in _OLD_SIMPLE:
        return _OLD_SIMPLE[a]
    if a in _OLD_ACTIONS:
        return Act(_OLD_ACTIONS[a], v)
    if a == "play":
        play = _old_play(arg)
        return None if play is None else Act(play, v)
    if a == "color":
        return Act(ChooseColor(Color.parse(arg)), v)
    if a == "catch":
        return Act(CatchUno(_old_player(arg)), v)
    if a in ("pick", "cards"):  # (a choice that is no card is no play: "out of date")
        return Pick(value if a == "cards" else arg, v)
    if a == "page":
        return Page(_digits(arg), v)
    if a == "back":
        return Back(v)
    if a == "setpage":
        return OpenSettings(_digits(arg))
    if a == "preset":
        return SetPreset(value) if value in Rules.PRESET_NAMES else None
    if a == "flag":
        if arg not in schema.SCHEMA:
            return None
        return SetFlag(arg, schema.decode_value(arg, value))
    if a == "kick":
        return Kick(_old_player(value))
    return None


def _digits(text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 11:
        raise ValueError(text)
    return int(text)


def _old_player(text: str) -> str:
    """A player as an old id named them: ``123`` (``dc:123``) or ``b2``, already the
    codec's short form."""
    if not text.isascii() or not (text.isdigit() or (text[:1] == "b" and text[1:].isdigit())):
        raise ValueError(text)
    return text


def _old_play(text: str) -> Play | None:
    m = _OLD_PLAY.fullmatch(text)
    if m is None:
        return None
    codes = m["cards"].split("+")
    return Play(
        Card.parse(codes[0]),
        color=Color.parse(m["color"]) if m["color"] else None,
        target=_old_player(m["target"]) if m["target"] else None,
        together=tuple(Card.parse(c) for c in codes[1:]),
        uno=bool(m["uno"]),
    )
