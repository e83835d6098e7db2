"""Configuration: ``UNO_`` variables, a ``.env`` file, and tokens that never show."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.ops.config import Settings, load_settings

DISCORD = "MTIzNDU2Nzg5MDEyMzQ1Njc4.discord-secret-token"
TELEGRAM = "123456789:AAtelegram-secret-token"
HOOK = "webhook-secret-value"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No ``UNO_`` variable from the outside, and a working folder without ``.env``."""
    import os

    for name in list(os.environ):
        if name.upper().startswith("UNO_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def test_defaults() -> None:
    s = Settings()
    assert s.db == "data/uno.sqlite3"
    assert s.discord_token is None and s.telegram_token is None
    assert s.platforms == []
    assert s.discord_api_url.startswith("https://discord.com/api")
    assert s.telegram_api_url == "https://api.telegram.org/bot"
    assert (s.language, s.log_level, s.default_preset) == ("en", "INFO", "official")
    assert s.lobby_seconds > 0 and s.round_pause_seconds >= 0 and s.bot_delay >= 0


def test_environment_with_the_uno_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_DB", "/tmp/x/uno.db")
    monkeypatch.setenv("UNO_TELEGRAM_TOKEN", TELEGRAM)
    monkeypatch.setenv("UNO_TELEGRAM_API_URL", "http://127.0.0.1:8081/bot")
    monkeypatch.setenv("UNO_DISCORD_API_URL", "http://127.0.0.1:8082/api/v10")
    monkeypatch.setenv("UNO_LANGUAGE", "zh_Hant")
    monkeypatch.setenv("UNO_LOG_LEVEL", "debug")
    monkeypatch.setenv("UNO_BOT_DELAY", "0.25")
    monkeypatch.setenv("UNO_LOBBY_SECONDS", "120")
    monkeypatch.setenv("DB", "/not/this/one.db")  # no prefix: ignored
    s = load_settings()
    assert s.db == "/tmp/x/uno.db"
    assert s.telegram_token is not None and s.telegram_token.get_secret_value() == TELEGRAM
    assert s.telegram_api_url == "http://127.0.0.1:8081/bot"
    assert s.discord_api_url == "http://127.0.0.1:8082/api/v10"
    assert (s.language, s.log_level, s.bot_delay, s.lobby_seconds) == (
        "zh_Hant",
        "DEBUG",
        0.25,
        120,
    )
    assert s.platforms == ["telegram"]


def test_a_dot_env_file_and_the_environment_over_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text(
        f"UNO_DISCORD_TOKEN={DISCORD}\nUNO_DB=from-dotenv.db\nUNO_LANGUAGE=zh_Hans\n"
        "OTHER_THING=ignored\n",
        encoding="utf-8",
    )
    s = Settings()
    assert s.discord_token is not None and s.discord_token.get_secret_value() == DISCORD
    assert s.db == "from-dotenv.db" and s.language == "zh_Hans"
    assert s.platforms == ["discord"]
    monkeypatch.setenv("UNO_DB", "from-env.db")
    assert Settings().db == "from-env.db"
    assert load_settings(db="explicit.db").db == "explicit.db"
    assert load_settings(db=Path("a") / "b.db").db == str(Path("a") / "b.db")  # a path too
    monkeypatch.setenv("UNO_DB", "postgresql://uno:pw@db.example:5432/uno")
    assert Settings().db == "postgresql://uno:pw@db.example:5432/uno"


def test_a_blank_token_is_no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_TELEGRAM_TOKEN", "   ")
    monkeypatch.setenv("UNO_DISCORD_TOKEN", "")
    s = Settings()
    assert s.telegram_token is None and s.discord_token is None and s.platforms == []


def test_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_LOG_LEVEL", "chatty")
    with pytest.raises(ValidationError, match="log_level"):
        Settings()
    monkeypatch.setenv("UNO_LOG_LEVEL", "INFO")
    monkeypatch.setenv("UNO_LANGUAGE", "fr")
    with pytest.raises(ValidationError):
        Settings()
    monkeypatch.setenv("UNO_LANGUAGE", "en")
    monkeypatch.setenv("UNO_LOBBY_SECONDS", "1")
    with pytest.raises(ValidationError):
        Settings()


def _all_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNO_DISCORD_TOKEN", DISCORD)
    monkeypatch.setenv("UNO_TELEGRAM_TOKEN", TELEGRAM)
    monkeypatch.setenv("UNO_TELEGRAM_WEBHOOK_SECRET", HOOK)


def _no_secret(text: str) -> None:
    for secret in (DISCORD, TELEGRAM, HOOK, "discord-secret", "telegram-secret", HOOK[:12]):
        assert secret not in text


def test_tokens_never_show_in_repr_str_or_dumps(monkeypatch: pytest.MonkeyPatch) -> None:
    _all_tokens(monkeypatch)
    s = Settings()
    assert s.platforms == ["discord", "telegram"]
    for text in (
        repr(s),
        str(s),
        f"{s}",
        s.model_dump_json(),
        str(s.model_dump()),
        repr(s.discord_token),
        str(s.telegram_token),
        repr(s.telegram_webhook_secret),
    ):
        _no_secret(text)
    assert "**********" in repr(s)


def test_tokens_never_show_in_logs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _all_tokens(monkeypatch)
    s = Settings()
    log = logging.getLogger("uno.test")
    with caplog.at_level(logging.DEBUG):
        log.info("settings: %s", s)
        log.info("settings: %r", s)
        log.debug("token: %s / %s", s.discord_token, s.telegram_token)
    assert "settings" in caplog.text
    _no_secret(caplog.text)


def test_tokens_never_show_in_validation_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    _all_tokens(monkeypatch)
    monkeypatch.setenv("UNO_LOG_LEVEL", "chatty")  # something else is wrong
    with pytest.raises(ValidationError) as err:
        Settings()
    _no_secret(str(err.value))
    _no_secret(repr(err.value))
    _no_secret(str(err.value.errors()))
    # a token of the wrong type: the error names the field, not the value
    with pytest.raises(ValidationError) as err:
        Settings(discord_token=[DISCORD])  # type: ignore[arg-type]
    assert "discord_token" in str(err.value)
    _no_secret(str(err.value))


def test_the_telegram_owner_and_card_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    s = Settings()
    assert s.telegram_owner is None and s.card_images is True
    monkeypatch.setenv("UNO_TELEGRAM_OWNER", "123456789")
    monkeypatch.setenv("UNO_CARD_IMAGES", "false")
    s = load_settings()
    assert s.telegram_owner == 123456789 and s.card_images is False
    monkeypatch.setenv("UNO_TELEGRAM_OWNER", " ")
    assert load_settings().telegram_owner is None
    for bad in ("@olga", "-5", "0"):
        monkeypatch.setenv("UNO_TELEGRAM_OWNER", bad)
        with pytest.raises(ValidationError):
            load_settings()


def test_discord_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    """UNO_DISCORD_SHARDS: auto (the default: every shard Discord recommends, here), or the
    shards this process runs out of how many, written back as ranges."""
    assert Settings().discord_shards == "auto" and Settings().discord_shard_plan is None
    cases = {
        "auto": ("auto", None),
        " AUTO ": ("auto", None),
        "0-3/8": ("0-3/8", ((0, 1, 2, 3), 8)),
        "5/8": ("5/8", ((5,), 8)),
        "0,2/4": ("0,2/4", ((0, 2), 4)),
        "3, 0-1 /4": ("3,0-1/4", ((3, 0, 1), 4)),
        "0-1,2/4": ("0-2/4", ((0, 1, 2), 4)),
        "0/1": ("0/1", ((0,), 1)),
    }
    for text, (written, plan) in cases.items():
        s = Settings(discord_shards=text)
        assert (s.discord_shards, s.discord_shard_plan) == (written, plan), text
    monkeypatch.setenv("UNO_DISCORD_SHARDS", "2-3/4")
    assert load_settings().discord_shard_plan == ((2, 3), 4)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "got ''"),
        ("0-3", "got '0-3'"),
        ("4/4", "shard 4 does not exist out of 4"),
        ("0-4/4", "shard 4 does not exist out of 4"),
        ("3-1/4", "'3-1' runs backwards"),
        ("0,0/2", "shard 0 is named twice"),
        ("0-2,1/4", "shard 1 is named twice"),
        ("a/2", "got 'a/2'"),
        ("0/0", "the shard count must be 1 to"),
        ("1-2-3/4", "got '1-2-3/4'"),
        ("0/-1", "got '0/-1'"),
        ("/4", "got '/4'"),
        ("0,/4", "got '0,/4'"),
        ("٣/٤", "got"),  # digits, but not ASCII ones
    ],
)
def test_bad_discord_shards_are_refused_saying_what_is_accepted(text: str, why: str) -> None:
    with pytest.raises(ValidationError) as e:
        Settings(discord_shards=text)
    message = str(e.value)
    assert "discord_shards is auto, or the shards this process runs" in message
    assert "0-3/8" in message and why in message


def test_a_token_without_the_prefix_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 19 item 21: ``TELEGRAM_TOKEN`` (the old compose.yaml's name) is read by nothing;
    beside a platform that does start, ``uno-bot run`` says so in a warning naming the
    variable it reads, and never the token."""
    import bot.cli as cli
    from bot.ops.config import misnamed_tokens

    monkeypatch.delenv("TELEGRAM_TOKEN", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    (tmp_path / ".env").write_text(
        f"UNO_DISCORD_TOKEN={DISCORD}\nTELEGRAM_TOKEN={TELEGRAM}\n", encoding="utf-8"
    )
    s = load_settings()
    assert s.platforms == ["discord"]
    assert misnamed_tokens(s) == [("TELEGRAM_TOKEN", "UNO_TELEGRAM_TOKEN", ".env")]
    assert misnamed_tokens(s, {"discord_token": "x", "TELEGRAM_TOKEN": " "}) == [
        ("TELEGRAM_TOKEN", "UNO_TELEGRAM_TOKEN", ".env")  # blank: as if unset
    ]
    ran: list[object] = []

    async def run_platforms(settings: object) -> None:
        ran.append(settings)

    monkeypatch.setattr(cli, "run_platforms", run_platforms)
    with caplog.at_level(logging.WARNING, logger="uno"):
        assert cli._run(s) == 0
    assert ran == [s]
    (record,) = [r for r in caplog.records if "TELEGRAM_TOKEN" in r.getMessage()]
    assert record.levelno == logging.WARNING
    assert "uno-bot reads UNO_TELEGRAM_TOKEN" in record.getMessage()
    assert TELEGRAM not in caplog.text
    # set under the bot's own name too: nothing is missing
    monkeypatch.setenv("UNO_TELEGRAM_TOKEN", TELEGRAM)
    assert misnamed_tokens(load_settings()) == []
    monkeypatch.delenv("UNO_TELEGRAM_TOKEN")
    (tmp_path / ".env").write_text(f"UNO_DISCORD_TOKEN={DISCORD}\n", encoding="utf-8")
    monkeypatch.setenv("DISCORD_TOKEN", DISCORD)  # its platform starts: not reported
    monkeypatch.setenv("TELEGRAM_TOKEN", TELEGRAM)
    assert misnamed_tokens(load_settings()) == [
        ("TELEGRAM_TOKEN", "UNO_TELEGRAM_TOKEN", "the environment")
    ]


@pytest.mark.parametrize(
    ("given", "read"),
    [
        ("https://api.telegram.org/bot", "https://api.telegram.org/bot"),
        ("http://127.0.0.1:8081", "http://127.0.0.1:8081/bot"),
        ("http://127.0.0.1:8081/", "http://127.0.0.1:8081/bot"),
        ("http://127.0.0.1:8081/bot/", "http://127.0.0.1:8081/bot"),
        (" http://proxy.example/telegram ", "http://proxy.example/telegram/bot"),
        ("http://proxy.example/t/{token}/", "http://proxy.example/t/{token}/"),
    ],
)
def test_the_telegram_api_url_with_or_without_its_bot(given: str, read: str) -> None:
    """python-telegram-bot appends the token to ``base_url`` (or puts it at ``{token}``),
    and the Bot API's paths are ``/bot<token>/<method>``: an address without ``/bot``
    gets it."""
    assert Settings(telegram_api_url=given).telegram_api_url == read
