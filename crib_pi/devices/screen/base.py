"""Screens: what every screen does, the null screen for a Pi with only LEDs, and the mock.

The mock keeps every snapshot it was shown; it draws nothing, so the mock factory needs no
pygame. The real drawing is tested through ``PygameScreen`` on SDL's dummy driver.
"""

from __future__ import annotations

from typing import Protocol

from crib_pi.snapshot import BoardSnapshot

Hint = tuple[str, str]
"""(button or key, what it does now), e.g. ("Undo", "undo · hold: more")."""


class Screen(Protocol):
    """Shows board states; ``pump`` handles window events and says whether to quit."""

    @property
    def size(self) -> tuple[int, int]: ...

    def show(self, snapshot: BoardSnapshot) -> None: ...

    def pump(self) -> bool: ...

    def close(self) -> None: ...


class NullScreen:
    """No screen: everything is shown on the LEDs and nothing here."""

    size = (0, 0)

    def show(self, snapshot: BoardSnapshot) -> None:
        return None

    def pump(self) -> bool:
        return False

    def close(self) -> None:
        return None


class MockScreen:
    """Keeps what it was shown; ``quit_requested`` stands for closing the window."""

    def __init__(self, size: tuple[int, int] = (800, 480)) -> None:
        self._size = size
        self.shown: list[BoardSnapshot] = []
        self.quit_requested = False
        self.closed = 0

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    def show(self, snapshot: BoardSnapshot) -> None:
        if self.closed:
            raise RuntimeError("the mock screen is closed")
        self.shown.append(snapshot)

    def pump(self) -> bool:
        return self.quit_requested

    def close(self) -> None:
        self.closed += 1
