"""A USB webcam (or a video file) on a laptop through OpenCV's ``cv2.VideoCapture``.

V4L2 with MJPG and a one-frame buffer cuts the lag between the table and the picture. OpenCV
cannot open a Pi camera module (libcamera); use ``cameras.pi`` there. ``set()`` may silently
not apply, so each setting is read back and a refusal is reported once.

A webcam that fails a read is not given up on: after ``FAILS_BEFORE_RECONNECT`` failed reads
in a row it is reported and reopened, every ``RECONNECT_EVERY`` seconds until it answers (a
USB cable pulled and pushed back in); a video file that ends, ends.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from crib_pi.devices.cameras.base import CameraFrame
from crib_pi.devices.clock import Clock
from crib_pi.devices.config import CameraConfig
from crib_pi.devices.errors import DeviceUnavailableError
from crib_pi.devices.report import Reporter
from crib_pi.i18n import _

FAILS_BEFORE_RECONNECT = 3
RECONNECT_EVERY = 2.0


class CvCamera:
    """Frames from ``cv2.VideoCapture``: device index (``"0"``) or a path / URL.

    ``opener`` makes the capture (a test hands in one that fails on cue).
    """

    def __init__(
        self,
        config: CameraConfig,
        clock: Clock,
        reporter: Reporter,
        opener: Callable[[], Any] | None = None,
    ) -> None:
        try:
            import cv2
        except ImportError as exc:
            raise DeviceUnavailableError(
                "camera",
                _("OpenCV is not installed ({exc}); pip install opencv-python-headless").format(
                    exc=exc
                ),
            ) from exc
        self._cv2: Any = cv2
        self.clock = clock
        self.reporter = reporter
        self.source = config.device
        self.live = self.source.isdigit()
        if self.live and opener is None and not Path(f"/dev/video{self.source}").exists():
            # Say so plainly rather than let OpenCV print its V4L2 warnings on every start.
            raise DeviceUnavailableError(
                "camera", _("no webcam at {device}").format(device=f"/dev/video{self.source}")
            )
        self._settings: tuple[tuple[int, int, str], ...] = ()
        if self.live:
            self._settings = (
                (cv2.CAP_PROP_FOURCC, _fourcc(cv2, "MJPG"), "MJPG"),
                (cv2.CAP_PROP_FRAME_WIDTH, config.width, "width"),
                (cv2.CAP_PROP_FRAME_HEIGHT, config.height, "height"),
                (cv2.CAP_PROP_BUFFERSIZE, 1, "one-frame buffer"),
            )
        self._opener = opener or self._open
        capture = self._start()
        if capture is None:
            raise DeviceUnavailableError(
                "camera", _("no camera at {source!r}").format(source=self.source)
            )
        if config.lock_exposure:
            # Not done yet: V4L2 exposure / white-balance controls differ per webcam.
            reporter.problem("camera", _("lock_exposure is not implemented for webcams yet"))
        self._capture: Any = capture
        self._number = 0
        self._ended = False
        self._fails = 0
        self._last_try = 0.0
        self.reconnects = 0

    def _open(self) -> Any:
        cv2 = self._cv2
        if self.live:
            return cv2.VideoCapture(int(self.source), cv2.CAP_V4L2)
        return cv2.VideoCapture(self.source)

    def _start(self) -> Any:
        """An opened capture with the settings applied, or None."""
        capture = self._opener()
        if not capture.isOpened():
            capture.release()
            return None
        for prop, value, name in self._settings:
            if not capture.set(prop, value):
                refused = _("the webcam refused the setting {name} = {value}")
                self.reporter.problem("camera", refused.format(name=name, value=value))
        return capture

    def read(self) -> CameraFrame | None:
        if self._ended:
            return None
        if self._capture is None:
            return self._reconnect() if self.live else None
        ok, image = self._capture.read()
        if not ok or image is None:
            if not self.live:
                self._ended = True
                self.reporter.problem("camera", _("the camera stopped giving frames"))
                return None
            self._fails += 1
            if self._fails >= FAILS_BEFORE_RECONNECT:
                self.reporter.problem(
                    "camera",
                    _("the webcam gave no frame {count} times; reconnecting").format(
                        count=self._fails
                    ),
                )
                self._capture.release()
                self._capture = None
                self._last_try = self.clock.now()
            return None
        if self._fails >= FAILS_BEFORE_RECONNECT:
            self.reporter.problem("camera", _("the webcam is giving frames again"))
        self._fails = 0
        self._number += 1
        rgb = self._cv2.cvtColor(image, self._cv2.COLOR_BGR2RGB)
        return CameraFrame(rgb, self.clock.now(), self._number)

    def _reconnect(self) -> CameraFrame | None:
        """Reopen the webcam, at most every ``RECONNECT_EVERY`` seconds."""
        if self.clock.now() - self._last_try < RECONNECT_EVERY:
            return None
        self._last_try = self.clock.now()
        self._capture = self._start()
        if self._capture is None:
            return None
        self.reconnects += 1
        return self.read()

    def close(self) -> None:
        """Release the device; safe to call twice."""
        capture, self._capture = self._capture, None
        self._ended = True
        if capture is not None:
            capture.release()


def _fourcc(cv2: Any, code: str) -> int:
    """The four-character code as OpenCV's int (its helper moved between OpenCV versions)."""
    maker = getattr(cv2, "VideoWriter_fourcc", None) or cv2.VideoWriter.fourcc
    return int(maker(*code))
