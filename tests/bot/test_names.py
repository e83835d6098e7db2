"""Issue 9 item 22: hostile display names. ``bot.names.clean_name`` per character class,
and the service seating every name through it (create, join, rejoin, bots, statistics)."""

from __future__ import annotations

import unicodedata

import pytest

from bot.names import MAX_LENGTH, MAX_MARKS, clean_name, fallback_name
from bot.port import RecordingPort
from bot.service import GLOBAL, Service
from bot.store import SqliteStore

BACKENDS = ("sqlite", "postgresql")

Env = tuple[Service, SqliteStore, RecordingPort]
KEY = "t:chat:1"

BIDI = [
    "\u202a",  # LRE
    "\u202b",  # RLE
    "\u202c",  # PDF
    "\u202d",  # LRO
    "\u202e",  # RLO
    "\u2066",  # LRI
    "\u2067",  # RLI
    "\u2068",  # FSI
    "\u2069",  # PDI
    "\u200e",  # LRM
    "\u200f",  # RLM
    "\u061c",  # ALM
]
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u2061", "\u180e"]
CONTROLS = ["\n", "\r", "\t", "\x0b", "\x0c", "\x00", "\x07", "\x1b", "\x7f", "\x85", "\x9b"]
SPACES = ["\u00a0", "\u2002", "\u2003", "\u2009", "\u200a", "\u3000", "\u2028", "\u2029"]
FILLERS = ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u034f", "\u17b4", "\ufffc"]
OTHER = ["\ue000", "\U000f0000", "\ud800", "\U000e0041", "\U000e007f", "\U0010fffe"]


@pytest.mark.parametrize("ch", BIDI, ids=[f"U+{ord(c):04X}" for c in BIDI])
def test_bidi_controls_are_removed(ch: str) -> None:
    assert clean_name(f"{ch}ecilA") == "ecilA"
    assert clean_name(f"Al{ch}ice{ch}") == "Alice"
    # the tester's case: an override before the name, " won" after it
    assert ch not in clean_name(f"{ch}ecilA") + " won"


@pytest.mark.parametrize("ch", ZERO_WIDTH, ids=[f"U+{ord(c):04X}" for c in ZERO_WIDTH])
def test_zero_width_and_format_characters_are_removed(ch: str) -> None:
    assert unicodedata.category(ch) == "Cf"
    assert clean_name(f"A{ch}l{ch}i{ch}c{ch}e") == "Alice"
    assert clean_name(ch * 5) == "?"


@pytest.mark.parametrize("ch", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_control_characters_and_line_breaks_never_pass(ch: str) -> None:
    cleaned = clean_name(f"Ann{ch}Admin")
    assert cleaned in ("Ann Admin", "AnnAdmin")
    assert ch not in cleaned and "\n" not in cleaned


def test_line_breaks_and_tabs_become_one_space() -> None:
    assert clean_name("Ann\n\nthe bot says: you lost") == "Ann the bot says: you lost"
    assert clean_name("\tAnn\r\n") == "Ann"


@pytest.mark.parametrize("ch", SPACES, ids=[f"U+{ord(c):04X}" for c in SPACES])
def test_every_kind_of_space_collapses_to_one(ch: str) -> None:
    assert clean_name(f"{ch}Ann{ch}{ch}{ch}Lee{ch}") == "Ann Lee"


@pytest.mark.parametrize("ch", FILLERS, ids=[f"U+{ord(c):04X}" for c in FILLERS])
def test_invisible_fillers_are_removed(ch: str) -> None:
    assert clean_name(ch) == "?"
    assert clean_name(f"{ch}Bo{ch}b{ch}") == "Bob"


@pytest.mark.parametrize("ch", OTHER, ids=[f"U+{ord(c):04X}" for c in OTHER])
def test_private_unassigned_surrogate_and_tag_code_points_are_removed(ch: str) -> None:
    assert clean_name(f"Eve{ch}") == "Eve"


def test_over_long_names_are_cut_with_an_ellipsis() -> None:
    long = "Bartholomew " * 10
    cleaned = clean_name(long)
    assert len(cleaned) == MAX_LENGTH and cleaned.endswith("…")
    assert cleaned.startswith("Bartholomew Bartholomew")
    assert clean_name("x" * MAX_LENGTH) == "x" * MAX_LENGTH  # exactly the cap: not cut
    assert clean_name("好" * 100) == "好" * (MAX_LENGTH - 1) + "…"
    # a cut never leaves a space before the ellipsis, nor splits a joined emoji
    assert clean_name("a" * (MAX_LENGTH - 2) + " bcdef") == "a" * (MAX_LENGTH - 2) + "…"
    family = "👨\u200d👩\u200d👧"
    cut = clean_name(family * 40)
    assert cut == family * (MAX_LENGTH - 1) + "…"


def test_stacked_combining_marks_are_capped() -> None:
    zalgo = "Z" + "\u0336\u0337\u0338\u0339\u033a\u033b\u033c" * 10 + "oe"
    cleaned = clean_name(zalgo)
    assert cleaned.startswith("Z") and cleaned.endswith("oe")
    assert len(cleaned) == 3 + MAX_MARKS
    assert clean_name("José") == "José" and clean_name("Jose\u0301") == "José"  # NFC
    assert clean_name("\u0301\u0301Ann") == "Ann"  # marks on nothing


def test_emoji_and_scripts_are_kept() -> None:
    for name in (
        "李小龙",
        "محمد",
        "שלום",
        "Ｆｕｌｌ",  # full-width letters stay as written
        "𝐁𝐨𝐥𝐝",
        "Zoë 🎉",
        "👨\u200d👩\u200d👧 family",  # a ZWJ sequence between emoji is kept
        "👩🏽\u200d💻",
        "🏳\ufe0f\u200d🌈",
        "❤\ufe0f\u200d🔥",
        "1\ufe0f\u20e3",  # a keycap
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland's flag
        "नमस्ते",  # Devanagari: joiners of its own are marks, kept
    ):
        assert clean_name(name) == unicodedata.normalize("NFC", name), name


def test_a_zero_width_joiner_outside_an_emoji_sequence_goes() -> None:
    assert clean_name("A\u200dB") == "AB"
    assert clean_name("👨\u200dB") == "👨B"
    assert clean_name("\u200d👨") == "👨"
    assert clean_name("\ufe0fA") == "A"  # a variation selector on nothing


def test_markdown_is_text_here() -> None:
    """Markup is each adapter's to escape: the name keeps its characters."""
    assert clean_name("**Boss** [x](https://e/y)") == "**Boss** [x](https://e/y)"


def test_nothing_left_gives_the_fallback() -> None:
    assert clean_name("") == "?"
    assert clean_name("   ") == "?"
    assert clean_name("\u202e\u200b\u3164", "#1234") == "#1234"
    assert clean_name(None) == "?"
    assert fallback_name("tg:123456789") == "#6789"
    assert fallback_name("dc:42") == "#42"
    assert fallback_name("weird:") == "?"
    assert fallback_name("tg:\u202e\u202e") == "?"


# -- the service seats every name cleaned -------------------------------------------------------

HOSTILE = {
    "bidi": ("\u202eecilA", "ecilA"),
    "zero_width": ("B\u200bo\u200db\ufeff", "Bob"),
    "control": ("Cy\nthe bot: Cy wins!", "Cy the bot: Cy wins!"),
    "long": ("D" * 200, "D" * (MAX_LENGTH - 1) + "…"),
    "empty": ("\u3164\u200b", "#u9"),  # nothing visible: # and the id's end
}


async def test_every_name_the_service_seats_is_clean(env: Env) -> None:
    svc, store, _ = env
    assert (await svc.create(KEY, "chat", "u1", "\u2067Host\u2069\n")).ok
    for i, (raw, _) in enumerate(HOSTILE.values(), 5):
        assert (await svc.join(KEY, f"u{i}", raw)).ok
    assert (await svc.add_bot(KEY, "u1", "smart")).ok
    info = await svc.table(KEY)
    assert info is not None
    names = info.names
    assert names["u1"] == "Host"
    for i, (_, clean) in enumerate(HOSTILE.values(), 5):
        assert names[f"u{i}"] == clean
    assert any(s.bot for s in info.seats) and "Bot 1" in names.values()
    # stored as cleaned: a restart reads the same names
    t = await store.get_table(KEY)
    assert t is not None and t.names == names


async def test_a_name_refreshed_on_rejoin_is_cleaned_too(env: Env) -> None:
    svc, _, _ = env
    assert (await svc.create(KEY, "chat", "u1", "Ann")).ok
    assert (await svc.join(KEY, "u2", "Bob")).ok
    assert (await svc.leave(KEY, "u2")).ok
    assert (await svc.join(KEY, "u2", "\u202eboB\u200b")).ok
    info = await svc.table(KEY)
    assert info is not None and info.names["u2"] == "boB"


async def test_statistics_keep_the_clean_name(env: Env) -> None:
    from engine import Leave

    svc, store, _ = env
    assert (await svc.create(KEY, "chat", "u1", "\u202eecilA")).ok
    assert (await svc.join(KEY, "u2", "Bob")).ok
    assert (await svc.start_game(KEY, "u1")).ok
    assert (await svc.act(KEY, "u2", Leave())).ok  # u1 wins the game
    for scope in ("chat", GLOBAL):
        line = await store.player_stats(scope, "u1")
        assert line is not None and line.name == "ecilA"
