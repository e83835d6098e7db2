"""The Telegram adapter's own words, and how it words the service's: the refusals and hints
its handlers give (translated, in the ``telegram`` catalogue: ``make catalogues``), a
service notice as Telegram says it (:func:`notice_text`), a user's name as the table shows
it (:func:`display_name`). Every other text is ``bot.ui.render``'s (the table, the hands,
the notices), drawn by :mod:`adapters.telegram.widgets`."""

from __future__ import annotations

from collections.abc import Mapping

from telegram import User

from bot.port import Notice
from bot.ui import render
from bot.ui.i18n import N_, Translator

__all__ = [
    "FAILED",
    "INVALID",
    "NOT_SAVED",
    "NO_TABLES",
    "OPEN_PRIVATE",
    "OUTDATED",
    "TOO_FAST",
    "display_name",
    "notice_text",
]

INVALID = N_("This button is not valid.")
OUTDATED = N_("This button is outdated: use the buttons of the newest message.")
# what went wrong is ours (the database full or locked, a bug): nothing was changed
NOT_SAVED = N_("Could not save that — please try again.")
FAILED = N_("Something went wrong — please try again.")
OPEN_PRIVATE = N_("Open a private chat with me to see this.")
# an update past what one user may have waiting (``ordering.BACKLOG``): not handled
TOO_FAST = N_("Too fast: wait a moment, then try again.")
NO_TABLES = N_("You are not playing at any table.")


def notice_text(notice: Notice, tr: Translator, names: Mapping[str, str] | None = None) -> str:
    """A service notice as Telegram words it (``not_host``: the host or a group admin,
    what this adapter checks): every notice the adapter shows goes through here."""
    return render.notice_text(notice, tr, names or {}, platform="tg")


def display_name(user: User) -> str:
    """First (and last) name, else the username, else the id; kept short."""
    name = (user.full_name or user.username or str(user.id)).strip()
    return name[:40] or str(user.id)
