"""Whole games on the fake Discord: three users and a bot seat, from /uno new to a winner."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.adapters.discord.harness import HAND_HEADER_EN, World, name_of
from tests.fakes.discord_api import Message

EPHEMERAL = 64


def _hand_lines(world: World) -> set[str]:
    """Every line of a hand ever shown privately (``🟥 3 · 7 · Skip``)."""
    lines: set[str] = set()
    for m in world.fake.messages.values():
        if m.audience is None:
            continue
        for content, _ in m.history:
            if HAND_HEADER_EN in content or "🃏" in content:
                body = content.split("\n\n", 1)[0]
                for line in body.splitlines()[1:]:
                    if " · " in line or re.match(r"^\S+ \S+$", line):
                        lines.add(line)
    return lines


def assert_no_public_hand(world: World) -> None:
    """No public message, in any version, shows a hand, a card-play button or a picture;
    a picture of cards is only ever on its player's own hand message."""
    private_lines = _hand_lines(world)
    fake = world.fake
    for seen in fake.shown:
        if seen.attachments:  # shown with a hand's text, to one user
            assert seen.audience is not None and "🃏" in seen.content, seen.message_id
    for m in fake.messages.values():
        if m.uploads:
            assert m.audience is not None and m.ephemeral, m.id
            assert {a.filename for a in m.uploads} == {"hand.png"}
    for m in fake.public():
        assert m.uploads == [] and m.attachments == []
        for content, components in m.history:
            assert "Your cards" not in content and "手牌" not in content.split("\n")[0]
            for line in content.splitlines():
                assert line not in private_lines or not line.strip(), (line, m.id)
            for row in components:
                for c in row.get("components", ()):
                    action = name_of(str(c.get("custom_id", "")))[0]
                    assert action not in ("play", "pick", "cards", "color"), c


async def test_three_users_and_a_bot_play_a_whole_game(world: World) -> None:
    alice, bob, carol = world.users
    fake = world.fake

    rec = await world.slash(alice, "new")
    assert rec.callback_type == 5 and rec.callback_data == {"flags": EPHEMERAL}
    assert "Join" in fake.texts_for(rec)[0]
    table = await world.table_message()
    assert table.audience is None and "waiting for players" in table.content
    labels = [b["label"] for b in table.buttons()]
    assert labels == ["Join", "Leave", "Add a bot", "Settings", "Start"]

    await world.press(bob, table, world.button(table, "join"))
    await world.press(carol, table, world.button(table, "join"))
    await world.press(alice, table, world.button(table, "addbot"))
    assert "Bob" in table.content and "Carol" in table.content and "Bot 1" in table.content

    # one round only: the host sets the target score in the settings menu
    rec = await world.press(alice, table, world.button(table, "settings"))
    settings = fake.replies(rec)[0]
    assert settings.audience == alice.id
    while world.flag_select(settings, "target") is None:
        nxt = [b for b in settings.buttons() if b["label"] == "▶" and not b.get("disabled")]
        await world.press(alice, settings, nxt[0]["custom_id"])
    target = world.flag_select(settings, "target")
    assert target is not None
    await world.press(alice, settings, target["custom_id"], value=world.option(target, "0"))
    assert (await world.info()).rules.target == 0
    assert "1 change" in table.content

    started = time.monotonic()
    await world.press(alice, table, world.button(table, "start"))
    info = await world.info()
    assert info.status == "playing"
    start_public = len(fake.public())
    start_version = info.version

    humans = {f"dc:{u.id}": u for u in world.users}
    final = await world.play_game(humans)
    assert final.status == "finished"
    assert final.view is not None and final.view.winner is not None
    winner = final.name(final.view.winner)

    # the table message was edited in place to the end, without buttons
    assert f"{winner} wins the game" in table.content
    assert table.components == []
    # a game won is announced; every turn cost at most one public message
    turns = final.version - start_version
    news = fake.public()[start_public:]
    assert any("wins the game" in m.content for m in news)
    assert len(news) <= turns
    # each user saw their own hand, privately, and nobody else's
    for u in world.users:
        private = [m for m in fake.messages.values() if m.audience == u.id]
        assert any("Your cards" in c for m in private for c, _ in m.history)
        assert any(a.content_type == "image/png" for m in private for a in m.uploads)
    assert_no_public_hand(world)
    # every interaction was acknowledged in time; Discord refused nothing
    assert all(r.acked_at is not None for r in fake.interactions.values())
    assert max(r.ack_latency or 0 for r in fake.interactions.values()) < 1.0
    assert fake.errors == []
    # issue 11: no hand message edited into what it showed already; calls made with the
    # bot's token (Discord's global limit) about one a move, the table's edit
    last: dict[int, tuple[str, str, str]] = {}
    for seen in fake.shown:
        if seen.audience is None:
            continue
        now = (seen.content, _visible(seen.components), repr(seen.attachments))
        assert not (seen.kind == "edit" and last.get(seen.message_id) == now), seen
        last[seen.message_id] = now
    played = [c for c in fake.calls if c.at >= started]
    bot_token = [c for c in played if not re.match(r"^/api/v10/(interactions|webhooks)/", c.path)]
    assert len(bot_token) <= 1.2 * turns, (len(bot_token), turns)

    # statistics, per server and overall
    rec = await world.slash(alice, "stats")
    assert "Games played: 1" in fake.texts_for(rec)[0]
    rec = await world.slash(bob, "leaderboard")
    board = fake.replies(rec)[0]
    assert board.audience is None  # the leaderboard is for everyone to see
    for u in world.users:
        assert f"{u.name}: " in board.content
    if not final.is_bot(final.view.winner):  # bots keep no statistics
        assert board.content.splitlines()[1].startswith(f"1. {winner}: 1 win")
    rec = await world.slash(carol, "leaderboard", scope="global")
    assert "Carol" in fake.texts_for(rec)[0]


def _visible(components: list[dict[str, Any]]) -> str:
    """What a player sees of a message's components: not their ids (which carry the
    table's version, changing at every move)."""

    def strip(c: Any) -> Any:
        if isinstance(c, dict):
            return {k: strip(v) for k, v in c.items() if k != "custom_id"}
        if isinstance(c, list):
            return [strip(v) for v in c]
        return c

    return repr(strip(components))


def _public_texts(messages: list[Message]) -> list[str]:
    return [m.content for m in messages]
