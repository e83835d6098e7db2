"""The card set as the platforms show it: which picture a card is, and what each platform
has uploaded of the set. Platform-free: the uploads themselves are the adapters'
(``adapters/telegram/outbound/stickers.py``, ``adapters/discord/emojis.py``).

Every face of :func:`bot.ui.card_images.card_set` comes in two looks, playable and
dimmed: 126 pictures (:func:`manifest`), each named by its face and look (``r5``, ``r5_d``,
``w4r`` a +4 with red named, ``back``). What a platform has of one version of its drawings
(the stickers' :data:`bot.ui.card_images.SET_VERSION`, the emojis'
:data:`bot.ui.card_images.EMOJI_VERSION`: each bumped when its own drawing changes) is
kept in the database (``card_assets``, read and written through the service:
:class:`AssetRecords`), one picture at a time as each is uploaded: an upload that failed
part-way goes on from there, and nothing is uploaded twice. A platform uses the pictures
once it has all of them (:meth:`Uploads.complete`): a hand is never half pictures, half
text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.store import CardAsset
from bot.ui import card_images as images
from bot.ui.card_images import EMOJI_VERSION, SET_VERSION, Face
from engine import Card, Color

__all__ = [
    "EMOJI_VERSION",
    "KINDS",
    "SET_VERSION",
    "Asset",
    "AssetRecords",
    "Pictures",
    "Uploads",
    "asset_for",
    "manifest",
    "render",
]

KINDS = ("sticker", "emoji")  # Telegram's 512 px stickers, Discord's 128 x 128 emojis
DIM = "_d"  # the dimmed look's suffix


@dataclass(frozen=True, slots=True)
class Asset:
    """One picture of the set: a face, playable or dimmed (``dim``: cannot be played now)."""

    face: Face
    dim: bool = False

    @property
    def name(self) -> str:
        """``r5``, ``r5_d``, ``w4r``, ``back``: unique in the set, ``[a-z0-9_]``."""
        return self.face.name + (DIM if self.dim else "")


def manifest() -> list[Asset]:
    """Every picture of the set, in a fixed order: each face playable (deck order), then
    each dimmed (126)."""
    faces = images.card_set()
    return [Asset(f) for f in faces] + [Asset(f, dim=True) for f in faces]


def asset_for(card: Card | str, color: Color | None = None, *, dim: bool = False) -> Asset:
    """The picture of ``card`` (a wild in the colour named for it, if any)."""
    return Asset(Face.of(card, color), dim)


def render(asset: Asset, kind: str) -> bytes:
    """The picture's bytes for a platform: ``sticker`` (Telegram, PNG 512 px high) or
    ``emoji`` (Discord, 128 x 128 PNG, its own drawing for the square). The same bytes
    every time for a version of the drawing (``SET_VERSION``, ``EMOJI_VERSION``); drawn in
    a few tens of milliseconds (uploaders call it in a thread)."""
    if kind == "sticker":
        return images.sticker_png(asset.face, asset.dim)
    if kind == "emoji":
        return images.emoji_png(asset.face, asset.dim)
    raise ValueError(f"unknown kind of picture {kind!r}")


class Pictures:
    """A complete set on one platform: what each card is called there (a sticker's file
    id, an emoji's id), by :func:`asset_for`'s name."""

    def __init__(self, refs: Mapping[str, str], version: int = SET_VERSION) -> None:
        self.refs = dict(refs)
        self.version = version

    def ref(self, card: Card | str, color: Color | None = None, *, dim: bool = False) -> str:
        """``card``'s picture (a wild in the colour named, if any; dimmed or not)."""
        return self.refs[asset_for(card, color, dim=dim).name]

    def of(self, asset: Asset) -> str:
        return self.refs[asset.name]

    def __len__(self) -> int:
        return len(self.refs)


class AssetRecords(Protocol):
    """Where :class:`Uploads` reads and keeps what the platforms have uploaded: the
    service (``Service.card_assets``, ``Service.save_card_assets``), never the store."""

    async def card_assets(self, platform: str) -> list[CardAsset]:
        """Every picture ``platform`` has recorded, every version."""

    async def save_card_assets(self, assets: Sequence[CardAsset]) -> None:
        """Keep ``assets`` (a ``ref`` of ``None``: that picture is gone)."""


class Uploads:
    """What one platform (``tg``, ``dc``) has uploaded of the set, every version, as the
    database has it (read and kept through ``records``, the service): :meth:`load` it,
    :meth:`record` each upload as it is made. ``version``: the version of the drawings
    the platform uses now (Telegram's stickers ``SET_VERSION``, Discord's emojis
    ``EMOJI_VERSION``), the one the methods mean unless told another."""

    def __init__(self, records: AssetRecords, platform: str, version: int = SET_VERSION) -> None:
        self.records = records
        self.platform = platform
        self.version = version
        self._refs: dict[int, dict[str, str]] = {}

    async def load(self) -> Uploads:
        rows = await self.records.card_assets(self.platform)
        self._refs = {}
        for r in rows:
            if r.ref is not None:
                self._refs.setdefault(r.version, {})[r.name] = r.ref
        return self

    def refs(self, version: int | None = None) -> dict[str, str]:
        """Picture name -> its reference, for ``version`` (the one in use)."""
        return dict(self._refs.get(self._at(version), {}))

    def missing(
        self, assets: Iterable[Asset] | None = None, version: int | None = None
    ) -> list[Asset]:
        """The pictures of ``assets`` (the whole set) not uploaded at ``version``."""
        have = self._refs.get(self._at(version), {})
        return [a for a in (manifest() if assets is None else assets) if a.name not in have]

    def complete(self, version: int | None = None) -> bool:
        return not self.missing(version=version)

    def pictures(self, version: int | None = None) -> Pictures | None:
        """The set, if every picture of it is uploaded."""
        version = self._at(version)
        if not self.complete(version):
            return None
        names = {a.name for a in manifest()}
        return Pictures({n: r for n, r in self.refs(version).items() if n in names}, version)

    def old_versions(self) -> list[int]:
        """Versions of the set other than the one in use that still have pictures
        recorded."""
        return sorted(v for v in self._refs if v != self.version)

    def _at(self, version: int | None) -> int:
        return self.version if version is None else version

    async def record(self, refs: Mapping[str, str], version: int | None = None) -> None:
        """``refs`` (picture name -> reference) were uploaded at ``version``: kept."""
        if not refs:
            return
        version = self._at(version)
        await self.records.save_card_assets(
            [CardAsset(self.platform, version, name, ref) for name, ref in refs.items()]
        )
        self._refs.setdefault(version, {}).update(refs)

    async def forget(self, names: Iterable[str], version: int | None = None) -> None:
        """The pictures ``names`` of ``version`` are gone from the platform."""
        version = self._at(version)
        names = [n for n in names if n in self._refs.get(version, {})]
        if not names:
            return
        await self.records.save_card_assets(
            [CardAsset(self.platform, version, name, None) for name in names]
        )
        kept = self._refs.get(version, {})
        for n in names:
            kept.pop(n, None)
        if not kept:
            self._refs.pop(version, None)
