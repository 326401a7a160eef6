"""Read a found card where it says its index is: the card warped upright, its corners read.

The whole-frame reader names a card only where its glyph finder cuts a rank over a suit out of
the picture, at whatever size and angle the card lies; a thin or drawn index, or one printed
close to the card's edge, is often never cut out, and the card is then asked about. With the
card's outline known (``crib_pi.vision.finder``), the card is warped upright at
``PX_PER_MM``, where every index is a few tens of pixels tall and rank above suit, and read by
the same front end, networks and decision as a frame. Only what is read in one of its two
index corners, upright there (the bottom-right one turned half round), counts: a pip pair in
the middle is no index.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.vision.pairs import Frames
from crib_pi.vision.reads import CardRead, Point, Recognition, UncertainRead

#: The card's size (mm) and the scale it is read at: an index 6 to 9 mm tall is then 24 to 36
#: pixels, the middle of what the glyph finder takes.
CARD_MM = (63.0, 88.0)
PX_PER_MM = 3.0
#: Room round the outline (mm): the finder's outline is a card of standard size laid where the
#: card lies, and a bridge-size card or a millimetre off leaves its index at the edge.
MARGIN_MM = 2.0
#: A read counts where its index's centre lies this far in from the card's corner (mm, across
#: and down) and reads upright there: its "down" within this cosine of the card's.
CORNER_MM = (16.0, 28.0)
UPRIGHT_COS = 0.8
#: Where decks print an index, for asking the networks there straight (``index_frames``):
#: its centre this far in from the card's corner (mm, across and down), and its frame's side.
INDEX_ACROSS_MM = (5.0, 6.5, 8.0)
INDEX_DOWN_MM = (10.0, 12.5, 15.0, 17.5)
INDEX_SIDE_MM = (13.0, 16.5, 21.0, 25.0)


def card_view(
    quad: npt.ArrayLike, px_per_mm: float = PX_PER_MM, margin_mm: float = MARGIN_MM
) -> tuple[npt.NDArray[np.float64], tuple[int, int]]:
    """The homography from the upright view's pixels to the frame's, and the view's size, for
    a card whose outline is ``quad`` (4 x 2 frame pixels, in order round it), seen at
    ``px_per_mm`` with ``margin_mm`` round it."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, -1, axis=0)  # start at a short side: the card's long side down
    m = margin_mm * px_per_mm
    w, h = CARD_MM[0] * px_per_mm, CARD_MM[1] * px_per_mm
    rect = np.array([[m, m], [w + m, m], [w + m, h + m], [m, h + m]], np.float64)
    to_frame = cv2.getPerspectiveTransform(rect.astype(np.float32), q.astype(np.float32))
    return np.asarray(to_frame, np.float64), (round(w + 2 * m), round(h + 2 * m))


def upright_card(frame: npt.NDArray[Any], quad: npt.ArrayLike) -> npt.NDArray[Any]:
    """The card warped upright at ``PX_PER_MM`` with ``MARGIN_MM`` round it."""
    to_frame, size = card_view(quad)
    return np.asarray(
        cv2.warpPerspective(
            frame,
            to_frame,
            size,
            flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    )


def in_corner(corners: tuple[Point, ...]) -> bool:
    """Whether an index read in the upright view (its patch corners: top-left, top-right,
    bottom-right, bottom-left) lies in one of the card's index corners, upright there."""
    c = np.asarray(corners, np.float64)
    centre = c.mean(axis=0) / PX_PER_MM - MARGIN_MM
    down = (c[3] - c[0]) + (c[2] - c[1])
    down /= max(float(np.linalg.norm(down)), 1e-9)
    cx, cy = CORNER_MM
    if centre[0] < cx and centre[1] < cy:
        return bool(down[1] >= UPRIGHT_COS)
    if centre[0] > CARD_MM[0] - cx and centre[1] > CARD_MM[1] - cy:
        return bool(-down[1] >= UPRIGHT_COS)
    return False


def to_frame(found: Recognition, quad: npt.ArrayLike) -> Recognition:
    """The reads of a card's upright view that lie in its index corners, in frame pixels."""
    view, _ = card_view(quad)

    def back(corners: tuple[Point, ...]) -> tuple[Point, ...]:
        pts = np.asarray(corners, np.float64).reshape(-1, 1, 2)
        out = cv2.perspectiveTransform(pts, view).reshape(-1, 2)
        return tuple((float(x), float(y)) for x, y in out)

    return Recognition(
        tuple(
            CardRead(r.card, r.confidence, back(r.corners), back(r.opposite) if r.opposite else ())
            for r in found.cards
            if in_corner(r.corners)
        ),
        tuple(
            UncertainRead(u.candidates, u.probabilities, back(u.corners))
            for u in found.uncertain
            if in_corner(u.corners)
        ),
    )


def index_frames() -> Frames:
    """Frames in the upright view (``upright_card``) on every place and size an index is
    printed at in the card's two index corners, upright there: where the glyph finder cuts
    no index out (a drawn or cartoon font), the networks can still be asked about it."""
    w, h = CARD_MM
    m = MARGIN_MM
    centres, downs, sides = [], [], []
    for x in INDEX_ACROSS_MM:
        for y in INDEX_DOWN_MM:
            for side in INDEX_SIDE_MM:
                centres += [(x + m, y + m), (w - x + m, h - y + m)]
                downs += [(0.0, 1.0), (0.0, -1.0)]
                sides += [side, side]
    n = len(sides)
    return Frames(
        np.asarray(centres, np.float32) * PX_PER_MM,
        np.asarray(downs, np.float32),
        np.asarray(sides, np.float32) * PX_PER_MM,
        np.asarray(sides, np.float32) * PX_PER_MM / 2.5,
        np.full((n, 2), -1, np.int32),
    )
