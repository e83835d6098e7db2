"""Answering an interaction: the ``Origin`` a handler passes to the service (whose
refusals and private notices it collects), and the ways an answer goes out: filling the
deferred answer, an ephemeral follow-up, a refusal at once."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from adapters.discord import text
from adapters.discord.langs import Languages
from adapters.discord.markup import cut, notice_text, player_of, table_key
from bot.port import Notice
from bot.ui.i18n import Translator, translator

__all__ = ["Origin", "Replies"]

log = logging.getLogger(__name__)


@dataclass
class Origin:
    """What the adapter passes as ``origin`` to the service: the interaction being
    answered, whose refusals and private notices are collected to answer it."""

    interaction: discord.Interaction[Any]
    player: str
    lang: str
    notices: list[Notice] = field(default_factory=list)
    answer: int | None = None  # the message the deferred answer is (or edits), if known

    @property
    def tr(self) -> Translator:
        return translator(self.lang)


class Replies:
    """Answers to interactions, in the language of whoever sees them; ``known(key)``: the
    names seen at a table (a notice may name one who left it)."""

    def __init__(self, langs: Languages, known: Callable[[str], Mapping[str, str]]) -> None:
        self.langs = langs
        self._known = known

    async def origin(
        self,
        interaction: discord.Interaction[Any],
        answered: discord.InteractionCallbackResponse[Any] | None = None,
    ) -> Origin:
        self.langs.note_guild(interaction)
        lang = await self.langs.private_lang(interaction)
        o = Origin(interaction, player_of(interaction.user), lang)
        o.answer = answered.message_id if answered is not None else None
        return o

    def notices_text(self, o: Origin, names: Mapping[str, str]) -> str:
        """The notices collected for ``o``, said (and then forgotten)."""
        key = table_key(o.interaction.channel_id or 0)
        names = {**self._known(key), **names}
        said = "\n".join(notice_text(n, o.tr, names) for n in o.notices)
        o.notices.clear()
        return said

    async def answer(
        self,
        o: Origin,
        content: str | None,
        *,
        view: discord.ui.View | None = None,
        names: Mapping[str, str] | None = None,
    ) -> None:
        """Fill a deferred ("thinking") answer: the content, else the notices."""
        notes = self.notices_text(o, names or {})
        body = content if content else notes
        if content and notes:
            body = notes + "\n\n" + content
        await o.interaction.edit_original_response(content=cut(body or "✅"), view=view)

    async def follow(self, o: Origin, names: Mapping[str, str] | None = None) -> None:
        """Send the collected notices as an ephemeral follow-up (after a silent defer)."""
        notes = self.notices_text(o, names or {})
        if notes:
            await o.interaction.followup.send(cut(notes), ephemeral=True)

    async def forged(self, o: Origin) -> None:
        """An id of the right shape whose contents make no sense (a card code that is no
        card, a player who is not one): refused like any id this bot never made."""
        await o.interaction.followup.send(o.tr.gettext(text.BAD_BUTTON), ephemeral=True)

    async def refuse_unknown(self, interaction: discord.Interaction[Any]) -> None:
        """A component id this bot never made."""
        await self.now(interaction, text.BAD_BUTTON)

    async def restarting(self, interaction: discord.Interaction[Any]) -> None:
        await self.now(interaction, text.RESTARTING)

    async def now(self, interaction: discord.Interaction[Any], message: str) -> None:
        """Answer at once, privately, without deferring: a refusal that changes nothing."""
        tr = translator(await self.langs.quick_lang(interaction))
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(tr.gettext(message), ephemeral=True)

    async def command_failed(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """A slash command that failed before or inside its handler (an option that no
        longer converts, say a member who left): answered, never left hanging."""
        log.warning("discord command failed: %s", type(error).__name__)
        await self.fail(interaction, logged=True)

    async def fail(self, interaction: discord.Interaction[Any], *, logged: bool = False) -> None:
        """Something went wrong handling ``interaction``: say so (and log it)."""
        if not logged:
            log.exception("discord interaction %s failed", interaction.id)
        tr = translator(await self.langs.quick_lang(interaction))
        with contextlib.suppress(Exception):
            if interaction.response.is_done():
                await interaction.followup.send(tr.gettext(text.ERROR), ephemeral=True)
            else:
                await interaction.response.send_message(tr.gettext(text.ERROR), ephemeral=True)
