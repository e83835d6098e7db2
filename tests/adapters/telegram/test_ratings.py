"""/rank and /top in a group, through the fake Bot API: a whole game rated, a player's
ratings (their own, a reply's, a bot seat's by name), the ladders here and everywhere, in
the chat's language."""

from __future__ import annotations

from bot.ratings import GLOBAL
from bot.ui import render
from bot.ui.i18n import translator
from tests.adapters.telegram.conftest import Harness, key, open_table, play_out

EN, HANT = translator("en"), translator("zh_Hant")


async def test_rank_and_top_after_a_game(tg: Harness) -> None:
    api = tg.api
    g = api.group("Friends")
    alice, bob = api.user("Alice"), api.user("Bob")
    api.set_admin(g, alice)
    await open_table(tg, g, alice, [bob], bots=1, hand_size=3, target=0)
    await play_out(tg, g, [alice, bob])
    await tg.settle()
    svc = tg.service
    info = await svc.table(key(g))
    assert info is not None and info.status == "finished"
    scope = info.scope

    def said(prefix: str) -> list[str]:
        return [m.text for m in api.bot_messages(g) if m.text.startswith(prefix)]

    # your own ratings
    await alice.send(g, "/rank")
    [mine] = await tg.until(lambda: said("🏅"))
    assert mine == render.rank_text("Alice", await svc.rank(scope, alice.pid), EN)
    assert mine.splitlines()[0] == "🏅 Alice"
    assert "Here, all time: " in mine and "Everywhere, all time: " in mine
    assert "(provisional) · 1 game · " in mine

    # a reply names the player; so does a bot seat's name
    hello = await alice.send(g, "hello")
    await bob.send(g, "/rank", reply_to=hello)
    await tg.until(lambda: len(said("🏅")) == 2)
    assert said("🏅")[1] == mine
    await bob.send(g, "/rank bot 1")
    await tg.until(lambda: len(said("🏅")) == 3)
    assert said("🏅")[2].splitlines()[0] == "🏅 Bot 1 (smart)"
    await bob.send(g, "/rank Nobody")
    nobody = await tg.until(lambda: said("Nobody"))
    assert nobody == [
        EN.gettext("{player} has no rating yet: finish a game first.", player="Nobody")
    ]

    # the ladders: this chat's, then everywhere's
    await bob.send(g, "/top")
    [board] = await tg.until(lambda: said("🏆 Ladder"))
    assert board == render.top_text(await svc.top(scope), EN)
    lines = board.splitlines()
    assert lines[0].startswith("🏆 Ladder: Here, season ")
    assert "🏆 Ladder: Here, all time" in lines
    assert sum(1 for ln in lines if ln.startswith(("1. ", "2. ", "3. "))) == 6  # 3 a ladder
    await bob.send(g, "/top all")
    await tg.until(lambda: len(said("🏆 Ladder")) == 2)
    assert said("🏆 Ladder")[1] == render.top_text(await svc.top(GLOBAL), EN)
    assert "Everywhere, all time" in said("🏆 Ladder")[1]

    # in the chat's language
    await alice.send(g, "/language zh_Hant")
    await tg.until(lambda: [m for m in api.bot_messages(g) if "繁體中文" in m.text])
    await bob.send(g, "/top")
    label = HANT.gettext("Here, all time")
    zh = await tg.until(lambda: said("🏆 天梯"))
    assert zh == [render.top_text(await svc.top(scope), HANT)]
    assert HANT.gettext("🏆 Ladder: {ladder}", ladder=label) in zh[0]
