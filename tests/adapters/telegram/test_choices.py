"""Second choices: the colour after a wild, the target of a swap, several cards at once."""

from __future__ import annotations

from adapters.telegram import widgets
from bot.ui.i18n import translator
from engine import Card, Phase, Play, Rules
from tests.adapters.telegram.conftest import (
    Harness,
    assert_no_hand_in_group,
    key,
    moved,
    scenario_table,
)

EN = translator("en")


async def test_a_wild_start_card_asks_for_a_colour(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    await scenario_table(tg, g, {alice: ["R1", "B2"], bob: ["G3", "Y4"]}, "W")
    info = await tg.info(g)
    assert info.view is not None and info.view.phase is Phase.CHOOSING_COLOR
    # the colours as inline results for the chooser, and nothing to choose for Bob
    ans = await alice.inline(str(g.id))
    assert [r.code for r in ans.results if r.code.startswith("k")] == ["kR", "kY", "kG", "kB"]
    assert not any(r.code.startswith("k") for r in (await bob.inline(str(g.id))).results)
    await alice.choose(ans, ans.results[3], g)  # blue
    await tg.until(moved(tg, g, 10))
    await tg.settle()
    table = tg.table_message(g)
    assert "Alice chose 🟦 Blue" in table.text
    view = (await tg.info(g)).view
    assert view is not None and view.color is not None and view.color.value == "B"


async def test_colour_buttons_on_the_table_for_the_chooser_only(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob, carol = api.user("Alice"), api.user("Bob"), api.user("Carol")
    await scenario_table(tg, g, {alice: ["R1", "W"], bob: ["G3"], carol: ["Y4"]}, "R5")
    ans = await alice.inline(str(g.id))
    wild = ans.find(lambda r: r.code == "pW/G")
    assert wild is not None and wild.title == "🌈 Wild → 🟩 Green"
    assert wild.text == widgets.POSTED  # what the group sees Alice post: not the card
    # a wild played without a colour (the private chat's buttons list the colours too):
    # the table shows four colour buttons, for Alice alone
    res = await tg.service.act(key(g), alice.pid, _wild())
    assert res.ok
    await tg.settle()
    table = tg.table_message(g)
    colours = [b for b in table.buttons() if b["text"] in ("🟥", "🟨", "🟩", "🟦")]
    assert len(colours) == 4
    no = await bob.click(table, "🟨")
    assert no.show_alert
    ok = await alice.click(table, "🟨")
    assert not ok.show_alert, ok.text
    await tg.settle()
    assert "Alice chose 🟨 Yellow" in tg.table_message(g).text


def _wild() -> Play:
    return Play(Card.parse("W"))


async def test_a_seven_swaps_with_the_chosen_player(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob, carol = api.user("Alice"), api.user("Bob"), api.user("Carol")
    rules = Rules.preset("party")
    await scenario_table(
        tg,
        g,
        {alice: ["R7", "B2", "B3"], bob: ["G3"], carol: ["Y4", "Y5", "Y6", "Y8"]},
        "R5",
        rules=rules,
    )
    ans = await alice.inline(str(g.id))
    swaps = [r for r in ans.results if r.code.startswith("pR7@")]
    assert {r.title for r in swaps} == {
        "🟥 7 ⇄ swap with Bob",
        "🟥 7 ⇄ swap with Carol",
    }
    to_carol = next(r for r in swaps if "Carol" in r.title)
    await alice.choose(ans, to_carol, g)
    await tg.until(moved(tg, g, 10))
    await tg.settle()
    assert "Alice swaps hands with Carol!" in tg.table_message(g).text
    view = (await tg.info(g)).view
    assert view is not None
    assert view.counts[alice.pid] == 4 and view.counts[carol.pid] == 2
    assert_no_hand_in_group(api, g)


async def test_identical_cards_together_under_house_rules(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    await scenario_table(
        tg,
        g,
        {alice: ["R3", "R3", "B9", "G1"], bob: ["G3", "Y4"]},
        "R5",
        rules=Rules.preset("house"),
    )
    ans = await alice.inline(str(g.id))
    double = ans.find(lambda r: r.code == "pR3+R3")
    assert double is not None and double.title == "🟥 3 + 🟥 3"
    await alice.choose(ans, double, g)
    await tg.until(moved(tg, g, 10))
    view = (await tg.info(g)).view
    assert view is not None and view.counts[alice.pid] == 2
