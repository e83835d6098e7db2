"""``compose.yaml`` (the README's "Running at scale"), checked without Docker: PostgreSQL
with a volume and a health check; two Discord processes whose shard ranges split 4 shards
between them and one Telegram process, all built from the Dockerfile, started once the
database is healthy, restarted, checked on their ``/healthz``, their settings ones
``uno-bot`` knows, every secret taken from the environment or ``.env`` under the bot's own
names (``UNO_...``), and each platform's processes a profile of their own.

The project has no YAML library (and takes none on for this): the file is read by the small
reader below, which knows the block subset the file is written in (mappings, lists of
scalars, flow lists of JSON strings, anchors, aliases, ``<<`` merges) and refuses anything
else, so a change to the file that it cannot follow fails here rather than pass unread."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.ops.config import Settings

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "compose.yaml"
BOTS = ("discord-0", "discord-1", "telegram")


# -- a reader for the block YAML the file is written in -----------------------------------------


def _lines(text: str) -> list[tuple[int, str]]:
    out = []
    for raw in text.splitlines():
        line = raw.rstrip()
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        if "\t" in line[: len(line) - len(stripped)]:
            raise ValueError(f"a tab in the indentation: {raw!r}")
        # a comment after a value (outside quotes: the file has none there)
        if " #" in stripped and not stripped.startswith(("[", '"', "'")) and '"' not in stripped:
            stripped = stripped.split(" #", 1)[0].rstrip()
        out.append((len(line) - len(line.lstrip(" ")), stripped))
    return out


class Reader:
    def __init__(self, text: str) -> None:
        self.lines = _lines(text)
        self.anchors: dict[str, Any] = {}

    def read(self) -> Any:
        value, i = self.block(0, 0)
        if i != len(self.lines):
            raise ValueError(f"unread line: {self.lines[i][1]!r}")
        return value

    def block(self, i: int, indent: int) -> tuple[Any, int]:
        if self.lines[i][1].startswith("- "):
            return self.sequence(i, indent)
        return self.mapping(i, indent)

    def sequence(self, i: int, indent: int) -> tuple[list[Any], int]:
        out = []
        while i < len(self.lines) and self.lines[i][0] == indent:
            text = self.lines[i][1]
            if not text.startswith("- "):
                raise ValueError(f"a list item expected: {text!r}")
            item = text[2:].strip()
            if re.match(r"[\w.-]+:( |$)", item):
                raise ValueError(f"a mapping in a list is not read here: {text!r}")
            out.append(self.scalar(item))
            i += 1
        return out, i

    def mapping(self, i: int, indent: int) -> tuple[dict[str, Any], int]:
        out: dict[str, Any] = {}
        merged: dict[str, Any] = {}
        while i < len(self.lines) and self.lines[i][0] == indent:
            text = self.lines[i][1]
            m = re.fullmatch(r"([\w.<-]+):(?: (.*))?", text)
            if m is None:
                raise ValueError(f"not a key: {text!r}")
            key, rest = m.group(1), (m.group(2) or "").strip()
            i += 1
            anchor = None
            if rest.startswith("&"):
                anchor, _, rest = rest[1:].partition(" ")
                rest = rest.strip()
            if rest:
                value = self.scalar(rest)
            elif i < len(self.lines) and self.lines[i][0] > indent:
                value, i = self.block(i, self.lines[i][0])
            else:
                value = None
            if anchor:
                self.anchors[anchor] = value
            if key == "<<":
                if not isinstance(value, dict):
                    raise ValueError("<< merges a mapping")
                merged.update(value)
            elif key in out:
                raise ValueError(f"key {key!r} twice")
            else:
                out[key] = value
        if i < len(self.lines) and self.lines[i][0] > indent:
            raise ValueError(f"unexpected indentation: {self.lines[i][1]!r}")
        return {**merged, **out}, i  # (keys of its own win over merged ones)

    def scalar(self, text: str) -> Any:
        if text.startswith("*"):
            return self.anchors[text[1:]]
        if text.startswith(("[", '"')):
            return json.loads(text)
        if text.startswith("'"):
            if not text.endswith("'"):
                raise ValueError(f"an unclosed quote: {text!r}")
            return text[1:-1].replace("''", "'")
        if text.startswith(("{", "&", "|", ">", "!")):
            raise ValueError(f"not read here: {text!r}")
        return text


def test_the_reader_reads_what_it_should_and_refuses_the_rest() -> None:
    text = "a: &x\n  b: 1\n  c: '2'\nd:\n  <<: *x\n  b: 3\n  e:\n    - \"f\"\n    - g\n"
    assert Reader(text).read() == {
        "a": {"b": "1", "c": "2"},
        "d": {"b": "3", "c": "2", "e": ["f", "g"]},
    }
    for bad in ("a: {b: 1}\n", "a:\n  - b: 1\n", "a: 1\na: 2\n", "a: |\n  x\n"):
        with pytest.raises((ValueError, KeyError)):
            Reader(bad).read()


# -- the file -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    value = Reader(COMPOSE.read_text(encoding="utf-8")).read()
    assert isinstance(value, dict)
    return value


INTERPOLATED = re.compile(r"\$\{([A-Z_]+):\?[^}]+\}")  # required: ${NAME:?why}
# optional (a profile's: Compose reads the whole file, even services it does not start)
OPTIONAL = re.compile(r"\$\{([A-Z_]+):-\}")
ANY_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)")
PROFILES = {"discord-0": ["discord"], "discord-1": ["discord"], "telegram": ["telegram"]}


def test_postgresql_keeps_its_data_and_says_when_it_is_ready(compose: dict[str, Any]) -> None:
    db = compose["services"]["db"]
    assert db["image"].startswith("postgres:")
    assert db["restart"] in ("always", "unless-stopped")
    volume, _, path = db["volumes"][0].partition(":")
    assert path == "/var/lib/postgresql/data" and volume in compose["volumes"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert INTERPOLATED.fullmatch(db["environment"]["POSTGRES_PASSWORD"])


def test_the_bots_come_from_the_dockerfile_once_the_database_is_healthy(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    assert set(services) == {"db", *BOTS}
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert 'CMD ["uno-bot", "run"]' in dockerfile and "FROM python:" in dockerfile
    host_ports = set()
    for name in BOTS:
        s = services[name]
        assert s["build"] == "." and (ROOT / "Dockerfile").is_file()
        assert s["restart"] in ("always", "unless-stopped")
        assert s["depends_on"] == {"db": {"condition": "service_healthy"}}
        env = s["environment"]
        db = env["UNO_DB"]
        assert db.startswith("postgresql://uno:") and db.endswith("@db:5432/uno")
        assert INTERPOLATED.search(db)
        port = env["UNO_METRICS_PORT"]
        check = " ".join(s["healthcheck"]["test"])
        assert f"http://127.0.0.1:{port}/healthz" in check
        (published,) = s["ports"]
        host, _, inside = published.rpartition(":")
        assert inside == port and host.startswith("127.0.0.1:")  # loopback only
        host_ports.add(host)
        # settings uno-bot reads (with a dummy for each secret), and it accepts them
        known = set(Settings.model_fields)
        for key in env:
            assert key.startswith("UNO_")
            assert key[4:].lower() in known, key
        values = {
            k[4:].lower(): OPTIONAL.sub("x", INTERPOLATED.sub("x", v)) for k, v in env.items()
        }
        Settings(_env_file=None, **values)
    assert len(host_ports) == len(BOTS)


def test_two_discord_processes_split_the_shards_and_one_runs_telegram(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    shards: list[int] = []
    counts = set()
    for name in ("discord-0", "discord-1"):
        env = services[name]["environment"]
        assert env["UNO_DISCORD_TOKEN"] == "${UNO_DISCORD_TOKEN:-}"
        assert "UNO_TELEGRAM_TOKEN" not in env
        m = re.fullmatch(r"(\d+)-(\d+)/(\d+)", env["UNO_DISCORD_SHARDS"])
        assert m is not None
        first, last, count = map(int, m.groups())
        shards.extend(range(first, last + 1))
        counts.add(count)
    assert counts == {4} and sorted(shards) == [0, 1, 2, 3]  # each shard in one process
    env = services["telegram"]["environment"]
    assert env["UNO_TELEGRAM_TOKEN"] == "${UNO_TELEGRAM_TOKEN:-}"
    assert "UNO_DISCORD_TOKEN" not in env


def test_each_platform_is_a_profile_and_the_database_always_runs(
    compose: dict[str, Any],
) -> None:
    """Issue 19 item 21: an operator with one platform starts only its processes
    (``COMPOSE_PROFILES=telegram`` in ``.env``, or ``--profile``); nothing else requires a
    token it has not got, so a token is optional where it is read (``${NAME:-}``: Compose
    reads every service's variables, even those of a profile it does not start) and the
    bot itself refuses to run without one (``uno-bot run`` exits 1 saying so)."""
    services = compose["services"]
    assert "profiles" not in services["db"]
    for name, profiles in PROFILES.items():
        assert services[name]["profiles"] == profiles, name
    text = COMPOSE.read_text(encoding="utf-8")
    for line in text.splitlines():
        if "TOKEN" in line and "${" in line:
            assert OPTIONAL.search(line), line


def test_one_set_of_names_the_bots_own(compose: dict[str, Any]) -> None:
    """Issue 19 item 21: the file read ``DISCORD_TOKEN`` and ``TELEGRAM_TOKEN`` from
    ``.env``, other names than the bot's, while the same ``.env`` is read by ``make run``
    (where ``TELEGRAM_TOKEN=...`` meant nothing). Every variable the file takes is a
    setting of uno-bot under its own name (``UNO_...``), given to the setting of that
    name, or PostgreSQL's password; so is every one its comments tell to set."""
    known = {f"UNO_{name.upper()}" for name in Settings.model_fields}
    text = COMPOSE.read_text(encoding="utf-8")
    taken = set(ANY_VARIABLE.findall(text))
    assert taken <= known | {"POSTGRES_PASSWORD"}, taken - known
    assert {"UNO_DISCORD_TOKEN", "UNO_TELEGRAM_TOKEN", "POSTGRES_PASSWORD"} <= taken
    for name in PROFILES:
        for key, value in compose["services"][name]["environment"].items():
            for var in ANY_VARIABLE.findall(value):
                assert var == key or var == "POSTGRES_PASSWORD", (key, value)
    told = set(re.findall(r"^#\s+([A-Z_]+)=", text, re.M))
    assert told <= known | {"POSTGRES_PASSWORD", "COMPOSE_PROFILES"}, told
    assert {"UNO_DISCORD_TOKEN", "UNO_TELEGRAM_TOKEN", "COMPOSE_PROFILES"} <= told


def test_no_secret_is_written_in_the_file() -> None:
    text = COMPOSE.read_text(encoding="utf-8")
    for line in text.splitlines():
        if re.search(r"(TOKEN|PASSWORD)\s*:", line) and not line.lstrip().startswith("#"):
            assert INTERPOLATED.search(line) or OPTIONAL.search(line), line
