"""The LED layout: the default chained straight tracks, serpentine rows, offsets, checks."""

from __future__ import annotations

import pytest

from crib_pi.devices.config import DeviceConfig
from crib_pi.devices.errors import DeviceConfigError
from crib_pi.devices.leds.layout import LedLayout


def test_default_layout_is_p_times_121_plus_h_minus_1() -> None:
    config = DeviceConfig().leds
    for sides in (2, 3):
        layout = LedLayout.from_config(config, sides)
        assert layout.size == 121 * sides
        for p in range(sides):
            assert layout.index(p, 0) is None
            for h in range(1, 122):
                assert layout.index(p, h) == p * 121 + h - 1


def test_serpentine_rows_run_back_and_forth() -> None:
    layout = LedLayout(tracks=1, holes=121, leds_per_track=121, row_length=30, serpentine=True)
    assert [layout.index(0, h) for h in (1, 30, 31, 60, 61, 121)] == [0, 29, 59, 30, 60, 120]


def test_reversed_row_and_offsets() -> None:
    layout = LedLayout(
        tracks=2, holes=10, leds_per_track=12, row_length=5, reversed_rows=(0,), start_offset=3,
        track_gap=2,
    )  # fmt: skip
    assert layout.index(0, 1) == 3 + 4
    assert layout.index(0, 6) == 3 + 5
    assert layout.index(1, 1) == 3 + 12 + 2 + 4
    assert layout.size == 3 + 12 * 2 + 2


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"row_length": 20, "serpentine": True},
        {"row_length": 30, "reversed_rows": [1, 2], "start_offset": 4, "track_gap": 3},
        {"holes": 61, "leds_per_track": 64},
    ],
)
def test_every_hole_has_its_own_led_on_the_strip(options: dict[str, object]) -> None:
    config = DeviceConfig.from_mapping({"leds": options}).leds
    layout = LedLayout.from_config(config, 3)
    leds = [layout.index(s, h) for s in range(3) for h in range(1, layout.holes + 1)]
    assert len(set(leds)) == len(leds)
    assert all(i is not None and 0 <= i < layout.size for i in leds)


def test_scores_past_a_short_track_go_round_again() -> None:
    layout = LedLayout(tracks=1, holes=61, leds_per_track=61)
    assert layout.index(0, 62) == layout.index(0, 1)
    assert layout.index(0, 121) == layout.index(0, 60)


def test_a_shared_track_puts_every_side_on_it() -> None:
    config = DeviceConfig.from_mapping({"leds": {"shared_track": True}}).leds
    layout = LedLayout.from_config(config, 3)
    assert layout.size == 121
    assert layout.index(2, 45) == layout.index(0, 45) == 44


def test_layouts_that_do_not_fit_are_refused() -> None:
    with pytest.raises(DeviceConfigError, match="fewer than"):
        LedLayout(tracks=2, count=200)
    with pytest.raises(DeviceConfigError, match="2 tracks and the game has 3 sides"):
        LedLayout.from_config(DeviceConfig.from_mapping({"leds": {"tracks": 2}}).leds, 3)
    with pytest.raises(DeviceConfigError, match="do not fit"):
        LedLayout(tracks=1, holes=121, leds_per_track=100)
