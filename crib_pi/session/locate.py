"""Find the printed mat in a camera frame: ArUco markers give a frame-to-mat homography.

Hands hide markers all the time, so any one marker is enough, all four are best, and the last
good mapping is kept when none is seen (the camera does not move during a game).

Once the mat is found, a frame is searched only round where its markers should be (a few
small boxes instead of the whole picture), and the whole picture again when fewer are there
than the last whole search found (a hand over one, or the camera was moved).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.i18n import _
from crib_pi.mat import ARUCO_DICT, HEIGHT, PX_PER_MM, WIDTH, Mat

Homography = npt.NDArray[np.float64]
Quad = npt.NDArray[np.float32]

CARD_WIDTH_MM = 63
"""A poker-size card's width; bridge cards (57 mm) come out a tenth smaller."""
READ_WELL_PX = 110
"""Card width in frame pixels from which the recognizer reads well (it reads down to about 100
px, with recall falling: ``bench_vision.py --camera-modes``)."""
CAMERA_MODES = ((1280, 720), (1920, 1080), (2304, 1296))
"""Main-stream sizes of Camera Module 3 at its full field of view (its binned 2304x1296 mode)."""
AROUND = 0.75
"""How much of a marker's size the box it is looked for in reaches beyond where it was."""


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
        self._whole_seen = 0  # markers the last search of the whole frame found

    def update(self, frame: npt.NDArray[np.uint8]) -> Homography | None:
        """Look for markers in ``frame``; returns the mapping in force (None before any)."""
        found = self._near_last(frame) if self.homography is not None else {}
        if len(found) < max(self._whole_seen, 1):
            whole = self._detect(frame, (0, 0))
            self._whole_seen = len(whole)
            if len(whole) >= len(found):
                found = whole
        self.markers_seen = len(found)
        if found:
            src = np.concatenate(list(found.values()))
            dst = np.concatenate([self._targets[m] for m in found])
            h, _ = cv2.findHomography(src, dst, 0)
            if h is not None:
                self.homography = np.asarray(h, np.float64)
        return self.homography

    def _detect(self, image: npt.NDArray[np.uint8], at: tuple[int, int]) -> dict[int, Quad]:
        """The mat's markers in ``image`` (a box of the frame whose corner is ``at``), by id,
        their corners in the frame's pixels."""
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        corners, ids, _ = self._detector.detectMarkers(grey)
        if ids is None:
            return {}
        shift = np.asarray(at, np.float32)
        return {
            int(m): np.asarray(quad, np.float32).reshape(4, 2) + shift
            for quad, m in zip(corners, ids.ravel(), strict=True)
            if int(m) in self._targets
        }

    def _near_last(self, frame: npt.NDArray[np.uint8]) -> dict[int, Quad]:
        """The markers found in boxes round where the mapping in force puts them."""
        assert self.homography is not None
        back = np.linalg.inv(self.homography)
        h, w = frame.shape[:2]
        found: dict[int, Quad] = {}
        for marker, target in self._targets.items():
            seen = cv2.perspectiveTransform(target.reshape(-1, 1, 2).astype(np.float64), back)
            seen = seen.reshape(-1, 2)
            lo, hi = seen.min(axis=0), seen.max(axis=0)
            margin = AROUND * float((hi - lo).max()) + 4
            x0, y0 = np.clip(np.floor(lo - margin).astype(int), 0, [w, h])
            x1, y1 = np.clip(np.ceil(hi + margin).astype(int), 0, [w, h])
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue  # outside the picture
            near = self._detect(frame[y0:y1, x0:x1], (int(x0), int(y0)))
            if marker in near:
                found[marker] = near[marker]
        return found

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


def mat_to_frame(
    points: npt.ArrayLike, homography: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Mat pixels to frame pixels (N x 2): ``homography`` maps the frame onto the mat (as
    ``MatLocator.homography`` does), so a card found on the mat can be cut from the frame."""
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    seen = cv2.perspectiveTransform(pts, np.linalg.inv(homography))
    return np.asarray(seen, np.float64).reshape(-1, 2)


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
