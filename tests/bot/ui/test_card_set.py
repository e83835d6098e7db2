"""bot.ui.card_set: the pictures of the set and what each platform has uploaded of them, kept
in the database (SQLite and PostgreSQL) one picture at a time."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.model import Table
from bot.port import NullPort
from bot.service import Service
from bot.store import CardAsset, Stale, Store, WriteBatch, store_for
from bot.ui import card_set as cards
from bot.ui.card_images import Face, card_set
from bot.ui.card_set import SET_VERSION, Asset, Uploads, asset_for, manifest
from engine import Card, Color

BACKENDS = ("sqlite", "postgresql")


def test_the_manifest_is_every_face_playable_then_dimmed() -> None:
    m = manifest()
    faces = card_set()
    assert len(m) == 2 * len(faces) == 126
    assert [a.face for a in m[: len(faces)]] == faces and not any(a.dim for a in m[:63])
    assert [a.face for a in m[len(faces) :]] == faces and all(a.dim for a in m[63:])
    names = [a.name for a in m]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z0-9_]{1,10}", n) for n in names), names
    assert {"r5", "r5_d", "w4r", "w4r_d", "w", "back", "back_d"} <= set(names)


def test_a_card_names_its_picture() -> None:
    assert asset_for("R5").name == "r5"
    assert asset_for(Card.parse("B7"), Color.RED, dim=True).name == "b7_d"  # not a wild
    assert asset_for("W4", Color.GREEN) == Asset(Face(Card.parse("W4"), Color.GREEN))
    assert asset_for("W").name == "w"


def test_render_gives_each_platform_its_picture() -> None:
    a = asset_for("W", Color.BLUE)
    assert cards.render(a, "sticker").startswith(b"\x89PNG")
    assert cards.render(a, "emoji") != cards.render(a, "sticker")


async def test_uploads_are_kept_per_platform_and_version(store: Store, db: Path | str) -> None:
    service = Service(store, NullPort())  # the records are the service's (no table, no timer)
    tg = await Uploads(service, "tg").load()
    assert tg.refs() == {} and not tg.complete() and tg.pictures() is None
    assert len(tg.missing()) == 126
    first = {a.name: f"file-{a.name}" for a in manifest()[:70]}
    await tg.record(first)
    await tg.record({"r5": "file-r5"}, version=SET_VERSION + 7)  # another version
    await Uploads(service, "dc").record({"r5": "emoji-1"})
    # a new process reads what was kept
    again = await Uploads(service, "tg").load()
    assert again.refs() == first
    assert [a.name for a in again.missing()] == [a.name for a in manifest()[70:]]
    assert again.old_versions() == [SET_VERSION + 7]
    await again.record({a.name: f"file-{a.name}" for a in again.missing()})
    assert again.complete()
    pics = again.pictures()
    assert pics is not None and len(pics) == 126
    assert pics.ref("R5") == "file-r5" and pics.ref("W4", Color.RED, dim=True) == "file-w4r_d"
    await again.forget(["r5"], version=SET_VERSION + 7)
    assert (await Uploads(service, "tg").load()).old_versions() == []
    assert (await Uploads(service, "dc").load()).refs() == {"r5": "emoji-1"}
    # the rows themselves, on a store opened afresh
    await store.close()
    fresh = store_for(db)
    await fresh.open()
    try:
        rows = await fresh.card_assets("dc")
        assert rows == [CardAsset("dc", SET_VERSION, "r5", "emoji-1")]
    finally:
        await fresh.close()
        await store.open()


async def test_pictures_ride_in_a_batch_and_the_latest_write_wins(store: Store) -> None:
    """Written with their batch or not at all (a stale batch keeps nothing); within a
    group commit the latest write of a picture wins."""
    await store.write(WriteBatch(tables=[Table(key="t:1", scope="s", host="u1")]))
    with pytest.raises(Stale):
        await store.write(
            WriteBatch(card_assets=[CardAsset("tg", 1, "r9", "x")], expect={"t:1": 0})
        )
    await store.write(
        WriteBatch(card_assets=[CardAsset("tg", 1, "r1", "a"), CardAsset("tg", 1, "r1", "b")])
    )
    await store.write(
        WriteBatch(card_assets=[CardAsset("tg", 1, "r2", "c"), CardAsset("tg", 1, "r1", None)])
    )
    assert await store.card_assets("tg") == [CardAsset("tg", 1, "r2", "c")]
