"""Each player's hand at a table, in an ephemeral message of theirs: opened by "Show hand"
(or a press on it, which makes it the live one), drawn again when what they can do changed,
emptied when a newer one replaces it or its token is about to run out. Work is queued in
the outbox's lane ``h:<table>:<player>``.

:class:`Hands` is the one object that calls the hand sessions (``sessions``) and their
edits (``hand_edits``), in their order: the sessions kept with the table taken up first
(``adopt``), then the player's session opened or found, then its drawing queued. The
port's calls (``on_table``, ``on_hand``, ``on_notice``, ``on_closed``) and the presses'
(``show``, ``take``, ``redraw``, ``relang``) go through it."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import discord

from adapters.discord import text, widgets
from adapters.discord.context import Context
from adapters.discord.markup import cut, md_names, notice_text
from adapters.discord.outbound.hand_edits import HandEdits, picture_of, view_signature
from adapters.discord.outbound.sessions import HAND_TTL, HandSession, Sessions
from bot import policy
from bot.model import PLAYING
from bot.port import Notice, TableInfo
from bot.ui import controls, render
from bot.ui.i18n import translator
from bot.weblinks import links_for
from engine import Accept, Challenge, ChooseColor, Draw, Event, NextRound, Pass, Phase, Play

__all__ = ["Hands"]

log = logging.getLogger(__name__)

# actions whose buttons are refused once the table moved on (CallUno and CatchUno are not)
_VERSIONED = (Play, Draw, Pass, Accept, Challenge, ChooseColor, NextRound)


class Hands:
    """The hand messages: their sessions and their edits, called in their order here only.
    ``image_times``: seconds spent drawing each hand picture uploaded (the latest ones)."""

    def __init__(self, ctx: Context, hand_ttl: float = HAND_TTL) -> None:
        self.ctx = ctx
        self._sessions = Sessions(ctx.service, hand_ttl)
        self._edits = HandEdits(ctx)
        self.links = links_for(ctx.settings)  # the web table's, if it is on

    @property
    def image_times(self) -> deque[float]:
        return self._edits.image_times

    def stop(self) -> None:
        """Forget every session (their timers cancelled): the adapter stops."""
        self._sessions.clear()

    # -- what the port hands over (under the table's lock: queued only) --------------------

    def on_table(self, info: TableInfo, *, final: bool = False) -> None:
        """The table changed (``final``: it closed): every hand message at it is drawn again
        where what it offers changed (``final``: a last time, without buttons)."""
        self._sessions.adopt(info)
        for s in self._sessions.at(info.key):
            self.queue(s, force=final, final=final)

    def on_hand(
        self, info: TableInfo, player: str, events: Sequence[Event], names: Mapping[str, str]
    ) -> None:
        """``player``'s view changed: their live hand message is drawn again, with the lines
        of ``events`` under it (none live: they see it on their next "Show hand")."""
        self._sessions.adopt(info)
        s = self._sessions.get(info.key, player)
        if s is None:
            return
        s.recent.extend(render.event_lines(events, translator(s.lang), md_names(names)))
        self.queue(s, force=True)

    def has(self, key: str, player: str) -> bool:
        """Whether ``player`` has a hand message at ``key`` this process knows."""
        return self._sessions.get(key, player) is not None

    def on_notice(self, key: str, player: str, notice: Notice, names: Mapping[str, str]) -> bool:
        """Say ``notice`` as a line under ``player``'s live hand message (whichever process
        says it: no follow-up message needs the interaction itself); ``False``: they have
        none whose token still lives."""
        s = self._sessions.get(key, player)
        if s is None or not self._sessions.alive(s):
            return False
        s.recent.append(notice_text(notice, translator(s.lang), names))
        self.queue(s, force=True)
        return True

    def relang(self, player: str, lang: str) -> None:
        """``player``'s language changed: their hand messages speak it, drawn again."""
        for s in self._sessions.of(player):
            s.lang = lang
            self.queue(s, force=True)

    # -- what the presses ask --------------------------------------------------------------

    async def show(
        self,
        info: TableInfo,
        player: str,
        interaction: discord.Interaction[Any],
        lang: str,
        answer: int | None,
        before: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """ "Show hand" (or Draw on the table): ``interaction``'s deferred answer (the
        message ``answer``, if known) is the player's hand message now, drawn once
        ``before`` (the draw) was made."""
        self._sessions.adopt(info)  # the hand another process (or before a restart) drew
        s = self._open(info.key, player, interaction, lang, answer)
        s.picking = None
        if before is not None:
            await before()
        await asyncio.wait({self.queue(s, force=True)})  # (cancelled when stopping)
        token = interaction.token
        if token not in (s.drawn, s.token):
            # another press took the hand message over meanwhile (a double click, Show hand
            # and Draw at once): this answer, deferred as "thinking", says where it went, or
            # it would think forever
            await self._edits.empty(interaction, translator(lang).gettext(text.REPLACED))
        elif s.drawn != token:
            # the drawing failed: this answer still gets the hand
            await self.answer(interaction, s)

    async def take(
        self,
        info: TableInfo,
        player: str,
        interaction: discord.Interaction[Any],
        lang: str,
        pressed: int | None,
    ) -> HandSession | None:
        """A press on the hand message ``pressed``: it is the live one now (its session,
        to change and ``redraw``); ``None`` if it is older than the live one (its emptying
        failed, or this press raced it): emptied by this press, and said to be so."""
        self._sessions.adopt(info)  # the hand another process (or before a restart) drew
        live = self._sessions.get(info.key, player)
        if live is not None and live.message not in (None, pressed):
            tr = translator(lang)
            line = tr.gettext(text.EXPIRED, hand=render.button_label("hand", tr))
            await self._edits.empty(interaction, line)
            return None
        return self._open(info.key, player, interaction, lang, pressed)

    def redraw(self, s: HandSession) -> asyncio.Future[None]:
        """Draw ``s`` again after a press on it, whatever changed."""
        return self.queue(s, force=True)

    def _open(
        self,
        key: str,
        player: str,
        interaction: discord.Interaction[Any],
        lang: str,
        message: int | None,
    ) -> HandSession:
        """``interaction``'s message (``message``: the hand message pressed, or the answer
        to a "Show hand") is now the player's hand message, and its token the fresh one.
        The one it replaces, if another, is emptied: its buttons would act on a view that
        nobody updates any more."""
        s = self._sessions.get(key, player)
        token, since = interaction.token, interaction.created_at.timestamp()
        app = interaction.application_id
        if s is None:
            s = HandSession(key, player, token, app, since, lang, message, interaction)
            self._sessions.by_player[(key, player)] = s
        else:
            old = s.message
            alive = self._sessions.alive(s)
            if old is not None and old == s.drawn_in and old != message and alive:
                # (one never drawn into yet is emptied by its own answer: ``open_hand``)
                self.retire(s, s.app, s.token, old, text.REPLACED)
            s.token, s.app, s.since, s.lang = token, app, since, lang
            s.message, s.interaction = message, interaction
        if s.expiry is not None:
            s.expiry.cancel()
        loop = asyncio.get_running_loop()
        wait = max(0.0, since + self._sessions.hand_ttl - time.time())
        s.expiry = loop.call_later(wait, self._expire, s, since)
        return s

    def _expire(self, s: HandSession, since: float) -> None:
        """The token is about to die: tell the player how to get a fresh hand."""
        if not self._sessions.live(s) or s.since != since:
            return
        self._sessions.drop(s)
        if s.message is not None:
            self.retire(s, s.app, s.token, s.message, text.EXPIRED, slot="hand")

    def retire(
        self,
        s: HandSession,
        app: int,
        token: str,
        message: int,
        note: str,
        *,
        slot: str | None = None,
    ) -> None:
        """Queue the edit that empties hand message ``message`` (through ``token``, still
        within its 15 minutes) into ``note``: no buttons, no picture. Not if a press on it
        made it the live one again meanwhile."""
        tr = translator(s.lang)
        line = tr.gettext(note, hand=render.button_label("hand", tr))

        async def _job() -> None:
            if self._sessions.live(s) and s.message == message:
                return
            with contextlib.suppress(discord.HTTPException):
                await self._edits.empty_message(app, token, message, line)

        self.ctx.outbox.put(f"h:{s.key}:{s.player}", slot, _job)

    def queue(
        self, s: HandSession, *, force: bool = False, final: bool = False
    ) -> asyncio.Future[None]:
        """Draw ``s`` again (``force``: even if what it offers did not change; ``final``:
        the table closed, a last edit without buttons)."""
        s.forced = s.forced or force
        s.final = s.final or final
        return self.ctx.outbox.put(f"h:{s.key}:{s.player}", "hand", lambda: self._draw(s))

    async def _draw(self, s: HandSession) -> None:
        if not self._sessions.live(s):
            return
        content, view, shown = await self.message(s)
        final = s.final
        if not (s.forced or final) and shown is not None and shown == s.shown:
            # a player waiting for their turn, whose possible actions did not change:
            # the public table tells the rest; their hand is redrawn when it concerns them
            return
        s.forced, s.shown = False, shown
        if final:
            view = None
            self._sessions.drop(s)
        drawn = (content, view_signature(view), s.picture)
        if s.message is not None and s.drawn_in == s.message and drawn == s.drawn_sig:
            return  # the message shows exactly this already: an edit would change nothing
        token, drawn_at = s.token, s.drawn_at
        try:
            try:
                msg = await self._edits.edit(s, content, view)
            except discord.HTTPException as e:
                if not self.ctx.cards.refused(e, view):
                    raise
                # an emoji of the set is gone (deleted by hand): the cards are text now,
                # and the hand is drawn again at once (not dropped with the refusal)
                content, view, s.shown = await self.message(s)
                if final:
                    view = None
                drawn, drawn_at = (content, view_signature(view), s.picture), s.drawn_at
                msg = await self._edits.edit(s, content, view)
        except discord.HTTPException as e:
            log.info("hand of %s at %s no longer reachable: %s", s.player, s.key, e)
            self._sessions.drop(s)
            return
        s.drawn, s.message, s.drawn_in = token, msg.id, msg.id
        s.drawn_sig = drawn
        if final:
            return
        await self._sessions.keep(s)
        service = self.ctx.service
        if service.shared:
            # another process may have drawn a newer state into this message just before
            # this edit landed: the newest committed version is the one that stays
            now = await service.table(s.key)
            if now is None or (now.version, now.status) != drawn_at:
                gone = not policy.is_open(now)
                self.queue(s, force=True, final=gone)

    async def message(self, s: HandSession) -> tuple[str, discord.ui.View | None, Any]:
        """The hand message as the game stands now: text, components, and what it offers
        (with the turn it was drawn for, when its buttons carry the table version)."""
        tr = translator(s.lang)
        service = self.ctx.service
        info = await service.table(s.key)
        hand = await service.hand(s.key, s.player)
        s.picture = None
        s.drawn_at = None if info is None else (info.version, info.status)
        if info is None or hand is None:
            return tr.gettext(render.REFUSALS["not_a_player"]), None, ("gone",)
        legal = await service.legal(s.key, s.player) if info.status == PLAYING else []
        if not policy.is_open(info) and hand.phase is not Phase.GAME_OVER:
            # stopped mid-round: not "your turn" any more, whatever the game's last state
            hand = dataclasses.replace(hand, phase=Phase.GAME_OVER)
        if self.ctx.settings.card_images and hand.hand:
            s.picture = picture_of(hand.hand, legal)
        # what it offers; buttons that carry the version stay good while the turn is the
        # same (a call or a catch of UNO moves the version on, not the turn)
        versioned = any(isinstance(a, _VERSIONED) for a in legal)
        turn = info.turn_version if versioned else None
        shown = (info.status, frozenset(repr(a) for a in legal), len(hand.hand or ()), turn)
        names = info.names  # raw in labels, escaped in the message's text
        body = render.hand_text(hand, tr, md_names(names))
        if s.recent:
            body += "\n\n" + "\n".join(s.recent)
        if not legal:
            return cut(body), self._web(s, info, tr, None), shown
        art = self.ctx.emojis
        if s.picking is not None:
            rows = controls.hand_menu(info, hand, legal, tr)
            choices = widgets.hand_choices(hand.hand or (), widgets.menu_plays(rows))
            choice = next((c for c in choices if c.key == s.picking), None)
            if choice is not None and choice.needs() is not None:
                prompt, view = widgets.picker_view(info, choice, tr, art)
                return cut(body + "\n\n" + prompt), self._web(s, info, tr, view), shown
            s.picking = None
        view, s.page, _ = widgets.hand_view(info, hand, legal, tr, page=s.page, art=art)
        return cut(body), self._web(s, info, tr, view), shown

    def _web(
        self, s: HandSession, info: Any, tr: Any, view: discord.ui.View | None
    ) -> discord.ui.View | None:
        """``view`` with a link to the web table ("Open the table": this player's page,
        live after this message's token has run out), where a row has room for it."""
        links = self.links
        if links is None or not policy.is_open(info):
            return view
        out = view if view is not None else discord.ui.View(timeout=None)
        url = links.page_url(player=links.player_token(s.key, s.player, info.created))
        button: discord.ui.Button[Any] = discord.ui.Button(
            style=discord.ButtonStyle.link, url=url, label=tr.gettext(text.OPEN_TABLE), emoji="🎴"
        )
        with contextlib.suppress(ValueError):  # five full rows: the cards come first
            out.add_item(button)
        return out

    async def answer(self, interaction: discord.Interaction[Any], s: HandSession) -> None:
        """Draw the hand into ``interaction``'s own answer (a drawing that failed)."""
        content, view, _ = await self.message(s)
        try:
            await self._edits.answer(interaction, s, content, view)
        except discord.HTTPException as e:
            if not self.ctx.cards.refused(e, view):
                raise
            content, view, _ = await self.message(s)  # the cards as text now
            await self._edits.answer(interaction, s, content, view)
