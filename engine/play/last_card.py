"""Going out: which cards may be the last one (``last_card``)."""

from __future__ import annotations

from engine.cards import Rank
from engine.play.base import D2, REV, SKIP, W4, W

# last_card: the ranks a player may not go out on
NOT_LAST: dict[str, frozenset[Rank]] = {
    "any": frozenset(),
    "play_and_draw": frozenset(),
    "number_only": frozenset((SKIP, REV, D2, W, W4)),
    # seed 004: "「Reverse」「Skip」「Wild和Wild Draw 4」不能當最後一張牌使用" (a +2 may)
    "no_skip_reverse_wild": frozenset((SKIP, REV, W, W4)),
}
