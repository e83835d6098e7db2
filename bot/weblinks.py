"""The web table's links, signed: what the chat adapters put on their messages and what the
web table (``adapters/web``) reads back. Platform-free: HMAC-SHA256 with the operator's
``UNO_WEB_SECRET``, tokens of ``[A-Za-z0-9_-]`` only (they fit Telegram's ``startapp``
parameter and a URL's fragment as they are).

Two kinds, each MAC'd under its own label so that one can never pass for the other:

- a **table token**: a table key (``tg:-1001234567890``), the table's public link. Whoever
  has it sees the table's public view (a spectator); who they are comes from elsewhere
  (Telegram's signed ``initData``). It does not expire: it names a chat, not a game, as a
  Telegram table message does. A page cannot open another chat's table: the key is signed.
- a **player token**: a person at one table, for one game of it (the table's ``created``
  time: a new table at the same place is another game), until ``expires`` (unix seconds,
  ``PLAYER_HOURS`` after it was made). It is the identity of a Discord player who opens
  the link of their hand message; the web table also hands one to any page that proved who
  it is, to reconnect with later. Dead when the game ends (the table is closed, or another
  one opened there) or when it expires, whichever comes first.

Neither is ever logged (the URLs carry them in a fragment or a parameter the web table's
log leaves out).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "MAC_CHARS",
    "PLAYER_HOURS",
    "Links",
    "PlayerLink",
    "links_for",
]

MAC_CHARS = 22  # base64url of 16 bytes of the HMAC: 128 bits
PLAYER_HOURS = 4.0  # a player token lives this long (renewed while its page is open)
_MAX_TOKEN = 480  # Telegram's startapp takes 512 characters
_SEP = "\n"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, binascii.Error):
        return None


@dataclass(frozen=True, slots=True)
class PlayerLink:
    """What a player token says: ``player`` at table ``key``, for the game of that table
    opened at ``created`` (unix seconds, as ``TableInfo.created``), until ``expires``."""

    key: str
    player: str
    created: float
    expires: int


class Links:
    """Makes and reads the tokens with one secret (``UNO_WEB_SECRET``)."""

    def __init__(
        self, secret: str | bytes, base_url: str = "", clock: Callable[[], float] = time.time
    ) -> None:
        raw = secret.encode() if isinstance(secret, str) else secret
        if len(raw) < 16:
            raise ValueError("the web table's secret must be 16 characters at least")
        self._key = hashlib.sha256(b"uno-web-links\0" + raw).digest()
        self.base_url = base_url.rstrip("/")
        self.clock = clock

    def _mac(self, label: str, body: bytes) -> str:
        mac = hmac.new(self._key, label.encode() + b"\0" + body, hashlib.sha256)
        return _b64(mac.digest()[:16])

    def _sign(self, label: str, body: str) -> str:
        data = body.encode()
        return _b64(data) + self._mac(label, data)

    def _open(self, label: str, token: object) -> str | None:
        if not isinstance(token, str) or not MAC_CHARS < len(token) <= _MAX_TOKEN:
            return None
        if not token.isascii():
            return None
        head, mac = token[:-MAC_CHARS], token[-MAC_CHARS:]
        data = _unb64(head)
        if data is None or _b64(data) != head:  # one spelling only
            return None
        if not hmac.compare_digest(self._mac(label, data), mac):
            return None
        try:
            return data.decode()
        except UnicodeDecodeError:
            return None

    # -- tables ----------------------------------------------------------------------------

    def table_token(self, key: str) -> str:
        """The public token of table ``key``."""
        return self._sign("table", key)

    def read_table(self, token: object) -> str | None:
        """The table key of a table token, ``None`` for anything this secret did not sign."""
        return self._open("table", token)

    # -- players ---------------------------------------------------------------------------

    def player_token(
        self, key: str, player: str, created: float, *, hours: float = PLAYER_HOURS
    ) -> str:
        """A token for ``player`` at the game of table ``key`` opened at ``created``, for
        ``hours`` from now, rounded up to the next quarter of an hour (the same token for
        every message drawn within it: an edit that changes nothing else is not made)."""
        quarter = 900
        expires = int(self.clock() + hours * 3600 + quarter - 1) // quarter * quarter
        body = _SEP.join((key, player, f"{round(created * 1000)}", str(expires)))
        return self._sign("player", body)

    def read_player(self, token: object, *, expired: bool = False) -> PlayerLink | None:
        """What a player token says, ``None`` for a forged one or (unless ``expired``) one
        expired. Whether its game is still on is the caller's to check (``created``)."""
        body = self._open("player", token)
        if body is None:
            return None
        parts = body.split(_SEP)
        if len(parts) != 4 or not parts[2].isdigit() or not parts[3].isdigit():
            return None
        key, player, created, expires = parts[0], parts[1], int(parts[2]), int(parts[3])
        if expires <= self.clock() and not expired:
            return None
        return PlayerLink(key, player, created / 1000, expires)

    @staticmethod
    def same_game(link: PlayerLink, created: float) -> bool:
        """Whether ``link`` was made for the game of a table opened at ``created``."""
        return round(link.created * 1000) == round(created * 1000)

    # -- urls ------------------------------------------------------------------------------

    def page_url(self, *, table: str | None = None, player: str | None = None) -> str:
        """The web table's page outside Telegram: a player's (``#p=``) or the public one
        (``#t=``). In the fragment: never sent to a server, so never in a log."""
        if player is not None:
            return f"{self.base_url}/#p={player}"
        return f"{self.base_url}/#t={table or ''}"

    def mini_app_url(self, table: str) -> str:
        """The page inside Telegram, for a ``web_app`` button (a private chat)."""
        return f"{self.base_url}/tg/?t={table}"

    @staticmethod
    def telegram_link(bot_username: str, app: str, table: str) -> str:
        """The Mini App's direct link with the table as its start parameter (the only way
        into a Mini App from a group: Telegram allows ``web_app`` buttons in private
        chats only)."""
        return f"https://t.me/{bot_username}/{app}?startapp={table}"


def links_for(settings: object, clock: Callable[[], float] = time.time) -> Links | None:
    """The links of a configuration (``bot.config.Settings``), ``None`` while the web table
    is off (``UNO_WEB_URL`` unset) or has no secret."""
    url = getattr(settings, "web_url", None)
    secret = getattr(settings, "web_secret", None)
    if not url or secret is None:
        return None
    return Links(secret.get_secret_value(), url, clock)
