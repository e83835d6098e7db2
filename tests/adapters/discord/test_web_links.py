"""The web table from Discord (issue 21 d): each player's hand message carries a link
button "Open the table" to their own page (a player token: that player, that table, that
game); without ``UNO_WEB_URL``, none."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from pydantic import SecretStr

from bot.ops.config import Settings
from bot.weblinks import Links
from tests.adapters.discord.harness import World

SECRET = "a-test-secret-of-the-web-table"


class WebWorld(World):
    @property
    def settings(self) -> Settings:
        return super().settings.model_copy(
            update={"web_url": "https://uno.example", "web_secret": SecretStr(SECRET)}
        )


def _links(msg: object) -> list[dict]:
    return [b for b in msg.buttons() if b.get("style") == 5]  # type: ignore[attr-defined]


async def _dealt(world: World) -> None:
    alice, bob, _ = world.users
    await world.slash(alice, "new")
    await world.press(bob, await world.table_message(), world.button(
        await world.table_message(), "join") or "")  # fmt: skip
    await world.press(alice, await world.table_message(), world.button(
        await world.table_message(), "start") or "")  # fmt: skip
    await world.settle()


async def test_the_hand_links_to_the_players_page(tmp_path) -> None:  # type: ignore[no-untyped-def]
    world = await WebWorld(tmp_path / "uno.sqlite3").start()
    try:
        await _dealt(world)
        alice = world.users[0]
        msg = await world.show_hand(alice)
        (link,) = _links(msg)
        assert link["label"] == "Open the table"
        assert link["url"].startswith("https://uno.example/#p=")
        found = Links(SECRET).read_player(link["url"].split("#p=", 1)[1])
        info = await world.info()
        assert found is not None and found.key == info.key
        assert found.player == f"dc:{alice.id}" and Links.same_game(found, info.created)
    finally:
        await world.close()


async def test_no_web_table_no_link(make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    await _dealt(world)
    msg = await world.show_hand(world.users[0])
    assert _links(msg) == []


async def test_the_table_message_links_to_the_public_page(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The table message carries "Watch on the web", the table's public page (a table
    token: anyone may watch, nobody may act), from the lobby on; gone when the game ends."""
    world = await WebWorld(tmp_path / "uno.sqlite3").start()
    try:
        alice = world.users[0]
        await world.slash(alice, "new")
        await world.settle()
        (lobby,) = _links(await world.table_message())
        assert lobby["label"] == "Watch on the web"
        assert lobby["url"].startswith("https://uno.example/#t=")
        info = await world.info()
        assert Links(SECRET).read_table(lobby["url"].split("#t=", 1)[1]) == info.key
        await _dealt(world)
        (dealt,) = _links(await world.table_message())
        assert dealt["url"] == lobby["url"]
        await world.slash(alice, "stop")
        await world.settle()
        assert _links(await world.table_message()) == []
    finally:
        await world.close()


async def test_no_web_table_no_watch_link(make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world()
    await _dealt(world)
    table = await world.table_message()
    assert table.buttons() and _links(table) == []
