"""Configuration from the environment (prefix ``UNO_``) and an optional ``.env`` file.

Tokens are secrets: they are ``SecretStr`` (shown as ``**********`` in reprs, logs and
validation errors) and only ``.get_secret_value()`` at the point of use reveals them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["LANGUAGES", "Settings", "format_shards", "load_settings", "parse_shards"]

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

    db: str = "data/uno.sqlite3"
    discord_token: SecretStr | None = None
    discord_api_url: str = "https://discord.com/api/v10"
    # server ids, comma-separated: register /uno in these servers only (at once, for trying
    # the bot out) instead of globally
    discord_guilds: str = ""
    # which Discord shards this process runs: auto (as many as Discord recommends, all of
    # them) or A-B/N, K/N, comma lists (``parse_shards``), to spread shards over processes
    discord_shards: str = "auto"
    # cards as pictures: Discord's hand picture and card emojis, Telegram's stickers
    # (these also need telegram_owner); false: text and emoji only
    card_images: bool = True
    telegram_token: SecretStr | None = None
    telegram_api_url: str = "https://api.telegram.org/bot"
    telegram_webhook_url: str | None = None  # set to use a webhook instead of polling
    telegram_webhook_listen: str = "0.0.0.0"  # a server's listen address
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: SecretStr | None = None
    # the operator's Telegram user id (who has started the bot privately): the card
    # stickers are a sticker set of theirs, made by the bot (``uno-bot stickers``)
    telegram_owner: int | None = Field(default=None, gt=0)
    language: Literal["en", "zh_Hans", "zh_Hant"] = "en"
    log_level: str = "INFO"
    # timers (the per-table ones live in the rules: turn_seconds, uno_window_seconds, ...)
    lobby_seconds: int = Field(default=15 * 60, ge=10)
    round_pause_seconds: float = Field(default=15.0, ge=0)
    bot_delay: float = Field(default=1.5, ge=0)
    # a window (turn, +4 challenge, UNO catch) starts when the platform reports its buttons
    # shown (``bot.port``); one never reported starts this much late anyway
    show_wait_seconds: float = Field(default=30.0, ge=0)
    default_preset: str = "official"
    # operators: Prometheus metrics on /metrics and a health check on /healthz (unset: off)
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_host: str = "0.0.0.0"  # every interface: a scraper in another container

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
        mode="before",
    )
    @classmethod
    def _blank_is_none(cls, v: object) -> object:
        return None if isinstance(v, str) and not v.strip() else v

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
