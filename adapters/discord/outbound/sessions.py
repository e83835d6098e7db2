"""Players' hand messages: a :class:`HandSession` per player at a table (the ephemeral
message and the interaction token that edits it), kept with the table too
(:func:`hand_record`, meta ``dc_hand:<player>``) so that any process can draw it, a
restarted one included."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.port import TableInfo
from bot.service import Service
from engine import Card

__all__ = [
    "HAND_META",
    "HandSession",
    "Picture",
    "Sessions",
    "hand_record",
    "session_of",
]

# An interaction token lives 15 minutes; a hand view is retired a little before that.
TOKEN_SECONDS = 15 * 60.0
HAND_TTL = 14 * 60.0
RECENT_PRIVATE = 4  # event lines under a hand
# a player's hand message kept with the table (``hand_record``), under this meta key prefix;
# written when what another process needs changed, or when its token is this much older
# than the one this process uses (so that the kept token stays good for another ~14 min)
HAND_META = "dc_hand:"
KEEP_SECONDS = 60.0
SWEEP_SECONDS = 60.0  # how often sessions whose token ran out are forgotten

# a hand picture: the cards in order, and the playable ones (None: nothing is marked)
Picture = tuple[tuple[Card, ...], frozenset[Card] | None]


@dataclass
class HandSession:
    """A player's live ephemeral hand message at a table, and the way to edit it: the
    webhook token of their latest interaction with it, which lives 15 minutes from
    ``since`` (``PATCH /webhooks/<app>/<token>/messages/<message>``). Kept with the table
    too (``hand_record``): any process can then edit it, a restarted one included."""

    key: str
    player: str
    token: str
    app: int
    since: float  # unix time the token's interaction was created (its 15 minutes count)
    lang: str
    message: int | None = None  # the hand message (None: an answer not known yet)
    # the interaction whose token it is, in the process it came to (None: read from the
    # table's record); such a session's process also retires it when its token runs out
    interaction: discord.Interaction[Any] | None = None
    page: int = 0
    picking: str | None = None  # the group key of a card waiting for its colour or target
    forced: bool = True  # redraw even if nothing they can do changed
    final: bool = False  # the table closed: a last edit without buttons
    shown: Any = None  # what the last drawing offered (see ``Hands.message``)
    drawn: str | None = None  # the token last drawn through
    drawn_in: int | None = None  # the message last drawn into
    drawn_sig: Any = None  # what was drawn into it then (text, components, picture)
    drawn_at: tuple[int, str] | None = None  # the table's (version, status) it showed
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_PRIVATE))
    expiry: asyncio.TimerHandle | None = None
    picture: Picture | None = None  # the cards to picture, as the game stands now
    # (message, attachment id, the picture) it carries, as this process last saw it
    pictured: tuple[int, int, Picture] | None = None
    stored: dict[str, Any] | None = None  # the record as last written or read here


def hand_record(s: HandSession) -> dict[str, Any]:
    """What is kept with the table (its meta, ``dc_hand:<player>``) of a player's hand
    message, so that another process (or this one after a restart) can edit it: the
    application id and the interaction token (a credential for 15 minutes, for that
    interaction's messages only), the message id, when the token's interaction was created,
    and what the message shows (language, page, a card waiting for its colour, and the
    private lines under the hand as they were then: they are not written for each line)."""
    return {
        "a": s.app,
        "t": s.token,
        "m": s.message,
        "s": s.since,
        "l": s.lang,
        "p": s.page,
        "k": s.picking,
        "r": list(s.recent),
    }


def session_of(key: str, player: str, rec: Any) -> HandSession | None:
    """A session from a table's record of it (``None`` if the record is not one)."""
    if not isinstance(rec, Mapping):
        return None
    app, token, mid, since = rec.get("a"), rec.get("t"), rec.get("m"), rec.get("s")
    lang, page, picking = rec.get("l"), rec.get("p"), rec.get("k")
    if not (
        isinstance(app, int)
        and isinstance(token, str)
        and isinstance(mid, int)
        and isinstance(since, int | float)
        and isinstance(lang, str)
        and isinstance(page, int)
        and (picking is None or isinstance(picking, str))
    ):
        return None
    s = HandSession(key, player, token, app, float(since), lang, mid, page=page, picking=picking)
    s.drawn_in = mid  # (written once drawn)
    lines = rec.get("r")
    if isinstance(lines, list):
        s.recent.extend(str(x) for x in lines[-RECENT_PRIVATE:])
    s.stored = dict(rec)
    return s


class Sessions:
    """The hand sessions this process knows, per (table, player): opened here, or taken up
    from the table's records (``adopt``); kept with the table when that matters (``keep``)."""

    def __init__(self, service: Service, hand_ttl: float = HAND_TTL) -> None:
        self.service = service
        self.hand_ttl = hand_ttl
        self.by_player: dict[tuple[str, str], HandSession] = {}
        self._swept = time.monotonic()

    def get(self, key: str, player: str) -> HandSession | None:
        return self.by_player.get((key, player))

    def at(self, key: str) -> list[HandSession]:
        """The sessions at the table ``key``."""
        return [s for (k, _), s in self.by_player.items() if k == key]

    def of(self, player: str) -> list[HandSession]:
        """``player``'s sessions, at every table."""
        return [s for (_, p), s in self.by_player.items() if p == player]

    def live(self, s: HandSession) -> bool:
        """Whether ``s`` is the session this process draws for its player and table."""
        return self.by_player.get((s.key, s.player)) is s

    def alive(self, s: HandSession) -> bool:
        return time.time() - s.since < self.hand_ttl

    def drop(self, s: HandSession) -> None:
        if self.live(s):
            del self.by_player[(s.key, s.player)]
        if s.expiry is not None:
            s.expiry.cancel()

    def clear(self) -> None:
        for s in self.by_player.values():
            if s.expiry is not None:
                s.expiry.cancel()
        self.by_player.clear()

    def adopt(self, info: TableInfo) -> None:
        """Take up the hand messages kept with the table (``hand_record``) that are newer
        than what this process knows: opened or pressed through another process, or
        before this one started. A session this process holds a newer token of stays."""
        self._sweep()
        for name, rec in info.meta.items():
            if not name.startswith(HAND_META):
                continue
            player = name[len(HAND_META) :]
            kept = session_of(info.key, player, rec)
            if kept is None or not self.alive(kept):
                continue
            s = self.by_player.get((info.key, player))
            if s is None:
                self.by_player[(info.key, player)] = kept
            elif kept.since > s.since:  # (else this process's token is the newest)
                _take_up(s, kept)

    def _sweep(self) -> None:
        """Now and then, forget the sessions whose token has run out (those taken up from
        a table have no timer of their own): dead credentials, and memory."""
        now = time.monotonic()
        if now - self._swept < SWEEP_SECONDS:
            return
        self._swept = now
        dead = time.time() - TOKEN_SECONDS
        for s in [s for s in self.by_player.values() if s.since < dead]:
            self.drop(s)

    async def keep(self, s: HandSession) -> None:
        """Keep the session with the table (``hand_record``) when what another process
        needs to draw it changed: another message, page, card being picked or language,
        or a token over ``KEEP_SECONDS`` older than this process's (the kept one must stay
        good for long). A process alone on its database writes it for a new message only
        (each write waits for the table's lock: one per "Show hand", not per press)."""
        if s.message is None or s.final:
            return
        rec = hand_record(s)
        old = s.stored
        if old is not None and not self.service.shared:
            # one process: the record is for its restart only, a new hand message is what
            # it must know (a token grown old, or a page, costs a "Show hand" at worst)
            if old.get("m") == rec["m"]:
                return
        elif old is not None and all(old.get(k) == rec[k] for k in ("a", "m", "l", "p", "k")):
            since = old.get("s")
            if isinstance(since, int | float) and rec["s"] - since < KEEP_SECONDS:
                return
        s.stored = rec
        await self.service.set_meta(s.key, **{HAND_META + s.player: rec})


def _take_up(s: HandSession, kept: HandSession) -> None:
    """``s`` is drawn through ``kept``'s newer token (read from the table) from now on."""
    if kept.message != s.message:
        s.pictured, s.shown, s.recent = None, None, kept.recent
    s.token, s.app, s.since, s.lang = kept.token, kept.app, kept.since, kept.lang
    s.message, s.page, s.picking = kept.message, kept.page, kept.picking
    s.interaction, s.stored, s.drawn_in = None, kept.stored, kept.drawn_in
    s.forced, s.drawn_sig = True, None  # drawn elsewhere: what, this one cannot tell
    if s.expiry is not None:  # retired by the process that has the token's press
        s.expiry.cancel()
        s.expiry = None
