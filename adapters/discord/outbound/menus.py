"""The private menus of the host (or a member with Manage Channels): the settings (a preset
select, a select per flag, pages, Done: ``bot.ui.controls.settings_menu``) and the kick menu
(a select of the seats: ``kick_menu``). They are ephemeral messages, edited in place; a
refusal is a reply of its own, the menu stays. Who may use them is ``bot.policy``'s say."""

from __future__ import annotations

from collections.abc import Sequence

from adapters.discord import text, widgets
from adapters.discord.markup import admin, cut
from adapters.discord.outbound.replies import Answering, Replies
from bot import policy
from bot.port import Notice, TableInfo
from bot.service import Service
from bot.ui import controls
from bot.ui import settings_schema as schema
from bot.ui.intents import CloseSettings, Intent, Kick, OpenSettings, SetFlag, SetPreset
from bot.ui.press import press

__all__ = ["Menus"]


class Menus:
    def __init__(self, service: Service, replies: Replies) -> None:
        self.service = service
        self.replies = replies

    async def _hosted(self, a: Answering, key: str) -> TableInfo | Notice:
        """The open table at ``key`` if ``a``'s user may run it (``bot.policy``); else the
        refusal to tell them."""
        info = await self.service.table(key)
        refused = policy.refusal_code(info, a.player, admin=admin(a.interaction), manage=True)
        if refused is not None or info is None:
            return Notice(refused or "no_table")
        return info

    async def open_kick(self, a: Answering, key: str) -> None:
        """``/uno kick`` without a player: a select of everyone else at the table."""
        info = await self._hosted(a, key)
        if isinstance(info, Notice):
            await self.replies.answer(a, None, told=(info,))
            return
        view = widgets.kick_view(info, a.player, a.tr)
        if view is None:
            await self.replies.answer(a, a.tr.gettext(text.NOBODY_TO_KICK))
        else:
            await self.replies.answer(a, a.tr.gettext(controls.KICK_PROMPT), view=view)

    async def open_settings(self, a: Answering, key: str) -> None:
        """The settings menu, as a new answer."""
        hosted = await self._hosted(a, key)
        if isinstance(hosted, Notice):
            await self.replies.answer(a, None, told=(hosted,))
            return
        await self._show_settings(a, key, 0, edit=False)

    async def _show_settings(
        self, a: Answering, key: str, page: int, *, edit: bool, told: Sequence[Notice] = ()
    ) -> None:
        """The settings menu at ``page``: a new answer, or (``edit``) the menu pressed
        drawn again, ``told`` (what the press's ``Result`` tells) in a follow-up."""
        info = await self.service.table(key)
        if not policy.is_open(info) or info is None:
            told = (*told, Notice("no_table"))
            if edit:  # the menu of a table that closed: nothing left to set
                await a.interaction.edit_original_response(view=None)
                await self.replies.follow(a, told)
            else:
                await self.replies.answer(a, None, told=told)
            return
        content, view, _ = widgets.settings_view(info, a.tr, page)
        if not edit:
            await self.replies.answer(a, content, view=view, told=told, names=info.names)
            return
        notes = self.replies.told_text(a, told, info.names)
        await a.interaction.edit_original_response(content=cut(content), view=view)
        if notes:
            await a.interaction.followup.send(cut(notes), ephemeral=True)

    async def press(self, a: Answering, key: str, intent: Intent) -> None:
        """A press or a choice on a settings or kick menu."""
        if isinstance(intent, Kick):
            await self._kick(a, key, intent)
            return
        if isinstance(intent, CloseSettings):
            await self._close(a, key)
            return
        page = intent.page if isinstance(intent, OpenSettings) else 0
        told: Sequence[Notice] = ()
        if isinstance(intent, SetPreset):
            res = await press(self.service, key, a.player, intent, admin=admin(a.interaction))
            told = res.told if res is not None else ()
        elif isinstance(intent, SetFlag):
            found = await self._set_flag(a, key, intent)
            if found is None:
                return
            told, page = found, schema.page_of(intent.flag)
        await self._show_settings(a, key, page, edit=True, told=told)

    async def _set_flag(self, a: Answering, key: str, intent: SetFlag) -> Sequence[Notice] | None:
        """Set the flag to the value chosen: what the change tells the presser (``None``:
        not a value the menu offered, refused here)."""
        info = await self.service.table(key)
        if info is None or not policy.is_open(info):
            return ()  # (the menu then says the table is gone)
        flag, value = intent.flag, intent.value
        offered = schema.menu_values(flag, getattr(info.rules, flag))
        if not any(value == v and type(value) is type(v) for v in offered):
            await self.replies.forged(a)  # not a value the menu offered
            return None
        res = await press(self.service, key, a.player, intent, admin=admin(a.interaction))
        return res.told if res is not None else ()

    async def _close(self, a: Answering, key: str) -> None:
        """Done: the menu gives way to the rules as they are now."""
        info = await self.service.table(key)
        summary = schema.rules_summary(info.rules, a.tr, info.preset) if info else None
        await a.interaction.edit_original_response(content=cut(summary or "✅"), view=None)

    async def _kick(self, a: Answering, key: str, intent: Kick) -> None:
        res = await press(self.service, key, a.player, intent, admin=admin(a.interaction))
        told = res.told if res is not None else ()
        names = res.table.names if res is not None and res.table is not None else {}
        if told:
            await self.replies.follow(a, told, names)
        else:
            await self.replies.answer(a, "✅", names=names)
