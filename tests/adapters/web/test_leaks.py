"""No hand leaks from the web table (issue 21): a fuzzed run of many games with players'
and spectators' pages (plain aiohttp WebSocket clients, in three languages, some players
with two pages), random presses (the moves offered, other players' and stale ones, forged
and garbled text, another table's intents, a spectator replaying a player's), and EVERY
frame each page got recorded. Then, for every frame to every page:

- a hand frame with cards is its owner's (a spectator's carry none);
- no other frame shows a player's hand as it was then: neither the words of a hand (its
  lines by colour, the list a look at a hand shows) nor its codes, of any player but the
  page's own; except the one sanctioned look: the challenger of a +4 is told the
  challenged hand (``info.revealed``), on that challenger's pages only;
- the public table frame of a version is the same for every page of that language.

The check itself is shown to catch a leak (a hand frame sent to another page). Short in
``make test``; deep (more games, more presses) with ``-m soak``.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections import defaultdict
from typing import Any

import pytest

from adapters.web.app import Bucket
from bot.ui.i18n import translator
from bot.ui.intents import Act, Press, decode
from bot.ui.render.hands import _hand_lines
from bot.ui.render.notices import _hand_param
from engine import Card, Challenge
from tests.adapters.web.conftest import Page, WebWorld, game

LIMIT = 200  # adapters.web.frames.WEB_LIMIT
LANGS = ("en", "zh_Hans", "zh_Hant")


class Recorded:
    """Every page of the run, who it is, and what the hands were (from the owners'
    own hand frames: what the server held to be each hand at each version)."""

    def __init__(self) -> None:
        self.pages: list[tuple[Page, str, str | None, str]] = []  # page, table, player, lang
        self.hands: dict[tuple[str, int], dict[str, tuple[str, ...]]] = defaultdict(dict)

    def add(self, page: Page, key: str, player: str | None, lang: str) -> Page:
        self.pages.append((page, key, player, lang))
        return page

    def learn(self) -> None:
        for page, key, player, _ in self.pages:
            for f in page.of("hand"):
                if player is not None and f.get("player") == player and "cards" in f:
                    codes = tuple(c["code"] for c in f["cards"])
                    self.hands[(key, f["version"])][player] = codes

    def signatures(self, codes: tuple[str, ...], lang: str) -> list[str]:
        """How a hand would read if it leaked: its words (as the hand and a look at a hand
        show them) and its codes."""
        tr = translator(lang)
        cards = [Card.parse(c) for c in codes]
        return [
            "\n".join(_hand_lines(cards, tr)),
            _hand_param(codes, tr),
            json.dumps(sorted(codes)),
            " ".join(sorted(codes)),
        ]

    def problems(self) -> list[str]:
        """Every leak found (empty: none)."""
        self.learn()
        out: list[str] = []
        by_table: dict[str, dict[int, dict[str, tuple[str, ...]]]] = defaultdict(dict)
        for (key, version), hands in self.hands.items():
            by_table[key][version] = hands
        public: dict[tuple[str, int, str], str] = {}
        looks: dict[tuple[str, str], set[str | None]] = defaultdict(set)
        for page, key, player, lang in self.pages:
            for f in page.frames:
                kind = f.get("type")
                if kind == "hand":
                    if "cards" in f and (player is None or f.get("player") != player):
                        out.append(f"{key}: {player}'s page got {f.get('player')}'s hand")
                    continue
                if kind == "table":
                    same = json.dumps({k: v for k, v in f.items() if k != "now"}, sort_keys=True)
                    seen = public.setdefault((key, f["version"], lang), same)
                    if seen != same:
                        out.append(f"{key} v{f['version']}: {player}'s table frame differs")
                text = json.dumps(f, ensure_ascii=False)
                raw = json.dumps(f)
                if kind == "notice" and f.get("code") == "info.revealed":
                    looks[(key, f["text"])].add(player)
                    if player is None or f.get("kind") != "private":
                        out.append(f"{key}: a look at a hand reached {player}: {f}")
                    continue  # the sanctioned look (checked: one player's pages only)
                versions = by_table[key]
                which = [f["version"]] if "version" in f else list(versions)
                for v in which:
                    for owner, codes in versions.get(v, {}).items():
                        if owner == player or len(codes) < 2:
                            continue
                        for sig in self.signatures(codes, lang):
                            if sig in text or sig in raw:
                                out.append(f"{key} v{v}: {owner}'s hand in a {kind} frame "
                                           f"to {player}: {sig!r}")  # fmt: skip
        for (key, _), players in looks.items():
            if len(players) != 1:
                out.append(f"{key}: one look at a hand reached {players}")
        return out


def _intents(page: Page) -> list[str]:
    """Every intent the page was ever offered (its hand's, its table's), newest last."""
    found: list[str] = []
    for f in page.frames:
        if f.get("type") == "hand":
            found += [p["intent"] for p in f.get("plays", ())]
            found += [c["intent"] for row in f.get("moves", ()) for c in row["controls"]]
        elif f.get("type") == "table":
            found += [c["intent"] for row in f.get("controls", ()) for c in row["controls"]]
    return found


def _latest(page: Page, version: int) -> tuple[list[str], list[str]]:
    """The plays and the other moves of the page's newest hand frame at ``version`` or
    later."""
    for f in reversed(page.of("hand")):
        if f.get("version", 0) >= version and "cards" in f:
            return [p["intent"] for p in f["plays"]], [
                c["intent"] for row in f["moves"] for c in row["controls"]
            ]
    return [], []


def _forge(rng: random.Random, intents: list[str]) -> str:
    choices = [
        "",
        "x" * 300,
        "a:AAAAAAAAAAAAAAAA:1:p:R5",
        "\u0000\u202e",
        "uno:play:1:2:R5",
    ]
    if intents:
        base = rng.choice(intents)
        i = rng.randrange(len(base))
        choices += [base[:i] + chr(rng.randrange(33, 126)) + base[i + 1 :], base[::-1], base + ":"]
    return rng.choice(choices)


@pytest.fixture(autouse=True)
def _no_rate_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Presses as fast as the run makes them (the rate limit is test_socket's)."""
    monkeypatch.setattr(Bucket.__init__, "__defaults__", (1000.0, 1000.0))


async def fuzz(world: WebWorld, rng: random.Random, tables: int, presses: int) -> Recorded:
    rec = Recorded()
    keys: list[str] = []
    seats: dict[str, list[str]] = {}
    for n in range(tables):
        key = f"dc:{500 + n}"
        people = await game(world.service, key=key, players=rng.choice((2, 3, 4)),
                            hand_size=rng.choice((3, 4, 5)), target=0)  # fmt: skip
        keys.append(key)
        seats[key] = people
        for p in people:
            for _ in range(rng.choice((1, 1, 2))):  # some players have two pages open
                lang = rng.choice(LANGS)
                page = await world.open({"link": await _link(world, key, p), "lang": lang})
                await page.until(lambda pg=page: pg.of("table"))
                rec.add(page, key, p, page.of("welcome")[0]["lang"] if page.of("welcome")
                        else lang)  # fmt: skip
        for lang in LANGS[: rng.choice((1, 2, 3))]:
            page = await world.open({"table": world.links.table_token(key), "lang": lang})
            await page.until(lambda pg=page: pg.of("table"))
            rec.add(page, key, None, lang)
    for _ in range(presses):
        page, key, _, _ = rng.choice(rec.pages)
        info = await world.service.table(key)
        if info is None or info.status != "playing" or info.view is None:
            continue
        roll = rng.random()
        page = await _press(world, rec, rng, page, key, info, roll)
        if page is not None:  # its answer (a refusal, the next version) before the next
            count = len(page.frames)
            with contextlib.suppress(AssertionError):
                await page.until(lambda pg=page, n=count: len(pg.frames) > n, 0.1)
    for k in keys:  # let every page catch up with its table
        info = await world.service.table(k)
        assert info is not None
        for page, key, _, _ in rec.pages:
            if key == k:
                await page.version(info.version)
    return rec


async def _press(world: WebWorld, rec: Recorded, rng: random.Random, page: Page, key: str,
                 info: Any, roll: float) -> Page | None:  # fmt: skip
    """One random press; the page that pressed (``None``: none did)."""
    if roll < 0.7:  # the player whose turn it is moves (from one of their pages)
        current = info.view.current
        mine = [p for p, k, pl, _ in rec.pages if k == key and pl == current]
        if not mine:
            return None
        page = rng.choice(mine)
        try:
            await page.until(lambda pg=page, v=info.version: any(_latest(pg, v)), 2.0)
        except AssertionError:
            return None
        plays, moves = _latest(page, info.version)
        # mostly a card when one can be played (a person would): the games end
        await page.press(rng.choice(plays if plays and rng.random() < 0.9 else plays + moves))
    elif roll < 0.8:  # anything this page was offered, now or before (stale)
        offered = _intents(page)
        if not offered:
            return None
        await page.press(rng.choice(offered))
    elif roll < 0.87:  # another page's intent: a spectator's theft, another table's
        other, *_ = rng.choice(rec.pages)
        offered = _intents(other)
        if not offered:
            return None
        await page.press(rng.choice(offered))
    elif roll < 0.96:  # forged
        await page.press(_forge(rng, _intents(page)))
    else:  # garbage
        await page.ws.send_str(rng.choice(["{", "[]", '{"type":"press"}', "null", "7"]))
    return page


async def _link(world: WebWorld, key: str, player: str) -> str:
    info = await world.service.table(key)
    assert info is not None
    return world.links.player_token(key, player, info.created)


async def test_no_hand_leaks_in_a_fuzzed_run(world: WebWorld) -> None:
    rec = await fuzz(world, random.Random(21), tables=4, presses=250)
    assert rec.problems() == []
    # not vacuous: games moved, hands were seen, some games ended
    assert sum(len(p.frames) for p, *_ in rec.pages) > 300
    assert len(rec.hands) > 40
    ended = []
    for k in {k for _, k, _, _ in rec.pages}:
        i = await world.service.table(k)
        if i is not None and i.status != "playing":
            ended.append(k)
    assert ended, "no game ended"


@pytest.mark.soak
async def test_no_hand_leaks_in_a_deep_fuzzed_run(world: WebWorld) -> None:
    # (some 50 pages: the client session holds 100 connections at most)
    rec = await fuzz(world, random.Random(100), tables=10, presses=4000)
    assert rec.problems() == []


async def test_the_check_catches_a_leak(world: WebWorld) -> None:
    """A hand frame sent to another player's page, and a hand's words in a notice to a
    spectator, are both caught."""
    rec = await fuzz(world, random.Random(5), tables=1, presses=10)
    assert rec.problems() == []
    pages = [(p, k, pl) for p, k, pl, _ in rec.pages]
    owner_page, key, owner = next(x for x in pages if x[2] is not None)
    hand = next(f for f in owner_page.of("hand") if "cards" in f)
    thief = next(p for p, k, pl in pages if k == key and pl not in (None, owner))
    thief.frames.append(dict(hand))
    assert any("hand" in line for line in rec.problems())
    thief.frames.pop()
    codes = tuple(c["code"] for c in hand["cards"])
    if len(codes) >= 2:
        spectator = next(p for p, k, pl in pages if k == key and pl is None)
        words = _hand_param(codes, translator("en"))
        spectator.frames.append({"type": "notice", "kind": "news", "text": f"see {words}"})
        assert any("notice frame" in line for line in rec.problems())


async def test_the_challenger_alone_sees_the_challenged_hand(world: WebWorld) -> None:
    """A +4 played from a page and challenged from the next player's page: the challenger's
    pages are shown the hand (``info.revealed``), nobody else's pages, no spectator."""
    found = None
    for n in range(60):  # a table where the player to move holds a Wild Draw Four
        key = f"dc:{900 + n}"
        await game(world.service, key=key, players=3, hand_size=7, target=0)
        info = await world.service.table(key)
        assert info is not None and info.view is not None
        t = await world.store.get_table(key)
        assert t is not None and t.game is not None
        cur = info.view.current
        assert cur is not None
        if any(c.code == "W4" for c in t.game.hand(cur)):
            found = (key, cur)
            break
    assert found is not None, "no Wild Draw Four dealt to a player to move"
    key, cur = found
    rec = Recorded()
    info = await world.service.table(key)
    assert info is not None and info.view is not None
    players = list(info.view.players)
    for p in players:
        rec.add(await world.player(key, p), key, p, "en")
    rec.add(await world.spectator(key), key, None, "en")
    page = {p: pg for pg, _, p, _ in rec.pages if p is not None}
    mover = page[cur]
    hand = await mover.until(lambda: next((h for h in mover.of("hand") if h.get("plays")), None))
    w4 = next(p["intent"] for p in hand["plays"] if p["card"] == "W4")
    await mover.press(w4)
    await mover.version(info.version + 1)
    after = await world.service.table(key)
    assert after is not None and after.view is not None
    if after.view.phase.value == "choosing_color":  # the colour asked apart
        v = after.version
        hand = await mover.until(
            lambda: next((h for h in mover.of("hand") if h["version"] >= v), None)
        )
        await mover.press(hand["moves"][0]["controls"][0]["intent"])
        await mover.version(v + 1)
        after = await world.service.table(key)
        assert after is not None and after.view is not None
    assert after.view.phase.value == "challenge", after.view.phase
    challenger = after.view.current
    assert challenger is not None and challenger != cur
    target = page[challenger]

    def challenge() -> str | None:
        for h in target.of("hand"):
            for row in h.get("moves", ()):
                for c in row["controls"]:
                    p = decode(c["intent"], limit=LIMIT)
                    raw = p.raw if isinstance(p, Press) else None
                    if isinstance(raw, Act) and isinstance(raw.action, Challenge):
                        return str(c["intent"])
        return None

    await target.press(await target.until(challenge))
    await target.until(lambda: any(n.get("code") == "info.revealed" for n in target.of("notice")))
    final = await world.service.table(key)
    assert final is not None
    for pg, *_ in rec.pages:
        await pg.version(final.version)
    look = next(n for n in target.of("notice") if n.get("code") == "info.revealed")
    assert look["kind"] == "private" and "W4" not in look["text"]  # in words
    for pg, _, p, _ in rec.pages:
        if p != challenger:
            assert not [n for n in pg.of("notice") if n.get("code") == "info.revealed"], p
    assert rec.problems() == []
