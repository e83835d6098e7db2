"""bot.ui.card_images' card set: every face, at the sizes Telegram stickers and Discord emojis
need, within their byte limits, the same bytes every time (uploads happen once per
``SET_VERSION``, ``EMOJI_VERSION``)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.ui import card_images as images
from bot.ui.card_images import EMOJI_SIDE, STICKER_SIDE, Face, card_set, emoji_png, sticker_png
from engine import Card, Color, full_deck

ROOT = Path(__file__).resolve().parents[3]


def _img(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGBA")


def _near(px: tuple[int, ...], rgb: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(px[:3], rgb, strict=True))


@pytest.fixture(scope="module")
def rendered() -> dict[tuple[str, bool], tuple[bytes, bytes]]:
    return {
        (f.name, dim): (sticker_png(f, dim), emoji_png(f, dim))
        for f in card_set()
        for dim in (False, True)
    }


def test_the_set_holds_every_card_each_wild_in_each_colour_and_a_back() -> None:
    faces = card_set()
    distinct = set(full_deck())
    assert {f.card for f in faces if f.card is not None} == distinct
    assert len(distinct) == 54
    for code in ("W", "W4"):
        named = {f.color for f in faces if f.card == code}
        assert named == {None, *Color}
    assert [f for f in faces if f.card is None] == [Face(None)]
    assert len(faces) == 54 + 8 + 1
    names = [f.name for f in faces]
    assert len(set(names)) == len(names)
    # two looks of each: Discord's emoji names are 2-32 of [A-Za-z0-9_]
    for n in names:
        assert re.fullmatch(r"[a-z0-9]+", n), n
        for emoji in (f"uno_{n}", f"uno_{n}_d"):
            assert re.fullmatch(r"\w{2,32}", emoji), emoji


def test_a_coloured_card_names_no_colour() -> None:
    assert Face.of("R5", Color.BLUE) == Face(Card.parse("R5"))
    assert Face.of("W4", Color.RED).name == "w4r"


def test_sizes_and_byte_limits(rendered: dict[tuple[str, bool], tuple[bytes, bytes]]) -> None:
    for (name, dim), (sticker, emoji) in rendered.items():
        s, e = _img(sticker), _img(emoji)
        # Telegram: one side exactly 512 px, the other at most 512; a file of at most 512 KB
        assert s.height == STICKER_SIDE and s.width <= STICKER_SIDE, (name, s.size)
        assert len(sticker) <= 512 * 1000, name
        # Discord: 128 x 128, at most 256 KiB
        assert e.size == (EMOJI_SIDE, EMOJI_SIDE), (name, e.size)
        assert len(emoji) <= 256 * 1024, name
        # transparent around the card (any chat theme), opaque inside; the emoji fills
        # its square but for the rounded corners (tests/bot/ui/test_emoji_set.py)
        assert s.getpixel((0, 0))[3] == 0 and e.getpixel((0, 0))[3] == 0
        assert s.getpixel((s.width // 2, 3))[3] == 255, (name, dim)


def test_the_same_bytes_every_time(rendered: dict[tuple[str, bool], tuple[bytes, bytes]]) -> None:
    for f in card_set()[::7]:
        for dim in (False, True):
            assert (sticker_png(f, dim), emoji_png(f, dim)) == rendered[(f.name, dim)]
    # and the two looks differ, as do different cards
    assert rendered[("r5", False)] != rendered[("r5", True)]
    assert rendered[("r5", False)][0] != rendered[("r6", False)][0]


def test_a_wild_shows_the_colour_named_for_it() -> None:
    for code in ("W", "W4"):
        plain = _img(sticker_png(Face.of(code)))
        cx, cy = plain.width // 2, plain.height // 2
        spots = [(cx + dx, cy + dy) for dx, dy in ((60, -120), (60, 120), (-60, 120), (-60, -120))]
        found = {
            c
            for xy in spots
            for c, rgb in images.COLOR_RGB.items()
            if _near(plain.getpixel(xy), rgb)
        }
        assert found == set(Color), code
        for color in Color:
            img = _img(sticker_png(Face.of(code, color)))
            for xy in spots:
                assert _near(img.getpixel(xy), images.COLOR_RGB[color]), (code, color, xy)


def test_the_back_is_no_card() -> None:
    back = _img(sticker_png(Face(None)))
    faces = {sticker_png(f) for f in card_set() if f.card is not None}
    assert sticker_png(Face(None)) not in faces
    assert _near(
        back.getpixel((back.width // 2, back.height // 2 + 90)), images.COLOR_RGB[Color.RED]
    )


def test_the_contact_sheet_in_docs_is_the_set() -> None:
    """docs/cards.png (for review) is this version's set: ``make cards`` redraws it."""
    committed = _img((ROOT / "docs" / "cards.png").read_bytes())
    fresh = _img(images.contact_sheet())
    assert committed.size == fresh.size and committed.tobytes() == fresh.tobytes(), (
        "docs/cards.png is not this version's card set: run `make cards`"
    )
