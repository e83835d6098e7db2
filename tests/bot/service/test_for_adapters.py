"""What adapters ask of the store through the service, never of the store itself: the card
sets' records, the notifications between processes (the web table's ``NOTIFY``), leases."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.port import NullPort
from bot.service import Service
from bot.store import CardAsset, Store, store_for

BACKENDS = ("sqlite", "postgresql")


async def test_card_records_are_kept_and_read_back(store: Store) -> None:
    service = Service(store, NullPort())
    assert await service.card_assets("tg") == []
    await service.save_card_assets(
        [CardAsset("tg", 3, "r5", "f1"), CardAsset("tg", 3, "b7", "f2")]
    )
    await service.save_card_assets([CardAsset("dc", 2, "r5", "e1")])
    await service.save_card_assets([CardAsset("tg", 3, "b7", None)])  # gone from the platform
    assert await service.card_assets("tg") == [CardAsset("tg", 3, "r5", "f1")]
    assert await store.card_assets("dc") == [CardAsset("dc", 2, "r5", "e1")]  # the same rows


async def test_a_lease_is_the_service_process_s_unless_told(store: Store) -> None:
    service = Service(store, NullPort())
    assert await service.lease("tg-stickers", 60.0)
    assert await store.lease("tg-stickers", service.worker, 1.0, 60.0)  # held by it
    await service.release("tg-stickers")
    assert await service.lease("tg-stickers", 60.0, owner="uno-bot stickers")
    if store.shared:  # (a store of its own grants every lease: one process)
        assert not await service.lease("tg-stickers", 60.0)
    await service.release("tg-stickers", owner="uno-bot stickers")
    assert await service.lease("tg-stickers", 60.0)


async def test_a_store_of_its_own_has_no_other_process_to_tell(tmp_path: Path) -> None:
    store = store_for(tmp_path / "own.sqlite3")
    await store.open()
    try:
        service = Service(store, NullPort())
        assert not service.shared
        heard: list[str] = []
        assert await service.listen("uno_web", heard.append) is None
        await service.notify("uno_web", "anything")  # nobody: nothing happens
        assert heard == []
    finally:
        await store.close()


async def test_processes_on_one_database_hear_each_other(postgres_url: str) -> None:
    stores = [store_for(postgres_url) for _ in range(2)]
    for s in stores:
        await s.open()
    try:
        one, two = (Service(s, NullPort()) for s in stores)
        assert one.shared and two.shared
        heard: list[str] = []
        got = asyncio.Event()

        def hear(payload: str) -> None:
            heard.append(payload)
            got.set()

        listening = await two.listen("uno_web", hear)
        assert listening is not None
        try:
            await one.notify("uno_web", '{"w":"one","k":"tg:1","v":3}')
            await asyncio.wait_for(got.wait(), 10)
            assert heard == ['{"w":"one","k":"tg:1","v":3}']  # as it was sent
        finally:
            await listening.close()
    finally:
        for s in stores:
            await s.close()
