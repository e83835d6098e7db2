"""Text for people: cards, actions, events, notices, tables, hands, rules, statistics.

Pure functions of their arguments and a :class:`bot.ui.i18n.Translator`: no platform code, no
I/O, no clock. Privacy is decided before anything gets here: events arrive already redacted
for their reader (``engine.redact``) and a table is rendered from the public view, so
nothing in this package ever looks a hand up. Player ids are shown through ``names`` (id ->
display name); an id without a name is shown as it is.

One module per concern; every name is re-exported here, so callers write ``render.X``:

- ``cards``: cards, colours, directions, actions, the table's button labels;
- ``events``: one line per engine event (``event_line``), which events make a line;
- ``notices``: refusals and news (``notice_text``);
- ``flags``: presets, rule flags, their values and help, ``rules_summary``;
- ``table``: the public table message, its seats and recent lines;
- ``hands``: a player's own hand;
- ``stats``: scores, the leaderboard, a player's statistics;
- ``ratings``: a player's ratings (``/rank``) and the ladders (``/top``);
- ``help``: how to play and the commands.
"""

from __future__ import annotations

from bot.ui.render.card_text import (
    BUTTONS,
    COLOR_EMOJI,
    COLOR_NAMES,
    WILD_MARK,
    action_label,
    button_label,
    card_short,
    card_text,
    cards_text,
    color_name,
    color_text,
    direction_text,
)
from bot.ui.render.events import (
    event_line,
    event_lines,
    has_line,
    table_line,
)
from bot.ui.render.flags import (
    FLAG_HELP,
    FLAG_NAMES,
    PRESET_NAMES,
    flag_help,
    flag_menu_values,
    flag_name,
    flag_needs,
    flag_value,
    inactive_note,
    preset_name,
    rules_summary,
    rules_title,
)
from bot.ui.render.hands import (
    hand_text,
)
from bot.ui.render.help import (
    COMMANDS,
    command_help,
    help_text,
)
from bot.ui.render.notices import (
    INFOS,
    INFOS_YOU,
    PLATFORM_REFUSALS,
    REFUSAL_FALLBACK,
    REFUSALS,
    notice_text,
)
from bot.ui.render.ratings import (
    rank_text,
    top_text,
)
from bot.ui.render.stats import (
    leaderboard_text,
    scores_text,
    stats_text,
)
from bot.ui.render.table import (
    recent_lines,
    scores_lines,
    seat_lines,
    table_text,
    vote_line,
)

__all__ = [
    "BUTTONS",
    "COLOR_EMOJI",
    "COLOR_NAMES",
    "COMMANDS",
    "FLAG_HELP",
    "FLAG_NAMES",
    "INFOS",
    "INFOS_YOU",
    "PLATFORM_REFUSALS",
    "PRESET_NAMES",
    "REFUSALS",
    "REFUSAL_FALLBACK",
    "WILD_MARK",
    "action_label",
    "button_label",
    "card_short",
    "card_text",
    "cards_text",
    "color_name",
    "color_text",
    "command_help",
    "direction_text",
    "event_line",
    "event_lines",
    "flag_help",
    "flag_menu_values",
    "flag_name",
    "flag_needs",
    "flag_value",
    "hand_text",
    "has_line",
    "help_text",
    "inactive_note",
    "leaderboard_text",
    "notice_text",
    "preset_name",
    "rank_text",
    "recent_lines",
    "rules_summary",
    "rules_title",
    "scores_lines",
    "scores_text",
    "seat_lines",
    "stats_text",
    "table_line",
    "table_text",
    "top_text",
    "vote_line",
]
