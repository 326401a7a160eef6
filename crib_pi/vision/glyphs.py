"""Find glyph-like ink blobs (index ranks and suits) at a few scales.

Card indices are dark or red ink on a light card. The darkest colour channel makes red ink as
dark as black ink, and a local (adaptive) threshold finds ink whatever the light on the table.
An image pyramid keeps glyphs inside one pixel-size range, so one set of rules serves cards from
about 60 px wide up to a full frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

import cv2
import numpy as np

#: Glyph heights (pixels, at the level where they are found) that the rules below accept.
MIN_GLYPH = 5.0
MAX_GLYPH = 48.0
#: Levels are added (each half the size of the last) while the image side exceeds this.
MIN_LEVEL_SIDE = 160


@dataclass(frozen=True)
class Glyphs:
    """Blobs found at one pyramid level, with centres and sizes in full-image pixels."""

    centers: np.ndarray  # (n, 2) float32, x y
    sizes: np.ndarray  # (n,) float32: bounding-box diagonal
    areas: np.ndarray  # (n,) float32: ink pixels
    level_scale: float  # full-image pixels per level pixel


def ink_map(bgr: np.ndarray) -> np.ndarray:
    """Darkest channel per pixel: black and red ink both come out dark on a white card.

    OpenCV's per-channel minimum is some twenty times faster than numpy's across the last axis.
    """
    return reduce(cv2.min, cv2.split(bgr)) if bgr.ndim == 3 else bgr


def pyramid(ink: np.ndarray, max_levels: int = 4) -> list[tuple[np.ndarray, float]]:
    """The ink map at full size and at halves while it is big enough, each with its scale."""
    levels = [(ink, 1.0)]
    while len(levels) < max_levels and min(levels[-1][0].shape[:2]) // 2 >= MIN_LEVEL_SIDE:
        levels.append((cv2.pyrDown(levels[-1][0]), levels[-1][1] * 2.0))
    return levels


def find_glyphs(level: np.ndarray, scale: float) -> Glyphs:
    """Ink blobs of glyph size and shape at one level.

    The threshold block (25 px) is a little larger than the biggest accepted glyph stroke, and
    the offset keeps paper texture and JPEG noise out. Blobs too big for a glyph get a second,
    darker-ink look, since a glyph can be joined to a line beside it.
    """
    mask = cv2.adaptiveThreshold(
        level, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 25, 12
    )
    _, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    centers, sizes, areas = _glyph_blobs(level, labels, stats, cents)
    big = np.maximum(stats[:, 2], stats[:, 3]) > MAX_GLYPH
    big[0] = False  # the background
    if big.any():
        c2, s2, a2 = _freed_from(level, labels, big)
        centers, sizes, areas = (
            np.concatenate([centers, c2]),
            np.concatenate([sizes, s2]),
            np.concatenate([areas, a2]),
        )
    return Glyphs(
        centers=centers * scale + (scale - 1.0) / 2.0,
        sizes=sizes * scale,
        areas=areas * scale * scale,
        level_scale=scale,
    )


#: In the second look, ink is darker than this share of the brightest card nearby.
DARK_INK = 0.5
#: "Nearby" for the second look: a square this many level pixels across.
PAPER_REACH = 25

Blobs = tuple[np.ndarray, np.ndarray, np.ndarray]


def _freed_from(level: np.ndarray, labels: np.ndarray, big: np.ndarray) -> Blobs:
    """Glyphs inside the too-big blobs (``big`` is true at their labels), in a darker-ink mask.

    A rank that touches a card's printed border, the edge of a card lying over it or a soft
    shadow is one blob with it under the local threshold; those are fainter than printed ink,
    so keeping only ink well below the paper beside it cuts the glyph free.
    """
    paper = cv2.dilate(level, cv2.getStructuringElement(cv2.MORPH_RECT, (PAPER_REACH,) * 2))
    dark = cv2.compare(level.astype(np.float32), paper.astype(np.float32) * DARK_INK, cv2.CMP_LT)
    dark = cv2.bitwise_and(dark, np.where(big, 255, 0).astype(np.uint8)[labels])
    _, labels2, stats2, cents2 = cv2.connectedComponentsWithStats(dark, connectivity=8)
    return _glyph_blobs(level, labels2, stats2, cents2)


def _glyph_blobs(
    level: np.ndarray, labels: np.ndarray, stats_i: np.ndarray, cents: np.ndarray
) -> Blobs:
    """Centres, sizes and ink areas (level pixels) of the components shaped like glyphs on card."""
    stats = stats_i[1:].astype(np.float32)
    cents = cents[1:].astype(np.float32)
    w, h, area = stats[:, 2], stats[:, 3], stats[:, 4]
    diag = np.hypot(w, h)
    fill = area / np.maximum(w * h, 1.0)
    keep = (
        (diag >= MIN_GLYPH)
        & (diag <= MAX_GLYPH * 1.42)
        & (np.maximum(w, h) <= MAX_GLYPH)
        & (area >= 10)
        & (fill >= 0.12)
        & (fill <= 0.95)
        & (np.maximum(w, h) <= 4.0 * np.minimum(w, h) + 2)
    )
    idx = np.flatnonzero(keep)
    if idx.size:
        idx = idx[_on_paper(level, labels, stats_i[1:], idx)]
    return cents[idx], diag[idx], area[idx]


#: Most of the ring around an index glyph is bare card: at most this share may be other ink.
MAX_CLUTTER = 0.4
#: Ink at least this many times the glyph's size across is a large shape, not clutter.
BIG_INK = 3.0
#: The bare card around a glyph is at least this bright, as a share of the level's bright end.
#: A card in a hand's or a lampshade's shadow, beside a lit one, is down to about 40%.
MIN_PAPER = 0.38


def _on_paper(
    level: np.ndarray, labels: np.ndarray, stats: np.ndarray, idx: np.ndarray
) -> np.ndarray:
    """Which of the blobs ``idx`` sit on bare, bright card, as index glyphs do.

    Textured tables (knit, wood grain, carpet) give many glyph-sized blobs, but each is crowded
    by other blobs and sits on darker ground; dropping them early keeps the classifier's work small.
    """
    bright = float(np.percentile(level[::4, ::4], 99)) if level.size else 255.0
    hgt, wid = level.shape[:2]
    # Ink much bigger than a glyph (the table beyond a card's edge, a border or frame line) is
    # not clutter: a corner index often sits right beside it.
    span = np.concatenate([[np.inf], np.maximum(stats[:, 2], stats[:, 3]).astype(np.float64)])
    keep = np.zeros(idx.size, bool)
    for j, i in enumerate(idx):
        x, y, w, h = (int(v) for v in stats[i, :4])
        m = max(w, h) // 3 + 1
        x0, y0, x1, y1 = max(0, x - m), max(0, y - m), min(wid, x + w + m), min(hgt, y + h + m)
        lab = labels[y0:y1, x0:x1]
        own = lab == i + 1
        bare = lab == 0
        ring = lab.size - int(own.sum())
        if ring <= 0:
            continue
        other = int((span[lab] <= BIG_INK * max(w, h)).sum()) - int(own.sum())
        if other > MAX_CLUTTER * ring:
            continue
        paper = float(level[y0:y1, x0:x1][bare].mean()) if bare.any() else 0.0
        keep[j] = paper >= MIN_PAPER * bright
    return keep


def merge_levels(parts: list[Glyphs]) -> Glyphs:
    """All levels' blobs in one set, a blob found again on a coarser level counted once.

    A rank and its suit can straddle two levels (a big rank found coarse, its small suit fine),
    so pairs are made across levels; the duplicates would only cost time.
    """
    keep: list[Glyphs] = []
    for g in parts:
        if keep and g.centers.shape[0]:
            prev = Glyphs(
                np.concatenate([k.centers for k in keep]),
                np.concatenate([k.sizes for k in keep]),
                np.concatenate([k.areas for k in keep]),
                1.0,
            )
            if prev.centers.shape[0]:
                d = np.hypot(*(g.centers[:, None, :] - prev.centers[None, :, :]).transpose(2, 0, 1))
                ratio = g.sizes[:, None] / prev.sizes[None, :]
                dup = ((d < 0.25 * g.sizes[:, None]) & (ratio > 0.7) & (ratio < 1.4)).any(axis=1)
                g = Glyphs(g.centers[~dup], g.sizes[~dup], g.areas[~dup], g.level_scale)
        keep.append(g)
    return Glyphs(
        np.concatenate([k.centers for k in keep]).astype(np.float32),
        np.concatenate([k.sizes for k in keep]).astype(np.float32),
        np.concatenate([k.areas for k in keep]).astype(np.float32),
        1.0,
    )
