"""The card set's life cycle both platforms share (``bot.ui.uploads``): one process holding
the lease makes the set, another waits for its record; a failure is retried, later, with
the set in use kept; a set not accepted is attempted again at once."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.ui.uploads import CardUploads


class Leases:
    """The service's leases (``Service.lease``, ``Service.release``), shared by the
    'processes' of a test; an owner not told is the service's process (``me``)."""

    def __init__(self) -> None:
        self.held: dict[str, str] = {}
        self.released: list[str] = []

    async def lease(self, name: str, seconds: float, *, owner: str | None = None) -> bool:
        owner = owner or "me"
        if self.held.get(name, owner) != owner:
            return False
        self.held[name] = owner
        return True

    async def release(self, name: str, *, owner: str | None = None) -> None:
        owner = owner or "me"
        if self.held.get(name) == owner:
            del self.held[name]
            self.released.append(owner)


class Record:
    """What ``Uploads`` is to the life cycle: loaded, then complete or not."""

    def __init__(self) -> None:
        self.complete: Any = None
        self.loads = 0

    async def load(self) -> Record:
        self.loads += 1
        return self

    def pictures(self) -> Any:
        return self.complete


class Maker(CardUploads):
    LEASE = "test-cards"

    def __init__(self, service: Any, record: Record, results: list[Any], **kw: Any) -> None:
        super().__init__(service, retry=0.01, poll=0.01, **kw)
        self.record = record
        self.results = results  # what each ``make`` does: a set to record, or an error
        self.made = 0
        self.failures: list[str] = []

    async def make(self, uploads: Any) -> Any:
        if self.record.complete is not None:
            return self.record.complete  # all there already: nothing uploaded
        self.made += 1
        await asyncio.sleep(0.02)  # (long enough for another process to ask the lease)
        result = self.results.pop(0)
        if isinstance(result, Exception):
            raise result
        self.record.complete = result
        return result

    def failed(self, err: BaseException, delay: float) -> None:
        self.failures.append(f"{err}@{delay}")


async def test_one_process_makes_the_set_the_other_takes_its_record() -> None:
    leases, record = Leases(), Record()
    first = Maker(leases, record, ["set"], worker="a")
    second = Maker(leases, record, ["never"], worker="b")
    first.begin(record)  # type: ignore[arg-type]
    await asyncio.sleep(0)  # (it holds the lease now)
    second.begin(record)  # type: ignore[arg-type]
    assert await first.wait(5) == "set" and await second.wait(5) == "set"
    assert (first.made, second.made) == (1, 0)
    assert leases.held == {} and leases.released[0] == "a"  # (b may take it after: no upload)


async def test_a_failure_is_retried_later_doubling_and_the_set_in_use_stays() -> None:
    leases, record = Leases(), Record()
    maker = Maker(leases, record, [RuntimeError("down"), RuntimeError("down"), "new"])
    maker.pictures = "old"  # a set in use while a newer one is made
    maker.begin(record)  # type: ignore[arg-type]
    assert await maker.wait(5) == "old"  # failed once: said, the old set still used
    assert maker.error == "RuntimeError: down"
    for _ in range(100):
        if maker.pictures == "new":
            break
        await asyncio.sleep(0.01)
    assert maker.pictures == "new" and maker.error is None and maker.made == 3
    assert maker.failures == ["down@0.01", "down@0.02"]
    assert leases.held == {} and set(leases.released) == {"me"}  # after every attempt


async def test_a_set_not_accepted_is_attempted_again_and_stop_cancels() -> None:
    class Picky(Maker):
        def accept(self, pictures: Any) -> bool:
            if pictures == "refused":  # (the platform refused one: made anew)
                self.record.complete = None
                return False
            return True

    leases, record = Leases(), Record()
    picky = Picky(leases, record, ["refused", "good"])
    picky.begin(record)  # type: ignore[arg-type]
    assert await picky.wait(5) == "good" and picky.made == 2
    stuck = Maker(leases, record, [])
    leases.held["test-cards"] = "elsewhere"  # another process holds it, and records nothing
    record.complete = None
    stuck.begin(record)  # type: ignore[arg-type]
    await asyncio.sleep(0.05)
    assert stuck.running() and stuck.pictures is None and stuck.made == 0
    await stuck.stop()
    assert not stuck.running()
