"""Display names as people choose them, made safe to print in a table message.

Every name a platform reports (a Telegram full name, a Discord display name) goes through
:func:`clean_name` once, where the service seats a player, so every platform, the table
message, the announcements and the statistics show the same clean text. What it does:

- NFC-normalises (never NFKC: a name styled in full-width or mathematical letters stays
  as its owner wrote it);
- turns line breaks, tabs and every other kind of space into a plain space, then collapses
  runs of spaces and strips the ends;
- removes what reorders or hides text: Unicode format characters (category Cf: the bidi
  embeddings, overrides and isolates U+202A-202E and U+2066-2069, LRM/RLM/ALM, zero-width
  space and (non-)joiners, word joiner, BOM, soft hyphen, invisible operators, tags...),
  the other control characters (Cc), surrogates (Cs), private-use (Co) and unassigned (Cn)
  code points, and the fillers that show as nothing but are letters or symbols to Unicode
  (Hangul fillers U+115F, U+1160, U+3164, U+FFA0; braille blank U+2800; combining grapheme
  joiner U+034F; Khmer inherent vowels U+17B4-17B5; Mongolian variation selectors
  U+180B-180F; object replacement U+FFFC);
- keeps emoji whole: a zero-width joiner stays only between two symbols (a family, a
  profession with a skin tone, a rainbow flag), an emoji variation selector only after a
  symbol or a keycap base, tag characters only in a flag's tag sequence (England, Scotland,
  Wales); anywhere else they go, so a joined emoji written with stray joiners falls apart
  into its parts rather than hiding text;
- allows at most :data:`MAX_MARKS` combining marks on one character (no "Zalgo" text
  spilling over the lines around it);
- caps the length at :data:`MAX_LENGTH` characters (a character with its marks, or a
  joined emoji, counts as one and is never cut), ending with "…" when cut.

A name that is nothing once cleaned (only invisible characters) becomes ``fallback``.
Markup (Markdown on Discord, HTML on Telegram) is each adapter's to escape: this is text.
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_LENGTH", "MAX_MARKS", "clean_name", "fallback_name"]

MAX_LENGTH = 32
MAX_MARKS = 4
ELLIPSIS = "…"

ZWJ = "\u200d"
VS15, VS16 = "\ufe0e", "\ufe0f"
KEYCAP = "\u20e3"
BLACK_FLAG = "\U0001f3f4"
TAG_END = "\U000e007f"
# letters and symbols to Unicode that show as nothing (people use them as blank names)
INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0\ufffc"
)
DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
SPACE_CATEGORIES = frozenset({"Zs", "Zl", "Zp"})
MARKS = frozenset({"Mn", "Me"})


def _is_space(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) in SPACE_CATEGORIES


def _symbol(ch: str) -> bool:
    """An emoji-like character: a symbol (So) or an emoji modifier (skin tone, Sk)."""
    return unicodedata.category(ch) in ("So", "Sk")


def _tags(text: str, i: int) -> int:
    """After a black flag at ``i - 1``: the end of a well-formed tag sequence starting at
    ``i`` (tag letters, then the cancel tag), or ``i`` when there is none."""
    j = i
    while j < len(text) and "\U000e0020" <= text[j] <= "\U000e007e":
        j += 1
    if j > i and j < len(text) and text[j] == TAG_END:
        return j + 1
    return i


def _filter(text: str) -> str:
    out: list[str] = []
    marks = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        i += 1
        if _is_space(ch):
            out.append(" ")
            marks = 0
            continue
        if ch == BLACK_FLAG:
            end = _tags(text, i)
            out.append(text[i - 1 : end])
            i = end
            marks = 0
            continue
        if ch == ZWJ:
            prev = out[-1][-1] if out else ""
            if prev == VS16 and len(out) > 1:
                prev = out[-2][-1]
            if prev and _symbol(prev) and i < n and _symbol(text[i]):
                out.append(ch)
            continue
        if ch in (VS15, VS16):
            prev = out[-1][-1] if out else ""
            if prev and (_symbol(prev) or prev in "0123456789#*"):
                out.append(ch)
            continue
        if ch in INVISIBLE:
            continue
        cat = unicodedata.category(ch)
        if cat in DROPPED_CATEGORIES:
            continue
        if cat in MARKS:
            if ch != KEYCAP and (not out or out[-1] == " "):
                continue  # a mark on nothing (the start, or a space)
            marks += 1
            if marks > MAX_MARKS:
                continue
            out.append(ch)
            continue
        marks = 0
        out.append(ch)
    return "".join(out)


def _clusters(text: str) -> list[str]:
    """``text`` cut into what a reader sees as characters: a character with its marks,
    variation selector and skin tone, and characters joined by a zero-width joiner."""
    out: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        attach = (
            cat in MARKS
            or ch in (VS15, VS16, ZWJ)
            or "\U0001f3fb" <= ch <= "\U0001f3ff"  # skin tones
            or "\U000e0020" <= ch <= "\U000e007f"  # a flag's tags
            or (bool(out) and out[-1].endswith(ZWJ))
        )
        if attach and out:
            out[-1] += ch
        else:
            out.append(ch)
    return out


def fallback_name(player: str) -> str:
    """The name of a player whose own name is empty once cleaned: ``#`` and the last four
    characters of their platform id (``tg:123456789`` -> ``#6789``), so two such players
    at one table still differ; ``?`` for an id with nothing to show."""
    tail = player.rpartition(":")[2][-4:]
    tail = _filter(unicodedata.normalize("NFC", tail)).strip()
    return f"#{tail}" if tail else "?"


def clean_name(text: object, fallback: str = "?") -> str:
    """``text`` as a safe display name (see the module's docstring); ``fallback`` when
    nothing visible is left (or ``text`` is not a string)."""
    if not isinstance(text, str):
        return fallback
    cleaned = " ".join(_filter(unicodedata.normalize("NFC", text)).split(" "))
    cleaned = " ".join(cleaned.split())
    if not cleaned:
        return fallback
    chars = _clusters(cleaned)
    if len(chars) > MAX_LENGTH:
        cleaned = "".join(chars[: MAX_LENGTH - 1]).rstrip() + ELLIPSIS
    return cleaned
