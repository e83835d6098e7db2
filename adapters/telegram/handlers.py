"""Telegram updates -> table-service calls: commands, button presses, inline mode.

Handlers only translate: who (``tg:<user>``), where (``tg:<chat>[:<topic>]``), what (an
engine action or a service call) and the table version the button or result was made
for. The service decides; what it says comes back through the port (``Adapter``), and a
refusal goes to the user alone: an alert on the button they pressed, else a private
message (else, the private chat being closed, a short-lived reply to the command in the
group: see :meth:`Adapter.refuse`).

Nothing here logs an update's content: a private hand's button carries the whole hand
message, so failures are logged by update id and kind only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultsButton,
    Message,
    MessageEntity,
    Update,
    User,
)
from telegram.constants import ChatType
from telegram.error import Forbidden
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    filters,
)

from adapters.telegram import pictures, views
from adapters.telegram.adapter import INTERACTIVE, Origin, Posted, answer_quietly, notice_text
from adapters.telegram.codec import (
    Data,
    chat_of,
    decode_action,
    key_of,
    key_of_tid,
    player_id,
    scope_of,
    tid_of,
    unpack,
    version_of,
)
from bot import ai, render
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, N_, Translator, translator
from bot.model import OPEN_STATUSES as OPEN
from bot.port import Notice
from bot.service import GLOBAL, Service
from engine import Card, Play, Rules

if TYPE_CHECKING:
    from adapters.telegram.adapter import Adapter

__all__ = ["Handlers", "display_name"]

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE

INVALID = N_("This button is not valid.")
# what went wrong is ours (the database full or locked, a bug): nothing was changed
NOT_SAVED = N_("Could not save that — please try again.")
FAILED = N_("Something went wrong — please try again.")
OPEN_PRIVATE = N_("Open a private chat with me to see this.")
NO_TABLES = N_("You are not playing at any table.")


@dataclass(frozen=True, slots=True)
class _Here:
    """Where a command was sent and by whom."""

    chat: int
    thread: int | None
    key: str
    scope: str
    uid: int
    pid: str
    name: str
    private: bool
    message: Message


def display_name(user: User) -> str:
    """First (and last) name, else the username, else the id; kept short."""
    name = (user.full_name or user.username or str(user.id)).strip()
    return name[:40] or str(user.id)


class Handlers:
    """The update handlers of one :class:`Adapter`."""

    def __init__(self, adapter: Adapter) -> None:
        self.a = adapter

    @property
    def svc(self) -> Service:
        return self.a.service

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """Register every handler on ``app``."""
        commands = {
            "new": self.new,
            "join": self.join,
            "start": self.start,
            "leave": self.leave,
            "kick": self.kick,
            "stop": self.stop,
            "hand": self.hand,
            "rules": self.rules,
            "settings": self.settings,
            "stats": self.stats,
            "leaderboard": self.leaderboard,
            "language": self.language,
            "addbot": self.addbot,
            "help": self.help,
        }
        new_messages = filters.UpdateType.MESSAGE
        for name, callback in commands.items():
            failed = FAILED if name in _READ_ONLY else NOT_SAVED
            guarded = self._answered(callback, failed)
            app.add_handler(CommandHandler(name, guarded, filters=new_messages))
        app.add_handler(CallbackQueryHandler(self.button))
        app.add_handler(InlineQueryHandler(self._answered(self.inline, FAILED)))
        app.add_handler(ChosenInlineResultHandler(self._answered(self.chosen, NOT_SAVED)))
        posted = new_messages & filters.VIA_BOT & filters.ChatType.GROUPS
        app.add_handler(MessageHandler(posted, self.posted))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.migrated))
        app.add_error_handler(self.error)

    # -- helpers ------------------------------------------------------------------------------

    def _answered(self, callback: Handler, failed: str) -> Handler:
        """``callback``, answered when it fails: a typed command or an inline choice is
        told ``failed`` (:meth:`Adapter.refuse`: privately, else in the group), an inline
        query gets it as its button. The failure is logged by update id and kind only.

        A service call that raises changed nothing (the change is committed before
        anything is shown): the store could not write it, and the user may try again."""

        async def run(update: Update, context: Context) -> None:
            try:
                await callback(update, context)
            except Exception:
                log.exception("update %s (%s) failed", update.update_id, _kind(update))
                try:
                    await self._say_failed(update, failed)
                except Exception:  # the answer is a courtesy: never a second traceback
                    log.warning("update %s: the failure could not be told", update.update_id)

        return run

    async def _say_failed(self, update: Update, failed: str) -> None:
        user = update.effective_user
        if user is None or user.is_bot:
            return
        iq = update.inline_query
        if iq is not None:
            text = (await self.a.user_tr(user.id)).gettext(failed)
            button = InlineQueryResultsButton(text[:64], start_parameter="help")
            await answer_quietly("answerInlineQuery", lambda: iq.answer([], button=button))
            return
        chosen = update.chosen_inline_result
        if chosen is not None:
            key = key_of_tid(chosen.result_id.split("|")[0])
            origin = await self._origin(user.id, chosen=self.a.current_key(key) if key else None)
        else:
            here = self._here(update)
            if here is None:
                return
            origin = await self._origin(here.uid, here=here)
        await self._tell_text(user.id, failed, origin)

    def _here(self, update: Update) -> _Here | None:
        msg = update.effective_message
        user = update.effective_user
        if msg is None or user is None or user.is_bot:
            return None
        INTERACTIVE.set(True)
        chat = msg.chat
        self.a.seen_user(user)
        if chat.type == ChatType.PRIVATE:
            self.a.reachable(user.id)  # they write to the bot: it may write back
        if chat.title:
            self.a.titles[chat.id] = chat.title
        thread = msg.message_thread_id if msg.is_topic_message else None
        return _Here(
            chat=chat.id,
            thread=thread,
            key=key_of(chat.id, thread),
            scope=scope_of(chat.id),
            uid=user.id,
            pid=player_id(user.id),
            name=display_name(user),
            private=chat.type == ChatType.PRIVATE,
            message=msg,
        )

    async def _origin(
        self,
        uid: int,
        query: CallbackQuery | None = None,
        *,
        here: _Here | None = None,
        chosen: str | None = None,
    ) -> Origin:
        """``here``: a typed command, ``chosen``: the table of a chosen inline result (what
        a refusal answers in the group when the private chat is closed)."""
        try:
            lang = await self.a.user_lang(uid)
        except Exception:  # the store being slow or down must not leave a button hanging
            log.exception("user_lang(%s) failed", uid)
            lang = "en"
        posted = None
        if here is not None and not here.private:
            posted = Posted(here.chat, here.thread, here.message.message_id)
        return Origin(uid, lang, query=query, posted=posted, chosen=chosen)

    async def _admin_unless_host(self, key: str, chat: int, uid: int) -> bool:
        """Whether to pass ``admin=True``: only asked of Telegram when not the host."""
        info = await self.svc.table(key)
        if info is not None and info.host == player_id(uid):
            return False
        return await self.a.is_admin(chat, uid)

    async def _refuse(self, here: _Here, code: str, **params: Any) -> None:
        origin = await self._origin(here.uid, here=here)
        self.a.dm_notice(here.uid, Notice(code, params), here.key, origin)

    async def _tell_text(
        self, uid: int, message: str, origin: Origin | None = None, **params: Any
    ) -> None:
        """A translated hint or refusal of the handlers' own (see :meth:`Adapter.refuse`)."""
        self.a.refuse(uid, lambda tr: tr.gettext(message, **params), origin)

    # -- commands -----------------------------------------------------------------------------

    async def new(self, update: Update, context: Context) -> None:
        """/new [preset]: open a table here."""
        here = self._here(update)
        if here is None:
            return
        args = context.args or []
        preset = args[0].lower() if args and args[0].lower() in Rules.PRESET_NAMES else None
        lang = await self.a.chat_lang(here.chat)
        await self.svc.create(
            here.key,
            here.scope,
            here.pid,
            here.name,
            lang=lang,
            preset=preset,
            origin=await self._origin(here.uid, here=here),
        )

    async def join(self, update: Update, context: Context) -> None:
        """/join: sit down at the table."""
        here = self._here(update)
        if here is not None:
            origin = await self._origin(here.uid, here=here)
            await self.svc.join(here.key, here.pid, here.name, origin=origin)

    async def start(self, update: Update, context: Context) -> None:
        """/start: deal (in a group); a deep link's payload (in the private chat)."""
        here = self._here(update)
        if here is None:
            return
        if here.private:
            await self._deep_link(here, (context.args or [""])[0])
            return
        admin = await self._admin_unless_host(here.key, here.chat, here.uid)
        origin = await self._origin(here.uid, here=here)
        await self.svc.start_game(here.key, here.pid, admin=admin, origin=origin)

    async def _deep_link(self, here: _Here, payload: str) -> None:
        kind, tid = payload[:1], payload[1:]
        key = key_of_tid(tid) if kind in ("h", "s") else None
        if key is not None:
            key = self.a.current_key(key)
        if key is not None and kind == "h":
            await self.a.send_hand(key, here.uid, new=True)
            return
        if key is not None and kind == "s":
            await self._send_settings(key, here.uid, here.uid)
            return
        tr = await self.a.user_tr(here.uid)
        await self.a.reply_private(here.message, _help(tr, private=True))

    async def leave(self, update: Update, context: Context) -> None:
        """/leave: leave the table."""
        here = self._here(update)
        if here is not None:
            origin = await self._origin(here.uid, here=here)
            await self.svc.leave(here.key, here.pid, origin=origin)

    async def kick(self, update: Update, context: Context) -> None:
        """/kick (in reply to a player, or /kick <seat number or name>): remove a player."""
        here = self._here(update)
        if here is None:
            return
        info = await self.svc.table(here.key)
        if info is None:
            await self._refuse(here, "no_table")
            return
        target = _kick_target(here.message, context.args or [], info.seats, self.a.usernames)
        if target is None:
            await self._tell_text(
                here.uid,
                N_(
                    "Reply to a message of the player with /kick, or give their seat "
                    "number: /kick 2"
                ),
                await self._origin(here.uid, here=here),
            )
            return
        admin = await self._admin_unless_host(here.key, here.chat, here.uid)
        origin = await self._origin(here.uid, here=here)
        await self.svc.kick(here.key, here.pid, target, admin=admin, origin=origin)

    async def stop(self, update: Update, context: Context) -> None:
        """/stop: end the game (host or admin)."""
        here = self._here(update)
        if here is None:
            return
        admin = await self._admin_unless_host(here.key, here.chat, here.uid)
        origin = await self._origin(here.uid, here=here)
        await self.svc.stop_game(here.key, here.pid, admin=admin, origin=origin)

    async def hand(self, update: Update, context: Context) -> None:
        """/hand: your cards, with buttons, in the private chat."""
        here = self._here(update)
        if here is None:
            return
        if here.private:
            keys = await self._tables_of(here.pid)
            if not keys:
                await self.a.reply_private(
                    here.message, (await self.a.user_tr(here.uid)).gettext(NO_TABLES)
                )
            for key in keys[:3]:
                await self.a.send_hand(key, here.uid, new=True)
            return
        if await self.svc.hand(here.key, here.pid) is None:
            await self._refuse(here, "not_a_player")
            return
        try:
            await self.a.send_hand(here.key, here.uid, new=True)
        except Forbidden:
            await self._point_to_private(here, "h" + tid_of(here.key))

    async def _point_to_private(self, here: _Here, payload: str) -> None:
        """The user never opened the private chat: a button in the group that opens it."""
        tr = await self.a.chat_tr(here.chat)
        link = views.deep_link(self.a.username, payload)
        if link is None:
            return
        markup = InlineKeyboardMarkup(
            [[InlineKeyboardButton("🔒 " + tr.gettext(views.MY_CARDS), url=link)]]
        )
        self.a.say(here.chat, here.thread, tr.gettext(OPEN_PRIVATE), markup)

    async def rules(self, update: Update, context: Context) -> None:
        """/rules: this table's rules (or the chat's, with no table open)."""
        here = self._here(update)
        if here is None:
            return
        tr = await self.a.chat_tr(here.chat)
        info = await self.svc.table(here.key)
        if info is not None and info.status in ("lobby", "playing"):
            text = render.rules_summary(info.rules, tr, info.preset)
        else:
            preset, over, _lang = await self.svc.chat_settings(here.scope)
            preset = preset or self.svc.settings.default_preset
            try:
                rules = Rules.preset(preset, **(over or {}))
            except ValueError:
                preset, rules = "official", Rules()
            text = render.rules_summary(rules, tr, preset)
        self.a.say(here.chat, here.thread, text)

    async def settings(self, update: Update, context: Context) -> None:
        """/settings: the rules menu, for the host, in the private chat."""
        here = self._here(update)
        if here is None:
            return
        info = await self.svc.table(here.key)
        if info is None or info.status not in ("lobby", "playing"):
            if here.private:
                await self._tell_text(here.uid, N_("Send /settings in the group of the table."))
            else:
                await self._refuse(here, "no_table")
            return
        if info.host != here.pid and not await self.a.is_admin(here.chat, here.uid):
            await self._refuse(here, "not_host")
            return
        try:
            await self._send_settings(here.key, here.uid, here.uid)
        except Forbidden:
            await self._point_to_private(here, "s" + tid_of(here.key))

    async def _send_settings(self, key: str, uid: int, chat: int) -> None:
        info = await self.svc.table(key)
        tr = await self.a.user_tr(uid)
        if info is None or info.status not in ("lobby", "playing"):
            text = notice_text(Notice("no_table"), tr)
            await self.a.bot.send_message(chat, text)
            return
        if info.host != player_id(uid) and not await self.a.is_admin(chat_of(key)[0], uid):
            text = notice_text(Notice("not_host"), tr)
            await self.a.bot.send_message(chat, text)
            return
        text, markup = views.settings_main(info, tr)
        await self.a.bot.send_message(chat, text, reply_markup=markup)

    async def stats(self, update: Update, context: Context) -> None:
        """/stats: your statistics here and everywhere."""
        here = self._here(update)
        if here is None:
            return
        tr = await (self.a.user_tr(here.uid) if here.private else self.a.chat_tr(here.chat))
        everywhere = render.stats_text(await self.svc.player_stats(GLOBAL, here.pid), tr)
        if here.private:
            text = everywhere
        else:
            local = render.stats_text(await self.svc.player_stats(here.scope, here.pid), tr)
            text = "\n".join(
                [
                    tr.gettext("In this chat:"),
                    local,
                    "",
                    tr.gettext("Everywhere:"),
                    everywhere,
                ]
            )
        self.a.say(here.chat, here.thread, text)

    async def leaderboard(self, update: Update, context: Context) -> None:
        """/leaderboard [all]: the best players of this chat (or everywhere)."""
        here = self._here(update)
        if here is None:
            return
        tr = await (self.a.user_tr(here.uid) if here.private else self.a.chat_tr(here.chat))
        every = here.private or bool(context.args and context.args[0].lower() == "all")
        scope = GLOBAL if every else here.scope
        text = render.leaderboard_text(await self.svc.leaderboard(scope), tr)
        if every:
            text = tr.gettext("Everywhere:") + "\n" + text
        self.a.say(here.chat, here.thread, text)

    async def language(self, update: Update, context: Context) -> None:
        """/language [en|zh_Hans|zh_Hant]: the chat's language (group) or yours (private)."""
        here = self._here(update)
        if here is None:
            return
        args = context.args or []
        chosen = args[0] if args and args[0] in LANGUAGES else None
        if here.private:
            if chosen is not None:
                await self._set_user_lang(here.uid, chosen)
                tr = await self.a.user_tr(here.uid)
                await self.a.reply_private(here.message, _lang_done(tr))
                return
            tr = await self.a.user_tr(here.uid)
            current = await self.svc.user_lang(here.pid)
            text, markup = views.language_menu(tid_of(here.key), "u", current, tr)
            await self.a.reply_private(here.message, text, markup)
            return
        if not await self.a.is_admin(here.chat, here.uid):
            await self._refuse(here, "not_host")
            return
        if chosen is not None:
            await self._set_chat_lang(here.key, here.chat, chosen)
            self.a.say(here.chat, here.thread, _lang_done(translator(chosen)))
            return
        tr = await self.a.chat_tr(here.chat)
        current = await self.svc.chat_lang(here.scope)
        text, markup = views.language_menu(tid_of(here.key), "c", current, tr)
        self.a.say(here.chat, here.thread, text, markup)

    async def _set_chat_lang(self, key: str, chat: int, lang: str) -> None:
        self.a.set_chat_lang(chat, lang)
        await self.svc.set_chat_language(key, scope_of(chat), lang)

    async def _set_user_lang(self, uid: int, lang: str | None) -> None:
        self.a.set_user_lang(uid, lang)
        await self.svc.set_user_language(player_id(uid), lang)

    async def addbot(self, update: Update, context: Context) -> None:
        """/addbot [smart|basic|random]: add a bot seat (host or admin)."""
        here = self._here(update)
        if here is None:
            return
        args = context.args or []
        strategy = args[0].lower() if args and args[0].lower() in ai.STRATEGIES else "smart"
        admin = await self._admin_unless_host(here.key, here.chat, here.uid)
        origin = await self._origin(here.uid, here=here)
        await self.svc.add_bot(here.key, here.pid, strategy, admin=admin, origin=origin)

    async def help(self, update: Update, context: Context) -> None:
        """/help: how to play."""
        here = self._here(update)
        if here is None:
            return
        if here.private:
            tr = await self.a.user_tr(here.uid)
            await self.a.reply_private(here.message, _help(tr, private=True))
            return
        tr = await self.a.chat_tr(here.chat)
        self.a.say(here.chat, here.thread, _help(tr, private=False))

    # -- buttons ------------------------------------------------------------------------------

    async def button(self, update: Update, context: Context) -> None:
        """Any inline button: always answered, refusals as an alert."""
        q = update.callback_query
        if q is None:
            return
        INTERACTIVE.set(True)
        self.a.seen_user(q.from_user)
        if q.message is not None and q.message.chat.title:
            self.a.titles[q.message.chat.id] = q.message.chat.title
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
            self.a.cannot_message(q.from_user.id, err)
            origin.alerts.append(translator(origin.lang).gettext(OPEN_PRIVATE))
        except Exception:  # the operation only: the data of a hand's button names a card
            log.exception("button %s failed", data.op if data is not None else "?")
            # nothing was changed (see ``_answered``): say so on the button
            origin.alerts.append(translator(origin.lang).gettext(NOT_SAVED))
        finally:
            await self.a.answer(q, origin)

    async def _press(self, data: Data, q: CallbackQuery, origin: Origin) -> None:
        key, op, args = data.key, data.op, data.args
        uid = q.from_user.id
        pid = player_id(uid)
        chat = chat_of(key)[0]
        tr = translator(origin.lang)
        if op == "a" and len(args) == 2:
            info = await self.svc.table(key)
            if info is None or info.status not in ("lobby", "playing"):
                origin.alerts.append(notice_text(Notice("no_table"), tr))
                return
            action = decode_action(args[1], [s.id for s in info.seats])
            version = version_of(args[0])
            if action is None or version is None:
                origin.alerts.append(tr.gettext(INVALID))
                return
            await self.svc.act(key, pid, action, seen_version=version, origin=origin)
        elif op == "j" and not args:
            await self.svc.join(key, pid, display_name(q.from_user), origin=origin)
        elif op == "l" and not args:
            await self.svc.leave(key, pid, origin=origin)
        elif op == "b" and not args:
            admin = await self._admin_unless_host(key, chat, uid)
            await self.svc.add_bot(key, pid, admin=admin, origin=origin)
        elif op == "g" and not args:
            admin = await self._admin_unless_host(key, chat, uid)
            await self.svc.start_game(key, pid, admin=admin, origin=origin)
        elif op == "S" and not args:
            await self._open_settings(key, uid, origin)
        elif op == "h" and not args:
            if await self.svc.hand(key, pid) is None:  # forged, or left the game
                info = await self.svc.table(key)
                code = "not_a_player" if info is not None and info.status in OPEN else "no_table"
                origin.alerts.append(notice_text(Notice(code), tr))
                return
            if q.message is not None and q.message.chat.id == uid:
                self.a.remember_dm(key, uid, q.message.message_id)
            try:
                await self.a.send_hand(key, uid)
            except Forbidden as err:  # blocked the bot, or never opened the private chat
                self.a.cannot_message(uid, err)
                origin.url = views.deep_link(self.a.username, "h" + tid_of(key))
        elif op in ("sm", "sf", "sv", "sp", "sx"):
            await self._settings_press(key, op, args, q, origin)
        elif op == "L" and len(args) == 2:
            await self._language_press(key, args[0], args[1], q, origin)
        else:
            origin.alerts.append(tr.gettext(INVALID))

    async def _open_settings(self, key: str, uid: int, origin: Origin) -> None:
        info = await self.svc.table(key)
        tr = translator(origin.lang)
        if info is None or info.status not in ("lobby", "playing"):
            origin.alerts.append(notice_text(Notice("no_table"), tr))
            return
        if info.host != player_id(uid) and not await self.a.is_admin(chat_of(key)[0], uid):
            origin.alerts.append(notice_text(Notice("not_host"), tr))
            return
        try:
            await self._send_settings(key, uid, uid)
        except Forbidden:
            origin.url = views.deep_link(self.a.username, "s" + tid_of(key))

    async def _settings_press(
        self, key: str, op: str, args: tuple[str, ...], q: CallbackQuery, origin: Origin
    ) -> None:
        uid = q.from_user.id
        pid = player_id(uid)
        tr = translator(origin.lang)
        info = await self.svc.table(key)
        if info is None or info.status not in ("lobby", "playing"):
            origin.alerts.append(notice_text(Notice("no_table"), tr))
            return
        admin = await self._admin_unless_host(key, chat_of(key)[0], uid)
        if info.host != pid and not admin:
            origin.alerts.append(notice_text(Notice("not_host"), tr))
            return
        nums = [int(a) for a in args if a.isdigit()]
        if op == "sm":
            text, markup = views.settings_main(info, tr)
        elif op == "sf" and len(nums) == 1 and nums[0] < len(views.FLAGS):
            text, markup = views.settings_flag(info, nums[0], tr)
        elif op == "sv" and len(nums) == 2 and nums[0] < len(views.FLAGS):
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
        elif op == "sp" and len(args) == 1 and args[0] in Rules.PRESET_NAMES:
            res = await self.svc.configure(key, pid, preset=args[0], admin=admin, origin=origin)
            if not res.ok or res.table is None:
                return
            text, markup = views.settings_main(res.table, tr)
        elif op == "sx":
            text, markup = render.rules_summary(info.rules, tr, info.preset), None
        else:
            origin.alerts.append(tr.gettext(INVALID))
            return
        self.a.edit(q, text, markup)

    async def _language_press(
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
            await self._set_user_lang(uid, lang)
            self.a.edit(q, _lang_done(await self.a.user_tr(uid)), None)
        elif kind == "c" and lang is not None:
            if not await self.a.is_admin(chat, uid):
                origin.alerts.append(notice_text(Notice("not_host"), tr))
                return
            await self._set_chat_lang(key, chat, lang)
            self.a.edit(q, _lang_done(translator(lang)), None)
        else:
            origin.alerts.append(tr.gettext(INVALID))

    # -- inline mode --------------------------------------------------------------------------

    async def _tables_of(self, pid: str) -> list[str]:
        """Open Telegram tables where ``pid`` has a seat."""
        return [t.key for t in self.svc.tables_of(pid) if t.key.startswith("tg:")]

    async def _table_for(self, query: str, pid: str) -> str | None:
        """The table an inline query names (inline queries carry no chat), else the one
        the player sits at."""
        words = query.split()
        if words:
            key = key_of_tid(words[0])
            if key is not None:
                return self.a.current_key(key)
        mine = await self._tables_of(pid)
        return mine[0] if mine else None

    async def inline(self, update: Update, context: Context) -> None:
        """An inline query: the player's hand as personal results."""
        iq = update.inline_query
        if iq is None:
            return
        uid = iq.from_user.id
        self.a.seen_user(iq.from_user)
        pid = player_id(uid)
        tr = await self.a.user_tr(uid)
        key = await self._table_for(iq.query, pid)
        info = await self.svc.table(key) if key is not None else None
        results: list[Any] = []
        button: InlineQueryResultsButton | None
        if key is None or info is None or info.status != "playing":
            button = InlineQueryResultsButton(tr.gettext(NO_TABLES), start_parameter="help")
        else:
            view = await self.svc.hand(key, pid)
            legal = await self.svc.legal(key, pid)
            found: Sequence[Any]
            if self.a.stickers is not None:  # the card set is made: cards as stickers
                found, button = pictures.inline_answer(info, view, legal, tr, self.a.stickers)
            else:
                found, button = views.inline_answer(info, view, legal, tr, self.a.username)
            results.extend(found)
        await answer_quietly(
            "answerInlineQuery",
            lambda: iq.answer(results, cache_time=0, is_personal=True, button=button),
        )

    async def chosen(self, update: Update, context: Context) -> None:
        """A chosen inline result: play it (a stale one is refused privately, else as a
        reply to the message the choice posted)."""
        r = update.chosen_inline_result
        if r is None:
            return
        INTERACTIVE.set(True)
        uid = r.from_user.id
        self.a.seen_user(r.from_user)
        parts = r.result_id.split("|")
        key = key_of_tid(parts[0]) if len(parts) == 3 else None
        if key is not None:
            key = self.a.current_key(key)
        version = version_of(parts[1]) if len(parts) == 3 else None
        origin = await self._origin(uid, chosen=key)
        if key is None or version is None:
            await self._tell_text(uid, INVALID)
            return
        info = await self.svc.table(key)
        if info is None or info.status != "playing":
            lobby = info is not None and info.status == "lobby"
            self.a.dm_notice(uid, Notice("not_started" if lobby else "no_table"), key, origin)
            return
        code = parts[2]
        action: Any
        if code.startswith("-"):
            # a card shown as not playable: let the engine say why
            try:
                action = Play(Card.parse(code[1:]))
            except ValueError:
                action = None
        else:
            action = decode_action(code, [s.id for s in info.seats])
        if action is None:
            await self._tell_text(uid, INVALID, origin)
            return
        await self.svc.act(key, player_id(uid), action, seen_version=version, origin=origin)

    async def posted(self, update: Update, context: Context) -> None:
        """A group message posted through this bot (an inline choice): remembered, so that
        a refusal of that choice can reply to it."""
        msg = update.effective_message
        user = update.effective_user
        if msg is None or user is None or msg.via_bot is None or msg.via_bot.id != context.bot.id:
            return
        thread = msg.message_thread_id if msg.is_topic_message else None
        posted = Posted(msg.chat.id, thread, msg.message_id)
        self.a.saw_choice(key_of(msg.chat.id, thread), user.id, posted)

    async def migrated(self, update: Update, context: Context) -> None:
        """A group upgraded to a supergroup: the service message in the old chat
        (``migrate_to_chat_id``) or in the new one (``migrate_from_chat_id``), whichever
        comes first, moves the chat's tables (the other finds nothing left to move)."""
        msg = update.effective_message
        if msg is None:
            return
        if msg.migrate_to_chat_id:
            await self.a.migrate(msg.chat.id, msg.migrate_to_chat_id)
        elif msg.migrate_from_chat_id:
            await self.a.migrate(msg.migrate_from_chat_id, msg.chat.id)

    async def error(self, update: object, context: Context) -> None:
        """Log what a handler raised: the update's id and kind, never its content (the
        button of a private hand carries the hand message)."""
        if isinstance(update, Update):
            what = f"update {update.update_id} ({_kind(update)})"
        else:
            what = "a job" if update is None else type(update).__name__
        log.error("%s failed", what, exc_info=context.error)


# -- small helpers ------------------------------------------------------------------------------

Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]
# commands that only show something: their failure saved nothing because there was nothing
_READ_ONLY = frozenset({"hand", "rules", "settings", "stats", "leaderboard", "help"})


def _same_chat(q: CallbackQuery, key: str) -> bool:
    """A group's buttons act on that group's tables only; private buttons on any."""
    msg = q.message
    if msg is None:
        return False
    if msg.chat.type == ChatType.PRIVATE:
        return True
    return msg.chat.id == chat_of(key)[0]


def _kick_target(
    msg: Message, args: list[str], seats: Any, usernames: dict[str, int]
) -> str | None:
    """Who ``/kick`` names: the author of the message it replies to, a mention, an
    ``@username`` seen before, a seat number or a seat's name."""
    reply = msg.reply_to_message
    if reply is not None and reply.from_user is not None and not reply.from_user.is_bot:
        return player_id(reply.from_user.id)
    for ent in msg.entities or ():
        if ent.type == MessageEntity.TEXT_MENTION and ent.user is not None:
            return player_id(ent.user.id)
    if not args:
        return None
    text = " ".join(args).strip()
    if text.startswith("@") and text[1:].lower() in usernames:
        return player_id(usernames[text[1:].lower()])
    word = text.lstrip("@").lower()
    if word.isdigit():
        i = int(word) - 1
        return seats[i].id if 0 <= i < len(seats) else None
    for s in seats:
        if s.name.lower() == word:
            return str(s.id)
    return None


def _kind(update: Update) -> str:
    """Which kind of update (``message``, ``callback_query``...): what a log may say."""
    for name in Update.ALL_TYPES:
        if getattr(update, str(name), None) is not None:
            return str(name)
    return "unknown"


def _lang_done(tr: Translator) -> str:
    return tr.gettext("Language: {language}", language=_lang_name(tr.lang))


def _lang_name(lang: str) -> str:
    return LANGUAGE_NAMES.get(lang, lang)


def _help(tr: Translator, *, private: bool) -> str:
    lines = [
        render.help_text(tr, "telegram"),
        "",
        tr.gettext(
            "On your turn press “{play}” under the table: your cards appear above the "
            "keyboard, playable ones first. Prefer buttons? “{mine}” opens them in a private "
            "chat with me.",
            play=render.button_label("play", tr),
            mine=tr.gettext(views.MY_CARDS),
        ),
    ]
    if private:
        lines.append(tr.gettext("Add me to a group and send /new there to open a table."))
    return "\n".join(lines)
