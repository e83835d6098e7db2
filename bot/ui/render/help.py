"""How to play, and the commands."""

from __future__ import annotations

from bot.ui.i18n import N_, Translator

# -- help ------------------------------------------------------------------------------------

COMMANDS: dict[str, str] = {
    "new": N_("open a table in this chat"),
    "join": N_("sit down at the table"),
    "start": N_("deal the cards (host)"),
    "leave": N_("leave the table"),
    "kick": N_("remove a player (host)"),
    "stop": N_("end the game (host)"),
    "hand": N_("see your cards privately"),
    "rules": N_("show this table's rules"),
    "settings": N_("change the rules (host)"),
    "stats": N_("your statistics"),
    "leaderboard": N_("the best players here"),
    "rank": N_("your rating, or a player's"),
    "top": N_("the ladder: the best rated players"),
    "language": N_("choose your language"),
    "addbot": N_("add a bot player (host): smart, expert, basic or random"),
    "help": N_("how to play"),
}


def command_help(command: str, tr: Translator) -> str:
    """A command's one-line description (``setMyCommands``, slash command descriptions)."""
    msg = COMMANDS.get(command)
    return tr.gettext(msg) if msg is not None else ""


def help_text(tr: Translator, platform: str) -> str:
    """How to play and the commands, as written on ``platform`` (``discord``: ``/uno new``,
    ``telegram``: ``/new``, anything else: ``/new`` too)."""
    prefix = "/uno " if platform == "discord" else "/"
    lines = [
        tr.gettext("🎴 UNO — how to play"),
        tr.gettext(
            "Match the top card by colour, number or symbol, or play a wild. Cannot or would "
            "rather not? Draw a card. Down to one card? Call UNO! before someone catches you. "
            "Empty your hand first to win the round; the others' cards are your points."
        ),
        "",
        tr.gettext("Commands:"),
    ]
    for cmd, msg in COMMANDS.items():
        lines.append(f"{prefix}{cmd} — {tr.gettext(msg)}")
    return "\n".join(lines)
