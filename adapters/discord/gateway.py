"""The connection to Discord: the discord.py client (shards, the command tree, the dynamic
items), the identify pacing Discord asks of every process, and the commands' registration
(only when Discord's differ)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from adapters.discord import items
from adapters.discord.commands import CommandTranslator, UnoCommands
from adapters.discord.markup import as_int
from adapters.discord.protocols import Commands, Components
from bot.ops import metrics
from bot.service import Service

__all__ = ["IDENTIFY_SECONDS", "IdentifyPacer", "UnoClient", "shards_label", "sync_commands"]

log = logging.getLogger(__name__)

# Discord lets ``max_concurrency`` shards IDENTIFY per 5 seconds: one per bucket
# (``shard_id % max_concurrency``), for the whole bot, whichever process runs the shard
IDENTIFY_SECONDS = 5.0

CommandFailed = Callable[
    [discord.Interaction[Any], app_commands.AppCommandError], Coroutine[Any, Any, None]
]


class IdentifyPacer:
    """Spaces the shards' IDENTIFYs as Discord asks: one per bucket every 5 seconds."""

    def __init__(self, service: Service, seconds: float = IDENTIFY_SECONDS) -> None:
        self.service = service
        self.seconds = seconds
        self.max_concurrency = 1
        self._identified: dict[int, float] = {}  # identify bucket -> when this process last did
        self._identifies = 0

    async def turn(self, shard_id: int | None) -> None:
        """Wait until ``shard_id`` may IDENTIFY: Discord allows one identify per bucket
        (``shard_id % max_concurrency``) every 5 seconds for the whole bot. This process
        spaces its own; on a shared database a lease per bucket (``dc:identify:<bucket>``,
        held 5 seconds) spaces those of every process, so processes starting together (or
        one restarting) take turns instead of having sessions refused."""
        bucket = (shard_id or 0) % self.max_concurrency
        last = self._identified.get(bucket)
        if last is not None:
            wait = last + self.seconds - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        if self.service.shared:
            self._identifies += 1
            owner = f"{self.service.worker}:{shard_id}:{self._identifies}"  # each identify's own
            name = f"dc:identify:{bucket}"
            while not await self.service.lease(name, self.seconds, owner=owner):
                await asyncio.sleep(0.2)
        self._identified[bucket] = time.monotonic()


class UnoClient(discord.AutoShardedClient):
    """The discord.py client: one command tree, the dynamic items, and where their
    interactions go (``components``, ``commands``). Sharded: ``shard_ids`` of
    ``shard_count`` (``UNO_DISCORD_SHARDS``), or (both ``None``) every shard Discord
    recommends (discord.py asks ``/gateway/bot``). ``guilds``: where the commands are
    registered (none: globally); ``sync``: whether this process registers them."""

    def __init__(
        self,
        components: Components,
        commands: Commands,
        pacer: IdentifyPacer,
        command_failed: CommandFailed,
        *,
        sync: bool = True,
        guilds: Sequence[int] = (),
        guild_ready_timeout: float = 2.0,
        shard_ids: Sequence[int] | None = None,
        shard_count: int | None = None,
    ) -> None:
        # never in a voice channel: discord.py's two warnings at a first client that voice
        # is unsupported (no PyNaCl, no davey) are noise here. These are its own switches
        # for them (it clears each once said), not a log filter: nothing else is hidden
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channels, threads and the guild's locale
        shards: dict[str, Any] = {}
        if shard_ids is not None:
            shards = {"shard_ids": list(shard_ids), "shard_count": shard_count}
        super().__init__(
            intents=intents,
            max_messages=None,
            guild_ready_timeout=guild_ready_timeout,
            # display names go into table texts: none of them may ever ping anyone
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=metrics.aiohttp_trace("dc", lambda: shards_label(self)),  # counts 429s
            **shards,
        )
        self.components = components
        self.commands = commands
        self.pacer = pacer
        self.command_failed = command_failed
        self.sync = sync
        self.command_guilds = tuple(guilds)
        self.tree: app_commands.CommandTree[UnoClient] = app_commands.CommandTree(self)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # Discord's identify limit, not discord.py's flat 5 s between any two shards
        await self.pacer.turn(shard_id)

    async def setup_hook(self) -> None:
        # buttons and selects keep working after a restart: one template per kind of control
        self.add_dynamic_items(*items.DYNAMIC_ITEMS)
        await self.tree.set_translator(CommandTranslator())
        self.tree.add_command(UnoCommands(self.commands))
        self.tree.on_error = self.command_failed  # type: ignore[method-assign]
        if self.sync:
            await sync_commands(self, self.command_guilds)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A component that no template claims (not ``uno:...``) is refused, not ignored;
        one that discord.py will not hand to its template (below) is handled here."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, Any] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not items.claimed(custom_id):
            await self.components.refuse_unknown(interaction)
        elif not _dispatched(interaction, custom_id):
            # discord.py calls a DynamicItem only when the message the interaction carries
            # still shows that component; a click that raced an edit of the message (the
            # table moves on every turn) carries the edited message, and would go
            # unanswered. The adapter checks the id and its version like any other press.
            values = items.select_values(interaction)
            await self.components.on_component(
                interaction, custom_id, values, select=_is_select(data)
            )


def shards_label(client: discord.Client) -> str:
    """The shards ``client`` runs, as a metrics label (``"0-1/4"``; ``""``: unsharded)."""
    one = client.shard_id
    ids = getattr(client, "shard_ids", None) or ([] if one is None else [one])
    return metrics.shard_range(ids, client.shard_count)


def _is_select(data: Mapping[str, Any]) -> bool:
    return as_int(data.get("component_type")) not in (None, discord.ComponentType.button.value)


def _dispatched(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Whether discord.py's view store hands this component interaction to a dynamic item:
    only when the message it carries has a component of that type and ``custom_id``
    (``ViewStore.schedule_dynamic_item_call``)."""
    msg = interaction.message
    if msg is None:
        return False
    data: Mapping[str, Any] = interaction.data or {}
    kind = as_int(data.get("component_type"))
    try:
        found = items.message_components(msg)
    except Exception:  # a message discord.py cannot read back: it would not dispatch
        return False
    return any(c.type.value == kind and getattr(c, "custom_id", None) == custom_id for c in found)


# -- registering the commands --------------------------------------------------------------


async def sync_commands(client: UnoClient, guilds: Sequence[int]) -> None:
    """Register ``/uno`` unless Discord already has exactly these commands (``guilds``:
    in those servers only; none: globally)."""
    if client.application_id is None:
        return
    app, tree = client.application_id, client.tree
    translator_ = tree.translator
    assert translator_ is not None
    wanted = [await c.get_translated_payload(tree, translator_) for c in tree.get_commands()]
    if not guilds:
        if _same_commands(await client.http.get_global_commands(app), wanted):
            log.info("discord: application commands are up to date")
            return
        await tree.sync()
        log.info("discord: application commands synced")
        return
    # UNO_DISCORD_GUILDS: registered in those servers only (a server's commands change
    # at once; global ones are left as they are)
    for gid in guilds:
        guild = discord.Object(gid)
        tree.copy_global_to(guild=guild)
        try:
            if _same_commands(await client.http.get_guild_commands(app, gid), wanted):
                log.info("discord: application commands of server %s are up to date", gid)
                continue
            await tree.sync(guild=guild)
            log.info("discord: application commands synced in server %s", gid)
        except discord.HTTPException as e:  # not in that server, or no access
            log.warning("discord: commands not registered in server %s: %s", gid, e)


def _normal(cmd: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a command that matter for deciding whether to sync."""
    return {
        "name": cmd.get("name"),
        "description": cmd.get("description", ""),
        "type": cmd.get("type", 1),
        "name_localizations": cmd.get("name_localizations") or {},
        "description_localizations": cmd.get("description_localizations") or {},
        "required": bool(cmd.get("required", False)),
        "choices": [
            {
                "name": c.get("name"),
                "value": c.get("value"),
                "name_localizations": c.get("name_localizations") or {},
            }
            for c in cmd.get("choices") or ()
        ],
        "options": [_normal(o) for o in cmd.get("options") or ()],
    }


def _same_commands(have: Sequence[Mapping[str, Any]], wanted: Sequence[Mapping[str, Any]]) -> bool:
    a = sorted((_normal(c) for c in have), key=lambda c: str(c["name"]))
    b = sorted((_normal(c) for c in wanted), key=lambda c: str(c["name"]))
    return a == b
