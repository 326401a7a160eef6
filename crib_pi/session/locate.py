"""Find the printed mat in a camera frame: ArUco markers give a frame-to-mat homography.

Hands hide markers all the time, so any one marker is enough, all four are best, and the last
good mapping is kept when none is seen (the camera does not move during a game).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.mat import ARUCO_DICT, Mat

Homography = npt.NDArray[np.float64]


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

    def to_mat(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Frame pixels to mat pixels (N x 2)."""
        if self.homography is None:
            raise ValueError("the mat has not been found in any frame yet")
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        mapped = cv2.perspectiveTransform(pts, self.homography)
        return np.asarray(mapped, np.float64).reshape(-1, 2)
