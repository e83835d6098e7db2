"""The picture of the cards on a Discord hand message: only there, refreshed when the hand
changes, kept when only the buttons do, off with ``card_images=False``."""

from __future__ import annotations

import io
import time
from collections.abc import Awaitable, Callable

import aiohttp
import discord
import pytest
from discord.http import MultipartParameters, handle_message_parameters
from PIL import Image

from bot.ui.card_images import hand_png, hand_size
from engine import Card
from tests.adapters.discord.harness import World
from tests.adapters.discord.test_game import assert_no_public_hand
from tests.adapters.discord.test_play import DECK_FILLER
from tests.fakes.discord_api import Attachment, Message, User

HAND = ["R1", "R5", "G2", "W"]


def _picture(msg: Message) -> Attachment:
    assert len(msg.attachments) == 1, msg.attachments
    a = msg.attachments[0]
    assert a.filename == "hand.png" and a.content_type == "image/png"
    assert a.size == len(a.data) > 0
    return a


async def _hand(world: World, user: User) -> Message:
    """``/uno hand``: the user's hand message (a scenario has no table message)."""
    rec = await world.slash(user, "hand")
    assert rec.original is not None
    return world.fake.messages[rec.original]


def _uploads(world: World) -> int:
    return sum(1 for c in world.fake.calls if c.files)


async def _scenario(world: World) -> None:
    alice, bob, carol = world.users
    await world.load_scenario(
        {alice: HAND, bob: ["B1", "B2", "B3"], carol: ["Y1", "Y2", "Y3"]}, ["R9"], DECK_FILLER
    )


async def test_show_hand_carries_a_picture_of_that_hand_only(world: World) -> None:
    alice, bob, _ = world.users
    await _scenario(world)
    msg = await _hand(world, alice)
    assert msg.audience == alice.id and msg.ephemeral
    a = _picture(msg)
    img = Image.open(io.BytesIO(a.data))
    assert img.format == "PNG" and img.size == hand_size(len(HAND))
    # the hand in card order, the cards that can be played on a red 9 marked
    cards = sorted((Card.parse(c) for c in HAND), key=lambda c: c.order)
    playable = {Card.parse(c) for c in ("R1", "R5", "W")}
    assert a.data == hand_png(cards, playable)
    # Discord reports it with the message, as discord.py reads it
    payload = msg.payload()["attachments"][0]
    assert payload["filename"] == "hand.png" and payload["ephemeral"] is True
    assert (payload["width"], payload["height"]) == hand_size(len(HAND))
    # the text and buttons are as they always were
    assert "🃏 Your cards (4):" in msg.content
    assert world.button(msg, "play", "R5") is not None
    # Bob's hand is his, with his picture; nothing public carries one
    bob_msg = await _hand(world, bob)
    assert _picture(bob_msg).data != a.data
    assert msg.attachments == [a]
    assert all(m.attachments == [] for m in world.fake.public())
    assert_no_public_hand(world)
    assert world.fake.errors == []


async def test_the_picture_follows_the_hand_and_stays_when_only_buttons_change(
    world: World,
) -> None:
    alice = world.users[0]
    await _scenario(world)
    msg = await _hand(world, alice)
    first = _picture(msg)
    uploads = _uploads(world)
    # choosing a wild's colour redraws the buttons, not the cards: the picture stays
    wild = world.button(msg, "pick", "W")
    assert wild is not None
    await world.press(alice, msg, wild)
    assert "Choose the colour" in msg.content
    back = world.button(msg, "back")
    assert back is not None
    await world.press(alice, msg, back)
    assert msg.attachments == [first] and _uploads(world) == uploads
    # a card played: the picture is of the cards left, replacing the old one
    play = world.button(msg, "play", "R5")
    assert play is not None
    await world.press(alice, msg, play)
    after = _picture(msg)
    assert after.id != first.id and after.data != first.data
    assert Image.open(io.BytesIO(after.data)).size == hand_size(len(HAND) - 1)
    assert msg.uploads[:2] == [first, after]
    assert _uploads(world) == uploads + 1
    assert_no_public_hand(world)
    assert world.fake.errors == []


async def test_a_redraw_for_a_new_version_keeps_the_picture(world: World) -> None:
    """Jump-in on: Alice's R9 may be played onto the R9 on every move, so her hand is
    redrawn (its buttons carry the table version) while Bob draws and passes; her cards
    and what she can play stay the same, and so does her picture, never sent again."""
    alice, bob, carol = world.users
    await world.load_scenario(
        {alice: ["R9", "G2", "B7"], bob: ["B1", "B2", "B3"], carol: ["Y1", "Y2", "Y3"]},
        ["R9"],
        DECK_FILLER,
        current=bob,
        jump_in=True,
    )
    msg = await _hand(world, alice)
    first = _picture(msg)
    cards = sorted((Card.parse(c) for c in ("R9", "G2", "B7")), key=lambda c: c.order)
    assert first.data == hand_png(cards, {Card.parse("R9")})
    uploads, edits = _uploads(world), len(msg.history)
    version = (await world.info()).version
    await _hand(world, bob)
    for _ in range(3):
        info = await world.info()
        assert info.view is not None
        if info.view.current != f"dc:{bob.id}":
            break
        await world.act(bob)
    assert (await world.info()).version > version
    assert len(msg.history) > edits  # redrawn: the buttons carry the new version
    assert world.button(msg, "play", "R9") is not None
    assert msg.attachments == [first] and msg.uploads == [first]
    # the only pictures sent meanwhile were Bob's (his hand opened, then with a card more)
    bob_uploads = sum(len(m.uploads) for m in world.fake.private(bob))
    assert bob_uploads == 2 and _uploads(world) == uploads + bob_uploads
    assert world.fake.errors == []


async def test_no_pictures_when_turned_off(
    make_world: Callable[..., Awaitable[World]],
) -> None:
    world = await make_world(card_images=False)
    alice, bob, _ = world.users
    await _scenario(world)
    msg = await _hand(world, alice)
    assert "🃏 Your cards (4):" in msg.content and msg.attachments == []
    play = world.button(msg, "play", "R5")
    assert play is not None
    await world.press(alice, msg, play)
    await _hand(world, bob)
    await world.act(bob)
    assert _uploads(world) == 0
    assert all(not m.uploads for m in world.fake.messages.values())
    assert all(
        "attachments" not in c.body
        for c in world.fake.calls_to("/webhooks/", "PATCH")
        if isinstance(c.body, dict)
    )
    assert world.fake.errors == []


async def test_the_fake_takes_files_as_discord_does(world: World) -> None:
    """Multipart requests built by discord.py itself: an interaction answer with a file, a
    follow-up with one, and edits of ``@original`` that keep, replace or drop files."""
    fake = world.fake
    rec, _ = fake._base_interaction(2, world.users[0], world.channel, {"name": "uno"})
    fake.interactions[rec.id] = rec
    fake._by_token[rec.token] = rec
    rec.created = time.monotonic()
    base = f"{fake.api_url}"
    hook = f"{base}/webhooks/{fake.app_id}/{rec.token}"

    def form(params: MultipartParameters) -> aiohttp.FormData:
        out = aiohttp.FormData(quote_fields=False)  # as discord.py sends it
        for part in params.multipart:
            out.add_field(**part)
        return out

    def file(data: bytes, name: str = "hand.png") -> discord.File:
        return discord.File(io.BytesIO(data), filename=name)

    png1, png2 = hand_png(["R1"]), hand_png(["G2", "W4"])
    async with aiohttp.ClientSession() as http:
        # an interaction answered with a message and a file (payload_json: type and data)
        p = handle_message_parameters(content="one", files=[file(png1)])
        body = discord.utils._from_json(p.multipart[0]["value"])
        fd = aiohttp.FormData(quote_fields=False)
        fd.add_field("payload_json", discord.utils._to_json({"type": 4, "data": body}))
        for part in p.multipart[1:]:
            fd.add_field(**part)
        async with http.post(f"{base}/interactions/{rec.id}/{rec.token}/callback", data=fd) as r:
            assert r.status == 200, await r.text()
        original = fake.messages[rec.original]  # type: ignore[index]
        [a1] = original.attachments
        assert (a1.filename, a1.size, a1.content_type, a1.data) == (
            "hand.png", len(png1), "image/png", png1,
        )  # fmt: skip
        # a follow-up with two files
        p = handle_message_parameters(content="two", files=[file(png1), file(png2, "b.png")])
        async with http.post(hook, data=form(p)) as r:
            assert r.status == 200, await r.text()
            sent = await r.json()
        assert [a["filename"] for a in sent["attachments"]] == ["hand.png", "b.png"]
        # an edit without attachments keeps them; with a new file only, replaces them
        async with http.patch(f"{hook}/messages/@original", json={"content": "edited"}) as r:
            assert r.status == 200
        assert original.attachments == [a1] and original.content == "edited"
        p = handle_message_parameters(attachments=[file(png2)])
        async with http.patch(f"{hook}/messages/@original", data=form(p)) as r:
            assert r.status == 200, await r.text()
        [a2] = original.attachments
        assert a2.data == png2 and a2.id != a1.id and original.uploads == [a1, a2]
        # the attachments array keeps the ones it names by id; [] drops them all
        p = handle_message_parameters(attachments=[file(png1, "more.png")])
        payload = {"attachments": [{"id": str(a2.id)}, {"id": 0, "filename": "more.png"}]}
        fd = aiohttp.FormData(quote_fields=False)
        fd.add_field("payload_json", discord.utils._to_json(payload))
        fd.add_field(**p.multipart[1])
        async with http.patch(f"{hook}/messages/@original", data=fd) as r:
            assert r.status == 200, await r.text()
        assert [a.filename for a in original.attachments] == ["hand.png", "more.png"]
        assert original.attachments[0] is a2
        async with http.patch(f"{hook}/messages/@original", json={"attachments": []}) as r:
            assert r.status == 200
        assert original.attachments == []
        assert [s.attachments for s in fake.shown if s.message_id == original.id][-1] == []
        assert [len(c.files) for c in fake.calls if c.files] == [1, 2, 1, 1]
    assert fake.errors == []


async def test_a_refused_upload_still_shows_the_hand(world: World) -> None:
    """Discord refusing the picture (too large, say) does not cost the player their hand:
    it is shown again without one, and play goes on."""
    alice, _, _ = world.users
    await _scenario(world)
    world.fake.refuse_files = True
    msg = await _hand(world, alice)
    assert "🃏 Your cards (4):" in msg.content and msg.attachments == []
    play = world.button(msg, "play", "R5")
    assert play is not None
    await world.press(alice, msg, play)
    info = await world.info()
    assert info.view is not None and info.view.counts[f"dc:{alice.id}"] == 3
    msg = world.fake.messages[msg.id]
    assert "🃏 Your cards (3):" in msg.content and msg.attachments == []
    assert world.fake.errors and all("40005" in e for e in world.fake.errors)


async def test_a_picture_that_cannot_be_drawn_is_left_out(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> bytes:
        raise OSError("no font")

    monkeypatch.setattr("bot.ui.card_images.hand_png", broken)
    alice, _, _ = world.users
    await _scenario(world)
    msg = await _hand(world, alice)
    assert "🃏 Your cards (4):" in msg.content and msg.attachments == []
    assert world.fake.errors == []
