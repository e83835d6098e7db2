"""What a press means, on any platform: typed intents and their one compact text form.

A button (Telegram's ``callback_data``, Discord's ``custom_id``, a select option's value,
an inline result id) carries one intent: what to do, at which table, drawn for which table
version where that matters. ``encode`` writes it, ``decode`` reads it back; each platform
passes only its limit (Telegram: 64 bytes, Discord: 100 characters) and its table *token*,
an opaque string of ``[A-Za-z0-9_-]`` that the adapter maps to and from a table key
(Telegram: the chat id and topic, ``-1001234567890_45``; Discord: the channel id).

The text form is ``<kind>:<token>[:<field>...]``; every field is ASCII, so bytes and
characters count alike:

=====  ====================  ===================================================
kind   intent                fields after the token
=====  ====================  ===================================================
``a``  ``Act``               version, action code (below)
``j``  ``Join``              -
``l``  ``LeaveTable``        -
``b``  ``AddBot``            -
``g``  ``Start``             -
``h``  ``OpenHand``          -
``r``  ``Refresh``           -
``s``  ``OpenSettings``      page
``f``  ``OpenFlag``          flag key (``bot.ui.settings_schema``: ``st`` is stacking)
``v``  ``SetFlag``           flag key, value (``true``/``false``, a number, a name)
``p``  ``SetPreset``         preset name
``x``  ``CloseSettings``     -
``k``  ``Kick``              player
``K``  ``OpenKick``          -
``n``  ``Page``              version, page (a hand's cards)
``i``  ``Pick``              version, choice (``R5``, ``R5+R5``, ``R5!``: a card to play)
``c``  ``Back``              version
``L``  ``Language``          ``c`` (the chat) or ``u`` (the user), code or ``-``
``m``  ``Choose``            menu name (a select: its chosen option is an intent)
``u``  ``Unplayable``        card (a card of the hand not playable now)
``C``  ``CardLook``          ``p`` (pictures) or ``t`` (text)
``P``  ``Autopilot``         ``1`` (play for me) or ``0`` (my seat back)
``e``  ``VoteEnd``           the version the vote opened at (``0``: none was open)
=====  ====================  ===================================================

An action code: ``d`` Draw, ``s`` Pass, ``a`` Accept, ``c`` Challenge, ``u`` CallUno,
``n`` NextRound, ``l`` LeaveTable, ``k<colour>`` ChooseColor, ``x<player>`` CatchUno,
``p<card>[+<card>...][/<colour>][@<player>][!]`` Play (``!``: with the UNO call). Cards and
colours are the engine's codes (``R5``, ``W4``, ``B``).

Players are named by a stable short form, never a seat index (seats reorder when someone
leaves and sits down again, and a catch is not version-checked): a person ``<platform>:<id>``
by ``<id>`` (``tg:1234567890`` -> ``1234567890``), a bot seat ``bot:<key>:<n>`` by ``b<n>``.
``decode`` gives a ``Press``; ``Press.resolve(seats)`` names the seated players (a short
form naming nobody at the table, or several, is a forgery). ``Press.needs_seats`` says
whether the seats are needed at all.

Refusals are typed: ``DecodeRefusal("forged")`` for anything this codec never makes (malformed,
over the limit, an unknown kind, flag or preset, a player not seated), and
``DecodeRefusal("outdated")`` for the forms of the buttons posted before this codec (Telegram's
``<op>|<tid>|...``, Discord's ``uno:<action>:...``): the adapter answers "this button is
outdated" and the next table message carries new buttons.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bot.ui import settings_schema as schema
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
    Rules,
)

__all__ = [
    "CARD_LOOKS",
    "DISCORD_LIMIT",
    "TELEGRAM_LIMIT",
    "Act",
    "AddBot",
    "Autopilot",
    "Back",
    "CardLook",
    "Choose",
    "CloseSettings",
    "DecodeRefusal",
    "Intent",
    "Join",
    "Kick",
    "Language",
    "LeaveTable",
    "Look",
    "OpenFlag",
    "OpenHand",
    "OpenKick",
    "OpenSettings",
    "Page",
    "Pick",
    "Press",
    "Refresh",
    "SetFlag",
    "SetPreset",
    "Start",
    "TooLong",
    "Unplayable",
    "VoteEnd",
    "decode",
    "encode",
    "short_player",
    "try_encode",
]

TELEGRAM_LIMIT = 64  # bytes of callback_data, of an inline result id
DISCORD_LIMIT = 100  # characters of a custom_id, of a select option's value
# how a person may have their cards shown (``CardLook``): as the platform's pictures of
# them (Telegram's stickers), or as text
Look = Literal["pictures", "text"]
CARD_LOOKS: tuple[Look, ...] = ("pictures", "text")


# -- the intents ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Act:
    """A game move (``engine.Action``), pressed on a button drawn for table ``version``."""

    action: Action
    version: int


@dataclass(frozen=True, slots=True)
class Join:
    """Sit down (the lobby, or the next round)."""


@dataclass(frozen=True, slots=True)
class LeaveTable:
    """LeaveTable the table."""


@dataclass(frozen=True, slots=True)
class AddBot:
    """Add a bot seat (host or admin)."""


@dataclass(frozen=True, slots=True)
class Start:
    """Deal (host or admin)."""


@dataclass(frozen=True, slots=True)
class OpenHand:
    """Show me my hand (privately)."""


@dataclass(frozen=True, slots=True)
class Refresh:
    """Draw the message this button is on again."""


@dataclass(frozen=True, slots=True)
class OpenSettings:
    """The settings menu at ``page`` (``bot.ui.settings_schema.pages``)."""

    page: int = 0


@dataclass(frozen=True, slots=True)
class OpenFlag:
    """One flag's own menu: its help and a control per value."""

    flag: str


@dataclass(frozen=True, slots=True)
class SetFlag:
    """Set ``flag`` to ``value`` (a value of ``bot.ui.settings_schema.menu_values``)."""

    flag: str
    value: bool | int | str


@dataclass(frozen=True, slots=True)
class SetPreset:
    name: str


@dataclass(frozen=True, slots=True)
class CloseSettings:
    """Done with the settings menu."""


@dataclass(frozen=True, slots=True)
class Kick:
    """Remove ``target`` (a player id) from the table (host or admin)."""

    target: str


@dataclass(frozen=True, slots=True)
class OpenKick:
    """The menu of players to remove."""


@dataclass(frozen=True, slots=True)
class Page:
    """Page ``n`` of a hand's cards (a hand too long for one message)."""

    n: int
    version: int


@dataclass(frozen=True, slots=True)
class Pick:
    """A card chosen that still needs a colour or a player (``choice``: ``R5``, ``R5+R5``,
    ``R5!`` with the UNO call): show its plays."""

    choice: str
    version: int


@dataclass(frozen=True, slots=True)
class Back:
    """Back from a picker to the hand."""

    version: int


@dataclass(frozen=True, slots=True)
class Language:
    """Set the chat's (``kind`` ``chat``) or the user's (``user``) language; ``code``
    ``None``: back to the default."""

    kind: Literal["chat", "user"]
    code: str | None


@dataclass(frozen=True, slots=True)
class CardLook:
    """Show the presser's cards as pictures or as text, on every table (their own setting,
    kept as their language is)."""

    look: Look


@dataclass(frozen=True, slots=True)
class Choose:
    """A select menu named ``menu`` (unique on its message); the option chosen is itself an
    encoded intent, decoded the same way."""

    menu: str


@dataclass(frozen=True, slots=True)
class Unplayable:
    """A card of the hand that cannot be played now (an inline result listing the whole
    hand): nothing to do but say so."""

    card: Card


@dataclass(frozen=True, slots=True)
class Autopilot:
    """Hand my seat to the autopilot (``on``: "Play for me"), or take it back
    (``bot.presence``)."""

    on: bool


@dataclass(frozen=True, slots=True)
class VoteEnd:
    """Vote to end the game: the vote that opened at table version ``vote`` (the button
    drawn while it was open), or ``0`` (drawn while none was: this press opens one)."""

    vote: int = 0


Intent = (
    Act | Join | LeaveTable | AddBot | Start | OpenHand | Refresh | OpenSettings | OpenFlag
    | SetFlag | SetPreset | CloseSettings | Kick | OpenKick | Page | Pick | Back | Language
    | Choose | Unplayable | CardLook | Autopilot | VoteEnd
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class DecodeRefusal:
    """Why a press means nothing: ``forged`` (never made by this codec, or naming a player
    who is not at the table) or ``outdated`` (a button of an older form)."""

    reason: Literal["forged", "outdated"]


FORGED = DecodeRefusal("forged")
OUTDATED = DecodeRefusal("outdated")


class TooLong(ValueError):
    """The intent's text is over the platform's limit."""


# -- players ----------------------------------------------------------------------------------

_USER = re.compile(r"[A-Za-z0-9_-]{1,24}")
_BOT_WHO = re.compile(r"b[1-9][0-9]{0,5}")
_WHO = r"(?:[A-Za-z0-9_-]{1,24})"


def short_player(player: str) -> str | None:
    """A player's stable short form (``None`` if it has none: it cannot be in a button)."""
    if player.startswith("bot:"):
        n = player.rpartition(":")[2]
        who = "b" + n
        return who if _BOT_WHO.fullmatch(who) else None
    head, sep, user = player.partition(":")
    if not head or not sep or not _USER.fullmatch(user) or _BOT_WHO.fullmatch(user):
        return None
    return user


def _seated(who: str, seats: Sequence[str]) -> str | None:
    found = [s for s in seats if short_player(s) == who]
    return found[0] if len(found) == 1 else None


# -- actions ----------------------------------------------------------------------------------

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
_CARD = r"[RYGBW][0-9SRDW]{0,2}"
_PLAY = re.compile(
    rf"p(?P<cards>{_CARD}(?:\+{_CARD}){{0,29}})(?:/(?P<color>[RYGB]))?"
    rf"(?:@(?P<target>{_WHO}))?(?P<uno>!)?"
)
_CATCH = re.compile(rf"x(?P<target>{_WHO})")


def _who(player: str) -> str:
    who = short_player(player)
    if who is None:
        raise ValueError(f"no short form for player {player!r}")
    return who


def _action_code(action: Action) -> str:
    if isinstance(action, Play):
        text = "p" + "+".join(c.code for c in action.cards)
        if action.color is not None:
            text += "/" + action.color.value
        if action.target is not None:
            text += "@" + _who(action.target)
        return text + ("!" if action.uno else "")
    if isinstance(action, ChooseColor):
        return "k" + action.color.value
    if isinstance(action, CatchUno):
        return "x" + _who(action.target)
    code = _SIMPLE_CODES.get(type(action))
    if code is None:
        raise ValueError(f"no code for {action!r}")
    return code


def _action_of(code: str) -> Action | None:
    """The action of a code, players still in their short form."""
    if code in _SIMPLE:
        return _SIMPLE[code]
    try:
        if code.startswith("k") and len(code) == 2:
            return ChooseColor(Color.parse(code[1]))
        m = _CATCH.fullmatch(code)
        if m is not None:
            return CatchUno(m["target"])
        m = _PLAY.fullmatch(code)
        if m is None:
            return None
        cards = [Card.parse(c) for c in m["cards"].split("+")]
        color = Color.parse(m["color"]) if m["color"] else None
        return Play(cards[0], color, m["target"], tuple(cards[1:]), uno=m["uno"] is not None)
    except ValueError:
        return None


# -- encoding ---------------------------------------------------------------------------------

_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,48}")
_NAME = re.compile(r"[a-z0-9_]{1,24}")  # a preset, a flag value, a language code
_MENU = re.compile(r"[A-Za-z0-9_]{1,16}")
_LANG = re.compile(r"[A-Za-z0-9_-]{1,16}")
_CHOICE = re.compile(rf"{_CARD}(?:\+{_CARD}){{0,29}}!?")
_NO_FIELDS: dict[type, str] = {
    Join: "j",
    LeaveTable: "l",
    AddBot: "b",
    Start: "g",
    OpenHand: "h",
    Refresh: "r",
    CloseSettings: "x",
    OpenKick: "K",
}
_NO_FIELDS_KIND = {kind: cls for cls, kind in _NO_FIELDS.items()}


def _fields(intent: Intent) -> list[str]:
    if type(intent) in _NO_FIELDS:
        return [_NO_FIELDS[type(intent)]]
    match intent:
        case Act(action, version):
            return ["a", _version(version), _action_code(action)]
        case OpenSettings(page):
            return ["s", _number(page)]
        case OpenFlag(flag):
            return ["f", schema.spec(flag).key]
        case SetFlag(flag, value):
            text = schema.encode_value(value)
            if not _NAME.fullmatch(text):
                raise ValueError(f"value {value!r} cannot be in a button")
            return ["v", schema.spec(flag).key, text]
        case SetPreset(name):
            if name not in Rules.PRESET_NAMES:
                raise ValueError(f"no preset {name!r}")
            return ["p", name]
        case Kick(target):
            return ["k", _who(target)]
        case Page(n, version):
            return ["n", _version(version), _number(n)]
        case Pick(choice, version):
            if not _CHOICE.fullmatch(choice):
                raise ValueError(f"not a choice: {choice!r}")
            return ["i", _version(version), choice]
        case Back(version):
            return ["c", _version(version)]
        case Language(kind, code):
            if code is not None and (code == "-" or not _LANG.fullmatch(code)):
                raise ValueError(f"not a language code: {code!r}")
            return ["L", "c" if kind == "chat" else "u", code or "-"]
        case Unplayable(card):
            return ["u", Card.parse(card).code]
        case CardLook(look):
            if look not in CARD_LOOKS:
                raise ValueError(f"not a way to show cards: {look!r}")
            return ["C", look[0]]
        case Choose(menu):
            if not _MENU.fullmatch(menu):
                raise ValueError(f"not a menu name: {menu!r}")
            return ["m", menu]
        case Autopilot(on):
            if not isinstance(on, bool):
                raise ValueError(f"not a yes/no: {on!r}")
            return ["P", "1" if on else "0"]
        case VoteEnd(vote):
            return ["e", _version(vote)]
    raise ValueError(f"not an intent: {intent!r}")


def _number(n: int) -> str:
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < 10**11:
        raise ValueError(f"not a count: {n!r}")
    return str(n)


_version = _number


def encode(intent: Intent, token: str, *, limit: int) -> str:
    """The text of ``intent`` at the table ``token``; ``TooLong`` when over ``limit`` (bytes),
    ``ValueError`` for what no button can carry (a player with no short form...)."""
    if not _TOKEN.fullmatch(token):
        raise ValueError(f"not a table token: {token!r}")
    kind, *rest = _fields(intent)
    text = ":".join([kind, token, *rest])
    if len(text.encode()) > limit:
        # the text itself stays out of the error: it may name a card of a private hand
        raise TooLong(f"{type(intent).__name__} over {limit} bytes")
    return text


def try_encode(intent: Intent, token: str, *, limit: int) -> str | None:
    """``encode``, or ``None`` when the intent cannot be a button here (leave it out)."""
    try:
        return encode(intent, token, limit=limit)
    except ValueError:
        return None


# -- decoding ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Press:
    """A decoded press at the table ``token``. Its intent names players by their short form
    until ``resolve`` finds them among the table's seats."""

    token: str
    raw: Intent
    needs_seats: bool = False

    def resolve(self, seats: Sequence[str] = ()) -> Intent | DecodeRefusal:
        """The intent, with the players it names found among ``seats`` (the player ids at
        the table); ``DecodeRefusal("forged")`` when one is not there."""
        if not self.needs_seats:
            return self.raw
        find: Callable[[str], str | None] = lambda who: _seated(who, seats)  # noqa: E731
        intent = self.raw
        if isinstance(intent, Kick):
            target = find(intent.target)
            return FORGED if target is None else Kick(target)
        if isinstance(intent, Act):
            action = intent.action
            if isinstance(action, CatchUno):
                target = find(action.target)
                return FORGED if target is None else Act(CatchUno(target), intent.version)
            if isinstance(action, Play) and action.target is not None:
                target = find(action.target)
                if target is None:
                    return FORGED
                return Act(replace(action, target=target), intent.version)
        return intent


# the forms of the buttons posted before this codec (answered "outdated", not "forged")
_OLD_TELEGRAM = re.compile(r"(?:a|j|l|b|g|S|h|sm|sf|sv|sp|sx|L)\|-?[0-9]{1,20}(?:_[0-9]+)?(\|.*)?")
_OLD_DISCORD = re.compile(r"uno:[a-z]{1,12}:[0-9]{1,20}:[0-9]{1,12}(?::.*)?")
_DIGITS = re.compile(r"[0-9]{1,11}")


def decode(text: str | None, *, limit: int) -> Press | DecodeRefusal:
    """The press a button's text means, or why it means nothing."""
    if not text or len(text.encode()) > limit:
        return FORGED
    if _OLD_TELEGRAM.fullmatch(text) or _OLD_DISCORD.fullmatch(text):
        return OUTDATED
    kind, _, rest = text.partition(":")
    parts = rest.split(":")
    token = parts[0]
    if not _TOKEN.fullmatch(token):
        return FORGED
    try:
        press = _decode(kind, token, parts[1:])
    except (ValueError, KeyError):
        return FORGED
    return FORGED if press is None else press


def _decode(kind: str, token: str, f: list[str]) -> Press | None:
    cls = _NO_FIELDS_KIND.get(kind)
    if cls is not None:
        return Press(token, cls()) if not f else None
    n = len(f)
    if kind == "a" and n == 2:
        action = _action_of(f[1])
        if action is None:
            return None
        named = isinstance(action, CatchUno) or (
            isinstance(action, Play) and action.target is not None
        )
        return Press(token, Act(action, _int(f[0])), named)
    if kind == "s" and n == 1:
        return Press(token, OpenSettings(_int(f[0])))
    if kind == "f" and n == 1:
        flag = schema.flag_of_key(f[0])
        return Press(token, OpenFlag(flag)) if flag is not None else None
    if kind == "v" and n == 2:
        flag = schema.flag_of_key(f[0])
        if flag is None:
            return None
        return Press(token, SetFlag(flag, schema.decode_value(flag, f[1])))
    if kind == "p" and n == 1:
        return Press(token, SetPreset(f[0])) if f[0] in Rules.PRESET_NAMES else None
    if kind == "k" and n == 1 and re.fullmatch(_WHO, f[0]):
        return Press(token, Kick(f[0]), True)
    if kind == "n" and n == 2:
        return Press(token, Page(_int(f[1]), _int(f[0])))
    if kind == "i" and n == 2 and _CHOICE.fullmatch(f[1]):
        for card in f[1].removesuffix("!").split("+"):
            Card.parse(card)
        return Press(token, Pick(f[1], _int(f[0])))
    if kind == "c" and n == 1:
        return Press(token, Back(_int(f[0])))
    if kind == "L" and n == 2 and f[0] in ("c", "u"):
        lang = None if f[1] == "-" else f[1]
        if lang is not None and not _LANG.fullmatch(lang):
            return None
        return Press(token, Language("chat" if f[0] == "c" else "user", lang))
    if kind == "u" and n == 1:
        return Press(token, Unplayable(Card.parse(f[0])))
    if kind == "C" and n == 1:
        look = next((lk for lk in CARD_LOOKS if lk[0] == f[0]), None)
        return Press(token, CardLook(look)) if look is not None else None
    if kind == "m" and n == 1 and _MENU.fullmatch(f[0]):
        return Press(token, Choose(f[0]))
    if kind == "P" and n == 1 and f[0] in ("0", "1"):
        return Press(token, Autopilot(f[0] == "1"))
    if kind == "e" and n == 1:
        return Press(token, VoteEnd(_int(f[0])))
    return None


def _int(text: str) -> int:
    if not _DIGITS.fullmatch(text):
        raise ValueError(text)
    return int(text)
