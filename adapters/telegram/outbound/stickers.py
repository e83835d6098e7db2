"""The card set as the bot's own Telegram sticker sets (``uno-bot stickers``, and
``uno-bot run`` when they are not made yet).

A sticker set belongs to a user: the operator (``UNO_TELEGRAM_OWNER``, who has started the
bot privately; Telegram refuses a set for anyone else). The bot makes it and may change it.
A regular set holds at most 120 stickers and the set has 126 pictures (``bot.ui.card_set``), so
there are two sets per version of the drawings: the cards as they are
(``uno_cards_v1_by_<bot>``, one a player may add and send) and dimmed, for cards that
cannot be played now (``uno_cards_v1_dim_by_<bot>``). A new ``SET_VERSION`` makes new
sets, then deletes the old ones.

Each step is kept as it is made. A set is asked for first (``getStickerSet``: its
stickers' file ids, in the order added; ``STICKERSET_INVALID`` when there is none): one
made before is adopted, so that a new database (or one that lost its record) costs two
calls, not 3.8 MB of uploads refused at the end as "name occupied". Its stickers are
checked in order against what would be uploaded (:func:`fits`): those that fit are
recorded, a wrong one is replaced in its place, one too many deleted. A set that is not
there is created with its first 50 stickers (Telegram's most), read back and recorded;
then the rest are added one by one and read back at the end. An upload that failed
part-way (Telegram's limits, the network, a restart) goes on from what the set holds:
nothing is uploaded twice. A 429 is waited out; anything else stops the upload, to be
resumed by the next start or ``uno-bot stickers``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from telegram import InputSticker, Sticker
from telegram.error import BadRequest, RetryAfter

from adapters.telegram.outbox import retry_seconds
from bot.ui import card_set as cards
from bot.ui import render
from bot.ui.card_set import SET_VERSION, Asset, Pictures, Uploads, manifest
from bot.ui.uploads import CardUploads, UploadService

__all__ = [
    "INITIAL",
    "SET_MAX",
    "StickerError",
    "StickerSets",
    "Uploader",
    "fits",
    "parts",
    "set_name",
]

log = logging.getLogger(__name__)

INITIAL = 50  # stickers a set is created with, at most
SET_MAX = 120  # stickers in a regular set, at most
# each part of the set: (what its name adds, its title)
_PARTS = (("", "UNO cards"), ("_dim", "UNO cards (not playable now)"))
MAX_WAIT = 300.0  # seconds a 429 is waited out, at most
TIMEOUT = 60.0  # seconds for one upload (50 stickers of up to 50 KB)

T = TypeVar("T")


class StickerError(RuntimeError):
    """The sticker sets could not be made or completed now (the message says why)."""


def parts() -> list[list[Asset]]:
    """The pictures of each sticker set: the playable faces, then the dimmed ones."""
    m = manifest()
    out = [[a for a in m if not a.dim], [a for a in m if a.dim]]
    assert all(len(p) <= SET_MAX for p in out) and len(out) == len(_PARTS)
    return out


def set_name(username: str, part: int, version: int = SET_VERSION) -> str:
    """``uno_cards_v1_by_<bot>``, ``uno_cards_v1_dim_by_<bot>``: a set's name must end in
    ``_by_<bot username>``."""
    return f"uno_cards_v{version}{_PARTS[part][0]}_by_{username}"


def fits(sticker: Sticker, asset: Asset) -> bool:
    """Whether a sticker a set holds is ``asset`` as far as Telegram says: a static regular
    sticker answering to the asset's emoji. The drawing itself is the set's: its name holds
    the version of the drawings (each version drawn the same every time), and only this bot
    can make a set whose name ends in ``_by_<bot>``. Checked in order, the emoji tell a
    set of the manifest's order from one that is not (a sticker moved, lost or added)."""
    return (
        sticker.type == Sticker.REGULAR
        and not sticker.is_animated
        and not sticker.is_video
        and _bare(sticker.emoji or "") == _bare(emoji_of(asset)[0])
    )


def _bare(emoji: str) -> str:
    """An emoji without its presentation selector (Telegram may add or drop U+FE0F)."""
    return emoji.replace("\ufe0f", "")


def emoji_of(asset: Asset) -> list[str]:
    """The emoji a sticker answers to: its colour (the colour named, for a wild)."""
    face = asset.face
    if face.card is None:
        return ["🎴"]
    color = face.card.color or face.color
    return [render.COLOR_EMOJI[color] if color is not None else render.WILD_MARK]


class Uploader:
    """Makes (or completes) the sticker sets of this version for ``owner`` with ``bot``
    (python-telegram-bot's ``Bot``), recording each step in ``uploads``."""

    def __init__(
        self,
        bot: Any,
        owner: int,
        username: str,
        uploads: Uploads,
        *,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.bot = bot
        self.owner = owner
        self.username = username
        self.uploads = uploads
        self.progress = progress or (lambda line: log.info("stickers: %s", line))
        self.calls = 0  # API calls made

    async def run(self) -> Pictures:
        """Every picture of this version uploaded and recorded (what was already is not
        uploaded again); older versions' sets deleted. Raises ``StickerError``."""
        try:
            for part, assets in enumerate(parts()):
                if self.uploads.missing(assets):
                    await self._part(part, assets)
            await self._drop_old()
        except StickerError:
            raise
        except Exception as err:  # one line: what Telegram said, or the network
            raise StickerError(f"{type(err).__name__}: {err}") from err
        pictures = self.uploads.pictures()
        if pictures is None:  # a set shorter than it should be after all that
            raise StickerError("the sticker sets are incomplete")
        return pictures

    async def _part(self, part: int, assets: Sequence[Asset]) -> None:
        """Make set ``part`` hold ``assets``, in order. The set is asked for first: one made
        before (by a run that stopped before recording it, or for another database) is
        adopted as it is, its stickers checked against ``assets`` (:func:`fits`); only what
        is missing or wrong is uploaded (a wrong sticker replaced in its place, one too many
        deleted). Each step is recorded once read back."""
        name = set_name(self.username, part)
        have = await self._get(name)
        if have is None:
            await self._create(part, name, assets[:INITIAL])
            have = await self._get(name)
            if have is None:
                raise StickerError(f"{name} was made, but cannot be read back")
        elif not any(a.name in self.uploads.refs() for a in assets):
            self.progress(f"{name} is made already ({len(have)} stickers): checking them")
        wrong = [i for i, s in enumerate(have[: len(assets)]) if not fits(s, assets[i])]
        extra = have[len(assets) :]
        # what a wrong sticker was recorded as is gone once it is replaced
        await self.uploads.forget([assets[i].name for i in wrong])
        await self._keep(assets, have, skip=wrong)
        if wrong or extra:
            self.progress(f"{name}: {len(wrong)} stickers to replace, {len(extra)} to delete")
        for i in wrong:
            sticker = await self._sticker(assets[i])
            old = have[i].file_id
            await self._change(
                functools.partial(
                    self.bot.replace_sticker_in_set, self.owner, name, old, sticker,
                    read_timeout=TIMEOUT, write_timeout=TIMEOUT,
                )
            )  # fmt: skip
        for s in extra:
            await self._change(functools.partial(self.bot.delete_sticker_from_set, s.file_id))
        for i in range(len(have), len(assets)):
            sticker = await self._sticker(assets[i])
            await self._change(
                functools.partial(
                    self.bot.add_sticker_to_set, self.owner, name, sticker,
                    read_timeout=TIMEOUT, write_timeout=TIMEOUT,
                )
            )  # fmt: skip
            if (i + 1) % 10 == 0 or i + 1 == len(assets):
                self.progress(f"{name}: {i + 1} of {len(assets)} stickers")
        if wrong or extra or len(have) < len(assets):
            have = await self._get(name)
            if have is None:
                raise StickerError(f"{name} cannot be read back")
            still = [
                assets[i].name for i, s in enumerate(have[: len(assets)]) if not fits(s, assets[i])
            ]
            if still:  # Telegram tells them otherwise than they were sent: not worth a loop
                log.warning("stickers: %s still reads differently at %s", name, still[:5])
            await self._keep(assets, have)

    async def _create(self, part: int, name: str, first: Sequence[Asset]) -> None:
        stickers = [await self._sticker(a) for a in first]
        self.progress(f"creating {name} ({len(first)} stickers first)")
        try:
            await self._call(
                lambda: self.bot.create_new_sticker_set(
                    self.owner, name, _PARTS[part][1], stickers,
                    read_timeout=TIMEOUT, write_timeout=TIMEOUT,
                )
            )  # fmt: skip
        except BadRequest as err:
            if "occupied" not in err.message.lower():
                raise StickerError(_explain(err)) from err
            # made meanwhile (by a process that did not hold the lease): read back next

    async def _change(self, call: Callable[[], Awaitable[Any]]) -> None:
        """One change of a set (a sticker added, replaced or deleted)."""
        try:
            await self._call(call)
        except BadRequest as err:
            raise StickerError(_explain(err)) from err

    async def _keep(
        self, assets: Sequence[Asset], have: Sequence[Sticker], skip: Sequence[int] = ()
    ) -> None:
        """Record the file ids of the stickers the set holds (in the order they were
        added: the order of ``assets``), but those at the positions ``skip``."""
        known = self.uploads.refs()
        new = {
            a.name: s.file_id
            for i, (a, s) in enumerate(zip(assets, have, strict=False))
            if i not in skip and known.get(a.name) != s.file_id
        }
        await self.uploads.record(new)

    async def _get(self, name: str) -> list[Sticker] | None:
        """Set ``name``'s stickers, in order; ``None``: no such set (Telegram answers
        ``STICKERSET_INVALID``)."""
        try:
            st = await self._call(lambda: self.bot.get_sticker_set(name))
        except BadRequest as err:
            if "stickerset_invalid" in err.message.lower():
                return None
            raise StickerError(_explain(err)) from err
        return list(st.stickers)

    async def _sticker(self, asset: Asset) -> InputSticker:
        data = await asyncio.to_thread(cards.render, asset, "sticker")
        return InputSticker(data, emoji_of(asset), "static")

    async def _drop_old(self) -> None:
        """Delete the sets of older versions of the drawings (and forget their stickers)."""
        for version in self.uploads.old_versions():
            names = set(self.uploads.refs(version))
            for part in range(len(_PARTS)):
                if not any(n.endswith(cards.DIM) == bool(part) for n in names):
                    continue
                name = set_name(self.username, part, version)
                try:
                    await self._call(functools.partial(self.bot.delete_sticker_set, name))
                    self.progress(f"deleted {name} (version {version})")
                except BadRequest as err:  # deleted by hand already, or not the bot's
                    log.info("stickers: %s not deleted: %s", name, err.message)
            await self.uploads.forget(names, version)

    async def _call(self, call: Callable[[], Awaitable[T]]) -> T:
        """One Bot API call; a 429 (nothing done) is waited out and the call made again."""
        waited = 0.0
        while True:
            self.calls += 1
            try:
                return await call()
            except RetryAfter as err:
                wait = retry_seconds(err)
                if waited + wait > MAX_WAIT:
                    raise StickerError(f"Telegram asks to wait {wait:.0f} s more") from err
                self.progress(f"Telegram asks to wait {wait:.0f} s")
                waited += wait
                await asyncio.sleep(wait)


def _explain(err: BadRequest) -> str:
    said = err.message.lower()
    if "peer_id_invalid" in said or "user_id_invalid" in said:
        return (
            f"{err.message}: UNO_TELEGRAM_OWNER must be your own user id, and you must have "
            "started the bot in a private chat (send it /start)"
        )
    return err.message


class StickerSets(CardUploads):
    """The adapter's card stickers: read from the database at start (a set made before
    costs no call), else made in the background while the cards are text, retried after a
    failure (every ``retry`` seconds, doubling up to six hours). Several processes on one
    database take turns (a lease): one uploads, the others wait for its record.
    :attr:`pictures` is the set once complete. The life cycle is ``bot.ui.uploads``'
    (Discord's emojis share it)."""

    LEASE = "tg-stickers"
    NAME = "uno-stickers"
    FAILURES = (StickerError,)

    def __init__(
        self,
        service: UploadService,
        owner: int | None,
        *,
        enabled: bool = True,
        worker: str | None = None,
        retry: float = 600.0,
    ) -> None:
        super().__init__(
            service, enabled=enabled and owner is not None, worker=worker, retry=retry
        )
        self.owner = owner
        self.uploader: Uploader | None = None
        self._bot: Any = None
        self._username = ""

    async def start(self, bot: Any, username: str | None) -> None:
        """Use the set if it is made; else start making it (in the background)."""
        if not self.enabled or self.owner is None or not username:
            self.done()
            return
        uploads = await Uploads(self.service, "tg").load()
        self.pictures = uploads.pictures()
        if self.pictures is not None and not uploads.old_versions():
            self.done()
            return
        self._bot, self._username = bot, username
        self.begin(uploads)

    # -- the platform's part of ``CardUploads`` ----------------------------------------------

    async def make(self, uploads: Uploads) -> Pictures:
        assert self.owner is not None
        self.uploader = Uploader(self._bot, self.owner, self._username, uploads)
        return await self.uploader.run()

    def failed(self, err: BaseException, delay: float) -> None:
        self.error = str(err)
        log.warning(
            "stickers: the card set could not be made (%s); cards are shown as "
            "text until it is: trying again in %.0f s", err, delay,
        )  # fmt: skip

    def ready(self, pictures: Pictures) -> None:
        log.info("stickers: the card set is ready (%d stickers)", len(pictures))
