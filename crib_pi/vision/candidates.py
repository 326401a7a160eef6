"""All candidate index frames of an image, and their patches: the shared front end.

Training, the benchmark and recognition all call this one function, so the classifier is
trained on exactly the kind of patches it is later asked about.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from crib_pi.vision.glyphs import Glyphs, find_glyphs, ink_map, merge_levels, pyramid
from crib_pi.vision.pairs import Frames, concat, joined_frames, pair_frames
from crib_pi.vision.patches import color_pyramid, extract


def candidates(bgr: np.ndarray) -> tuple[Frames, np.ndarray]:
    """Frames of every rank-over-suit glyph pair and their (n, P, P, 3) uint8 patches."""
    frames, patches, _ = front_end(bgr)
    return frames, patches


#: Most blobs looked at in one image. Table frames and the development photos have up to about
#: a thousand, cluttered synthetic tables about two thousand; an image of noise or fine print
#: has tens of thousands, and merging and pairing them all would take gigabytes and minutes.
#: Beyond this many the largest are kept (specks make the smallest); frames, at most four a
#: blob, are bounded with them. Ordinary images never come near it: their reading is unchanged.
MAX_GLYPHS = 6000


def _largest(parts: list[Glyphs], most: int) -> list[Glyphs]:
    """Each level's blobs, keeping only the ``most`` largest of all levels, in their order."""
    sizes = np.concatenate([g.sizes for g in parts])
    if sizes.size <= most:
        return parts
    kept = np.zeros(sizes.size, bool)
    kept[np.argsort(-sizes, kind="stable")[:most]] = True
    out, start = [], 0
    for g in parts:
        k = kept[start : start + g.sizes.size]
        start += g.sizes.size
        out.append(replace(g, centers=g.centers[k], sizes=g.sizes[k], areas=g.areas[k]))
    return out


def front_end(bgr: np.ndarray) -> tuple[Frames, np.ndarray, list[np.ndarray]]:
    """``candidates`` and the colour pyramid they were cut from, for cutting the wide look."""
    levels = pyramid(ink_map(bgr))
    parts = _largest([find_glyphs(img, scale) for img, scale in levels], MAX_GLYPHS)
    glyphs = merge_levels(parts)
    frames = concat([pair_frames(glyphs), joined_frames(glyphs, len(glyphs.sizes))])
    pyr = color_pyramid(bgr, len(levels))
    return frames, extract(pyr, frames), pyr
