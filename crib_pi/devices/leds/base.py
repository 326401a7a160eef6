"""LED strips: what a driver must do, the recording mock and the null strip.

A strip only shows finished frames; layout, animation and the current limit happen before
(``leds.board``), so every driver gets the same, already safe, frames.
"""

from __future__ import annotations

from typing import Protocol

from crib_pi.devices.config import RGB


class LedStrip(Protocol):
    """A chain of RGB LEDs."""

    @property
    def count(self) -> int: ...

    def show(self, frame: tuple[RGB, ...]) -> None: ...

    def close(self) -> None: ...


class MockStrip:
    """Keeps every frame it was shown, for tests to check."""

    def __init__(self, count: int) -> None:
        self._count = count
        self.frames: list[tuple[RGB, ...]] = []
        self.closed = 0

    @property
    def count(self) -> int:
        return self._count

    def show(self, frame: tuple[RGB, ...]) -> None:
        if self.closed:
            raise RuntimeError("the mock strip is closed")
        if len(frame) != self._count:
            raise ValueError(f"a frame of {len(frame)} LEDs for a strip of {self._count}")
        self.frames.append(tuple(frame))

    def close(self) -> None:
        self.closed += 1


class NullStrip:
    """No strip (a laptop, or a Pi whose strip failed): keeps only the last frame."""

    def __init__(self, count: int) -> None:
        self._count = count
        self.last: tuple[RGB, ...] = ()

    @property
    def count(self) -> int:
        return self._count

    def show(self, frame: tuple[RGB, ...]) -> None:
        self.last = tuple(frame)

    def close(self) -> None:
        return None
