"""What the adapter knows of users and chats: languages, how a user wants their cards
shown, admins, titles, usernames, and whose private chat refused the bot lately. Kept in
bounded LRU maps; on a shared store (several processes) a saved setting is asked of the
service every time."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from telegram.error import TelegramError

from adapters.telegram.common import MEMORY, Lru, Wire
from adapters.telegram.ids import player_id, scope_of
from bot.ui.i18n import Translator, resolve_lang, translator

__all__ = ["ADMIN_TTL", "UNREACHABLE_TTL", "Chats"]

log = logging.getLogger(__name__)

ADMIN_TTL = 60.0  # seconds an answer of getChatMember is kept
UNREACHABLE_TTL = 600.0  # seconds a private chat that refused the bot is not tried


class Chats:
    """Users and chats as far as this process knows them."""

    def __init__(
        self,
        wire: Wire,
        *,
        admin_ttl: float = ADMIN_TTL,
        unreachable_ttl: float = UNREACHABLE_TTL,
    ) -> None:
        self.wire = wire
        self.admin_ttl = admin_ttl
        self.unreachable_ttl = unreachable_ttl
        self._tg_lang: Lru[int, str | None] = Lru(MEMORY)  # a user's Telegram language_code
        self._user_lang: Lru[int, str | None] = Lru(MEMORY)  # a user's saved language
        self._user_cards: Lru[int, str | None] = Lru(MEMORY)  # stickers or text (/cards)
        self._chat_lang: Lru[int, str | None] = Lru(MEMORY)
        self._admins: Lru[tuple[int, int], tuple[bool, float]] = Lru(2 * MEMORY)
        # users whose private chat refused the bot: until when it is not tried again
        self._unreachable: Lru[int, float] = Lru(MEMORY)
        self.titles: Lru[int, str] = Lru(MEMORY)
        self.usernames: Lru[str, int] = Lru(MEMORY)  # @username -> user id (for /kick)

    # -- languages -------------------------------------------------------------------------

    def seen_user(self, user: Any) -> None:
        """Remember a Telegram user's ``language_code`` (their private language until they
        choose one)."""
        self._tg_lang[user.id] = getattr(user, "language_code", None)
        if getattr(user, "username", None):
            self.usernames[user.username.lower()] = user.id

    async def user_lang(self, uid: int) -> str:
        # (on a shared store another process may have saved a new one: asked every time)
        if self.wire.shared or uid not in self._user_lang:
            self._user_lang[uid] = await self.wire.service.user_lang(player_id(uid))
        return resolve_lang(self._user_lang[uid], self._tg_lang.get(uid))

    async def user_tr(self, uid: int) -> Translator:
        return translator(await self.user_lang(uid))

    def set_user_lang(self, uid: int, lang: str | None) -> None:
        self._user_lang[uid] = lang

    async def user_cards(self, uid: int) -> str | None:
        """How ``uid`` wants their cards shown (``/cards``): ``text``, ``pictures`` or
        ``None`` (the default: stickers where the bot has them)."""
        if self.wire.shared or uid not in self._user_cards:
            self._user_cards[uid] = await self.wire.service.user_cards(player_id(uid))
        return self._user_cards[uid]

    def set_user_cards(self, uid: int, look: str | None) -> None:
        self._user_cards[uid] = look

    async def chat_lang(self, chat: int) -> str:
        if self.wire.shared or chat not in self._chat_lang:
            self._chat_lang[chat] = await self.wire.service.chat_lang(scope_of(chat))
        return resolve_lang(self._chat_lang[chat])

    async def chat_tr(self, chat: int) -> Translator:
        return translator(await self.chat_lang(chat))

    def set_chat_lang(self, chat: int, lang: str) -> None:
        self._chat_lang[chat] = lang

    def forget_chat_lang(self, *chats: int) -> None:
        """A chat moved (its language may have moved with it): asked again."""
        for chat in chats:
            self._chat_lang.pop(chat, None)

    # -- permissions ------------------------------------------------------------------------

    async def is_admin(self, chat: int, uid: int) -> bool:
        """A chat's creator or administrator (for kick, stop, settings)."""
        if chat == uid:
            return True  # one's own private chat
        loop = asyncio.get_running_loop()
        found = self._admins.get((chat, uid))
        if found is not None and found[1] > loop.time():
            return found[0]
        try:
            member = await self.wire.bot.get_chat_member(chat, uid)
            ok = member.status in ("creator", "administrator")
        except TelegramError as err:
            log.info("getChatMember %s/%s failed: %s", chat, uid, err)
            ok = False
        self._admins[(chat, uid)] = (ok, loop.time() + self.admin_ttl)
        return ok

    # -- private chats that refused the bot ----------------------------------------------------

    def can_message(self, uid: int) -> bool:
        """Whether the bot may try a private message to ``uid``: not while a recent try
        was refused (never opened the chat, blocked the bot)."""
        until = self._unreachable.get(uid)
        if until is None:
            return True
        if until <= asyncio.get_running_loop().time():
            self._unreachable.pop(uid, None)
            return True
        return False

    def cannot_message(self, uid: int, err: Exception | None = None) -> None:
        """Telegram refused a private message to ``uid``: none is tried for
        ``unreachable_ttl`` seconds, or until they write to the bot privately."""
        if uid not in self._unreachable:
            log.info("user %s cannot be messaged: %s", uid, err)
        loop = asyncio.get_running_loop()
        self._unreachable[uid] = loop.time() + self.unreachable_ttl

    def reachable(self, uid: int) -> None:
        """``uid`` wrote to the bot in the private chat: it can message them again."""
        self._unreachable.pop(uid, None)
