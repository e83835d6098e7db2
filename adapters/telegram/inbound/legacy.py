"""The buttons posted before the one intent codec (``bot.ui.intents``): still working.

Until issue 12 a Telegram button's ``callback_data`` was ``<op>|<tid>|<fields>``, with the
operations below; messages already in chats carry them (a table message is edited in
place for a whole game, a private hand or a settings menu may stay for days). They are read
here into the same intents the codec gives, so an old button does what it did:

======  ==============================  ====================================================
op      fields                          intent
======  ==============================  ====================================================
``a``   version, action code            ``Act`` (the action code as in ``bot.ui.intents``)
``j``   -                               ``Join``
``l``   -                               ``Leave``
``b``   -                               ``AddBot``
``g``   -                               ``Start``
``S``   -                               ``OpenSettings(0)`` (from the table message)
``h``   -                               ``OpenHand``
``sm``  -                               ``OpenSettings(0)`` (back to the menu)
``sf``  flag index                      ``OpenFlag``
``sv``  flag index, choice index        ``SetFlag``: the choice among the flag's old choices
``sp``  preset                          ``SetPreset``
``sx``  -                               ``CloseSettings``
``L``   ``c``/``u``, code or ``-``      ``Language``
======  ==============================  ====================================================

A settings button named its flag by its position in ``Rules.model_fields`` and its value
by its position among the values its menu offered: both are recorded here as they were on
the last day such buttons were made (:data:`FLAGS_V1`, :data:`CHOICES_V1`), so a flag added
to the rules since changes no old button. A choice index is read against the table's
current value as the old menu did (the current value was added to the offered numbers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from adapters.telegram.ids import Op, tid_of, unpack
from bot.ui import intents
from bot.ui import settings_schema as schema
from bot.ui.intents import FORGED, TELEGRAM_LIMIT, DecodeRefusal, Press

__all__ = ["CHOICES_V1", "FLAGS_V1", "OldChoice", "old_choice", "read"]

# ``Rules.model_fields`` in order, the last day settings buttons named a flag by position
FLAGS_V1: tuple[str, ...] = (
    "stacking", "deflect", "jump_in", "multi_play", "swap", "draw", "force_play",
    "wild_draw_four", "guilty_challenger", "wild_on_penalty", "last_card",
    "first_play_number", "uno_penalty", "false_uno_penalty", "scoring", "card_points",
    "target", "partners", "two_player", "decks", "hand_size", "dealer", "turn_seconds",
    "afk_strikes", "uno_window_seconds", "challenge_seconds", "draw_four_when",
    "after_penalty", "drawn_card", "uno_call", "color_timeout", "places", "start_reverse",
)  # fmt: skip
# the values each flag's menu offered then, in order (a number's current value was added)
CHOICES_V1: dict[str, tuple[Any, ...]] = {
    "stacking": ("off", "draw_two", "draw_four_on_two", "any"),
    "deflect": ("off", "draw_two", "all"),
    "jump_in": (False, True),
    "multi_play": ("off", "identical", "same_rank"),
    "swap": ("off", "seven_zero", "five"),
    "draw": ("one", "until_playable"),
    "force_play": (False, True),
    "wild_draw_four": ("challenge", "no_bluff", "free"),
    "guilty_challenger": ("plays", "skipped"),
    "wild_on_penalty": (False, True),
    "last_card": ("any", "number_only", "play_and_draw", "no_skip_reverse_wild"),
    "first_play_number": (False, True),
    "uno_penalty": (0, 1, 2, 4),
    "false_uno_penalty": (0, 1, 2),
    "scoring": ("winner_takes", "penalty"),
    "card_points": ("standard", "low"),
    "target": (0, 100, 200, 300, 500, 1000),
    "partners": (False, True, "rotate"),
    "two_player": ("official", "plain"),
    "decks": (1, 2),
    "hand_size": (5, 7, 10),
    "dealer": ("draw_high", "creator", "high_plays_first"),
    "turn_seconds": (15, 30, 60, 120, 300, 3600),
    "afk_strikes": (0, 2, 3, 5),
    "uno_window_seconds": (0, 3, 5, 10, 30),
    "challenge_seconds": (10, 20, 30, 60),
    "draw_four_when": ("no_color", "no_play"),
    "after_penalty": ("any", "same_color"),
    "drawn_card": ("any", "number_only"),
    "uno_call": ("after_play", "with_play"),
    "color_timeout": ("random", "keep"),
    "places": (False, True),
    "start_reverse": ("dealer", "right_of_dealer"),
}


_INDEX = re.compile(r"[0-9]{1,3}")
# the ops whose new form is the same fields under a kind of ``bot.ui.intents``
_SAME = {
    Op.JOIN: "j",
    Op.LEAVE: "l",
    Op.ADD_BOT: "b",
    Op.START: "g",
    Op.HAND: "h",
    Op.SETTINGS_DONE: "x",
    Op.SETTINGS_PRESET: "p",
    Op.LANGUAGE: "L",
    Op.ACT: "a",
}
_FIELDS = {Op.ACT: 2, Op.SETTINGS_PRESET: 1, Op.LANGUAGE: 2}  # (the others: none)
_OPS = frozenset(Op)


@dataclass(frozen=True, slots=True)
class OldChoice:
    """An old settings value button (``sv``) at the table ``token``: the ``index``-th value
    the menu of ``flag`` offered, read against the table's current value when pressed
    (:func:`old_choice`)."""

    token: str
    flag: str
    index: int


def read(data: str) -> Press | OldChoice | DecodeRefusal | None:
    """The press an old button's ``callback_data`` means (``DecodeRefusal("forged")`` for an old
    form that is malformed), or ``None``: not an old form (see ``bot.ui.intents.decode``)."""
    if data.partition("|")[0] not in _OPS:
        return None
    old = unpack(data)
    if old is None:
        return FORGED
    op, tid, f = Op(old.op), tid_of(old.key), old.args
    if op in _SAME:
        if len(f) != _FIELDS.get(op, 0):
            return FORGED
        return intents.decode(":".join([_SAME[op], tid, *f]), limit=TELEGRAM_LIMIT)
    if op in (Op.SETTINGS, Op.SETTINGS_MAIN) and not f:
        return intents.decode(f"s:{tid}:0", limit=TELEGRAM_LIMIT)
    flag = _flag(f[0]) if f else None
    if flag is None:
        return FORGED
    if op is Op.SETTINGS_FLAG and len(f) == 1:
        return intents.decode(f"f:{tid}:{schema.spec(flag).key}", limit=TELEGRAM_LIMIT)
    if op is Op.SETTINGS_VALUE and len(f) == 2 and _INDEX.fullmatch(f[1]):
        return OldChoice(tid, flag, int(f[1]))
    return FORGED


def _flag(index: str) -> str | None:
    """The flag an old button names by its index (``None``: none, or gone since)."""
    if not _INDEX.fullmatch(index) or int(index) >= len(FLAGS_V1):
        return None
    flag = FLAGS_V1[int(index)]
    return flag if flag in schema.SCHEMA else None


def old_choice(choice: OldChoice, current: Any) -> intents.SetFlag | DecodeRefusal:
    """The value an old settings button set, its flag's value being ``current`` now: the
    old menu offered its values with ``current`` added (numbers in order)."""
    values = list(CHOICES_V1.get(choice.flag, ()))
    if not any(v == current and type(v) is type(current) for v in values):
        values.append(current)
        if all(isinstance(v, int) for v in values):
            values.sort()
    if choice.index >= len(values):
        return FORGED
    return intents.SetFlag(choice.flag, values[choice.index])
