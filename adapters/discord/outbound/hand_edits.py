"""Edits of a hand message: through the webhook of the session's interaction token (any
process may hold it), with the picture of the cards attached (``hand.png``) only when the
message does not carry that picture yet."""

from __future__ import annotations

import io
import logging
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

import discord

from adapters.discord.context import Context
from adapters.discord.emojis import refused_emojis
from adapters.discord.outbound.sessions import HandSession, Picture
from bot.ui import card_images as images
from engine import Action, Card, Draw, Play

__all__ = ["HAND_IMAGE", "HandEdits", "picture_of", "view_signature"]

log = logging.getLogger(__name__)

HAND_IMAGE = "hand.png"


class HandEdits:
    """Sends what a hand message shows; ``image_times``: seconds spent drawing each hand
    picture uploaded (the latest ones)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.image_times: deque[float] = deque(maxlen=10_000)

    def webhook(self, app: int, token: str) -> discord.Webhook:
        """The webhook of an interaction's token: its messages are editable for 15 minutes
        by whoever has the token (any process)."""
        assert self.ctx.client is not None
        return discord.Webhook.partial(app, token, client=self.ctx.client)

    async def empty_message(self, app: int, token: str, message: int, line: str) -> None:
        """Edit ``message`` into ``line`` alone (an old picture of a hand goes)."""
        hook = self.webhook(app, token)
        if self.ctx.settings.card_images:
            await hook.edit_message(message, content=line, view=None, attachments=[])
        else:
            await hook.edit_message(message, content=line, view=None)

    async def empty(self, target: discord.Interaction[Any], line: str) -> None:
        """Edit ``target``'s message into ``line`` alone (an old picture of a hand goes)."""
        if self.ctx.settings.card_images:
            await target.edit_original_response(content=line, view=None, attachments=[])
        else:
            await target.edit_original_response(content=line, view=None)

    async def _edit(
        self, s: HandSession, content: str, view: discord.ui.View | None, **files: Any
    ) -> discord.Message:
        """Edit the hand message: by its id through the session's token (any process),
        or, an answer whose id is not known yet, as the interaction's original response."""
        if s.message is None:
            assert s.interaction is not None
            return await s.interaction.edit_original_response(content=content, view=view, **files)
        hook = self.webhook(s.app, s.token)
        return await hook.edit_message(s.message, content=content, view=view, **files)

    async def edit(
        self, s: HandSession, content: str, view: discord.ui.View | None
    ) -> discord.Message:
        """Edit the hand message with ``s.picture``, uploaded only to a message that does
        not carry it yet. What it carries is known from the last edit's answer (the
        attachment's id): one that another process changed since gets it again. An upload
        Discord refuses does not cost the player their hand: it is shown again without a
        picture (an expired token still raises)."""
        if not self.ctx.settings.card_images:
            return await self._edit(s, content, view)
        mid = s.message
        files = self._attachments(s, mid)
        if files is None and s.pictured is not None and mid is not None:
            # the picture stays: the answer says whether it is the one this process put there
            msg = await self._edit(s, content, view)
            if _attachment_id(msg) == s.pictured[1]:
                return msg
            s.pictured = None  # another process changed it meanwhile: upload it again
            files = self._attachments(s, msg.id)
        if files is None:
            return await self._edit(s, content, view)
        try:
            msg = await self._edit(s, content, view, attachments=files)
            ok = bool(files)
        except discord.NotFound:
            raise
        except discord.HTTPException as e:
            if refused_emojis(e, None) is not None:
                raise  # an emoji refused, not the picture: the caller draws it in text
            log.warning("hand picture not uploaded (%s %s): shown without it", e.status, e.code)
            msg = await self._edit(s, content, view, attachments=[])
            ok = False
        carried = _attachment_id(msg)
        picture = s.picture
        if ok and picture is not None and carried is not None:
            s.pictured = (msg.id, carried, picture)
        else:
            s.pictured = None
        return msg

    def _attachments(self, s: HandSession, mid: int | None) -> list[discord.File] | None:
        """The attachments for an edit of message ``mid`` (``None``: a new message) that is
        to show ``s.picture``: ``None`` to keep what it has, else the new list."""
        carried = s.pictured if s.pictured is not None and s.pictured[0] == mid else None
        if s.picture is None:
            # nothing to picture (no cards, or no longer a player): remove an old picture
            return None if mid is None else []
        if carried is not None and carried[2] == s.picture:
            return None  # only the buttons changed: the picture stays
        file = self.hand_file(s.picture)
        if file is None:  # not drawn: an old picture would show other cards
            return None if mid is None else []
        return [file]

    def hand_file(self, picture: Picture) -> discord.File | None:
        started = time.perf_counter()
        try:
            data = images.hand_png(*picture)
        except Exception:  # a picture is an extra: never a reason to lose the hand
            log.exception("a hand picture could not be drawn")
            return None
        self.image_times.append(time.perf_counter() - started)
        return discord.File(io.BytesIO(data), filename=HAND_IMAGE)

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        s: HandSession,
        content: str,
        view: discord.ui.View | None,
    ) -> None:
        """Draw the hand into ``interaction``'s own answer (with a picture if one can be
        sent)."""
        file = None if s.picture is None else self.hand_file(s.picture)
        if file is None:
            await interaction.edit_original_response(content=content, view=view)
            return
        try:
            await interaction.edit_original_response(
                content=content, view=view, attachments=[file]
            )
        except discord.NotFound:
            raise
        except discord.HTTPException as e:
            if refused_emojis(e, None) is not None:
                raise  # an emoji refused, not the picture: the caller draws it in text
            log.warning("hand picture not uploaded (%s %s): shown without it", e.status, e.code)
            await interaction.edit_original_response(content=content, view=view, attachments=[])


def picture_of(hand: Sequence[Card], legal: Sequence[Action]) -> Picture:
    """The hand's picture: its cards in card order, the playable ones marked when the
    player has a move to make with them (playing or drawing), else none marked."""
    cards = tuple(sorted(hand, key=lambda c: c.order))
    if not any(isinstance(a, (Play, Draw)) for a in legal):
        return cards, None
    return cards, frozenset(a.card for a in legal if isinstance(a, Play))


def view_signature(view: discord.ui.View | None) -> tuple[Any, ...]:
    """What a view shows and does, comparable: each item's kind, id, label, emoji, style,
    whether it is disabled, and a select's options."""
    if view is None:
        return ()
    out: list[Any] = []
    for item in view.children:
        d = item.to_component_dict()
        out.append(repr(sorted(d.items(), key=lambda kv: kv[0])))
    return tuple(out)


def _attachment_id(msg: discord.Message) -> int | None:
    """The id of the (one) attachment a hand message carries."""
    return msg.attachments[0].id if msg.attachments else None
