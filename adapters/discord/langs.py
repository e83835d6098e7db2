"""Which language each message speaks: a table's (its setting, else its server's Discord
locale), and a user's private one (their saved setting, else their Discord client's)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import discord

from adapters.discord.markup import guild_of, player_of
from bot.ops.config import Settings
from bot.port import TableInfo
from bot.service import Service
from bot.ui.i18n import resolve_lang

__all__ = ["USER_LANG_SECONDS", "Languages"]

# how long a user's saved language is taken as read (another process may change it)
USER_LANG_SECONDS = 60.0


class Languages:
    """The languages known here: users' saved ones as read lately, servers' locales as
    their interactions (or the gateway) said them."""

    def __init__(
        self,
        settings: Settings,
        service: Service,
        client: Callable[[], discord.Client | None],
    ) -> None:
        self.settings = settings
        self.service = service
        self._client = client
        # users' saved languages as read (and when): another process may change one
        self._user_lang: dict[str, tuple[str | None, float]] = {}
        self._guild_locale: dict[int, str] = {}

    def guild_lang(self, scope: str) -> str | None:
        """The Discord locale of the server of ``scope``, if this process knows it."""
        gid = guild_of(scope)
        if gid is None:
            return None
        found = self._guild_locale.get(gid)
        client = self._client()
        if found is None and client is not None:
            guild = client.get_guild(gid)
            if guild is not None:
                found = guild.preferred_locale.value
        return found

    def table_lang(self, info: TableInfo) -> str:
        """The table's language setting, else the guild's locale (as kept with the table
        where this process does not run the guild's shard), else the default."""
        kept = info.meta.get("dc_locale")
        guild = self.guild_lang(info.scope) or (kept if isinstance(kept, str) else None)
        return resolve_lang(info.lang, guild, self.settings.language)

    async def private_lang(self, interaction: discord.Interaction[Any]) -> str:
        """The user's saved language, else their Discord client's."""
        user = player_of(interaction.user)
        saved = self._saved(user)
        if saved is None:
            lang = await self.service.user_lang(user)
            self.remember(user, lang)
        else:
            lang = saved[0]
        return resolve_lang(lang, interaction.locale.value)

    async def quick_lang(self, interaction: discord.Interaction[Any]) -> str:
        """:meth:`private_lang` for an answer that must go out at once: the store is
        asked for at most half a second (a refusal goes out even if the store hiccups)."""
        user = player_of(interaction.user)
        known = self._saved(user)
        if known is not None:
            return resolve_lang(known[0], interaction.locale.value)
        saved = None
        with contextlib.suppress(Exception):
            saved = await asyncio.wait_for(self.service.user_lang(user), timeout=0.5)
        return resolve_lang(saved, interaction.locale.value)

    def remember(self, user: str, lang: str | None) -> None:
        """``user``'s saved language is ``lang`` (``None``: their client's), as of now."""
        self._user_lang[user] = (lang, time.monotonic())

    def _saved(self, user: str) -> tuple[str | None] | None:
        """A user's saved language as read lately (``None``: not known, or read too long
        ago: on a shared database another process may have changed it)."""
        got = self._user_lang.get(user)
        if got is None:
            return None
        if self.service.shared and time.monotonic() - got[1] > USER_LANG_SECONDS:
            del self._user_lang[user]
            return None
        return (got[0],)

    def note_guild(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the server's locale an interaction carries (it may be another shard's)."""
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self._guild_locale[interaction.guild_id] = interaction.guild_locale.value
