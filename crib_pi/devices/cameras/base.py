"""Cameras: the frame type, what a driver must do, the mock fed by tests and the null camera.

Every camera gives ``CameraFrame``s holding an RGB ``uint8`` array (height x width x 3), so
vision code never cares whether the picture came from picamera2, a webcam or a test.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True, eq=False)
class CameraFrame:
    """One picture: RGB pixels, the clock time it was taken, its number since the start."""

    image: Image
    at: float
    number: int

    @property
    def size(self) -> tuple[int, int]:
        """(width, height)."""
        return int(self.image.shape[1]), int(self.image.shape[0])


class Camera(Protocol):
    """A source of frames; ``read`` returns None when no new frame is to be had."""

    def read(self) -> CameraFrame | None: ...

    def close(self) -> None: ...


def as_rgb(image: Image) -> Image:
    """Check a picture is height x width x 3 uint8 and return it contiguous."""
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"a camera frame must be HxWx3 uint8, not {image.shape} {image.dtype}")
    return np.ascontiguousarray(image)


class MockCamera:
    """A camera that gives the pictures it was fed, in order, and counts reads."""

    def __init__(self, images: Iterable[Image] = (), clock_now: float = 0.0) -> None:
        self._images: deque[Image] = deque(as_rgb(i) for i in images)
        self.reads = 0
        self.given = 0
        self.closed = 0
        self._now = clock_now

    def feed(self, image: Image) -> None:
        self._images.append(as_rgb(image))

    def read(self) -> CameraFrame | None:
        if self.closed:
            raise RuntimeError("the mock camera is closed")
        self.reads += 1
        if not self._images:
            return None
        self.given += 1
        return CameraFrame(self._images.popleft(), self._now, self.given)

    def close(self) -> None:
        self.closed += 1


class NullCamera:
    """No camera: never a frame. Buttons alone still run a game."""

    def read(self) -> CameraFrame | None:
        return None

    def close(self) -> None:
        return None
