"""A pressed control's intent (``bot.ui.intents``) turned into the service call it asks
for: ``press(service, key, player, intent, ...)``. The UI kit never imports the service:
``Changes`` is what it calls, as a protocol (``bot.service.Service`` is one), and the
call's result comes back as the service returned it."""

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
        origin: Any = None,
    ) -> R_co: ...

    async def join(self, key: str, player: str, name: str, *, origin: Any = None) -> R_co: ...

    async def leave(self, key: str, player: str, *, origin: Any = None) -> R_co: ...

    async def add_bot(
        self, key: str, by: str, strategy: str = ..., *, admin: bool = False, origin: Any = None
    ) -> R_co: ...

    async def start_game(
        self, key: str, by: str, *, admin: bool = False, origin: Any = None
    ) -> R_co: ...

    async def configure(
        self,
        key: str,
        by: str,
        *,
        preset: str | None = None,
        overrides: dict[str, Any] | None = None,
        admin: bool = False,
        origin: Any = None,
    ) -> R_co: ...

    async def kick(
        self, key: str, by: str, target: str, *, admin: bool = False, origin: Any = None
    ) -> R_co: ...

    async def autopilot(self, key: str, player: str, on: bool, *, origin: Any = None) -> R_co: ...

    async def vote_end(
        self, key: str, player: str, vote: int = 0, *, origin: Any = None
    ) -> R_co: ...


async def press(
    service: Changes[T],
    key: str,
    player: str,
    intent: intents.Intent,
    *,
    name: str = "",
    admin: bool = False,
    origin: Any = None,
) -> T | None:
    """Do what a pressed control asks, as ``player`` (named ``name`` when they sit down;
    ``admin``: the platform says they manage the chat). ``None`` for an intent that only
    changes what the presser sees (a page, a menu, the hand): the adapter's to show."""
    match intent:
        case intents.Act(action, version):
            return await service.act(key, player, action, seen_version=version, origin=origin)
        case intents.Join():
            return await service.join(key, player, name or player, origin=origin)
        case intents.LeaveTable():
            return await service.leave(key, player, origin=origin)
        case intents.AddBot():
            return await service.add_bot(key, player, admin=admin, origin=origin)
        case intents.Start():
            return await service.start_game(key, player, admin=admin, origin=origin)
        case intents.SetFlag(flag, value):
            return await service.configure(
                key, player, overrides={flag: value}, admin=admin, origin=origin
            )
        case intents.SetPreset(preset):
            return await service.configure(key, player, preset=preset, admin=admin, origin=origin)
        case intents.Kick(target):
            return await service.kick(key, player, target, admin=admin, origin=origin)
        case intents.Autopilot(on):
            return await service.autopilot(key, player, on, origin=origin)
        case intents.VoteEnd(vote):
            return await service.vote_end(key, player, vote, origin=origin)
    return None
