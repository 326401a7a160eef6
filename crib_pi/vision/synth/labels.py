"""Label candidate index frames against a synthetic scene's ground truth.

A frame reads card *c* when its rank point lies in the rank box and its suit point in the suit
box of one of *c*'s indices (top-left as printed, or bottom-right turned half round), and both
boxes are in view and uncovered. An index partly under another card or cut by the frame's edge
is "no index": the classifier must not learn to guess a card from part of its index (a 6 from
an 8 with its top hidden, a club from a spade without its point). Frames on faces whose index
could not be measured are ``IGNORE``d in training; everything else is "no index".
"""

from __future__ import annotations

import cv2
import numpy as np

from crib_pi.vision.pairs import Frames
from crib_pi.vision.synth.scenes import Scene

NONE = 52
IGNORE = -1
#: Corner regions of a face, as shares of its width and height (faces without measured boxes).
CORNER_W = 0.3
CORNER_H = 0.42
#: Boxes are widened by this share of their size before the test.
SLACK = 0.2
#: The least share of an index's rank and suit boxes that must be in view for a positive label.
MIN_IN_VIEW = 0.95


def label_frames(scene: Scene, frames: Frames) -> np.ndarray:
    """(n,) int64: ``Card.index`` read by each frame, ``NONE`` or ``IGNORE``."""
    n = len(frames)
    out = np.full(n, NONE, np.int64)
    if n == 0:
        return out
    half = frames.downs * (frames.gaps / 2.0)[:, None]
    a = frames.centers - half
    b = frames.centers + half
    h, w = scene.top.shape
    ai = np.clip(np.round(a).astype(int), 0, [w - 1, h - 1])
    bi = np.clip(np.round(b).astype(int), 0, [w - 1, h - 1])
    ka = scene.top[ai[:, 1], ai[:, 0]]
    kb = scene.top[bi[:, 1], bi[:, 0]]
    for i in np.flatnonzero((ka >= 0) & (ka == kb)):
        k = int(ka[i])
        inv = np.linalg.inv(scene.homographies[k])
        fw, fh = scene.face_sizes[k]
        pa, pb = _apply(inv, a[i]), _apply(inv, b[i])
        boxes = scene.boxes[k]
        if boxes is None:
            corner = [
                (p[0] < CORNER_W * fw or p[0] > (1 - CORNER_W) * fw)
                and (p[1] < CORNER_H * fh or p[1] > (1 - CORNER_H) * fh)
                for p in (pa, pb)
            ]
            if any(corner):
                out[i] = IGNORE
            continue
        rank, suit = boxes
        for turned, (qa, qb) in enumerate(
            ((pa, pb), (np.array([fw, fh]) - pa, np.array([fw, fh]) - pb))
        ):
            if _inside(qa, rank) and _inside(qb, suit):
                if _in_view(scene, k, (rank, suit), bool(turned)) >= MIN_IN_VIEW:
                    out[i] = scene.cards[k]
                break
    return out


def _in_view(scene: Scene, k: int, boxes: tuple[tuple[float, ...], ...], turned: bool) -> float:
    """Share of a grid over card ``k``'s rank and suit boxes that is in the image and on top."""
    fw, fh = scene.face_sizes[k]
    grid = np.linspace(0.0, 1.0, 5)
    pts = np.concatenate(
        [
            np.stack(np.meshgrid(x0 + grid * (x1 - x0), y0 + grid * (y1 - y0)), -1).reshape(-1, 2)
            for x0, y0, x1, y1 in boxes
        ]
    )
    if turned:
        pts = np.array([fw, fh]) - pts
    return _share_on_top(scene, k, pts)


def _share_on_top(scene: Scene, k: int, face_pts: np.ndarray) -> float:
    """Share of points on card ``k``'s face (face pixels) that land in the image on that card."""
    img = cv2.perspectiveTransform(face_pts[None].astype(np.float64), scene.homographies[k])[0]
    x, y = np.round(img[:, 0]).astype(int), np.round(img[:, 1]).astype(int)
    h, w = scene.top.shape
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    on_top = np.zeros(len(face_pts), bool)
    on_top[inside] = scene.top[y[inside], x[inside]] == k
    return float(on_top.mean())


def _inside(p: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = box
    mx, my = SLACK * (x1 - x0) + 1, SLACK * (y1 - y0) + 1
    return bool(x0 - mx <= p[0] <= x1 + mx and y0 - my <= p[1] <= y1 + my)


def _apply(hom: np.ndarray, p: np.ndarray) -> np.ndarray:
    q = hom @ np.array([p[0], p[1], 1.0])
    return np.asarray(q[:2] / q[2], np.float64)


def readable_cards(scene: Scene) -> list[int]:
    """Cards a reader should name: one whole index (rank and suit boxes) in view and uncovered.

    The same rule as the training labels (``MIN_IN_VIEW`` of both boxes, either corner). Faces
    whose index could not be measured are left out: see ``unindexed_cards``.
    """
    out = []
    for k, card in enumerate(scene.cards):
        boxes = scene.boxes[k]
        if boxes is not None and any(
            _in_view(scene, k, boxes, turned) >= MIN_IN_VIEW for turned in (False, True)
        ):
            out.append(card)
    return out


def unindexed_cards(scene: Scene) -> list[int]:
    """Cards whose face prints no index on bare card (a court without one, or with it drawn into
    the picture) and whose top-left or bottom-right corner shows: an index reader cannot name
    them from the index, so benchmarks count them apart.
    """
    us, vs = np.meshgrid(np.linspace(0.06, 0.19, 5), np.linspace(0.05, 0.27, 6))
    tl = np.stack([us.ravel(), vs.ravel()], axis=1)
    out = []
    for k, card in enumerate(scene.cards):
        if scene.boxes[k] is not None:
            continue
        size = np.array(scene.face_sizes[k], np.float64)
        if any(_share_on_top(scene, k, region * size) == 1.0 for region in (tl, 1.0 - tl)):
            out.append(card)
    return out
