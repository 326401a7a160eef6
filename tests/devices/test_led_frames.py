"""LED frames for the example states: pegs at the right LEDs, back dimmer, under the limit."""

from __future__ import annotations

import pytest

from crib_pi.devices.config import DeviceConfig
from crib_pi.devices.leds.frame import (
    OFF,
    Frame,
    LedStyle,
    move_frames,
    render_frame,
    win_frames,
)
from crib_pi.devices.leds.layout import LedLayout
from crib_pi.devices.leds.power import PowerLimit
from crib_pi.devices.scenes import SCENES, pegs_snapshot
from crib_pi.snapshot import BoardSnapshot

STYLE = LedStyle()
LAYOUT = LedLayout(tracks=2)
STATES = {name: make() for name, make in SCENES.items()} | {
    "pegs": pegs_snapshot([(45, 40), (97, 91)], 2),
    "three": pegs_snapshot([(5, 1), (60, 55), (120, 119)], 3),
}


def brightness(rgb: tuple[int, int, int]) -> int:
    return sum(rgb)


@pytest.mark.parametrize("name", STATES)
def test_every_peg_is_at_its_led_in_its_colour(name: str) -> None:
    snapshot = STATES[name]
    layout = LedLayout(tracks=len(snapshot.sides))
    frame = render_frame(snapshot, layout, STYLE)
    assert len(frame) == layout.size
    for side, pegs in enumerate(snapshot.sides):
        if pegs.front:
            assert frame[side * 121 + pegs.front - 1] == STYLE.colour(side)
        if pegs.back and pegs.back != pegs.front:
            back = frame[side * 121 + pegs.back - 1]
            assert back != OFF
            assert brightness(back) < brightness(STYLE.colour(side))
            # the same hue: dimmer, not another colour
            assert max(range(3), key=lambda c: back[c]) == max(
                range(3), key=lambda c: STYLE.colour(side)[c]
            )


@pytest.mark.parametrize("name", STATES)
def test_markers_are_dimmer_than_any_back_peg(name: str) -> None:
    """All but a threatened skunk line, which is meant to catch the eye."""
    snapshot = STATES[name]
    layout = LedLayout(tracks=len(snapshot.sides))
    frame = render_frame(snapshot, layout, STYLE)
    pegs = {layout.index(s, p.front) for s, p in enumerate(snapshot.sides)} | {
        layout.index(s, p.back) for s, p in enumerate(snapshot.sides)
    }
    dimmest_back = min(brightness(STYLE.colour(s)) * STYLE.back_level for s in range(3))
    for i, rgb in enumerate(frame):
        if i not in pegs and rgb not in (OFF, STYLE.threat) and snapshot.winner is None:
            assert brightness(rgb) < dimmest_back, (i, rgb)


def test_markers_every_fifth_hole_and_skunk_lines() -> None:
    frame = render_frame(STATES["start"], LAYOUT, STYLE)
    for side in (0, 1):
        assert frame[side * 121 + 5 - 1] == STYLE.marker
        assert frame[side * 121 + 91 - 1] == STYLE.skunk
        assert frame[side * 121 + 61 - 1] == STYLE.double_skunk
        assert frame[side * 121 + 121 - 1] == STYLE.game_hole
        assert frame[side * 121 + 7 - 1] == OFF


def test_skunk_threat_brightens_the_threatened_sides_line() -> None:
    frame = render_frame(STATES["skunk-threat"], LAYOUT, STYLE)
    assert frame[121 + 91 - 1] == STYLE.threat  # Bob, on 78
    assert frame[91 - 1] == STYLE.skunk  # Alice, on 104: not threatened


def test_a_moving_peg_runs_forward_and_ends_on_the_new_state() -> None:
    before = pegs_snapshot([(40, 35), (20, 10)], 2)
    after = pegs_snapshot([(52, 40), (20, 10)], 2)
    frames = move_frames(before, after, LAYOUT, STYLE)
    assert frames[-1] == render_frame(after, LAYOUT, STYLE)
    fronts = [max(range(40, 53), key=lambda h, f=f: brightness(f[h - 1])) for f in frames[:-1]]
    assert len(frames) > 2
    assert fronts == sorted(fronts)
    assert fronts[0] > 40 and fronts[-1] < 52


def test_an_undo_does_not_animate() -> None:
    before = pegs_snapshot([(52, 40), (20, 10)], 2)
    after = pegs_snapshot([(40, 35), (20, 10)], 2)
    assert move_frames(before, after, LAYOUT, STYLE) == [render_frame(after, LAYOUT, STYLE)]


def all_frames(snapshot: BoardSnapshot) -> list[Frame]:
    start = pegs_snapshot([(0, 0)] * len(snapshot.sides), snapshot.players)
    return [
        render_frame(snapshot, LAYOUT, STYLE),
        *move_frames(start, snapshot, LAYOUT, STYLE),
        *win_frames(snapshot, LAYOUT, STYLE),
    ]


@pytest.mark.parametrize("name", [n for n in STATES if n != "three"])
@pytest.mark.parametrize("max_amps", [0.05, 0.3, 2.0])
def test_no_frame_goes_over_the_current_limit(name: str, max_amps: float) -> None:
    power = PowerLimit(max_amps=max_amps, brightness=1.0)
    for frame in all_frames(STATES[name]):
        assert power.amps(power.apply(frame)) <= max_amps + 1e-9


def test_the_limit_scales_a_white_strip_down_and_keeps_the_hue() -> None:
    power = PowerLimit(max_amps=1.0)
    frame = ((255, 255, 255),) * 100 + ((200, 100, 0),)
    assert power.amps(frame) > 5.0
    limited = power.apply(frame)
    assert power.amps(limited) <= 1.0
    assert power.amps(limited) > 0.9
    r, g, _ = limited[-1]
    assert abs(r - 2 * g) <= 2


def test_brightness_dims_every_led() -> None:
    frame = render_frame(STATES["pegs"], LAYOUT, STYLE)
    half = PowerLimit(max_amps=10.0, brightness=0.5).apply(frame)
    assert half[44] == (127, 20, 10)
    assert PowerLimit(max_amps=10.0).apply(frame) == frame


def test_a_win_lights_the_winners_track_and_sweeps() -> None:
    snapshot = STATES["win"]
    frames = win_frames(snapshot, LAYOUT, STYLE)
    still = render_frame(snapshot, LAYOUT, STYLE)
    assert all(still[i] != OFF for i in range(121))
    assert len(frames) > 10
    assert len(set(frames)) > 10


def test_the_style_comes_from_config() -> None:
    config = DeviceConfig.from_mapping({"leds": {"colours": [[1, 2, 3]], "back_level": 0.5}})
    style = LedStyle.from_config(config.leds)
    assert style.colour(0) == style.colour(2) == (1, 2, 3)
