"""The inline buttons: a press (``callback_data``, see ``codec``) -> a table-service call,
always answered (refusals as an alert on the button)."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update
from telegram.constants import ChatType
from telegram.error import Forbidden

from adapters.telegram import views
from adapters.telegram.codec import (
    Data,
    Link,
    Op,
    chat_of,
    decode_action,
    player_id,
    tid_of,
    unpack,
    version_of,
)
from adapters.telegram.common import INTERACTIVE, Origin, notice_text
from adapters.telegram.front import (
    INVALID,
    NOT_SAVED,
    OPEN_PRIVATE,
    Base,
    Context,
    Front,
    display_name,
)
from adapters.telegram.menus import Menus
from bot.i18n import translator
from bot.model import OPEN_STATUSES as OPEN
from bot.port import Notice

__all__ = ["Buttons"]

log = logging.getLogger(__name__)

_SETTINGS_MENU = frozenset(
    {Op.SETTINGS_MAIN, Op.SETTINGS_FLAG, Op.SETTINGS_VALUE, Op.SETTINGS_PRESET, Op.SETTINGS_DONE}
)


class Buttons(Base):
    """The handler of every inline button."""

    def __init__(self, front: Front, menus: Menus) -> None:
        super().__init__(front)
        self.menus = menus

    async def button(self, update: Update, context: Context) -> None:
        """Any inline button: always answered, refusals as an alert."""
        q = update.callback_query
        if q is None:
            return
        INTERACTIVE.set(True)
        self.chats.seen_user(q.from_user)
        if q.message is not None and q.message.chat.title:
            self.chats.titles[q.message.chat.id] = q.message.chat.title
        origin = await self._origin(q.from_user.id, q)
        data = None
        try:
            data = unpack(q.data)
            if data is None or not _same_chat(q, data.key):
                origin.alerts.append(translator(origin.lang).gettext(INVALID))
            else:
                data = Data(data.op, self.a.current_key(data.key), data.args)
                await self._press(data, q, origin)
        except Forbidden as err:  # a private message the press asked for: refused
            self.chats.cannot_message(q.from_user.id, err)
            origin.alerts.append(translator(origin.lang).gettext(OPEN_PRIVATE))
        except Exception:  # the operation only: the data of a hand's button names a card
            log.exception("button %s failed", data.op if data is not None else "?")
            # nothing was changed (see ``_answered``): say so on the button
            origin.alerts.append(translator(origin.lang).gettext(NOT_SAVED))
        finally:
            await self.messages.answer(q, origin)

    async def _press(self, data: Data, q: CallbackQuery, origin: Origin) -> None:
        key, op, args = data.key, data.op, data.args
        uid = q.from_user.id
        pid = player_id(uid)
        chat = chat_of(key)[0]
        tr = translator(origin.lang)
        if op == Op.ACT and len(args) == 2:
            info = await self.svc.table(key)
            if info is None or info.status not in OPEN:
                origin.alerts.append(notice_text(Notice("no_table"), tr))
                return
            action = decode_action(args[1], [s.id for s in info.seats])
            version = version_of(args[0])
            if action is None or version is None:
                origin.alerts.append(tr.gettext(INVALID))
                return
            await self.svc.act(key, pid, action, seen_version=version, origin=origin)
        elif op == Op.JOIN and not args:
            await self.svc.join(key, pid, display_name(q.from_user), origin=origin)
        elif op == Op.LEAVE and not args:
            await self.svc.leave(key, pid, origin=origin)
        elif op == Op.ADD_BOT and not args:
            admin = await self._admin_unless_host(key, chat, uid)
            await self.svc.add_bot(key, pid, admin=admin, origin=origin)
        elif op == Op.START and not args:
            admin = await self._admin_unless_host(key, chat, uid)
            await self.svc.start_game(key, pid, admin=admin, origin=origin)
        elif op == Op.SETTINGS and not args:
            await self.menus.open_settings(key, uid, origin)
        elif op == Op.HAND and not args:
            if await self.svc.hand(key, pid) is None:  # forged, or left the game
                info = await self.svc.table(key)
                code = "not_a_player" if info is not None and info.status in OPEN else "no_table"
                origin.alerts.append(notice_text(Notice(code), tr))
                return
            if q.message is not None and q.message.chat.id == uid:
                self.hands.remember_dm(key, uid, q.message.message_id)
            try:
                await self.hands.send_hand(key, uid)
            except Forbidden as err:  # blocked the bot, or never opened the private chat
                self.chats.cannot_message(uid, err)
                origin.url = views.deep_link(self.a.username, Link.HAND + tid_of(key))
        elif op in _SETTINGS_MENU:
            await self.menus.settings_press(key, op, args, q, origin)
        elif op == Op.LANGUAGE and len(args) == 2:
            await self.menus.language_press(key, args[0], args[1], q, origin)
        else:
            origin.alerts.append(tr.gettext(INVALID))


def _same_chat(q: CallbackQuery, key: str) -> bool:
    """A group's buttons act on that group's tables only; private buttons on any."""
    msg = q.message
    if msg is None:
        return False
    if msg.chat.type == ChatType.PRIVATE:
        return True
    return msg.chat.id == chat_of(key)[0]
