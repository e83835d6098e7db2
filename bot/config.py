"""Configuration from the environment (prefix ``UNO_``) and an optional ``.env`` file.

Tokens are secrets: they are ``SecretStr`` (shown as ``**********`` in reprs, logs and
validation errors) and only ``.get_secret_value()`` at the point of use reveals them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["LANGUAGES", "Settings", "load_settings"]

LANGUAGES = ("en", "zh_Hans", "zh_Hant")


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
