"""Where each rendered face prints its index: the rank box and the suit box, in face pixels.

Decks differ a lot (small US indices, big continental ones, "10" in one glyph or two), so the
boxes are measured on each clean render instead of assumed: the ink blob nearest the top-left
corner is the rank (with any blob beside it, for "10"), the next blob below it is the suit.
Faces where no such pair is found (courts without an index, or with the index drawn into the
picture) get no boxes.
"""

from __future__ import annotations

import cv2
import numpy as np

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
#: An index's rank starts within this share of the face's height from the top (measured on
#: the gnome decks: 0.08 at most; court pictures without an index give blobs from 0.29 down).
MAX_RANK_TOP = 0.15


def index_boxes(face: np.ndarray) -> tuple[Box, Box] | None:
    """Rank and suit boxes of the top-left index of an RGBA face, or None if not found."""
    fh, fw = face.shape[:2]
    a = face[:, :, 3:4].astype(np.float32) / 255.0
    rgb = face[:, :, :3].astype(np.float32) * a + 255.0 * (1 - a)
    ink = rgb.min(axis=2)
    paper = float(np.median(ink))
    rw, rh = int(fw * 0.32), int(fh * 0.5)
    mask = (ink[:rh, :rw] < paper - 60).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    comps = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 12 or x + w >= rw - 1 or y + h >= rh - 1 or max(w, h) > 0.3 * fw:
            continue
        if w > 4 * h or h > 6 * w:  # frame lines and borders
            continue
        comps.append((x, y, x + w, y + h))
    if len(comps) < 2:
        return None
    first = min(comps, key=lambda c: c[0] + c[1])
    if first[1] > MAX_RANK_TOP * fh:  # ink in a court's picture, not an index
        return None
    fy0, fy1 = first[1], first[3]
    fh_ = fy1 - fy0
    rank = [first]
    for c in sorted(comps, key=lambda c: c[0]):  # "10": a second blob right beside the first
        last = rank[-1]
        if c is first or c[0] <= last[0]:
            continue
        same_row = min(c[3], fy1) - max(c[1], fy0) > 0.7 * fh_
        similar = 0.6 * fh_ <= c[3] - c[1] <= 1.3 * fh_
        if same_row and similar and c[0] - last[2] < 0.35 * fh_:
            rank.append(c)
    rb = (
        min(c[0] for c in rank),
        min(c[1] for c in rank),
        max(c[2] for c in rank),
        max(c[3] for c in rank),
    )
    rwid = rb[2] - rb[0]
    below = [
        c
        for c in comps
        if c not in rank
        and c[1] >= rb[3] - 0.2 * (rb[3] - rb[1])
        and rb[0] - 0.6 * rwid <= (c[0] + c[2]) / 2 <= rb[2] + 0.6 * rwid
    ]
    if not below:
        return None
    suit = min(below, key=lambda c: c[1])
    if suit[1] - rb[3] > 1.5 * (rb[3] - rb[1]):
        return None
    return (
        tuple(float(v) for v in rb),  # type: ignore[return-value]
        tuple(float(v) for v in suit),
    )
