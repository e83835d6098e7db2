"""Answering an interaction: ``Answering`` (the interaction a handler answers, its user
and their language) and the ways an answer goes out: filling the deferred answer, an
ephemeral follow-up, a refusal at once. What a service call tells the presser comes back
in its ``Result`` (``told``): the handler passes it here, with any refusal of its own."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from adapters.discord import text
from adapters.discord.langs import Languages
from adapters.discord.markup import cut, notice_text, player_of, table_key
from bot.port import Notice
from bot.ui.i18n import Translator, translator

__all__ = ["Answering", "Replies"]

log = logging.getLogger(__name__)


@dataclass
class Answering:
    """The interaction a handler is answering: its user (``player``), the language they
    are answered in, and the message the deferred answer is (or edits), if known."""

    interaction: discord.Interaction[Any]
    player: str
    lang: str
    answer: int | None = None

    @property
    def tr(self) -> Translator:
        return translator(self.lang)


class Replies:
    """Answers to interactions, in the language of whoever sees them; ``known(key)``: the
    names seen at a table (a notice may name one who left it); ``has_hand(key, player)``:
    whether the player's hand message there is known (it shows a revealed hand itself)."""

    def __init__(
        self,
        langs: Languages,
        known: Callable[[str], Mapping[str, str]],
        has_hand: Callable[[str, str], bool],
    ) -> None:
        self.langs = langs
        self._known = known
        self._has_hand = has_hand

    async def answering(
        self,
        interaction: discord.Interaction[Any],
        answered: discord.InteractionCallbackResponse[Any] | None = None,
    ) -> Answering:
        self.langs.note_guild(interaction)
        lang = await self.langs.private_lang(interaction)
        message = answered.message_id if answered is not None else None
        return Answering(interaction, player_of(interaction.user), lang, message)

    def told_text(self, a: Answering, told: Sequence[Notice], names: Mapping[str, str]) -> str:
        """What ``a``'s user is told (a call's ``Result.told``, a refusal of the adapter's),
        said. A revealed hand is not repeated where their hand message shows it: the
        challenge's line there (drawn before this answer) names the cards."""
        key = table_key(a.interaction.channel_id or 0)
        if any(n.code == "info.revealed" for n in told) and self._has_hand(key, a.player):
            told = [n for n in told if n.code != "info.revealed"]
        if not told:
            return ""
        names = {**self._known(key), **names}
        return "\n".join(notice_text(n, a.tr, names) for n in told)

    async def answer(
        self,
        a: Answering,
        content: str | None,
        *,
        told: Sequence[Notice] = (),
        view: discord.ui.View | None = None,
        names: Mapping[str, str] | None = None,
    ) -> None:
        """Fill a deferred ("thinking") answer: what ``told`` says, then the content (a
        tick if neither)."""
        notes = self.told_text(a, told, names or {})
        body = content if content else notes
        if content and notes:
            body = notes + "\n\n" + content
        await a.interaction.edit_original_response(content=cut(body or "✅"), view=view)

    async def follow(
        self, a: Answering, told: Sequence[Notice], names: Mapping[str, str] | None = None
    ) -> None:
        """Say ``told`` in an ephemeral follow-up (after a silent defer), if anything."""
        notes = self.told_text(a, told, names or {})
        if notes:
            await a.interaction.followup.send(cut(notes), ephemeral=True)

    async def forged(self, a: Answering) -> None:
        """An id of the right shape whose contents make no sense (a card code that is no
        card, a player who is not one): refused like any id this bot never made."""
        await a.interaction.followup.send(a.tr.gettext(text.BAD_BUTTON), ephemeral=True)

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
