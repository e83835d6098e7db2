"""Cards as stickers or as text, each player's own choice (issue 19 item 5): stickers fill
players' "recent stickers", so ``/cards`` (or its buttons in the private chat) shows the
player's cards in the inline hand as text articles instead, on every table, kept in the
database; with no choice made, the cards are stickers as before."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from adapters.telegram.ids import Link
from tests.adapters.telegram.conftest import Harness, moved, scenario_table
from tests.fakes.telegram_api import FakeBotAPI, FakeChat, FakeMessage, FakeUser, InlineAnswer

HANDS = {"alice": ["R5", "G7", "W"], "bob": ["B1", "B2", "R9"]}
# Alice's hand as text results (the articles Telegram shows without stickers)
ALICE_TEXT = [
    "🟥 5", "🌈 Wild → 🟥 Red", "🌈 Wild → 🟨 Yellow", "🌈 Wild → 🟩 Green",
    "🌈 Wild → 🟦 Blue", "▶️ Draw a card", "✖ 🟩 7", "🤖 Play for me",
]  # fmt: skip


@contextlib.asynccontextmanager
async def bot_with_stickers(api: FakeBotAPI, db: Path) -> AsyncIterator[Harness]:
    owner = next((u for u in api.users.values() if u.first_name == "Olga"), None)
    owner = owner or api.user("Olga", started=True)
    tg = Harness(api, db, overrides={"telegram_owner": owner.id})
    await tg.start()
    try:
        assert await tg.adapter.cards.wait(30) is not None
        yield tg
    finally:
        await tg.stop()


def stickers(answer: InlineAnswer) -> int:
    return sum(r.sticker is not None for r in answer.results)


def as_text(answer: InlineAnswer) -> bool:
    """The hand as text articles: no sticker, each result a title (and what it posts)."""
    return bool(answer.results) and all(r.sticker is None and r.title for r in answer.results)


async def reply(tg: Harness, user: FakeUser, before: int) -> FakeMessage:
    """The bot's next message in ``user``'s private chat."""
    api = tg.api

    def newest() -> FakeMessage | None:
        mine = api.bot_messages(api.private(user))
        return mine[-1] if len(mine) > before else None

    found = await tg.until(newest)
    assert isinstance(found, FakeMessage)
    return found


async def command(tg: Harness, user: FakeUser, text: str, chat: FakeChat | None = None) -> Any:
    """``text`` sent by ``user`` (privately unless ``chat``): the bot's private reply."""
    before = len(tg.api.bot_messages(tg.api.private(user)))
    await user.send(chat or user.chat, text)
    return await reply(tg, user, before)


async def test_cards_as_text_by_command_and_by_button_kept_over_a_restart(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    db = tmp_path / "uno.sqlite3"
    g = api.group()
    alice, bob = api.user("Alice", started=True), api.user("Bob", started=True)
    async with bot_with_stickers(api, db) as tg:
        await scenario_table(tg, g, {alice: HANDS["alice"], bob: HANDS["bob"]}, "R1")
        # nobody chose: stickers, as before
        assert stickers(await alice.inline(str(g.id))) == 6
        # /cards text, privately: the hand is text, the same moves as without stickers
        done = await command(tg, alice, "/cards text")
        assert done.text == "Your cards are shown as text."
        ans = await alice.inline(str(g.id))
        assert as_text(ans) and [r.title for r in ans.results] == ALICE_TEXT
        assert stickers(await bob.inline(str(g.id))) > 0  # Bob's own choice: unchanged
        # the menu's buttons: stickers again, then text
        menu = await command(tg, alice, "/cards")
        assert menu.labels() == ["🖼 Stickers", "✓ 🔤 Text"]
        assert "Your cards are shown as text." in menu.text
        assert (await alice.click(menu, "Stickers")).text is None  # no alert: done
        await tg.until(lambda: menu.labels() == ["✓ 🖼 Stickers", "🔤 Text"])
        assert "Your cards are shown as stickers." in menu.text
        assert stickers(await alice.inline(str(g.id))) == 6
        await alice.click(menu, "Text")
        await tg.until(lambda: menu.labels() == ["🖼 Stickers", "✓ 🔤 Text"])
        ans = await alice.inline(str(g.id))
        assert as_text(ans)
        # and a text result plays as any: the card is played, nothing of the hand posted
        before = (await tg.info(g)).version
        posted = await alice.choose(ans, ans.results[0], g)
        assert posted.text == "🎴" and posted.sticker is None
        await tg.until(moved(tg, g, before))
        assert (await tg.info(g)).view.top == "R5"  # type: ignore[union-attr]
        assert await tg.store.user_cards(alice.pid) == "text"
    # a new process on the same database: still text for Alice, stickers for Bob
    async with bot_with_stickers(api, db) as tg:
        assert tg.adapter.stickers is not None
        assert as_text(await bob.inline(str(g.id))) is False
        assert await tg.current(g) == bob.pid
        ans = await bob.inline(str(g.id))
        before = (await tg.info(g)).version
        await bob.choose(ans, next(r for r in ans.results if r.code.startswith("p")), g)
        await tg.until(moved(tg, g, before))
        assert await tg.current(g) == alice.pid
        assert as_text(await alice.inline(str(g.id)))


@pytest.mark.parametrize(
    ("code", "prompt", "labels", "done"),
    [
        (
            "en",
            "How should your cards be shown when you press “Play”?",
            ["✓ 🖼 Stickers", "🔤 Text"],
            "Your cards are shown as text.",
        ),
        (
            "zh-hans",
            "按“出牌”时，你的牌要怎样显示？",
            ["✓ 🖼 贴纸", "🔤 文字"],
            "你的牌以文字显示。",
        ),
        (
            "zh-hant",
            "按「出牌」時，你的牌要怎麼顯示？",
            ["✓ 🖼 貼圖", "🔤 文字"],
            "你的牌以文字顯示。",
        ),
    ],
)
async def test_the_cards_menu_in_three_languages(
    api: FakeBotAPI, tmp_path: Path, code: str, prompt: str, labels: list[str], done: str
) -> None:
    user = api.user("Li", language_code=code, started=True)
    async with bot_with_stickers(api, tmp_path / "uno.sqlite3") as tg:
        menu = await command(tg, user, "/cards")
        assert menu.text.splitlines()[0] == prompt and menu.labels() == labels
        await user.click(menu, labels[1])
        await tg.until(lambda: done in menu.text)
        assert menu.labels() == [labels[0].removeprefix("✓ "), "✓ " + labels[1]]
        assert await tg.service.user_cards(user.pid) == "text"
        # the command's description, where Telegram lists the commands
        english = {c["command"]: c["description"] for c in api.commands[None]}
        chinese = {c["command"]: c["description"] for c in api.commands["zh"]}
        assert english["cards"] == "your cards as stickers or as text"
        assert chinese["cards"] == "牌以贴纸或文字显示"


async def test_cards_in_a_group_answers_privately(api: FakeBotAPI, tmp_path: Path) -> None:
    """The choice is one's own: ``/cards`` in a group opens its menu in the private chat,
    or, for someone who never opened it, a button there that does."""
    g = api.group()
    alice, carol = api.user("Alice", started=True), api.user("Carol")
    async with bot_with_stickers(api, tmp_path / "uno.sqlite3") as tg:
        menu = await command(tg, alice, "/cards", chat=g)
        assert "🔤 Text" in menu.labels()
        done = await command(tg, alice, "/cards text", chat=g)
        assert done.text == "Your cards are shown as text."
        assert await tg.service.user_cards(alice.pid) == "text"
        assert api.bot_messages(g) == []  # nothing of it in the group
        # Carol has no private chat with the bot yet: a link to it, which opens the menu
        await carol.send(g, "/cards")
        link = await tg.until(lambda: api.bot_messages(g))
        url = link[-1].buttons()[0]["url"]
        assert url == f"https://t.me/{api.username}?start={Link.CARDS}"
        menu = await command(tg, carol, f"/start {Link.CARDS}")
        assert menu.labels() == ["✓ 🖼 Stickers", "🔤 Text"]


async def test_a_forged_cards_button_changes_nothing(api: FakeBotAPI, tmp_path: Path) -> None:
    """A press whose data names another user's private chat is refused; their setting
    stays as it was."""
    alice, bob = api.user("Alice", started=True), api.user("Bob", started=True)
    async with bot_with_stickers(api, tmp_path / "uno.sqlite3") as tg:
        menu = await command(tg, alice, "/cards")
        answer = await alice.click(menu, data=f"C:{bob.id}:t")
        assert answer.text == "This button is not valid."
        assert await tg.service.user_cards(bob.pid) is None
        assert await tg.service.user_cards(alice.pid) is None
        # an unknown word shows the menu, choosing nothing
        again = await command(tg, alice, "/cards purple")
        assert "🔤 Text" in again.labels()
        assert await tg.service.user_cards(alice.pid) is None


async def test_without_stickers_the_menu_says_the_cards_are_text(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    alice = api.user("Alice", started=True)
    tg = Harness(api, tmp_path / "uno.sqlite3")  # no owner: no sticker set
    await tg.start()
    try:
        menu = await command(tg, alice, "/cards")
        assert "This bot has no card stickers yet" in menu.text
        assert menu.labels() == ["✓ 🖼 Stickers", "🔤 Text"]
    finally:
        await tg.stop()
