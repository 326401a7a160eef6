"""The screen through pygame-ce: KMSDRM full screen on a Pi, a window on a laptop, SDL's
dummy driver in tests.

pygame-ce, not PyPI's pygame, because only pygame-ce's aarch64 wheel has the KMSDRM driver a Pi
console needs. The window may be resized: each ``show`` draws for the current size. A drawing
failure is reported once and the game goes on with the screen blank.
"""

from __future__ import annotations

import os
from typing import Any

from crib_pi.devices.config import ScreenConfig
from crib_pi.devices.errors import DeviceUnavailableError
from crib_pi.devices.report import Reporter
from crib_pi.devices.screen.base import Hint
from crib_pi.i18n import _
from crib_pi.snapshot import BoardSnapshot

DESKTOP_SIZE = (800, 480)


class PygameScreen:
    """A pygame display showing board states."""

    def __init__(
        self,
        config: ScreenConfig,
        reporter: Reporter,
        hints: tuple[Hint, ...] = (),
        *,
        default_size: tuple[int, int] = DESKTOP_SIZE,
        title: str = "crib-pi",
    ) -> None:
        try:
            import pygame
        except ImportError as exc:
            raise DeviceUnavailableError(
                "screen", _("pygame-ce is not installed ({exc})").format(exc=exc)
            ) from exc
        before = os.environ.get("SDL_VIDEODRIVER")
        if config.driver:
            os.environ["SDL_VIDEODRIVER"] = config.driver  # SDL reads it at display init only
        try:
            pygame.display.init()
            pygame.font.init()
            full = config.fullscreen or (config.size == (0, 0) and default_size == (0, 0))
            size = config.size if config.size != (0, 0) else default_size
            flags = pygame.FULLSCREEN if full else pygame.RESIZABLE
            self._surface: Any = pygame.display.set_mode(size, flags)
        except pygame.error as exc:
            pygame.display.quit()
            driver = os.environ.get("SDL_VIDEODRIVER", _("SDL's choice"))
            raise DeviceUnavailableError(
                "screen", _("no display ({driver}): {exc}").format(driver=driver, exc=exc)
            ) from exc
        finally:
            if before is None:
                os.environ.pop("SDL_VIDEODRIVER", None)
            else:
                os.environ["SDL_VIDEODRIVER"] = before
        pygame.display.set_caption(title)
        self._pygame: Any = pygame
        self.reporter = reporter
        self.hints = hints
        self.last: BoardSnapshot | None = None
        self._failed = False
        self._closed = False

    @property
    def size(self) -> tuple[int, int]:
        if self._closed:
            return (0, 0)
        width, height = self._surface.get_size()
        return int(width), int(height)

    def show(self, snapshot: BoardSnapshot) -> None:
        if self._closed or self._failed:
            return
        from crib_pi.devices.screen.draw import draw

        self.last = snapshot
        try:
            draw(self._surface, snapshot, self.hints)
            self._pygame.display.flip()
        except Exception as exc:  # a drawing bug must not stop the game
            self._failed = True
            failed = _("drawing failed ({exc!r}); the screen stays blank").format(exc=exc)
            self.reporter.problem("screen", failed)

    def save(self, path: str) -> None:
        """Write what is on the screen now as a PNG."""
        self._pygame.image.save(self._surface, path)

    def pump(self) -> bool:
        """Handle window events (not keys: those are the buttons'); True when asked to quit."""
        if self._closed:
            return False
        pygame = self._pygame
        quit_asked = False
        for event in pygame.event.get(exclude=(pygame.KEYDOWN, pygame.KEYUP)):
            if event.type == pygame.QUIT:
                quit_asked = True
            elif event.type == pygame.VIDEORESIZE and self.last is not None:
                self.show(self.last)
        return quit_asked

    def close(self) -> None:
        """Close the display; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._pygame.display.quit()
