"""A second look at a card found whole: how many pips its face shows.

An index read can be wrong and sure (an ornamental deck's gold frame curling into an 8 made
one network read it as a J at 0.92). The pips in the middle of a number card are printed in
no font and there are as many as the rank says, so counting them is a witness that does not
share the index reader's mistakes. It only vetoes: a read that the pips contradict becomes a
question offering both; where the pips say nothing (a court's picture, a covered face) the
read stands as before.

The face is taken upright at ``PX_PER_MM`` (the card's outline comes from the card finder).
Pips are the biggest set of like-sized, compact, saturated shapes away from the corners, where
the indices are, and not cut by the face's edge (the card below showing past an outline a
millimetre wide).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.vision.corner import CARD_MM, card_view

#: The scale the face is looked at (the card is ``corner.CARD_MM``).
PX_PER_MM = 2.0
#: Shapes this tall (mm) may be pips: a small 10's pips to an ace's big one.
PIP_MM = (3.0, 22.0)
#: Pips of one face are this alike in height (share of the set's median).
ALIKE = 0.25
#: The corners where indices are printed: this far in from the long and the short edges (mm).
CORNER_MM = (17.0, 27.0)
#: ... and all down the long edges, this far in (mm): some decks print the index's suit low,
#: below ``CORNER_MM``, beside the pips and as big, but no deck prints a pip this near the edge.
SIDE_MM = 11.0
#: The edge band left out (borders, frames).
EDGE_MM = 2.5


def face_size() -> tuple[int, int]:
    """The upright face's width and height in pixels."""
    return round(CARD_MM[0] * PX_PER_MM), round(CARD_MM[1] * PX_PER_MM)


def upright(frame: npt.NDArray[Any], quad: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The card whose outline is ``quad`` (4 x 2 frame pixels, in order round it) warped
    upright to ``face_size()``: its long side down the picture."""
    to_frame, size = card_view(quad, PX_PER_MM, margin_mm=0)
    flags = cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
    return np.asarray(cv2.warpPerspective(frame, to_frame, size, flags=flags))


def count_pips(face: npt.NDArray[Any]) -> int | None:
    """How many pips the upright face (``upright``) shows in its middle; None where it shows
    no set of two or more like shapes."""
    w, h = face_size()
    ink = face.min(axis=2) if face.ndim == 3 else face  # red ink as dark as black
    edge = round(EDGE_MM * PX_PER_MM)
    stock = float(np.percentile(ink[edge:-edge, edge:-edge], 90))
    mask = np.zeros(ink.shape, np.uint8)
    mask[edge:-edge, edge:-edge] = ink[edge:-edge, edge:-edge] < 0.55 * stock
    n, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    lo, hi = (v * PX_PER_MM for v in PIP_MM)
    cx, cy = (v * PX_PER_MM for v in CORNER_MM)
    side = SIDE_MM * PX_PER_MM
    shapes = []  # (width, height) of each pip-like shape, or of pips printed touching
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        mx, my = centres[i]
        in_corner = min(mx, w - mx) < side or (min(mx, w - mx) < cx and min(my, h - my) < cy)
        cut = min(x, y) <= edge or x + bw >= w - edge or y + bh >= h - edge  # by the edge
        if in_corner or cut or not lo <= bh <= hi or not 0.45 <= bw / bh <= 3.6:
            continue
        if area < 0.35 * bw * bh:  # a ring, a line, a scroll
            continue
        shapes.append((bw, bh))
    singles = [(bw, bh) for bw, bh in shapes if bw / bh <= 1.8]
    best: list[tuple[int, int]] = []
    for _, ref in singles:  # the biggest set of like heights
        group = [s for s in singles if abs(s[1] - ref) <= ALIKE * ref]
        best = group if len(group) > len(best) else best
    if len(best) < 2:
        return None
    ref_h = float(np.median([bh for _, bh in best]))
    ref_w = float(np.median([bw for bw, _ in best]))
    # pips printed touching side by side count as many as they are wide
    count = sum(max(1, round(bw / ref_w)) for bw, bh in shapes if abs(bh - ref_h) <= ALIKE * ref_h)
    return count


def agrees(rank: int, pips: int | None) -> bool:
    """Whether a read of ``rank`` may stand beside a face showing ``pips``. A number card
    shows no more pips than its rank, and at least half of them (a pip near a corner is left
    with the index's, pips printed close may join, a thumb hides one); an ace and a court
    show no set of five."""
    if pips is None:
        return True
    if 2 <= rank <= 10:
        return rank // 2 <= pips <= rank
    return pips < 5
