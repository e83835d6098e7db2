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
    "EMOJI_VERSION",
    "GAP",
    "MARGIN",
    "PER_ROW",
    "SET_VERSION",
    "STICKER_SIDE",
    "WEB_HEIGHT",
    "Face",
    "card_set",
    "contact_sheet",
    "emoji_png",
    "hand_png",
    "hand_size",
    "sticker_png",
    "web_png",
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

# Bumped whenever a drawing changes: what was uploaded of an older set is then uploaded
# again, once, and the old one deleted. The card (Telegram's stickers, the contact sheet)
# and the emoji drawn for the square (Discord's) each have their own.
SET_VERSION = 1
EMOJI_VERSION = 2  # 2: drawn for the square (issue 19), 1 was the card on transparency
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
    """``face`` as a Discord emoji: a 128 x 128 PNG drawn for the square (``_emoji``)."""
    return _png(_dimmed(_emoji(face, _EMOJI_SCALE), dim))


WEB_HEIGHT = 240  # px: a card on a web page (shown at about half that, sharp on a phone)


def web_png(face: Face, dim: bool = False, height: int = WEB_HEIGHT) -> bytes:
    """``face`` for the web table: a PNG ``height`` px high, transparent corners."""
    return _png(_master(face, dim, height))


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
    return _dimmed(big.resize((width, height), Image.Resampling.LANCZOS), dim)


def _dimmed(img: Image.Image, dim: bool) -> Image.Image:
    """``img`` washed towards grey (a card that cannot be played now), or as it is."""
    if not dim:
        return img
    r, g, b, a = img.split()
    grey = Image.new("RGB", img.size, _DIM)
    rgb = Image.blend(Image.merge("RGB", (r, g, b)), grey, _DIM_ALPHA)
    return Image.merge("RGBA", (*rgb.split(), a))


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


# -- the emoji set: drawn for the square ------------------------------------------------------
#
# Discord shows an emoji at 22 px on a button and in a line of text (48 px alone in a
# message): a card standing upright in the square would fill two thirds of it, its symbol
# a few pixels. So an emoji is its own drawing, not the sticker's card scaled: the face
# fills the square (a rounded square in the card's colour, white-edged; a wild's is
# black-edged, in its four colours or the one named), and the symbol fills the face, white
# with a dark outline (legible on every colour and theme): the number, Skip's ⊘, Reverse's
# two arrows, +2, W for a wild, +4, and UNO on the back. Measured in pixels of the
# 128 px emoji (``u``), drawn ``s`` times larger and scaled down.

_EDGE = 6  # the face's rim
_CORNER = 24  # its corners' radius
_OUTLINE = 5  # the dark outline around a symbol
_EMOJI_SCALE = 4  # drawn this much larger (512 px: as smooth at 128 as 1024, a third the time)


def _emoji(face: Face, s: int) -> Image.Image:
    """``face`` as a square emoji, drawn ``s`` times larger than 128 px, then scaled down."""
    side = EMOJI_SIDE * s
    big = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    card = face.card
    wild = card is not None and card.color is None
    d.rounded_rectangle(
        (0, 0, side - 1, side - 1), radius=_CORNER * s, fill=_BLACK if wild else _WHITE
    )
    inner = (_EDGE * s, _EDGE * s, side - 1 - _EDGE * s, side - 1 - _EDGE * s)
    radius = (_CORNER - _EDGE) * s
    if card is None:
        d.rounded_rectangle(inner, radius=radius, fill=_BLACK)
        _emoji_back(big, d, s)
    elif wild:
        if face.color is None:  # the four colours, a quadrant each
            colours = Image.new("RGBA", (side, side), (0, 0, 0, 0))
            q = ImageDraw.Draw(colours)
            c = side / 2
            big_r = side  # (far past the corners: the mask cuts them)
            for k, col in enumerate(_WILD_ORDER):
                q.pieslice(
                    (c - big_r, c - big_r, c + big_r, c + big_r), -90 + 90 * k, 90 * k,
                    fill=COLOR_RGB[col],
                )  # fmt: skip
            mask = Image.new("L", (side, side), 0)
            ImageDraw.Draw(mask).rounded_rectangle(inner, radius=radius, fill=255)
            big.paste(colours, (0, 0), mask)
        else:
            d.rounded_rectangle(inner, radius=radius, fill=COLOR_RGB[face.color])
        label = "+4" if card.rank is Rank.WILD_DRAW_FOUR else "W"
        _emoji_text(big, label, s, width=104 if label == "+4" else 100, height=84)
    else:
        assert card.color is not None
        d.rounded_rectangle(inner, radius=radius, fill=COLOR_RGB[card.color])
        if card.is_number:
            label = card.rank.value
            if label in ("6", "9"):  # underlined, as on the cards, so 6 and 9 differ
                bottom = _emoji_text(
                    big, label, s, width=84, height=76, dy=-10, widen=1.3, weight=3
                )
                y = bottom + 18 * s  # (the two outlines apart)
                _emoji_bar(d, (side / 2 - 20 * s, y, side / 2 + 20 * s, y), s)
            else:
                _emoji_text(big, label, s, width=96, height=92, widen=1.3, weight=3)
        elif card.rank is Rank.DRAW_TWO:
            _emoji_text(big, "+2", s, width=108, height=84)
        elif card.rank is Rank.SKIP:
            _emoji_skip(d, side, s)
        elif card.rank is Rank.REVERSE:
            _emoji_reverse(d, side, s)
    return big.resize((EMOJI_SIDE, EMOJI_SIDE), Image.Resampling.LANCZOS)


def _emoji_text(
    big: Image.Image,
    label: str,
    s: int,
    *,
    width: int,
    height: int,
    fill: tuple[int, ...] = (255, 255, 255, 255),
    weight: int = 4,
    dy: int = 0,
    widen: float = 1.0,
) -> float:
    """``label`` as large as fits ``width`` x ``height`` (emoji pixels) in the middle (moved
    down by ``dy``), made bolder by ``weight`` and outlined, up to ``widen`` times as wide
    as the font draws it (the font's narrow digits read better broad at 22 px); the bottom
    of its fill, in drawn pixels."""
    thick, outline = weight * s, (weight + _OUTLINE) * s
    size = 10 * s
    while True:  # the largest size whose ink (with the outline) fits
        box = _font(size + 2 * s).getbbox(label, stroke_width=outline)
        if (box[2] - box[0]) * widen > width * s or box[3] - box[1] > height * s:
            break
        size += 2 * s
    font = _font(size)
    x0, y0, x1, y1 = (round(v) for v in font.getbbox(label, stroke_width=outline))
    w, h = x1 - x0, y1 - y0
    wide = max(w, min(round(w * widen), width * s))
    masks = []
    for stroke in (outline, thick):  # the outline's shape, then the fill's
        m = Image.new("L", (w, h), 0)
        ImageDraw.Draw(m).text(
            (-x0, -y0), label, font=font, fill=255, stroke_width=stroke, stroke_fill=255
        )
        masks.append(m if wide == w else m.resize((wide, h), Image.Resampling.LANCZOS))
    at = (round(big.width / 2 - wide / 2), round(big.height / 2 + dy * s - h / 2))
    big.paste(Image.new("RGBA", (wide, h), _INK), at, masks[0])
    big.paste(Image.new("RGBA", (wide, h), fill), at, masks[1])
    return at[1] + h - outline + thick


def _emoji_bar(d: ImageDraw.ImageDraw, line: tuple[float, float, float, float], s: int) -> None:
    """A thick white stroke with a dark outline."""
    d.line(line, fill=_INK, width=(10 + 2 * _OUTLINE) * s)
    d.line(line, fill=_WHITE, width=10 * s)


def _emoji_skip(d: ImageDraw.ImageDraw, side: int, s: int) -> None:
    """⊘ filling the face: a thick ring and its bar."""
    c = side / 2
    r, w, o = 38 * s, 14 * s, _OUTLINE * s
    d.ellipse((c - r - w / 2 - o, c - r - w / 2 - o, c + r + w / 2 + o, c + r + w / 2 + o),
              outline=_INK, width=w + 2 * o)  # fmt: skip
    k = r / math.sqrt(2)
    d.line((c - k, c + k, c + k, c - k), fill=_INK, width=w + 2 * o)
    d.ellipse((c - r - w / 2, c - r - w / 2, c + r + w / 2, c + r + w / 2), outline=_WHITE,
              width=w)  # fmt: skip
    d.line((c - k, c + k, c + k, c - k), fill=_WHITE, width=w)


def _emoji_reverse(d: ImageDraw.ImageDraw, side: int, s: int) -> None:
    """⇄ filling the face: an arrow to the right above one to the left."""

    def arrow(y: float, sign: int) -> list[tuple[float, float]]:
        # from the middle: a shaft 12 high, a head 36 high and 26 long; 100 long in all
        pts = [(-50, -6), (24, -6), (24, -18), (50, 0), (24, 18), (24, 6), (-50, 6)]
        return [(side / 2 + sign * x * s, y + py * s) for x, py in pts]

    for y, sign in ((side / 2 - 22 * s, 1), (side / 2 + 22 * s, -1)):
        pts = arrow(y, sign)
        d.polygon(pts, fill=_INK, outline=_INK, width=2 * _OUTLINE * s)
        d.polygon(pts, fill=_WHITE)


def _emoji_back(big: Image.Image, d: ImageDraw.ImageDraw, s: int) -> None:
    """The back: a red oval across the face, UNO in yellow on it."""
    c = big.width / 2
    d.ellipse((c - 62 * s, c - 46 * s, c + 62 * s, c + 46 * s), fill=COLOR_RGB[Color.RED])
    _emoji_text(big, "UNO", s, width=124, height=64, fill=(*COLOR_RGB[Color.YELLOW], 255))
