"""Cards as stickers (issue 13): the bot makes its card set as its own sticker sets for the
operator (``UNO_TELEGRAM_OWNER``), keeps their file ids in the database, and answers the
Play query with the cards as stickers; without an owner, or if the set cannot be made, the
cards are text as before."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

import pytest

from adapters.telegram import pictures
from adapters.telegram.inbound.inline import WITHDRAW_AFTER
from adapters.telegram.outbound.stickers import INITIAL, parts, set_name
from bot.cli import make_stickers
from bot.ops.config import Settings
from bot.ui import card_set as cards
from bot.ui.card_set import Uploads, asset_for, manifest
from bot.ui.i18n import translator
from engine import Card, Play
from tests.adapters.telegram.conftest import (
    Harness,
    assert_no_hand_in_group,
    human_turn,
    key,
    moved,
    open_table,
    scenario_table,
)
from tests.fakes.telegram_api import ApiError, FakeBotAPI, FakeUser, InlineAnswer, Result

EN = translator("en")
STICKER_CALLS = (
    "createNewStickerSet",
    "addStickerToSet",
    "getStickerSet",
    "deleteStickerSet",
    "uploadStickerFile",
    "replaceStickerInSet",
    "deleteStickerFromSet",
)
UPLOADS = ("createNewStickerSet", "addStickerToSet", "uploadStickerFile", "replaceStickerInSet")


def sticker_calls(api: FakeBotAPI, *, ok: bool | None = None) -> dict[str, int]:
    out = dict.fromkeys(STICKER_CALLS, 0)
    for c in api.calls:
        if c.method in out and (ok is None or c.ok == ok):
            out[c.method] += 1
    return out


@contextlib.asynccontextmanager
async def bot_with_owner(
    api: FakeBotAPI, db: Path, owner: FakeUser, **overrides: Any
) -> AsyncIterator[Harness]:
    tg = Harness(api, db, overrides={"telegram_owner": owner.id, **overrides})
    await tg.start()
    try:
        yield tg
    finally:
        await tg.stop()


def names_of(tg: Harness) -> dict[str, str]:
    """Sticker file id -> the picture it is (``r5``, ``r5_d``)."""
    pics = tg.adapter.stickers
    assert pics is not None
    return {ref: name for name, ref in pics.refs.items()}


def check_answer(tg: Harness, answer: InlineAnswer, hand: list[Card], legal: list[Any]) -> None:
    """Every card of the hand is a sticker, and nothing else names one: the playable ones in
    colour (a wild in each colour it may name), the others dimmed, once each; text results
    are the moves and the plays a sticker cannot say (with UNO, a swap, several cards)."""
    by_file = names_of(tg)
    plays = [a for a in legal if isinstance(a, Play)]
    can = {a.card for a in plays}
    want = {asset_for(a.card, a.color).name for a in plays if pictures.pictured(a)}
    want |= {asset_for(c, dim=True).name for c in hand if c not in can}
    stickers = [r for r in answer.results if r.sticker is not None]
    shown = [by_file[r.sticker] for r in stickers if r.sticker is not None]
    assert sorted(shown) == sorted(want), (shown, want)
    # in colour first, dimmed after, then text
    dims = [n.endswith("_d") for n in shown]
    assert dims == sorted(dims)
    assert answer.results[: len(stickers)] == stickers
    for r in stickers:
        if r.code.startswith("-"):  # dimmed: a neutral text, never the card
            assert r.text == "🎴"
        else:
            assert r.text == "" and r.code.startswith("p")
    for r in answer.results[len(stickers) :]:
        assert r.sticker is None
        if r.code.startswith("p"):  # a play only text can say
            assert r.code.endswith("!") or "@" in r.code or "+" in r.code, r.code


def picture_pick(answer: InlineAnswer) -> Result:
    """A card sticker if one can be played, else a move (take, draw, pass)."""
    for r in answer.results:
        if r.sticker is not None and r.code.startswith("p"):
            return r
    for code in ("k", "a", "d", "s"):
        for r in answer.results:
            if r.code.startswith(code):
                return r
    raise AssertionError([r.id for r in answer.results])


async def test_a_whole_game_with_every_card_a_sticker(api: FakeBotAPI, tmp_path: Path) -> None:
    owner = api.user("Olga", started=True)
    async with bot_with_owner(api, tmp_path / "uno.sqlite3", owner) as tg:
        pics = await tg.adapter.cards.wait(30)
        assert pics is not None and len(pics) == 126
        # two sets of the operator's, made by the bot: the cards, and dimmed
        made = {st.name: st for st in api.sticker_sets.values()}
        assert set(made) == {set_name(api.username, 0), set_name(api.username, 1)}
        assert set(made) == {"uno_cards_v1_by_uno_test_bot", "uno_cards_v1_dim_by_uno_test_bot"}
        for part, assets in enumerate(parts()):
            st = made[set_name(api.username, part)]
            assert st.owner == owner.id and len(st.stickers) == 63
            # in the manifest's order, each the picture drawn for it
            for asset, file_id in zip(assets, st.stickers, strict=True):
                assert pics.of(asset) == file_id
                assert api.stickers[file_id].data == cards.render(asset, "sticker")

        g = api.group("Friends")
        alice, bob = api.user("Alice"), api.user("Bob")
        people = [alice, bob]
        await open_table(tg, g, alice, [bob], bots=1, hand_size=5, target=0)
        turns = 0
        for _ in range(400):
            user = await tg.wait_turn(g, people)
            if user is None:
                break
            view = await tg.service.hand(key(g), user.pid)
            legal = await tg.service.legal(key(g), user.pid)
            assert view is not None and view.hand is not None
            hand = list(view.hand)

            def choose(ans: InlineAnswer, hand: list[Card] = hand, legal: Any = legal) -> Any:
                check_answer(tg, ans, hand, legal)
                return picture_pick(ans)

            await human_turn(tg, g, user, chooser=choose)
            turns += 1
        else:
            raise AssertionError("the game did not end")
        await tg.settle()
        assert turns > 3
        t = await tg.store.get_table(key(g))
        assert t is not None and t.status == "finished"
        # what the bot sent the group is as before: its table message and the winner
        group = api.bot_messages(g)
        assert len(group) == 2 and "wins the game" in group[1].text
        # each card played from the menu is a sticker in the group, the player's message
        posted = [m for m in api.user_messages(g) if m.via_bot and m.sticker is not None]
        assert posted and all(not m.text for m in posted)
        by_file = names_of(tg)
        assert all(not by_file[m.sticker["file_id"]].endswith("_d") for m in posted if m.sticker)
        assert_no_hand_in_group(api, g)
        for u in people:
            assert api.alerts(u) == []


async def test_the_set_is_made_once_across_two_restarts(api: FakeBotAPI, tmp_path: Path) -> None:
    owner = api.user("Olga", started=True)
    db = tmp_path / "uno.sqlite3"
    async with bot_with_owner(api, db, owner) as tg:
        assert await tg.adapter.cards.wait(30) is not None
        first = sticker_calls(api)
        # each set asked for (not there yet), created with 50 stickers, the other 13
        # added one by one; each read back after its creation and once complete
        assert first == {
            **dict.fromkeys(STICKER_CALLS, 0),
            "createNewStickerSet": 2,
            "addStickerToSet": 2 * (63 - INITIAL),
            "getStickerSet": 6,
        }
        refs = dict(tg.adapter.stickers.refs)  # type: ignore[union-attr]
        for _ in range(2):
            await tg.restart()
            # ready at once, from the database, without a call
            assert tg.adapter.stickers is not None
            assert tg.adapter.stickers.refs == refs
            assert sticker_calls(api) == first
        # and a fresh look at the database finds all of it
        assert (await Uploads(tg.service, "tg").load()).complete()


async def test_an_upload_that_failed_part_way_goes_on_from_there(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    """The network fails on the 5th sticker added to the first set: the cards are text
    meanwhile; the next start goes on from the 55th. Then a crash right after the second
    set was created (before it was read back): the next start finds it made, and adopts
    it without uploading its 50 stickers again."""
    owner = api.user("Olga", started=True)
    db = tmp_path / "uno.sqlite3"
    added = api.m_addStickerToSet
    made = api.m_createNewStickerSet
    adds = 0

    async def flaky_add(p: dict[str, Any]) -> Any:
        nonlocal adds
        adds += 1
        if adds == 5:
            raise ApiError(502, "Bad Gateway")
        return await added(p)

    async def create_then_fail(p: dict[str, Any]) -> Any:
        await made(p)
        if "dim" in str(p.get("name")):
            raise ApiError(500, "Internal Server Error")
        return True

    api.m_addStickerToSet = flaky_add  # type: ignore[method-assign]
    async with bot_with_owner(api, db, owner) as tg:
        assert await tg.adapter.cards.wait(30) is None
        assert tg.adapter.stickers is None and "Bad Gateway" in str(tg.adapter.cards.error)
        st = api.sticker_sets[set_name(api.username, 0).lower()]
        assert len(st.stickers) == INITIAL + 4
        # meanwhile, the cards are text, as without stickers
        g = api.group()
        alice, bob = api.user("Alice"), api.user("Bob")
        await scenario_table(tg, g, {alice: ["R5", "G7"], bob: ["B1", "B2"]}, "R1")
        api.m_createNewStickerSet = create_then_fail  # type: ignore[method-assign]
    async with bot_with_owner(api, db, owner) as tg:
        assert await tg.adapter.cards.wait(30) is None  # the second set: made, then failed
        assert len(st.stickers) == 63
        api.m_createNewStickerSet = made  # type: ignore[method-assign]
        ans = await alice.inline(str(g.id))
        assert ans.results and all(r.sticker is None for r in ans.results)
    async with bot_with_owner(api, db, owner) as tg:
        assert await tg.adapter.cards.wait(30) is not None
        ans = await alice.inline(str(g.id))
        assert any(r.sticker is not None for r in ans.results)
    # every sticker uploaded once: the sets hold the set, in order, nothing twice
    ok = sticker_calls(api, ok=True)
    assert ok["addStickerToSet"] == 2 * (63 - INITIAL)
    assert ok["createNewStickerSet"] == 1  # the second set's creation "failed" (it was made)
    for part, assets in enumerate(parts()):
        found = api.sticker_sets[set_name(api.username, part).lower()]
        assert [api.stickers[f].data for f in found.stickers] == [
            cards.render(a, "sticker") for a in assets
        ]
    # the set made unrecorded was asked for, not created a second time ("name occupied")
    assert [c.ok for c in api.calls if c.method == "createNewStickerSet"] == [True, False]


async def test_a_new_database_adopts_the_sets_made_before(api: FakeBotAPI, tmp_path: Path) -> None:
    """Issue 19 item 4: the sets are made (one database); a bot on a fresh database asks
    for them (``getStickerSet``), finds them whole and in order, and uploads nothing: no
    50 stickers sent only to hear that the name is taken."""
    owner = api.user("Olga", started=True)
    async with bot_with_owner(api, tmp_path / "first.sqlite3", owner) as tg:
        made = await tg.adapter.cards.wait(30)
        assert made is not None
    api.calls.clear()
    async with bot_with_owner(api, tmp_path / "fresh.sqlite3", owner) as tg:
        pics = await tg.adapter.cards.wait(30)
        assert pics is not None and pics.refs == made.refs
        assert sticker_calls(api) == {**dict.fromkeys(STICKER_CALLS, 0), "getStickerSet": 2}
        assert (await Uploads(tg.service, "tg").load()).complete()
        # and the hand is stickers at once
        g = api.group()
        alice, bob = api.user("Alice"), api.user("Bob")
        await scenario_table(tg, g, {alice: ["R5", "G7"], bob: ["B1", "B2"]}, "R1")
        ans = await alice.inline(str(g.id))
        assert [names_of(tg)[r.sticker] for r in ans.results if r.sticker] == ["r5", "g7_d"]
    # a restart on that database asks nothing
    api.calls.clear()
    async with bot_with_owner(api, tmp_path / "fresh.sqlite3", owner) as tg:
        assert tg.adapter.stickers is not None and tg.adapter.stickers.refs == made.refs
        assert sticker_calls(api) == dict.fromkeys(STICKER_CALLS, 0)


async def test_an_adopted_set_has_only_what_is_wrong_or_missing_uploaded(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    """Sets found on a fresh database that are not as this bot would make them: in the
    first, two stickers swapped (a red and a yellow card) and the last five lost; in the
    second, one sticker too many. The two are replaced in their places, the five added,
    the extra one deleted: nothing else is uploaded, and the sets end as the manifest."""
    owner = api.user("Olga", started=True)
    async with bot_with_owner(api, tmp_path / "first.sqlite3", owner) as tg:
        assert await tg.adapter.cards.wait(30) is not None
    first = api.sticker_sets[set_name(api.username, 0).lower()]
    dim = api.sticker_sets[set_name(api.username, 1).lower()]
    kept = list(first.stickers)
    first.stickers[0], first.stickers[13] = first.stickers[13], first.stickers[0]  # r0, y0
    for lost in first.stickers[-5:]:
        del api.stickers[lost]
    del first.stickers[-5:]
    extra = dataclasses.replace(api.stickers[dim.stickers[3]], file_id="CAACAgIAAxExtra")
    api.stickers[extra.file_id] = extra
    dim.stickers.append(extra.file_id)
    api.calls.clear()
    async with bot_with_owner(api, tmp_path / "fresh.sqlite3", owner) as tg:
        pics = await tg.adapter.cards.wait(30)
        assert pics is not None
    assert sticker_calls(api) == {
        **dict.fromkeys(STICKER_CALLS, 0),
        "getStickerSet": 4,  # each set asked for, and read back once mended
        "replaceStickerInSet": 2,
        "addStickerToSet": 5,
        "deleteStickerFromSet": 1,
    }
    replaced = [c.params["old_sticker"] for c in api.calls if c.method == "replaceStickerInSet"]
    assert replaced == [kept[13], kept[0]]  # in set order: y0 stood first, r0 at 13
    deleted = [c.params["sticker"] for c in api.calls if c.method == "deleteStickerFromSet"]
    assert deleted == [extra.file_id]
    for part, assets in enumerate(parts()):
        found = api.sticker_sets[set_name(api.username, part).lower()]
        assert [api.stickers[f].data for f in found.stickers] == [
            cards.render(a, "sticker") for a in assets
        ]
        assert [pics.of(a) for a in assets] == found.stickers
    # the stickers that were right were kept as they were
    assert first.stickers[1:13] == kept[1:13] and first.stickers[14:58] == kept[14:58]


async def test_a_dimmed_card_posts_nothing_of_the_hand_and_changes_nothing(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    owner = api.user("Olga", started=True)
    async with bot_with_owner(api, tmp_path / "uno.sqlite3", owner) as tg:
        assert await tg.adapter.cards.wait(30) is not None
        g = api.group()
        alice, bob = api.user("Alice", started=True), api.user("Bob")
        await scenario_table(tg, g, {alice: ["R5", "G7", "W"], bob: ["B1", "B2"]}, "R1")
        ans = await alice.inline(str(g.id))
        legal = await tg.service.legal(key(g), alice.pid)
        check_answer(tg, ans, [Card.parse(c) for c in ("R5", "G7", "W")], legal)
        by_file = names_of(tg)
        shown = [by_file[r.sticker] for r in ans.results if r.sticker]
        assert shown == ["r5", "wr", "wy", "wg", "wb", "g7_d"]
        before = (await tg.info(g)).version
        dim = next(r for r in ans.results if r.code == "-G7")
        posted = await alice.choose(ans, dim, g)
        assert posted.sticker is None and posted.text == "🎴"
        await tg.until(lambda: api.dms(alice))
        assert any("That card does not match" in t for t in api.dms(alice))
        assert (await tg.info(g)).version == before
        # a playable one: its sticker, in the group, as Alice's message; the table follows
        ans = await alice.inline(str(g.id))
        green = next(r for r in ans.results if r.sticker and by_file[r.sticker] == "wg")
        posted = await alice.choose(ans, green, g)
        assert posted.sticker is not None and posted.sticker["file_id"] == green.sticker
        assert posted.sender["id"] == alice.id and posted.via_bot
        await tg.until(moved(tg, g, before))
        info = await tg.info(g)
        assert info.view is not None and info.view.top == "W" and info.view.color == "G"


@pytest.mark.parametrize("message", ["before", "after"], ids=["message_first", "chosen_first"])
async def test_a_refused_choice_leaves_nothing_in_the_group(
    api: FakeBotAPI, tmp_path: Path, message: Literal["before", "after"]
) -> None:
    """Issue 19 item 6: the 🎴 a dimmed card posted is deleted where the bot may delete
    messages (an admin with "Delete messages"), as is the sticker of a stale pick; a card
    played keeps its sticker. Telegram does not say whether the chosen result or the
    message it posted reaches the bot first: both orders."""
    owner = api.user("Olga", started=True)
    async with bot_with_owner(api, tmp_path / "uno.sqlite3", owner) as tg:
        assert await tg.adapter.cards.wait(30) is not None
        g = api.group()
        api.promote_bot(g)
        alice, bob = api.user("Alice", started=True), api.user("Bob")
        await scenario_table(tg, g, {alice: ["R5", "G7", "W"], bob: ["B1", "B2"]}, "R1")
        before = (await tg.info(g)).version
        ans = await alice.inline(str(g.id))
        dim = next(r for r in ans.results if r.code == "-G7")
        posted = await alice.choose(ans, dim, g, message=message)
        await tg.until(lambda: posted.deleted)
        calls = [(c.params["chat_id"], c.params["message_id"]) for c in api.of("deleteMessage")]
        assert calls == [(g.id, posted.message_id)]
        assert any("That card does not match" in t for t in api.dms(alice))
        assert (await tg.info(g)).version == before
        # a card played stays; a second pick from the same (now stale) menu goes
        by_file = names_of(tg)
        red = next(r for r in ans.results if r.sticker and by_file[r.sticker] == "r5")
        played = await alice.choose(ans, red, g, message=message)
        await tg.until(moved(tg, g, before))
        green = next(r for r in ans.results if r.sticker and by_file[r.sticker] == "wg")
        stale = await alice.choose(ans, green, g, message=message)
        await tg.until(lambda: stale.deleted)
        await tg.settle()
        assert not played.deleted and played.sticker is not None
        assert len(api.of("deleteMessage")) == 2
        info = await tg.info(g)
        assert info.view is not None and info.view.top == "R5"


async def test_where_the_bot_may_not_delete_the_refused_choice_stays(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    """An admin without "Delete messages" in a supergroup: Telegram answers 400 "message
    can't be deleted"; the 🎴 stays, nothing else changes (the refusal is told as before,
    the table is as it was), and the group is not asked again for the next one."""
    owner = api.user("Olga", started=True)
    async with bot_with_owner(api, tmp_path / "uno.sqlite3", owner) as tg:
        assert await tg.adapter.cards.wait(30) is not None
        g = api.group()
        api.promote_bot(g, can_delete_messages=False)
        alice, bob = api.user("Alice", started=True), api.user("Bob")
        await scenario_table(tg, g, {alice: ["R5", "G7", "W"], bob: ["B1", "B2"]}, "R1")
        before = (await tg.info(g)).version
        ans = await alice.inline(str(g.id))
        dim = next(r for r in ans.results if r.code == "-G7")
        posted = await alice.choose(ans, dim, g)
        await tg.until(lambda: api.of("deleteMessage"))
        [call] = api.of("deleteMessage")
        assert not call.ok and call.error is not None
        assert call.error.description == "Bad Request: message can't be deleted"
        await tg.settle()
        assert not posted.deleted
        assert [t for t in api.dms(alice) if "does not match" in t] != []
        assert (await tg.info(g)).version == before
        assert api.bot_messages(g) == [] and api.alerts(alice) == []  # nothing said there
        # the next refused choice: not tried again
        ans = await alice.inline(str(g.id))
        again = await alice.choose(ans, next(r for r in ans.results if r.code == "-G7"), g)
        await tg.until(lambda: len([t for t in api.dms(alice) if "does not match" in t]) == 2)
        await asyncio.sleep(WITHDRAW_AFTER + 0.2)
        await tg.settle()
        assert len(api.of("deleteMessage")) == 1 and not again.deleted
        assert (await tg.info(g)).version == before


async def test_a_refusal_replied_in_the_group_goes_with_the_choice(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    """A player who never opened the private chat is told in the group, as a reply to the
    🎴 their choice posted: the 🎴 stays as long as that reply, and both go together."""
    owner = api.user("Olga", started=True)
    async with bot_with_owner(api, tmp_path / "uno.sqlite3", owner) as tg:
        assert await tg.adapter.cards.wait(30) is not None
        tg.adapter.refusal_ttl = 1.0
        g = api.group()
        api.promote_bot(g)
        alice, bob = api.user("Alice"), api.user("Bob")
        await scenario_table(tg, g, {alice: ["R5", "G7", "W"], bob: ["B1", "B2"]}, "R1")
        ans = await alice.inline(str(g.id))
        posted = await alice.choose(ans, next(r for r in ans.results if r.code == "-G7"), g)
        replies = await tg.until(lambda: [m for m in api.bot_messages(g) if m.reply_to is posted])
        assert "does not match" in replies[0].text
        await asyncio.sleep(0.5)
        assert not posted.deleted  # while the reply is there
        await tg.until(lambda: posted.deleted and replies[0].deleted, timeout=10)


async def test_with_an_owner_who_never_started_the_bot_the_cards_stay_text(
    tmp_path: Path,
) -> None:
    api = FakeBotAPI()
    await api.start()
    try:
        owner = api.user("Olga")  # never opened the private chat: Telegram refuses the set
        async with bot_with_owner(api, tmp_path / "uno.sqlite3", owner) as tg:
            assert await tg.adapter.cards.wait(30) is None
            assert "/start" in str(tg.adapter.cards.error)
            assert api.sticker_sets == {}
            g = api.group()
            alice, bob = api.user("Alice"), api.user("Bob")
            await scenario_table(tg, g, {alice: ["R5", "G7", "W"], bob: ["B1", "B2"]}, "R1")
            ans = await alice.inline(str(g.id))
            assert [r.title for r in ans.results] == [
                "🟥 5", "🌈 Wild → 🟥 Red", "🌈 Wild → 🟨 Yellow", "🌈 Wild → 🟩 Green",
                "🌈 Wild → 🟦 Blue", "▶️ Draw a card", "✖ 🟩 7", "🤖 Play for me",
            ]  # fmt: skip
            assert all(r.sticker is None and r.text == "🎴" for r in ans.results)
            before = (await tg.info(g)).version
            await alice.choose(ans, ans.results[0], g)  # and the game goes on
            await tg.until(moved(tg, g, before))
    finally:
        await api.stop()


@pytest.mark.parametrize("images", [True, False])
async def test_with_pictures_off_nothing_is_uploaded(
    api: FakeBotAPI, tmp_path: Path, images: bool
) -> None:
    owner = api.user("Olga", started=True)
    overrides = {} if images else {"card_images": False}
    async with bot_with_owner(api, tmp_path / "uno.sqlite3", owner, **overrides) as tg:
        pics = await tg.adapter.cards.wait(30)
        assert (pics is not None) is images
        assert bool(api.sticker_sets) is images
        assert (tg.adapter.stickers is not None) is images


def test_the_sets_hold_what_telegram_allows() -> None:
    ps = parts()
    assert [len(p) for p in ps] == [63, 63] and all(len(p) <= 120 for p in ps)
    assert [a for p in ps for a in p] == manifest()
    for part in (0, 1):
        name = set_name("a_very_long_bot_username_of_32ch", part, version=99)
        assert len(name) <= 64 and "__" not in name and name[0].isalpha()


async def test_uno_bot_stickers_makes_the_set_and_the_bot_uses_it(tmp_path: Path) -> None:
    """``uno-bot stickers``: says what is wrong (the owner never started the bot), makes
    the set once that is fixed, has nothing to do the second time; the bot started on
    that database has its stickers at once."""
    api = FakeBotAPI()
    await api.start()
    db = tmp_path / "uno.sqlite3"
    try:
        owner = api.user("Olga")
        settings = Settings(
            db=db,
            telegram_token=api.token,
            telegram_api_url=api.base_url,
            telegram_owner=owner.id,
        )
        lines: list[str] = []
        assert await make_stickers(settings, lines.append) == 1
        assert any("send it /start" in line for line in lines) and api.sticker_sets == {}
        api.calls.clear()  # (Telegram's refusal, as expected)
        await owner.start_bot()
        lines.clear()
        assert await make_stickers(settings, lines.append) == 0
        assert f"  https://t.me/addstickers/{set_name(api.username, 1)}" in lines
        assert len(api.sticker_sets) == 2
        made = sticker_calls(api)
        lines.clear()
        assert await make_stickers(settings, lines.append) == 0
        assert "the card set is ready: 126 stickers, 0 calls made" in lines
        async with bot_with_owner(api, db, owner) as tg:
            assert tg.adapter.stickers is not None and len(tg.adapter.stickers) == 126
        assert sticker_calls(api) == made
    finally:
        await api.stop()


def test_uno_bot_stickers_names_what_is_missing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNO_")}
    run = functools.partial(
        subprocess.run,
        [str(Path(sys.executable).with_name("uno-bot")), "stickers"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    res = run(env={**env, "UNO_DB": str(tmp_path / "x.sqlite3")})
    assert res.returncode == 1 and "UNO_TELEGRAM_TOKEN" in res.stderr
    res = run(env={**env, "UNO_DB": str(tmp_path / "x.sqlite3"), "UNO_TELEGRAM_TOKEN": "1:x"})
    assert res.returncode == 1 and "UNO_TELEGRAM_OWNER" in res.stderr
    assert "/start" in res.stderr and "Traceback" not in res.stderr
