"""Draw reads on an image so a person can check them by eye."""

from __future__ import annotations

import cv2
import numpy as np

from crib_pi.vision.reads import Recognition

GREEN = (40, 200, 40)
AMBER = (0, 170, 255)


def draw(bgr: np.ndarray, rec: Recognition) -> np.ndarray:
    """A copy of the image with named cards in green and uncertain indices in amber."""
    out = bgr.copy()
    thick = max(1, round(max(out.shape[:2]) / 600))
    for read in rec.cards:
        _outline(out, read.corners, GREEN, thick)
        _label(out, read.corners, f"{read.card} {read.confidence:.2f}", GREEN, thick)
    for u in rec.uncertain:
        _outline(out, u.corners, AMBER, thick)
        _label(out, u.corners, "?" + "/".join(str(c) for c in u.candidates[:3]), AMBER, thick)
    return out


def _outline(
    img: np.ndarray, corners: tuple[tuple[float, float], ...], col: tuple[int, ...], thick: int
) -> None:
    pts = np.array(corners, np.float32).round().astype(np.int32)
    cv2.polylines(img, [pts], True, col, thick, cv2.LINE_AA)


def _label(
    img: np.ndarray,
    corners: tuple[tuple[float, float], ...],
    text: str,
    col: tuple[int, ...],
    thick: int,
) -> None:
    x = int(min(p[0] for p in corners))
    y = int(min(p[1] for p in corners)) - 4
    scale = 0.4 * thick
    cv2.putText(
        img,
        text,
        (x, max(y, 12)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        (0, 0, 0),
        thick + 2,
        cv2.LINE_AA,
    )
    cv2.putText(
        img, text, (x, max(y, 12)), cv2.FONT_HERSHEY_SIMPLEX, scale, col, thick, cv2.LINE_AA
    )
