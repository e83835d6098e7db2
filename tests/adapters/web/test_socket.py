"""Pages over plain WebSockets (no browser): who a page is, what it is sent, what it may do,
and what it is refused (issue 21)."""

from __future__ import annotations

import logging
import time

import aiohttp
import pytest

from adapters.web import app as web_app
from adapters.web.frames import web_token
from adapters.web.strings import PAGE
from bot.ui import render
from bot.ui.i18n import translator
from bot.ui.intents import Act, Kick, encode
from bot.weblinks import Links
from engine import Draw, Pass
from tests.adapters.web.conftest import BOT_TOKEN, SECRET, WebWorld, game, init_data


def _act_intents(frame: dict) -> list[str]:
    out = [p["intent"] for p in frame.get("plays", [])]
    for row in frame.get("moves", []):
        out += [c["intent"] for c in row["controls"]]
    return out


async def test_a_player_sees_their_hand_and_plays_from_the_page(world: WebWorld) -> None:
    p1, p2 = await game(world.service, players=2)
    info = await world.service.table("dc:100")
    assert info is not None and info.view is not None
    current = info.view.current
    assert current in (p1, p2)
    page = await world.player("dc:100", current)
    hand = await page.until(lambda: page.last("hand"))
    assert hand["player"] == current
    view = await world.service.hand("dc:100", current)
    assert view is not None and view.hand is not None
    assert sorted(c["code"] for c in hand["cards"]) == sorted(c.code for c in view.hand)
    # a move from the page goes through the service, and the chat shows it too
    before = info.version
    chat_tables = len(world.chat.of("table"))
    await page.press(_act_intents(hand)[0])
    frame = await page.version(before + 1)
    assert frame["version"] > before
    assert len(world.chat.of("table")) > chat_tables


async def test_a_move_in_the_chat_reaches_the_page(world: WebWorld) -> None:
    _p1, _p2 = await game(world.service, players=2)
    watcher = await world.spectator("dc:100")
    info = await world.service.table("dc:100")
    assert info is not None and info.view is not None
    current = info.view.current
    assert current is not None
    r = await world.service.act("dc:100", current, Draw(), seen_version=info.version)
    assert r.ok
    frame = await watcher.version(info.version + 1)
    assert frame["status"] == "playing"
    assert not watcher.of("hand") or all("cards" not in h for h in watcher.of("hand"))


async def test_a_spectator_sees_no_hand_and_may_not_act(world: WebWorld) -> None:
    await game(world.service, players=2)
    watcher = await world.spectator("dc:100")
    info = await world.service.table("dc:100")
    assert info is not None
    welcome = watcher.last("welcome")
    assert welcome is not None and welcome["me"] is None
    assert watcher.of("hand") == []
    assert watcher.last("table")["controls"] is not None
    intent = encode(Act(Draw(), info.version), web_token("dc:100"), limit=200)
    await watcher.press(intent)
    refusal = await watcher.until(lambda: watcher.last("notice"))
    assert refusal["code"] == "spectator"
    after = await world.service.table("dc:100")
    assert after is not None and after.version == info.version


async def test_a_refusal_is_shown_on_that_page_only(world: WebWorld) -> None:
    p1, p2 = await game(world.service, players=2)
    info = await world.service.table("dc:100")
    assert info is not None and info.view is not None
    waiting = p2 if info.view.current == p1 else p1
    page = await world.player("dc:100", waiting)
    other = await world.player("dc:100", waiting)  # the same player on a second page
    watcher = await world.spectator("dc:100")
    await page.press(encode(Act(Draw(), info.version), web_token("dc:100"), limit=200))
    told = await page.until(lambda: page.last("notice"))
    assert told["code"] == "not_your_turn"
    assert told["text"]  # in words, translated
    await page.press("a:" + web_token("dc:100") + ":1:zz")  # garbage
    await page.until(lambda: len(page.of("notice")) >= 2)
    assert page.of("notice")[-1]["code"] == "forged"
    await page.press(encode(Act(Draw(), info.version), web_token("dc:999"), limit=200))
    await page.until(lambda: len(page.of("notice")) >= 3)
    assert page.of("notice")[-1]["code"] == "other_table"
    assert other.of("notice") == [] and watcher.of("notice") == []
    assert world.chat.of("tell") == []  # nothing of it in the chat
    after = await world.service.table("dc:100")
    assert after is not None and after.version == info.version


async def test_a_hand_reaches_its_owner_only(world: WebWorld) -> None:
    p1, p2, p3 = await game(world.service, players=3)
    pages = {p: await world.player("dc:100", p) for p in (p1, p2, p3)}
    watcher = await world.spectator("dc:100")
    for _ in range(12):  # the players draw in turn: every version reaches every page
        info = await world.service.table("dc:100")
        assert info is not None and info.view is not None
        if info.status != "playing" or info.view.current is None:
            break
        await world.service.act("dc:100", info.view.current, Draw(),
                                seen_version=info.version)  # fmt: skip
    info = await world.service.table("dc:100")
    assert info is not None
    for page in (*pages.values(), watcher):
        await page.version(info.version)
    for player, page in pages.items():
        for f in page.frames:
            if f["type"] == "hand" and "cards" in f:
                assert f["player"] == player
    assert all("cards" not in f for f in watcher.of("hand"))
    assert all("hand" not in f for p in (*pages.values(), watcher) for f in p.of("table"))


async def test_a_discord_link_of_an_ended_game_or_expired_or_tampered_is_refused(
    world: WebWorld,
) -> None:
    p1, _p2 = await game(world.service, players=2)
    info = await world.service.table("dc:100")
    assert info is not None
    good = world.links.player_token("dc:100", p1, info.created)
    # another secret's token, a token edited to name someone else, an expired one
    forged = Links("another-secret-entirely-here").player_token("dc:100", p1, info.created)
    edited = world.links.player_token("dc:100", "dc:2", info.created)
    edited = edited[:-22] + good[-22:]
    past = Links(SECRET, clock=lambda: time.time() - 5 * 3600)
    old = past.player_token("dc:100", p1, info.created)
    for token, code in ((forged, "bad_link"), (edited, "bad_link"), (old, "expired")):
        page = await world.open({"link": token})
        gone = await page.until(lambda page=page: page.last("gone"))
        assert gone["code"] == code
        assert page.of("table") == [] and page.of("hand") == []
    # the game ends: its links are dead
    assert (await world.service.stop_game("dc:100", p1)).ok
    page = await world.open({"link": good})
    gone = await page.until(lambda: page.last("gone"))
    assert gone["code"] == "expired"


async def test_telegram_init_data_is_checked(world: WebWorld) -> None:
    await game(world.service, key="tg:-100", players=2)
    table = world.links.table_token("tg:-100")
    ok = await world.open({"initData": init_data(1, start=table)})
    welcome = await ok.until(lambda: ok.last("welcome"))
    assert welcome["me"] == "tg:1" and welcome["name"] == "Ann"
    await ok.until(lambda: ok.last("hand") and "cards" in ok.last("hand"))
    good = init_data(2, start=table)
    tampered = good.replace("Ann", "Bob")
    other_bot = init_data(2, start=table, token="999:another-bot")
    old = init_data(2, start=table, auth_date=time.time() - 2 * 3600)
    ahead = init_data(2, start=table, auth_date=time.time() + 3600)
    other_table = init_data(2, start=Links("another-secret-entirely-here").table_token("tg:-100"))
    for data, code in (
        (tampered, "bad_login"),
        (other_bot, "bad_login"),
        (old, "old_login"),
        (ahead, "bad_login"),
        (other_table, "bad_link"),
        (good + "&x=1", "bad_login"),
    ):
        page = await world.open({"initData": data})
        gone = await page.until(lambda page=page: page.last("gone"))
        assert gone["code"] == code, data
        assert page.of("table") == []


async def test_a_table_token_is_the_table_it_names(world: WebWorld) -> None:
    await game(world.service, key="dc:100", players=2)
    await game(world.service, key="dc:200", players=2)
    page = await world.spectator("dc:200")
    assert page.last("table")["seats"][0]["id"] == "dc:1"
    # a table token cannot be turned into another's
    token = world.links.table_token("dc:100")
    forged = Links("not-the-secret-of-this-bot").table_token("dc:200")
    bad = await world.open({"table": token[:-22] + forged[-22:]})
    gone = await bad.until(lambda: bad.last("gone"))
    assert gone["code"] == "bad_link"


async def test_another_origin_is_refused(world: WebWorld) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as e:
        await world.open({"table": "x"}, origin="https://evil.example")
    assert e.value.status == 403


async def test_a_flood_is_refused_then_closed(world: WebWorld) -> None:
    p1, p2 = await game(world.service, players=2)
    info = await world.service.table("dc:100")
    assert info is not None and info.view is not None
    waiting = p2 if info.view.current == p1 else p1
    page = await world.player("dc:100", waiting)
    calls = 0
    act = world.service.act  # where a move's press goes (``bot.ui.press``)

    async def counted(*a, **kw):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return await act(*a, **kw)

    world.service.act = counted  # type: ignore[method-assign]
    intent = encode(Act(Draw(), info.version), web_token("dc:100"), limit=200)
    for _ in range(200):
        if page.ws.closed:
            break
        await page.press(intent)
    await page.until(lambda: page.closed_code is not None)
    assert page.closed_code == 1008
    assert any(n["code"] == "too_fast" for n in page.of("notice"))
    assert calls <= web_app.BURST + 3  # the rest never reached the service


async def test_the_page_is_served_with_its_policy_and_the_cards_cached(world: WebWorld) -> None:
    s = world.session
    async with s.get(f"{world.origin}/") as r:
        html = await r.text()
        csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self';" in csp and "telegram.org" not in csp
    assert "<script>" not in html and "telegram.org" not in html
    async with s.get(f"{world.origin}/tg/") as r:
        html = await r.text()
        csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self' https://telegram.org/js/telegram-web-app.js;" in csp
    assert 'src="https://telegram.org/js/telegram-web-app.js"' in html
    for path in ("/static/app.js", "/tg/static/render.js", "/static/style.css"):
        async with s.get(world.origin + path) as r:
            assert r.status == 200, path
    async with s.get(f"{world.origin}/cards/1/r5.png") as r:
        assert r.status == 200 and r.content_type == "image/png"
        assert "immutable" in r.headers["Cache-Control"]
        assert (await r.read())[:4] == b"\x89PNG"
    async with s.get(f"{world.origin}/cards/1/w4b-d.png") as r:
        assert r.status == 200
    for bad in ("/cards/9/r5.png", "/cards/1/zz.png", "/static/../app.py", "/static/x.js"):
        async with s.get(world.origin + bad) as r:
            assert r.status == 404, bad


async def test_tokens_and_init_data_are_never_logged(
    world: WebWorld, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    _p1, _ = await game(world.service, key="tg:-100", players=2)
    table = world.links.table_token("tg:-100")
    data = init_data(1, start=table)
    page = await world.open({"initData": data})
    welcome = await page.until(lambda: page.last("welcome"))
    bad = await world.open({"initData": data.replace("Ann", "Eve")})
    await bad.until(lambda: bad.last("gone"))
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "opened at tg:-100" in text  # the log says what happened...
    for secret in (table, welcome["token"], data, "hash=", SECRET, BOT_TOKEN):
        assert secret not in text  # ...never with what proves it


async def test_the_vote_and_play_for_me_from_the_page(world: WebWorld) -> None:
    """Issue 22 on the web table: the table's vote to end the game and the hand's "Play for
    me" / "Take my seat back" are drawn from the UI kit's controls and go through the
    service (``bot.ui.press``)."""
    p1, p2, p3 = await game(world.service, players=3, turn_seconds=3600)
    page = await world.player("dc:100", p2)
    table = await page.until(lambda: page.last("table"))
    votes = [c for row in table["controls"] for c in row["controls"]
             if c["label"].startswith("End the game")]  # fmt: skip
    assert len(votes) == 1
    before = table["version"]
    await page.press(votes[0]["intent"])
    opened = await page.version(before + 1)
    counted = [c["label"] for row in opened["controls"] for c in row["controls"]
               if c["label"].startswith("End the game")]  # fmt: skip
    assert counted == ["End the game (1/2)"]
    info = await world.service.table("dc:100")
    assert info is not None and info.vote is not None and info.vote.voters == (p2,)
    # "Play for me" from the hand: the autopilot plays the seat, the hand offers it back
    hand = await page.until(lambda: page.last("hand"))
    pilot = [c for row in hand["moves"] for c in row["controls"]
             if c["label"].endswith("Play for me")]  # fmt: skip
    assert len(pilot) == 1
    await page.press(pilot[0]["intent"])

    def taken_back() -> list[dict]:
        h = page.last("hand")
        return [c for row in (h or {}).get("moves", []) for c in row["controls"]
                if "Take my seat back" in c["label"]]  # fmt: skip

    back = await page.until(taken_back)
    info = await world.service.table("dc:100")
    assert info is not None and p2 in info.autopilot
    await page.press(back[0]["intent"])
    await page.until(lambda: not taken_back())
    info = await world.service.table("dc:100")
    assert info is not None and p2 not in info.autopilot
    # a second voter of the three present ends the game: stopped, recorded abandoned
    other = await world.player("dc:100", p3)
    table = await other.until(lambda: other.last("table"))
    vote = next(c for row in table["controls"] for c in row["controls"]
                if c["label"].startswith("End the game"))  # fmt: skip
    await other.press(vote["intent"])
    ended = await other.until(lambda: (other.last("table") or {}).get("status") == "stopped")
    assert ended
    [result] = await world.service.store.game_results()
    assert result.outcome == "abandoned" and {e.player for e in result.entrants} == {p1, p2, p3}


async def test_the_hosts_kick_menu_and_nobody_elses(world: WebWorld) -> None:
    """The host's page offers whom to remove (``bot.ui.controls.kick_menu``) in the lobby and
    removes the one chosen; a player who is not the host is refused the menu and the kick,
    a watcher too; once the round is dealt the page offers no kick menu."""
    key = "dc:100"
    host, p2, p3 = "dc:1", "dc:2", "dc:3"
    assert (await world.service.create(key, key, host, "P1")).ok
    for p, name in ((p2, "P2"), (p3, "P3")):
        assert (await world.service.join(key, p, name)).ok
    host_page = await world.player(key, host)
    other = await world.player(key, p2)
    watcher = await world.spectator(key)
    table = await host_page.until(lambda: host_page.last("table"))
    opener = table["kick"]
    assert opener == (await other.until(lambda: other.last("table")))["kick"]
    # not the host: refused, no menu
    await other.press(opener)
    refused = await other.until(lambda: other.last("notice"))
    assert refused["code"] == "not_host" and refused["kind"] == "refusal"
    assert refused["text"] == "Only the host can do that."
    assert not other.of("kick")
    await watcher.press(opener)
    assert (await watcher.until(lambda: watcher.last("notice")))["code"] == "spectator"
    assert not watcher.of("kick")
    # a kick sent anyway by someone else: the service refuses it, nobody leaves
    version = (await world.service.table(key)).version  # type: ignore[union-attr]
    forged = encode(Kick(p3), web_token(key), limit=200)
    await other.press(forged)
    await other.until(lambda: len(other.of("notice")) == 2)
    assert other.of("notice")[-1]["code"] == "not_host"
    info = await world.service.table(key)
    assert info is not None and info.version == version and p3 in [s.id for s in info.seats]
    # the host: everyone else, one to choose
    await host_page.press(opener)
    menu = await host_page.until(lambda: host_page.last("kick"))
    choices = [c for row in menu["rows"] for c in row["controls"]]
    assert [c["label"] for c in choices] == ["P2", "P3"]
    assert menu["rows"][0]["title"] == "Choose who leaves the table"
    await host_page.press(choices[1]["intent"])
    frame = await host_page.version(version + 1)
    assert [s["id"] for s in frame["seats"]] == [host, p2]
    info = await world.service.table(key)
    assert info is not None and [s.id for s in info.seats] == [host, p2]
    # dealt: no kick menu on the page
    assert (await world.service.start_game(key, host)).ok
    dealt = await host_page.until(
        lambda: next((f for f in host_page.of("table") if f["status"] == "playing"), None)
    )
    assert "kick" not in dealt


async def test_a_players_page_is_in_their_own_language_over_the_tables(world: WebWorld) -> None:
    """The table's chat speaks Simplified Chinese; each page follows its reader: their saved
    language first, then Telegram's ``language_code``, then the browser's, then the table's."""
    tr = translator
    key = "tg:-100"
    await game(world.service, key=key, players=3)
    assert (await world.service.set_chat_language(key, key, "zh_Hans")).ok
    info = await world.service.table(key)
    assert info is not None and info.lang == "zh_Hans"
    await world.service.set_user_language("tg:2", "en")
    table = world.links.table_token(key)
    cases = [
        # Telegram's language_code over the browser's and the table's
        ({"initData": init_data(1, start=table, lang="zh-hant"), "lang": "en-US"}, "zh_Hant"),
        # the saved language over Telegram's
        ({"initData": init_data(2, name="Bob", start=table, lang="zh-hant")}, "en"),
        # nothing of their own: the table's
        ({"initData": init_data(3, name="Cy", start=table, lang="xx")}, "zh_Hans"),
        # a watcher: the browser's, else the table's
        ({"table": table, "lang": "zh-TW"}, "zh_Hant"),
        ({"table": table}, "zh_Hans"),
    ]
    for hello, lang in cases:
        page = await world.open(hello)
        welcome = await page.until(lambda page=page: page.last("welcome"))
        assert welcome["lang"] == lang, hello
        assert welcome["strings"]["watching"] == tr(lang).gettext(PAGE["watching"])
        frame = await page.until(lambda page=page: page.last("table"))
        assert frame["lang"] == lang
        assert frame["text"] == render.table_text(info, tr(lang))
    # the three languages really differ, so the checks above could fail
    assert len({tr(lang).gettext(PAGE["watching"]) for lang in ("en", "zh_Hans", "zh_Hant")}) == 3


async def test_the_countdown_follows_each_rearmed_window(world: WebWorld) -> None:
    """Every table frame carries the turn's deadline as committed: a move re-arms the turn's
    window, and the next frame has the new deadline (the page's clock restarts from it)."""
    key = "dc:100"
    await game(world.service, key=key, players=2)
    watcher = await world.spectator(key)
    seen = []
    for _ in range(3):
        info = await world.service.table(key)
        assert info is not None and info.view is not None and info.deadline is not None
        frame = await watcher.version(info.version)
        assert frame["deadline"] == info.deadline
        assert 0 < frame["deadline"] - frame["now"] <= info.rules.turn_seconds + 1
        seen.append(frame["deadline"])
        current = info.view.current
        assert current is not None
        legal = await world.service.legal(key, current)
        move = next(a for a in legal if isinstance(a, (Draw, Pass)))
        assert (await world.service.act(key, current, move, seen_version=info.version)).ok
    assert seen == sorted(seen) and len(set(seen)) == 3
