"""The private menus of the host (or a member with Manage Channels): the settings (a preset
select, a select per flag, pages, Done: ``bot.ui.controls.settings_menu``) and the kick menu
(a select of the seats: ``kick_menu``). They are ephemeral messages, edited in place; a
refusal is a reply of its own, the menu stays. Who may use them is ``bot.policy``'s say."""

from __future__ import annotations

from adapters.discord import text, views
from adapters.discord.markup import admin, cut
from adapters.discord.replies import Origin, Replies
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

    async def _hosted(self, o: Origin, key: str) -> TableInfo | None:
        """The open table at ``key`` if ``o``'s user may run it (``bot.policy``); else
        ``None``, the refusal among ``o``'s notices."""
        info = await self.service.table(key)
        refused = policy.refusal_code(info, o.player, admin=admin(o.interaction), manage=True)
        if refused is not None or info is None:
            o.notices.append(Notice(refused or "no_table"))
            return None
        return info

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
            await self.replies.answer(o, o.tr.gettext(controls.KICK_PROMPT), view=view)

    async def open_settings(self, o: Origin, key: str) -> None:
        """The settings menu, as a new answer."""
        if await self._hosted(o, key) is None:
            await self.replies.answer(o, None)
            return
        await self._show_settings(o, key, 0, edit=False)

    async def _show_settings(self, o: Origin, key: str, page: int, *, edit: bool) -> None:
        info = await self.service.table(key)
        if not policy.is_open(info) or info is None:
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

    async def press(self, o: Origin, key: str, intent: Intent) -> None:
        """A press or a choice on a settings or kick menu."""
        if isinstance(intent, Kick):
            await self._kick(o, key, intent)
            return
        if isinstance(intent, CloseSettings):
            await self._close(o, key)
            return
        page = intent.page if isinstance(intent, OpenSettings) else 0
        if isinstance(intent, SetPreset):
            await press(self.service, key, o.player, intent, admin=admin(o.interaction), origin=o)
        elif isinstance(intent, SetFlag):
            if not await self._set_flag(o, key, intent):
                return
            page = schema.page_of(intent.flag)
        await self._show_settings(o, key, page, edit=True)

    async def _set_flag(self, o: Origin, key: str, intent: SetFlag) -> bool:
        """Set the flag to the value chosen (``False``: not one the menu offered)."""
        info = await self.service.table(key)
        if info is None or not policy.is_open(info):
            return True  # (the menu then says the table is gone)
        flag, value = intent.flag, intent.value
        offered = schema.menu_values(flag, getattr(info.rules, flag))
        if not any(value == v and type(value) is type(v) for v in offered):
            await self.replies.forged(o)  # not a value the menu offered
            return False
        await press(self.service, key, o.player, intent, admin=admin(o.interaction), origin=o)
        return True

    async def _close(self, o: Origin, key: str) -> None:
        """Done: the menu gives way to the rules as they are now."""
        info = await self.service.table(key)
        summary = schema.rules_summary(info.rules, o.tr, info.preset) if info else None
        await o.interaction.edit_original_response(content=cut(summary or "✅"), view=None)

    async def _kick(self, o: Origin, key: str, intent: Kick) -> None:
        res = await press(
            self.service, key, o.player, intent, admin=admin(o.interaction), origin=o
        )
        names = res.table.names if res is not None and res.table is not None else {}
        if o.notices:
            await self.replies.follow(o, names)
        else:
            await self.replies.answer(o, "✅", names=names)
