"""The private menus of the host (or a member with Manage Channels): the settings (a preset
select, a select per flag, pages) and the kick menu (a select of the seats). They are
ephemeral messages, edited in place; a refusal is a reply of its own, the menu stays."""

from __future__ import annotations

from collections.abc import Sequence

from adapters.discord import ids, text, views
from adapters.discord.markup import admin, as_int, cut
from adapters.discord.replies import Origin, Replies
from bot.model import OPEN_STATUSES
from bot.port import Notice, TableInfo
from bot.service import Service
from engine import Rules

__all__ = ["MENU_ACTIONS", "Menus"]

# private actions on a settings or kick menu
MENU_ACTIONS = frozenset({"refresh", "setpage", "preset", "flag", "kick"})


class Menus:
    def __init__(self, service: Service, replies: Replies) -> None:
        self.service = service
        self.replies = replies

    async def _hosted(self, o: Origin, key: str) -> TableInfo | None:
        """The open table at ``key`` if ``o``'s user may run it (its host, or a member with
        Manage Channels); else ``None``, the refusal among ``o``'s notices."""
        info = await self.service.table(key)
        if info is None or info.status not in OPEN_STATUSES:
            o.notices.append(Notice("no_table"))
        elif o.player != info.host and not admin(o.interaction):
            o.notices.append(Notice("not_host"))
        else:
            return info
        return None

    async def open_kick(self, o: Origin, key: str) -> None:
        """``/uno kick`` without a player: a select of everyone else at the table."""
        info = await self._hosted(o, key)
        if info is None:
            await self.replies.answer(o, None)
            return
        view = views.kick_view(info, o.player, o.tr)
        if view is None:
            await self.replies.answer(o, o.tr.gettext(text.NOBODY_TO_KICK))
        else:
            await self.replies.answer(o, o.tr.gettext(text.KICK_PLACEHOLDER), view=view)

    async def open_settings(self, o: Origin, key: str) -> None:
        """The settings menu, as a new answer."""
        if await self._hosted(o, key) is None:
            await self.replies.answer(o, None)
            return
        await self._show_settings(o, key, 0, edit=False)

    async def _show_settings(self, o: Origin, key: str, page: int, *, edit: bool) -> None:
        info = await self.service.table(key)
        if info is None or info.status not in OPEN_STATUSES:
            o.notices.append(Notice("no_table"))
            if edit:  # the menu of a table that closed: nothing left to set
                await o.interaction.edit_original_response(view=None)
                await self.replies.follow(o)
            else:
                await self.replies.answer(o, None)
            return
        content, view, _ = views.settings_view(info, o.tr, page)
        if not edit:
            await self.replies.answer(o, content, view=view)
            return
        notes = self.replies.notices_text(o, info.names)
        await o.interaction.edit_original_response(content=cut(content), view=view)
        if notes:
            await o.interaction.followup.send(cut(notes), ephemeral=True)

    async def press(self, o: Origin, key: str, cid: ids.CustomId, values: Sequence[str]) -> None:
        """A press or a choice on a settings or kick menu."""
        a = cid.action
        if a == "refresh":
            return
        if a == "kick":
            await self._kick(o, key, values[0])
            return
        page = (as_int(cid.arg) or 0) if a == "setpage" else None
        if a == "preset":
            if values[0] not in Rules.PRESET_NAMES:
                await self.replies.forged(o)  # not a preset the menu offered
                return
            await self.service.configure(
                key, o.player, preset=values[0], admin=admin(o.interaction), origin=o
            )
        elif a == "flag":
            if not await self._set_flag(o, key, cid.arg, values[0]):
                return
            page = _flag_page(cid.arg)
        await self._show_settings(o, key, page or 0, edit=True)

    async def _set_flag(self, o: Origin, key: str, flag: str, raw: str) -> bool:
        """Set ``flag`` to the value chosen (``False``: not one the menu offered)."""
        info = await self.service.table(key)
        if info is None or info.status not in OPEN_STATUSES:
            return True  # (the menu then says the table is gone)
        try:
            value = views.decode_value(flag, raw, info.rules)
        except ValueError:
            await self.replies.forged(o)  # not a value the menu offered
            return False
        await self.service.configure(
            key, o.player, overrides={flag: value}, admin=admin(o.interaction), origin=o
        )
        return True

    async def _kick(self, o: Origin, key: str, chosen: str) -> None:
        target = ids.decode_player(chosen, key)
        if target is None:
            o.notices.append(Notice("not_seated"))
            await self.replies.follow(o)
            return
        res = await self.service.kick(key, o.player, target, admin=admin(o.interaction), origin=o)
        names = res.table.names if res.table is not None else {}
        if o.notices:
            await self.replies.follow(o, names)
        else:
            await self.replies.answer(o, "✅", names=names)


def _flag_page(flag: str) -> int:
    flags = views.settings_flags()
    return flags.index(flag) // views.FLAGS_PER_PAGE if flag in flags else 0
