"""Find the printed mat in a camera frame: ArUco markers give a frame-to-mat homography.

Hands hide markers all the time, so any one marker is enough, all four are best, and the last
good mapping is kept when none is seen (the camera does not move during a game).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.i18n import _
from crib_pi.mat import ARUCO_DICT, HEIGHT, PX_PER_MM, WIDTH, Mat

Homography = npt.NDArray[np.float64]

CARD_WIDTH_MM = 63
"""A poker-size card's width; bridge cards (57 mm) come out a tenth smaller."""
READ_WELL_PX = 110
"""Card width in frame pixels from which the recognizer reads well (it reads down to about 100
px, with recall falling: ``bench_vision.py --camera-modes``)."""
CAMERA_MODES = ((1280, 720), (1920, 1080), (2304, 1296))
"""Main-stream sizes of Camera Module 3 at its full field of view (its binned 2304x1296 mode)."""


class MatLocator:
    """Keeps the current frame-to-mat homography up to date."""

    def __init__(self, mat: Mat) -> None:
        self.mat = mat
        self._targets = mat.markers()
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.ArucoDetector(
            cv2.aruco.getPredefinedDictionary(ARUCO_DICT), params
        )
        self.homography: Homography | None = None
        self.markers_seen = 0

    def update(self, frame: npt.NDArray[np.uint8]) -> Homography | None:
        """Look for markers in ``frame``; returns the mapping in force (None before any)."""
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        corners, ids, _ = self._detector.detectMarkers(grey)
        src, dst = [], []
        if ids is not None:
            for quad, marker in zip(corners, ids.ravel(), strict=True):
                if int(marker) in self._targets:
                    src.append(quad.reshape(4, 2))
                    dst.append(self._targets[int(marker)])
        self.markers_seen = len(src)
        if src:
            h, _ = cv2.findHomography(np.concatenate(src), np.concatenate(dst), 0)
            if h is not None:
                self.homography = np.asarray(h, np.float64)
        return self.homography

    def card_width_px(self) -> float | None:
        """How wide a card lying at the mat's centre is in frame pixels (None before the mat)."""
        if self.homography is None:
            return None
        cx, cy, half = WIDTH / 2, HEIGHT / 2, CARD_WIDTH_MM * PX_PER_MM / 2
        ends = np.array([[[cx - half, cy]], [[cx + half, cy]]], np.float64)
        a, b = cv2.perspectiveTransform(ends, np.linalg.inv(self.homography)).reshape(2, 2)
        return float(np.hypot(*(b - a)))

    def to_mat(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Frame pixels to mat pixels (N x 2)."""
        if self.homography is None:
            raise ValueError("the mat has not been found in any frame yet")
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        mapped = cv2.perspectiveTransform(pts, self.homography)
        return np.asarray(mapped, np.float64).reshape(-1, 2)


def camera_advice(card_px: float, frame: tuple[int, int]) -> str | None:
    """What to change when cards are too small in the frame to be read well, or None.

    The smallest Camera Module 3 mode that makes cards at least ``READ_WELL_PX`` wide is named
    (a larger frame costs time: about 2.3 times at 1920x1080); past the largest, the camera
    must come down.
    """
    if card_px >= READ_WELL_PX:
        return None
    width, height = frame
    said = {"px": round(card_px), "size": f"{width}x{height}", "well": READ_WELL_PX}
    for w, h in CAMERA_MODES:
        if w > width and card_px * w / width >= READ_WELL_PX:
            return _(
                "cards are about {px} px wide in the {size} frames, and are read well from "
                "{well} px: set width = {w} and height = {h} under [devices.camera], or lower "
                "the camera"
            ).format(w=w, h=h, **said)
    return _(
        "cards are about {px} px wide in the {size} frames, and are read well from {well} px: "
        "lower the camera so the mat fills the frame"
    ).format(**said)
