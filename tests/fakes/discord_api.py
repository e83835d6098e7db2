"""A local fake Discord: the REST routes the bot uses and a gateway WebSocket.

It speaks Discord's wire format closely enough for the real discord.py client: plain-text
JSON gateway frames (HELLO, IDENTIFY -> READY and GUILD_CREATE, heartbeats and their ACKs,
RESUME or a fresh IDENTIFY, INTERACTION_CREATE), sharded as Discord shards (``/gateway/bot``
recommends one shard per 1,000 servers and says how many may identify at once; an
IDENTIFY's ``shard: [id, count]`` gets the servers with ``(guild_id >> 22) % count == id``
and their events, direct messages go to shard 0; a session that would carry 2,500 servers
or more is closed with 4011, "sharding required", and a shard id out of range with 4010),
application commands (global and guild),
interaction callbacks of every type, webhook follow-ups and edits of ``@original``, channel
messages, each as JSON or as multipart/form-data with files (a ``payload_json`` part and
``files[n]`` parts; the ``attachments`` array names new files by ``n`` and, on an edit, the
attachments to keep by id: the others go). It enforces the platform limits a bot can trip
over (3 s to acknowledge, 15 min interaction tokens, one acknowledgement, component,
content and attachment limits) and records every message as each user saw it, with whom it
mentioned (``allowed_mentions`` applied as Discord does), so tests can assert on what was
shown to whom.

Scripted users drive it: ``await fake.slash(user, channel, "join")``, ``await
fake.press(user, message, label="Join")``.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import itertools
import json
import mimetypes
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

__all__ = ["AppEmoji", "Attachment", "FakeDiscord", "Interaction", "Message", "Shown"]

DISCORD_EPOCH = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
MANAGE_CHANNELS = 1 << 4
MENTION_EVERYONE = 1 << 17
VIEW_CHANNEL, SEND_MESSAGES, SEND_IN_THREADS = 1 << 10, 1 << 11, 1 << 38
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)  # view, send, history, commands
ADMIN_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_CHANNELS
# what the bot is invited with (README): View Channels, Send Messages (in Threads)
BOT_PERMISSIONS = ADMIN_PERMISSIONS | SEND_IN_THREADS

# callback types
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE, MODAL = 8, 9

# sharding (Discord's gateway documentation): a session carries fewer than this many servers
# (else close 4011), and /gateway/bot recommends a shard per this many
SHARD_GUILD_LIMIT = 2500
GUILDS_PER_SHARD = 1000
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011

JSON: web.RequestKey[Any] = web.RequestKey("json", object)
FILES: web.RequestKey[dict[int, Upload]] = web.RequestKey("files", dict)
MAX_ATTACHMENTS = 10
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # what the interactions say (attachment_size_limit)
# what Discord says of a component's emoji it does not know (a deleted custom emoji's id),
# under the emoji's field in "errors" (the same code for a select option's emoji)
INVALID_EMOJI = {"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}
_NAME = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
# mentions in a message's content, as Discord's client and server read them
_USER_MENTION = re.compile(r"<@!?([0-9]{17,20})>")
_ROLE_MENTION = re.compile(r"<@&([0-9]{17,20})>")
_EVERYONE = re.compile(r"@(?:everyone|here)")


def _now_iso(t: float | None = None) -> str:
    return datetime.fromtimestamp(time.time() if t is None else t, UTC).isoformat()


class _Snowflakes:
    def __init__(self) -> None:
        self._n = itertools.count()

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH
        return (ms << 22) | (next(self._n) & 0x3FFFFF)


def _json(data: Any, status: int = 200) -> web.Response:
    # exactly "application/json", as Discord sends it (discord.py compares the header)
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def response(self) -> web.Response:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors is not None:
            body["errors"] = self.errors
        return _json(body, status=self.status)


# -- uploads ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Upload:
    """A ``files[n]`` part of a multipart request."""

    filename: str
    content_type: str
    data: bytes


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_PARAM = re.compile(r'\b(name|filename)="([^"]*)"')
_FILES_FIELD = re.compile(r"^files\[(\d+)\]$")


def parse_multipart(raw: bytes, content_type: str) -> tuple[Any, dict[int, Upload]]:
    """A multipart/form-data body as Discord reads it: the JSON of ``payload_json`` and the
    files of the ``files[n]`` parts, by ``n``."""
    m = _BOUNDARY.search(content_type)
    if m is None:
        raise ApiError(400, 50035, "Invalid Form Body", "multipart without a boundary")
    delimiter = b"--" + m.group(1).encode()
    payload: Any = None
    files: dict[int, Upload] = {}
    for chunk in raw.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break  # the closing delimiter
        head, sep, body = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        if not sep:
            raise ApiError(400, 50035, "Invalid Form Body", "a malformed multipart part")
        body = body.removesuffix(b"\r\n")
        headers: dict[str, str] = {}
        for line in head.decode("utf-8", errors="replace").split("\r\n"):
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        params = dict(_PARAM.findall(headers.get("content-disposition", "")))
        name = params.get("name", "")
        if name == "payload_json":
            try:
                payload = json.loads(body)
            except ValueError as e:
                raise ApiError(400, 50109, "The request body contains invalid JSON.") from e
        elif (f := _FILES_FIELD.match(name)) is not None and "filename" in params:
            files[int(f.group(1))] = Upload(
                params["filename"], headers.get("content-type", "application/octet-stream"), body
            )
    return payload, files


# -- records -----------------------------------------------------------------------------------


@dataclass
class Attachment:
    """A file on a message: what was uploaded (``data``) and what Discord reports."""

    id: int
    filename: str
    size: int
    content_type: str
    data: bytes
    ephemeral: bool = False
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        url = f"https://cdn.discordapp.invalid/attachments/{self.id}/{self.filename}"
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
            "ephemeral": self.ephemeral,
        }
        if self.description is not None:
            out["description"] = self.description
        size = _image_size(self.data) if self.content_type.startswith("image/") else None
        if size is not None:
            out["width"], out["height"] = size
        return out


@dataclass(eq=False)
class AppEmoji:
    """One of the application's emojis."""

    id: int
    name: str
    data: bytes
    animated: bool = False


def _int_or(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _image_size(data: bytes) -> tuple[int, int] | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


@dataclass(eq=False)
class User:
    id: int
    name: str
    locale: str = "en-US"
    permissions: int = MEMBER_PERMISSIONS
    nick: str | None = None
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member(self, *, with_user: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "nick": self.nick,
            "roles": [],
            "joined_at": _now_iso(0),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "avatar": None,
            "communication_disabled_until": None,
            "permissions": str(self.permissions),
        }
        if with_user:
            out["user"] = self.payload()
        return out

    @property
    def display_name(self) -> str:
        return self.nick or self.name


@dataclass(eq=False)
class Channel:
    id: int
    guild_id: int
    name: str
    parent_id: int | None = None  # set for a thread
    bot_permissions: int = BOT_PERMISSIONS  # the bot's permissions here (overwrites applied)
    archived: bool = False  # a thread archived (by itself, after a while without messages)

    @property
    def is_thread(self) -> bool:
        return self.parent_id is not None

    @property
    def bot_may_send(self) -> bool:
        send = SEND_IN_THREADS if self.is_thread else SEND_MESSAGES
        return self.bot_permissions & (VIEW_CHANNEL | send) == VIEW_CHANNEL | send

    def payload(self) -> dict[str, Any]:
        if self.parent_id is not None:
            return {
                "id": str(self.id),
                "type": 11,
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id),
                "owner_id": "1",
                "name": self.name,
                "last_message_id": None,
                "message_count": 0,
                "member_count": 3,
                "rate_limit_per_user": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _now_iso(),
                    "locked": False,
                },
                "total_message_sent": 0,
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "parent_id": None,
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    locale: str = "en-US"
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, User] = field(default_factory=dict)

    def payload(self, bot: User) -> dict[str, Any]:
        everyone = {
            "id": str(self.id),
            "name": "@everyone",
            "color": 0,
            "hoist": False,
            "position": 0,
            "permissions": str(MEMBER_PERMISSIONS),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(next(iter(self.members), bot.id)),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [everyone],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": _now_iso(0),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members) + 1,
            "voice_states": [],
            "members": [bot.member(), *(u.member() for u in self.members.values())],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.channels.values() if c.is_thread],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass
class Shown:
    """One thing a user saw: a message as created or edited (``audience``: ``None`` for
    everyone in the channel, else the one user of an ephemeral message)."""

    message_id: int
    kind: str  # "create", "edit", "delete"
    audience: int | None
    content: str
    components: list[dict[str, Any]]
    at: float
    via: str  # "channel", "callback", "followup", "original", "webhook"
    attachments: list[Attachment] = field(default_factory=list)  # those it carried then
    pings: tuple[str, ...] = ()  # whom it mentioned: "everyone", "user:<id>", "role:<id>"


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int | None  # None: in a direct message
    author: dict[str, Any]
    content: str = ""
    components: list[dict[str, Any]] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    audience: int | None = None  # the user of an ephemeral message
    interaction_token: str | None = None
    created: float = field(default_factory=time.time)
    edited: float | None = None
    deleted: bool = False
    loading: bool = False
    type: int = 0
    history: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    uploads: list[Attachment] = field(default_factory=list)  # every file it ever carried
    pings: tuple[str, ...] = ()  # whom its content mentions (``mentions``, see ``Shown``)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def payload(self, app_id: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author,
            "content": self.content,
            "timestamp": _now_iso(self.created),
            "edited_timestamp": _now_iso(self.edited) if self.edited else None,
            "tts": False,
            "mention_everyone": "everyone" in self.pings,
            "mentions": [
                {"id": p[5:], "username": p[5:], "discriminator": "0", "avatar": None}
                for p in self.pings
                if p.startswith("user:")
            ],
            "mention_roles": [p[5:] for p in self.pings if p.startswith("role:")],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        if self.interaction_token is not None and app_id is not None:
            out["webhook_id"] = str(app_id)
            out["application_id"] = str(app_id)
        return out

    def buttons(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", ()) if c["type"] == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", ()) if c["type"] == 3]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        for row in self.components:
            for c in row.get("components", ()):
                if c.get("custom_id") == custom_id:
                    found: dict[str, Any] = c
                    return found
        return None


@dataclass
class Interaction:
    """One interaction the fake dispatched, and what the bot did with it."""

    id: int
    token: str
    type: int  # 2 application command, 3 component
    user: User
    channel_id: int
    guild_id: int | None  # None: in a direct message with the bot
    created: float
    source_message: int | None = None
    custom_id: str | None = None
    command: str | None = None
    callback_type: int | None = None
    callback_data: dict[str, Any] | None = None
    acked_at: float | None = None
    late: bool = False
    original: int | None = None
    followups: list[int] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def ack_latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.created


@dataclass
class Hold:
    """A request held back (a slow network between one process and Discord): the first
    that matches waits, having ``arrived``, until ``release()``."""

    method: str
    path: re.Pattern[str]
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        self.released.set()


@dataclass
class Call:
    method: str
    path: str
    body: Any
    at: float
    status: int = 200
    files: list[Upload] = field(default_factory=list)  # the files of a multipart request


# -- the fake ----------------------------------------------------------------------------------


class FakeDiscord:
    """A fake Discord for one bot. ``await start()``, point the bot at ``api_url``."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        ack_deadline: float = 3.0,
        token_ttl: float = 15 * 60,
        heartbeat_ms: int = 41250,
        max_concurrency: int = 1,
    ) -> None:
        self.snowflake = _Snowflakes()
        self.token = token
        self.ack_deadline = ack_deadline
        self.token_ttl = token_ttl
        self.heartbeat_ms = heartbeat_ms
        # how many shards may identify per 5 seconds (1 for most bots, 16 and more for large
        # ones): told in /gateway/bot's session_start_limit
        self.max_concurrency = max_concurrency
        self.session_starts = 1000  # left today (session_start_limit.remaining)
        self.app_id = self.snowflake()
        self.bot = User(self.snowflake(), "UNO Bot", bot=True)
        self.owner = User(self.snowflake(), "Owner")
        self.guilds: dict[int, Guild] = {}
        self.users: dict[int, User] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_puts = 0
        self.refuse_files = False  # answer every upload 413 (a file Discord will not take)
        self.calls: list[Call] = []
        self.errors: list[str] = []
        self.shown: list[Shown] = []
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self._sessions: set[str] = set()
        self._sockets: list[web.WebSocketResponse] = []
        self._identified: set[web.WebSocketResponse] = set()
        # each identified connection's shard (id, count), and each session's
        self._shard: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self._session_shard: dict[str, tuple[int, int]] = {}
        # every IDENTIFY: (monotonic time, shard id, shard count, close code or None)
        self.identify_log: list[tuple[float, int, int, int | None]] = []
        self._seq: dict[int, int] = {}
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.last_activity = time.monotonic()
        self.callback_delay = 0.0  # seconds added before answering an interaction callback
        self.app_emojis: dict[int, AppEmoji] = {}  # the application's emojis, by id
        self._holds: list[Hold] = []

    # -- set-up ---------------------------------------------------------------------------

    def add_guild(
        self, name: str, *, locale: str = "en-US", shard: tuple[int, int] | None = None
    ) -> Guild:
        """A server the bot is in; ``shard=(k, n)``: one whose id puts it on shard ``k`` of
        ``n`` (``(id >> 22) % n == k``)."""
        gid = self.snowflake()
        if shard is not None:
            k, n = shard
            ms = (gid >> 22) - n  # a moment just before now, on that shard
            gid = ((ms - ms % n + k) << 22) | (gid & 0x3FFFFF)
        g = Guild(gid, name, locale)
        self.guilds[g.id] = g
        return g

    def add_guilds(self, count: int) -> None:
        """``count`` more servers the bot is in (no channels, nobody else)."""
        for i in range(count):
            self.add_guild(f"server {len(self.guilds) + i}")

    @staticmethod
    def shard_of(guild_id: int | None, count: int) -> int:
        """The shard that carries ``guild_id``'s events out of ``count`` (direct messages,
        ``None``: shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % count

    def add_channel(self, guild: Guild, name: str, *, parent: Channel | None = None) -> Channel:
        c = Channel(self.snowflake(), guild.id, name, parent.id if parent else None)
        guild.channels[c.id] = c
        self.channels[c.id] = c
        return c

    def add_user(
        self,
        guild: Guild,
        name: str,
        *,
        locale: str = "en-US",
        admin: bool = False,
        nick: str | None = None,
    ) -> User:
        u = User(
            self.snowflake(),
            name,
            locale,
            ADMIN_PERMISSIONS if admin else MEMBER_PERMISSIONS,
            nick,
        )
        guild.members[u.id] = u
        self.users[u.id] = u
        return u

    def remove_member(self, guild: Guild, user: User) -> None:
        """``user`` leaves (or is removed from) ``guild``."""
        guild.members.pop(user.id, None)

    def delete_channel(self, channel: Channel) -> None:
        """A moderator deletes ``channel`` (or a thread): its messages go with it."""
        self.guilds[channel.guild_id].channels.pop(channel.id, None)
        self.channels.pop(channel.id, None)
        for m in self.messages.values():
            if m.channel_id == channel.id:
                m.deleted = True

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware])
        r = app.router
        api = "/api/v10"
        r.add_get("/gateway", self._gateway)
        r.add_get(api + "/gateway", self._get_gateway)
        r.add_get(api + "/gateway/bot", self._get_gateway_bot)
        r.add_get(api + "/users/@me", self._get_me)
        r.add_get(api + "/oauth2/applications/@me", self._get_application)
        r.add_get(api + "/applications/@me", self._get_application)
        r.add_get(api + "/applications/{app}/commands", self._get_commands)
        r.add_put(api + "/applications/{app}/commands", self._put_commands)
        r.add_get(api + "/applications/{app}/guilds/{guild}/commands", self._get_commands)
        r.add_put(api + "/applications/{app}/guilds/{guild}/commands", self._put_commands)
        r.add_post(api + "/interactions/{iid}/{token}/callback", self._callback)
        r.add_post(api + "/webhooks/{app}/{token}", self._followup)
        r.add_get(api + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_get)
        r.add_patch(api + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_edit)
        r.add_delete(api + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_delete)
        r.add_post(api + "/channels/{cid}/messages", self._channel_post)
        r.add_get(api + "/channels/{cid}/messages/{mid}", self._channel_get)
        r.add_patch(api + "/channels/{cid}/messages/{mid}", self._channel_edit)
        r.add_delete(api + "/channels/{cid}/messages/{mid}", self._channel_delete)
        r.add_get(api + "/channels/{cid}", self._get_channel)
        # the application's own emojis (the card set)
        emojis = api + "/applications/{app}/emojis"
        r.add_get(emojis, self._list_emojis)
        r.add_post(emojis, self._create_emoji)
        r.add_get(emojis + "/{eid}", self._get_emoji)
        r.add_patch(emojis + "/{eid}", self._edit_emoji)
        r.add_delete(emojis + "/{eid}", self._delete_emoji)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def close(self) -> None:
        for h in self._holds:
            h.release()
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- HTTP plumbing --------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        self.last_activity = time.monotonic()
        body: Any = None
        files: dict[int, Upload] = {}
        call = Call(request.method, request.path, None, time.monotonic())
        if request.path != "/gateway":
            self.calls.append(call)
        try:
            if request.can_read_body:
                raw = await request.read()
                if request.content_type == "multipart/form-data":
                    body, files = parse_multipart(raw, request.headers.get("Content-Type", ""))
                elif raw:
                    try:
                        body = json.loads(raw)
                    except ValueError:
                        body = raw.decode(errors="replace")
            call.body, call.files = body, [files[n] for n in sorted(files)]
            hold = next(
                (h for h in self._holds
                 if not h.arrived.is_set() and h.method == request.method
                 and h.path.search(request.path)),
                None,
            )  # fmt: skip
            if hold is not None:
                hold.arrived.set()
                await hold.released.wait()
                self._holds.remove(hold)
            request[JSON] = body
            request[FILES] = files
            if files and self.refuse_files:
                raise ApiError(413, 40005, "Request entity too large")
            resp = await handler(request)
        except ApiError as e:
            call.status = e.status
            if e.status >= 400 and e.code not in (10062, 40060, 50027):
                self.errors.append(
                    f"{request.method} {request.path}: {e.code} {e.message} {e.errors}"
                )
            return e.response()
        call.status = resp.status
        self.last_activity = time.monotonic()
        out: web.StreamResponse = resp
        return out

    def _bot_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise ApiError(401, 0, "401: Unauthorized")

    # -- gateway --------------------------------------------------------------------------

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    @property
    def recommended_shards(self) -> int:
        """What /gateway/bot recommends: about one shard per 1,000 servers."""
        return max(1, -(-len(self.guilds) // GUILDS_PER_SHARD))

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        self._bot_auth(request)
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": self.session_starts,
                    "reset_after": 24 * 3600 * 1000,
                    "max_concurrency": self.max_concurrency,
                },
            }
        )

    def guilds_of(self, shard: tuple[int, int]) -> list[Guild]:
        """The servers a session of ``shard`` (id, count) carries."""
        k, n = shard
        return [g for g in self.guilds.values() if self.shard_of(g.id, n) == k]

    def _shard_refusal(self, shard: Any) -> tuple[tuple[int, int] | None, int | None]:
        """The shard an IDENTIFY asks for (none: ``[0, 1]``), and the close code Discord
        answers it with, if any: 4010 for a shard that cannot exist, 4011 for a session
        that would carry too many servers."""
        if shard is None:
            shard = [0, 1]
        if (
            not isinstance(shard, list)
            or len(shard) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in shard)
            or not 0 <= shard[0] < shard[1]
        ):
            return None, INVALID_SHARD
        k, n = shard
        if len(self.guilds_of((k, n))) >= SHARD_GUILD_LIMIT:
            return (k, n), SHARDING_REQUIRED
        return (k, n), None

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=None, compress=False, max_msg_size=0)
        await ws.prepare(request)
        self._sockets.append(ws)
        sid = id(ws)
        self._seq[sid] = 0
        await ws.send_str(
            json.dumps(
                {"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms}, "s": None, "t": None}
            )
        )
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == 1:  # heartbeat
                    self.heartbeats += 1
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:  # identify
                    if d.get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    shard, refused = self._shard_refusal(d.get("shard"))
                    k, n = shard if shard is not None else (-1, 0)
                    self.identify_log.append((time.monotonic(), k, n, refused))
                    if refused == INVALID_SHARD:
                        await ws.close(code=refused, message=b"Invalid shard.")
                        break
                    if refused == SHARDING_REQUIRED:
                        await ws.close(code=refused, message=b"Sharding required.")
                        break
                    assert shard is not None
                    self.identifies += 1
                    self.session_starts -= 1
                    session = secrets.token_hex(16)
                    self._sessions.add(session)
                    self._session_shard[session] = shard
                    self._shard[ws] = shard
                    self._identified.add(ws)
                    await self._send(ws, "READY", self._ready(session, shard))
                    for g in self.guilds_of(shard):
                        await self._send(ws, "GUILD_CREATE", g.payload(self.bot))
                elif op == 6:  # resume
                    if d.get("token") == self.token and d.get("session_id") in self._sessions:
                        self.resumes += 1
                        self._shard[ws] = self._session_shard[d["session_id"]]
                        self._identified.add(ws)
                        self._seq[sid] = int(d.get("seq") or 0)
                        await self._send(ws, "RESUMED", {})
                    else:
                        await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
            self._identified.discard(ws)
            self._shard.pop(ws, None)
        return ws

    def _ready(self, session: str, shard: tuple[int, int]) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds_of(shard)],
            "session_id": session,
            "resume_gateway_url": self.gateway_url,
            "shard": list(shard),
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
        }

    async def _send(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        sid = id(ws)
        self._seq[sid] = self._seq.get(sid, 0) + 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq[sid], "d": data}))

    def _carriers(self, guild_id: int | None) -> list[web.WebSocketResponse]:
        """The live sessions that receive ``guild_id``'s events (``None``: a direct
        message's, shard 0's)."""
        return [
            ws
            for ws in self._sockets
            if ws in self._identified
            and not ws.closed
            and ws in self._shard
            and self.shard_of(guild_id, self._shard[ws][1]) == self._shard[ws][0]
        ]

    async def dispatch(self, event: str, data: Any, *, guild_id: int | None = None) -> None:
        """Send an event of ``guild_id`` (``None``: not a server's, a direct message's) to
        the sessions of the shard that carries it."""
        for ws in self._carriers(guild_id):
            await self._send(ws, event, data)

    def carried(self, guild_id: int | None) -> bool:
        """Whether a live session carries ``guild_id``'s events now."""
        return bool(self._carriers(guild_id))

    @property
    def shards_connected(self) -> set[int]:
        """The shard ids with a live session."""
        return {
            self._shard[ws][0]
            for ws in self._sockets
            if ws in self._identified and not ws.closed and ws in self._shard
        }

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every gateway connection (the bot reconnects and resumes)."""
        for ws in list(self._sockets):
            await ws.close(code=code, message=b"fake reconnect")

    @property
    def connected(self) -> int:
        return sum(1 for ws in self._sockets if ws in self._identified and not ws.closed)

    # -- users and the application ----------------------------------------------------------

    async def _get_me(self, request: web.Request) -> web.Response:
        self._bot_auth(request)
        return _json({**self.bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0})

    async def _get_application(self, request: web.Request) -> web.Response:
        self._bot_auth(request)
        return _json(
            {
                "id": str(self.app_id),
                "name": "UNO",
                "icon": None,
                "description": "UNO for servers",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": self.bot.payload(),
                "terms_of_service_url": None,
                "privacy_policy_url": None,
                "owner": self.owner.payload(),
                "verify_key": "0" * 64,
                "team": None,
                "guild_id": None,
                "flags": 0,
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": len(self.guilds),
            }
        )

    # -- application emojis ----------------------------------------------------------------
    #
    # What Discord documents (List, Get, Create, Modify and Delete Application Emoji): the
    # name is 2-32 of [A-Za-z0-9_] and unique in the application, the image a data URI
    # (PNG, JPEG, GIF, WebP, AVIF) of at most 256 KiB, 2,000 emojis an application; a list
    # is ``{"items": [...]}``. Any server the bot is in shows them, in messages and on
    # components (where an emoji must be one that exists).

    def _app(self, request: web.Request) -> None:
        self._bot_auth(request)
        if request.match_info["app"] != str(self.app_id):
            raise ApiError(404, 10002, "Unknown Application")

    def _app_emoji(self, request: web.Request) -> AppEmoji:
        self._app(request)
        found = self.app_emojis.get(_int_or(request.match_info["eid"]))
        if found is None:
            raise ApiError(404, 10014, "Unknown Emoji")
        return found

    def _emoji_name(self, name: Any, *, other_than: int | None = None) -> str:
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{2,32}", name):
            raise ApiError(
                400, 50035, "Invalid Form Body",
                {"name": {"_errors": [{"code": "STRING_TYPE_REGEX",
                                       "message": "Must be 2-32 of A-Z, a-z, 0-9 and _"}]}},
            )  # fmt: skip
        for e in self.app_emojis.values():
            if e.name.lower() == name.lower() and e.id != other_than:
                raise ApiError(
                    400, 50035, "Invalid Form Body",
                    {"name": {"_errors": [{"code": "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                                           "message": "Emoji name already taken"}]}},
                )  # fmt: skip
        return name

    def _emoji_payload(self, e: AppEmoji) -> dict[str, Any]:
        return {
            "id": str(e.id),
            "name": e.name,
            "roles": [],
            "user": self.owner.payload(),
            "require_colons": True,
            "managed": False,
            "animated": e.animated,
            "available": True,
        }

    async def _list_emojis(self, request: web.Request) -> web.Response:
        self._app(request)
        return _json({"items": [self._emoji_payload(e) for e in self.app_emojis.values()]})

    async def _get_emoji(self, request: web.Request) -> web.Response:
        return _json(self._emoji_payload(self._app_emoji(request)))

    async def _create_emoji(self, request: web.Request) -> web.Response:
        self._app(request)
        body = request[JSON] if isinstance(request[JSON], dict) else {}
        name = self._emoji_name(body.get("name"))
        m = re.fullmatch(
            r"data:image/(png|jpeg|gif|webp|avif);base64,([A-Za-z0-9+/=]+)", str(body.get("image"))
        )
        try:
            data = base64.b64decode(m.group(2), validate=True) if m else b""
        except binascii.Error:
            data = b""
        if not data or (m is not None and m.group(1) == "png" and _image_size(data) is None):
            raise ApiError(
                400, 50035, "Invalid Form Body",
                {"image": {"_errors": [{"code": "IMAGE_INVALID",
                                        "message": "Invalid image data"}]}},
            )  # fmt: skip
        if len(data) > 256 * 1024:
            raise ApiError(400, 50138, "Failed to resize asset below the maximum size: 262144")
        if len(self.app_emojis) >= 2000:
            raise ApiError(400, 30008, "Maximum number of emojis reached (2000)")
        assert m is not None
        e = AppEmoji(self.snowflake(), name, data, m.group(1) == "gif")
        self.app_emojis[e.id] = e
        return _json(self._emoji_payload(e), status=201)

    async def _edit_emoji(self, request: web.Request) -> web.Response:
        e = self._app_emoji(request)
        body = request[JSON] if isinstance(request[JSON], dict) else {}
        if "name" in body:
            e.name = self._emoji_name(body["name"], other_than=e.id)
        return _json(self._emoji_payload(e))

    async def _delete_emoji(self, request: web.Request) -> web.Response:
        e = self._app_emoji(request)
        del self.app_emojis[e.id]
        return web.Response(status=204)

    def _check_emojis(self, data: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
        """Discord refuses a component showing a custom emoji that does not exist (or is
        not the application's: this fake's guilds have none), and a button with neither
        a label nor an emoji. The first are answered as Discord answers them (a 400, code
        50035 "Invalid Form Body", each emoji's field under ``errors`` at its path:
        ``components.0.components.1.emoji.id`` with the code
        ``BUTTON_COMPONENT_INVALID_EMOJI``, "Invalid emoji", select options included);
        the rest as this fake's other problems (text)."""
        problems: list[str] = []
        errors: dict[str, Any] = {}

        def invalid(path: list[str], field: str) -> None:
            node = errors
            for part in [*path, "emoji"]:
                node = node.setdefault(part, {})
            node[field] = {"_errors": [INVALID_EMOJI]}

        def check(emoji: Any, path: list[str]) -> None:
            if emoji is None:
                return
            eid = emoji.get("id") if isinstance(emoji, dict) else None
            if eid is None:
                if not isinstance(emoji, dict) or not emoji.get("name"):
                    invalid(path, "name")
                return
            if _int_or(eid) not in self.app_emojis:
                invalid(path, "id")

        for r, row in enumerate(data.get("components") or ()):
            items = row.get("components") or () if isinstance(row, dict) else ()
            for i, c in enumerate(items):
                at = ["components", str(r), "components", str(i)]
                if c.get("type") == 2:
                    if not c.get("label") and not c.get("emoji"):
                        problems.append("a button without a label or an emoji")
                    check(c.get("emoji"), at)
                elif c.get("type") == 3:
                    for o, option in enumerate(c.get("options") or ()):
                        check(option.get("emoji"), [*at, "options", str(o)])
        return problems, errors

    def _check_body(self, data: dict[str, Any]) -> None:
        """Refuse a message body as Discord would (``check_message``, ``_check_emojis``)."""
        problems, errors = self._check_emojis(data)
        problems = check_message(data) + problems
        if problems:
            raise ApiError(400, 50035, "Invalid Form Body", problems)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors)

    async def _get_channel(self, request: web.Request) -> web.Response:
        self._bot_auth(request)
        c = self.channels.get(int(request.match_info["cid"]))
        if c is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return _json(c.payload())

    # -- application commands ---------------------------------------------------------------

    def _commands_for(self, request: web.Request) -> list[dict[str, Any]]:
        guild = request.match_info.get("guild")
        if guild is None:
            return self.global_commands
        if int(guild) not in self.guilds:  # the bot is not in that server
            raise ApiError(403, 50001, "Missing Access")
        return self.guild_commands.setdefault(int(guild), [])

    async def _get_commands(self, request: web.Request) -> web.Response:
        self._bot_auth(request)
        return _json(self._commands_for(request))

    async def _put_commands(self, request: web.Request) -> web.Response:
        self._bot_auth(request)
        body = request[JSON] or []
        errors = [e for cmd in body for e in _check_command(cmd)]
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors)
        out = []
        for cmd in body:
            stored = {
                "id": str(self.snowflake()),
                "application_id": str(self.app_id),
                "version": str(self.snowflake()),
                "default_member_permissions": None,
                "type": 1,
                **cmd,
            }
            if "guild" in request.match_info:
                stored["guild_id"] = request.match_info["guild"]
            out.append(stored)
        self.command_puts += 1
        lst = self._commands_for(request)
        lst[:] = out
        return _json(out)

    # -- interactions: what users do ----------------------------------------------------------

    def _base_interaction(
        self, kind: int, user: User, channel: Channel, data: dict[str, Any]
    ) -> tuple[Interaction, dict[str, Any]]:
        guild = self.guilds[channel.guild_id]
        rec = Interaction(
            id=self.snowflake(),
            token="aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48),
            type=kind,
            user=user,
            channel_id=channel.id,
            guild_id=guild.id,
            created=time.monotonic(),
        )
        payload = {
            "id": str(rec.id),
            "application_id": str(self.app_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel": channel.payload(),
            "channel_id": str(channel.id),
            "member": user.member(),
            "token": rec.token,
            "version": 1,
            "app_permissions": str(channel.bot_permissions),
            "locale": user.locale,
            "guild_locale": guild.locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        return rec, payload

    async def _dispatch_interaction(
        self, rec: Interaction, payload: dict[str, Any]
    ) -> Interaction:
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        rec.created = time.monotonic()
        self.last_activity = rec.created
        if not self.carried(rec.guild_id):
            raise RuntimeError(
                f"no session of the bot carries server {rec.guild_id}'s events (its shard)"
            )
        await self.dispatch("INTERACTION_CREATE", payload, guild_id=rec.guild_id)
        return rec

    async def slash(
        self,
        user: User,
        channel: Channel,
        sub: str,
        **options: Any,
    ) -> Interaction:
        """``user`` runs ``/uno <sub> option:value...`` in ``channel``."""
        # a server's own commands first (registered with UNO_DISCORD_GUILDS), then global
        cmds = [*self.guild_commands.get(channel.guild_id, ()), *self.global_commands]
        cmd = next((c for c in cmds if c["name"] == "uno"), None)
        if cmd is None:
            raise AssertionError("the bot registered no /uno command")
        spec = next((o for o in cmd.get("options", ()) if o["name"] == sub), None)
        if spec is None:
            raise AssertionError(f"/uno has no subcommand {sub!r}")
        opts = []
        resolved: dict[str, Any] = {}
        for name, value in options.items():
            if value is None:
                continue
            ospec = next((o for o in spec.get("options", ()) if o["name"] == name), None)
            if ospec is None:
                raise AssertionError(f"/uno {sub} has no option {name!r}")
            if ospec["type"] == 6:  # a user
                u = value
                resolved.setdefault("users", {})[str(u.id)] = u.payload()
                if u.id in self.guilds[channel.guild_id].members:  # not for one who left
                    resolved.setdefault("members", {})[str(u.id)] = u.member(with_user=False)
                opts.append({"name": name, "type": 6, "value": str(u.id)})
            else:
                choices = ospec.get("choices")
                if choices and value not in [c["value"] for c in choices]:
                    raise AssertionError(f"{value!r} is not a choice of {name}")
                opts.append({"name": name, "type": ospec["type"], "value": value})
        data: dict[str, Any] = {
            "id": cmd["id"],
            "name": "uno",
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}],
        }
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        rec, payload = self._base_interaction(2, user, channel, data)
        rec.command = sub
        return await self._dispatch_interaction(rec, payload)

    def hold(self, method: str, path: str) -> Hold:
        """Hold back the next ``method`` request whose path matches ``path`` (a regex)
        until the returned hold is released: it is handled then, as if it came late."""
        h = Hold(method, re.compile(path))
        self._holds.append(h)
        return h

    def expire(self, rec: Interaction) -> None:
        """``rec``'s token runs out now (as 15 minutes after the interaction would)."""
        rec.created -= self.token_ttl + 1.0

    async def dm_slash(self, user: User, sub: str) -> Interaction:
        """``user`` runs ``/uno <sub>`` in their direct messages with the bot (an event of
        no server: shard 0 carries it)."""
        cmd = next((c for c in self.global_commands if c["name"] == "uno"), None)
        if cmd is None:
            raise AssertionError("the bot registered no global /uno command")
        data = {
            "id": cmd["id"],
            "name": "uno",
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": []}],
        }
        dm = self.snowflake()
        rec = Interaction(
            id=self.snowflake(),
            token="aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48),
            type=2,
            user=user,
            channel_id=dm,
            guild_id=None,
            created=time.monotonic(),
            command=sub,
        )
        payload = {
            "id": str(rec.id),
            "application_id": str(self.app_id),
            "type": 2,
            "data": data,
            "channel": {"id": str(dm), "type": 1, "recipients": [user.payload()]},
            "channel_id": str(dm),
            "user": user.payload(),
            "token": rec.token,
            "version": 1,
            "app_permissions": str(MEMBER_PERMISSIONS),
            "locale": user.locale,
            "entitlements": [],
            "authorizing_integration_owners": {"1": str(user.id)},
            "context": 1,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        return await self._dispatch_interaction(rec, payload)

    async def press(
        self,
        user: User,
        message: Message | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        value: str | None = None,
        forge: bool = False,
        stale: bool = False,
    ) -> Interaction:
        """``user`` presses a button (or picks ``value`` in a select) of ``message``.

        With ``forge=True`` the component need not exist: it is slipped into the message as
        a tampered client would, to check that the bot refuses it. With ``stale=True`` it
        is one the message showed before an edit (a click racing the edit): the interaction
        carries the message as it is now, without that component."""
        msg = self.messages[message if isinstance(message, int) else message.id]
        if msg.deleted:
            raise AssertionError("the message was deleted")
        if msg.audience is not None and msg.audience != user.id:
            raise AssertionError(f"{user.name} cannot see message {msg.id}")
        components = msg.components
        comp: dict[str, Any] | None
        if stale:
            # the user's screen was behind: they press a component the message had before
            # it was edited, and Discord sends the message as it is now (without it)
            assert custom_id is not None
            comp = next(
                (
                    c
                    for _, rows in reversed(msg.history)
                    for row in rows
                    for c in row.get("components", ())
                    if c.get("custom_id") == custom_id
                ),
                None,
            )
            if comp is None:
                raise AssertionError(f"message {msg.id} never had {custom_id!r}")
        elif forge:
            assert custom_id is not None
            kind = 3 if value is not None else 2
            fake_item: dict[str, Any] = (
                {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": value}]}
                if kind == 3
                else {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
            )
            # in a row of its own (in place of the last one when all five are taken)
            components = [*components[:4], {"type": 1, "components": [fake_item]}]
            comp = fake_item
        else:
            comp = None
            for c in [*msg.buttons(), *msg.selects()]:
                if custom_id is not None and c.get("custom_id") == custom_id:
                    comp = c
                    break
                if label is not None and c["type"] == 2 and c.get("label") == label:
                    comp = c
                    break
                if label is not None and c["type"] == 3 and c.get("placeholder") == label:
                    comp = c
                    break
            if comp is None:
                raise AssertionError(f"no component {custom_id or label!r} in message {msg.id}")
            if comp.get("disabled"):
                raise AssertionError(f"component {comp.get('custom_id')} is disabled")
            if comp["type"] == 3 and (
                value is None or value not in [o["value"] for o in comp.get("options", ())]
            ):
                raise AssertionError(f"{value!r} is not an option of {comp.get('custom_id')}")
        assert comp is not None
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp["type"] == 3:
            data["values"] = [value]
        channel = self.channels[msg.channel_id]
        rec, payload = self._base_interaction(3, user, channel, data)
        snapshot = msg.payload(self.app_id)
        snapshot["components"] = components
        payload["message"] = snapshot
        rec.source_message = msg.id
        rec.custom_id = comp["custom_id"]
        return await self._dispatch_interaction(rec, payload)

    # -- interactions: what the bot answers ---------------------------------------------------

    async def _callback(self, request: web.Request) -> web.Response:
        if self.callback_delay:
            await asyncio.sleep(self.callback_delay)
        rec = self.interactions.get(int(request.match_info["iid"]))
        if rec is None or rec.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        now = time.monotonic()
        if rec.acked_at is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if now - rec.created > self.ack_deadline:
            rec.late = True
            self.errors.append(f"interaction {rec.id} acknowledged after {now - rec.created:.2f}s")
            raise ApiError(404, 10062, "Unknown interaction")
        body = request[JSON] or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        files = request[FILES]
        if files and kind not in (MESSAGE, UPDATE_MESSAGE):
            raise ApiError(400, 50035, "Invalid Form Body", f"files with callback type {kind}")
        try:
            msg = self._answer(rec, kind, data, files)
        except ApiError as e:
            if isinstance(e.errors, dict):  # the callback's message is its "data"
                e.errors = {"data": e.errors}
            raise
        rec.callback_type = kind
        rec.callback_data = data
        rec.acked_at = now
        rec.done.set()
        callback: dict[str, Any] = {
            "id": str(rec.id),
            "type": rec.type,
            "response_message_loading": kind == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL),
        }
        if rec.original is not None:
            callback["response_message_id"] = str(rec.original)
        out: dict[str, Any] = {"interaction": callback}
        if msg is not None and kind in (MESSAGE, UPDATE_MESSAGE):
            out["resource"] = {"type": kind, "message": msg.payload(self.app_id)}
        return _json(out)

    def _answer(
        self, rec: Interaction, kind: int, data: dict[str, Any], files: dict[int, Upload]
    ) -> Message | None:
        """What an interaction's callback of type ``kind`` makes of its message."""
        msg: Message | None = None
        if kind == MESSAGE:
            msg = self._new_message(rec, data, via="callback", files=files)
            rec.original = msg.id
        elif kind == DEFERRED_MESSAGE:
            msg = self._new_message(
                rec, {"flags": data.get("flags", 0)}, via="callback", loading=True
            )
            rec.original = msg.id
        elif kind == DEFERRED_UPDATE:
            if rec.type != 3:
                raise ApiError(400, 50035, "Invalid Form Body", "type 6 is for components only")
            rec.original = rec.source_message
        elif kind == UPDATE_MESSAGE:
            if rec.type != 3 or rec.source_message is None:
                raise ApiError(400, 50035, "Invalid Form Body", "type 7 is for components only")
            msg = self._edit(self.messages[rec.source_message], data, via="callback", files=files)
            rec.original = msg.id
        elif kind not in (AUTOCOMPLETE, MODAL, PONG):
            raise ApiError(400, 50035, "Invalid Form Body", f"unknown callback type {kind}")
        return msg

    def _token(self, request: web.Request) -> Interaction:
        if int(request.match_info["app"]) != self.app_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        rec = self._by_token.get(request.match_info["token"])
        if rec is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if time.monotonic() - rec.created > self.token_ttl:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if rec.acked_at is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        return rec

    def _webhook_message(self, rec: Interaction, mid: str) -> Message:
        if mid == "@original":
            if rec.original is None:
                raise ApiError(404, 10008, "Unknown Message")
            msg = self.messages[rec.original]
        else:
            msg_id = int(mid)
            if msg_id not in rec.followups and msg_id != rec.original:
                raise ApiError(404, 10008, "Unknown Message")
            msg = self.messages[msg_id]
        if msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._token(request)
        data = request[JSON] or {}
        original = self.messages.get(rec.original) if rec.original is not None else None
        if original is not None and original.loading:
            # the first follow-up after a deferred "thinking" answer replaces it, keeping
            # the ephemeral flag chosen when deferring
            msg = self._edit(
                original,
                {k: v for k, v in data.items() if k != "flags"},
                via="followup",
                files=request[FILES],
            )
        else:
            msg = self._new_message(rec, data, via="followup", files=request[FILES])
            rec.followups.append(msg.id)
        return _json(msg.payload(self.app_id))

    async def _webhook_get(self, request: web.Request) -> web.Response:
        rec = self._token(request)
        return _json(self._webhook_message(rec, request.match_info["mid"]).payload(self.app_id))

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        rec = self._token(request)
        msg = self._webhook_message(rec, request.match_info["mid"])
        data = {k: v for k, v in (request[JSON] or {}).items() if k != "flags"}
        via = "original" if request.match_info["mid"] == "@original" else "webhook"
        self._edit(msg, data, via=via, files=request[FILES])
        return _json(msg.payload(self.app_id))

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        rec = self._token(request)
        msg = self._webhook_message(rec, request.match_info["mid"])
        self._delete(msg, via="webhook")
        return web.Response(status=204)

    # -- channel messages -----------------------------------------------------------------

    def _channel(self, request: web.Request) -> Channel:
        self._bot_auth(request)
        c = self.channels.get(int(request.match_info["cid"]))
        if c is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return c

    def _channel_message(self, request: web.Request) -> Message:
        c = self._channel(request)
        msg = self.messages.get(int(request.match_info["mid"]))
        if msg is None or msg.deleted or msg.channel_id != c.id or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    def _may_send(self, c: Channel) -> None:
        if not c.bot_permissions & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if not c.bot_may_send:
            raise ApiError(403, 50013, "Missing Permissions")

    async def _channel_post(self, request: web.Request) -> web.Response:
        c = self._channel(request)
        self._may_send(c)
        data = request[JSON] or {}
        msg = self._create(
            c.id, c.guild_id, data, audience=None, via="channel", files=request[FILES]
        )
        c.archived = False  # a new message wakes an archived thread up
        return _json(msg.payload(self.app_id))

    async def _channel_get(self, request: web.Request) -> web.Response:
        return _json(self._channel_message(request).payload(self.app_id))

    async def _channel_edit(self, request: web.Request) -> web.Response:
        msg = self._channel_message(request)
        c = self.channels[msg.channel_id]
        if not c.bot_permissions & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if c.archived:
            raise ApiError(400, 50083, "Thread is archived")
        if msg.author.get("id") != str(self.bot.id):
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._edit(msg, request[JSON] or {}, via="channel", files=request[FILES])
        return _json(msg.payload(self.app_id))

    async def _channel_delete(self, request: web.Request) -> web.Response:
        self._delete(self._channel_message(request), via="channel")
        return web.Response(status=204)

    # -- message store ------------------------------------------------------------------------

    def _new_message(
        self,
        rec: Interaction,
        data: dict[str, Any],
        *,
        via: str,
        loading: bool = False,
        files: dict[int, Upload] | None = None,
    ) -> Message:
        flags = int(data.get("flags") or 0)
        audience = rec.user.id if flags & EPHEMERAL else None
        msg = self._create(
            rec.channel_id, rec.guild_id, data, audience=audience, via=via, token=rec.token,
            loading=loading, type_=20 if rec.type == 2 and via == "callback" else 0,
            files=files,
        )  # fmt: skip
        return msg

    def _attachments(
        self,
        data: dict[str, Any],
        files: dict[int, Upload],
        kept: list[Attachment],
        *,
        ephemeral: bool,
    ) -> list[Attachment] | None:
        """The attachments after a create or edit, ``None`` when they stay as they are.

        ``attachments`` in the JSON lists every attachment the message is to have: an
        existing one by its id (on an edit; the others are removed), a new file by the
        ``n`` of its ``files[n]`` part. Without it, the files are added to what is kept."""
        listed = data.get("attachments")
        if listed is None and not files:
            return None
        out: list[Attachment] = []
        used: set[int] = set()

        def new(n: int, entry: dict[str, Any]) -> Attachment:
            up = files[n]
            if len(up.data) > ATTACHMENT_SIZE_LIMIT:
                raise ApiError(413, 40005, "Request entity too large")
            used.add(n)
            ctype = mimetypes.guess_type(up.filename)[0] or up.content_type
            return Attachment(
                self.snowflake(), str(entry.get("filename") or up.filename), len(up.data),
                ctype, up.data, ephemeral, entry.get("description"),
            )  # fmt: skip

        if listed is None:
            out = list(kept)
        else:
            by_id = {str(a.id): a for a in kept}
            for entry in listed:
                aid = str(entry.get("id", ""))
                if aid in by_id:
                    out.append(by_id.pop(aid))
                elif aid.isdigit() and int(aid) in files and int(aid) not in used:
                    out.append(new(int(aid), entry))
                else:
                    raise ApiError(
                        400, 50035, "Invalid Form Body", f"attachments: unknown id {aid!r}"
                    )
        out.extend(new(n, {}) for n in sorted(files) if n not in used)
        if len(out) > MAX_ATTACHMENTS:
            raise ApiError(400, 50035, "Invalid Form Body", f"{len(out)} attachments (max 10)")
        return out

    def _create(
        self,
        channel_id: int,
        guild_id: int | None,
        data: dict[str, Any],
        *,
        audience: int | None,
        via: str,
        token: str | None = None,
        loading: bool = False,
        type_: int = 0,
        files: dict[int, Upload] | None = None,
    ) -> Message:
        self._check_body(data)
        flags = int(data.get("flags") or 0) & EPHEMERAL
        attachments = self._attachments(data, files or {}, [], ephemeral=bool(flags)) or []
        if loading:
            flags |= LOADING
        msg = Message(
            id=self.snowflake(),
            channel_id=channel_id,
            guild_id=guild_id,
            author=self.bot.payload(),
            content=str(data.get("content") or ""),
            components=list(data.get("components") or []),
            embeds=list(data.get("embeds") or []),
            flags=flags,
            audience=audience,
            interaction_token=token,
            loading=loading,
            type=type_,
            attachments=attachments,
            uploads=list(attachments),
        )
        msg.pings = self._pings(msg, data)
        self.messages[msg.id] = msg
        msg.history.append((msg.content, msg.components))
        self.shown.append(
            Shown(
                msg.id,
                "create",
                audience,
                msg.content,
                msg.components,
                time.monotonic(),
                via,
                list(attachments),
                msg.pings,
            )
        )
        return msg

    def _pings(self, msg: Message, data: dict[str, Any]) -> tuple[str, ...]:
        """Whom the message's content mentions, as Discord decides it (the Allowed Mentions
        object): without ``allowed_mentions`` every mention in the content counts;
        ``@everyone`` and ``@here`` also need the Mention Everyone permission."""
        allowed = data.get("allowed_mentions")
        if allowed is None:
            parse, users, roles = {"users", "roles", "everyone"}, set(), set()
        else:
            parse = set(allowed.get("parse") or ())
            users = {str(u) for u in allowed.get("users") or ()}
            roles = {str(r) for r in allowed.get("roles") or ()}
        channel = self.channels.get(msg.channel_id)
        may_everyone = channel is not None and bool(channel.bot_permissions & MENTION_EVERYONE)
        out: list[str] = []
        if "everyone" in parse and may_everyone and _EVERYONE.search(msg.content):
            out.append("everyone")
        out.extend(
            f"user:{u}"
            for u in dict.fromkeys(_USER_MENTION.findall(msg.content))
            if "users" in parse or u in users
        )
        out.extend(
            f"role:{r}"
            for r in dict.fromkeys(_ROLE_MENTION.findall(msg.content))
            if "roles" in parse or r in roles
        )
        return tuple(out)

    def _edit(
        self,
        msg: Message,
        data: dict[str, Any],
        *,
        via: str,
        files: dict[int, Upload] | None = None,
    ) -> Message:
        self._check_body(data)
        attachments = self._attachments(
            data, files or {}, msg.attachments, ephemeral=msg.ephemeral
        )
        if attachments is not None:
            msg.uploads.extend(a for a in attachments if a not in msg.attachments)
            msg.attachments = attachments
        if "content" in data:
            msg.content = str(data["content"] or "")
            msg.pings = self._pings(msg, data)
        if "components" in data:
            msg.components = list(data["components"] or [])
        if "embeds" in data:
            msg.embeds = list(data["embeds"] or [])
        if msg.loading:
            msg.loading = False
            msg.flags &= ~LOADING
        msg.edited = time.time()
        msg.history.append((msg.content, msg.components))
        self.shown.append(
            Shown(
                msg.id,
                "edit",
                msg.audience,
                msg.content,
                msg.components,
                time.monotonic(),
                via,
                list(msg.attachments),
                msg.pings,
            )
        )
        return msg

    def _delete(self, msg: Message, *, via: str) -> None:
        msg.deleted = True
        self.shown.append(Shown(msg.id, "delete", msg.audience, "", [], time.monotonic(), via))

    # -- what users saw ---------------------------------------------------------------------

    def visible(self, user: User, channel: Channel | None = None) -> list[Message]:
        """Every live message ``user`` can see (in ``channel``), oldest first."""
        return [
            m
            for m in self.messages.values()
            if not m.deleted
            and (m.audience is None or m.audience == user.id)
            and (channel is None or m.channel_id == channel.id)
        ]

    def public(self, channel: Channel | None = None) -> list[Message]:
        return [
            m
            for m in self.messages.values()
            if m.audience is None and (channel is None or m.channel_id == channel.id)
        ]

    def private(self, user: User) -> list[Message]:
        return [m for m in self.messages.values() if m.audience == user.id and not m.deleted]

    def shown_to(self, user: User) -> list[Shown]:
        return [s for s in self.shown if s.audience is None or s.audience == user.id]

    def replies(self, rec: Interaction) -> list[Message]:
        """The messages an interaction produced: its original answer, then follow-ups."""
        out = []
        if rec.original is not None and rec.original != rec.source_message:
            out.append(self.messages[rec.original])
        out.extend(self.messages[m] for m in rec.followups)
        return out

    def texts_for(self, rec: Interaction) -> list[str]:
        return [m.content for m in self.replies(rec)]

    def calls_to(self, pattern: str, method: str | None = None) -> list[Call]:
        rx = re.compile(pattern)
        return [
            c for c in self.calls if rx.search(c.path) and (method is None or c.method == method)
        ]

    async def wait_quiet(self, quiet: float = 0.05, timeout: float = 10.0) -> None:
        """Until no HTTP request came in for ``quiet`` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            idle = time.monotonic() - self.last_activity
            if idle >= quiet:
                return
            await asyncio.sleep(quiet - idle)
        raise TimeoutError("the fake Discord never went quiet")


# -- validation (Discord's limits) -----------------------------------------------------------


def check_message(data: dict[str, Any]) -> list[str]:
    """What Discord would refuse in a message body: content and component limits."""
    problems: list[str] = []
    allowed = data.get("allowed_mentions")
    if allowed is not None:
        parse = allowed.get("parse") or ()
        for kind in ("users", "roles"):
            if kind in parse and allowed.get(kind):
                problems.append(f"allowed_mentions: parse {kind!r} and {kind} together")
    content = data.get("content")
    if content is not None and len(str(content)) > 2000:
        problems.append(f"content is {len(str(content))} characters (max 2000)")
    rows = data.get("components")
    if rows is None:
        return problems
    if len(rows) > 5:
        problems.append(f"{len(rows)} action rows (max 5)")
    seen: set[str] = set()
    for row in rows:
        if row.get("type") != 1:
            problems.append("a top-level component is not an action row")
            continue
        items = row.get("components") or []
        if not items:
            problems.append("an empty action row")
        kinds = {c.get("type") for c in items}
        if 3 in kinds and len(items) != 1:
            problems.append("a select menu must be alone in its row")
        if kinds == {2} and len(items) > 5:
            problems.append(f"{len(items)} buttons in a row (max 5)")
        for c in items:
            cid = c.get("custom_id")
            if cid is not None:
                if len(cid) > 100:
                    problems.append(f"custom_id longer than 100: {cid!r}")
                if cid in seen:
                    problems.append(f"duplicate custom_id {cid!r}")
                seen.add(cid)
            if c.get("type") == 2:
                if len(c.get("label") or "") > 80:
                    problems.append("button label longer than 80")
                if c.get("style") != 5 and not cid:
                    problems.append("a button without custom_id")
            elif c.get("type") == 3:
                options = c.get("options") or []
                if not 1 <= len(options) <= 25:
                    problems.append(f"select with {len(options)} options (1 to 25)")
                values = [o.get("value") for o in options]
                if len(set(values)) != len(values):
                    problems.append("duplicate select option values")
                for o in options:
                    if len(o.get("label") or "") > 100 or len(o.get("value") or "") > 100:
                        problems.append("select option label or value longer than 100")
                    if len(o.get("description") or "") > 100:
                        problems.append("select option description longer than 100")
                if len(c.get("placeholder") or "") > 150:
                    problems.append("placeholder longer than 150")
    return problems


def _check_command(cmd: dict[str, Any], depth: int = 0) -> Iterable[str]:
    name = cmd.get("name", "")
    if not _NAME.match(name) or name != name.lower():
        yield f"bad name {name!r}"
    desc = cmd.get("description", "")
    if (depth > 0 or cmd.get("type", 1) == 1) and not 1 <= len(desc) <= 100:
        yield f"description of {name!r} is {len(desc)} characters (1 to 100)"
    for loc, n in (cmd.get("name_localizations") or {}).items():
        if not _NAME.match(n) or n != n.lower():
            yield f"bad {loc} name {n!r} for {name!r}"
    for loc, d in (cmd.get("description_localizations") or {}).items():
        if not 1 <= len(d) <= 100:
            yield f"{loc} description of {name!r} is {len(d)} characters"
    options = cmd.get("options") or []
    if len(options) > 25:
        yield f"{name!r} has {len(options)} options (max 25)"
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        yield f"duplicate option names in {name!r}"
    for o in options:
        for choice in o.get("choices") or []:
            if not 1 <= len(choice.get("name", "")) <= 100:
                yield f"bad choice name in {o.get('name')!r}"
            for loc, n in (choice.get("name_localizations") or {}).items():
                if not 1 <= len(n) <= 100:
                    yield f"bad {loc} choice name in {o.get('name')!r}"
        yield from _check_command(o, depth + 1)


def find_button(
    msg: Message, predicate: Callable[[dict[str, Any]], bool]
) -> dict[str, Any] | None:
    for b in msg.buttons():
        if predicate(b):
            return b
    return None
