"""Configuration from the environment (prefix ``UNO_``) and an optional ``.env`` file.

Tokens are secrets: they are ``SecretStr`` (shown as ``**********`` in reprs, logs and
validation errors) and only ``.get_secret_value()`` at the point of use reveals them.
"""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from dotenv import dotenv_values
from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = [
    "LANGUAGES",
    "Settings",
    "format_shards",
    "load_settings",
    "misnamed_tokens",
    "parse_shards",
]

LANGUAGES = ("en", "zh_Hans", "zh_Hant")
# Discord shard counts: far past what any bot runs (Discord recommends one per 1,000 servers)
MAX_SHARDS = 1 << 16
_SHARDS_HELP = (
    "discord_shards is auto, or the shards this process runs out of how many there are: "
    "0-3/8 (shards 0 to 3 of 8), 5/8, or 0,2/4"
)


def parse_shards(text: str) -> tuple[tuple[int, ...], int] | None:
    """``UNO_DISCORD_SHARDS``: ``None`` for ``auto`` (one process runs as many shards as
    Discord recommends), else (the shard ids this process runs, in order, the shard count).
    ``A-B/N`` is shards A to B of N, ``K/N`` one, and a comma list mixes both (``0,2-3/8``).
    Raises ``ValueError`` saying what is wrong."""
    v = text.strip()
    if v.lower() == "auto":
        return None
    ids_part, slash, count_part = v.partition("/")
    count_part = count_part.strip()
    if not slash or not count_part.isascii() or not count_part.isdigit():
        raise ValueError(f"{_SHARDS_HELP}; got {text!r}")
    count = int(count_part)
    if not 1 <= count <= MAX_SHARDS:
        raise ValueError(f"{_SHARDS_HELP}; the shard count must be 1 to {MAX_SHARDS}")
    ids: list[int] = []
    seen: set[int] = set()
    for item in ids_part.split(","):
        lo, dash, hi = (p.strip() for p in item.partition("-"))
        bounds = (lo, hi) if dash else (lo,)
        if not all(b.isascii() and b.isdigit() and len(b) <= 6 for b in bounds):
            raise ValueError(f"{_SHARDS_HELP}; got {text!r}")
        a, b = int(bounds[0]), int(bounds[-1])
        if a > b:
            raise ValueError(f"{_SHARDS_HELP}; {item.strip()!r} runs backwards")
        if b >= count:
            raise ValueError(
                f"{_SHARDS_HELP}; shard {b} does not exist out of {count} (ids are 0 to "
                f"{count - 1})"
            )
        for k in range(a, b + 1):
            if k in seen:
                raise ValueError(f"{_SHARDS_HELP}; shard {k} is named twice")
            seen.add(k)
            ids.append(k)
    return tuple(ids), count


def format_shards(ids: tuple[int, ...], count: int) -> str:
    """The shards as ``UNO_DISCORD_SHARDS`` writes them, runs as ranges: ``0-3,6/8``."""
    runs: list[list[int]] = []
    for k in ids:
        if runs and runs[-1][1] == k - 1:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    items = (f"{a}" if a == b else f"{a}-{b}" for a, b in runs)
    return f"{','.join(items)}/{count}"


class Settings(BaseSettings):
    """Everything an operator can set. ``UNO_DB=/data/uno.sqlite3`` sets ``db``: an SQLite
    file (a path, or ``sqlite:///path``) or a PostgreSQL server
    (``postgresql://user:password@host:5432/database``), see ``bot.store.store_for``."""

    model_config = SettingsConfigDict(
        env_prefix="UNO_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        hide_input_in_errors=True,
    )

    # each field's description is its line in ``uno-bot run --help`` (``env_help``)
    db: str = Field(
        "data/uno.sqlite3",
        description="the database: an SQLite file (a path, or sqlite:///path) or a "
        "PostgreSQL server, postgresql://user:password@host:5432/database",
    )
    discord_token: SecretStr | None = Field(
        None, description="the Discord bot's token (Developer Portal, Bot): starts Discord"
    )
    discord_api_url: str = Field(
        "https://discord.com/api/v10", description="Discord's API at another address (a proxy)"
    )
    discord_guilds: str = Field(
        "",
        description="server ids, comma-separated: register /uno in these servers only (at "
        "once, for trying the bot out) instead of globally",
    )
    discord_shards: str = Field(
        "auto",
        description="the Discord shards this process runs: auto (every shard Discord "
        "recommends), or some of a fixed count to spread them over processes: 0-3/8, 5/8, "
        "0,2/4",
    )
    card_images: bool = Field(
        True,
        description="cards as pictures: Discord's hand picture and card emojis, Telegram's "
        "stickers (these also need UNO_TELEGRAM_OWNER); false: text and emoji only",
    )
    telegram_token: SecretStr | None = Field(
        None, description="the Telegram bot's token (from @BotFather): starts Telegram"
    )
    telegram_api_url: str = Field(
        "https://api.telegram.org/bot",
        description="another Bot API server (self-hosted), with or without its /bot",
    )
    telegram_webhook_url: str | None = Field(
        None, description="the public URL of a webhook, to use instead of polling"
    )
    telegram_webhook_listen: str = Field(
        "0.0.0.0", description="the address the webhook's server listens on"
    )
    telegram_webhook_port: int = Field(
        8443, description="the port the webhook's server listens on"
    )
    telegram_webhook_secret: SecretStr | None = Field(
        None, description="the secret Telegram sends with every webhook update"
    )
    telegram_owner: int | None = Field(
        None,
        gt=0,
        description="your own Telegram user id (send the bot /start first): the card "
        "stickers are sticker sets of yours, made by the bot (uno-bot stickers)",
    )
    language: Literal["en", "zh_Hans", "zh_Hant"] = Field(
        "en", description="the default language: en, zh_Hans or zh_Hant"
    )
    log_level: str = Field("INFO", description="DEBUG, INFO, WARNING, ERROR or CRITICAL")
    # timers (the per-table ones live in the rules: turn_seconds, uno_window_seconds, ...)
    lobby_seconds: int = Field(
        15 * 60, ge=10, description="seconds a table waits to be started before it closes"
    )
    round_pause_seconds: float = Field(
        15.0, ge=0, description="seconds between a round's end and the next deal"
    )
    bot_delay: float = Field(1.5, ge=0, description="seconds a bot seat waits before it moves")
    expert_workers: int = Field(
        1, ge=1, le=64, description="worker processes that search the expert bot seats' moves"
    )
    show_wait_seconds: float = Field(
        30.0,
        ge=0,
        description="a window (turn, +4 challenge, UNO catch) starts when its buttons are "
        "shown; one the platform never reports shown starts this much later anyway",
    )
    default_preset: str = Field(
        "official", description="the rules of a new table: official, house or party"
    )
    default_bot: Literal["smart", "expert", "basic", "random"] = Field(
        "smart",
        description="the strategy of a bot seat added without one (the table's bot button, "
        "/addbot, /uno addbot): smart, expert, basic or random",
    )
    season: Literal["month", "none"] = Field(
        "month",
        description="ratings' seasons: month (a ladder for each month beside the all-time "
        "one) or none (all time only)",
    )
    metrics_port: int | None = Field(
        None,
        ge=1,
        le=65535,
        description="serve Prometheus metrics on /metrics and a health check on /healthz "
        "on this port (unset: off)",
    )
    metrics_host: str = Field(
        "0.0.0.0",  # every interface: a scraper in another container
        description="the address the metrics port listens on",
    )

    # the web table (adapters/web): off while web_url is unset
    web_url: str | None = Field(
        None,
        description="the web table's public https address (a page per table, live; the "
        "Telegram Mini App and the Discord players' links open it); unset: off",
    )
    web_listen: str = Field("0.0.0.0", description="the address the web table listens on")
    web_port: int = Field(8080, ge=1, le=65535, description="the port the web table listens on")
    web_secret: SecretStr | None = Field(
        None,
        description="the key the web table's links are signed with (a long random string, "
        "the same in every process); required with UNO_WEB_URL",
    )
    telegram_webapp: str | None = Field(
        None,
        description="the short name of the bot's Mini App (@BotFather, /newapp): the table "
        "message's link to the web table",
    )

    @field_validator("db", mode="before")
    @classmethod
    def _db_text(cls, v: object) -> object:
        if isinstance(v, Path):  # a path given in code (the terminal's ``--db``)
            return str(v)
        if isinstance(v, str):
            if not v.strip():
                raise ValueError("db is an SQLite file path or a postgresql:// URL")
            return v.strip()
        return v

    @field_validator(
        "discord_token",
        "telegram_token",
        "telegram_webhook_secret",
        "telegram_owner",
        "metrics_port",
        "web_url",
        "web_secret",
        "telegram_webapp",
        mode="before",
    )
    @classmethod
    def _blank_is_none(cls, v: object) -> object:
        return None if isinstance(v, str) and not v.strip() else v

    @field_validator("telegram_api_url")
    @classmethod
    def _bot_api_url(cls, v: str) -> str:
        # python-telegram-bot appends the token to its base_url (or puts it where the URL
        # says {token}), and the Bot API's paths are /bot<token>/<method>: a server's
        # address given without its /bot gets it (the token ran into the port before)
        v = v.strip()
        if "{token}" in v or "{TOKEN}" in v:
            return v
        v = v.rstrip("/")
        return v if v.endswith("/bot") else f"{v}/bot"

    @field_validator("web_url")
    @classmethod
    def _web_url(cls, v: str | None) -> str | None:
        if v is None:
            return None
        v = v.strip().rstrip("/")
        parts = urlsplit(v)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
            raise ValueError("web_url is the web table's address: https://host[/path]")
        return v

    @field_validator("telegram_webapp")
    @classmethod
    def _webapp(cls, v: str | None) -> str | None:
        if v is not None and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", v.strip()):
            raise ValueError("telegram_webapp is the Mini App's short name (A-Z a-z 0-9 _)")
        return v.strip() if v is not None else None

    @property
    def web(self) -> bool:
        """Whether the web table is on (``UNO_WEB_URL`` set)."""
        return self.web_url is not None

    @field_validator("discord_guilds")
    @classmethod
    def _guild_ids(cls, v: str) -> str:
        ids = [p.strip() for p in v.replace(" ", ",").split(",") if p.strip()]
        if not all(p.isascii() and p.isdigit() and 0 < len(p) <= 20 for p in ids):
            raise ValueError("discord_guilds is a comma-separated list of server ids")
        return ",".join(ids)

    @property
    def discord_guild_ids(self) -> tuple[int, ...]:
        """The servers ``/uno`` is registered in, or none: registered globally."""
        return tuple(int(p) for p in self.discord_guilds.split(",") if p)

    @field_validator("discord_shards")
    @classmethod
    def _shards(cls, v: str) -> str:
        plan = parse_shards(v)
        if plan is None:
            return "auto"
        return format_shards(*plan)

    @property
    def discord_shard_plan(self) -> tuple[tuple[int, ...], int] | None:
        """``None`` (auto: every shard Discord recommends, in this process), or the shard ids
        this process runs and the shard count."""
        return parse_shards(self.discord_shards)

    @field_validator("log_level")
    @classmethod
    def _level(cls, v: str) -> str:
        v = v.upper()
        if v not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError("log_level is DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return v

    @property
    def platforms(self) -> list[str]:
        """The platforms with a token configured."""
        out = []
        if self.discord_token is not None:
            out.append("discord")
        if self.telegram_token is not None:
            out.append("telegram")
        return out


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment and ``.env``, with explicit overrides on top."""
    return Settings(**overrides)  # type: ignore[arg-type]


def env_help() -> str:
    """Every variable the bot reads, one entry each with its description and default (for
    ``uno-bot run --help``): from the fields themselves, so nothing is left out."""
    prefix = Settings.model_config.get("env_prefix", "")
    names = {name: f"{prefix}{name.upper()}" for name in Settings.model_fields}
    width = max(map(len, names.values())) + 4
    out = ["environment variables (or lines of a .env file):"]
    for name, field in Settings.model_fields.items():
        text = field.description or ""
        default = field.get_default()
        if default not in (None, "") and not isinstance(default, SecretStr):
            shown = str(default).lower() if isinstance(default, bool) else default
            text += f" (default\0{shown})"  # kept on one line
        lines = [line.replace("\0", " ") for line in textwrap.wrap(text, 94 - width)] or [""]
        out.append(f"  {names[name]:<{width - 2}}{lines[0]}")
        out.extend(f"{'':{width}}{line}" for line in lines[1:])
    return "\n".join(out)


# the setting that starts each platform
PLATFORM_TOKENS = {"discord": "discord_token", "telegram": "telegram_token"}


def misnamed_tokens(
    settings: Settings, environ: Mapping[str, str] | None = None
) -> list[tuple[str, str, str]]:
    """The tokens of platforms ``settings`` does not start that are set under their name
    without the prefix (``TELEGRAM_TOKEN``: what the first compose.yaml called them, and
    what a ``.env`` written for it still says), which nothing reads: (the name found, the
    name read, where: ``"the environment"`` or the env file's name). So that a token meant
    for the bot is named instead of silently ignored."""
    env = os.environ if environ is None else environ
    env_file = settings.model_config.get("env_file")
    in_file: dict[str, str | None] = {}
    if isinstance(env_file, (str, Path)) and Path(env_file).is_file():
        in_file = dotenv_values(env_file, encoding=settings.model_config.get("env_file_encoding"))
    prefix = settings.model_config.get("env_prefix", "")
    out = []
    for platform, field in PLATFORM_TOKENS.items():
        bare = field.upper()
        if platform in settings.platforms:
            continue
        for where, values in (("the environment", env), (str(env_file), in_file)):
            if any(k.upper() == bare and (v or "").strip() for k, v in values.items()):
                out.append((bare, f"{prefix}{bare}", where))
                break
    return out
