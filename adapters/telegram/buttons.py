"""The inline buttons: a press -> an intent (``bot.intents``) -> a table-service call, always
answered (refusals as an alert on the button).

One ``CallbackQueryHandler`` per kind of intent, registered with a pattern that matches the
presses of that kind (:meth:`Buttons.install`): the ``callback_data`` is read once
(:func:`read`: the intent codec, or ``legacy`` for the buttons posted before it, so an old
button does what it did), then the handler of its intent runs. Anything else (forged, over
64 bytes, naming another chat's table) is answered "This button is not valid."; a form
too old to read "This button is outdated".
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from telegram import CallbackQuery, Update
from telegram.constants import ChatType
from telegram.error import Forbidden
from telegram.ext import Application, CallbackQueryHandler

from adapters.telegram import legacy, views
from adapters.telegram.codec import Link, chat_of, key_of_tid, tid_of
from adapters.telegram.common import INTERACTIVE, Origin
from adapters.telegram.front import (
    INVALID,
    NOT_SAVED,
    OPEN_PRIVATE,
    Base,
    Context,
    Front,
    Handler,
    Pressed,
    Run,
    display_name,
)
from adapters.telegram.menus import Menus, on_its_menu
from bot import intents, policy
from bot.i18n import N_, translator
from bot.intents import (
    TELEGRAM_LIMIT,
    Act,
    AddBot,
    Autopilot,
    CardLook,
    CloseSettings,
    Join,
    Kick,
    Language,
    Leave,
    OpenFlag,
    OpenHand,
    OpenSettings,
    Press,
    Refresh,
    Refusal,
    SetFlag,
    SetPreset,
    Start,
    VoteEnd,
)

__all__ = ["ROUTES", "Buttons", "read"]

log = logging.getLogger(__name__)

OUTDATED = N_("This button is outdated: use the buttons of the newest message.")

Read = Press | legacy.OldChoice | Refusal


# each kind of intent a button carries, and its handler (``menus.``: the menus')
ROUTES: tuple[tuple[tuple[type, ...], str], ...] = (
    ((Act,), "act"),
    ((Join,), "join"),
    ((Leave,), "leave"),
    ((AddBot,), "add_bot"),
    ((Start,), "start"),
    ((OpenHand, Refresh), "hand"),
    ((Kick,), "kick"),
    ((Autopilot,), "autopilot"),
    ((VoteEnd,), "vote"),
    ((OpenSettings,), "menus.open_settings"),
    ((OpenFlag,), "menus.open_flag"),
    ((SetFlag,), "menus.set_flag"),
    ((SetPreset,), "menus.set_preset"),
    ((CloseSettings,), "menus.close_settings"),
    ((Language,), "menus.language"),
    ((CardLook,), "menus.card_look"),
)


@lru_cache(maxsize=512)
def read(data: str | None) -> Read:
    """What a button's ``callback_data`` means: read once per press (every handler's
    pattern asks), by the intent codec, or as an old button (``legacy``)."""
    if not data:
        return intents.FORGED
    old = legacy.read(data)
    if old is not None:
        return old
    return intents.decode(data, limit=TELEGRAM_LIMIT)


def _kind(data: object) -> type | None:
    found = read(data) if isinstance(data, str) else None
    if isinstance(found, Press):
        return type(found.raw)
    if isinstance(found, legacy.OldChoice):
        return SetFlag  # an old value button sets its flag
    return None


def _pattern(*kinds: type) -> Callable[[object], bool]:
    """A handler's pattern: the presses of these kinds of intent."""
    return lambda data: _kind(data) in kinds


class Buttons(Base):
    """The handlers of the inline buttons, one per kind of intent."""

    def __init__(self, front: Front, menus: Menus) -> None:
        super().__init__(front)
        self.menus = menus

    def routes(self) -> list[tuple[tuple[type, ...], Run]]:
        """Each kind of intent a button carries, and its handler (:data:`ROUTES`)."""
        owners = {"": self, "menus": self.menus}
        out = []
        for kinds, name in ROUTES:
            owner, _, method = name.rpartition(".")
            out.append((kinds, getattr(owners[owner], method)))
        return out

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """One handler per kind of intent, by pattern; then one for whatever is left."""
        for kinds, run in self.routes():
            app.add_handler(CallbackQueryHandler(self._pressed(run), pattern=_pattern(*kinds)))
        app.add_handler(CallbackQueryHandler(self._pressed(None)))

    def _pressed(self, run: Run | None) -> Handler:
        """``run`` for a press: the query always answered, what it raised said on it."""

        async def handle(update: Update, context: Context) -> None:
            q = update.callback_query
            if q is None:
                return
            INTERACTIVE.set(True)
            self.chats.seen_user(q.from_user)
            if q.message is not None and q.message.chat.title:
                self.chats.titles[q.message.chat.id] = q.message.chat.title
            origin = await self._origin(q.from_user.id, q)
            tr = translator(origin.lang)
            try:
                pressed = self._where(q, origin)
                if run is None or pressed is None:
                    outdated = read(q.data) == intents.OUTDATED
                    origin.alerts.append(tr.gettext(OUTDATED if outdated else INVALID))
                elif not on_its_menu(pressed):  # slipped onto the table, or a hand
                    origin.alerts.append(tr.gettext(INVALID))
                else:
                    await run(pressed)
            except Forbidden as err:  # a private message the press asked for: refused
                self.chats.cannot_message(q.from_user.id, err)
                origin.alerts.append(tr.gettext(OPEN_PRIVATE))
            except Exception:  # logged by kind only: the data of a hand's button names a card
                kind = _kind(q.data)
                log.exception("a button (%s) failed", kind.__name__ if kind else "?")
                origin.alerts.append(tr.gettext(NOT_SAVED))  # nothing was changed
            finally:
                await self.messages.answer(q, origin)

        return handle

    def _where(self, q: CallbackQuery, origin: Origin) -> Pressed | None:
        """The press, at its table (a group's buttons act on that group's tables only)."""
        found = read(q.data)
        if isinstance(found, Refusal):
            return None
        key = key_of_tid(found.token)
        if key is None or not _same_chat(q, key):
            return None
        return Pressed(self.a.current_key(key), found, q, origin)

    async def _intent(self, p: Pressed) -> Any:
        """The intent with the players it names found at the table (``None``: forged)."""
        assert isinstance(p.read, Press)
        if not p.read.needs_seats:
            return p.read.raw
        info = await self.svc.table(p.key)
        seats = [s.id for s in info.seats] if info is not None else []
        intent = p.read.resolve(seats)
        return None if isinstance(intent, Refusal) else intent

    # -- one handler per intent --------------------------------------------------------------

    async def act(self, p: Pressed) -> None:
        info = await self.svc.table(p.key)
        if not policy.is_open(info):
            p.refuse("no_table")
            return
        intent = await self._intent(p)
        if not isinstance(intent, Act):
            p.alert(translator(p.origin.lang).gettext(INVALID))
            return
        await self.svc.act(
            p.key, p.pid, intent.action, seen_version=intent.version, origin=p.origin
        )

    async def join(self, p: Pressed) -> None:
        await self.svc.join(p.key, p.pid, display_name(p.q.from_user), origin=p.origin)

    async def leave(self, p: Pressed) -> None:
        await self.svc.leave(p.key, p.pid, origin=p.origin)

    async def add_bot(self, p: Pressed) -> None:
        admin = await self._admin(p.key, p.uid)
        await self.svc.add_bot(p.key, p.pid, admin=admin, origin=p.origin)

    async def start(self, p: Pressed) -> None:
        admin = await self._admin(p.key, p.uid)
        await self.svc.start_game(p.key, p.pid, admin=admin, origin=p.origin)

    async def autopilot(self, p: Pressed) -> None:
        """A private hand's "Play for me", or "Take my seat back"."""
        intent = await self._intent(p)
        if not isinstance(intent, Autopilot):
            p.alert(translator(p.origin.lang).gettext(INVALID))
            return
        await self.svc.autopilot(p.key, p.pid, intent.on, origin=p.origin)

    async def vote(self, p: Pressed) -> None:
        """The table's vote to end the game."""
        intent = await self._intent(p)
        if not isinstance(intent, VoteEnd):
            p.alert(translator(p.origin.lang).gettext(INVALID))
            return
        await self.svc.vote_end(p.key, p.pid, intent.vote, origin=p.origin)

    async def kick(self, p: Pressed) -> None:
        """A player chosen in the ``/kick`` menu: removed, and the menu closed."""
        intent = await self._intent(p)
        if not isinstance(intent, Kick):
            p.alert(translator(p.origin.lang).gettext(INVALID))
            return
        admin = await self._admin(p.key, p.uid)
        res = await self.svc.kick(p.key, p.pid, intent.target, admin=admin, origin=p.origin)
        if res.ok:  # the menu has done its work: its buttons go
            self.messages.edit(p.q, getattr(p.q.message, "text", None) or "✓", None)

    async def hand(self, p: Pressed) -> None:
        """The private hand: sent, or (its own refresh button) drawn again."""
        key, uid = p.key, p.uid
        if await self.svc.hand(key, p.pid) is None:  # forged, or left the game
            info = await self.svc.table(key)
            p.refuse("not_a_player" if policy.is_open(info) else "no_table")
            return
        if p.q.message is not None and p.q.message.chat.id == uid:
            self.hands.remember_dm(key, uid, p.q.message.message_id)
        try:
            await self.hands.send_hand(key, uid)
        except Forbidden as err:  # blocked the bot, or never opened the private chat
            self.chats.cannot_message(uid, err)
            p.origin.url = views.deep_link(self.a.username, Link.HAND + tid_of(key))


def _same_chat(q: CallbackQuery, key: str) -> bool:
    """A group's buttons act on that group's tables only; private buttons on any."""
    msg = q.message
    if msg is None:
        return False
    if msg.chat.type == ChatType.PRIVATE:
        return True
    return msg.chat.id == chat_of(key)[0]
