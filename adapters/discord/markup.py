"""What the Discord adapter's parts all need and that needs none of them: the keys of
tables, servers and players, names as a message shows them, and what an interaction says
of its user (Manage Channels, whether the bot may post there, the display name)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.port import Notice, TableInfo
from bot.ui import render
from bot.ui.i18n import Translator

__all__ = [
    "TEXT_MAX",
    "admin",
    "as_int",
    "can_post",
    "channel_of",
    "cut",
    "display_name",
    "guild_of",
    "md",
    "md_info",
    "md_names",
    "notice_text",
    "player_of",
    "scope_of",
    "table_key",
]

TEXT_MAX = 2000  # characters in a message's content


def cut(content: str) -> str:
    return content if len(content) <= TEXT_MAX else content[: TEXT_MAX - 1] + "…"


def md(text: str) -> str:
    """``text`` (a name) as it is to read inside a Discord message: its markdown shown as
    typed (no bold, no heading, no masked link, even one made with a neighbouring name: every
    ``]`` is escaped) and no mention that could ping (``@everyone``, ``<@id>``). Button
    labels and menu options show text as it is, so they take names unescaped."""
    escaped = discord.utils.escape_markdown(text, ignore_links=False).replace("]", "\\]")
    return discord.utils.escape_mentions(escaped)


def md_names(names: Mapping[str, str], notices: Sequence[Notice] = ()) -> dict[str, str]:
    """``names`` for a message's text (:func:`md`), with the names ``notices`` carry for
    players who are not in ``names`` (who left: render falls back to them)."""
    out = dict(names)
    for n in notices:
        pid, name = n.params.get("player"), n.params.get("name")
        if isinstance(pid, str) and isinstance(name, str):
            out.setdefault(pid, name)
    return {pid: md(name) for pid, name in out.items()}


def md_info(info: TableInfo) -> TableInfo:
    """``info`` with its seats' names ready for a message's text (:func:`md`)."""
    seats = tuple(dataclasses.replace(s, name=md(s.name)) for s in info.seats)
    return dataclasses.replace(info, seats=seats)


def notice_text(notice: Notice, tr: Translator, names: Mapping[str, str]) -> str:
    """A service notice as a Discord message says it: who else may do what the host may
    is Discord's own check (Manage Channels), and names are escaped."""
    return render.notice_text(notice, tr, md_names(names, (notice,)), platform="dc")


def table_key(channel_id: int) -> str:
    return f"dc:{channel_id}"


def channel_of(key: str) -> int:
    """The channel (or thread) id of a table key ``dc:<channel>``."""
    return int(key.split(":", 1)[1])


def scope_of(guild_id: int) -> str:
    return f"dc:g:{guild_id}"


def guild_of(scope: str) -> int | None:
    """The server id of a scope ``dc:g:<guild>`` (``None`` for any other)."""
    if not scope.startswith("dc:g:"):
        return None
    return as_int(scope.rsplit(":", 1)[1])


def player_of(user: discord.abc.Snowflake) -> str:
    return f"dc:{user.id}"


def as_int(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def admin(interaction: discord.Interaction[Any]) -> bool:
    """Members with Manage Channels may run any table in their server."""
    return bool(interaction.permissions.manage_channels)


# what the bot needs where a table is: to see the channel and post the table message in
# it or in its threads (its own messages it may always edit; hands are interaction
# answers). ``can_post`` checks these, and the invite link asks for them (``invite_url``)
POSTING = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True)


def can_post(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may post the table message where ``interaction`` came from."""
    perms = interaction.app_permissions
    if perms.value == 0:
        return True  # not said (Discord always sends them now): let the posting tell
    thread = isinstance(interaction.channel, discord.Thread)
    send = perms.send_messages_in_threads if thread else perms.send_messages
    return perms.view_channel and send


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server: its user (``bot``), the ``/uno`` commands
    (``applications.commands``) and the permissions it uses (``POSTING``)."""
    return discord.utils.oauth_url(
        application_id, permissions=POSTING, scopes=("bot", "applications.commands")
    )


def display_name(interaction: discord.Interaction[Any]) -> str:
    return interaction.user.display_name
