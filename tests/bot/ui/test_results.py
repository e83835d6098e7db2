"""A round's result is said once, in one wording; medals are for points scored."""

from __future__ import annotations

import pytest

from bot.model import Seat
from bot.port import Notice, TableInfo
from bot.ui import render
from bot.ui.i18n import LANGUAGES, Translator, translator
from engine import Game, GameWon, Phase, Play, RoundWon, Rules, apply, scenario, view

BACKENDS = ("sqlite", "postgresql")

NAMES = {"A": "Alice", "B": "Bob", "C": "Carol"}
TRS = [translator(lang) for lang in LANGUAGES]


def _ids(tr: Translator) -> str:
    return tr.lang


def _info(game: Game) -> TableInfo:
    return TableInfo(
        key="t:1",
        scope="t",
        version=5,
        status="playing",
        host="A",
        seats=tuple(Seat(p, n) for p, n in NAMES.items()),
        waiting=(),
        rules=game.rules,
        preset="official",
        lang=None,
        view=view(game, None),
        meta={},
        game_no=1,
    )


def _round_over() -> tuple[Game, RoundWon]:
    g = scenario(
        {"A": ["R1"], "B": ["Y3", "Y4"], "C": ["G1", "GS"]},
        ["R5"],
        ["B1"] * 9,
        rules=Rules(target=500),
    )
    g, events = apply(g, "A", Play("R1"))
    won = next(e for e in events if isinstance(e, RoundWon))
    assert g.phase is Phase.ROUND_OVER
    return g, won


@pytest.mark.parametrize("tr", TRS, ids=_ids)
def test_the_news_of_a_round_is_worded_as_its_line(tr: Translator) -> None:
    _, won = _round_over()
    line = render.event_line(won, tr, NAMES)
    params = {"player": "A", "name": "Alice", "points": won.points, "round": 1, "reason": "out"}
    news = render.notice_text(Notice("info.round_won", params), tr, NAMES)
    assert news == line
    assert "Alice" in news and str(won.points) in news
    # a notice stored before it carried the round still reads
    old = render.notice_text(Notice("info.round_won", {"player": "A", "points": 9}), tr, NAMES)
    assert "Alice" in old and "9" in old


@pytest.mark.parametrize("tr", TRS, ids=_ids)
def test_the_table_keeps_the_scores_and_leaves_the_result_to_the_news(tr: Translator) -> None:
    g, won = _round_over()
    info = _info(g)
    text = render.table_text(info, tr, render.recent_lines(info, tr))
    assert render.event_line(won, tr, NAMES) not in text
    assert "Alice" in text and str(won.points) in text  # her score, in the scores
    assert tr.gettext("🏁 Scores after round {round}:", round=1) in text
    # a result is no recent line: its notice and the table's heading say it
    assert not render.table_line(won)
    assert not render.table_line(GameWon("A", {"A": 600}))
    assert render.has_line(won)  # still a line where events are read one by one


@pytest.mark.parametrize("tr", TRS, ids=_ids)
def test_no_medal_without_points(tr: Translator) -> None:
    lines = render.scores_text({"A": 162, "B": 0, "C": 0}, tr, NAMES).splitlines()
    assert lines[0].startswith("🥇 ") and "Alice" in lines[0]
    assert not any(m in line for line in lines[1:] for m in ("🥈", "🥉"))
    assert lines[1].startswith("2. ") and lines[2].startswith("3. ")
    both = render.scores_text({"A": 50, "B": 20, "C": 0}, tr, NAMES).splitlines()
    assert [line.split()[0] for line in both] == ["🥇", "🥈", "3."]
    # penalty scoring: the fewest points lead, nothing scored is the best of all
    low = render.scores_text({"A": 0, "B": 20, "C": 40}, tr, NAMES, low_wins=True)
    assert [line.split()[0] for line in low.splitlines()] == ["🥇", "🥈", "🥉"]
