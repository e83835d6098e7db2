"""The command line: ``uno-bot play``, ``simulate`` and ``run``, and the terminal table
played from a prompt (hot seat)."""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from adapters.terminal.table import KEY, TerminalOptions, play
from bot.cli import build_parser, main, parse_sets
from bot.store import SqliteStore, migrations
from bot.ui.i18n import translator
from tests.adapters.terminal.script import EOF, Answer, Script, Wait
from tests.adapters.terminal.script import run as run_table

ROOT = Path(__file__).resolve().parents[2]
UNO_BOT = Path(sys.executable).with_name("uno-bot")


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    stray = ("TELEGRAM_TOKEN", "DISCORD_TOKEN")  # the old compose names, named when set
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.upper().startswith("UNO_") and k.upper() not in stray
    }
    env.update({"UNO_DB": str(tmp_path / "default.sqlite3"), "UNO_LOG_LEVEL": "WARNING"})
    env.update(extra)
    return env


def uno_bot(
    tmp_path: Path, *args: str, timeout: float = 120, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(UNO_BOT), *args],
        cwd=tmp_path,  # no .env from the project
        env=clean_env(tmp_path, **env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# -- arguments ----------------------------------------------------------------------------------


def test_set_flags_are_parsed() -> None:
    assert parse_sets([]) == {}
    assert parse_sets(["stacking=any", " jump_in = true ", "target=0"]) == {
        "stacking": "any",
        "jump_in": "true",
        "target": "0",
    }
    assert parse_sets(["target=100", "target=200"]) == {"target": "200"}  # the last one wins
    assert parse_sets(["x=a=b"]) == {"x": "a=b"}
    for bad in (["stacking"], ["=any"], [" =1"]):
        with pytest.raises(SystemExit, match="FLAG=VALUE"):
            parse_sets(bad)


def test_play_options() -> None:
    argv = "play --players 5 --bots 3 --bot-strategy random --rules house --set stacking=any"
    argv += " --set jump_in=false --seed 9 --db x.db --delay 0.1 --lang zh_Hant --json"
    args = build_parser().parse_args(argv.split())
    assert (args.players, args.bots, args.bot_strategy, args.rules) == (5, 3, "random", "house")
    assert (args.set, args.seed, str(args.db), args.delay, args.lang, args.json) == (
        ["stacking=any", "jump_in=false"],
        9,
        "x.db",
        0.1,
        "zh_Hant",
        True,
    )
    assert build_parser().parse_args([]).command is None  # ``run`` is the default


BAD = [
    ("play --players 1", "--players"),
    ("play --players 11", "--players"),
    ("play --players 4 --bots 5", "--bots"),
    ("play --bots -1", "--bots"),
    ("play --set stacking", "FLAG=VALUE"),
    ("play --set stacking=sideways", "bad rules"),
    ("play --set no_such_flag=1", "bad rules"),
    ("play --set hand_size=16", "bad rules"),
    ("play --rules chaos", "bad rules"),
    ("play --delay -1", "--delay"),
    ("play --delay nan", "--delay"),
    ("play --lang fr", "--lang"),
    ("simulate --strategies smart,genius", "--strategies"),
    ("simulate --strategies ,", "--strategies"),
    ("simulate --games 0", "--games"),
    ("simulate --players 1", "--players"),
]


@pytest.mark.parametrize(("argv", "says"), BAD, ids=[a for a, _ in BAD])
def test_bad_flags_are_refused_with_a_message(
    argv: str, says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("UNO_DB", str(tmp_path / "never.db"))
    with pytest.raises(SystemExit) as err:
        main(
            [*argv.split(), "--db", str(tmp_path / "never.db")]
            if argv.startswith("play")
            else argv.split()
        )
    assert says in str(err.value.code)
    assert not (tmp_path / "never.db").exists()  # refused before anything was opened


@pytest.mark.parametrize("argv", ["play --bot-strategy genius", "play --players four", "fly"])
def test_argparse_refusals(argv: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as err:
        main(argv.split())
    assert err.value.code == 2
    assert "usage: uno-bot" in capsys.readouterr().err


# -- uno-bot play / simulate / run, as a user runs them --------------------------------------


def test_play_all_bots_with_json(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    res = uno_bot(tmp_path, "play", "--players", "4", "--bots", "4", "--json", "--db", str(db))
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    summary = json.loads(lines[-1])
    assert {"winner", "scores", "rounds", "actions", "resumed"} <= set(summary)
    assert summary["resumed"] is False and summary["status"] == "finished"
    assert summary["winner"] in summary["scores"] and len(summary["scores"]) == 4
    assert summary["rounds"] >= 1 and summary["actions"] > 20
    assert max(summary["scores"].values()) >= 500
    assert any("wins the game" in line for line in lines)
    assert all(line.startswith("#") for line in lines[:-1])  # each line a table update
    with sqlite3.connect(db) as c:
        n = c.execute("SELECT count(*) FROM actions WHERE table_key = ?", (KEY,)).fetchone()[0]
        status = c.execute("SELECT status FROM tables WHERE key = ?", (KEY,)).fetchone()[0]
    assert n == summary["actions"] and status == "finished"


def test_play_expert_seats_in_the_terminal(tmp_path: Path) -> None:
    """``--bot-strategy expert``: the terminal's bot seats search (in the worker process)."""
    db = tmp_path / "t.sqlite3"
    args = ["play", "--players", "2", "--bots", "2", "--bot-strategy", "expert", "--json"]
    res = uno_bot(tmp_path, *args, "--set", "target=0", "--set", "hand_size=4", "--db", str(db))
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout.splitlines()[-1])
    assert summary["status"] == "finished" and summary["rounds"] == 1
    with sqlite3.connect(db) as c:
        (bots,) = c.execute("SELECT seats FROM tables WHERE key = ?", (KEY,)).fetchone()
    assert bots.count('"expert"') == 2


def test_play_in_chinese_with_house_rules(tmp_path: Path) -> None:
    res = uno_bot(
        tmp_path,
        *["play", "--players", "3", "--bots", "3", "--rules", "party", "--set", "target=0"],
        *["--lang", "zh_Hant", "--seed", "4"],
        "--db",
        str(tmp_path / "zh.db"),
    )
    assert res.returncode == 0, res.stderr
    assert "贏" in res.stdout  # 贏得 / 贏下: Traditional characters


def test_simulate_prints_win_rates(tmp_path: Path) -> None:
    res = uno_bot(
        tmp_path,
        *["simulate", "--games", "60", "--players", "4", "--set", "target=0"],
        *["--strategies", "smart,random"],
    )
    assert res.returncode == 0, res.stderr
    head, *rows = res.stdout.splitlines()
    assert head.startswith("60 games, 4 players, rules official, seats smart random smart random")
    shares = {r.split()[0]: float(r.split()[4].rstrip("%")) for r in rows}
    assert set(shares) == {"smart", "random"}
    assert shares["smart"] + shares["random"] == pytest.approx(100, abs=0.2)
    assert shares["smart"] > 50
    assert all("fair share 50.0%" in r for r in rows)
    for r in rows:  # the 95 % (Wilson) interval around each share
        share = float(r.split()[4].rstrip("%"))
        lo, hi = (float(x.rstrip("%")) for x in r.split("interval ")[1].split()[:3:2])
        assert lo <= share <= hi and 0 < hi - lo < 30


def test_run_without_a_platform_exits_non_zero_with_one_line(tmp_path: Path) -> None:
    """Issue 19 item 20: in a container (no token, no terminal) ``run`` used to play a bot
    game and exit 0, an endless loop under ``restart: unless-stopped``. It says what is
    missing in one line and fails, and plays nothing."""
    (tmp_path / ".env").write_text("UNO_LOG_LEVEL=WARNING\n", encoding="utf-8")
    for args in (("run",), ()):  # ``run`` is the default command
        res = uno_bot(tmp_path, *args)
        assert res.returncode != 0
        assert res.stdout == ""
        (line,) = res.stderr.splitlines()
        assert "no platform configured" in line
        assert "UNO_TELEGRAM_TOKEN" in line and "UNO_DISCORD_TOKEN" in line
        assert "uno-bot play" in line  # where the terminal table is
    assert not (tmp_path / "default.sqlite3").exists()  # no game was played


def test_the_demo_without_a_token_and_without_a_terminal_plays_a_bot_game(
    tmp_path: Path,
) -> None:
    """``make run`` (``run --demo``) with no token is the newcomer's demo: without a
    terminal, four bots play a whole game."""
    res = uno_bot(tmp_path, "run", "--demo")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "No platform configured" in out and "UNO_TELEGRAM_TOKEN" in out
    assert "UNO_DISCORD_TOKEN" in out
    assert "wins the game" in out
    assert (tmp_path / "default.sqlite3").exists()  # UNO_DB was used


def test_make_run_is_the_demo() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "uno-bot run --demo" in recipe


@pytest.mark.parametrize("where", ["dotenv", "environment"])
@pytest.mark.parametrize("demo", [False, True])
def test_a_token_under_the_old_compose_name_is_named_not_ignored(
    tmp_path: Path, where: str, demo: bool
) -> None:
    """A ``.env`` written for the old compose.yaml (``TELEGRAM_TOKEN=...``) configures no
    platform: neither ``run`` nor ``make run``'s demo goes on as if no token had been
    meant (the demo used to open the terminal table); the line names the variable read."""
    secret = "123456:" + "s" * 30
    env = {}
    if where == "dotenv":
        (tmp_path / ".env").write_text(f"TELEGRAM_TOKEN={secret}\n", encoding="utf-8")
    else:
        env["TELEGRAM_TOKEN"] = secret
    res = uno_bot(tmp_path, "run", *(["--demo"] if demo else []), **env)
    assert res.returncode != 0
    assert "wins the game" not in res.stdout and "Your cards" not in res.stdout
    (line,) = res.stderr.splitlines()
    assert "TELEGRAM_TOKEN" in line and "UNO_TELEGRAM_TOKEN" in line
    assert ("in .env" in line) == (where == "dotenv")
    assert secret not in res.stderr + res.stdout
    assert not (tmp_path / "default.sqlite3").exists()


def test_run_on_a_terminal_seats_a_person_at_the_table(tmp_path: Path) -> None:
    """On a TTY, the demo without a token opens an interactive table: the person sees their
    cards and is asked for a move (here they quit; the table stays saved)."""
    # (not typed ahead: q quits at once, also while the bots play before the person)
    term = Terminal(tmp_path, "run", "--demo")
    term.until(r"Your cards.*Your move", timeout=30)
    term.type(b"q\r")
    assert term.end() == 0
    assert "No platform configured" in term.text
    with sqlite3.connect(tmp_path / "default.sqlite3") as c:
        status = c.execute("SELECT status FROM tables WHERE key = ?", (KEY,)).fetchone()[0]
    assert status == "playing"


def test_a_newer_database_is_refused_with_a_message(tmp_path: Path) -> None:
    db = tmp_path / "newer.db"
    with sqlite3.connect(db) as c:
        c.execute(f"PRAGMA user_version={len(migrations()) + 1}")
    res = uno_bot(tmp_path, "play", "--bots", "4", "--db", str(db))
    assert res.returncode == 1
    assert "newer than this program" in res.stderr and "Traceback" not in res.stderr


def test_play_logs_to_a_file_beside_the_database_not_into_the_game(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    for _ in range(2):  # a new database, then one with tables to restore
        res = uno_bot(
            tmp_path, "play", "--players", "3", "--bots", "3", "--db", str(db),
            UNO_LOG_LEVEL="INFO",
        )  # fmt: skip
        assert res.returncode == 0, res.stderr
        assert res.stderr == ""
        assert "wins the game" in res.stdout
        assert not re.search(r"\b(DEBUG|INFO|WARNING|ERROR) [\w.]+: ", res.stdout), res.stdout
    text = (tmp_path / "t.sqlite3.log").read_text(encoding="utf-8")
    assert "INFO bot.store.sqlite: database migrated to schema version" in text
    assert text.count("INFO bot.service: restored") == 2


def test_bad_configuration_is_refused_without_secrets(tmp_path: Path) -> None:
    secret = "123:very-secret-token"
    res = uno_bot(tmp_path, "play", UNO_TELEGRAM_TOKEN=secret, UNO_LOG_LEVEL="chatty")
    assert res.returncode == 1 and "bad configuration" in res.stderr
    assert secret not in res.stderr + res.stdout and "Traceback" not in res.stderr


# -- the terminal table from a prompt --------------------------------------------------------


def hot_seat(script: Script) -> Answer:
    """Plays the first listed move, presses Enter when asked to pass the keyboard."""
    if script.prompt is None or script.prompt.waiting:
        return Wait(1)
    if script.question.startswith("Pass the keyboard"):
        return ""
    return "1"


def options(db: Path, **kw: Any) -> TerminalOptions:
    base: dict[str, Any] = {
        "players": 3,
        "bots": 1,
        "db": db,
        "delay": 0.0,
        "seed": 3,
        "overrides": {"target": 0},
        "interactive": True,
        "round_pause": 0.0,
    }
    base.update(kw)
    return TerminalOptions(**base)


async def test_hot_seat_hides_each_hand_until_the_keyboard_is_passed(tmp_path: Path) -> None:
    seen: list[tuple[str, str, int]] = []  # (turn or pass, player, where on the screen)

    def choose(s: Script) -> Answer:
        if s.prompt is not None and s.question.startswith("Pass the keyboard"):
            seen.append(("pass", s.question.split(" to ")[1].split(" and")[0], len(s.screen)))
        elif s.prompt is not None and not s.prompt.waiting:
            current = re.findall(r"^▶ (Player \d):", s.screen, re.M)[-1]
            seen.append(("turn", current, len(s.screen)))
        return hot_seat(s)

    script = Script(choose)
    summary = await run_table(options(tmp_path / "hs.db"), script)
    assert summary["status"] == "finished" and summary["resumed"] is False
    text = script.screen
    turns = [(p, at) for kind, p, at in seen if kind == "turn"]
    passes = [(p, at) for kind, p, at in seen if kind == "pass"]
    switches = 0
    for (a, a_at), (b, b_at) in itertools.pairwise(turns):
        if a == b:
            continue
        switches += 1
        # between a's turn and b's, the keyboard was handed over, after a cleared screen
        handover = [at for p, at in passes if p == b and a_at < at <= b_at]
        assert len(handover) == 1, f"{b}'s hand was shown without passing the keyboard"
        at = handover[0]
        cleared = text.rfind("\n" * 60, a_at, at)
        assert cleared > a_at
        # and nothing private printed since (a hand, or cards drawn, even a's own)
        since = text[cleared:at]
        assert "🃏" not in since and not re.search(r"drew \d+ cards?: ", since), since
        # what a could still see holds a's hand only; b's comes after the hand-over
        assert text[a_at:at].count("🃏 Your cards") == 0
        assert text[at:b_at].count("🃏 Your cards") == 1
    assert switches >= 2


async def test_one_person_is_never_asked_to_pass_the_keyboard(tmp_path: Path) -> None:
    script = Script(hot_seat)
    summary = await run_table(options(tmp_path / "one.db", players=2, bots=1), script)
    assert summary["status"] == "finished"
    assert script.typed and "Pass the keyboard" not in script.screen


async def test_quitting_keeps_the_table_and_the_next_run_resumes_it(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    first = Script(lambda s: EOF if len(s.typed) >= 2 else hot_seat(s))
    summary = await run_table(options(db, players=2, bots=1), first)
    assert summary["status"] == "playing" and summary["resumed"] is False
    version = summary["version"]
    second = Script(hot_seat, first.clock)
    summary = await run_table(options(db, players=2, bots=1), second)
    assert summary["resumed"] is True and summary["status"] == "finished"
    assert summary["version"] > version
    assert "back where it was left" in second.screen
    store = SqliteStore(db)
    await store.open()
    try:
        assert [t.key for t in await store.load_open_tables()] == []
    finally:
        await store.close()


async def test_the_terminal_never_prints_what_a_bot_seat_is_told() -> None:
    from adapters.terminal.table import TerminalPort
    from bot.model import Seat
    from bot.port import Notice, TableInfo
    from engine import Rules

    out = Script(lambda s: EOF)
    port = TerminalPort(out, translator("en"), quiet_private=False)
    seats = (Seat("term:p1", "Ann"), Seat("bot:t:1", "Bot 1", "smart"))
    info = TableInfo(KEY, "term", 3, "playing", "term:p1", seats, (), Rules(), "official",
                     "en", None, {}, 1)  # fmt: skip
    await port.show_table(info, [])
    revealed = Notice("info.revealed", {"player": "term:p1", "cards": ["R5", "G7"]})
    await port.tell(KEY, "bot:t:1", revealed)  # a bot challenged Ann's +4
    port.answer("bot:t:1", (revealed,))  # (as a call's result)
    assert out.screen == ""
    port.answer("term:p1", (Notice("stale"),))  # a refused move's result
    assert "out of date" in out.screen
    quiet = Script(lambda s: EOF)
    port = TerminalPort(quiet, translator("en"), quiet_private=True)
    await port.tell(KEY, "term:p1", Notice("stale"))
    port.answer("term:p1", (Notice("stale"),))
    assert quiet.screen == ""


async def test_a_run_stopped_while_seating_starts_afresh(tmp_path: Path) -> None:
    """A lobby left by a run interrupted before the deal is not "resumed" (it would wait
    for its expiry): the next run opens a new table and plays it."""
    from bot.ops.config import Settings
    from bot.port import NullPort
    from bot.service import Service

    db = tmp_path / "t.sqlite3"
    store = SqliteStore(db)
    await store.open()
    svc = Service(store, NullPort(), Settings(_env_file=None, db=db))  # type: ignore[call-arg]
    await svc.start(run_timers=False)
    await svc.create(KEY, "term", "term:p1", "You")  # then the process stopped
    await svc.stop()
    await store.close()
    out = io.StringIO()
    opts = TerminalOptions(players=2, bots=2, db=db, delay=0, interactive=False)
    summary = await asyncio.wait_for(play(opts, out=out), 60)
    assert "wins the game" in out.getvalue()
    assert summary["status"] == "finished" and summary["winner"] is not None
    assert summary["resumed"] is False


def test_run_help_lists_every_environment_variable(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 19 item 22: ``uno-bot run --help`` names every variable the bot reads, from the
    configuration's own fields (a field added to ``Settings`` is listed without more)."""
    from bot.ops.config import Settings

    with pytest.raises(SystemExit) as exit_:
        main(["run", "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    listed = dict(re.findall(r"^  (UNO_[A-Z_]+)\s+(\S.*)$", text, re.M))
    assert list(listed) == [f"UNO_{name.upper()}" for name in Settings.model_fields]
    for name, field in Settings.model_fields.items():
        assert field.description, name  # each says what it is
        assert listed[f"UNO_{name.upper()}"].startswith(field.description.split()[0])
    assert "default data/uno.sqlite3" in text  # a default is shown...
    assert "**" not in text  # ... a secret's never (there is none to show)


# -- uno-bot play at a terminal, as a person plays it (issue 19 items 12, 14, 18, 19) ----------

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")


class Terminal:
    """``uno-bot`` on a pseudo-terminal of its own (its controlling terminal, so Ctrl-C is
    the terminal's), read as the screen fills and typed at as a person types."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        import fcntl
        import pty
        import struct
        import termios

        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 120, 0, 0))

        def controlling() -> None:
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        env = clean_env(tmp_path, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")
        self.proc = subprocess.Popen(
            [str(UNO_BOT), *args], cwd=tmp_path, env=env, stdin=slave, stdout=slave,
            stderr=slave, preexec_fn=controlling,  # noqa: PLW1509 (a test's child, no threads)
        )  # fmt: skip
        os.close(slave)
        self.master = master
        self.raw = b""

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def _read(self, timeout: float) -> str:
        """Read what is there within ``timeout``: ``data``, ``quiet`` (nothing came) or
        ``closed`` (the program ended: its side of the terminal is gone)."""
        import select

        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if not ready:
            return "quiet"
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            return "closed"
        self.raw += chunk
        return "data" if chunk else "closed"

    def until(self, pattern: str, *, after: int = 0, timeout: float = 10) -> int:
        """Read until ``pattern`` (a regex) shows at or after ``after``; where it ends."""
        end = time.monotonic() + timeout
        wanted = re.compile(pattern, re.S)
        state = "data"
        while state != "closed" and time.monotonic() < end:
            found = wanted.search(self.text, after)
            if found:
                return found.end()
            state = self._read(min(end - time.monotonic(), 0.2))
        found = wanted.search(self.text, after)
        assert found, f"no {pattern!r} on the screen:\n{self.text[after:][-3000:]}"
        return found.end()

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def end(self, timeout: float = 10) -> int:
        """Wait for the program to exit, reading the rest of the screen; its exit code."""
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self._read(0.1)
        while self._read(0.05) == "data":  # what it printed last
            pass
        os.close(self.master)
        try:
            return self.proc.wait(max(0.1, end - time.monotonic()))
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def play_args(tmp_path: Path, *more: str) -> list[str]:
    more = more or ("--delay", "0.05")
    return ["play", "--players", "3", "--db", str(tmp_path / "t.db"), "--seed", "4", *more]


def test_the_prompt_comes_back_after_a_timeout_with_nothing_typed(tmp_path: Path) -> None:
    term = Terminal(tmp_path, *play_args(tmp_path, "--set", "turn_seconds=1", "--delay", "0.1"))
    try:
        at = term.until(r"You ran out of time\.")
        at = term.until(r"▶ Your turn!.*?Your move \(\d+ s left\)", after=at)
        term.type(b"q\r")
        assert term.end() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_ctrl_c_exits_at_once_saying_the_game_is_saved(tmp_path: Path) -> None:
    term = Terminal(tmp_path, *play_args(tmp_path))
    term.until(r"Your move")
    started = time.monotonic()
    term.type(b"\x03")
    assert term.end() == 130
    assert time.monotonic() - started < 3
    text = term.text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert f"The game is saved. To go on with it, run: uno-bot play --db {tmp_path}/t.db" in text


@pytest.mark.parametrize("key", [b"q\r", b"\x04"], ids=["q", "ctrl-d"])
def test_q_and_ctrl_d_end_on_a_line_of_their_own_saying_saved(tmp_path: Path, key: bytes) -> None:
    term = Terminal(tmp_path, *play_args(tmp_path))
    term.until(r"Your move")
    term.type(key)
    assert term.end() == 0
    last = term.text.rstrip("\n").splitlines()[-1]
    assert last == f"The game is saved. To go on with it, run: uno-bot play --db {tmp_path}/t.db"
    assert term.text.endswith("\n")


def test_a_game_resumed_with_settings_and_lang_says_so_and_speaks_the_language(
    tmp_path: Path,
) -> None:
    term = Terminal(tmp_path, *play_args(tmp_path))
    term.until(r"Your move")
    term.type(b"q\r")
    assert term.end() == 0
    again = ("--lang", "zh_Hans", "--settings", "--delay", "0.05")
    term = Terminal(tmp_path, *play_args(tmp_path, *again))
    term.until(r"你的选择")
    term.type(b"q\r")
    assert term.end() == 0
    text = term.text
    assert "牌局已恢复到中断时的样子" in text
    assert f"要改开新局，请运行：uno-bot play --db {tmp_path}/t.db --new" in text
    assert "--settings 用于设置新牌局的规则" in text
    assert "机器人 1" in text and "Bot 1" not in text
