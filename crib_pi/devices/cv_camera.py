"""A USB webcam (or a video file) on a laptop through OpenCV's ``cv2.VideoCapture``.

V4L2 with MJPG and a one-frame buffer cuts the lag between the table and the picture. OpenCV
cannot open a Pi camera module (libcamera); use ``pi_camera`` there. ``set()`` may silently
not apply, so each setting is read back and a refusal is reported once.
"""

from __future__ import annotations

from typing import Any

from crib_pi.devices.cameras import CameraFrame
from crib_pi.devices.clock import Clock
from crib_pi.devices.config import CameraConfig
from crib_pi.devices.errors import DeviceUnavailableError
from crib_pi.devices.report import Reporter


class CvCamera:
    """Frames from ``cv2.VideoCapture``: device index (``"0"``) or a path / URL."""

    def __init__(self, config: CameraConfig, clock: Clock, reporter: Reporter) -> None:
        try:
            import cv2
        except ImportError as exc:
            raise DeviceUnavailableError(
                "camera", f"OpenCV is not installed ({exc}); pip install opencv-python-headless"
            ) from exc
        self._cv2: Any = cv2
        self.clock = clock
        self.reporter = reporter
        source = config.device
        settings: tuple[tuple[int, int, str], ...] = ()
        if source.isdigit():
            capture = cv2.VideoCapture(int(source), cv2.CAP_V4L2)
            settings = (
                (cv2.CAP_PROP_FOURCC, _fourcc(cv2, "MJPG"), "MJPG"),
                (cv2.CAP_PROP_FRAME_WIDTH, config.width, "width"),
                (cv2.CAP_PROP_FRAME_HEIGHT, config.height, "height"),
                (cv2.CAP_PROP_BUFFERSIZE, 1, "one-frame buffer"),
            )
        else:
            capture = cv2.VideoCapture(source)
        if not capture.isOpened():
            capture.release()
            raise DeviceUnavailableError("camera", f"no camera at {source!r}")
        for prop, value, name in settings:
            if not capture.set(prop, value):
                reporter.problem("camera", f"the webcam refused the setting {name} = {value}")
        if config.lock_exposure:
            # Not done yet: V4L2 exposure / white-balance controls differ per webcam.
            reporter.problem("camera", "lock_exposure is not implemented for webcams yet")
        self._capture: Any = capture
        self._number = 0
        self._ended = False

    def read(self) -> CameraFrame | None:
        if self._capture is None or self._ended:
            return None
        ok, image = self._capture.read()
        if not ok or image is None:
            self._ended = True
            self.reporter.problem("camera", "the camera stopped giving frames")
            return None
        self._number += 1
        rgb = self._cv2.cvtColor(image, self._cv2.COLOR_BGR2RGB)
        return CameraFrame(rgb, self.clock.now(), self._number)

    def close(self) -> None:
        """Release the device; safe to call twice."""
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()


def _fourcc(cv2: Any, code: str) -> int:
    """The four-character code as OpenCV's int (its helper moved between OpenCV versions)."""
    maker = getattr(cv2, "VideoWriter_fourcc", None) or cv2.VideoWriter.fourcc
    return int(maker(*code))
