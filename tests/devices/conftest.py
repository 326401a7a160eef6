"""Device tests run anywhere: SDL's dummy driver, gpiozero's mock pins, a fake clock."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator

import pytest

from crib_pi.devices.clock import FakeClock
from crib_pi.devices.report import Reporter


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def reporter() -> Reporter:
    return Reporter()


@pytest.fixture
def mock_factory() -> Iterator[object]:
    """gpiozero's own MockFactory as the default pin factory, reset after the test."""
    gpiozero = pytest.importorskip("gpiozero")
    from gpiozero.pins.mock import MockFactory

    old = gpiozero.Device.pin_factory
    factory = MockFactory()
    gpiozero.Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        gpiozero.Device.pin_factory = old


@pytest.fixture
def pygame_display() -> Iterator[object]:
    """An initialised pygame display on the dummy driver, closed after the test."""
    pygame = pytest.importorskip("pygame")
    pygame.display.init()
    pygame.font.init()
    try:
        yield pygame
    finally:
        pygame.display.quit()
