"""The menus in the private chat: a table's settings (for its host or a group admin) and
the languages (the chat's, for an admin; a user's own)."""

from __future__ import annotations

from telegram import CallbackQuery
from telegram.error import Forbidden

from adapters.telegram import views
from adapters.telegram.codec import Link, Op, chat_of, player_id, scope_of, tid_of
from adapters.telegram.common import Origin, notice_text
from adapters.telegram.front import INVALID, Base
from bot import render
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, Translator, translator
from bot.model import OPEN_STATUSES as OPEN
from bot.port import Notice
from engine import Rules

__all__ = ["Menus", "lang_done"]


class Menus(Base):
    """The settings and language menus."""

    async def send_settings(self, key: str, uid: int, chat: int) -> None:
        info = await self.svc.table(key)
        tr = await self.chats.user_tr(uid)
        if info is None or info.status not in OPEN:
            text = notice_text(Notice("no_table"), tr)
            await self.a.bot.send_message(chat, text)
            return
        if info.host != player_id(uid) and not await self.chats.is_admin(chat_of(key)[0], uid):
            text = notice_text(Notice("not_host"), tr)
            await self.a.bot.send_message(chat, text)
            return
        text, markup = views.settings_main(info, tr)
        await self.a.bot.send_message(chat, text, reply_markup=markup)

    async def set_chat_lang(self, key: str, chat: int, lang: str) -> None:
        self.chats.set_chat_lang(chat, lang)
        await self.svc.set_chat_language(key, scope_of(chat), lang)

    async def set_user_lang(self, uid: int, lang: str | None) -> None:
        self.chats.set_user_lang(uid, lang)
        await self.svc.set_user_language(player_id(uid), lang)

    async def open_settings(self, key: str, uid: int, origin: Origin) -> None:
        info = await self.svc.table(key)
        tr = translator(origin.lang)
        if info is None or info.status not in OPEN:
            origin.alerts.append(notice_text(Notice("no_table"), tr))
            return
        if info.host != player_id(uid) and not await self.chats.is_admin(chat_of(key)[0], uid):
            origin.alerts.append(notice_text(Notice("not_host"), tr))
            return
        try:
            await self.send_settings(key, uid, uid)
        except Forbidden:
            origin.url = views.deep_link(self.a.username, Link.SETTINGS + tid_of(key))

    async def settings_press(
        self, key: str, op: str, args: tuple[str, ...], q: CallbackQuery, origin: Origin
    ) -> None:
        uid = q.from_user.id
        pid = player_id(uid)
        tr = translator(origin.lang)
        info = await self.svc.table(key)
        if info is None or info.status not in OPEN:
            origin.alerts.append(notice_text(Notice("no_table"), tr))
            return
        admin = await self._admin_unless_host(key, chat_of(key)[0], uid)
        if info.host != pid and not admin:
            origin.alerts.append(notice_text(Notice("not_host"), tr))
            return
        nums = [int(a) for a in args if a.isdigit()]
        if op == Op.SETTINGS_MAIN:
            text, markup = views.settings_main(info, tr)
        elif op == Op.SETTINGS_FLAG and len(nums) == 1 and nums[0] < len(views.FLAGS):
            text, markup = views.settings_flag(info, nums[0], tr)
        elif op == Op.SETTINGS_VALUE and len(nums) == 2 and nums[0] < len(views.FLAGS):
            flag = views.FLAGS[nums[0]]
            choices = views.flag_choices(flag, getattr(info.rules, flag))
            if nums[1] >= len(choices):
                origin.alerts.append(tr.gettext(INVALID))
                return
            res = await self.svc.configure(
                key, pid, overrides={flag: choices[nums[1]]}, admin=admin, origin=origin
            )
            if not res.ok or res.table is None:
                return
            text, markup = views.settings_flag(res.table, nums[0], tr)
        elif op == Op.SETTINGS_PRESET and len(args) == 1 and args[0] in Rules.PRESET_NAMES:
            res = await self.svc.configure(key, pid, preset=args[0], admin=admin, origin=origin)
            if not res.ok or res.table is None:
                return
            text, markup = views.settings_main(res.table, tr)
        elif op == Op.SETTINGS_DONE:
            text, markup = render.rules_summary(info.rules, tr, info.preset), None
        else:
            origin.alerts.append(tr.gettext(INVALID))
            return
        self.messages.edit(q, text, markup)

    async def language_press(
        self, key: str, kind: str, code: str, q: CallbackQuery, origin: Origin
    ) -> None:
        uid = q.from_user.id
        chat = chat_of(key)[0]
        tr = translator(origin.lang)
        lang = None if code == "-" else code
        if lang is not None and lang not in LANGUAGES:
            origin.alerts.append(tr.gettext(INVALID))
            return
        if kind == "u" and chat == uid:
            await self.set_user_lang(uid, lang)
            self.messages.edit(q, lang_done(await self.chats.user_tr(uid)), None)
        elif kind == "c" and lang is not None:
            if not await self.chats.is_admin(chat, uid):
                origin.alerts.append(notice_text(Notice("not_host"), tr))
                return
            await self.set_chat_lang(key, chat, lang)
            self.messages.edit(q, lang_done(translator(lang)), None)
        else:
            origin.alerts.append(tr.gettext(INVALID))


def lang_done(tr: Translator) -> str:
    return tr.gettext("Language: {language}", language=_lang_name(tr.lang))


def _lang_name(lang: str) -> str:
    return LANGUAGE_NAMES.get(lang, lang)
