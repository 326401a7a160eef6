"""Keys stand in for buttons on a laptop: real pygame events on SDL's dummy driver."""

from __future__ import annotations

from typing import Any

import pytest

from crib_pi.devices.clock import FakeClock
from crib_pi.devices.config import ButtonsConfig, DeviceConfig
from crib_pi.devices.errors import DeviceConfigError
from crib_pi.devices.report import Reporter


def post_key(pygame: Any, key: str, down: bool) -> None:
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    pygame.event.post(pygame.event.Event(kind, key=pygame.key.key_code(key)))


def test_space_is_go_and_held_backspace_repeats_undo(
    pygame_display: Any, clock: FakeClock, reporter: Reporter
) -> None:
    from crib_pi.devices.buttons.keys import KeyButtons

    pygame = pygame_display
    pygame.display.set_mode((200, 100))
    buttons = KeyButtons(ButtonsConfig(), clock, reporter)
    post_key(pygame, "space", True)
    buttons.poll()
    clock.advance(0.1)
    post_key(pygame, "space", False)
    buttons.poll()
    clock.advance(0.1)
    assert [(e.button, e.gesture) for e in buttons.poll()] == [("go", "press")]
    post_key(pygame, "backspace", True)
    buttons.poll()
    clock.advance(1.3)
    assert [e.gesture for e in buttons.poll()] == ["hold", "repeat"]
    buttons.close()


def test_other_events_are_left_for_the_screen(
    pygame_display: Any, clock: FakeClock, reporter: Reporter
) -> None:
    from crib_pi.devices.buttons.keys import KeyButtons

    pygame = pygame_display
    pygame.display.set_mode((200, 100))
    buttons = KeyButtons(ButtonsConfig(), clock, reporter)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    buttons.poll()
    assert pygame.event.peek(pygame.QUIT)


def test_an_unknown_key_name_is_a_config_error(
    pygame_display: Any, clock: FakeClock, reporter: Reporter
) -> None:
    from crib_pi.devices.buttons.keys import KeyButtons

    pygame_display.display.set_mode((200, 100))
    config = DeviceConfig.from_mapping({"buttons": {"go": {"keys": ["no-such-key"]}}})
    with pytest.raises(DeviceConfigError, match="no-such-key"):
        KeyButtons(config.buttons, clock, reporter)
