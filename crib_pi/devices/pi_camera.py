"""A Pi camera module (CSI) through picamera2, installed with apt (``python3-picamera2``).

A venv sees it only when made with ``--system-site-packages`` (``scripts/_venv.sh`` does that
on a Pi). picamera2's ``RGB888`` arrays are in B, G, R order; frames are flipped to RGB here.
Not yet run on a real Pi by this project: the adapter follows picamera2's documented API.
"""

from __future__ import annotations

from typing import Any

from crib_pi.devices.cameras import CameraFrame
from crib_pi.devices.clock import Clock
from crib_pi.devices.config import CameraConfig
from crib_pi.devices.errors import DeviceUnavailableError
from crib_pi.devices.report import Reporter


class PiCamera:
    """Frames from picamera2's main stream."""

    def __init__(self, config: CameraConfig, clock: Clock, reporter: Reporter) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise DeviceUnavailableError(
                "camera", f"picamera2 is not installed ({exc}); apt install python3-picamera2"
            ) from exc
        self.clock = clock
        self.reporter = reporter
        try:
            camera: Any = Picamera2()
        except (IndexError, RuntimeError) as exc:
            raise DeviceUnavailableError("camera", f"no camera module found ({exc})") from exc
        size = (config.width, config.height)
        camera.configure(camera.create_video_configuration(main={"size": size, "format": "RGB888"}))
        camera.start()
        if config.lock_exposure:
            # Auto exposure and white balance make cards flicker between readable and not.
            camera.set_controls({"AeEnable": False, "AwbEnable": False})
        self._camera: Any = camera
        self._number = 0

    def read(self) -> CameraFrame | None:
        if self._camera is None:
            return None
        try:
            bgr = self._camera.capture_array("main")
        except RuntimeError as exc:
            self.reporter.problem("camera", f"the camera stopped giving frames ({exc})")
            return None
        self._number += 1
        return CameraFrame(bgr[:, :, ::-1].copy(), self.clock.now(), self._number)

    def close(self) -> None:
        """Stop and release the camera; safe to call twice."""
        camera, self._camera = self._camera, None
        if camera is not None:
            camera.stop()
            camera.close()
