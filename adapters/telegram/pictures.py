"""A hand in inline mode as card stickers (with the card set made: ``stickers``).

The personal results of a Play query, in the order a player reads them: the cards that can
be played now, in colour (a wild once in each colour it may name); then the others,
dimmed; then what a sticker cannot say, as text results: a play that also calls UNO, swaps
with a player or lays several cards together; then Draw, Pass, UNO and the rest, as before.

Choosing a playable card posts its sticker to the group as the player's own message (the
table message then shows the move; a choice found stale is refused privately, as any).
A dimmed card posts the same neutral :data:`widgets.POSTED` as the text results (Telegram
always posts something for a chosen result; it must name no card of the hand) and is
refused privately with the reason, changing nothing. Result ids are those of the text
results (``<tid>|<version>|<action>``, ``-<card>`` for a dimmed one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from telegram import (
    InlineQueryResult,
    InlineQueryResultCachedSticker,
    InlineQueryResultsButton,
    InputTextMessageContent,
)

from adapters.telegram import widgets
from adapters.telegram.ids import MAX_DATA, Link, encode_action, tid_of
from bot.port import TableInfo
from bot.ui import render
from bot.ui.card_set import Pictures
from bot.ui.i18n import Translator
from engine import Action, Card, Play, View

__all__ = ["inline_answer", "pictured"]

# ``bot.ui.controls.hand_menu``'s options here: the plain play first (its sticker), the call
# after it (a text result); the next round is the table message's
STICKER_OPTIONS: dict[str, Any] = {"uno_first": False, "next_round": False}


def pictured(play: Play) -> bool:
    """Whether a sticker says all of ``play``: one card (a wild with its colour), no UNO
    call, no player to swap with."""
    return not play.together and play.target is None and not play.uno


def _sticker(
    tid: str, version: int, code: str, file_id: str, *, posts: str | None = None
) -> InlineQueryResultCachedSticker | None:
    rid = f"{tid}|{version}|{code}"
    if len(rid.encode()) > MAX_DATA:
        return None
    content = InputTextMessageContent(posts) if posts is not None else None
    return InlineQueryResultCachedSticker(rid, file_id, input_message_content=content)


def inline_answer(
    info: TableInfo,
    view: View | None,
    legal: Sequence[Action],
    tr: Translator,
    pictures: Pictures,
) -> tuple[list[InlineQueryResult], InlineQueryResultsButton | None]:
    """Personal inline results with the cards as stickers (see the module)."""
    if view is None or view.hand is None:
        plain, button = widgets.inline_answer(info, view, legal, tr)
        return list(plain), button
    tid = tid_of(info.key)
    ver = info.version
    seats = [s.id for s in info.seats]
    names = info.names
    m = widgets.hand_moves(info, view, legal, tr, **STICKER_OPTIONS)
    playable: list[InlineQueryResult] = []
    said: list[InlineQueryResult] = []  # plays a sticker cannot say
    for a in widgets._actions(m.plays):
        code = encode_action(a, seats)
        if code is None or not isinstance(a, Play):
            continue
        if pictured(a):
            st = _sticker(tid, ver, code, pictures.ref(a.card, a.color))
            if st is not None:
                playable.append(st)
            continue
        label = render.action_label(a, tr, names)
        found = widgets._result(tid, ver, code, ("📢 " if a.uno else "") + label, None)
        if found is not None:
            said.append(found)
    moves: list[InlineQueryResult] = []
    for move, other in zip(m.others, widgets._actions(m.others), strict=True):
        code = encode_action(other, seats)
        if code is None:
            continue
        label = "▶️ " + move.detail
        found = widgets._result(tid, ver, code, label, widgets._hint(other, view, tr))
        if found is not None:
            moves.append(found)
    pilot = widgets.pilot_results(info, m, tr)  # last: it never takes a card's place
    can = m.cards()
    dimmed: list[InlineQueryResult] = []
    seen: set[Card] = set()
    for c in sorted(view.hand, key=lambda c: c.order):
        if c in can or c in seen:
            continue
        seen.add(c)
        st = _sticker(tid, ver, "-" + c.code, pictures.ref(c, dim=True), posts=widgets.POSTED)
        if st is not None:
            dimmed.append(st)
    # 50 results at most: the moves always make it, then the playable cards, then what
    # else can be played, then the rest of the hand
    room = widgets.INLINE_MAX - len(moves) - len(pilot)
    playable = playable[:room]
    said = said[: room - len(playable)]
    dimmed = dimmed[: room - len(playable) - len(said)]
    results = [*playable, *dimmed, *said, *moves, *pilot]
    status = widgets._status(view, tr, names)
    button = InlineQueryResultsButton(status[:64], start_parameter=Link.HAND + tid)
    return results, button
