"""A Pi camera module (CSI) through picamera2, installed with apt (``python3-picamera2``).

A venv sees it only when made with ``--system-site-packages`` (``scripts/_venv.sh`` does that
on a Pi). picamera2's ``RGB888`` arrays are in B, G, R order; frames are flipped to RGB here.
Not yet run on a real Pi by this project: the adapter follows picamera2's documented API.

Anything the library raises while importing or starting is a camera that cannot be had, never a
crash: a numpy 2 pulled over apt's numpy 1.24 makes ``import picamera2`` raise ``ValueError``
("numpy.dtype size changed"), and no camera module gives ``IndexError`` from ``Picamera2()``.
"""

from __future__ import annotations

from typing import Any

from crib_pi.devices.cameras.base import CameraFrame
from crib_pi.devices.clock import Clock
from crib_pi.devices.config import CameraConfig
from crib_pi.devices.errors import DeviceUnavailableError
from crib_pi.devices.report import Reporter
from crib_pi.i18n import _


class PiCamera:
    """Frames from picamera2's main stream."""

    def __init__(self, config: CameraConfig, clock: Clock, reporter: Reporter) -> None:
        self.clock = clock
        self.reporter = reporter
        self._camera: Any = None
        self._number = 0
        picamera2 = _import_picamera2()
        try:
            camera: Any = picamera2.Picamera2()
        except Exception as exc:
            raise DeviceUnavailableError(
                "camera", _("no camera module found ({exc!r})").format(exc=exc)
            ) from exc
        try:
            size = (config.width, config.height)
            video = camera.create_video_configuration(main={"size": size, "format": "RGB888"})
            camera.configure(video)
            camera.start()
            if config.lock_exposure:
                # Auto exposure and white balance make cards flicker between readable and not.
                camera.set_controls({"AeEnable": False, "AwbEnable": False})
        except Exception as exc:
            _quietly_close(camera)
            raise DeviceUnavailableError(
                "camera", _("the camera would not start ({exc!r})").format(exc=exc)
            ) from exc
        self._camera = camera

    def read(self) -> CameraFrame | None:
        if self._camera is None:
            return None
        try:
            bgr = self._camera.capture_array("main")
        except Exception as exc:
            stopped = _("the camera stopped giving frames ({exc})").format(exc=exc)
            self.reporter.problem("camera", stopped)
            return None
        self._number += 1
        return CameraFrame(bgr[:, :, ::-1].copy(), self.clock.now(), self._number)

    def close(self) -> None:
        """Stop and release the camera; safe to call twice."""
        camera, self._camera = self._camera, None
        if camera is not None:
            camera.stop()
            camera.close()


def _import_picamera2() -> Any:
    """The picamera2 module, or DeviceUnavailableError saying why not and what to do."""
    try:
        import picamera2
    except ImportError as exc:
        raise DeviceUnavailableError(
            "camera",
            _("picamera2 is not installed ({exc}); apt install python3-picamera2").format(exc=exc),
        ) from exc
    except Exception as exc:  # e.g. ValueError from numpy 2 over apt's numpy 1.x
        hint = ""
        if "numpy" in str(exc):
            hint = _(
                "; a pip numpy is hiding apt's python3-numpy: remake .venv with scripts/_venv.sh"
                " (it keeps the numpy apt's picamera2 was built with)"
            )
        raise DeviceUnavailableError(
            "camera",
            _("picamera2 failed to import ({kind}: {exc}){hint}").format(
                kind=type(exc).__name__, exc=exc, hint=hint
            ),
        ) from exc
    return picamera2


def _quietly_close(camera: Any) -> None:
    """Release a half-started camera; a failure here adds nothing to the first one."""
    try:
        camera.close()
    except Exception:
        return
