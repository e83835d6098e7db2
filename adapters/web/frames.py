"""What a page is sent, as JSON text: pure functions of the public table, one player's own
view and a translator (no I/O), as the chat adapters' views are.

- ``table``: the public table (``TableInfo``, the public view: never a hand), the same for
  every page of a table in one language, so it is made once per version and language and
  sent as it is to every page, spectators included;
- ``hand``: one player's own hand and moves, made from their ``View`` and legal moves and
  sent to that player's pages only (``Hub``);
- ``settings``, ``notice``, ``welcome``.

Every control carries its intent in the one codec (``bot.ui.intents.encode``) with the web
table's token for the table (``web_token``): the page sends that text back as it is, and it
is read as a button press is (``bot.ui.intents.decode``).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot import policy
from bot.port import Notice, TableInfo
from bot.ui import controls, render
from bot.ui.card_images import SET_VERSION, Face
from bot.ui.controls import Control, Row
from bot.ui.i18n import Translator
from bot.ui.intents import Act, Autopilot, OpenHand, OpenKick, try_encode
from engine import Action, Card, Color, Phase, Play, View

__all__ = [
    "WEB_LIMIT",
    "card_path",
    "controls_json",
    "hand_frame",
    "kick_frame",
    "notice_frame",
    "settings_frame",
    "table_frame",
    "web_token",
]

WEB_LIMIT = 200  # characters of an intent a page may send
# what the web table declares of ``bot.ui.controls``: the hand is always on the page (no Show
# hand), UNO! while someone may call it, the colours chosen in the hand
TABLE_OPTIONS: dict[str, Any] = {"uno": "callable", "hand_between_rounds": False, "colors": False}
HAND_OPTIONS: dict[str, Any] = {"uno_first": False, "next_round": False}


def web_token(key: str) -> str:
    """The token intents carry for table ``key`` on the web (16 characters of its hash: the
    connection knows its table; the token only tells a press meant for another apart)."""
    return base64.urlsafe_b64encode(hashlib.sha256(key.encode()).digest())[:16].decode()


def card_path(card: Card | None, color: Color | None = None, *, dim: bool = False) -> str:
    """The picture of a card (``None``: the back), relative to the page: the set's version
    is in the path, so a picture may be cached for good."""
    name = Face.of(card, color).name if card is not None else "back"
    return f"cards/{SET_VERSION}/{name}{'-d' if dim else ''}.png"


def _dump(frame: Mapping[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def _control(c: Control, token: str) -> dict[str, Any] | None:
    text = try_encode(c.intent, token, limit=WEB_LIMIT)
    if text is None:
        return None
    out: dict[str, Any] = {"intent": text, "label": c.label, "style": c.style}
    if c.icon:
        out["icon"] = c.icon
    if not c.enabled:
        out["disabled"] = True
    if c.selected:
        out["selected"] = True
    return out


def controls_json(rows: Iterable[Row], token: str) -> list[dict[str, Any]]:
    """Rows of controls for the page: each a list of buttons (or a choice, with its title)."""
    out = []
    for row in rows:
        items = [d for c in row if (d := _control(c, token)) is not None]
        if items:
            out.append({"title": row.title, "choice": row.choice, "controls": items})
    return out


def _seats(info: TableInfo, v: View | None) -> list[dict[str, Any]]:
    seats = []
    playing = set(v.players) if v is not None else set()
    order = list(v.players) if v is not None else [s.id for s in info.seats]
    order += [s.id for s in info.seats if s.id not in order and s.id in info.waiting]
    if info.status == "lobby" or v is None:
        order = [s.id for s in info.seats]
    for p in order:
        seat = {"id": p, "name": info.name(p), "bot": info.is_bot(p), "host": p == info.host}
        if v is not None and p in playing:
            seat["cards"] = v.counts.get(p, 0)
            seat["score"] = v.scores.get(p, 0)
            seat["uno"] = p in v.called
            seat["exposed"] = p in v.exposed
            seat["current"] = p == v.current
            if v.teams is not None and p in v.teams:
                seat["team"] = v.teams[p]
        elif p in info.waiting:
            seat["waiting"] = True
        seats.append(seat)
    return seats


def table_frame(info: TableInfo, tr: Translator, now: float) -> str:
    """The public table for every page in ``tr``'s language."""
    v = info.view
    token = web_token(info.key)
    rows = [
        Row(tuple(c for c in row if not isinstance(c.intent, OpenHand)), row.choice, row.menu,
            row.title)
        for row in controls.table_controls(info, tr, **TABLE_OPTIONS)
    ]  # fmt: skip
    frame: dict[str, Any] = {
        "type": "table",
        "version": info.version,
        "status": info.status,
        "now": now,
        "seats": _seats(info, v),
        "lines": render.recent_lines(info, tr),
        "text": render.table_text(info, tr),
        "rules": render.rules_summary(info.rules, tr, info.preset),
        "controls": controls_json(rows, token),
        "lang": tr.lang,
    }
    if policy.may_configure(info):  # the host's kick menu, as the settings: the page shows it
        frame["kick"] = try_encode(OpenKick(), token, limit=WEB_LIMIT)  # to the host alone
    if v is not None:
        frame.update(
            phase=v.phase.value,
            top={"code": v.top.code, "img": card_path(v.top, v.color), "text":
                 render.card_text(v.top, tr)},
            color=v.color.value if v.color is not None else None,
            colorName=render.color_name(v.color, tr) if v.color is not None else None,
            direction=v.direction,
            pending=v.pending_draw,
            pile=v.draw_pile_size,
            round=v.round,
            current=v.current,
            deadline=info.deadline if v.phase in _TIMED else None,
        )  # fmt: skip
        if v.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) or info.status != "playing":
            frame["scores"] = render.scores_lines(v, tr, info.names)
    return _dump(frame)


_TIMED = (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE)


def _play_json(c: Control, action: Play, token: str) -> dict[str, Any] | None:
    d = _control(c, token)
    if d is None:
        return None
    d["card"] = action.card.code
    if action.together:
        d["together"] = [x.code for x in action.together]
    if action.color is not None:
        d["color"] = action.color.value
    if action.target is not None:
        d["target"] = action.target
    if action.uno:
        d["uno"] = True
    return d


def hand_frame(info: TableInfo, view: View, legal: Sequence[Action], tr: Translator) -> str:
    """``view.viewer``'s own hand and moves: for their pages only."""
    token = web_token(info.key)
    rows = controls.hand_menu(info, view, legal, tr, **HAND_OPTIONS)
    plays: list[dict[str, Any]] = []
    moves: list[Row] = []
    for row in rows:
        if row.menu == "cards":
            for c in row:
                if isinstance(c.intent, Act) and isinstance(c.intent.action, Play):
                    d = _play_json(c, c.intent.action, token)
                    if d is not None:
                        plays.append(d)
        else:
            # the moves, and "Play for me" / "Take my seat back" (``bot.presence``)
            kept = tuple(c for c in row if isinstance(c.intent, Act | Autopilot))
            if kept:
                moves.append(Row(kept))
    lit = {p["card"] for p in plays}
    moving = bool(legal)
    cards = [
        {
            "code": c.code,
            "img": card_path(c, dim=moving and c.code not in lit),
            "lit": c.code in lit,
            "text": render.card_text(c, tr),
        }
        for c in sorted(view.hand or (), key=lambda c: c.order)
    ]
    frame = {
        "type": "hand",
        "version": info.version,
        "player": view.viewer,
        "cards": cards,
        "plays": plays,
        "moves": controls_json(moves, token),
        "text": render.hand_text(view, tr, info.names),
    }
    return _dump(frame)


def settings_frame(info: TableInfo, page: int, tr: Translator) -> str:
    """The settings menu at ``page`` (``bot.ui.controls.settings_menu``)."""
    rows = controls.settings_menu(info, page, tr)
    return _dump(
        {
            "type": "settings",
            "version": info.version,
            "page": page,
            "summary": render.rules_summary(info.rules, tr, info.preset),
            "rows": controls_json(rows, web_token(info.key)),
        }
    )


def kick_frame(info: TableInfo, by: str, tr: Translator) -> str | None:
    """The host's menu of whom to remove (``None``: nobody else is at the table)."""
    rows = controls.kick_menu(info, tr, by)
    if not rows:
        return None
    return _dump({"type": "kick", "version": info.version,
                  "rows": controls_json(rows, web_token(info.key))})  # fmt: skip


def notice_frame(
    text: str, kind: str = "refusal", code: str | None = None, extra: Mapping[str, Any] = {}
) -> str:
    """A line for one page (a refusal, a look at a hand) or every page (news)."""
    return _dump({"type": "notice", "kind": kind, "code": code, "text": text, **extra})


def notice_text(notice: Notice, info: TableInfo | None, tr: Translator, viewer: str | None) -> str:
    names = info.names if info is not None else {}
    return render.notice_text(notice, tr, names, platform="web", viewer=viewer)
