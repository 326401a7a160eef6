"""The pygame-ce screen on SDL's dummy driver: real drawing, checked pixel by pixel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crib_pi.devices.config import ScreenConfig
from crib_pi.devices.report import Reporter
from crib_pi.devices.scenes import SCENES, pegs_snapshot

pygame = pytest.importorskip("pygame")

SIZES = [(800, 480), (720, 1280), (1920, 1080), (480, 320), (600, 1024)]


def colour_near(
    surface: Any, at: tuple[float, float], radius: int = 3
) -> set[tuple[int, int, int]]:
    x, y = int(at[0]), int(at[1])
    return {
        tuple(surface.get_at((x + dx, y + dy)))[:3]
        for dx in range(-radius, radius + 1)
        for dy in range(-radius, radius + 1)
    }


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scene", SCENES)
def test_every_scene_draws_at_every_size(scene: str, size: tuple[int, int]) -> None:
    from crib_pi.devices.screen.draw import render

    surface = render(SCENES[scene](), size)
    assert surface.get_size() == size
    colours = {
        tuple(surface.get_at((x, y)))[:3]
        for x in range(0, size[0], 7)
        for y in range(0, size[1], 7)
    }
    assert len(colours) > 12  # not a blank or one-colour screen


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_pegs_are_drawn_where_the_board_geometry_says(size: tuple[int, int]) -> None:
    from crib_pi.devices.screen import style as st
    from crib_pi.devices.screen.board import BoardGeometry
    from crib_pi.devices.screen.draw import render
    from crib_pi.devices.screen.layout import ScreenLayout

    snapshot = pegs_snapshot([(45, 40), (97, 91)], 2)
    surface = render(snapshot, size)
    layout = ScreenLayout.for_size(*size)
    g = BoardGeometry.fit(layout.board, 121, 2)
    assert st.side_colour(0) in colour_near(surface, g.centre(0, 45))
    assert st.side_colour(1) in colour_near(surface, g.centre(1, 97))
    assert st.shade(st.side_colour(1), 0.55) in colour_near(surface, g.centre(1, 91))
    assert st.side_colour(1) not in colour_near(surface, g.centre(1, 45))


def test_the_screen_window_shows_saves_and_closes_twice(tmp_path: Path, reporter: Reporter) -> None:
    from crib_pi.devices.screen.pygame_ce import PygameScreen

    screen = PygameScreen(ScreenConfig(size=(720, 1280)), reporter, (("Space", "go"),))
    assert screen.size == (720, 1280)
    screen.show(SCENES["pegging"]())
    screen.save(str(tmp_path / "screen.png"))
    saved = pygame.image.load(str(tmp_path / "screen.png"))
    assert saved.get_size() == (720, 1280)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert screen.pump() is True
    screen.close()
    screen.close()
    assert screen.size == (0, 0)
    screen.show(SCENES["win"]())  # after close: ignored
    assert reporter.problems == ()


def test_a_drawing_failure_is_reported_once_and_the_game_goes_on(reporter: Reporter) -> None:
    from crib_pi.devices.screen.pygame_ce import PygameScreen

    screen = PygameScreen(ScreenConfig(size=(800, 480)), reporter)
    broken = pegs_snapshot([(45, 40), (97, 91)], 2)
    object.__setattr__(broken, "sides", ())  # a snapshot no engine would make
    for _ in range(3):
        screen.show(broken)
    assert len(reporter.about("screen")) == 1
    screen.close()


def test_no_display_is_a_device_unavailable_error(
    reporter: Reporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    from crib_pi.devices.errors import DeviceUnavailableError
    from crib_pi.devices.screen.pygame_ce import PygameScreen

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with pytest.raises(DeviceUnavailableError, match="no display"):
        PygameScreen(ScreenConfig(driver="no-such-driver"), reporter)
