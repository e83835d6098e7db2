"""Cards as emojis (issue 13): the bot uploads the card set as its application emojis once,
keeps their ids in the database, and shows each card on a hand's buttons and select
options, and the top card in the table message, as its emoji; with the upload failing or
``UNO_CARD_IMAGES=false``, the cards are text as before."""

from __future__ import annotations

import asyncio
import base64
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from adapters.discord.emojis import EmojiSets, emoji_name, refused_emojis
from bot.port import NullPort
from bot.service import Service
from bot.store import SqliteStore
from bot.ui import card_set as cards
from bot.ui.card_images import card_set
from bot.ui.card_set import EMOJI_VERSION, Uploads, manifest
from engine import Color
from tests.adapters.discord.harness import World, name_of
from tests.adapters.discord.test_game import assert_no_public_hand
from tests.adapters.discord.test_play import DECK_FILLER
from tests.fakes.discord_api import ApiError, AppEmoji, Message, User

MakeWorld = Callable[..., Awaitable[World]]
_MARKUP = re.compile(r"<:(uno\d+_[a-z0-9_]+):(\d+)>")
_CARD_TEXT = re.compile(r"[🟥🟨🟩🟦🌈]")
V = emoji_name("")  # the card emojis' names start so: ``uno<EMOJI_VERSION>_``


async def emoji_world(make_world: MakeWorld, **kw: Any) -> World:
    world = await make_world(card_emojis=True, **kw)
    await world.bot.cards.wait(30)
    return world


def emoji_calls(world: World, method: str) -> int:
    return len(world.fake.calls_to(r"/applications/\d+/emojis", method))


def card_of(custom_id: str) -> tuple[str, str | None]:
    """The first card a hand's button plays or picks, and the colour it names."""
    arg = name_of(custom_id)[1] or ""
    first = arg.split("+")[0]
    m = re.fullmatch(r"([A-Z0-9]{1,3})(?:~([RYGB]))?.*", first)
    assert m is not None, custom_id
    return m.group(1), m.group(2)


def check_cards(world: World, components: list[dict[str, Any]]) -> int:
    """Every card on these components (buttons and select options) is its emoji, the
    emoji of that card (a wild with its colour), and no card is text; the number seen."""
    by_id = {e.id: e.name for e in world.fake.app_emojis.values()}
    seen = 0
    for row in components:
        for c in row.get("components", ()):
            cid = str(c.get("custom_id", ""))
            action = name_of(cid)[0]
            if c.get("type") == 2 and action in ("play", "pick"):
                code, color = card_of(cid)
                emoji = c.get("emoji")
                assert emoji is not None, c
                name = by_id[int(emoji["id"])]
                face = code.lower() + (color.lower() if color and code in ("W", "W4") else "")
                assert name in (emoji_name(face), emoji_name(face + "_d")), (name, cid)
                assert not _CARD_TEXT.search(c.get("label") or ""), c  # the picture says it
                if name.endswith("_d"):  # dimmed: never one that can be pressed
                    assert c.get("disabled"), c
                elif not c.get("disabled"):  # one to press: in colour
                    assert not name.endswith("_d"), c
                seen += 1
            elif c.get("type") == 3 and action == "cards":
                for o in c.get("options", ()):
                    assert o.get("emoji") and int(o["emoji"]["id"]) in by_id, o
                    seen += 1
    return seen


async def test_the_set_is_uploaded_once_and_every_card_shown_is_its_emoji(
    make_world: MakeWorld,
) -> None:
    world = await emoji_world(make_world)
    fake = world.fake
    emojis = world.bot.emojis
    assert emojis is not None and len(emojis) == 126
    # the application's emojis: the set, each the picture drawn for it
    by_name = {e.name: e for e in fake.app_emojis.values()}
    assert set(by_name) == {emoji_name(a) for a in manifest()}
    for a in manifest():
        assert by_name[emoji_name(a)].data == cards.render(a, "emoji")
    assert emoji_calls(world, "POST") == 126 and emoji_calls(world, "GET") == 1
    # kept in the database
    kept = (await Uploads(world.service, "dc", EMOJI_VERSION).load()).refs()
    assert kept == {a.name: str(by_name[emoji_name(a)].id) for a in manifest()}

    alice, bob, _ = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    await world.press(alice, table, world.button(table, "addbot"))
    await world.svc.configure(world.key(), f"dc:{alice.id}", overrides={"target": 0})
    await world.press(alice, table, world.button(table, "start"))
    final = await world.play_game({f"dc:{u.id}": u for u in world.users})
    assert final.status == "finished"

    # every card on every hand message any player saw is a picture
    cards_seen = 0
    for seen in fake.shown:
        if seen.audience is not None and seen.components:
            cards_seen += check_cards(world, seen.components)
    assert cards_seen > 20
    # the table message shows the top card as its emoji, in every turn's edit
    tops = [c for c, _ in table.history if "Top card:" in c and "wins the game" not in c]
    assert tops
    for content in tops:
        line = next(x for x in content.splitlines() if x.startswith("Top card:"))
        m = _MARKUP.search(line)
        assert m is not None, line
        assert by_name[m.group(1)].id == int(m.group(2)) and not m.group(1).endswith("_d")
    assert_no_public_hand(world)
    assert fake.errors == []
    assert emoji_calls(world, "POST") == 126  # nothing uploaded during the game


async def test_a_wild_s_colours_are_the_wild_in_each(make_world: MakeWorld) -> None:
    world = await emoji_world(make_world)
    alice, bob, carol = world.users
    await world.load_scenario(
        {alice: ["R1", "W", "W4", "G5", "G5"], bob: ["B1", "B2"], carol: ["Y1", "Y2"]},
        ["R9"],
        DECK_FILLER,
    )
    await world.bot.cards.wait(30)
    rec = await world.slash(alice, "hand")
    assert rec.original is not None
    msg = world.fake.messages[rec.original]
    by_id = {e.id: e.name for e in world.fake.app_emojis.values()}
    buttons = {
        name_of(b["custom_id"])[1]: b
        for b in msg.buttons()
        if name_of(b["custom_id"])[0] in ("play", "pick")
    }
    shown = {arg: (by_id[int(b["emoji"]["id"])], b.get("label")) for arg, b in buttons.items()}
    # on a red 9: the red 1 and the wilds can be played; the two green 5s cannot (dimmed)
    assert shown == {
        "R1": (V + "r1", None),
        "W": (V + "w", None),
        "W4": (V + "w4", None),
        "G5": (V + "g5_d", "×2"),
    }
    # and the draw pile is the back of a card
    draw = next(b for b in msg.buttons() if name_of(b["custom_id"])[0] == "draw")
    # (labelled as bot.ui.controls.hand_menu labels it)
    assert by_id[int(draw["emoji"]["id"])] == V + "back" and draw["label"] == "Draw a card"
    await world.press(alice, msg, world.button(msg, "pick", "W"))
    colours = [b for b in msg.buttons() if name_of(b["custom_id"])[0] == "play"]
    assert [(by_id[int(b["emoji"]["id"])], b["label"]) for b in colours] == [
        (V + "wr", "Red"),
        (V + "wy", "Yellow"),
        (V + "wg", "Green"),
        (V + "wb", "Blue"),
    ]
    await world.press(alice, msg, colours[2]["custom_id"])
    table = await world.table_message()
    assert f"Top card: <:{V}wg:{world.bot.emojis.emoji('W', Color.GREEN).id}> 🌈 Wild" in (  # type: ignore[union-attr]
        table.content
    )
    assert world.fake.errors == []


async def test_restarts_upload_nothing_and_an_upload_cut_short_goes_on(
    tmp_path: Path,
) -> None:
    """Discord fails the 40th upload (a 503): the cards are text; the next start uploads
    the 87 left. Two more starts upload nothing; an emoji deleted by hand (in the Developer
    Portal) is uploaded again at the next start, alone."""
    world = World(tmp_path / "uno.sqlite3", card_emojis=True)
    fake = world.fake
    create = fake._create_emoji
    made = 0

    async def flaky(request: Any) -> Any:
        nonlocal made
        made += 1
        if made == 40:
            raise ApiError(503, 0, "503: Service Unavailable")
        return await create(request)

    fake._create_emoji = flaky  # type: ignore[method-assign]
    await world.start()
    try:
        assert await world.bot.cards.wait(30) is None
        assert world.bot.emojis is None and "503" in str(world.bot.cards.error)
        assert len(fake.app_emojis) == 39
        # the cards are text meanwhile
        alice, bob, _ = world.users
        await world.slash(alice, "new")
        table = await world.table_message()
        await world.press(bob, table, world.button(table, "join"))
        await world.press(alice, table, world.button(table, "start"))
        assert "Top card: " in table.content and "<:" not in table.content
        hand = await world.show_hand(alice)
        assert hand.buttons() and all("emoji" not in b for b in hand.buttons())
        await world.restart()
        assert await world.bot.cards.wait(30) is not None
        # each of the 126 uploaded once (and the one refused)
        assert made == 127 and len({e.name for e in fake.app_emojis.values()}) == 126
        await world.act(alice if (await world.info()).view.current == f"dc:{alice.id}" else bob)  # type: ignore[union-attr]
        assert "<:" + V in table.content
        posts = emoji_calls(world, "POST")
        for _ in range(2):
            await world.restart()
            assert world.bot.emojis is None  # text until the list confirms the record
            assert await world.bot.cards.wait(30) is not None
        assert emoji_calls(world, "POST") == posts
        # one deleted by hand: uploaded again, alone
        gone = next(e for e in fake.app_emojis.values() if e.name == V + "r5")
        del fake.app_emojis[gone.id]
        await world.restart()
        emojis = await world.bot.cards.wait(30)
        assert emojis is not None and emoji_calls(world, "POST") == posts + 1
        assert emojis.emoji("R5").id != gone.id
        assert fake.errors and all("503" in e for e in fake.errors)
    finally:
        await world.close()


async def test_old_versions_are_deleted_once_this_one_is_made(make_world: MakeWorld) -> None:
    world = await make_world(card_emojis=True)
    fake = world.fake
    await world.bot.cards.wait(30)
    # an older version's emojis on the application, and recorded
    other = EMOJI_VERSION + 1  # any version but this one
    old = {}
    for a in manifest()[:3]:
        e = AppEmoji(fake.snowflake(), emoji_name(a, other), b"\x89PNG")
        fake.app_emojis[e.id] = e
        old[a.name] = str(e.id)
    await Uploads(world.service, "dc", EMOJI_VERSION).record(old, version=other)
    await world.restart()
    await world.bot.cards.wait(30)
    assert {e.name for e in fake.app_emojis.values()} == {emoji_name(a) for a in manifest()}
    assert (await Uploads(world.service, "dc", EMOJI_VERSION).load()).old_versions() == []


@pytest.mark.parametrize("images", [True, False])
async def test_with_pictures_off_the_cards_are_text(make_world: MakeWorld, images: bool) -> None:
    world = await make_world(card_emojis=not images, card_images=images)
    assert await world.bot.cards.wait(30) is None
    assert world.fake.app_emojis == {} and emoji_calls(world, "POST") == 0
    alice, bob, carol = world.users
    await world.load_scenario(
        {alice: ["R1", "W", "G5"], bob: ["B1"], carol: ["Y1"]}, ["R9"], DECK_FILLER
    )
    rec = await world.slash(alice, "hand")
    assert rec.original is not None
    msg = world.fake.messages[rec.original]
    assert [b.get("label") for b in msg.buttons()][:3] == ["🟥1", "🟩5", "🌈"]
    assert all("emoji" not in b for b in msg.buttons())
    await world.act(alice)
    table = await world.table_message()
    assert "Top card: 🟥 1" in table.content and "<:" not in table.content


async def test_the_fake_refuses_what_discord_refuses(make_world: MakeWorld) -> None:
    """The application emoji routes check names, images, sizes and the count as Discord
    does, and a component cannot show an emoji that does not exist."""
    world = await make_world()
    fake = world.fake
    http = world.bot.client.http  # type: ignore[union-attr]
    app = fake.app_id
    png = cards.render(manifest()[0], "emoji")
    uri = "data:image/png;base64," + base64.b64encode(png).decode()
    made = await http.create_application_emoji(app, "uno_ok", uri)
    assert made["name"] == "uno_ok"
    bad = [
        ("x", uri),  # too short
        ("has space", uri),
        ("a" * 33, uri),
        ("UNO_OK", uri),  # taken (names are unique, whatever their case)
        ("fine", "not a data uri"),
        ("fine", "data:image/png;base64," + base64.b64encode(b"not a png").decode()),
        ("big", "data:image/png;base64," + base64.b64encode(png + b"\0" * 262144).decode()),
    ]
    for name, image in bad:
        with pytest.raises(discord.HTTPException):
            await http.create_application_emoji(app, name, image)
    for i in range(2000 - len(fake.app_emojis)):
        fake.app_emojis[-i - 1] = AppEmoji(-i - 1, f"e{i}", png)
    with pytest.raises(discord.HTTPException) as full:
        await http.create_application_emoji(app, "one_more", uri)
    assert full.value.code == 30008
    listed = await http.get_application_emojis(app)
    assert len(listed["items"]) == 2000
    await http.delete_application_emoji(app, made["id"])
    with pytest.raises(discord.NotFound):
        await http.delete_application_emoji(app, made["id"])
    # a button with nothing on it is this fake's own complaint
    assert fake._check_emojis(
        {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "b"}]}]}
    ) == (["a button without a label or an emoji"], {})
    # a message cannot show an emoji that is not there: Discord's 400, as discord.py reads it
    view = discord.ui.View()
    view.add_item(discord.ui.Button(custom_id="a", label="fine", emoji="🟥"))
    view.add_item(
        discord.ui.Button(custom_id="b", emoji=discord.PartialEmoji(name=V + "x", id=111))
    )
    choose = discord.ui.Select(custom_id="c", row=1)
    choose.add_option(label="one", value="1")
    choose.add_option(label="two", value="2", emoji=discord.PartialEmoji(name=V + "y", id=222))
    view.add_item(choose)
    channel = world.bot.client.get_partial_messageable(world.channel.id)  # type: ignore[union-attr]
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(content="x", view=view)
    err = refused.value
    assert (err.status, err.code) == (400, 50035)
    assert err.text.splitlines() == [
        "Invalid Form Body",
        "In components.0.components.1.emoji.id: Invalid emoji",
        "In components.1.components.0.options.1.emoji.id: Invalid emoji",
    ]
    assert refused_emojis(err, view.to_components()) == {111, 222}
    assert refused_emojis(full.value, view.to_components()) is None  # not about an emoji
    assert len(card_set()) == 63


# -- issue 19 item 2: emojis deleted by hand ------------------------------------------------

LISTING = r"/applications/\d+/emojis$"


def emojis_on(msg: Message) -> set[int]:
    """The custom emoji ids on a message's components (buttons and select options)."""
    out: set[int] = set()
    for row in msg.components:
        for c in row.get("components", ()):
            for e in [c.get("emoji")] + [o.get("emoji") for o in c.get("options", ())]:
                if e and e.get("id"):
                    out.add(int(e["id"]))
    return out


def dead_in_text(world: World, msg: Message) -> list[str]:
    """The emojis in every text a message showed that the application does not have (a
    client shows ``:uno2_r9:`` for them)."""
    alive = set(world.fake.app_emojis)
    return [
        m.group(0)
        for content, _ in msg.history
        for m in _MARKUP.finditer(content)
        if int(m.group(2)) not in alive
    ]


async def _open_hand(world: World, user: User) -> Message:
    rec = await world.slash(user, "hand")
    assert rec.original is not None
    return world.fake.messages[rec.original]


async def _scenario(world: World) -> None:
    alice, bob, carol = world.users
    await world.load_scenario(
        {alice: ["R1", "R5", "G2", "W"], bob: ["B1", "B2", "B3"], carol: ["Y1", "Y2", "Y3"]},
        ["R9"],
        DECK_FILLER,
    )
    assert await world.bot.cards.wait(30) is not None


async def test_after_a_restart_no_emoji_is_drawn_before_this_start_s_list_shows_it(
    make_world: MakeWorld,
) -> None:
    """Every card emoji was deleted by hand (in the Developer Portal) while the bot was
    down. At the restart the table and Alice's hand (kept with it) are drawn again before
    Discord has answered the list of the application's emojis: in text, not with the ids
    recorded (the table would show ``:uno2_r9:``, the hand's edit be refused with a 400 and
    the hand dropped). Once the list is in, the set is uploaded again and used."""
    world = await emoji_world(make_world)
    fake = world.fake
    alice, bob, _ = world.users
    await _scenario(world)
    hand = await _open_hand(world, alice)
    assert emojis_on(hand) <= set(fake.app_emojis) and emojis_on(hand)
    drawn = len(hand.history)
    fake.app_emojis.clear()
    listing = fake.hold("GET", LISTING)
    await world.restart()
    assert world.bot.emojis is None  # not the database's ids: nothing listed yet
    await world.settle()
    await asyncio.wait_for(listing.arrived.wait(), 30)
    assert not listing.released.is_set()  # (Discord has not answered the list yet)
    table = await world.table_message()
    # both drawn again by this start, in text
    assert len(hand.history) > drawn and "🃏 Your cards (4):" in hand.content
    assert "Top card: 🟥 9" in table.content
    assert emojis_on(hand) == set() and [b.get("label") for b in hand.buttons()][:2] == [
        "🟥1",
        "🟥5",
    ]
    # Alice still plays from that hand (it was not dropped): text again
    await world.press(alice, hand, world.button(hand, "play", "R5"))
    assert "Alice played 🟥 5." in table.content and emojis_on(hand) == set()
    assert dead_in_text(world, table) == [] and fake.errors == []
    # the list is in: every card emoji is gone, so the set is uploaded again and used
    posts = emoji_calls(world, "POST")
    listing.release()
    emojis = await world.bot.cards.wait(30)
    assert emojis is not None and emoji_calls(world, "POST") == posts + 126
    await world.act(bob)
    assert "<:" + V in table.content and dead_in_text(world, table) == []
    assert fake.errors == []


async def test_an_emoji_refused_on_an_edit_redraws_that_hand_in_text_at_once(
    make_world: MakeWorld,
) -> None:
    """The red 1's emojis are deleted by hand while the bot runs. Alice's next hand edit
    shows them: Discord answers 400 "Invalid emoji" (code 50035, the field at its path).
    The hand is drawn again at once with the cards as text (not dropped), the later draws
    are text too (no second 400) until the set is checked again, which uploads the two
    emojis anew; then the cards are pictures again."""
    world = await emoji_world(make_world)
    fake = world.fake
    alice, bob, carol = world.users
    await _scenario(world)
    hand = await _open_hand(world, alice)
    red1 = {e.name: e.id for e in fake.app_emojis.values() if e.name.startswith(V + "r1")}
    assert set(red1) == {V + "r1", V + "r1_d"} and red1[V + "r1"] in emojis_on(hand)
    for eid in red1.values():
        del fake.app_emojis[eid]
    posts = emoji_calls(world, "POST")
    upload = fake.hold("POST", LISTING)  # the check's first upload waits
    await world.press(alice, hand, world.button(hand, "play", "R5"))
    # refused once, as Discord refuses it
    assert len(fake.errors) == 1, fake.errors
    assert "50035" in fake.errors[0] and "BUTTON_COMPONENT_INVALID_EMOJI" in fake.errors[0]
    # and the hand arrived at once, in text, with its buttons
    assert "Alice played 🟥 5." in hand.content and emojis_on(hand) == set()
    assert world.bot.hands.has(world.key(), f"dc:{alice.id}")
    assert world.bot.cards.refused_ids == {red1[V + "r1"]}  # the one on the refused edit
    table = await world.table_message()
    # the next draws are text: nothing refused again while the set is checked
    for user in (bob, carol):
        await world.act(user)
    assert "<:" + V not in table.content and emojis_on(hand) == set()
    assert world.button(hand, "play", "R1") is not None
    assert len(fake.errors) == 1
    # the check: the two uploaded anew (nothing else), the cards pictures again
    await asyncio.wait_for(upload.arrived.wait(), 30)  # the check is at its first upload
    upload.release()
    emojis = await world.bot.cards.wait(30)
    assert emojis is not None and emoji_calls(world, "POST") == posts + 2
    assert {emojis.emoji("R1").id, emojis.emoji("R1", dim=True).id} <= set(fake.app_emojis)
    await world.press(alice, hand, world.button(hand, "play", "R1"))
    await world.act(bob)
    assert emojis_on(hand) and emojis_on(hand) <= set(fake.app_emojis)
    assert "<:" + V in table.content and len(fake.errors) == 1


class Leased:
    """The service, whose emoji lease another process holds until ``held`` is cleared
    (on SQLite there is one process, whose every lease is granted)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.held = True
        self.asked: list[tuple[str, str | None]] = []  # the leases asked: (name, owner)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def lease(self, name: str, seconds: float, *, owner: str | None = None) -> bool:
        self.asked.append((name, owner))
        return not self.held and bool(await self.inner.lease(name, seconds, owner=owner))


async def test_another_process_s_record_is_checked_against_the_list(
    make_world: MakeWorld,
) -> None:
    """A process that waits for another's record (the other holds the lease) uses it
    only once this start's list shows every emoji of it."""
    world = await emoji_world(make_world)
    fake = world.fake
    fake.app_emojis.clear()  # deleted by hand; the record still names them
    service = Leased(world.service)
    sets = EmojiSets(service, worker="second", poll=0.02)
    asked = emoji_calls(world, "GET")
    await sets.start(world.bot.client)  # type: ignore[arg-type]
    try:
        for _ in range(500):  # it asks, sees them gone, and asks again later
            await asyncio.sleep(0.02)
            assert sets.emojis is None
            if emoji_calls(world, "GET") >= asked + 3:
                break
        assert emoji_calls(world, "GET") >= asked + 3
        assert emoji_calls(world, "POST") == 126  # (the first start's)
        assert set(service.asked) == {("dc-emojis", "second")}  # its lease, asked as "second"
        service.held = False
        emojis = await sets.wait(30)  # its turn: it makes them
        assert emojis is not None and len(fake.app_emojis) == 126
        assert all(e.id in fake.app_emojis for e in map(emojis.emoji, ("R1", "W4", "B9")))
    finally:
        await sets.stop()


# -- issue 19 item 3: the emojis drawn for the square replace the old set -------------------


async def test_a_bot_with_the_old_set_uploads_the_new_drawing_once(tmp_path: Path) -> None:
    """A deployment made before the emojis were drawn for the square: the application has
    the old set (``uno1_*``, the card on transparency, recorded as version 1) and 1,800
    emojis of its own. The new set is uploaded once and used; the old one is deleted, and
    first, as the 2,000 would not hold both (1,800 + 126 + 126); nothing of the
    application's own is touched; restarts upload nothing more."""
    assert EMOJI_VERSION == 2 and emoji_name("r5") == "uno2_r5"
    world = World(tmp_path / "uno.sqlite3", card_emojis=True)
    fake = world.fake
    png = cards.render(manifest()[0], "emoji")
    for i in range(1800):
        fake.app_emojis[i + 1] = AppEmoji(i + 1, f"own_{i}", png)
    old = {}
    for a in manifest():
        e = AppEmoji(fake.snowflake(), emoji_name(a, 1), b"\x89PNG the old drawing")
        fake.app_emojis[e.id] = e
        old[a.name] = str(e.id)
    store = SqliteStore(world.db)
    await store.open()
    await Uploads(Service(store, NullPort()), "dc", 1).record(old)
    await store.close()
    await world.start()
    try:
        emojis = await world.bot.cards.wait(30)
        assert emojis is not None and len(emojis) == 126
        by_name = {e.name: e for e in fake.app_emojis.values()}
        assert not any(n.startswith("uno1_") for n in by_name)
        assert len(fake.app_emojis) == 1800 + 126
        assert sum(n.startswith("own_") for n in by_name) == 1800
        for a in manifest():  # each the new drawing, and the one used
            e = by_name[emoji_name(a)]
            assert e.data == cards.render(a, "emoji")
            assert emojis.pictures.of(a) == str(e.id)
        assert emoji_calls(world, "POST") == 126 and emoji_calls(world, "DELETE") == 126
        uploads = await Uploads(world.service, "dc", EMOJI_VERSION).load()
        assert uploads.complete() and uploads.old_versions() == []
        assert fake.errors == []
        for _ in range(2):
            await world.restart()
            assert await world.bot.cards.wait(30) is not None
        assert emoji_calls(world, "POST") == 126 and emoji_calls(world, "DELETE") == 126
    finally:
        await world.close()
