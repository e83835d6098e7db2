"""A pressed control's intent (``bot.ui.intents``) turned into the service call it asks
for: ``press(service, key, player, intent, ...)``. The UI kit never imports the service:
``Changes`` is what it calls, as a protocol (``bot.service.Service`` is one), and the
call's result comes back as the service returned it (a ``bot.service.Result``: the
adapter answers the presser from it, ``Result.told``)."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from bot.ui import intents
from engine import Action

R_co = TypeVar("R_co", covariant=True)
T = TypeVar("T")


class Changes(Protocol[R_co]):
    """The service's changes a press may ask for (each returns its result, ``R_co``)."""

    async def act(
        self,
        key: str,
        player: str,
        action: Action,
        *,
        seen_version: int | None = None,
    ) -> R_co: ...

    async def join(self, key: str, player: str, name: str) -> R_co: ...

    async def leave(self, key: str, player: str) -> R_co: ...

    async def add_bot(
        self, key: str, by: str, strategy: str | None = ..., *, admin: bool = False
    ) -> R_co: ...

    async def start_game(self, key: str, by: str, *, admin: bool = False) -> R_co: ...

    async def configure(
        self,
        key: str,
        by: str,
        *,
        preset: str | None = None,
        overrides: dict[str, Any] | None = None,
        admin: bool = False,
    ) -> R_co: ...

    async def kick(self, key: str, by: str, target: str, *, admin: bool = False) -> R_co: ...

    async def autopilot(self, key: str, player: str, on: bool) -> R_co: ...

    async def vote_end(self, key: str, player: str, vote: int = 0) -> R_co: ...

    async def set_chat_language(
        self, key: str, scope: str, lang: str | None, *, admin: bool = True
    ) -> R_co: ...

    async def set_user_language(self, user: str, lang: str | None) -> R_co: ...

    async def set_user_cards(self, user: str, look: str | None) -> R_co: ...


async def press(
    service: Changes[T],
    key: str,
    player: str,
    intent: intents.Intent,
    *,
    name: str = "",
    admin: bool = False,
    scope: str | None = None,
) -> T | None:
    """Do what a pressed control asks, as ``player`` (named ``name`` when they sit down;
    ``admin``: the platform says they manage the chat; ``scope``: the chat's, whose
    language a ``Language`` of kind ``chat`` sets). ``None`` for an intent that only
    changes what the presser sees (a page, a menu, the hand): the adapter's to show."""
    match intent:
        case intents.Act(action, version):
            return await service.act(key, player, action, seen_version=version)
        case intents.Join():
            return await service.join(key, player, name or player)
        case intents.LeaveTable():
            return await service.leave(key, player)
        case intents.AddBot():
            return await service.add_bot(key, player, admin=admin)
        case intents.Start():
            return await service.start_game(key, player, admin=admin)
        case intents.SetFlag(flag, value):
            return await service.configure(key, player, overrides={flag: value}, admin=admin)
        case intents.SetPreset(preset):
            return await service.configure(key, player, preset=preset, admin=admin)
        case intents.Kick(target):
            return await service.kick(key, player, target, admin=admin)
        case intents.Autopilot(on):
            return await service.autopilot(key, player, on)
        case intents.VoteEnd(vote):
            return await service.vote_end(key, player, vote)
        case intents.Language("user", code):
            return await service.set_user_language(player, code)
        case intents.Language("chat", code) if scope is not None:
            return await service.set_chat_language(key, scope, code, admin=admin)
        case intents.CardLook(look):
            return await service.set_user_cards(player, look)
    return None
