"""Scores, the leaderboard and a player's statistics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from bot.ui.i18n import Translator
from bot.ui.render.card_text import _name

if TYPE_CHECKING:
    from bot.store import StatLine


# -- scores and the table ---------------------------------------------------------------------


def scores_text(
    scores: Mapping[str, int],
    tr: Translator,
    names: Mapping[str, str],
    *,
    low_wins: bool = False,
) -> str:
    """One line per player, best first (``low_wins`` for penalty scoring)."""
    return _scores(scores, tr, names, low_wins=low_wins)


def _scores(
    scores: Mapping[str, int],
    tr: Translator,
    names: Mapping[str, str],
    *,
    low_wins: bool = False,
    teams: Mapping[str, int] | None = None,
) -> str:
    """``scores_text``; with ``teams`` (partners) one line per team, since both partners'
    entries hold the team's total."""
    entries: list[tuple[str, int]] = []
    if teams:
        members: dict[int, list[str]] = {}
        for p in scores:
            members.setdefault(teams.get(p, -1 - len(members)), []).append(p)
        for group in members.values():
            label = " & ".join(_name(names, p) for p in group)
            entries.append((label, max(scores[p] for p in group)))
    else:
        entries = [(_name(names, p), points) for p, points in scores.items()]
    entries.sort(key=lambda kv: kv[1] if low_wins else -kv[1])
    lines = []
    for i, (who, points) in enumerate(entries):
        # a medal is for points scored; under penalty scoring few points are the merit
        earned = points > 0 or low_wins
        medal = ("🥇", "🥈", "🥉")[i] if i < 3 and earned else f"{i + 1}."
        lines.append(
            tr.ngettext(
                "{rank} {player}: {n} point", "{rank} {player}: {n} points", points,
                rank=medal, player=who,
            )
        )  # fmt: skip
    return "\n".join(lines)


# -- statistics -------------------------------------------------------------------------------


def leaderboard_text(lines: Sequence[StatLine], tr: Translator) -> str:
    """The best players of a scope, one line each, as the store ranked them."""
    out = [tr.gettext("🏆 Leaderboard")]
    if not lines:
        out.append(tr.gettext("No games finished yet."))
    for i, s in enumerate(lines, 1):
        out.append(
            tr.gettext(
                "{rank}. {player}: {wins}, {games}, {points}",
                rank=i,
                player=s.name,
                wins=tr.ngettext("{n} win", "{n} wins", s.wins),
                games=tr.ngettext("{n} game", "{n} games", s.games),
                points=tr.ngettext("{n} point", "{n} points", s.points),
            )
        )
    return "\n".join(out)


def stats_text(line: StatLine | None, tr: Translator) -> str:
    """One player's statistics."""
    if line is None or not (
        line.games or line.rounds_won or line.cards_played or line.rounds_placed
    ):
        return tr.gettext("No statistics yet: finish a game first.")
    rate = round(100 * line.wins / line.games) if line.games else 0
    lines = [
        tr.gettext("📊 {player}", player=line.name),
        tr.gettext("Games played: {n}", n=line.games),
        tr.gettext("Games won: {n} ({rate}%)", n=line.wins, rate=rate),
        tr.gettext("Rounds won: {n}", n=line.rounds_won),
        tr.gettext("Points: {n}", n=line.points),
        tr.gettext("Cards played: {n}", n=line.cards_played),
    ]
    if line.rounds_placed:  # rounds played out for places (the places rule)
        lines.append(
            tr.ngettext(
                "Average place: {place} (over {n} round played for places)",
                "Average place: {place} (over {n} rounds played for places)",
                line.rounds_placed,
                place=f"{line.places_total / line.rounds_placed:.1f}",
            )
        )
    return "\n".join(lines)
