"""Discord's card emojis, drawn for the square (issue 19 item 3): Discord shows an emoji at
22 px on a button and in a line of text, so the face fills the square and its symbol fills
the face. Each picture is decoded and measured: as uploaded (128 px) and as Discord shows it
(scaled to 22 px)."""

from __future__ import annotations

import io
import itertools
from functools import cache

import pytest
from PIL import Image, ImageStat

from bot.ui import card_images as images
from bot.ui.card_images import EMOJI_SIDE, Face, card_set, emoji_png
from engine import Color

SHOWN = 22  # px: an emoji on a button or in a line of text
FACES = {f.name: f for f in card_set()}
RANKS = [str(n) for n in range(10)] + ["s", "r", "d2"]  # each colour's 13 faces


@cache
def png(name: str, dim: bool = False) -> bytes:
    return emoji_png(FACES[name], dim)


@cache
def emoji(name: str, dim: bool = False) -> Image.Image:
    data = png(name, dim)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img.convert("RGBA")


@cache
def shown(name: str, dim: bool = False) -> Image.Image:
    """The emoji as Discord shows it on a button: 22 px."""
    return emoji(name, dim).resize((SHOWN, SHOWN), Image.Resampling.LANCZOS)


def symbol(name: str, dim: bool = False) -> frozenset[tuple[int, int]]:
    """The pixels of the symbol at 22 px: the near-white ones inside the face's rim (a
    coloured card's rim is white too; a symbol is white on every face but the back)."""
    img = shown(name, dim)
    px = img.load()
    assert px is not None
    light = 150 if dim else 200
    return frozenset(
        (x, y)
        for y in range(2, SHOWN - 2)
        for x in range(2, SHOWN - 2)
        if min(px[x, y][:3]) >= light  # type: ignore[index]
    )


def test_each_is_a_square_png_discord_takes() -> None:
    """Discord: an emoji of at most 256 KiB, shown from a 128 x 128 picture."""
    for name in FACES:
        for dim in (False, True):
            assert len(png(name, dim)) <= 256 * 1024, name
            img = emoji(name, dim)
            assert img.size == (EMOJI_SIDE, EMOJI_SIDE) == (128, 128), name


def test_the_face_fills_the_square() -> None:
    """No card standing in the middle of the square: the picture's opaque part reaches every
    side (its bounding box at least 90 % of each), and is nearly all of it (the rounded
    corners aside)."""
    for name in FACES:
        for dim in (False, True):
            img = emoji(name, dim)
            alpha = img.getchannel("A")
            box = alpha.getbbox()
            assert box is not None
            assert box[2] - box[0] >= 0.9 * EMOJI_SIDE, (name, box)
            assert box[3] - box[1] >= 0.9 * EMOJI_SIDE, (name, box)
            opaque = alpha.point(lambda a: 255 if a == 255 else 0).histogram()[255]
            assert opaque >= 0.9 * EMOJI_SIDE**2, (name, opaque)
            # the corners are round (and transparent), as a card's
            assert alpha.getpixel((0, 0)) == 0 and alpha.getpixel((EMOJI_SIDE - 1, 0)) == 0


def test_every_picture_is_its_own() -> None:
    pictures = [png(name, dim) for name in FACES for dim in (False, True)]
    assert pictures[0] == emoji_png(card_set()[0])  # the same bytes every time
    assert len(set(pictures)) == len(pictures) == 126


@pytest.mark.parametrize("color", ["r", "y", "g", "b"])
def test_at_22_px_each_symbol_is_large_and_tells_the_cards_apart(color: str) -> None:
    """As Discord shows them (22 px), the symbol of each of a colour's 13 cards (0-9,
    Skip, Reverse, +2) covers most of the face's height and differs from every other's by
    a dozen pixels at least: 6 from 9, Skip from Reverse from +2, 3 from 8."""
    marks = {rank: symbol(color + rank) for rank in RANKS}
    for rank, mark in marks.items():
        assert len(mark) >= 40, (rank, len(mark))
        ys = [y for _, y in mark]
        assert max(ys) - min(ys) + 1 >= 0.45 * SHOWN, (rank, min(ys), max(ys))
    for a, b in itertools.combinations(RANKS, 2):
        assert len(marks[a] ^ marks[b]) >= 12, (color + a, color + b)
    # the dimmed look keeps its symbol (a card that cannot be played is still read)
    for rank in ("s", "r", "d2", "6", "9"):
        assert len(symbol(color + rank, dim=True) ^ marks[rank]) <= len(marks[rank]) // 3


def test_at_22_px_the_wilds_and_the_back_are_told_apart() -> None:
    """W and +4 differ at 22 px, in the four colours and in each one named; the back has
    no white symbol but UNO in yellow across it."""
    for named in (None, *Color):
        w = "w" + (named.value.lower() if named else "")
        w4 = "w4" + (named.value.lower() if named else "")
        assert len(symbol(w)) >= 40 and len(symbol(w4)) >= 40
        assert len(symbol(w) ^ symbol(w4)) >= 12, named
    back = shown("back")
    px = back.load()
    assert px is not None
    yellow = images.COLOR_RGB[Color.YELLOW]
    letters = [
        (x, y)
        for y in range(SHOWN)
        for x in range(SHOWN)
        if all(abs(c - t) <= 60 for c, t in zip(px[x, y][:3], yellow, strict=True))  # type: ignore[index]
    ]
    xs = [x for x, _ in letters]
    assert len(letters) >= 20 and max(xs) - min(xs) + 1 >= 0.7 * SHOWN
    assert symbol("back") == frozenset()


def test_the_colours_fill_the_face() -> None:
    """Inside the rim, the face is the card's colour; a wild's the four colours, a quadrant
    each, or the one named for it."""
    inside = [
        (20, 20),
        (EMOJI_SIDE - 21, 20),
        (EMOJI_SIDE - 21, EMOJI_SIDE - 21),
        (20, EMOJI_SIDE - 21),
    ]

    def near(px: tuple[int, ...], rgb: tuple[int, int, int]) -> bool:
        return all(abs(a - b) <= 30 for a, b in zip(px[:3], rgb, strict=True))

    for color in Color:
        rgb = images.COLOR_RGB[color]
        for rank in RANKS:
            img = emoji(color.value.lower() + rank)
            assert all(near(img.getpixel(xy), rgb) for xy in inside), (color, rank)  # type: ignore[arg-type]
        for wild in ("w", "w4"):
            img = emoji(wild + color.value.lower())
            assert all(near(img.getpixel(xy), rgb) for xy in inside), (wild, color)  # type: ignore[arg-type]
    for wild in ("w", "w4"):
        img = emoji(wild)
        found = {
            c
            for xy in inside
            for c, rgb in images.COLOR_RGB.items()
            if near(img.getpixel(xy), rgb)  # type: ignore[arg-type]
        }
        assert found == set(Color), wild


def test_dimmed_is_greyer() -> None:
    def saturation(img: Image.Image) -> float:
        return float(ImageStat.Stat(img.convert("RGB").convert("HSV").getchannel("S")).mean[0])

    for name in ("r5", "ys", "gr", "bd2", "w", "w4b"):
        assert saturation(emoji(name, dim=True)) < 0.75 * saturation(emoji(name)), name


def test_the_stickers_are_drawn_as_before() -> None:
    """The emoji is its own drawing: a sticker is still the card standing upright."""
    sticker = Image.open(io.BytesIO(images.sticker_png(Face.of("R5"))))
    assert sticker.height == images.STICKER_SIDE and sticker.width < sticker.height
