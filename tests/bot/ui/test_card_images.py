"""bot.ui.card_images: a hand as a PNG, UNO-style, deterministic, small and quick."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.ui import card_images as images
from bot.ui.card_images import CARD_H, CARD_W, GAP, MARGIN, PER_ROW, hand_png, hand_size
from engine import Card, Color, full_deck

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SEVEN = [Card.parse(c) for c in ("R0", "R7", "YS", "GR", "BD2", "W", "W4")]


def _decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_MAGIC)
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img.convert("RGBA")


def _card_pixel(img: Image.Image, index: int, dx: int, dy: int) -> tuple[int, int, int, int]:
    """A pixel of the ``index``-th card, ``(dx, dy)`` from its top-left corner."""
    row, col = divmod(index, PER_ROW)
    x = MARGIN + col * (CARD_W + GAP) + dx
    y = MARGIN + row * (CARD_H + GAP) + dy
    px = img.getpixel((x, y))
    assert isinstance(px, tuple)
    return px  # type: ignore[return-value]


def _near(px: tuple[int, ...], rgb: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(px[:3], rgb, strict=True))


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    images._hand_png.cache_clear()


def test_a_hand_is_a_png_pillow_decodes_with_the_size_it_says() -> None:
    img = _decode(hand_png(SEVEN))
    assert img.size == hand_size(7)
    assert img.size == (2 * MARGIN + 7 * CARD_W + 6 * GAP, 2 * MARGIN + CARD_H)


def test_rows_wrap_and_the_picture_grows_with_them() -> None:
    deck = sorted(full_deck(), key=lambda c: c.order)
    sizes = [_decode(hand_png(deck[:n])).size for n in (1, PER_ROW, PER_ROW + 1, 40)]
    widths, heights = zip(*sizes, strict=True)
    assert widths[1] == widths[2] == widths[3] > widths[0]  # at most PER_ROW a row
    assert heights[0] == heights[1] < heights[2] < heights[3]
    assert sizes[3] == hand_size(40) and hand_size(40)[1] == 2 * MARGIN + 4 * CARD_H + 3 * GAP


def test_the_same_hand_gives_the_same_bytes() -> None:
    first = hand_png(SEVEN, playable={SEVEN[0]})
    images._hand_png.cache_clear()
    images._face.cache_clear()
    assert hand_png(list(SEVEN), playable=[SEVEN[0]]) == first
    assert hand_png(SEVEN) != first
    assert hand_png(SEVEN[::-1]) != hand_png(SEVEN)  # the order given is kept


def test_codes_are_cards() -> None:
    assert hand_png(["R0", "R7"]) == hand_png(SEVEN[:2])


def test_a_red_card_is_red() -> None:
    img = _decode(hand_png([Card.parse("R5")]))
    border = _card_pixel(img, 0, 5, CARD_H // 2)  # the coloured frame beside the oval
    r, g, b, a = border
    assert a == 255 and r > 170 and g < 90 and b < 90, border
    assert _near(_card_pixel(img, 0, CARD_W // 2, 6), images.COLOR_RGB[Color.RED])
    # the rim is white, the corners outside the rounded rectangle transparent
    assert _near(_card_pixel(img, 0, CARD_W // 2, 1), (255, 255, 255))
    assert _card_pixel(img, 0, 0, 0)[3] < 128


def test_a_wild_shows_the_four_colours() -> None:
    for code in ("W", "W4"):
        img = _decode(hand_png([Card.parse(code)]))
        cx, cy = CARD_W // 2, CARD_H // 2
        quadrants = [
            _card_pixel(img, 0, cx + dx, cy + dy)
            for dx, dy in ((12, -22), (12, 22), (-12, 22), (-12, -22))
        ]
        found = set()
        for px in quadrants:
            match = [c for c, rgb in images.COLOR_RGB.items() if _near(px, rgb)]
            assert len(match) == 1, (code, px)
            found.add(match[0])
        assert len(found) == 4, code


def test_marking_playable_cards_dims_the_others() -> None:
    hand = [Card.parse("R5"), Card.parse("B5")]
    plain = hand_png(hand)
    marked = hand_png(hand, playable={hand[0]})
    assert marked != plain
    assert hand_png(hand, playable=set(hand)) == plain  # all playable: nothing dimmed
    img_plain, img_marked = _decode(plain), _decode(marked)
    # the playable card is as it was; the other is washed out (less saturated)
    at = (5, CARD_H // 2)
    assert _card_pixel(img_marked, 0, *at) == _card_pixel(img_plain, 0, *at)
    r, g, b, _ = _card_pixel(img_plain, 1, *at)
    r2, g2, b2, _ = _card_pixel(img_marked, 1, *at)
    assert max(r2, g2, b2) - min(r2, g2, b2) < (max(r, g, b) - min(r, g, b)) / 2


def test_every_card_of_a_whole_deck_renders() -> None:
    deck = sorted(full_deck(), key=lambda c: c.order)
    assert len(deck) == 108
    img = _decode(hand_png(deck, playable=set(deck[::3])))
    assert img.size == hand_size(108)
    assert img.size[1] == 2 * MARGIN + 11 * CARD_H + 10 * GAP
    assert _decode(hand_png([])).size == hand_size(0)  # no cards: still a picture


def test_small_and_cached() -> None:
    """Small files; a hand drawn again is served from the cache (speed itself is measured
    by bench/discord.py, not here)."""
    deck = sorted(full_deck(), key=lambda c: c.order)
    hand7 = deck[::15][:7]
    hand40 = deck[::2][:40]
    data = hand_png(hand7, playable=set(hand7[:3]))
    assert len(data) < 60_000
    assert len(hand_png(hand40)) < 150_000
    before = images._hand_png.cache_info().hits
    for _ in range(100):  # hands repeat: the cache answers
        assert hand_png(hand7, playable=set(hand7[:3])) == data
    assert images._hand_png.cache_info().hits == before + 100
