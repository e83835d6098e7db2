"""The web table's own words (the ``web`` domain of the catalogues): the page's labels, sent
to it translated in its ``welcome`` frame, and its refusals. The game's words (cards, events,
the table's lines, the controls' labels, the service's refusals) are the ``messages``
domain's, rendered by ``bot.ui.render`` as on every platform."""

from __future__ import annotations

from bot.ui.i18n import N_, Translator

__all__ = ["PAGE", "REFUSALS", "page_strings", "refusal"]

# the page's labels, by the name its script uses
PAGE: dict[str, str] = {
    "title": N_("UNO table"),
    "connecting": N_("Connecting…"),
    "reconnecting": N_("Connection lost: connecting again…"),
    "hand": N_("Your hand"),
    "watching": N_("You are watching this table."),
    "pile": N_("Draw pile"),
    "cards_left": N_("{n} cards"),
    "pending": N_("Penalty: +{n}"),
    "turn_of": N_("{player}’s turn"),
    "your_turn": N_("Your turn"),
    "seconds": N_("{n} s"),
    "uno_mark": N_("UNO!"),
    "host": N_("host"),
    "bot": N_("bot"),
    "choose": N_("How do you play it?"),
    "cancel": N_("Cancel"),
    "play_picked": N_("Play the chosen ({n})"),
    "clear_picked": N_("Choose again"),
    "settings": N_("Settings"),
    "kick": N_("Remove a player"),
    "close": N_("Close"),
    "scores": N_("Scores"),
    "events": N_("What happened"),
    "direction_cw": N_("Clockwise"),
    "direction_ccw": N_("Counter-clockwise"),
    "lobby": N_("Waiting for players"),
    "over": N_("This table is closed."),
    "gone": N_("This link is no longer valid: open the table again from the chat."),
}

# what only the web table refuses (the service's refusals are ``bot.ui.render``'s)
REFUSALS: dict[str, str] = {
    "forged": N_("This page cannot do that: reload it."),
    "other_table": N_("That belongs to another table."),
    "spectator": N_("You are watching: only players at the table can do that."),
    "too_fast": N_("Too fast: wait a moment."),
    "bad_login": N_("Telegram did not vouch for this page: open it again from the chat."),
    "old_login": N_("This page was opened too long ago: open it again from the chat."),
    "bad_link": N_("This link is not valid: open the table again from the chat."),
    "expired": N_("This link is no longer valid: open the table again from the chat."),
    "no_table": N_("There is no open table here."),
    "nobody_to_kick": N_("Nobody else is at the table."),
}


def page_strings(tr: Translator) -> dict[str, str]:
    """Every label of the page in ``tr``'s language (placeholders left for the page)."""
    return {name: tr.gettext(text) for name, text in PAGE.items()}


def refusal(code: str, tr: Translator) -> str:
    """A refusal of the web table's own, in ``tr``'s language."""
    return tr.gettext(REFUSALS.get(code, REFUSALS["forged"]))
