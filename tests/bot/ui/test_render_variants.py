"""What the variants of issue 14 show: places, the colour to follow, a colour kept, UNO
called too late, rotating partners' scores, the high card playing first; in every
language."""

from __future__ import annotations

import pytest

from bot.model import Seat
from bot.port import Notice, TableInfo
from bot.store import StatLine
from bot.ui import render
from bot.ui.i18n import LANGUAGES, Translator, translator
from engine import (
    Color,
    ColorChosen,
    Game,
    Play,
    PlayerFinished,
    RoundStarted,
    RoundWon,
    Rules,
    apply,
    new_game_events,
    scenario,
    view,
)

NAMES = {"A": "Alice", "B": "Bob", "C": "Carol", "D": "Dan"}
TRS = [translator(lang) for lang in LANGUAGES]
EN = translator("en")


def _ids(tr: Translator) -> str:
    return tr.lang


def _info(game: Game) -> TableInfo:
    return TableInfo(
        key="t:1",
        scope="t",
        version=5,
        status="playing",
        host="A",
        seats=tuple(Seat(p, NAMES[p]) for p in game.players),
        waiting=(),
        rules=game.rules,
        preset=None,
        lang=None,
        view=view(game, None),
        meta={},
        game_no=1,
    )


@pytest.mark.parametrize("tr", TRS, ids=_ids)
def test_places_show_on_the_table_in_the_news_and_in_the_statistics(tr: Translator) -> None:
    g = scenario(
        {"A": ["R1"], "B": ["R2", "R3"], "C": ["G1", "G2"]},
        ["R5"],
        rules=Rules(places=True, target=0),
    )
    g, _ = apply(g, "A", Play("R1"))
    line = render.event_line(PlayerFinished("A", 1), tr, NAMES)
    assert line is not None and "Alice" in line and "1" in line
    table = render.table_text(_info(g), tr)
    assert tr.gettext("🏅 place {place}", place=1) in table
    params = {"player": "A", "points": 9, "round": 1, "reason": "out", "places": ["A", "C", "B"]}
    news = render.notice_text(Notice("info.round_won", params), tr, NAMES)
    assert tr.gettext("Places: {places}.", places="").rstrip("。.") in news
    assert news.index("Alice") < news.index("Carol") < news.rindex("Bob")
    won = RoundWon("A", 1, 9, "out", {}, {}, ("A", "C", "B"))
    assert render.event_line(won, tr, NAMES) == news
    stats = render.stats_text(StatLine("A", "Alice", 1, 1, 1, 9, 5, 4, 6), tr)
    assert "1.5" in stats
    if tr is not EN:
        assert stats != render.stats_text(StatLine("A", "Alice", 1, 1, 1, 9, 5, 4, 6), EN)


@pytest.mark.parametrize("tr", TRS, ids=_ids)
def test_the_colour_to_follow_and_the_late_call_are_said(tr: Translator) -> None:
    g = scenario(
        {"A": ["RD2", "G1"], "B": ["B3", "B4"], "C": ["GD2", "R7"]},
        ["R5"],
        rules=Rules(after_penalty="same_color"),
    )
    g, _ = apply(g, "A", Play("RD2"))
    follow = tr.gettext(
        "After the +2: the next card must be {color} (or a +4).",
        color=render.color_text(Color.RED, tr),
    )
    assert follow in render.table_text(_info(g), tr)
    assert follow in render.hand_text(view(g, "C"), tr, NAMES)
    g = scenario({"A": ["R1", "R2"], "B": ["B3", "B4"]}, ["R5"], rules=Rules(uno_call="with_play"))
    before = render.hand_text(view(g, "A"), tr, NAMES)
    assert "📢" in before  # the call comes with the play at this table
    g, _ = apply(g, "A", Play("R1"))
    after = render.hand_text(view(g, "A"), tr, NAMES)
    assert tr.gettext("❗ You did not call UNO with your card: too late now.") in after
    assert tr.gettext("❗ One card left: call UNO!") not in after
    refusal = render.notice_text(Notice("uno_too_late"), tr, NAMES)
    assert refusal and refusal != render.REFUSAL_FALLBACK


@pytest.mark.parametrize("tr", TRS, ids=_ids)
def test_a_kept_colour_and_the_high_card_playing_first(tr: Translator) -> None:
    kept = render.event_line(ColorChosen("A", Color.BLUE, kept=True), tr, NAMES)
    picked = render.event_line(ColorChosen("A", Color.BLUE, random=True), tr, NAMES)
    assert kept and kept != picked and "Alice" in kept
    _, ev = new_game_events(["A", "B", "C"], Rules(dealer="high_plays_first"), seed=1)
    started = next(e for e in ev if isinstance(e, RoundStarted))
    assert started.draws_for == "first"
    line = render.event_line(started, tr, NAMES)
    assert line is not None
    assert tr.gettext("Drawing for who plays first: {draws}.", draws="").split("{")[0][:4] in line


def test_rotating_partners_keep_their_own_scores_on_the_table() -> None:
    """partners=rotate: each player's total is their own, so the scores are per player;
    fixed partners show one line per team."""
    hands = {"A": ["R1", "R2"], "B": ["B3"], "C": ["G1"], "D": ["Y1"]}
    for partners, lines in ((True, 2), ("rotate", 4)):
        g = scenario(hands, ["R5"], rules=Rules(partners=partners, target=1000))
        d = g.to_dict()
        d["scores"] = {"A": 10, "B": 20, "C": 30, "D": 40}
        info = _info(Game.from_dict(d))
        text = render.table_text(info, EN)
        assert sum("point" in x and ("1." in x or "🥇" in x or "🥈" in x or "🥉" in x or
                                     "4." in x) for x in text.splitlines()) == lines  # fmt: skip
