"""Discord's own texts (the ``discord`` gettext domain); everything else comes from
``bot.ui.render``. Command and option names are translated here too: Discord shows them in
each user's client language (``app_commands.Translator``)."""

from __future__ import annotations

from bot.ui.i18n import N_, Translator

__all__ = [
    "BACK",
    "BAD_BUTTON",
    "CHOOSE_COLOR",
    "CHOOSE_PLAY",
    "CHOOSE_TARGET",
    "ERROR",
    "EXPIRED",
    "GROUP_DESCRIPTION",
    "LANGUAGE_ADMINS",
    "LANGUAGE_AUTO",
    "LANGUAGE_ME",
    "LANGUAGE_SERVER",
    "LANGUAGE_SERVER_AUTO",
    "MORE_CARDS",
    "NOBODY_TO_KICK",
    "NO_ACCESS",
    "OPENED",
    "OPEN_TABLE",
    "OPTION_HELP",
    "OUTDATED",
    "PRIVATE_CHOICES",
    "REPLACED",
    "RESTARTING",
    "SERVER_ONLY",
    "WATCH_TABLE",
    "command_names",
    "option_names",
]

GROUP_DESCRIPTION = N_("Play UNO with the people in this channel")
BACK = N_("Back")
BAD_BUTTON = N_("That button is not valid here.")
ERROR = N_("Something went wrong. Please try again.")
SERVER_ONLY = N_("UNO is played in server channels.")
RESTARTING = N_("The bot is restarting: nothing was done. Try again in a moment.")
NO_ACCESS = N_(
    "I cannot post in this channel: I need View Channel and Send Messages here "
    "(Send Messages in Threads in a thread)."
)
OUTDATED = N_(
    "This button is from an older version of the bot: use the table's buttons, or /uno, again."
)
EXPIRED = N_("This view has expired: press “{hand}” on the table for a fresh one.")
REPLACED = N_("Your hand has moved to a newer message.")
OPEN_TABLE = N_("Open the table")  # the web table, this player's page (``UNO_WEB_URL``)
WATCH_TABLE = N_("Watch on the web")  # the table message: the web table's public page
OPENED = N_("The table is open: press “{join}” on it to sit down.")
MORE_CARDS = N_("More cards ({page}/{pages})")
CHOOSE_COLOR = N_("Choose the colour for {cards}:")
CHOOSE_TARGET = N_("Choose whom to swap hands with ({cards}):")
CHOOSE_PLAY = N_("Choose how to play {cards}:")
THEN_COLOR = N_("then choose a colour")
THEN_TARGET = N_("then choose a player")
NOBODY_TO_KICK = N_("Nobody else is at the table.")
SETTINGS_TITLE = N_("⚙️ Rules of this table")
SETTINGS_HINT = N_(
    "The host (or a member with Manage Channels) can change them in the lobby or between rounds."
)
LANGUAGE_ME = N_("Your language is now {language}.")
LANGUAGE_AUTO = N_("Your messages now follow your Discord language.")
LANGUAGE_SERVER = N_("The language of UNO in this server is now {language}.")
LANGUAGE_SERVER_AUTO = N_("UNO in this server now speaks the server's Discord language.")
LANGUAGE_ADMINS = N_("Only a member with Manage Channels can change the server's language.")
TURN_ENDS = N_("⏱ The turn ends {when}.")

# option descriptions (Discord allows 100 characters)
OPTION_HELP: dict[str, str] = {
    "preset": N_("the rules to start from"),
    "player": N_("the player to remove (leave empty to choose, bots included)"),
    "strategy": N_("how the bot plays"),
    "language": N_("the language to use"),
    "where": N_("for you only, or for the whole server"),
    "whose": N_("whose statistics (yours if empty)"),
    "scope": N_("this server, or everywhere"),
    "rank_whose": N_("whose rating (yours if empty)"),
    "name": N_("or a rated player's name (a bot seat's too)"),
}

# the names of choices, in the language of whoever sees them
PRIVATE_CHOICES: dict[str, str] = {
    "smart": N_("Smart"),
    "expert": N_("Expert"),
    "basic": N_("Basic"),
    "random": N_("Random"),
    "server": N_("This server"),
    "global": N_("Everywhere"),
    "me": N_("Just me"),
    "guild": N_("The whole server"),
    "auto": N_("Automatic (from Discord)"),
}


def command_names(tr: Translator) -> dict[str, str]:
    """Each ``/uno`` subcommand's name in ``tr``'s language (lower case, no spaces)."""
    return {
        "new": tr.pgettext("command", "new"),
        "join": tr.pgettext("command", "join"),
        "start": tr.pgettext("command", "start"),
        "leave": tr.pgettext("command", "leave"),
        "kick": tr.pgettext("command", "kick"),
        "stop": tr.pgettext("command", "stop"),
        "hand": tr.pgettext("command", "hand"),
        "rules": tr.pgettext("command", "rules"),
        "settings": tr.pgettext("command", "settings"),
        "stats": tr.pgettext("command", "stats"),
        "leaderboard": tr.pgettext("command", "leaderboard"),
        "rank": tr.pgettext("command", "rank"),
        "top": tr.pgettext("command", "top"),
        "language": tr.pgettext("command", "language"),
        "addbot": tr.pgettext("command", "addbot"),
        "help": tr.pgettext("command", "help"),
    }


def option_names(tr: Translator) -> dict[str, str]:
    """The options' names in ``tr``'s language."""
    return {
        "preset": tr.pgettext("option", "preset"),
        "player": tr.pgettext("option", "player"),
        "strategy": tr.pgettext("option", "strategy"),
        "language": tr.pgettext("option", "language"),
        "where": tr.pgettext("option", "where"),
        "whose": tr.pgettext("option", "whose"),
        "scope": tr.pgettext("option", "scope"),
        "name": tr.pgettext("option", "name"),
    }
