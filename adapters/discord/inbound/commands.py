"""The ``/uno`` command group, each subcommand declared once with its handler, and the
commands' translations (zh-CN, zh-TW) for Discord's clients. Each subcommand is
acknowledged at once (deferred, "thinking"), then calls the service, then answers."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, TranslationContextLocation, locale_str

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
from adapters.discord.outbound.replies import Answering, Replies
from bot.port import Notice
from bot.ratings import Rating
from bot.service import GLOBAL, Result
from bot.ui import render
from bot.ui import settings_schema as schema
from bot.ui.i18n import LANGUAGE_NAMES, Translator, resolve_lang, translator
from bot.ui.i18n import LANGUAGES as LANGS
from bot.ui.intents import Language
from bot.ui.press import press

__all__ = ["CommandTranslator", "UnoCommands"]

# Discord locales we have a catalogue for (English is the default text itself)
LOCALES = {discord.Locale.chinese: "zh_Hans", discord.Locale.taiwan_chinese: "zh_Hant"}


def _s(message: str, **extras: Any) -> locale_str:
    return locale_str(message, **extras)


def _help(command: str) -> locale_str:
    return _s(render.COMMANDS[command])


def _opt(option: str) -> locale_str:
    return _s(text.OPTION_HELP[option])


PRESETS = [
    Choice(name=_s(render.PRESET_NAMES[p]), value=p) for p in ("official", "house", "party")
]
STRATEGIES = [
    Choice(name=_s(text.PRIVATE_CHOICES[s]), value=s)
    for s in ("smart", "expert", "basic", "random")
]
SCOPES = [Choice(name=_s(text.PRIVATE_CHOICES[s]), value=s) for s in ("server", "global")]
LANGUAGE_CHOICES = [Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()] + [
    Choice(name=_s(text.PRIVATE_CHOICES["auto"]), value="auto")
]
Handler = Callable[[Answering, str, str], Awaitable[None]]
WHERE = [Choice(name=_s(text.PRIVATE_CHOICES[s]), value=s) for s in ("me", "guild")]


class UnoCommands(app_commands.Group):
    """``/uno ...``: each subcommand declared once, with its handler: acknowledged at once
    (deferred, "thinking"), then a service call, then the answer."""

    def __init__(
        self, ctx: Context, replies: Replies, hands: Hands, menus: Menus, presses: Presses
    ) -> None:
        super().__init__(
            name=_s("uno"),
            description=_s(text.GROUP_DESCRIPTION),
            guild_only=True,
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            allowed_installs=app_commands.AppInstallationType(guild=True),
        )
        self.ctx = ctx
        self.service = ctx.service
        self.replies = replies
        self.hands = hands
        self.menus = menus
        self.presses = presses

    async def _command(
        self, interaction: discord.Interaction[Any], handler: Handler, *, ephemeral: bool = True
    ) -> None:
        """Acknowledge a slash command at once, then run ``handler(answering, key, scope)``."""
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
                gate.acked(started)
                return
            answered = await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            gate.acked(started)
            a = await self.replies.answering(interaction, answered)
            await handler(a, table_key(interaction.channel_id), scope_of(interaction.guild_id))
        except Exception:
            await self.replies.fail(interaction)

    async def _done(self, a: Answering, res: Result) -> None:
        """The answer to a command that changed the table: what its ``Result`` tells (a
        refusal, a seat for the next round), else a tick."""
        names = res.table.names if res.table is not None else None
        await self.replies.answer(a, None, told=res.told, names=names)

    def _spoken(self, scope: str, saved: str | None) -> Translator:
        """The server's language: its setting, else its Discord locale, else the default."""
        langs = self.ctx.langs
        return translator(resolve_lang(saved, langs.guild_lang(scope), self.ctx.settings.language))

    @app_commands.command(name=_s("new"), description=_help("new"))
    @app_commands.rename(preset=_s("preset"))
    @app_commands.describe(preset=_opt("preset"))
    @app_commands.choices(preset=PRESETS)
    async def new(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        """Open a table in this channel (or thread)."""

        async def run(a: Answering, key: str, scope: str) -> None:
            if not can_post(a.interaction):
                # a table nobody would see: say why rather than open it
                await self.replies.answer(a, a.tr.gettext(text.NO_ACCESS))
                return
            name = display_name(a.interaction)
            res = await self.service.create(key, scope, a.player, name, preset=preset)
            opened = None
            if res.ok:
                opened = a.tr.gettext(text.OPENED, join=render.button_label("join", a.tr))
            names = res.table.names if res.table else None
            await self.replies.answer(a, opened, told=res.told, names=names)

        await self._command(interaction, run)

    async def _simple(self, interaction: discord.Interaction[Any], what: str) -> None:
        """``/uno join``, ``start``, ``leave``, ``stop``."""

        async def run(a: Answering, key: str, scope: str) -> None:
            svc, is_admin = self.service, admin(a.interaction)
            if what == "join":
                res = await svc.join(key, a.player, display_name(a.interaction))
            elif what == "start":
                res = await svc.start_game(key, a.player, admin=is_admin)
            elif what == "leave":
                res = await svc.leave(key, a.player)
            else:
                res = await svc.stop_game(key, a.player, admin=is_admin)
            await self._done(a, res)

        await self._command(interaction, run)

    @app_commands.command(name=_s("join"), description=_help("join"))
    async def join(self, interaction: discord.Interaction) -> None:
        """Sit down at the table."""
        await self._simple(interaction, "join")

    @app_commands.command(name=_s("start"), description=_help("start"))
    async def start(self, interaction: discord.Interaction) -> None:
        """Deal (host or Manage Channels)."""
        await self._simple(interaction, "start")

    @app_commands.command(name=_s("leave"), description=_help("leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the table."""
        await self._simple(interaction, "leave")

    @app_commands.command(name=_s("kick"), description=_help("kick"))
    @app_commands.rename(player=_s("player"))
    @app_commands.describe(player=_opt("player"))
    async def kick(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        """Remove a player (host or Manage Channels), or choose from the seats (bots too).
        A ``User``, not a ``Member``: one who left the server is still at the table, and
        must be removable by name."""

        async def run(a: Answering, key: str, scope: str) -> None:
            if player is None:
                await self.menus.open_kick(a, key)
                return
            res = await self.service.kick(
                key, a.player, player_of(player), admin=admin(a.interaction)
            )
            await self._done(a, res)

        await self._command(interaction, run)

    @app_commands.command(name=_s("stop"), description=_help("stop"))
    async def stop(self, interaction: discord.Interaction) -> None:
        """End the game (host or Manage Channels)."""
        await self._simple(interaction, "stop")

    @app_commands.command(name=_s("hand"), description=_help("hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your cards, privately: the same as the table's Show hand."""

        async def run(a: Answering, key: str, scope: str) -> None:
            await self.presses.open_hand(a, key)

        await self._command(interaction, run)

    @app_commands.command(name=_s("rules"), description=_help("rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        """This table's rules, else this server's defaults."""

        async def run(a: Answering, key: str, scope: str) -> None:
            rules, preset = await self.service.rules_of(key, scope)
            await self.replies.answer(a, schema.rules_summary(rules, a.tr, preset))

        await self._command(interaction, run)

    @app_commands.command(name=_s("settings"), description=_help("settings"))
    async def settings(self, interaction: discord.Interaction) -> None:
        """Change the rules (host or Manage Channels)."""

        async def run(a: Answering, key: str, scope: str) -> None:
            await self.menus.open_settings(a, key)

        await self._command(interaction, run)

    @app_commands.command(name=_s("stats"), description=_help("stats"))
    @app_commands.rename(whose=_s("whose"), scope=_s("scope"))
    @app_commands.describe(whose=_opt("whose"), scope=_opt("scope"))
    @app_commands.choices(scope=SCOPES)
    async def stats(
        self,
        interaction: discord.Interaction,
        whose: discord.User | None = None,
        scope: str | None = None,
    ) -> None:
        """Statistics, here or everywhere."""
        where = scope

        async def run(a: Answering, key: str, here: str) -> None:
            who = player_of(whose) if whose is not None else a.player
            line = await self.service.player_stats(GLOBAL if where == "global" else here, who)
            if line is not None:
                line = dataclasses.replace(line, name=md(line.name))
            await self.replies.answer(a, render.stats_text(line, a.tr))

        await self._command(interaction, run)

    @app_commands.command(name=_s("leaderboard"), description=_help("leaderboard"))
    @app_commands.rename(scope=_s("scope"))
    @app_commands.describe(scope=_opt("scope"))
    @app_commands.choices(scope=SCOPES)
    async def leaderboard(
        self, interaction: discord.Interaction, scope: str | None = None
    ) -> None:
        """The best players, for everyone to see, in the server's language."""
        where = scope

        async def run(a: Answering, key: str, here: str) -> None:
            lines = await self.service.leaderboard(GLOBAL if where == "global" else here, 10)
            lines = [dataclasses.replace(s, name=md(s.name)) for s in lines]
            tr = self._spoken(here, await self.service.chat_lang(here))
            await self.replies.answer(a, render.leaderboard_text(lines, tr))

        await self._command(interaction, run, ephemeral=False)

    @app_commands.command(name=_s("rank"), description=_help("rank"))
    @app_commands.rename(whose=_s("whose"), name=_s("name"))
    @app_commands.describe(whose=_opt("rank_whose"), name=_opt("name"))
    async def rank(
        self,
        interaction: discord.Interaction,
        whose: discord.User | None = None,
        name: str | None = None,
    ) -> None:
        """A player's ratings, here and everywhere, to them."""

        async def run(a: Answering, key: str, scope: str) -> None:
            if whose is not None:
                who, label = player_of(whose), whose.display_name
            elif name and name.strip():
                who, label = await self.service.rated_named(scope, name) or "", name.strip()
            else:
                who, label = a.player, display_name(interaction)
            found = await self.service.rank(scope, who)
            ladders = [(ev, s, None if r is None else _md(r)) for ev, s, r in found]
            await self.replies.answer(a, render.rank_text(md(label), ladders, a.tr))

        await self._command(interaction, run)

    @app_commands.command(name=_s("top"), description=_help("top"))
    @app_commands.rename(scope=_s("scope"))
    @app_commands.describe(scope=_opt("scope"))
    @app_commands.choices(scope=SCOPES)
    async def top(self, interaction: discord.Interaction, scope: str | None = None) -> None:
        """The ladders, here or everywhere (the season's and all time's), for everyone to
        see, in the server's language."""
        where = scope

        async def run(a: Answering, key: str, here: str) -> None:
            found = await self.service.top(GLOBAL if where == "global" else here)
            ladders = [(ev, s, [_md(r) for r in lines]) for ev, s, lines in found]
            tr = self._spoken(here, await self.service.chat_lang(here))
            await self.replies.answer(a, render.top_text(ladders, tr))

        await self._command(interaction, run, ephemeral=False)

    @app_commands.command(name=_s("language"), description=_help("language"))
    @app_commands.rename(language=_s("language"), where=_s("where"))
    @app_commands.describe(language=_opt("language"), where=_opt("where"))
    @app_commands.choices(language=LANGUAGE_CHOICES, where=WHERE)
    async def language(
        self, interaction: discord.Interaction, language: str, where: str | None = None
    ) -> None:
        """Your language, or the server's (a member with Manage Channels only: it applies
        to every table of the server, and anyone can host a table)."""

        async def run(a: Answering, key: str, scope: str) -> None:
            if where == "guild":
                await self._server_language(a, key, scope, language)
            else:
                await self._own_language(a, key, language)

        await self._command(interaction, run)

    async def _server_language(self, a: Answering, key: str, scope: str, language: str) -> None:
        """The server's language (``auto``: its Discord locale), through ``bot.ui.press``
        (which refuses a member who is not an admin), said in that language."""
        is_admin = admin(a.interaction)
        if not is_admin:
            await self.replies.answer(a, a.tr.gettext(text.LANGUAGE_ADMINS))
            return
        lang = None if language == "auto" else language
        if lang is not None and lang not in LANGS:
            await self.replies.answer(a, None, told=(Notice("bad_setting"),))
            return
        intent = Language("chat", lang)
        res = await press(self.service, key, a.player, intent, admin=is_admin, scope=scope)
        if res is None or not res.ok:
            await self.replies.answer(a, None, told=res.told if res is not None else ())
        elif lang is None:
            # the server's own setting went: its tables speak its Discord language
            spoken = self._spoken(scope, None)
            await self.replies.answer(a, spoken.gettext(text.LANGUAGE_SERVER_AUTO))
        else:
            said = translator(lang).gettext(text.LANGUAGE_SERVER, language=LANGUAGE_NAMES[lang])
            await self.replies.answer(a, said)

    async def _own_language(self, a: Answering, key: str, language: str) -> None:
        """The user's own language (anything else: their Discord client's), through
        ``bot.ui.press``, said in it; their hand messages speak it from now on."""
        lang = language if language in LANGS else None
        res = await press(self.service, key, a.player, Language("user", lang))
        if res is None or not res.ok:
            await self.replies.answer(a, None, told=res.told if res is not None else ())
            return
        self.ctx.langs.remember(a.player, lang)
        a.lang = resolve_lang(lang, a.interaction.locale.value)
        self.hands.relang(a.player, a.lang)
        if lang is None:
            await self.replies.answer(a, a.tr.gettext(text.LANGUAGE_AUTO))
        else:
            await self.replies.answer(
                a, a.tr.gettext(text.LANGUAGE_ME, language=LANGUAGE_NAMES[lang])
            )

    @app_commands.command(name=_s("addbot"), description=_help("addbot"))
    @app_commands.rename(strategy=_s("strategy"))
    @app_commands.describe(strategy=_opt("strategy"))
    @app_commands.choices(strategy=STRATEGIES)
    async def addbot(self, interaction: discord.Interaction, strategy: str | None = None) -> None:
        """Add a bot seat (host or Manage Channels)."""

        async def run(a: Answering, key: str, scope: str) -> None:
            res = await self.service.add_bot(
                key, a.player, strategy or None, admin=admin(a.interaction)
            )
            await self._done(a, res)

        await self._command(interaction, run)

    @app_commands.command(name=_s("help"), description=_help("help"))
    async def help(self, interaction: discord.Interaction) -> None:
        """How to play."""

        async def run(a: Answering, key: str, scope: str) -> None:
            await self.replies.answer(a, render.help_text(a.tr, "discord"))

        await self._command(interaction, run)


def _md(r: Rating) -> Rating:
    """A rating with its player's name escaped for Discord's markdown."""
    return dataclasses.replace(r, name=md(r.name))


class CommandTranslator(app_commands.Translator):
    """Names and descriptions of the commands in Simplified and Traditional Chinese."""

    def __init__(self) -> None:
        self._names: dict[str, tuple[dict[str, str], dict[str, str]]] = {}

    def _tables(self, tr: Translator) -> tuple[dict[str, str], dict[str, str]]:
        found = self._names.get(tr.lang)
        if found is None:
            found = self._names[tr.lang] = (text.command_names(tr), text.option_names(tr))
        return found

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = LOCALES.get(locale)
        if lang is None:
            return None
        tr = translator(lang)
        message = string.message
        where = context.location
        if where is TranslationContextLocation.group_name:
            return None  # /uno is /uno everywhere
        if where is TranslationContextLocation.command_name:
            found: str | None = self._tables(tr)[0].get(message)
        elif where is TranslationContextLocation.parameter_name:
            found = self._tables(tr)[1].get(message)
        else:
            found = tr.gettext(message)
        return found if found and found != message else None
