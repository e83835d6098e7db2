"""The ``/uno`` subcommands' handlers (``commands.UnoCommands`` hands each interaction to
one): acknowledged at once (deferred, "thinking"), then a service call, then the answer."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from adapters.discord import text
from adapters.discord.context import Context
from adapters.discord.inbound.presses import Presses
from adapters.discord.markup import (
    admin,
    can_post,
    display_name,
    md,
    player_of,
    scope_of,
    table_key,
)
from adapters.discord.outbound.hands import Hands
from adapters.discord.outbound.menus import Menus
from adapters.discord.outbound.replies import Origin, Replies
from bot.port import Notice
from bot.ratings import Rating
from bot.service import GLOBAL, Result
from bot.ui import render
from bot.ui import settings_schema as schema
from bot.ui.i18n import LANGUAGE_NAMES, LANGUAGES, resolve_lang, translator

__all__ = ["SlashCommands"]

Handler = Callable[[Origin, str, str], Awaitable[None]]


class SlashCommands:
    """``cmd_<name>`` for each ``/uno <name>``."""

    def __init__(
        self, ctx: Context, replies: Replies, hands: Hands, menus: Menus, presses: Presses
    ) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.replies = replies
        self.hands = hands
        self.menus = menus
        self.presses = presses

    async def _command(
        self, interaction: discord.Interaction[Any], handler: Handler, *, ephemeral: bool = True
    ) -> None:
        """Acknowledge a slash command at once, then run ``handler(origin, key, scope)``."""
        started = time.monotonic()
        gate = self.ctx.gate
        gate.track()
        if gate.closing:
            await self.replies.restarting(interaction)
            return
        try:
            if interaction.guild_id is None or interaction.channel_id is None:
                tr = translator(resolve_lang(interaction.locale.value))
                await interaction.response.send_message(
                    tr.gettext(text.SERVER_ONLY), ephemeral=True
                )
                return
            answered = await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            gate.acked(started)
            o = await self.replies.origin(interaction, answered)
            await handler(o, table_key(interaction.channel_id), scope_of(interaction.guild_id))
        except Exception:
            await self.replies.fail(interaction)

    async def _done(self, o: Origin, res: Result) -> None:
        """The answer to a command that changed the table: its refusal, or a tick."""
        names = res.table.names if res.table is not None else None
        await self.replies.answer(o, None if o.notices else "✅", names=names)

    async def cmd_new(self, interaction: discord.Interaction[Any], preset: str | None) -> None:
        """``/uno new``: open a table here."""

        async def run(o: Origin, key: str, scope: str) -> None:
            if not can_post(o.interaction):
                # a table nobody would see: say why rather than open it
                await self.replies.answer(o, o.tr.gettext(text.NO_ACCESS))
                return
            name = display_name(o.interaction)
            res = await self.service.create(key, scope, o.player, name, preset=preset, origin=o)
            opened = None
            if res.ok:
                opened = o.tr.gettext(text.OPENED, join=render.button_label("join", o.tr))
            await self.replies.answer(o, opened, names=res.table.names if res.table else None)

        await self._command(interaction, run)

    async def cmd_simple(self, interaction: discord.Interaction[Any], what: str) -> None:
        """``/uno join``, ``start``, ``leave``, ``stop``."""

        async def run(o: Origin, key: str, scope: str) -> None:
            svc, is_admin = self.service, admin(o.interaction)
            if what == "join":
                name = display_name(o.interaction)
                res = await svc.join(key, o.player, name, origin=o)
            elif what == "start":
                res = await svc.start_game(key, o.player, admin=is_admin, origin=o)
            elif what == "leave":
                res = await svc.leave(key, o.player, origin=o)
            else:
                res = await svc.stop_game(key, o.player, admin=is_admin, origin=o)
            await self._done(o, res)

        await self._command(interaction, run)

    async def cmd_kick(
        self, interaction: discord.Interaction[Any], member: discord.abc.User | None
    ) -> None:
        """``/uno kick [player]``: remove someone, or choose from the seats (bots too)."""

        async def run(o: Origin, key: str, scope: str) -> None:
            if member is None:
                await self.menus.open_kick(o, key)
                return
            res = await self.service.kick(
                key, o.player, player_of(member), admin=admin(o.interaction), origin=o
            )
            await self._done(o, res)

        await self._command(interaction, run)

    async def cmd_hand(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno hand``: the same as the table's Show hand."""

        async def run(o: Origin, key: str, scope: str) -> None:
            await self.presses.open_hand(o, key)

        await self._command(interaction, run)

    async def cmd_rules(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno rules``: the open table's rules, else this server's defaults."""

        async def run(o: Origin, key: str, scope: str) -> None:
            rules, preset = await self.service.rules_of(key, scope)
            await self.replies.answer(o, schema.rules_summary(rules, o.tr, preset))

        await self._command(interaction, run)

    async def cmd_settings(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno settings``: the settings menu (host or Manage Channels)."""

        async def run(o: Origin, key: str, scope: str) -> None:
            await self.menus.open_settings(o, key)

        await self._command(interaction, run)

    async def cmd_stats(
        self,
        interaction: discord.Interaction[Any],
        member: discord.abc.User | None,
        where: str | None,
    ) -> None:
        """``/uno stats [whose] [scope]``: here, or everywhere."""

        async def run(o: Origin, key: str, scope: str) -> None:
            who = player_of(member) if member is not None else o.player
            line = await self.service.player_stats(GLOBAL if where == "global" else scope, who)
            if line is not None:
                line = dataclasses.replace(line, name=md(line.name))
            await self.replies.answer(o, render.stats_text(line, o.tr))

        await self._command(interaction, run)

    async def cmd_leaderboard(
        self, interaction: discord.Interaction[Any], where: str | None
    ) -> None:
        """``/uno leaderboard [scope]``: for everyone to see, in the server's language."""

        async def run(o: Origin, key: str, scope: str) -> None:
            lines = await self.service.leaderboard(GLOBAL if where == "global" else scope, 10)
            lines = [dataclasses.replace(s, name=md(s.name)) for s in lines]
            saved = await self.service.chat_lang(scope)
            langs = self.ctx.langs
            lang = resolve_lang(saved, langs.guild_lang(scope), self.ctx.settings.language)
            await self.replies.answer(o, render.leaderboard_text(lines, translator(lang)))

        await self._command(interaction, run, ephemeral=False)

    async def cmd_rank(
        self,
        interaction: discord.Interaction[Any],
        member: discord.abc.User | None,
        name: str | None,
    ) -> None:
        """``/uno rank [whose] [name]``: a player's ratings here and everywhere, to them."""

        async def run(o: Origin, key: str, scope: str) -> None:
            if member is not None:
                who, label = player_of(member), member.display_name
            elif name and name.strip():
                who, label = await self.service.rated_named(scope, name) or "", name.strip()
            else:
                who, label = o.player, display_name(interaction)
            found = await self.service.rank(scope, who)
            ladders = [(ev, s, None if r is None else _md(r)) for ev, s, r in found]
            await self.replies.answer(o, render.rank_text(md(label), ladders, o.tr))

        await self._command(interaction, run)

    async def cmd_top(self, interaction: discord.Interaction[Any], where: str | None) -> None:
        """``/uno top [scope]``: the ladders, for everyone to see, in the server's language."""

        async def run(o: Origin, key: str, scope: str) -> None:
            found = await self.service.top(GLOBAL if where == "global" else scope)
            ladders = [(ev, s, [_md(r) for r in lines]) for ev, s, lines in found]
            saved = await self.service.chat_lang(scope)
            langs = self.ctx.langs
            lang = resolve_lang(saved, langs.guild_lang(scope), self.ctx.settings.language)
            await self.replies.answer(o, render.top_text(ladders, translator(lang)))

        await self._command(interaction, run, ephemeral=False)

    async def cmd_language(
        self, interaction: discord.Interaction[Any], language: str, where: str | None
    ) -> None:
        """``/uno language``: yours, or the server's (a member with Manage Channels only:
        it applies to every table of the server, and anyone can host a table)."""

        async def run(o: Origin, key: str, scope: str) -> None:
            if where == "guild":
                await self._server_language(o, key, scope, language)
            else:
                await self._own_language(o, language)

        await self._command(interaction, run)

    async def _server_language(self, o: Origin, key: str, scope: str, language: str) -> None:
        if not admin(o.interaction):
            await self.replies.answer(o, o.tr.gettext(text.LANGUAGE_ADMINS))
            return
        if language == "auto":
            # the server's own setting goes: its tables speak its Discord language
            await self.service.set_chat_language(key, scope, None)
            spoken = resolve_lang(self.ctx.langs.guild_lang(scope), self.ctx.settings.language)
            await self.replies.answer(o, translator(spoken).gettext(text.LANGUAGE_SERVER_AUTO))
            return
        if language not in LANGUAGES:
            o.notices.append(Notice("bad_setting"))
            await self.replies.answer(o, None)
            return
        await self.service.set_chat_language(key, scope, language)
        done = translator(language).gettext(
            text.LANGUAGE_SERVER, language=LANGUAGE_NAMES[language]
        )
        await self.replies.answer(o, done)

    async def _own_language(self, o: Origin, language: str) -> None:
        lang = language if language in LANGUAGES else None
        await self.service.set_user_language(o.player, lang)
        self.ctx.langs.remember(o.player, lang)
        o.lang = resolve_lang(lang, o.interaction.locale.value)
        for s in self.hands.sessions.of(o.player):
            s.lang = o.lang
            self.hands.queue(s, force=True)
        if lang is None:
            await self.replies.answer(o, o.tr.gettext(text.LANGUAGE_AUTO))
        else:
            await self.replies.answer(
                o, o.tr.gettext(text.LANGUAGE_ME, language=LANGUAGE_NAMES[lang])
            )

    async def cmd_addbot(
        self, interaction: discord.Interaction[Any], strategy: str | None
    ) -> None:
        """``/uno addbot [strategy]``."""

        async def run(o: Origin, key: str, scope: str) -> None:
            res = await self.service.add_bot(
                key, o.player, strategy or "smart", admin=admin(o.interaction), origin=o
            )
            await self._done(o, res)

        await self._command(interaction, run)

    async def cmd_help(self, interaction: discord.Interaction[Any]) -> None:
        """``/uno help``."""

        async def run(o: Origin, key: str, scope: str) -> None:
            await self.replies.answer(o, render.help_text(o.tr, "discord"))

        await self._command(interaction, run)


def _md(r: Rating) -> Rating:
    """A rating with its player's name escaped for Discord's markdown."""
    return dataclasses.replace(r, name=md(r.name))
