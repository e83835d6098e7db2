"""Who a page is, proven by the platform, never by anything else the page says.

**Telegram** (a Mini App): ``Telegram.WebApp.initData``, the query string Telegram hands the
page, validated exactly as Telegram documents it ("Validating data received via the Mini
App"): the data-check string is every field but ``hash``, as ``key=value`` sorted by key and
joined by line feeds; the secret key is HMAC-SHA256 of the bot's token keyed with the
string ``WebAppData``; the field ``hash`` must be the hex HMAC-SHA256 of the data-check
string under that key (compared in constant time). ``auth_date`` (when Telegram opened the
page) must be at most ``INIT_DATA_SECONDS`` old (one hour; and not more than a few minutes
ahead of this clock): older initData is refused as ``old_login``. A page that stays open
longer reconnects with the player token the web table gave it on its first connection
(``bot.weblinks``), which lives four hours and is renewed while the page is open.

**Discord**: a player token (``bot.weblinks.Links.player_token``) in the link of their hand
message: that player, that table, that game, until it expires.

Everyone else (no initData, no player token: a public table link) is a spectator.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bot.names import clean_name

__all__ = ["INIT_DATA_SECONDS", "TelegramLogin", "sign_init_data", "telegram_login"]

INIT_DATA_SECONDS = 3600  # how old a Mini App's initData may be (its ``auth_date``)
CLOCK_SKEW = 300  # how far ahead of this clock an ``auth_date`` may be
_MAX_INIT_DATA = 4096


@dataclass(frozen=True, slots=True)
class TelegramLogin:
    """What a valid initData says: the Telegram user, their name and language, and the
    Mini App's start parameter (``startapp``: the table token), if it was opened by one."""

    user: int
    name: str
    language: str | None
    start_param: str | None
    auth_date: int


def _secret(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def _check_string(pairs: list[tuple[str, str]]) -> str:
    return "\n".join(f"{k}={v}" for k, v in sorted(pairs))


def telegram_login(
    init_data: object, bot_token: str, now: float, *, max_age: float = INIT_DATA_SECONDS
) -> TelegramLogin | str:
    """The login ``init_data`` proves, or why not: ``bad_login`` (not signed with this
    bot's token, tampered, malformed) or ``old_login`` (``auth_date`` too old)."""
    if not isinstance(init_data, str) or not 0 < len(init_data) <= _MAX_INIT_DATA:
        return "bad_login"
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        return "bad_login"
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):  # a field twice: which one was signed?
        return "bad_login"
    fields = dict(pairs)
    given = fields.pop("hash", None)
    if given is None:
        return "bad_login"
    expected = hmac.new(
        _secret(bot_token), _check_string(list(fields.items())).encode(), hashlib.sha256
    ).hexdigest()
    if not hmac.compare_digest(expected, given.lower()):
        return "bad_login"
    try:
        auth_date = int(fields.get("auth_date", ""))
        user = json.loads(fields.get("user", ""))
        uid = user["id"]
    except (ValueError, TypeError, KeyError):
        return "bad_login"
    if not isinstance(uid, int) or isinstance(uid, bool) or uid <= 0:
        return "bad_login"
    if auth_date > now + CLOCK_SKEW:
        return "bad_login"
    if now - auth_date > max_age:
        return "old_login"
    first, last = user.get("first_name"), user.get("last_name")
    name = " ".join(p for p in (first, last) if isinstance(p, str) and p)
    lang = user.get("language_code")
    return TelegramLogin(
        user=uid,
        name=clean_name(name, f"#{str(uid)[-4:]}"),
        language=lang if isinstance(lang, str) else None,
        start_param=fields.get("start_param") or None,
        auth_date=auth_date,
    )


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """initData as Telegram makes it: ``fields`` with their ``hash`` (what a test stands in
    for Telegram with; the server never signs one itself)."""
    from urllib.parse import urlencode

    pairs = [(k, v) for k, v in fields.items() if k != "hash"]
    digest = hmac.new(_secret(bot_token), _check_string(pairs).encode(), hashlib.sha256)
    return urlencode([*pairs, ("hash", digest.hexdigest())])
