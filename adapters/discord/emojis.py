"""The card set as the bot's application emojis on Discord: the cards on a hand's buttons
and select options, and the top card in the table message.

An application may own 2,000 emojis, usable in every server the bot is in; the set is 126
of them (``bot.cards``: every face, playable and dimmed), 128 x 128 PNGs named
``uno<version>_<picture>`` (``uno1_r5``, ``uno1_r5_d``, ``uno1_w4r``). At start the bot
lists the application's emojis (one call): the card emojis of this version that are there
are used (and recorded, if a start stopped between an upload and its record), a recorded
one that is gone (deleted by hand) is uploaded again, the missing ones are uploaded one at
a time, each recorded as it is made (Discord's rate limits are waited out by discord.py),
and the card emojis of other versions are deleted once this one is complete. Nothing is
uploaded twice; until the set is complete (or if it cannot be), the cards are text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from typing import Any

import discord

from bot import cards
from bot.cards import SET_VERSION, Asset, Pictures, Uploads, asset_for, manifest
from bot.images import Face
from engine import Card, Color

__all__ = ["EMOJI_MAX", "CardEmojis", "EmojiSets", "emoji_name"]

log = logging.getLogger(__name__)

EMOJI_MAX = 2000  # emojis an application may own
_NAME = re.compile(r"^uno(\d+)_([a-z0-9_]+)$")


def emoji_name(asset: Asset | str, version: int = SET_VERSION) -> str:
    """``uno1_r5``: 2-32 of ``[A-Za-z0-9_]``, as Discord wants an emoji's name."""
    name = asset.name if isinstance(asset, Asset) else asset
    return f"uno{version}_{name}"


class CardEmojis:
    """A complete set: each card's emoji."""

    def __init__(self, pictures: Pictures) -> None:
        self.pictures = pictures
        self._emojis = {
            name: discord.PartialEmoji(name=emoji_name(name, pictures.version), id=int(ref))
            for name, ref in pictures.refs.items()
        }

    def emoji(
        self, card: Card | str, color: Color | None = None, *, dim: bool = False
    ) -> discord.PartialEmoji:
        """``card``'s emoji (a wild in the colour named, if any; dimmed or not)."""
        return self._emojis[asset_for(card, color, dim=dim).name]

    def back(self) -> discord.PartialEmoji:
        """The back of a card (the draw pile)."""
        return self._emojis[Asset(Face(None)).name]

    def markup(self, card: Card | str, color: Color | None = None) -> str:
        """``<:uno1_r5:123>``: the emoji in a message's text."""
        return str(self.emoji(card, color))

    def __len__(self) -> int:
        return len(self._emojis)


class EmojiError(RuntimeError):
    """The card emojis could not be made now (the message says why)."""


class EmojiSets:
    """The adapter's card emojis: taken from the database at once when recorded complete
    (checked against the application's emojis right after), else made in the background
    while the cards are text, retried after a failure (every ``retry`` seconds, doubling up
    to six hours). Processes sharing a database take turns (a lease)."""

    LEASE = "dc-emojis"

    def __init__(
        self,
        store: Any,
        *,
        enabled: bool = True,
        worker: str = "discord",
        retry: float = 600.0,
    ) -> None:
        self.store = store
        self.enabled = enabled and store is not None
        self.worker = worker
        self.retry = retry
        self.emojis: CardEmojis | None = None
        self.error: str | None = None
        self.created = 0  # emojis uploaded by this process
        self._task: asyncio.Task[None] | None = None
        self._done = asyncio.Event()

    async def start(self, client: discord.Client) -> None:
        if not self.enabled:
            self._done.set()
            return
        uploads = await Uploads(self.store, "dc").load()
        pictures = uploads.pictures()
        if pictures is not None:
            self.emojis = CardEmojis(pictures)  # at once: the check follows
        self._task = asyncio.create_task(self._make(client, uploads), name="uno-emojis")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def wait(self, timeout: float | None = None) -> CardEmojis | None:
        """Until the set is checked or made, or its making failed once."""
        await asyncio.wait_for(self._done.wait(), timeout)
        return self.emojis

    async def _make(self, client: discord.Client, uploads: Uploads) -> None:
        delay = self.retry
        while True:
            if await self.store.lease(self.LEASE, self.worker, time.time(), 3600.0):
                try:
                    await uploads.load()
                    self.emojis = CardEmojis(await self._sync(client, uploads))
                    self.error = None
                    return
                except Exception as err:  # Discord's refusal, the network, a bug
                    self.error = f"{type(err).__name__}: {err}"
                    if uploads.pictures() is None:
                        self.emojis = None
                    known = isinstance(err, discord.DiscordException | EmojiError | OSError)
                    log.warning(
                        "card emojis: not made (%s); cards are shown as text until they are: "
                        "trying again in %.0f s", self.error, delay, exc_info=not known,
                    )  # fmt: skip
                finally:
                    with contextlib.suppress(Exception):
                        await self.store.release(self.LEASE, self.worker)
                    self._done.set()
            else:  # another process makes them: wait for its record
                await uploads.load()
                ready = uploads.pictures()
                if ready is not None:
                    self.emojis = CardEmojis(ready)
                    self._done.set()
                    return
                await asyncio.sleep(30.0)
                continue
            await asyncio.sleep(delay)
            delay = min(delay * 2, 6 * 3600.0)

    async def _sync(self, client: discord.Client, uploads: Uploads) -> Pictures:
        """The application's card emojis made to be this version's set, as recorded."""
        listing = await client.fetch_application_emojis()
        by_name = {e.name: e for e in listing}
        have = uploads.refs()
        # recorded, but gone from Discord (or another emoji by now): uploaded again
        gone = [
            n for n, ref in have.items()
            if (e := by_name.get(emoji_name(n))) is None or str(e.id) != ref
        ]  # fmt: skip
        if gone:
            log.warning("card emojis: %d recorded ones are gone: uploading them again", len(gone))
            self.emojis = None
            await uploads.forget(gone)
        # there, but not recorded (a start stopped between an upload and its record)
        found = {
            a.name: str(e.id)
            for a in manifest()
            if (e := by_name.get(emoji_name(a))) is not None and a.name not in uploads.refs()
        }
        await uploads.record(found)
        missing = uploads.missing()
        if len(listing) + len(missing) > EMOJI_MAX:
            raise EmojiError(
                f"the application has {len(listing)} emojis; {len(missing)} more would pass "
                f"Discord's {EMOJI_MAX}"
            )
        for a in missing:
            data = await asyncio.to_thread(cards.render, a, "emoji")
            made = await client.create_application_emoji(name=emoji_name(a), image=data)
            self.created += 1
            await uploads.record({a.name: str(made.id)})
        if missing:
            log.info("card emojis: %d uploaded", len(missing))
        pictures = uploads.pictures()
        if pictures is None:
            raise EmojiError("the card emojis are incomplete")
        # older versions' card emojis: not used any more
        for e in listing:
            m = _NAME.match(e.name)
            if m is not None and int(m.group(1)) != SET_VERSION:
                with contextlib.suppress(discord.NotFound):
                    await e.delete()
        for version in uploads.old_versions():
            await uploads.forget(uploads.refs(version), version)
        return pictures
