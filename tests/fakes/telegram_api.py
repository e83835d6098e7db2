"""A local fake of the Telegram Bot API, for tests and benchmarks.

An aiohttp server speaking the Bot API's JSON (``{"ok": true, "result": ...}``; errors with
``error_code``, ``description`` and, for 429, ``parameters.retry_after``) for the methods
the bot uses. The real python-telegram-bot is pointed at it with ``base_url``.

It keeps a small world: users, chats (groups, forum supergroups, private chats), the
messages in them (with their edits and keyboards), and a queue of updates served by
``getUpdates`` (long polling honoured) or posted to a webhook. Scripted users send
commands, press buttons, make inline queries and choose results; every call the bot makes
is recorded with its parameters, and so is what each user was shown: callback answers,
private messages, inline results.

Flood control can be enforced (``group_limit``: at most N sends or edits per window per
group, else 429 with the real ``retry_after``) and 429s scripted (``fail``, ``storm``).

Several bot processes on one token: each may call through a base URL of its own
(``base_url_for(tag)``, ``/<tag>/bot<token>/...``), so that every call is recorded with
the process that made it (``Call.via``). One update stream per token, as on Telegram: a
``getUpdates`` arriving while another waits ends the waiting one with 409 "Conflict:
terminated by other getUpdates request" (``polls`` records every one, ``conflicts`` counts
those ended so while their caller still waited). A webhook (``setWebhook``) behind a load
balancer: with ``backends`` set, each update goes to one of them chosen at random, and to
another when that one does not answer (a process that died); an update is kept until a
backend took it (200), as Telegram keeps undelivered updates.

A basic group (``basic_group``) can be upgraded to a supergroup (``migrate``): it gets a new
id, and from then on every call naming the old id answers 400 with
``parameters.migrate_to_chat_id``, as the real Bot API does; the two service messages
(``migrate_to_chat_id`` in the old chat, ``migrate_from_chat_id`` in the new one) are
delivered then, or later (``announce_migration``).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import math
import random
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import ClientError, ClientSession, ClientTimeout, web

__all__ = [
    "ApiError",
    "Call",
    "CallbackAnswer",
    "FakeBotAPI",
    "FakeChat",
    "FakeMessage",
    "FakeSticker",
    "FakeStickerSet",
    "FakeUser",
    "InlineAnswer",
    "Poll",
    "Result",
]

CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)

# parameters that stay strings even when they look like JSON
_STRINGS = frozenset(
    {
        "text",
        "callback_query_id",
        "inline_query_id",
        "url",
        "secret_token",
        "parse_mode",
        "next_offset",
        "language_code",
        "description",
        "short_description",
        "name",
        "title",
    }
)
_COMMAND = re.compile(r"^/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]+)?")

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)


class ApiError(Exception):
    """An error answer: ``error_code``, ``description``, optional ``retry_after``."""

    def __init__(
        self,
        code: int,
        description: str,
        retry_after: int | None = None,
        *,
        migrate_to_chat_id: int | None = None,
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.retry_after is not None:
            out["parameters"] = {"retry_after": self.retry_after}
        if self.migrate_to_chat_id is not None:
            out["parameters"] = {"migrate_to_chat_id": self.migrate_to_chat_id}
        return out


@dataclass
class Call:
    """One request the bot made, its answer, and when (loop time); ``via``: the base URL's
    tag it came through (which process, see ``base_url_for``)."""

    method: str
    params: dict[str, Any]
    t: float
    ok: bool = True
    result: Any = None
    error: ApiError | None = None
    via: str | None = None


@dataclass
class Poll:
    """One ``getUpdates``: through which tag, from when to when, how it ended (``ok``,
    ``conflict``: ended by a newer one, ``gone``: its caller had gone meanwhile)."""

    via: str | None
    start: float
    end: float = math.inf
    outcome: str = ""


@dataclass
class FakeChat:
    id: int
    type: str  # "private", "group", "supergroup"
    title: str | None = None
    is_forum: bool = False
    user: FakeUser | None = None  # the other side of a private chat
    migrated_to: int | None = None  # a basic group upgraded to a supergroup: its new id

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.type == "private" and self.user is not None:
            out["first_name"] = self.user.first_name
            if self.user.username:
                out["username"] = self.user.username
        else:
            out["title"] = self.title or "Group"
        if self.is_forum:
            out["is_forum"] = True
        return out


@dataclass
class FakeMessage:
    """A message in a chat, with every version of it."""

    chat: FakeChat
    message_id: int
    sender: dict[str, Any]
    text: str
    markup: dict[str, Any] | None = None
    thread: int | None = None
    via_bot: bool = False
    date: int = 0
    history: list[tuple[str, dict[str, Any] | None]] = field(default_factory=list)
    entities: list[dict[str, Any]] | None = None
    reply_to: FakeMessage | None = None
    deleted: bool = False
    chat_bot: dict[str, Any] | None = None  # the bot, for ``via_bot``
    sticker: dict[str, Any] | None = None  # a sticker message (no text)

    @property
    def from_bot(self) -> bool:
        return bool(self.sender.get("is_bot")) and not self.via_bot

    def to_json(self, *, nested: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_json(),
            "from": self.sender,
            "text": self.text,
        }
        if self.entities:
            out["entities"] = self.entities
        if self.sticker is not None:
            del out["text"]
            out["sticker"] = self.sticker
        if self.via_bot:
            out["via_bot"] = self.chat_bot  # set by the server for messages via the bot
        if self.markup is not None:
            out["reply_markup"] = self.markup
        if self.thread is not None:
            out["message_thread_id"] = self.thread
            if self.chat.is_forum:
                out["is_topic_message"] = True
        if self.reply_to is not None and nested:
            out["reply_to_message"] = self.reply_to.to_json(nested=False)
        return out

    def buttons(self) -> list[dict[str, Any]]:
        if not self.markup:
            return []
        return [b for row in self.markup.get("inline_keyboard", []) for b in row]

    def button(self, label: str) -> dict[str, Any]:
        """The button whose text contains ``label`` (raises if none)."""
        for b in self.buttons():
            if label in b.get("text", ""):
                return b
        raise LookupError(f"no button {label!r} on message {self.message_id}: {self.labels()}")

    def has_button(self, label: str) -> bool:
        return any(label in b.get("text", "") for b in self.buttons())

    def labels(self) -> list[str]:
        return [str(b.get("text")) for b in self.buttons()]


@dataclass
class CallbackAnswer:
    user: FakeUser
    query_id: str
    data: str | None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    text: str | None = None
    show_alert: bool = False
    url: str | None = None

    async def wait(self, timeout: float = 5.0) -> CallbackAnswer:
        await asyncio.wait_for(self.answered.wait(), timeout)
        return self


@dataclass
class Result:
    """One inline result as the user sees it."""

    id: str
    title: str
    description: str | None
    text: str  # what choosing it posts ("" for a sticker result posting its sticker)
    sticker: str | None = None  # a sticker result: the sticker's file id

    @property
    def code(self) -> str:
        return self.id.split("|")[-1]


@dataclass
class InlineAnswer:
    user: FakeUser
    query_id: str
    query: str
    chat_type: str
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    results: list[Result] = field(default_factory=list)
    button: dict[str, Any] | None = None
    is_personal: bool = False
    cache_time: int | None = None

    def find(self, pred: Callable[[Result], bool]) -> Result | None:
        return next((r for r in self.results if pred(r)), None)


@dataclass(eq=False)
class FakeUser:
    """A scripted Telegram user."""

    api: FakeBotAPI
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = "en"
    started: bool = False  # opened the private chat with the bot
    blocked: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out

    @property
    def pid(self) -> str:
        return f"tg:{self.id}"

    @property
    def chat(self) -> FakeChat:
        return self.api.private(self)

    async def send(
        self,
        chat: FakeChat,
        text: str,
        *,
        thread: int | None = None,
        reply_to: FakeMessage | None = None,
        entities: list[dict[str, Any]] | None = None,
    ) -> FakeMessage:
        """Post a message (commands get their ``bot_command`` entity)."""
        if chat.type == "private":
            self.started = True
        ents = list(entities or [])
        m = _COMMAND.match(text)
        if m:
            ents.insert(0, {"type": "bot_command", "offset": 0, "length": m.end()})
        msg = self.api.post(chat, self.to_json(), text, thread=thread, entities=ents or None)
        msg.reply_to = reply_to
        self.api.push({"message": msg.to_json()})
        return msg

    async def start_bot(self, payload: str | None = None) -> FakeMessage:
        """Open the private chat (``/start``, or a deep link's ``/start <payload>``)."""
        return await self.send(self.chat, "/start" + (f" {payload}" if payload else ""))

    async def press(
        self, message: FakeMessage, label: str | None = None, *, data: str | None = None
    ) -> CallbackAnswer:
        """Press a button of ``message`` (by label), or send forged ``data``; returns the
        callback answer (await ``.wait()``)."""
        if data is None:
            assert label is not None
            button = message.button(label)
            data = button.get("callback_data")
            if data is None:
                raise LookupError(f"button {label!r} has no callback_data: {button}")
        qid = str(next(self.api._ids))
        ans = CallbackAnswer(self, qid, data)
        self.api.callbacks[qid] = ans
        self.api.push(
            {
                "callback_query": {
                    "id": qid,
                    "from": self.to_json(),
                    "message": message.to_json(),
                    "chat_instance": str(message.chat.id),
                    "data": data,
                }
            }
        )
        return ans

    async def click(
        self, message: FakeMessage, label: str | None = None, *, data: str | None = None
    ) -> CallbackAnswer:
        """``press`` and wait for the answer."""
        return await (await self.press(message, label, data=data)).wait()

    async def inline(
        self, query: str = "", *, chat_type: str = "supergroup", timeout: float = 5.0
    ) -> InlineAnswer:
        """Type ``@bot <query>``: the results the bot answers with."""
        qid = str(next(self.api._ids))
        ans = InlineAnswer(self, qid, query, chat_type)
        self.api.inline_answers[qid] = ans
        self.api.push(
            {
                "inline_query": {
                    "id": qid,
                    "from": self.to_json(),
                    "query": query,
                    "offset": "",
                    "chat_type": chat_type,
                }
            }
        )
        await asyncio.wait_for(ans.answered.wait(), timeout)
        return ans

    async def choose(
        self,
        answer: InlineAnswer,
        result: Result,
        chat: FakeChat,
        *,
        thread: int | None = None,
        message: Literal["before", "after", "never"] = "before",
    ) -> FakeMessage:
        """Choose an inline result: it is posted to ``chat`` as this user's message (via
        the bot; the bot gets that message, as Telegram sends bots the messages posted
        through them even in privacy mode) and the bot gets a ``chosen_inline_result``.
        Telegram promises no order between the two updates: ``message`` says whether the
        bot gets the posted message before the chosen result, after it, or (lost: a
        webhook that failed) never."""
        assert result in answer.results, "only a shown result can be chosen"
        msg = self.api.post(chat, self.to_json(), result.text, thread=thread, via_bot=True)
        msg.chat_bot = self.api.bot_user()
        if result.sticker is not None and not result.text:
            msg.sticker = self.api.sticker_json(result.sticker)
        if message == "before":
            self.api.push({"message": msg.to_json()})
        self.api.push(
            {
                "chosen_inline_result": {
                    "result_id": result.id,
                    "from": self.to_json(),
                    "query": answer.query,
                }
            }
        )
        if message == "after":
            self.api.push({"message": msg.to_json()})
        return msg


@dataclass
class _Failure:
    method: str | None
    times: int
    code: int
    description: str
    retry_after: int | None
    chat_id: int | None


class FakeBotAPI:
    """The fake server. ``await start()``; point PTB at :attr:`base_url`."""

    def __init__(
        self,
        token: str = "123456:TEST-TOKEN",
        *,
        username: str = "uno_test_bot",
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.token = token
        self.bot_id = int(token.split(":", maxsplit=1)[0])
        self.username = username
        self._clock = clock
        self._ids = itertools.count(1000)
        self._chat_ids = itertools.count(1)
        self._user_ids = itertools.count(1001)
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.messages: dict[tuple[int, int], FakeMessage] = {}
        self._next_mid: dict[int, int] = {}
        self.calls: list[Call] = []
        self.updates: list[dict[str, Any]] = []
        self._update_id = 1
        self.confirmed = 0  # every update below this id was confirmed by an offset
        self.callbacks: dict[str, CallbackAnswer] = {}
        self.inline_answers: dict[str, InlineAnswer] = {}
        self.commands: dict[str | None, list[dict[str, Any]]] = {}
        self.sticker_sets: dict[str, FakeStickerSet] = {}  # by name, lower case
        self.stickers: dict[str, FakeSticker] = {}  # by file id
        self.admins: dict[int, dict[int, str]] = {}
        # chats where the bot itself is an administrator: its rights there
        self.bot_rights: dict[int, dict[str, bool]] = {}
        self.webhook: dict[str, Any] | None = None
        # a load balancer in front of the webhook: the URLs updates really go to
        self.backends: list[str] | None = None
        # update id -> the backend that took it, and the update
        self.delivered: dict[int, tuple[str, dict[str, Any]]] = {}
        self._delivering: set[int] = set()
        self._lb = random.Random(0)
        self.polls: list[Poll] = []
        # (tag or None: any, method) -> seconds its answer takes (a slow network, a process
        # overtaken by another)
        self.slow: dict[tuple[str | None, str], float] = {}
        self.conflicts = 0  # getUpdates ended by a newer one while their caller waited
        self._poll_seq = 0
        self.group_limit: tuple[int, float] | None = None  # (sends+edits, per seconds)
        # seconds of the world per second of this clock (benchmarks run time faster): the
        # flood window is in the world's seconds, and so is ``retry_after``
        self.time_scale = 1.0
        self._sent_at: dict[int, list[float]] = {}
        self._failures: list[_Failure] = []
        self._storm: tuple[float, int, frozenset[str], float, random.Random] | None = None
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None
        self.port = 0
        self.refused_429 = 0
        self._closing = False

    # -- server --------------------------------------------------------------------------

    def now(self) -> float:
        if self._clock is not None:
            return self._clock()
        return asyncio.get_running_loop().time()

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        app = web.Application(client_max_size=8 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/{via}/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1]

    async def stop(self) -> None:
        self._closing = True
        async with self._changed:
            self._changed.notify_all()
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def connections(self) -> int:
        """HTTP connections the bot holds open to the server."""
        if self._runner is None or self._runner.server is None:
            return 0
        return len(self._runner.server.connections)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    def base_url_for(self, via: str) -> str:
        """A base URL of its own for one bot process: its calls are recorded ``via``."""
        return f"http://127.0.0.1:{self.port}/{via}/bot"

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        method = request.match_info["method"]
        params = await _params(request)
        via = request.match_info.get("via")
        call = Call(method, params, self.now(), via=via)
        handler = getattr(self, "m_" + method, None)
        try:
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            self._scripted_failure(method, params)
            delay = self.slow.get((via, method), self.slow.get((None, method), 0.0))
            if delay:
                await asyncio.sleep(delay)
            if method == "getUpdates":
                result = await self._get_updates(params, via, request)
            else:
                result = await handler(params)
            call.result = result
            body: dict[str, Any] = {"ok": True, "result": result}
            status = 200
        except ApiError as err:
            call.ok = False
            call.error = err
            if err.code == 429:
                self.refused_429 += 1
            body, status = err.body(), err.code
        if method != "getUpdates" or call.result:
            self.calls.append(call)
            await self._notify()
        return web.json_response(body, status=status)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until ``predicate()`` is truthy (checked after every call); return it."""

        async def waiting() -> Any:
            async with self._changed:
                while True:
                    value = predicate()
                    if value:
                        return value
                    # woken by every call; also now and then, for state kept elsewhere
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), 0.05)

        return await asyncio.wait_for(waiting(), timeout)

    # -- scripted errors -------------------------------------------------------------------

    def fail(
        self,
        method: str | None = None,
        *,
        times: int = 1,
        code: int = 429,
        retry_after: int | None = 1,
        description: str | None = None,
        chat_id: int | None = None,
    ) -> None:
        """The next ``times`` calls of ``method`` (any if ``None``; to ``chat_id`` if
        given) fail with ``code``."""
        if description is None:
            description = (
                f"Too Many Requests: retry after {retry_after}" if code == 429 else "Bad Request"
            )
        self._failures.append(
            _Failure(
                method, times, code, description, retry_after if code == 429 else None, chat_id
            )
        )

    def storm(
        self,
        probability: float,
        *,
        retry_after: int = 1,
        methods: Iterable[str] = ("sendMessage", "editMessageText", "editMessageReplyMarkup"),
        seconds: float = math.inf,
        seed: int = 0,
    ) -> None:
        """For ``seconds``, answer each call of ``methods`` with 429 with ``probability``."""
        self._storm = (
            probability,
            retry_after,
            frozenset(methods),
            self.now() + seconds,
            random.Random(seed),
        )

    def calm(self) -> None:
        self._storm = None
        self._failures.clear()

    def _scripted_failure(self, method: str, params: dict[str, Any]) -> None:
        chat = params.get("chat_id")
        for f in self._failures:
            if f.times <= 0:
                continue
            if f.method is not None and f.method != method:
                continue
            if f.chat_id is not None and f.chat_id != chat:
                continue
            f.times -= 1
            raise ApiError(f.code, f.description, f.retry_after)
        if self._storm is not None:
            p, retry, methods, until, rng = self._storm
            if self.now() > until:
                self._storm = None
            elif method in methods and rng.random() < p:
                raise ApiError(429, f"Too Many Requests: retry after {retry}", retry)

    def _flood(self, chat: FakeChat) -> None:
        """Telegram's per-group limit, when enforced."""
        if self.group_limit is None or chat.type == "private":
            return
        limit, window = self.group_limit
        window /= self.time_scale
        now = self.now()
        stamps = [t for t in self._sent_at.get(chat.id, []) if t > now - window]
        self._sent_at[chat.id] = stamps
        if len(stamps) >= limit:
            wait = max(1, math.ceil((stamps[0] + window - now) * self.time_scale))
            raise ApiError(429, f"Too Many Requests: retry after {wait}", wait)
        stamps.append(now)

    # -- the world -------------------------------------------------------------------------

    def user(
        self,
        first_name: str,
        last_name: str | None = None,
        *,
        username: str | None = None,
        language_code: str | None = "en",
        started: bool = False,
    ) -> FakeUser:
        u = FakeUser(
            self, next(self._user_ids), first_name, last_name, username, language_code, started
        )
        self.users[u.id] = u
        return u

    def group(self, title: str = "Group", *, forum: bool = False) -> FakeChat:
        chat = FakeChat(-1001000000000 - next(self._chat_ids), "supergroup", title, forum)
        self.chats[chat.id] = chat
        return chat

    def basic_group(self, title: str = "Group") -> FakeChat:
        """A basic group (what a group is until it is upgraded to a supergroup)."""
        chat = FakeChat(-4000000000 - next(self._chat_ids), "group", title)
        self.chats[chat.id] = chat
        return chat

    def migrate(
        self, chat: FakeChat, *, by: FakeUser | None = None, notify: bool = True
    ) -> FakeChat:
        """Upgrade basic group ``chat`` to a supergroup with a new id (its administrators
        stay); calls naming the old id are refused from now on with
        ``migrate_to_chat_id``. ``notify``: deliver the two service messages now."""
        assert chat.type == "group" and chat.migrated_to is None, chat
        new = self.group(chat.title or "Group")
        chat.migrated_to = new.id
        self.admins[new.id] = dict(self.admins.get(chat.id, {}))
        if notify:
            self.announce_migration(chat, new, by=by)
        return new

    def announce_migration(
        self, old: FakeChat, new: FakeChat, *, by: FakeUser | None = None
    ) -> None:
        """The service messages of an upgrade: ``migrate_to_chat_id`` in the old chat,
        ``migrate_from_chat_id`` in the new one."""
        sender = by.to_json() if by is not None else self.bot_user()
        for chat, field_, other in (
            (old, "migrate_to_chat_id", new.id),
            (new, "migrate_from_chat_id", old.id),
        ):
            mid = self._next_mid.get(chat.id, 1)
            self._next_mid[chat.id] = mid + 1
            message = {
                "message_id": mid,
                "date": int(time.time()),
                "chat": chat.to_json(),
                "from": sender,
                field_: other,
            }
            self.push({"message": message})

    def private(self, user: FakeUser) -> FakeChat:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = self.chats[user.id] = FakeChat(user.id, "private", user=user)
        return chat

    def set_admin(self, chat: FakeChat, user: FakeUser, status: str = "administrator") -> None:
        self.admins.setdefault(chat.id, {})[user.id] = status

    def promote_bot(self, chat: FakeChat, *, can_delete_messages: bool = True) -> None:
        """Make the bot an administrator of ``chat`` (with the right to delete others'
        messages, or not)."""
        self.bot_rights[chat.id] = {"can_delete_messages": can_delete_messages}

    def bot_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "UNO",
            "username": self.username,
        }

    def post(
        self,
        chat: FakeChat,
        sender: dict[str, Any],
        text: str,
        *,
        thread: int | None = None,
        markup: dict[str, Any] | None = None,
        via_bot: bool = False,
        entities: list[dict[str, Any]] | None = None,
    ) -> FakeMessage:
        mid = self._next_mid.get(chat.id, 1)
        self._next_mid[chat.id] = mid + 1
        msg = FakeMessage(
            chat, mid, sender, text, markup, thread, via_bot, int(time.time()), entities=entities
        )
        msg.history.append((text, markup))
        self.messages[(chat.id, mid)] = msg
        return msg

    def push(self, update: dict[str, Any]) -> dict[str, Any]:
        """Queue an update for the bot (``update_id`` added)."""
        update = {"update_id": self._update_id, **update}
        self._update_id += 1
        self.updates.append(update)
        if self.webhook is not None:
            self._deliver(update)
        else:
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(self._notify())
        return update

    def _deliver(self, update: dict[str, Any]) -> None:
        """Post ``update`` to the webhook (to one of ``backends``, at random, with them),
        again and again until one takes it; then it is no longer kept."""
        hook = self.webhook
        assert hook is not None
        uid = update["update_id"]
        if uid in self._delivering:
            return
        self._delivering.add(uid)

        async def post() -> None:
            if self._session is None:
                self._session = ClientSession(timeout=ClientTimeout(total=10))
            headers = {"Content-Type": "application/json"}
            if hook.get("secret_token"):
                headers["X-Telegram-Bot-Api-Secret-Token"] = hook["secret_token"]
            try:
                for _ in range(400):
                    if self._closing:
                        return
                    url = self._lb.choice(self.backends) if self.backends else hook["url"]
                    try:
                        async with self._session.post(
                            url, data=json.dumps(update), headers=headers
                        ) as resp:
                            if resp.status == 200:
                                self.delivered[uid] = (url, update)
                                self.updates = [u for u in self.updates if u is not update]
                                return
                    except (OSError, ClientError, TimeoutError):
                        pass  # (a backend that died, before or while it answered)
                    await asyncio.sleep(0.05)
            finally:
                self._delivering.discard(uid)

        asyncio.get_running_loop().create_task(post())

    # -- what users saw ----------------------------------------------------------------------

    def of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def bot_messages(self, chat: FakeChat, thread: int | None = None) -> list[FakeMessage]:
        """Messages the bot sent to ``chat`` (in ``thread``, if given), oldest first."""
        return [
            m
            for (cid, _), m in sorted(self.messages.items())
            if cid == chat.id and m.from_bot and (thread is None or m.thread == thread)
        ]

    def user_messages(self, chat: FakeChat) -> list[FakeMessage]:
        return [
            m for (cid, _), m in sorted(self.messages.items()) if cid == chat.id and not m.from_bot
        ]

    def dms(self, user: FakeUser) -> list[str]:
        """Every text the bot showed ``user`` in their private chat (sends and edits)."""
        return [t for m in self.bot_messages(self.private(user)) for t, _ in m.history]

    def alerts(self, user: FakeUser) -> list[CallbackAnswer]:
        return [a for a in self.callbacks.values() if a.user is user and a.text]

    def group_texts(self, chat: FakeChat) -> list[str]:
        """Every text the bot put in ``chat``: new messages and every edit."""
        return [t for m in self.bot_messages(chat) for t, _ in m.history]

    def unanswered(self) -> list[CallbackAnswer]:
        return [a for a in self.callbacks.values() if not a.answered.is_set()]

    # -- methods -----------------------------------------------------------------------------

    async def m_getMe(self, p: dict[str, Any]) -> Any:
        return {
            **self.bot_user(),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": True,
        }

    async def _get_updates(self, p: dict[str, Any], via: str | None, request: web.Request) -> Any:
        """``getUpdates``, one at a time: a newer one ends this one with 409."""
        self._poll_seq += 1
        mine = self._poll_seq
        poll = Poll(via, self.now())
        self.polls.append(poll)
        await self._notify()  # (a poll waiting learns it has been overtaken)
        try:
            result = await self.m_getUpdates(p, lambda: self._poll_seq != mine)
        except ApiError as err:
            poll.end = self.now()
            gone = request.transport is None or request.transport.is_closing()
            if err.code == 409 and err.description == CONFLICT:
                poll.outcome = "gone" if gone else "conflict"
                self.conflicts += not gone
            else:
                poll.outcome = "error"
            raise
        poll.end, poll.outcome = self.now(), "ok"
        return result

    def pollers(self, since: float = 0.0) -> list[str | None]:
        """The tags that polled since ``since`` (a ``getUpdates`` waiting then, or
        answered), in the order of their first such poll."""
        out: list[str | None] = []
        for poll in self.polls:
            if poll.end >= since and poll.outcome in ("", "ok") and poll.via not in out:
                out.append(poll.via)
        return out

    async def m_getUpdates(
        self, p: dict[str, Any], overtaken: Callable[[], bool] = lambda: False
    ) -> Any:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active")
        offset = int(p.get("offset") or 0)
        if offset:
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
            self.confirmed = max(self.confirmed, offset)
        timeout = float(p.get("timeout") or 0)
        limit = int(p.get("limit") or 100)
        deadline = self.now() + timeout

        def ready() -> list[dict[str, Any]]:
            return [u for u in self.updates if u["update_id"] >= offset][:limit]

        async with self._changed:
            while not ready() and not self._closing:
                if overtaken():
                    raise ApiError(409, CONFLICT)
                left = deadline - self.now()
                if left <= 0:
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)
        if overtaken():
            raise ApiError(409, CONFLICT)
        return ready()

    async def m_deleteWebhook(self, p: dict[str, Any]) -> Any:
        self.webhook = None
        if p.get("drop_pending_updates"):
            self.updates.clear()
        return True

    async def m_setWebhook(self, p: dict[str, Any]) -> Any:
        self.webhook = {"url": p["url"], "secret_token": p.get("secret_token")}
        for u in list(self.updates):  # the updates not delivered yet
            self._deliver(u)
        return True

    async def m_getWebhookInfo(self, p: dict[str, Any]) -> Any:
        return {
            "url": (self.webhook or {}).get("url", ""),
            "has_custom_certificate": False,
            "pending_update_count": len(self.updates),
        }

    async def m_setMyCommands(self, p: dict[str, Any]) -> Any:
        commands = p.get("commands") or []
        for c in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", c.get("command", "")):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(c.get("description", "")) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[p.get("language_code") or None] = commands
        return True

    async def m_getMyCommands(self, p: dict[str, Any]) -> Any:
        return self.commands.get(p.get("language_code") or None, [])

    def _chat(self, p: dict[str, Any]) -> FakeChat:
        cid = int(p.get("chat_id", 0))
        chat = self.chats.get(cid)
        if chat is None and cid in self.users:
            chat = self.private(self.users[cid])
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        self._check_migrated(chat)
        if chat.type == "private":
            assert chat.user is not None
            if chat.user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not chat.user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    @staticmethod
    def _check_migrated(chat: FakeChat) -> None:
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                migrate_to_chat_id=chat.migrated_to,
            )

    def _check_markup(self, markup: Any) -> dict[str, Any] | None:
        if markup is None:
            return None
        if not isinstance(markup, dict) or "inline_keyboard" not in markup:
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        for row in markup["inline_keyboard"]:
            for b in row:
                if not b.get("text"):
                    raise ApiError(400, "Bad Request: text buttons are unallowed")
                data = b.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                kinds = [k for k in b if k != "text"]
                if len(kinds) != 1:
                    raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
        return dict(markup)

    @staticmethod
    def _check_text(text: Any) -> str:
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        if len(text) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        return text

    async def m_sendMessage(self, p: dict[str, Any]) -> Any:
        chat = self._chat(p)
        text = self._check_text(p.get("text"))
        markup = self._check_markup(p.get("reply_markup"))
        thread = p.get("message_thread_id")
        if thread is not None and not chat.is_forum:
            thread = None  # only forum topics keep it in this fake
        reply = p.get("reply_parameters") or {}
        reply_to = None
        if reply:
            if not isinstance(reply, dict) or "message_id" not in reply:
                raise ApiError(400, "Bad Request: REPLY_PARAMETERS_INVALID")
            reply_to = self.messages.get((chat.id, int(reply["message_id"])))
            if (reply_to is None or reply_to.deleted) and not reply.get(
                "allow_sending_without_reply"
            ):
                raise ApiError(400, "Bad Request: message to be replied not found")
        self._flood(chat)
        msg = self.post(chat, self.bot_user(), text, thread=thread, markup=markup)
        msg.reply_to = reply_to
        return msg.to_json()

    def _message(self, p: dict[str, Any]) -> FakeMessage:
        if "inline_message_id" in p:
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
        chat = self._chat(p)
        msg = self.messages.get((chat.id, int(p.get("message_id", 0))))
        if msg is None or msg.deleted:
            raise ApiError(400, "Bad Request: message to edit not found")
        if not msg.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        return msg

    async def m_editMessageText(self, p: dict[str, Any]) -> Any:
        msg = self._message(p)
        text = self._check_text(p.get("text"))
        markup = self._check_markup(p.get("reply_markup"))
        if text == msg.text and markup == msg.markup:
            raise ApiError(400, NOT_MODIFIED)
        self._flood(msg.chat)
        msg.text, msg.markup = text, markup
        msg.history.append((text, markup))
        return msg.to_json()

    async def m_editMessageReplyMarkup(self, p: dict[str, Any]) -> Any:
        msg = self._message(p)
        markup = self._check_markup(p.get("reply_markup"))
        if markup == msg.markup:
            raise ApiError(400, NOT_MODIFIED)
        self._flood(msg.chat)
        msg.markup = markup
        msg.history.append((msg.text, markup))
        return msg.to_json()

    async def m_deleteMessage(self, p: dict[str, Any]) -> Any:
        """As documented: a bot deletes its own messages in any chat, and anyone's in a
        private chat; someone else's in a group only as one of its administrators, in a
        supergroup only with ``can_delete_messages``; nothing older than 48 hours."""
        chat = self.chats.get(int(p.get("chat_id", 0)))
        if chat is not None:
            self._check_migrated(chat)
        msg = self.messages.get((chat.id if chat else 0, int(p.get("message_id", 0))))
        if chat is None or msg is None or msg.deleted:
            raise ApiError(400, "Bad Request: message to delete not found")
        rights = self.bot_rights.get(chat.id)
        theirs = not msg.from_bot and chat.type != "private"
        if theirs and (
            rights is None or (chat.type == "supergroup" and not rights["can_delete_messages"])
        ):
            raise ApiError(400, "Bad Request: message can't be deleted")
        if time.time() - msg.date > 48 * 3600:
            raise ApiError(400, "Bad Request: message can't be deleted")
        msg.deleted = True
        return True

    async def m_answerCallbackQuery(self, p: dict[str, Any]) -> Any:
        qid = str(p.get("callback_query_id"))
        ans = self.callbacks.get(qid)
        if ans is None or ans.answered.is_set():
            raise ApiError(
                400,
                "Bad Request: query is too old and response timeout expired or query ID is "
                "invalid",
            )
        text = p.get("text")
        if text is not None and len(str(text)) > 200:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        url = p.get("url")
        if url is not None and not str(url).startswith(f"https://t.me/{self.username}?start="):
            raise ApiError(400, "Bad Request: URL_INVALID")
        ans.text = None if text is None else str(text)
        ans.show_alert = bool(p.get("show_alert"))
        ans.url = url
        ans.answered.set()
        return True

    async def m_answerInlineQuery(self, p: dict[str, Any]) -> Any:
        qid = str(p.get("inline_query_id"))
        ans = self.inline_answers.get(qid)
        if ans is None or ans.answered.is_set():
            raise ApiError(400, "Bad Request: query is too old and response timeout expired")
        raw = p.get("results") or []
        if len(raw) > 50:
            raise ApiError(400, "Bad Request: RESULTS_TOO_MUCH")
        ids = [str(r.get("id")) for r in raw]
        if len(set(ids)) != len(ids):
            raise ApiError(400, "Bad Request: RESULT_ID_DUPLICATE")
        if any(not 1 <= len(i.encode()) <= 64 for i in ids):
            raise ApiError(400, "Bad Request: RESULT_ID_INVALID")
        results = []
        for r in raw:
            content = r.get("input_message_content") or {}
            text = content.get("message_text", "")
            if r.get("type") == "sticker":  # InlineQueryResultCachedSticker
                results.append(self._sticker_result(r, text))
                continue
            if not r.get("title") or not text:
                raise ApiError(400, "Bad Request: RESULT_INVALID")
            results.append(Result(str(r["id"]), r["title"], r.get("description"), text))
        button = p.get("button")
        if button is not None:
            start = button.get("start_parameter", "")
            if start and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", start):
                raise ApiError(400, "Bad Request: START_PARAM_INVALID")
        ans.results = results
        ans.button = button
        ans.is_personal = bool(p.get("is_personal"))
        ans.cache_time = p.get("cache_time")
        ans.answered.set()
        return True

    async def m_getChatMember(self, p: dict[str, Any]) -> Any:
        chat_id = int(p.get("chat_id", 0))
        uid = int(p.get("user_id", 0))
        user = self.users.get(uid)
        if chat_id not in self.chats or user is None:
            raise ApiError(400, "Bad Request: user not found")
        self._check_migrated(self.chats[chat_id])
        status = self.admins.get(chat_id, {}).get(uid, "member")
        out: dict[str, Any] = {"status": status, "user": user.to_json()}
        if status == "creator":
            out["is_anonymous"] = False
        elif status == "administrator":
            out.update(
                {
                    "can_be_edited": False,
                    "is_anonymous": False,
                    "can_manage_chat": True,
                    "can_delete_messages": True,
                    "can_manage_video_chats": True,
                    "can_restrict_members": True,
                    "can_promote_members": False,
                    "can_change_info": True,
                    "can_invite_users": True,
                    "can_post_stories": False,
                    "can_edit_stories": False,
                    "can_delete_stories": False,
                }
            )
        return out

    async def m_getChat(self, p: dict[str, Any]) -> Any:
        chat = self.chats.get(int(p.get("chat_id", 0)))
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        return {**chat.to_json(), "accent_color_id": 0, "max_reaction_count": 11}

    # -- sticker sets (the bot's own card set) -----------------------------------------------
    #
    # What the Bot API documents (createNewStickerSet, addStickerToSet, getStickerSet,
    # deleteStickerSet, InputSticker): a set's name is 1-64 letters, digits and
    # underscores, begins with a letter, has no two underscores in a row and ends in
    # ``_by_<bot username>`` (case-insensitive); its owner is a user who has started the
    # bot; a set is created with 1-50 stickers and holds at most 120 (static); a static
    # sticker is a PNG or WEBP with one side exactly 512 px and the other at most 512, of
    # at most 512 KB, with 1-20 emoji. Stickers keep the order they were added in.

    def sticker_json(self, file_id: str) -> dict[str, Any]:
        """A sticker as a Message (or StickerSet) carries it."""
        st = self.stickers[file_id]
        return {
            "file_id": st.file_id,
            "file_unique_id": st.unique_id,
            "type": "regular",
            "width": st.width,
            "height": st.height,
            "is_animated": False,
            "is_video": False,
            "emoji": st.emoji[0],
            "set_name": st.set_name,
            "file_size": len(st.data),
        }

    def _sticker_set(self, name: Any) -> FakeStickerSet:
        found = self.sticker_sets.get(str(name or "").lower())
        if found is None:
            raise ApiError(400, "Bad Request: STICKERSET_INVALID")
        return found

    def _new_sticker(self, p: dict[str, Any], raw: Any, set_name: str) -> FakeSticker:
        """An InputSticker of a request: checked as Telegram checks a static sticker."""
        if not isinstance(raw, dict) or raw.get("format") != "static":
            raise ApiError(400, "Bad Request: STICKER_FORMAT_INVALID")
        emoji = raw.get("emoji_list")
        if (
            not isinstance(emoji, list)
            or not 1 <= len(emoji) <= 20
            or not all(isinstance(e, str) and 1 <= len(e) <= 8 and not e.isascii() for e in emoji)
        ):
            raise ApiError(400, "Bad Request: STICKER_EMOJI_INVALID")
        ref = raw.get("sticker")
        if isinstance(ref, str) and ref.startswith("attach://"):
            data = p.get(ref[len("attach://") :])
        elif isinstance(ref, str) and ref in self.stickers:
            data = self.stickers[ref].data
        else:
            data = None
        if not isinstance(data, bytes):
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        if len(data) > 512 * 1024:
            raise ApiError(400, "Bad Request: file is too big")
        try:
            from PIL import Image

            with Image.open(io.BytesIO(data)) as img:
                fmt, (w, h) = img.format, img.size
        except Exception as err:
            raise ApiError(400, "Bad Request: STICKER_FILE_INVALID") from err
        if fmt not in ("PNG", "WEBP"):
            raise ApiError(400, "Bad Request: STICKER_FILE_INVALID")
        if max(w, h) != 512:
            raise ApiError(400, "Bad Request: STICKER_PNG_DIMENSIONS")
        n = next(self._ids)
        return FakeSticker(
            f"CAACAgIAAx{n:06d}{set_name[:8]}", f"AgAD{n:06d}", set_name, w, h, emoji, data
        )

    async def m_createNewStickerSet(self, p: dict[str, Any]) -> Any:
        owner = self.users.get(int(p.get("user_id") or 0))
        if owner is None or not owner.started:
            raise ApiError(400, "Bad Request: PEER_ID_INVALID")
        name = str(p.get("name") or "")
        suffix = f"_by_{self.username}".lower()
        if (
            not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,63}", name)
            or "__" in name
            or not name.lower().endswith(suffix)
            or len(name) == len(suffix)
        ):
            raise ApiError(400, "Bad Request: invalid sticker set name is specified")
        if name.lower() in self.sticker_sets:
            raise ApiError(400, "Bad Request: sticker set name is already occupied")
        title = p.get("title")
        if not isinstance(title, str) or not 1 <= len(title) <= 64:
            raise ApiError(400, "Bad Request: invalid sticker set title is specified")
        if p.get("sticker_type") not in (None, "regular"):
            raise ApiError(400, "Bad Request: STICKER_TYPE_INVALID")
        raw = p.get("stickers")
        if not isinstance(raw, list) or not raw:
            raise ApiError(400, "Bad Request: sticker list is empty")
        if len(raw) > 50:
            raise ApiError(400, "Bad Request: STICKERS_TOO_MUCH")
        made = [self._new_sticker(p, r, name) for r in raw]
        st = FakeStickerSet(name, title, owner.id)
        for sticker in made:
            self.stickers[sticker.file_id] = sticker
            st.stickers.append(sticker.file_id)
        self.sticker_sets[name.lower()] = st
        return True

    async def m_addStickerToSet(self, p: dict[str, Any]) -> Any:
        st = self._sticker_set(p.get("name"))
        if int(p.get("user_id") or 0) != st.owner:
            raise ApiError(400, "Bad Request: USER_ID_INVALID")
        if len(st.stickers) >= 120:
            raise ApiError(400, "Bad Request: STICKERS_TOO_MUCH")
        sticker = self._new_sticker(p, p.get("sticker"), st.name)
        self.stickers[sticker.file_id] = sticker
        st.stickers.append(sticker.file_id)
        return True

    async def m_getStickerSet(self, p: dict[str, Any]) -> Any:
        st = self._sticker_set(p.get("name"))
        return {
            "name": st.name,
            "title": st.title,
            "sticker_type": "regular",
            "stickers": [self.sticker_json(f) for f in st.stickers],
        }

    async def m_deleteStickerSet(self, p: dict[str, Any]) -> Any:
        st = self._sticker_set(p.get("name"))
        del self.sticker_sets[st.name.lower()]
        for f in st.stickers:
            self.stickers.pop(f, None)
        return True

    def _holding(self, file_id: Any) -> FakeStickerSet:
        """The bot's set holding sticker ``file_id``."""
        for st in self.sticker_sets.values():
            if file_id in st.stickers:
                return st
        raise ApiError(400, "Bad Request: STICKER_INVALID")

    async def m_deleteStickerFromSet(self, p: dict[str, Any]) -> Any:
        """The Bot API: "delete a sticker from a set created by the bot", by its file id."""
        file_id = p.get("sticker")
        st = self._holding(file_id)
        st.stickers.remove(str(file_id))
        self.stickers.pop(str(file_id), None)
        return True

    async def m_replaceStickerInSet(self, p: dict[str, Any]) -> Any:
        """The Bot API: "equivalent to calling deleteStickerFromSet, then addStickerToSet,
        then setStickerPositionInSet": the new sticker takes the old one's place."""
        st = self._sticker_set(p.get("name"))
        if int(p.get("user_id") or 0) != st.owner:
            raise ApiError(400, "Bad Request: USER_ID_INVALID")
        old = p.get("old_sticker")
        if old not in st.stickers:
            raise ApiError(400, "Bad Request: STICKER_INVALID")
        sticker = self._new_sticker(p, p.get("sticker"), st.name)
        self.stickers[sticker.file_id] = sticker
        st.stickers[st.stickers.index(str(old))] = sticker.file_id
        self.stickers.pop(str(old), None)
        return True

    def _sticker_result(self, r: dict[str, Any], text: str) -> Result:
        """An InlineQueryResultCachedSticker: a sticker the bot has (from its sets); it
        posts the sticker, or ``input_message_content`` instead."""
        file_id = r.get("sticker_file_id")
        if not isinstance(file_id, str) or file_id not in self.stickers:
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        if r.get("input_message_content") is not None and not text:
            raise ApiError(400, "Bad Request: MESSAGE_EMPTY")
        return Result(str(r["id"]), "", None, text, sticker=file_id)


@dataclass
class FakeSticker:
    file_id: str
    unique_id: str
    set_name: str
    width: int
    height: int
    emoji: list[str]
    data: bytes


@dataclass
class FakeStickerSet:
    name: str
    title: str
    owner: int  # the user who owns it
    stickers: list[str] = field(default_factory=list)  # file ids, in the set's order


async def _params(request: web.Request) -> dict[str, Any]:
    """The parameters of a Bot API call: query string, JSON body or form fields (PTB sends
    forms whose non-string values are JSON-encoded)."""
    raw: dict[str, Any] = dict(request.query)
    ctype = request.content_type
    if ctype == "application/json":
        with contextlib.suppress(ValueError):
            body = await request.json()
            if isinstance(body, dict):
                return {**raw, **body}
    elif ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        form = await request.post()
        raw.update({k: v for k, v in form.items() if isinstance(v, str)})
        # uploaded files (``attach://<name>`` in a parameter names them): their bytes
        raw.update({k: v.file.read() for k, v in form.items() if isinstance(v, web.FileField)})
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if k in _STRINGS or not isinstance(v, str):
            out[k] = v
            continue
        try:
            out[k] = json.loads(v)
        except ValueError:
            out[k] = v
    return out
