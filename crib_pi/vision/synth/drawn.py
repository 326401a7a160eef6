"""Decks drawn by code in the fonts Debian packages: index styles no rendered deck has.

Real decks differ from the 27 rendered ones in ways a network must not lean on: the index's
typeface (a Times-like serif, a condensed sans, a slab), its size and place, the suit pips'
shapes, the inks (brown-black on warm stock, a four-colour deck's green clubs and blue
diamonds) and the letters (French decks print R, D, V for king, queen, jack; German ones K, D,
B). Each drawn deck picks one of each at random from a seed; the pictures are plain shapes,
since only the index is read. The index is drawn on the top-left corner and, turned half
round, on the bottom-right, and its boxes are known from the drawing, not measured.

Needs Pillow (the ``train`` extra) and font files; the project's code, the fonts' own
licences (DejaVu, Liberation, FreeFont, URW base35 and others, all free) cover the renders,
which are made at training time and never committed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from crib_pi.vision.synth.art import ARTS, body, face_frame, lay_pips
from crib_pi.vision.synth.decks import Deck
from crib_pi.vision.synth.faces import Box

Rng = np.random.Generator

#: Where fonts are looked for (``CRIB_PI_FONT_DIR`` elsewhere, e.g. a training machine).
FONT_DIRS = (Path(os.environ.get("CRIB_PI_FONT_DIR") or "/usr/share/fonts"),)
#: Fonts no card index is printed in: symbols, slanted, hairline, boxed or initial capitals,
#: and old-style figures (EB Garamond's 10 reads "IO").
SKIP_FONT = (
    "Symbol", "Dingbat", "D050000L", "Italic", "Ita.", "Oblique", "BoldIt", "-It.", "Mono",
    "_RI", "_RBI", "_RZI", "LinLibertine_I.", "LinBiolinum_K", "EBGaramond", "Hairline",
    "Thin", "ExtraLight",
)  # fmt: skip
#: Fonts seen to draw the four suit symbols (U+2660 and neighbours) right; FreeSerif Bold
#: swaps the spade and the club, so each is named.
SUIT_FONTS = (
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf",
    "DejaVuSansCondensed-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
    "DejaVuSerifCondensed.ttf", "DejaVuSerifCondensed-Bold.ttf", "FreeSans.ttf",
    "FreeSansBold.ttf", "FreeSerif.ttf",
)  # fmt: skip
#: Rank letters by deck language: ace, then jack, queen, king.
LETTERS = {"en": ("A", "J", "Q", "K"), "fr": ("A", "V", "D", "R"), "de": ("A", "B", "D", "K")}
WIDTH = 240
SUITS = "CDHS"
SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
#: Ink colours (RGB): blacks from true black to brown-black and navy, reds from red to orange.
BLACKS = ((10, 10, 10), (40, 40, 45), (62, 44, 32), (75, 50, 35), (20, 25, 60))
REDS = ((200, 20, 30), (220, 40, 40), (170, 15, 40), (225, 70, 30), (190, 30, 80))
#: Four-colour decks: clubs green, diamonds blue (or orange).
FOUR = {"C": ((20, 120, 50), (30, 100, 30)), "D": ((30, 60, 190), (230, 130, 20))}
STOCKS = ((252, 252, 250), (245, 240, 228), (240, 232, 210), (250, 246, 238), (236, 236, 236))


def font_paths() -> list[Path]:
    """Every usable upright text font installed, sorted (empty where there are none)."""
    found = []
    for base in FONT_DIRS:
        if base.is_dir():
            found += [p for p in base.rglob("*") if p.suffix.lower() in (".ttf", ".otf")]
    return sorted(p for p in found if not any(s in p.name for s in SKIP_FONT))


def family(font: Path) -> str:
    """A font's family as the font names it, its first word (``Liberation Serif`` -> liberation)."""
    from PIL import ImageFont

    return str(ImageFont.truetype(str(font), 10).getname()[0]).split()[0].lower()


@dataclass(frozen=True)
class Style:
    """How one drawn deck prints its index."""

    font: Path
    suit_font: Path | None  # None: pips drawn as shapes
    language: str
    ink: dict[str, tuple[int, int, int]]
    stock: tuple[int, int, int]
    rank_h: float  # rank height, share of the face's height
    suit_scale: float  # suit height over rank height
    margin: tuple[float, float]  # rank's left and top, shares of width and height
    gap: float  # rank to suit, share of the rank's height
    aspect: float  # face height over width
    pip_shape: float  # 0..1: how round a drawn diamond's and heart's lobes are


def random_style(rng: Rng, fonts: list[Path]) -> Style:
    """A deck's style drawn at random."""
    suit_fonts = [f for f in fonts if f.name in SUIT_FONTS]
    lang = str(rng.choice(["en", "en", "en", "fr", "de"]))
    black = BLACKS[int(rng.integers(len(BLACKS)))]
    red = REDS[int(rng.integers(len(REDS)))]
    ink = {"S": black, "C": black, "H": red, "D": red}
    if rng.random() < 0.15:
        ink["C"] = FOUR["C"][int(rng.integers(2))]
        ink["D"] = FOUR["D"][int(rng.integers(2))]
    use_font_pips = suit_fonts and rng.random() < 0.5
    return Style(
        font=fonts[int(rng.integers(len(fonts)))],
        suit_font=suit_fonts[int(rng.integers(len(suit_fonts)))] if use_font_pips else None,
        language=lang,
        ink=ink,
        stock=STOCKS[int(rng.integers(len(STOCKS)))],
        rank_h=float(rng.uniform(0.075, 0.15)),
        suit_scale=float(rng.uniform(0.6, 1.05)),
        margin=(float(rng.uniform(0.035, 0.09)), float(rng.uniform(0.025, 0.07))),
        gap=float(rng.uniform(0.02, 0.3)),
        aspect=float(rng.uniform(1.38, 1.56)),
        pip_shape=float(rng.random()),
    )


def drawn_deck(style: Style, name: str, art: str = "plain") -> Deck:
    """The 52 faces of a style, with their index boxes, and a plain back; ``art`` is the
    pictures' style (``art.ARTS``)."""
    if art not in ARTS:
        raise ValueError(f"art {art!r}: not one of {', '.join(ARTS)}")
    faces, boxes = [], []
    for i in range(52):
        face, box = _face(style, i % 13 + 1, SUITS[i // 13], art)
        faces.append(face)
        boxes.append(box)
    back = faces[0].copy()
    back[:, :, :3] = (40, 50, 150)
    return Deck(name, tuple(faces), back, tuple(boxes))


def _rank_text(style: Style, rank: int) -> str:
    a, j, q, k = LETTERS[style.language]
    return {1: a, 11: j, 12: q, 13: k}.get(rank, str(rank))


def _face(
    style: Style, rank: int, suit: str, art: str = "plain"
) -> tuple[np.ndarray, tuple[Box, Box]]:
    """One BGRA face and its top-left index's (rank box, suit box)."""
    from PIL import Image, ImageDraw, ImageFont

    w = WIDTH
    h = round(w * style.aspect)
    colour = style.ink[suit]
    img = Image.new("RGB", (w, h), style.stock)
    draw = ImageDraw.Draw(img)
    rank_px = style.rank_h * h
    font = ImageFont.truetype(str(style.font), max(8, round(rank_px * 1.35)))
    text = _rank_text(style, rank)
    # Scale the font so the rank's ink is rank_px tall, whatever the face's proportions.
    x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
    font = ImageFont.truetype(str(style.font), max(8, round(font.size * rank_px / max(y1 - y0, 1))))
    x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
    if x1 - x0 > 0.26 * w:  # a wide "10" in a wide font: squeeze it in
        font = ImageFont.truetype(str(style.font), max(8, round(font.size * 0.26 * w / (x1 - x0))))
        x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
    left, top = style.margin[0] * w, style.margin[1] * h
    rank_box = _ink_text(img, draw, text, font, left - x0, top - y0, colour)
    suit_h = style.suit_scale * (rank_box[3] - rank_box[1])
    cx = (rank_box[0] + rank_box[2]) / 2
    sy = rank_box[3] + style.gap * (rank_box[3] - rank_box[1])
    suit_box = _pip(img, style, suit, cx, sy, suit_h, colour)
    # the frame keeps 1% of the width clear of the index
    face_frame(ImageDraw.Draw(img), art, w, h, min(*suit_box[:2], *rank_box[:2]) - 0.01 * w)
    # The bottom-right index: the top-left corner turned half round, cut before the body.
    cw = int(min(0.4 * w, max(rank_box[2], suit_box[2]) + 0.02 * w))
    ch = int(min(0.42 * h, suit_box[3] + 0.03 * h))
    corner = np.rot90(np.asarray(img)[:ch, :cw], 2).copy()
    _body(img, style, rank, suit, colour, cw + 0.02 * w, art)
    arr = np.asarray(img)[:, :, ::-1].copy()  # BGR
    arr[h - ch :, w - cw :] = corner[:, :, ::-1]
    alpha = _rounded(w, h)
    return np.dstack([arr, alpha]), (rank_box, suit_box)


def _ink_text(img, draw, text, font, x, y, colour) -> Box:  # type: ignore[no-untyped-def]
    draw.text((x, y), text, font=font, fill=colour)
    bx0, by0, bx1, by1 = draw.textbbox((x, y), text, font=font)
    return (float(bx0), float(by0), float(bx1), float(by1))


def _pip(img, style: Style, suit: str, cx: float, top: float, size: float, colour) -> Box:  # type: ignore[no-untyped-def]
    """Draw one suit pip ``size`` tall, centred on ``cx``, from ``top``; its box."""
    from PIL import Image, ImageDraw, ImageFont

    if style.suit_font is not None:
        draw = ImageDraw.Draw(img)
        char = SUIT_CHARS[suit]
        font = ImageFont.truetype(str(style.suit_font), max(6, round(size * 1.4)))
        x0, y0, x1, y1 = draw.textbbox((0, 0), char, font=font)
        font = ImageFont.truetype(
            str(style.suit_font), max(6, round(font.size * size / max(y1 - y0, 1)))
        )
        x0, y0, x1, y1 = draw.textbbox((0, 0), char, font=font)
        return _ink_text(img, draw, char, font, cx - (x0 + x1) / 2, top - y0, colour)
    s = 4  # drawn at four times the size, then shrunk: smooth edges
    side = max(4, round(size))
    mask = Image.new("L", (side * s, side * s), 0)
    _shape(ImageDraw.Draw(mask), suit, side * s, style.pip_shape)
    mask = mask.resize((side, side), Image.Resampling.LANCZOS)
    x, y = round(cx - side / 2), round(top)
    img.paste(Image.new("RGB", (side, side), colour), (x, y), mask)
    return (float(x), float(y), float(x + side), float(y + side))


def _shape(d, suit: str, n: int, round_: float) -> None:  # type: ignore[no-untyped-def]
    """A suit pip filling an n x n mask."""
    if suit == "D":
        half = n * (0.3 + 0.08 * round_)
        d.polygon([(n / 2, 0), (n / 2 + half, n / 2), (n / 2, n - 1), (n / 2 - half, n / 2)], 255)
        return
    r = n * (0.22 + 0.04 * round_)
    if suit in "HS":
        # A heart: two lobes and a point; a spade is a heart upside down on a stem.
        lobes = [(n / 2 - r * 0.95, r * 1.05), (n / 2 + r * 0.95, r * 1.05)]
        tip = n * (0.95 if suit == "H" else 0.78)
        poly = [(n / 2 - 2 * r * 0.95, r * 1.3), (n / 2, tip), (n / 2 + 2 * r * 0.95, r * 1.3)]
        if suit == "S":
            lobes = [(x, tip - y + r * 0.3) for x, y in lobes]
            poly = [(x, tip - y + r * 0.3) for x, y in poly]
        for x, y in lobes:
            d.ellipse([x - r, y - r, x + r, y + r], 255)
        d.polygon(poly, 255)
        if suit == "S":
            d.polygon(
                [(n / 2, n * 0.55), (n / 2 - n * 0.15, n - 1), (n / 2 + n * 0.15, n - 1)], 255
            )
        return
    # Clubs: three round leaves and a stem.
    r = n * (0.2 + 0.03 * round_)
    for x, y in ((n / 2, r), (n / 2 - 1.05 * r, n * 0.55), (n / 2 + 1.05 * r, n * 0.55)):
        d.ellipse([x - r, y - r, x + r, y + r], 255)
    d.polygon([(n / 2, n * 0.4), (n / 2 - n * 0.14, n - 1), (n / 2 + n * 0.14, n - 1)], 255)


def _body(img, style: Style, rank: int, suit: str, colour, left: float, art: str) -> None:  # type: ignore[no-untyped-def]
    """The middle of the face, right of ``left``: pips for a number card, a framed picture
    for a court; or the pictures of ``art``."""
    from PIL import ImageDraw

    w, h = img.size
    x0 = max(0.27 * w, left)
    box = (x0, 0.1 * h, w - x0, 0.9 * h)

    def pip(cx: float, top: float, size: float) -> None:
        _pip(img, style, suit, cx, top, size, colour)

    if art != "plain":
        body(img, art, rank, suit, colour, box, pip)
        return
    if rank <= 10:
        lay_pips(rank, box, pip)
        return
    x0, y0, x1, y1 = box
    draw = ImageDraw.Draw(img)
    rng = np.random.default_rng(rank * 7 + SUITS.index(suit))
    draw.rectangle([x0, y0, x1, y1], outline=colour, width=2)
    for _ in range(9):
        cx, cy = rng.uniform(x0 + 8, x1 - 8), rng.uniform(y0 + 8, y1 - 8)
        rr = rng.uniform(6, 22)
        fill = tuple(int(v) for v in rng.integers(30, 230, 3))
        draw.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=fill)


def _rounded(w: int, h: int) -> np.ndarray:
    """A card's alpha: opaque with rounded corners."""
    r = max(4, w // 20)
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for x in (r, w - 1 - r):
        for y in (r, h - 1 - r):
            cv2.circle(alpha, (x, y), r, 255, -1, cv2.LINE_AA)
    return alpha


def drawn_decks(rng: Rng, count: int, fonts: list[Path] | None = None) -> list[Deck]:
    """``count`` decks of random styles, named ``drawn-<font family>-<n>``; none without fonts."""
    fonts = font_paths() if fonts is None else fonts
    if not fonts:
        return []
    out = []
    for n in range(count):
        style = random_style(rng, fonts)
        out.append(drawn_deck(style, f"drawn-{family(style.font)}-{n}"))
    return out
