"""Ratings in words: ``/rank`` (a player's ratings) and ``/top`` (the ladders)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.ui.i18n import Translator

if TYPE_CHECKING:
    from bot.ratings import Rating

__all__ = ["ladder_name", "rank_text", "rating_words", "top_text"]


def rating_words(r: Rating, tr: Translator) -> str:
    """The rating as a whole number, "(provisional)" under ``ratings.PROVISIONAL`` games."""
    if r.provisional:
        return tr.gettext("{rating} (provisional)", rating=r.shown)
    return str(r.shown)


def ladder_name(everywhere: bool, season: str | None, tr: Translator) -> str:
    """A ladder: here or everywhere, a season (``2026-12``) or all time (``None``)."""
    if everywhere:
        if season is None:
            return tr.gettext("Everywhere, all time")
        return tr.gettext("Everywhere, season {season}", season=season)
    if season is None:
        return tr.gettext("Here, all time")
    return tr.gettext("Here, season {season}", season=season)


def _who(r: Rating) -> str:
    return f"{r.name} ({r.bot})" if r.bot else r.name


def rank_text(
    name: str,
    ladders: Sequence[tuple[bool, str | None, Rating | None]],
    tr: Translator,
) -> str:
    """One player's ratings (``Service.rank``): ``ladders`` as ``(everywhere, season or
    None for all time, their rating there or None)``. ``name``: theirs, if no rating
    names them."""
    found = [(ev, season, r) for ev, season, r in ladders if r is not None]
    if not found:
        return tr.gettext("{player} has no rating yet: finish a game first.", player=name)
    lines = [tr.gettext("🏅 {player}", player=_who(found[0][2]))]
    for everywhere, season, r in found:
        lines.append(
            tr.gettext(
                "{ladder}: {rating} · {games} · {wins} · average place {place}",
                ladder=ladder_name(everywhere, season, tr),
                rating=rating_words(r, tr),
                games=tr.ngettext("{n} game", "{n} games", r.games),
                wins=tr.ngettext("{n} win", "{n} wins", r.wins),
                place=f"{r.average_place:.1f}",
            )
        )
    return "\n".join(lines)


def top_text(ladders: Sequence[tuple[bool, str | None, Sequence[Rating]]], tr: Translator) -> str:
    """The ladders (``Service.top``): ``(everywhere, season or None for all time, the best
    rated, best first)``, one after the other."""
    out: list[str] = []
    for everywhere, season, lines in ladders:
        if out:
            out.append("")
        label = ladder_name(everywhere, season, tr)
        out.append(tr.gettext("🏆 Ladder: {ladder}", ladder=label))
        if not lines:
            out.append(tr.gettext("No rated games yet."))
        for i, r in enumerate(lines, 1):
            out.append(
                tr.gettext(
                    "{rank}. {player}: {rating}, {games}",
                    rank=i,
                    player=_who(r),
                    rating=rating_words(r, tr),
                    games=tr.ngettext("{n} game", "{n} games", r.games),
                )
            )
    return "\n".join(out)
