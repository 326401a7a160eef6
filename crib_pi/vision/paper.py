"""Card faces as regions of paper: whether two indices lie on one card.

A card's two corner indices are read apart; when they name different cards, they are one
physical card misread only if one card's face joins them. Card stock is the brightest thing
on most tables in every channel, so the darkest channel (the ink map) above Otsu's threshold,
eroded to cut the thin bridges where cards touch, falls into one region per card. Cards that
overlap, or lie on a white mat, make one region together: two indices there count as one card
and are asked about, the safe way round.
"""

from __future__ import annotations

import cv2
import numpy as np

from crib_pi.vision.glyphs import ink_map

#: Regions are found at this fraction of the frame's size.
SCALE = 0.25


class PaperRegions:
    """Labels of the paper regions of one frame, worked out on first use."""

    def __init__(self, bgr: np.ndarray) -> None:
        self._bgr = bgr
        self._labels: np.ndarray | None = None

    @classmethod
    def from_labels(cls, labels: np.ndarray) -> PaperRegions:
        """Regions worked out before (``labels()`` of another instance), e.g. from a cache."""
        out = cls(np.zeros((1, 1, 3), np.uint8))
        out._labels = labels
        return out

    def labels(self) -> np.ndarray:
        if self._labels is None:
            ink = ink_map(self._bgr)
            small = cv2.resize(ink, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA)
            _, mask = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
            mask = cv2.erode(mask, np.ones((3, 3), np.uint8))
            _, self._labels = cv2.connectedComponents(mask, connectivity=4)
        return self._labels

    def region(self, x: float, y: float, radius: float) -> int:
        """The paper region most of the ground within ``radius`` of (x, y) belongs to; 0: none."""
        lab = self.labels()
        h, w = lab.shape
        cx, cy, r = int(x * SCALE), int(y * SCALE), max(1, int(radius * SCALE))
        patch = lab[max(0, cy - r) : min(h, cy + r + 1), max(0, cx - r) : min(w, cx + r + 1)]
        found = patch[patch > 0]
        return int(np.bincount(found).argmax()) if found.size else 0

    def joined(self, a: tuple[float, float], b: tuple[float, float], radius: float) -> bool:
        """True unless the ground at ``a`` and at ``b`` is paper of two different regions."""
        ra, rb = self.region(*a, radius), self.region(*b, radius)
        return ra == 0 or rb == 0 or ra == rb
