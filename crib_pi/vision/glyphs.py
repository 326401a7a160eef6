"""Find glyph-like ink blobs (index ranks and suits) at a few scales.

Card indices are dark or red ink on a light card. The darkest colour channel makes red ink as
dark as black ink, and a local (adaptive) threshold finds ink whatever the light on the table.
An image pyramid keeps glyphs inside one pixel-size range, so one set of rules serves cards from
about 60 px wide up to a full frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from typing import Any

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
    #: Ranks printed touching their suit, each one blob cut in two: (m, 2, 2) centres of the
    #: two pieces and (m, 2) their sizes. They are paired only with each other.
    joined: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2), np.float32))
    joined_sizes: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.float32))


def ink_map(bgr: np.ndarray) -> np.ndarray:
    """Darkest channel per pixel: black and red ink both come out dark on a white card."""
    return across_channels(cv2.min, bgr)


def across_channels(pick: Any, image: np.ndarray) -> np.ndarray:
    """``pick`` (cv2.min or cv2.max) of a picture's channels per pixel; a one-channel picture
    as it is. OpenCV's is some twenty times faster than numpy's across the last axis, and
    taking the channels one at a time costs half what cv2.split's new pictures do."""
    if image.ndim == 2:
        return image
    out: np.ndarray = reduce(pick, (cv2.extractChannel(image, i) for i in range(image.shape[2])))
    return out


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
    _, labels, stats, cents = _components(mask)
    bright = float(np.percentile(level[::4, ::4], 99)) if level.size else 255.0
    (centers, sizes, areas), (joined, joined_sizes) = _glyph_blobs(
        level, bright, labels, stats, cents
    )
    big = np.maximum(stats[:, 2], stats[:, 3]) > MAX_GLYPH
    big[0] = False  # the background
    if big.any():
        (c2, s2, a2), (j2, js2) = _freed_from(level, bright, labels, big)
        centers, sizes, areas = (
            np.concatenate([centers, c2]),
            np.concatenate([sizes, s2]),
            np.concatenate([areas, a2]),
        )
        joined, joined_sizes = np.concatenate([joined, j2]), np.concatenate([joined_sizes, js2])
    return Glyphs(
        centers=centers * scale + (scale - 1.0) / 2.0,
        sizes=sizes * scale,
        areas=areas * scale * scale,
        level_scale=scale,
        joined=joined * scale + (scale - 1.0) / 2.0,
        joined_sizes=joined_sizes * scale,
    )


#: The four neighbours a pixel meets before it in raster order (up left, up, up right, left).
_BEFORE = np.array([[1, 1, 1], [1, 0, 0], [0, 0, 0]], np.uint8)
#: Fewer components than this are labelled in 16 bits, which OpenCV does twice as fast.
_SHORT_LABELS = 65_000


def _components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats`` of a mask (8-connected), labelled in 16 bits where
    they surely fit: a component has one pixel that none of the four neighbours before it in
    raster order joins (its first), so there are no more components than such pixels."""
    firsts = cv2.countNonZero(cv2.subtract(mask, cv2.dilate(mask, _BEFORE)))
    ltype = cv2.CV_16U if firsts < _SHORT_LABELS else cv2.CV_32S
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=ltype)
    return n, labels, stats, cents


#: The second look (``_freed_from``) keeps ink darker than half the brightest card nearby:
#: within a square this many level pixels across.
PAPER_REACH = 25

Blobs = tuple[np.ndarray, np.ndarray, np.ndarray]
Joined = tuple[np.ndarray, np.ndarray]


def _freed_from(
    level: np.ndarray, bright: float, labels: np.ndarray, big: np.ndarray
) -> tuple[Blobs, Joined]:
    """Glyphs inside the too-big blobs (``big`` is true at their labels), in a darker-ink mask.

    A rank that touches a card's printed border, the edge of a card lying over it or a soft
    shadow is one blob with it under the local threshold; those are fainter than printed ink,
    so keeping only ink well below the paper beside it cuts the glyph free.
    """
    paper = cv2.dilate(level, cv2.getStructuringElement(cv2.MORPH_RECT, (PAPER_REACH,) * 2))
    # level < paper / 2 in whole numbers: twice the level (255 at most, which no paper exceeds)
    dark = cv2.compare(cv2.add(level, level), paper, cv2.CMP_LT)
    dark = cv2.bitwise_and(dark, np.take(np.where(big, 255, 0).astype(np.uint8), labels))
    _, labels2, stats2, cents2 = _components(dark)
    return _glyph_blobs(level, bright, labels2, stats2, cents2)


def _glyph_blobs(
    level: np.ndarray, bright: float, labels: np.ndarray, stats_i: np.ndarray, cents: np.ndarray
) -> tuple[Blobs, Joined]:
    """Centres, sizes and ink areas (level pixels) of the components shaped like glyphs on card,
    and the pieces of those that are a rank joined to its suit (``_split_joined``)."""
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
    # A rank printed touching its suit is one blob, often too long and thin for a glyph.
    joinable = (
        (diag >= 2 * MIN_GLYPH)
        & (np.maximum(w, h) <= MAX_GLYPH)
        & (area >= 20)
        & (fill >= 0.08)
        & (np.maximum(w, h) <= 8.0 * np.minimum(w, h) + 2)
    )
    long_ = np.flatnonzero(joinable)
    joinable[long_[~_elongated(labels, stats_i[1:], long_)]] = False
    idx = np.flatnonzero(keep | joinable)
    if idx.size:
        idx = idx[_on_paper(level, bright, labels, stats_i[1:], idx)]
    joined = _split_joined(labels, stats_i[1:], idx[joinable[idx]])
    idx = idx[keep[idx]]
    return (cents[idx], diag[idx], area[idx]), joined


#: A blob is looked at for a split when its length is at least this many times its width...
JOINED_ELONGATION = 2.0
#: ... and cut where its ink across is at most this share of the widest ink on either side.
NECK = 0.35


def _elongated(labels: np.ndarray, stats: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Which blobs of ``idx`` are at least ``JOINED_ELONGATION`` times as long as wide (the
    spread of their pixels along and across their main axis), each seen within its box."""
    out = np.zeros(idx.size, bool)
    for j, (i, (x, y, w, h)) in enumerate(zip(idx.tolist(), stats[idx, :4].tolist(), strict=True)):
        m = cv2.moments((labels[y : y + h, x : x + w] == i + 1).view(np.uint8), True)
        half, rest = (
            (m["mu20"] + m["mu02"]) / 2.0,
            np.hypot((m["mu20"] - m["mu02"]) / 2.0, m["mu11"]),
        )
        out[j] = half + rest >= JOINED_ELONGATION**2 * max(half - rest, 1e-9)
    return out


def _split_joined(labels: np.ndarray, stats: np.ndarray, idx: np.ndarray) -> Joined:
    """The two pieces of each blob in ``idx`` that is a rank and its suit printed touching.

    Such a blob is long and pinched where the two glyphs meet: its ink, counted in one-pixel
    slices across its long axis, falls to a narrow neck in its middle third. Small decks print
    the suit a pixel or two under the rank, and on a card 130 px wide the two join. Each blob
    is looked at within its own box (``stats``, the components' boxes without the background).
    """
    centres: list[list[tuple[float, float]]] = []
    sizes: list[list[float]] = []
    for i, (x, y, w, h) in zip(idx.tolist(), stats[idx, :4].tolist(), strict=True):
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == i + 1)
        pair = _cut_at_neck(np.stack([xs + x, ys + y], axis=1).astype(np.float64))
        if pair is not None:
            centres.append([pair[0][0], pair[1][0]])
            sizes.append([pair[0][1], pair[1][1]])
    return (
        np.asarray(centres, np.float32).reshape(-1, 2, 2),
        np.asarray(sizes, np.float32).reshape(-1, 2),
    )


def _cut_at_neck(pts: np.ndarray) -> tuple[tuple[tuple[float, float], float], ...] | None:
    """(centre, size) of the two pieces of the long blob of pixels ``pts`` cut at its neck, or
    None when it has none."""
    d = pts - pts.mean(axis=0)
    t = d @ np.linalg.eigh(d.T @ d)[1][:, 1]  # along the main axis
    slot = np.floor(t - t.min()).astype(np.int64)
    prof = np.bincount(slot)
    n = prof.size
    lo, hi = n // 3, max(n // 3 + 1, (2 * n) // 3)
    cut = lo + int(np.argmin(prof[lo:hi]))
    if cut == 0 or cut >= n - 1:
        return None
    if prof[cut] > NECK * min(prof[:cut].max(), prof[cut + 1 :].max()):
        return None
    out = []
    for part in (pts[slot < cut], pts[slot > cut]):
        span = part.max(axis=0) - part.min(axis=0) + 1
        diag = float(np.hypot(*span))
        if diag < MIN_GLYPH or part.shape[0] < 10:
            return None
        out.append(((float(part[:, 0].mean()), float(part[:, 1].mean())), diag))
    return tuple(out)


#: Most of the ring around an index glyph is bare card: at most this share may be other ink.
MAX_CLUTTER = 0.4
#: Ink at least this many times the glyph's size across is a large shape, not clutter.
BIG_INK = 3.0
#: The span given to the background (no ink): more than any glyph's ``BIG_INK`` reach.
BACKGROUND_SPAN = 65535
#: The bare card around a glyph is at least this bright, as a share of the level's bright end.
#: A card in a hand's or a lampshade's shadow, beside a lit one, is down to about 40%.
MIN_PAPER = 0.38


def _on_paper(
    level: np.ndarray, bright: float, labels: np.ndarray, stats: np.ndarray, idx: np.ndarray
) -> np.ndarray:
    """Which of the blobs ``idx`` sit on bare, bright card, as index glyphs do.

    Textured tables (knit, wood grain, carpet) give many glyph-sized blobs, but each is crowded
    by other blobs and sits on darker ground; dropping them early keeps the classifier's work small.
    """
    hgt, wid = level.shape[:2]
    # Ink much bigger than a glyph (the table beyond a card's edge, a border or frame line) is
    # not clutter: a corner index often sits right beside it. (Spans in 16 bits: quicker.)
    span = np.maximum(stats[:, 2], stats[:, 3])
    span = np.concatenate([[BACKGROUND_SPAN], span]).astype(np.uint16)
    keep = np.zeros(idx.size, bool)
    for j, (x, y, w, h, own) in enumerate(stats[idx, :5].tolist()):
        m = max(w, h) // 3 + 1
        x0, y0, x1, y1 = max(0, x - m), max(0, y - m), min(wid, x + w + m), min(hgt, y + h + m)
        lab = labels[y0:y1, x0:x1]
        ring = lab.size - own  # ``own``: its area, all inside the window, which holds its box
        if ring <= 0:
            continue
        other = np.count_nonzero(np.take(span, lab) <= int(BIG_INK * max(w, h))) - own
        if other > MAX_CLUTTER * ring:
            continue
        bare = (lab == 0).view(np.uint8)
        paper = cv2.mean(level[y0:y1, x0:x1], bare)[0] if bare.any() else 0.0
        keep[j] = paper >= MIN_PAPER * bright
    return keep


def merge_levels(parts: list[Glyphs]) -> Glyphs:
    """All levels' blobs in one set, a blob found again on a coarser level counted once.

    A rank and its suit can straddle two levels (a big rank found coarse, its small suit fine),
    so pairs are made across levels; the duplicates would only cost time.
    """
    keep: list[Glyphs] = []
    for g in parts:
        if keep:
            c = _again(g.centers, g.sizes, *_all(keep, "centers", "sizes"))
            j = _again(g.joined, g.joined_sizes, *_all(keep, "joined", "joined_sizes"))
            g = Glyphs(
                g.centers[~c], g.sizes[~c], g.areas[~c], g.level_scale,
                g.joined[~j], g.joined_sizes[~j],
            )  # fmt: skip
        keep.append(g)
    centers, sizes, areas, joined, joined_sizes = (
        x.astype(np.float32)
        for x in _all(keep, "centers", "sizes", "areas", "joined", "joined_sizes")
    )
    return Glyphs(centers, sizes, areas, 1.0, joined, joined_sizes)


def _all(parts: list[Glyphs], *names: str) -> list[np.ndarray]:
    """Each named field of ``parts``, the levels' arrays one after the other."""
    return [np.concatenate([getattr(g, n) for g in parts]) for n in names]


def _again(
    centers: np.ndarray, sizes: np.ndarray, seen: np.ndarray, seen_sizes: np.ndarray
) -> np.ndarray:
    """(n,) bool: which of these blobs a coarser look found already: near, and of a like size.
    Cut pairs ((n, 2, 2) centres, (n, 2) sizes) are compared by their middles and summed sizes."""
    if centers.ndim == 3:
        centers, sizes = centers.mean(axis=1), sizes.sum(axis=1)
        seen, seen_sizes = seen.mean(axis=1), seen_sizes.sum(axis=1)
    if centers.shape[0] == 0 or seen.shape[0] == 0:
        return np.zeros(centers.shape[0], bool)
    d = np.hypot(*(centers[:, None, :] - seen[None, :, :]).transpose(2, 0, 1))
    ratio = sizes[:, None] / seen_sizes[None, :]
    return np.asarray(((d < 0.25 * sizes[:, None]) & (ratio > 0.7) & (ratio < 1.4)).any(axis=1))
