"""``/uno rank`` and ``/uno top`` on the fake Discord: a whole game rated, a player's
ratings (their own, a member's, a bot seat's by name) privately, the ladders for everyone
in the server's language; in Chinese for a Chinese client."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.ratings import GLOBAL
from bot.ui import render
from bot.ui.i18n import translator
from tests.adapters.discord.harness import World

EN, HANS, HANT = translator("en"), translator("zh_Hans"), translator("zh_Hant")


async def a_game(world: World) -> str:
    """Alice and Bob and a bot seat play one round to its end; the server's scope."""
    alice, bob, _ = world.users
    await world.slash(alice, "new")
    await world.slash(bob, "join")
    await world.slash(alice, "addbot", strategy="basic")
    res = await world.svc.configure(
        world.key(), f"dc:{alice.id}", overrides={"target": 0, "hand_size": 3}
    )
    assert res.ok
    await world.slash(alice, "start")
    humans = {f"dc:{u.id}": u for u in (alice, bob)}
    final = await world.play_game(humans)
    assert final.status == "finished"
    return final.scope


async def test_rank_and_top_after_a_game(make_world: Callable[..., Awaitable[World]]) -> None:
    world = await make_world(admin=("Alice",))
    alice, bob, carol = world.users
    fake, svc = world.fake, world.svc
    scope = await a_game(world)

    rec = await world.slash(alice, "rank")
    [mine] = fake.texts_for(rec)
    assert mine == render.rank_text("Alice", await svc.rank(scope, f"dc:{alice.id}"), EN)
    assert mine.splitlines()[0] == "🏅 Alice"
    assert "Here, all time: " in mine and "(provisional) · 1 game" in mine
    assert all(m.audience == alice.id for m in fake.replies(rec))  # to her only

    rec = await world.slash(carol, "rank", whose=alice)  # a member named
    assert fake.texts_for(rec) == [mine]
    rec = await world.slash(carol, "rank", name="bot 1")  # a bot seat, by name
    assert fake.texts_for(rec)[0].splitlines()[0] == "🏅 Bot 1 (basic)"
    rec = await world.slash(carol, "rank")  # never played
    assert fake.texts_for(rec) == [
        EN.gettext("{player} has no rating yet: finish a game first.", player="Carol")
    ]

    rec = await world.slash(bob, "top")
    [board] = fake.texts_for(rec)
    assert board == render.top_text(await svc.top(scope), EN)
    assert board.startswith("🏆 Ladder: Here, season ") and "🏆 Ladder: Here, all time" in board
    assert all(m.audience is None for m in fake.replies(rec))  # for everyone
    rec = await world.slash(bob, "top", scope="global")
    assert fake.texts_for(rec) == [render.top_text(await svc.top(GLOBAL), EN)]
    assert "Everywhere, all time" in fake.texts_for(rec)[0]

    # the server in Traditional Chinese (Alice manages the channels): the ladders in it
    await world.slash(alice, "language", language="zh_Hant", where="guild")
    rec = await world.slash(bob, "top")
    assert fake.texts_for(rec) == [render.top_text(await svc.top(scope), HANT)]
    assert (
        HANT.gettext("🏆 Ladder: {ladder}", ladder=HANT.gettext("Here, all time"))
        in (fake.texts_for(rec)[0])
    )


async def test_a_chinese_client_reads_its_rank_in_chinese(
    make_world: Callable[..., Awaitable[World]],
) -> None:
    world = await make_world(guild_locale="zh-CN")
    alice = world.users[0]
    scope = await a_game(world)
    rec = await world.slash(alice, "rank")
    [text] = world.fake.texts_for(rec)
    assert text == render.rank_text("Alice", await world.svc.rank(scope, f"dc:{alice.id}"), HANS)
    assert HANS.gettext("Here, all time") in text
    assert "平均名次" in text
    # the commands have Chinese names for Chinese clients
    names = {o["name"]: o for o in world.fake.global_commands[0]["options"]}
    assert names["rank"]["name_localizations"]["zh-CN"] == "等级分"
    assert names["top"]["name_localizations"]["zh-TW"] == "天梯"
