"""What the gateway side (the client, the ``/uno`` group, the dynamic items) needs of the
adapter, as protocols: they call it without importing it (the adapter imports them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import discord

__all__ = ["Commands", "Components", "ComponentsClient"]


class Components(Protocol):
    """Where component interactions go."""

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        custom_id: str,
        values: Sequence[str],
        *,
        select: bool,
    ) -> None: ...

    async def refuse_unknown(self, interaction: discord.Interaction[Any]) -> None: ...


class ComponentsClient(Protocol):
    """A client whose dynamic items hand their interactions to ``components``."""

    @property
    def components(self) -> Components: ...


class Commands(Protocol):
    """Where each ``/uno`` subcommand goes (``slash.SlashCommands``)."""

    async def cmd_new(self, interaction: discord.Interaction[Any], preset: str | None) -> None: ...

    async def cmd_simple(self, interaction: discord.Interaction[Any], what: str) -> None: ...

    async def cmd_kick(
        self, interaction: discord.Interaction[Any], member: discord.abc.User | None
    ) -> None: ...

    async def cmd_hand(self, interaction: discord.Interaction[Any]) -> None: ...

    async def cmd_rules(self, interaction: discord.Interaction[Any]) -> None: ...

    async def cmd_settings(self, interaction: discord.Interaction[Any]) -> None: ...

    async def cmd_stats(
        self,
        interaction: discord.Interaction[Any],
        member: discord.abc.User | None,
        where: str | None,
    ) -> None: ...

    async def cmd_leaderboard(
        self, interaction: discord.Interaction[Any], where: str | None
    ) -> None: ...

    async def cmd_rank(
        self,
        interaction: discord.Interaction[Any],
        member: discord.abc.User | None,
        name: str | None,
    ) -> None: ...

    async def cmd_top(self, interaction: discord.Interaction[Any], where: str | None) -> None: ...

    async def cmd_language(
        self, interaction: discord.Interaction[Any], language: str, where: str | None
    ) -> None: ...

    async def cmd_addbot(
        self, interaction: discord.Interaction[Any], strategy: str | None
    ) -> None: ...

    async def cmd_help(self, interaction: discord.Interaction[Any]) -> None: ...
