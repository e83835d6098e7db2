"""The expert seat on Telegram: ``/addbot expert`` seats one, the help names it in each
language, and a game with expert seats plays to its end through the real adapter (their
searches in the worker process)."""

from __future__ import annotations

from bot.ui.i18n import translator
from tests.adapters.telegram.conftest import Harness, assert_no_hand_in_group, key, play_out


async def test_addbot_expert_seats_an_expert_that_plays_the_game_out(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice = api.user("Alice")
    await alice.send(g, "/new")
    await tg.until(lambda: tg.service.cached(key(g)) is not None)
    await alice.send(g, "/addbot expert")
    await alice.send(g, "/addbot")
    await tg.until(lambda: len(tg.service.cached(key(g)).seats) == 3)
    bots = [s.bot for s in tg.service.cached(key(g)).seats]
    assert bots == [None, "expert", "smart"]
    res = await tg.service.configure(key(g), alice.pid, overrides={"target": 0, "hand_size": 5})
    assert res.ok
    await tg.service.experts.warm()  # (a worker process starts slowly on a busy machine)
    await alice.send(g, "/start")
    await tg.until(lambda: tg.service.cached(key(g)).status == "playing")
    await play_out(tg, g, [alice])
    await tg.settle()
    assert "wins the game" in tg.table_message(g).text
    assert_no_hand_in_group(api, g)
    moves = [r for r in await tg.store.actions(key(g)) if r.player.endswith(":1")]
    assert moves  # the expert seat moved


async def test_the_help_names_the_expert_in_every_language() -> None:
    from bot.ui.render.help import COMMANDS

    for lang in ("en", "zh_Hans", "zh_Hant"):
        line = translator(lang).gettext(COMMANDS["addbot"])
        assert "expert" in line and "smart" in line
        assert (lang == "en") == line.startswith("add a bot")
