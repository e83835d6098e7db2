"""The ``/uno`` command group and its translations (zh-CN, zh-TW) for Discord's clients.

Commands are transport only (STYLE.md): each hands the interaction to its handler
(``protocols.Commands``: the adapter's ``slash.SlashCommands``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, TranslationContextLocation, locale_str

from adapters.discord import text
from adapters.discord.protocols import Commands
from bot import render
from bot.i18n import LANGUAGE_NAMES, Translator, translator

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
LANGUAGES = [Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()] + [
    Choice(name=_s(text.PRIVATE_CHOICES["auto"]), value="auto")
]
WHERE = [Choice(name=_s(text.PRIVATE_CHOICES[s]), value=s) for s in ("me", "guild")]


class UnoCommands(app_commands.Group):
    """``/uno ...``: every subcommand hands its interaction to ``handler``, which defers
    it at once and does the rest."""

    def __init__(self, handler: Commands) -> None:
        super().__init__(
            name=_s("uno"),
            description=_s(text.GROUP_DESCRIPTION),
            guild_only=True,
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            allowed_installs=app_commands.AppInstallationType(guild=True),
        )
        self.handler = handler

    @app_commands.command(name=_s("new"), description=_help("new"))
    @app_commands.rename(preset=_s("preset"))
    @app_commands.describe(preset=_opt("preset"))
    @app_commands.choices(preset=PRESETS)
    async def new(self, interaction: discord.Interaction, preset: str | None = None) -> None:
        """Open a table in this channel (or thread)."""
        await self.handler.cmd_new(interaction, preset)

    @app_commands.command(name=_s("join"), description=_help("join"))
    async def join(self, interaction: discord.Interaction) -> None:
        """Sit down at the table."""
        await self.handler.cmd_simple(interaction, "join")

    @app_commands.command(name=_s("start"), description=_help("start"))
    async def start(self, interaction: discord.Interaction) -> None:
        """Deal (host or Manage Channels)."""
        await self.handler.cmd_simple(interaction, "start")

    @app_commands.command(name=_s("leave"), description=_help("leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the table."""
        await self.handler.cmd_simple(interaction, "leave")

    @app_commands.command(name=_s("kick"), description=_help("kick"))
    @app_commands.rename(player=_s("player"))
    @app_commands.describe(player=_opt("player"))
    async def kick(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        """Remove a player (host or Manage Channels). A ``User``, not a ``Member``: one who
        left the server is still at the table, and must be removable by name."""
        await self.handler.cmd_kick(interaction, player)

    @app_commands.command(name=_s("stop"), description=_help("stop"))
    async def stop(self, interaction: discord.Interaction) -> None:
        """End the game (host or Manage Channels)."""
        await self.handler.cmd_simple(interaction, "stop")

    @app_commands.command(name=_s("hand"), description=_help("hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your cards, privately."""
        await self.handler.cmd_hand(interaction)

    @app_commands.command(name=_s("rules"), description=_help("rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        """This table's rules."""
        await self.handler.cmd_rules(interaction)

    @app_commands.command(name=_s("settings"), description=_help("settings"))
    async def settings(self, interaction: discord.Interaction) -> None:
        """Change the rules (host or Manage Channels)."""
        await self.handler.cmd_settings(interaction)

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
        """Statistics of a player, here or everywhere."""
        await self.handler.cmd_stats(interaction, whose, scope)

    @app_commands.command(name=_s("leaderboard"), description=_help("leaderboard"))
    @app_commands.rename(scope=_s("scope"))
    @app_commands.describe(scope=_opt("scope"))
    @app_commands.choices(scope=SCOPES)
    async def leaderboard(
        self, interaction: discord.Interaction, scope: str | None = None
    ) -> None:
        """The best players, here or everywhere."""
        await self.handler.cmd_leaderboard(interaction, scope)

    @app_commands.command(name=_s("language"), description=_help("language"))
    @app_commands.rename(language=_s("language"), where=_s("where"))
    @app_commands.describe(language=_opt("language"), where=_opt("where"))
    @app_commands.choices(language=LANGUAGES, where=WHERE)
    async def language(
        self, interaction: discord.Interaction, language: str, where: str | None = None
    ) -> None:
        """Your language, or the server's (Manage Channels)."""
        await self.handler.cmd_language(interaction, language, where)

    @app_commands.command(name=_s("addbot"), description=_help("addbot"))
    @app_commands.rename(strategy=_s("strategy"))
    @app_commands.describe(strategy=_opt("strategy"))
    @app_commands.choices(strategy=STRATEGIES)
    async def addbot(self, interaction: discord.Interaction, strategy: str | None = None) -> None:
        """Add a bot seat (host or Manage Channels)."""
        await self.handler.cmd_addbot(interaction, strategy)

    @app_commands.command(name=_s("help"), description=_help("help"))
    async def help(self, interaction: discord.Interaction) -> None:
        """How to play."""
        await self.handler.cmd_help(interaction)


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
