"""The commands: ``/new``, ``/join``, ``/start``... -> table-service calls and replies."""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardMarkup, Message, MessageEntity, Update
from telegram.error import Forbidden

from adapters.telegram import widgets
from adapters.telegram.ids import Link, key_of_tid, player_id, tid_of
from adapters.telegram.inbound.front import Base, Context, Handler, Here
from adapters.telegram.outbound.menus import lang_done
from adapters.telegram.text import NO_TABLES, OPEN_PRIVATE
from bot import policy
from bot.port import TableInfo
from bot.seats import strategies as ai
from bot.service import GLOBAL
from bot.ui import render
from bot.ui import settings_schema as schema
from bot.ui.i18n import LANGUAGES, N_, Translator, translator
from bot.ui.intents import Look
from engine import Rules

__all__ = ["OWN_COMMANDS", "READ_ONLY", "Commands"]

# commands that only show something: their failure saved nothing because there was nothing
READ_ONLY = frozenset({"hand", "rules", "settings", "stats", "leaderboard", "rank", "top", "help"})
# Telegram's own commands, beside those of every platform (``render.COMMANDS``): the card
# stickers are Telegram's
OWN_COMMANDS = {"cards": N_("your cards as stickers or as text")}
# what ``/cards <word>`` may say
_LOOK_WORDS: dict[str, Look] = {
    "stickers": "pictures",
    "sticker": "pictures",
    "pictures": "pictures",
    "text": "text",
}


class Commands(Base):
    """The handlers of typed commands (:meth:`table` names them)."""

    def table(self) -> dict[str, Handler]:
        """Each command's name and handler."""
        return {
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
            "rank": self.rank,
            "top": self.top,
            "language": self.language,
            "cards": self.cards,
            "addbot": self.addbot,
            "help": self.help,
        }

    async def new(self, update: Update, context: Context) -> None:
        """/new [preset]: open a table here."""
        here = self._here(update)
        if here is None:
            return
        args = context.args or []
        preset = args[0].lower() if args and args[0].lower() in Rules.PRESET_NAMES else None
        lang = await self.chats.chat_lang(here.chat)
        res = await self.svc.create(
            here.key, here.scope, here.pid, here.name, lang=lang, preset=preset
        )
        self._answer(here, res)

    async def join(self, update: Update, context: Context) -> None:
        """/join: sit down at the table."""
        here = self._here(update)
        if here is not None:
            self._answer(here, await self.svc.join(here.key, here.pid, here.name))

    async def start(self, update: Update, context: Context) -> None:
        """/start: deal (in a group); a deep link's payload (in the private chat)."""
        here = self._here(update)
        if here is None:
            return
        if here.private:
            await self._deep_link(here, (context.args or [""])[0])
            return
        admin = await self._admin(here.key, here.uid)
        self._answer(here, await self.svc.start_game(here.key, here.pid, admin=admin))

    async def _deep_link(self, here: Here, payload: str) -> None:
        kind, tid = payload[:1], payload[1:]
        key = key_of_tid(tid) if kind in (Link.HAND, Link.SETTINGS) else None
        if key is not None:
            key = self.moves.current_key(key)
        if key is not None and kind == Link.HAND:
            await self.hands.send_hand(key, here.uid, new=True)
            return
        if key is not None and kind == Link.SETTINGS:
            await self._send_settings(key, here.uid, here.uid)
            return
        if payload == Link.CARDS:
            tr = await self.chats.user_tr(here.uid)
            await self.messages.reply_private(
                here.message, *await self.menus.cards_menu(here.uid, tr)
            )
            return
        tr = await self.chats.user_tr(here.uid)
        await self.messages.reply_private(here.message, _help(tr, private=True))

    async def leave(self, update: Update, context: Context) -> None:
        """/leave: leave the table."""
        here = self._here(update)
        if here is not None:
            self._answer(here, await self.svc.leave(here.key, here.pid))

    async def kick(self, update: Update, context: Context) -> None:
        """/kick (in reply to a player, or /kick <seat number or name>): remove a player."""
        here = self._here(update)
        if here is None:
            return
        info = await self.svc.table(here.key)
        if info is None:
            await self._refuse(here, "no_table")
            return
        target = _kick_target(here.message, context.args or [], info.seats, self.chats.usernames)
        if target is None and await self._kick_menu(here, info):
            return
        if target is None:
            await self._tell_text(
                here.uid,
                N_(
                    "Reply to a message of the player with /kick, or give their seat "
                    "number: /kick 2"
                ),
                here.reply,
            )
            return
        admin = await self._admin(here.key, here.uid)
        self._answer(here, await self.svc.kick(here.key, here.pid, target, admin=admin))

    async def _kick_menu(self, here: Here, info: TableInfo) -> bool:
        """``/kick`` naming nobody, from the host or an admin in the group: whom to remove,
        a button each (``bot.ui.controls.kick_menu``). False if not theirs to see."""
        admin = await self._admin(here.key, here.uid, info)
        if here.private or policy.refusal_code(info, here.pid, admin=admin, manage=True):
            return False
        menu = widgets.kick_menu(info, await self.chats.chat_tr(here.chat), here.pid)
        if menu is None:
            return False
        self.messages.say(here.chat, here.thread, *menu)
        return True

    async def stop(self, update: Update, context: Context) -> None:
        """/stop: end the game (host or admin)."""
        here = self._here(update)
        if here is None:
            return
        admin = await self._admin(here.key, here.uid)
        self._answer(here, await self.svc.stop_game(here.key, here.pid, admin=admin))

    async def hand(self, update: Update, context: Context) -> None:
        """/hand: your cards, with buttons, in the private chat."""
        here = self._here(update)
        if here is None:
            return
        if here.private:
            keys = await self._tables_of(here.pid)
            if not keys:
                await self.messages.reply_private(
                    here.message, (await self.chats.user_tr(here.uid)).gettext(NO_TABLES)
                )
            for key in keys[:3]:
                await self.hands.send_hand(key, here.uid, new=True)
            return
        if await self.svc.hand(here.key, here.pid) is None:
            await self._refuse(here, "not_a_player")
            return
        try:
            await self.hands.send_hand(here.key, here.uid, new=True)
        except Forbidden:
            await self._point_to_private(here, Link.HAND + tid_of(here.key))

    async def _point_to_private(self, here: Here, payload: str) -> None:
        """The user never opened the private chat: a button in the group that opens it."""
        tr = await self.chats.chat_tr(here.chat)
        link = widgets.deep_link(self.a.username, payload)
        if link is None:
            return
        markup = InlineKeyboardMarkup([[widgets.my_cards_button(link, tr)]])
        self.messages.say(here.chat, here.thread, tr.gettext(OPEN_PRIVATE), markup)

    async def rules(self, update: Update, context: Context) -> None:
        """/rules: this table's rules (or the chat's, with no table open)."""
        here = self._here(update)
        if here is None:
            return
        tr = await self.chats.chat_tr(here.chat)
        rules, preset = await self.svc.rules_of(here.key, here.scope)
        text = schema.rules_summary(rules, tr, preset)
        self.messages.say(here.chat, here.thread, text)

    async def settings(self, update: Update, context: Context) -> None:
        """/settings: the rules menu, for the host, in the private chat."""
        here = self._here(update)
        if here is None:
            return
        _info, refused, _admin = await self._manager(here.key, here.uid)
        if refused == "no_table" and here.private:
            await self._tell_text(here.uid, N_("Send /settings in the group of the table."))
            return
        if refused is not None:
            await self._refuse(here, refused)
            return
        try:
            await self._send_settings(here.key, here.uid, here.uid)
        except Forbidden:
            await self._point_to_private(here, Link.SETTINGS + tid_of(here.key))

    async def stats(self, update: Update, context: Context) -> None:
        """/stats: your statistics here and everywhere."""
        here = self._here(update)
        if here is None:
            return
        tr = await (
            self.chats.user_tr(here.uid) if here.private else self.chats.chat_tr(here.chat)
        )
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
        self.messages.say(here.chat, here.thread, text)

    async def leaderboard(self, update: Update, context: Context) -> None:
        """/leaderboard [all]: the best players of this chat (or everywhere)."""
        here = self._here(update)
        if here is None:
            return
        tr = await (
            self.chats.user_tr(here.uid) if here.private else self.chats.chat_tr(here.chat)
        )
        every = here.private or bool(context.args and context.args[0].lower() == "all")
        scope = GLOBAL if every else here.scope
        text = render.leaderboard_text(await self.svc.leaderboard(scope), tr)
        if every:
            text = tr.gettext("Everywhere:") + "\n" + text
        self.messages.say(here.chat, here.thread, text)

    async def rank(self, update: Update, context: Context) -> None:
        """/rank [player]: your ratings here and everywhere, or a player's (a reply to
        their message, a mention, their name)."""
        here = self._here(update)
        if here is None:
            return
        tr = await (
            self.chats.user_tr(here.uid) if here.private else self.chats.chat_tr(here.chat)
        )
        scope = GLOBAL if here.private else here.scope
        who, name = await self._rated(here, scope, context.args or [])
        text = render.rank_text(name, await self.svc.rank(scope, who), tr)
        self.messages.say(here.chat, here.thread, text)

    async def _rated(self, here: Here, scope: str, args: list[str]) -> tuple[str, str]:
        """Whom ``/rank`` names, and what to call them: the author of the message it
        replies to, a mention, an ``@username`` seen before, a rated player's name; else
        the sender."""
        msg = here.message
        reply = msg.reply_to_message
        if reply is not None and reply.from_user is not None and not reply.from_user.is_bot:
            return player_id(reply.from_user.id), reply.from_user.full_name
        for ent in msg.entities or ():
            if ent.type == MessageEntity.TEXT_MENTION and ent.user is not None:
                return player_id(ent.user.id), ent.user.full_name
        text = " ".join(args).strip()
        if not text:
            return here.pid, here.name
        uid = self.chats.usernames.get(text[1:].lower()) if text.startswith("@") else None
        if uid is not None:
            return player_id(uid), text
        found = await self.svc.rated_named(scope, text.lstrip("@"))
        return (found or "", text)

    async def top(self, update: Update, context: Context) -> None:
        """/top [all]: the ladders of this chat (or everywhere): the season's and all time's."""
        here = self._here(update)
        if here is None:
            return
        tr = await (
            self.chats.user_tr(here.uid) if here.private else self.chats.chat_tr(here.chat)
        )
        args = [a.lower() for a in context.args or ()]
        every = here.private or bool(args and args[0] in ("all", "global", "everywhere"))
        text = render.top_text(await self.svc.top(GLOBAL if every else here.scope), tr)
        self.messages.say(here.chat, here.thread, text)

    async def language(self, update: Update, context: Context) -> None:
        """/language [en|zh_Hans|zh_Hant]: the chat's language (group) or yours (private)."""
        here = self._here(update)
        if here is None:
            return
        args = context.args or []
        chosen = args[0] if args and args[0] in LANGUAGES else None
        if here.private:
            if chosen is not None:
                if not self._answer(here, await self.svc.set_user_language(here.pid, chosen)):
                    return
                self.chats.set_user_lang(here.uid, chosen)
                tr = await self.chats.user_tr(here.uid)
                await self.messages.reply_private(here.message, lang_done(tr))
                return
            tr = await self.chats.user_tr(here.uid)
            current = await self.svc.user_lang(here.pid)
            text, markup = widgets.language_menu(tid_of(here.key), "u", current, tr)
            await self.messages.reply_private(here.message, text, markup)
            return
        admin = await self.chats.is_admin(here.chat, here.uid)
        if chosen is not None:
            res = await self.svc.set_chat_language(here.key, here.scope, chosen, admin=admin)
            if self._answer(here, res):
                self.chats.set_chat_lang(here.chat, chosen)
                self.messages.say(here.chat, here.thread, lang_done(translator(chosen)))
            return
        if not admin:
            await self._refuse(here, "not_host")
            return
        tr = await self.chats.chat_tr(here.chat)
        current = await self.svc.chat_lang(here.scope)
        text, markup = widgets.language_menu(tid_of(here.key), "c", current, tr)
        self.messages.say(here.chat, here.thread, text, markup)

    async def cards(self, update: Update, context: Context) -> None:
        """/cards [stickers|text]: your cards in the inline hand as stickers or as text, on
        every table (a menu in the private chat without a word)."""
        here = self._here(update)
        if here is None:
            return
        args = context.args or []
        look = _LOOK_WORDS.get(args[0].lower()) if args else None
        if look is not None:
            if not self._answer(here, await self.svc.set_user_cards(here.pid, look)):
                return
            self.chats.set_user_cards(here.uid, look)  # saved, then remembered
            stickers = self.a.stickers is not None

            def done(tr: Translator) -> str:
                return widgets.cards_done(look, tr, stickers=stickers)

            if here.private:
                tr = await self.chats.user_tr(here.uid)
                await self.messages.reply_private(here.message, done(tr))
            else:  # privately, else a short-lived reply in the group
                self.messages.refuse(here.uid, done, here.reply)
            return
        tr = await self.chats.user_tr(here.uid)
        text, markup = await self.menus.cards_menu(here.uid, tr)
        if here.private:
            await self.messages.reply_private(here.message, text, markup)
            return
        try:  # one's own setting: its menu is in the private chat
            await self.a.bot.send_message(here.uid, text, reply_markup=markup)
        except Forbidden as err:
            self.chats.cannot_message(here.uid, err)
            await self._point_to_private(here, Link.CARDS)

    async def addbot(self, update: Update, context: Context) -> None:
        """/addbot [smart|expert|basic|random]: add a bot seat (host or admin)."""
        here = self._here(update)
        if here is None:
            return
        args = context.args or []
        # none named (or no strategy): the operator's default (``UNO_DEFAULT_BOT``)
        strategy = args[0].lower() if args and args[0].lower() in ai.STRATEGIES else None
        admin = await self._admin(here.key, here.uid)
        self._answer(here, await self.svc.add_bot(here.key, here.pid, strategy, admin=admin))

    async def help(self, update: Update, context: Context) -> None:
        """/help: how to play."""
        here = self._here(update)
        if here is None:
            return
        if here.private:
            tr = await self.chats.user_tr(here.uid)
            await self.messages.reply_private(here.message, _help(tr, private=True))
            return
        tr = await self.chats.chat_tr(here.chat)
        self.messages.say(here.chat, here.thread, _help(tr, private=False))


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


def _help(tr: Translator, *, private: bool) -> str:
    lines = [
        render.help_text(tr, "telegram"),
        *(f"/{cmd} — {tr.gettext(msg)}" for cmd, msg in OWN_COMMANDS.items()),
        "",
        tr.gettext(
            "On your turn press “{play}” under the table: your cards appear above the "
            "keyboard, playable ones first. Prefer buttons? “{mine}” opens them in a private "
            "chat with me.",
            play=render.button_label("play", tr),
            mine=tr.gettext(widgets.MY_CARDS),
        ),
    ]
    if private:
        lines.append(tr.gettext("Add me to a group and send /new there to open a table."))
    return "\n".join(lines)
