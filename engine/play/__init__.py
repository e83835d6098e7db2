"""The rules in motion: ``new_game``, ``legal_actions``, ``apply``, ``scenario``, ``join``.

One module per rule family (docs/engine.md, "Layout"); this package re-exports the
names the rest of the engine uses, and ``verify``/``can`` (what ``apply`` would refuse,
and whether it accepts, for any action).
"""

from engine.play.base import hand_points
from engine.play.core import apply, can, verify
from engine.play.dealing import join, new_game, new_game_events, scenario, set_rules
from engine.play.listing import legal_actions
from engine.play.matching import draw_four_legal
from engine.play.uno import leaves_one_card
from engine.rules import MAX_SEATS_PER_DECK

__all__ = [
    "MAX_SEATS_PER_DECK",
    "apply",
    "can",
    "draw_four_legal",
    "hand_points",
    "join",
    "leaves_one_card",
    "legal_actions",
    "new_game",
    "new_game_events",
    "scenario",
    "set_rules",
    "verify",
]
