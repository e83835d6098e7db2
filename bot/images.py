"""A hand of cards as a picture (PNG), for the platforms that can show one.

:func:`hand_png` is a pure function of its arguments: the same cards (in the order given)
and the same playable marking give the same bytes. Each card face is drawn once per
process (supersampled, then scaled down for smooth edges) and kept; a hand is those faces
pasted in rows of at most :data:`PER_ROW`, and recent hands are kept too (hands repeat:
every redraw of a waiting player's hand message is the same picture).

The picture holds no words: digits, ``+2``/``+4`` and drawn symbols only, in Pillow's
built-in font (``ImageFont.load_default(size=...)``, Pillow 10.1 or later), so it needs no
translation and no font file.
"""

from __future__ import annotations

import io
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine import Card, Color, Rank, full_deck

__all__ = [
    "CARD_H",
    "CARD_W",
    "EMOJI_SIDE",
    "GAP",
    "MARGIN",
    "PER_ROW",
    "SET_VERSION",
    "STICKER_SIDE",
    "Face",
    "card_set",
    "contact_sheet",
    "emoji_png",
    "hand_png",
    "hand_size",
    "sticker_png",
]

CARD_W, CARD_H = 56, 84  # one card, in pixels
GAP = 6  # between cards and rows
MARGIN = 6  # around the hand
PER_ROW = 10  # cards per row at most
_SCALE = 3  # faces are drawn this much larger, then scaled down (smooth edges)
_CACHE = 64  # hands kept
_COLORS = 128  # palette size of the PNG

COLOR_RGB: dict[Color, tuple[int, int, int]] = {
    Color.RED: (215, 38, 36),
    Color.YELLOW: (236, 190, 18),
    Color.GREEN: (56, 158, 60),
    Color.BLUE: (22, 100, 196),
}
_BLACK = (24, 24, 24)
_WHITE = (255, 255, 255)
_INK = (24, 24, 24, 255)
_DIM = (120, 120, 120)  # unplayable cards are washed towards this grey
_DIM_ALPHA = 0.62  # ... this much
_WILD_ORDER = (Color.RED, Color.BLUE, Color.YELLOW, Color.GREEN)  # quadrants, clockwise


def hand_size(count: int) -> tuple[int, int]:
    """The picture's size in pixels for ``count`` cards."""
    count = max(count, 1)
    cols = min(count, PER_ROW)
    rows = (count + PER_ROW - 1) // PER_ROW
    return (
        2 * MARGIN + cols * CARD_W + (cols - 1) * GAP,
        2 * MARGIN + rows * CARD_H + (rows - 1) * GAP,
    )


def hand_png(cards: Sequence[Card], playable: Collection[Card] | None = None) -> bytes:
    """The hand as PNG bytes, cards in the order given, at most :data:`PER_ROW` a row.

    ``playable``: the cards that can be played now; the others are dimmed. ``None`` marks
    nothing (every card at full colour), as when it is not the player's turn.
    """
    hand = tuple(Card.parse(c) for c in cards)
    marks = None if playable is None else tuple(c in playable for c in hand)
    return _hand_png(hand, marks)


@lru_cache(maxsize=_CACHE)
def _hand_png(hand: tuple[Card, ...], marks: tuple[bool, ...] | None) -> bytes:
    img = Image.new("RGBA", hand_size(len(hand)), (0, 0, 0, 0))  # transparent: any theme
    for i, card in enumerate(hand):
        row, col = divmod(i, PER_ROW)
        dim = marks is not None and not marks[i]
        face = _face(card, dim)
        img.paste(face, (MARGIN + col * (CARD_W + GAP), MARGIN + row * (CARD_H + GAP)), face)
    # a palette of 128 colours (flat faces, smooth edges) makes the file about a fifth of
    # full colour's size, and is quicker to compress
    small = img.quantize(_COLORS, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=6)
    return out.getvalue()


# -- the card set: every face at the sizes the platforms want ------------------------------

# Bumped whenever a face's drawing changes: what was uploaded of an older set (Telegram
# stickers, Discord emojis) is then uploaded again, once.
SET_VERSION = 1
STICKER_SIDE = 512  # Telegram: a static sticker is 512 px on its long side (PNG or WEBP)
EMOJI_SIDE = 128  # Discord: emojis are shown from a 128 x 128 picture, at most 256 KiB
_MASTER = 8  # the set is drawn this much larger than the design size, then scaled down


@dataclass(frozen=True, slots=True)
class Face:
    """One picture of the set: a card (``None``: the back of a card) and, for a wild, the
    colour named for it (``None``: not named, the four colours)."""

    card: Card | None
    color: Color | None = None

    @property
    def name(self) -> str:
        """A short name, unique in the set: ``r5``, ``bd2``, ``w4``, ``w4r``, ``back``
        (lower case letters and digits: fits Discord's emoji names and Telegram's
        sticker emoji lookups)."""
        if self.card is None:
            return "back"
        base = self.card.code.lower()
        return base + (self.color.value.lower() if self.color is not None else "")

    @classmethod
    def of(cls, card: Card | str, color: Color | None = None) -> Face:
        """The face showing ``card`` (a wild in the colour named, if any)."""
        c = Card.parse(card) if isinstance(card, str) else card
        return cls(c, color if c.color is None else None)


def card_set() -> list[Face]:
    """Every face of the set, in deck order: each coloured card once, each wild plain and
    in each of the four colours, then the back (63 faces)."""
    out: list[Face] = []
    seen: set[Card] = set()
    for card in sorted(full_deck(), key=lambda c: c.order):
        if card in seen:
            continue
        seen.add(card)
        out.append(Face(card))
        if card.color is None:
            out.extend(Face(card, c) for c in Color)
    out.append(Face(None))
    return out


def sticker_png(face: Face, dim: bool = False) -> bytes:
    """``face`` as a Telegram sticker: PNG, 512 px high, transparent corners."""
    return _png(_master(face, dim, STICKER_SIDE))


def emoji_png(face: Face, dim: bool = False) -> bytes:
    """``face`` as a Discord emoji: a 128 x 128 PNG, the card centred on transparency."""
    card = _master(face, dim, EMOJI_SIDE)
    img = Image.new("RGBA", (EMOJI_SIDE, EMOJI_SIDE), (0, 0, 0, 0))
    img.paste(card, ((EMOJI_SIDE - card.width) // 2, 0), card)
    return _png(img)


def contact_sheet(columns: int = 14, height: int = 168) -> bytes:
    """The whole set, each face playable and dimmed below it, as one PNG (for review)."""
    faces = card_set()
    w = max(1, round(height * CARD_W / CARD_H))
    rows = (len(faces) + columns - 1) // columns
    sheet = Image.new(
        "RGBA",
        (MARGIN + columns * (w + GAP), MARGIN + rows * (2 * height + 3 * GAP)),
        (250, 250, 250, 255),
    )
    for i, face in enumerate(faces):
        row, col = divmod(i, columns)
        x = MARGIN + col * (w + GAP)
        y = MARGIN + row * (2 * height + 3 * GAP)
        for k, dim in enumerate((False, True)):
            img = _master(face, dim, height)
            sheet.paste(img, (x, y + k * (height + GAP)), img)
    return _png(sheet.quantize(256, method=Image.Quantize.FASTOCTREE))  # a small file


def _master(face: Face, dim: bool, height: int) -> Image.Image:
    return _render(face, height, dim, _MASTER)


def _png(img: Image.Image) -> bytes:
    """Deterministic PNG bytes: no timestamps or other metadata, fixed settings (level 3:
    a tenth larger than 6, in a sixth of the time; far below every platform's limit)."""
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()


# -- card faces -----------------------------------------------------------------------------


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


@cache
def _face(card: Card, dim: bool) -> Image.Image:
    """One card at the hand's size (RGBA), dimmed or not; drawn once per process."""
    return _render(Face(card), CARD_H, dim, _SCALE)


def _render(face: Face, height: int, dim: bool, s: int) -> Image.Image:
    """``face`` drawn ``s`` times larger than the design size (56 x 84), then scaled down to
    ``height`` pixels high (smooth edges at every size); dimmed: washed towards grey."""
    big = _big(face, s)
    width = max(1, round(height * CARD_W / CARD_H))
    small = big.resize((width, height), Image.Resampling.LANCZOS)
    if dim:
        r, g, b, a = small.split()
        grey = Image.new("RGB", small.size, _DIM)
        rgb = Image.blend(Image.merge("RGB", (r, g, b)), grey, _DIM_ALPHA)
        small = Image.merge("RGBA", (*rgb.split(), a))
    return small


def _big(face: Face, s: int) -> Image.Image:
    """``face`` drawn at ``s`` times the design size (a few ms; not kept: the large
    pictures are made once per set version, for uploading, and would only fill memory)."""
    w, h = CARD_W * s, CARD_H * s
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    radius = 7 * s
    border = 3 * s
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=_WHITE)
    inner = (border, border, w - 1 - border, h - 1 - border)
    card = face.card
    fill = _BLACK if card is None or card.color is None else COLOR_RGB[card.color]
    d.rounded_rectangle(inner, radius=radius - border, fill=fill)
    cx, cy = w / 2, h / 2
    # the oval in the middle: white for a coloured card, the four colours for a wild (the
    # colour named, once it is)
    oval = (cx - 21 * s, cy - 32 * s, cx + 21 * s, cy + 32 * s)
    if card is None:
        _back(big, d, (cx, cy), s)
    elif card.color is None:
        if face.color is None:
            for k, c in enumerate(_WILD_ORDER):
                d.pieslice(oval, -90 + 90 * k, 90 * k, fill=COLOR_RGB[c])
        else:
            d.ellipse(oval, fill=COLOR_RGB[face.color])
        d.ellipse(oval, outline=_WHITE, width=2 * s)
        if card.rank is Rank.WILD_DRAW_FOUR:
            _text(d, (cx, cy), "+4", 26 * s, _WHITE, stroke=2 * s)
    else:
        d.ellipse(oval, fill=_WHITE)
        _rank(d, card, (cx, cy), s)
        corner = _corner_label(card)
        if corner:
            _text(d, (8 * s, 7 * s), corner, 12 * s, _WHITE, stroke=s, anchor="lt")
    return big


def _back(img: Image.Image, d: ImageDraw.ImageDraw, at: tuple[float, float], s: int) -> None:
    """The back of a card: a red oval on a slant with UNO across it."""
    x, y = at
    oval = Image.new("L", (34 * s, 58 * s), 0)
    ImageDraw.Draw(oval).ellipse((0, 0, 34 * s - 1, 58 * s - 1), fill=255)
    tilted = oval.rotate(-30, resample=Image.Resampling.BICUBIC, expand=True)
    red = Image.new("RGBA", tilted.size, (*COLOR_RGB[Color.RED], 255))
    img.paste(red, (int(x - tilted.width / 2), int(y - tilted.height / 2)), tilted)
    _text(d, (x, y), "UNO", 15 * s, (*COLOR_RGB[Color.YELLOW], 255), stroke=2 * s)


def _corner_label(card: Card) -> str:
    if card.is_number:
        return card.rank.value
    if card.rank is Rank.DRAW_TWO:
        return "+2"
    return ""


def _rank(d: ImageDraw.ImageDraw, card: Card, at: tuple[float, float], s: int) -> None:
    """The rank, large, in the card's colour with a dark outline."""
    assert card.color is not None
    rgb = COLOR_RGB[card.color]
    ink = (*rgb, 255)
    if card.is_number:
        label = card.rank.value
        _text(d, at, label, 40 * s, ink, stroke=2 * s)
        if label in ("6", "9"):  # underlined, as on the cards, so 6 and 9 differ
            x, y = at
            d.line((x - 8 * s, y + 19 * s, x + 8 * s, y + 19 * s), fill=_INK, width=2 * s)
    elif card.rank is Rank.DRAW_TWO:
        _text(d, at, "+2", 28 * s, ink, stroke=2 * s)
    elif card.rank is Rank.SKIP:
        _skip(d, at, 13 * s, rgb, s)
    elif card.rank is Rank.REVERSE:
        _reverse(d, at, s, rgb)


def _text(
    d: ImageDraw.ImageDraw,
    at: tuple[float, float],
    label: str,
    size: int,
    fill: tuple[int, ...],
    *,
    stroke: int = 0,
    anchor: str = "mm",
) -> None:
    d.text(
        at, label, font=_font(size), fill=fill, anchor=anchor, stroke_width=stroke,
        stroke_fill=_INK,
    )  # fmt: skip


def _skip(
    d: ImageDraw.ImageDraw, at: tuple[float, float], r: float, rgb: tuple[int, int, int], s: int
) -> None:
    """⊘: a ring with a bar across it."""
    x, y = at
    width = 5 * s
    d.ellipse((x - r - s, y - r - s, x + r + s, y + r + s), outline=_BLACK, width=width + 2 * s)
    d.ellipse((x - r, y - r, x + r, y + r), outline=rgb, width=width)
    k = (r - width / 2) / math.sqrt(2)
    bar = (x - k, y + k, x + k, y - k)
    d.line(bar, fill=_BLACK, width=width + 2 * s)
    d.line(bar, fill=rgb, width=width)


def _reverse(
    d: ImageDraw.ImageDraw, at: tuple[float, float], s: int, rgb: tuple[int, ...]
) -> None:
    """⇄ on a slant: two arrows pointing opposite ways."""
    x, y = at

    def arrow(sign: int) -> list[tuple[float, float]]:
        # an arrow pointing up-right (sign 1) or down-left (sign -1), beside the centre
        pts = [(-2.5, 12.0), (-2.5, -1.0), (-7.0, -1.0), (0.0, -13.0), (7.0, -1.0), (2.5, -1.0),
               (2.5, 12.0)]  # fmt: skip
        ox = 7.5
        out = []
        for px, py in pts:
            px, py = sign * (px + ox), sign * py
            # turned 40 degrees clockwise
            a = math.radians(40)
            rx = px * math.cos(a) - py * math.sin(a)
            ry = px * math.sin(a) + py * math.cos(a)
            out.append((x + rx * s, y + ry * s))
        return out

    for sign in (1, -1):
        d.polygon(arrow(sign), fill=rgb, outline=_BLACK, width=s + s // 2)
