"""The card set as the bot's application emojis on Discord: the cards on a hand's buttons
and select options, and the top card in the table message.

An application may own 2,000 emojis, usable in every server the bot is in; the set is 126
of them (``bot.ui.card_set``: every face, playable and dimmed, drawn for the square), 128 x 128
PNGs named ``uno<version>_<picture>`` (``uno2_r5``, ``uno2_r5_d``, ``uno2_w4r``; the
version is ``EMOJI_VERSION``). At start the bot
lists the application's emojis (one call): the card emojis of this version that are there
are used (and recorded, if a start stopped between an upload and its record), a recorded
one that is gone (deleted by hand) is uploaded again, the missing ones are uploaded one at
a time, each recorded as it is made (Discord's rate limits are waited out by discord.py),
and the card emojis of other versions are deleted once this one is complete (first, if
the application's 2,000 would not hold both). Nothing is uploaded twice; until the set is
complete (or if it cannot be), the cards are text.

Nothing is drawn with an emoji that this start's list has not shown to be there: the ids
recorded in the database may be of emojis deleted since (Discord shows a dead one in a
message's text as ``:uno2_r5:`` and refuses it on a component, a 400), so until the list
confirms them the cards are text. An emoji deleted while the bot runs is found when
Discord refuses a component showing it (:meth:`EmojiSets.refused`): that message is drawn
again at once with the cards as text, which they stay until the set is checked again (at
once, in the background), the refused emoji replaced.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Any

import discord

from bot.ui import card_set as cards
from bot.ui.card_images import Face
from bot.ui.card_set import EMOJI_VERSION, Asset, Pictures, Uploads, asset_for, manifest
from bot.ui.uploads import CardUploads, UploadService
from engine import Card, Color

__all__ = ["EMOJI_MAX", "CardEmojis", "EmojiSets", "emoji_name", "refused_emojis"]

log = logging.getLogger(__name__)

EMOJI_MAX = 2000  # emojis an application may own
_NAME = re.compile(r"^uno(\d+)_([a-z0-9_]+)$")
# a field Discord refused in a message's body, as discord.py words it (``HTTPException.text``:
# "In components.0.components.1.emoji.id: Invalid emoji"; "data." first for a callback's)
_FIELD = re.compile(r"^In (?:data\.)?(\S+)\.emoji\.(?:id|name): ", re.MULTILINE)
INVALID_FORM_BODY = 50035  # Discord's JSON error code for a body it refuses, with "errors"


def emoji_name(asset: Asset | str, version: int = EMOJI_VERSION) -> str:
    """``uno2_r5``: 2-32 of ``[A-Za-z0-9_]``, as Discord wants an emoji's name."""
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
        """``<:uno2_r5:123>``: the emoji in a message's text."""
        return str(self.emoji(card, color))

    def __len__(self) -> int:
        return len(self._emojis)


def refused_emojis(
    err: discord.HTTPException, components: list[dict[str, Any]] | None
) -> set[int] | None:
    """Whether ``err`` is Discord refusing an emoji of the message's ``components`` (the
    body sent): ``None`` if not; else the ids of the custom emojis it refused, found at the
    paths Discord names (empty if none could be found there).

    Discord answers a component showing an emoji it does not know (a custom emoji deleted)
    with a 400, code 50035 "Invalid Form Body", and the field under ``errors``:
    ``components.0.components.1.emoji.id`` (a select's option: ``...options.3.emoji.id``),
    ``BUTTON_COMPONENT_INVALID_EMOJI`` "Invalid emoji"; discord.py puts each such field in
    ``err.text`` as a line ``In components.0.components.1.emoji.id: Invalid emoji``."""
    if err.status != 400 or err.code != INVALID_FORM_BODY:
        return None
    paths = _FIELD.findall(err.text or "")
    if not paths:
        return None
    found: set[int] = set()
    for path in paths:
        node: Any = {"components": components or []}
        for part in path.split("."):
            if isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            elif isinstance(node, dict):
                node = node.get(part)
            else:
                node = None
                break
        emoji = node.get("emoji") if isinstance(node, dict) else None
        eid = emoji.get("id") if isinstance(emoji, dict) else None
        if eid is not None and str(eid).isdigit():
            found.add(int(eid))
    return found


class EmojiError(RuntimeError):
    """The card emojis could not be made now (the message says why)."""


class EmojiSets(CardUploads):
    """The adapter's card emojis: checked against the application's emojis at start (the
    cards are text until then), made in the background where some are missing, retried
    after a failure (every ``retry`` seconds, doubling up to six hours). Processes sharing
    a database take turns making them (a lease); one that waits for another's record
    checks it against the list too (every ``poll`` seconds until it is complete and
    there). The life cycle is ``bot.ui.uploads``' (Telegram's stickers share it)."""

    LEASE = "dc-emojis"
    NAME = "uno-emojis"

    def __init__(
        self,
        service: UploadService,
        *,
        enabled: bool = True,
        worker: str | None = None,
        retry: float = 600.0,
        poll: float = 30.0,
    ) -> None:
        super().__init__(service, enabled=enabled, worker=worker, retry=retry, poll=poll)
        self.emojis: CardEmojis | None = None
        self.created = 0  # emojis uploaded by this process
        self.refused_ids: set[int] = set()  # emoji ids Discord refused: never shown again
        self._client: discord.Client | None = None

    async def start(self, client: discord.Client) -> None:
        self._client = client
        if not self.enabled:
            self.done()
            return
        self._check()

    def _check(self) -> None:
        """Check the set against the application's emojis (and make what is missing), in
        the background; the cards are text meanwhile."""
        if self._client is None or self.running():
            return  # (stopped; or a check under way, which takes the refused into account)
        self.begin(Uploads(self.service, "dc", EMOJI_VERSION))

    async def stop(self) -> None:
        self._client = None  # (no check started after this)
        await super().stop()

    async def wait(self, timeout: float | None = None) -> CardEmojis | None:  # type: ignore[override]
        """Until the set is checked or made, or its making failed once."""
        await super().wait(timeout)
        return self.emojis

    def refused(self, err: discord.HTTPException, view: discord.ui.View | None) -> bool:
        """Whether ``err`` is Discord refusing an emoji of ``view`` (deleted since the set
        was checked): if so, the cards are text from now on (the caller draws its message
        again at once), the refused emojis are never shown again, and the set is checked
        again in the background, those replaced."""
        components = view.to_components() if view is not None else None
        ids = refused_emojis(err, components)
        if ids is None:
            return False
        self.refused_ids |= ids
        if self.emojis is not None:
            log.warning(
                "card emojis: Discord refused %s (deleted by hand?): the cards are text "
                "until the set is checked again", sorted(ids) or "one",
            )  # fmt: skip
        self.emojis = None
        if self.enabled:
            self._check()
        return True

    # -- the platform's part of ``CardUploads`` ----------------------------------------------

    def failed(self, err: BaseException, delay: float) -> None:
        self.emojis = None
        known = isinstance(err, discord.DiscordException | EmojiError | OSError)
        log.warning(
            "card emojis: not made (%s); cards are shown as text until they are: "
            "trying again in %.0f s", self.error, delay, exc_info=not known,
        )  # fmt: skip

    def accept(self, pictures: Pictures) -> bool:
        return not self._refuses(pictures)  # (else one was refused while this check ran)

    def ready(self, pictures: Pictures) -> None:
        self.emojis = CardEmojis(pictures)

    async def make(self, uploads: Uploads) -> Pictures:
        assert self._client is not None
        return await self._sync(self._client, uploads)

    async def confirm(self, uploads: Uploads) -> Pictures | None:
        if uploads.pictures() is None or self._client is None:
            return None
        return self._confirmed(await self._client.fetch_application_emojis(), uploads)

    def _refuses(self, pictures: Pictures) -> bool:
        return any(int(ref) in self.refused_ids for ref in pictures.refs.values())

    def _confirmed(self, listing: list[discord.Emoji], uploads: Uploads) -> Pictures | None:
        """The recorded set, if every emoji of it is on ``listing`` (by its name, with the
        id recorded) and none was refused."""
        pictures = uploads.pictures()
        if pictures is None:
            return None
        by_name = {e.name: e.id for e in listing}
        for name, ref in pictures.refs.items():
            if str(by_name.get(emoji_name(name))) != ref or int(ref) in self.refused_ids:
                return None
        return pictures

    async def _sync(self, client: discord.Client, uploads: Uploads) -> Pictures:
        """The application's card emojis made to be this version's set, as recorded."""
        listing = await client.fetch_application_emojis()
        # refused by Discord on a component, yet listed: deleted, to be uploaded anew
        for dead in [e for e in listing if e.id in self.refused_ids]:
            with contextlib.suppress(discord.NotFound):
                await dead.delete()
            listing.remove(dead)
        by_name = {e.name: e for e in listing}
        have = uploads.refs()
        # recorded, but gone from Discord (or another emoji by now): uploaded again
        gone = [
            n for n, ref in have.items()
            if (e := by_name.get(emoji_name(n))) is None or str(e.id) != ref
        ]  # fmt: skip
        if gone:
            log.warning("card emojis: %d recorded ones are gone: uploading them again", len(gone))
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
            # no room for both: older versions' card emojis go first (they would go once
            # this one is made; the cards are text until then all the same)
            await self._delete_old(listing, uploads)
            listing = [e for e in listing if not _old(e)]
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
        try:
            await self._delete_old(listing, uploads)
        except discord.DiscordException as err:  # the set is there: used all the same
            log.warning("card emojis: older versions not deleted (%s)", err)
        return pictures

    async def _delete_old(self, listing: list[discord.Emoji], uploads: Uploads) -> None:
        """Older versions' card emojis: not used any more."""
        for e in listing:
            if _old(e):
                with contextlib.suppress(discord.NotFound):
                    await e.delete()
        for version in uploads.old_versions():
            await uploads.forget(uploads.refs(version), version)


def _old(emoji: discord.Emoji) -> bool:
    """Whether ``emoji`` is a card emoji of another version of the drawing."""
    m = _NAME.match(emoji.name)
    return m is not None and int(m.group(1)) != EMOJI_VERSION
