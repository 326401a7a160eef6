#!/usr/bin/env python3
"""Power budget of the crib-pi LED strip (WS2812B, 5 V): worst case, typical, and the cap.

Standard library only: ``python3 hardware/power_budget.py [--sides N] [--json]``.

The frames are modelled on what the software draws (``crib_pi/devices/leds/frame.py``): dim
markers on every fifth hole, the game hole and the first hole past each skunk line, each
side's back peg at ``BACK_LEVEL`` of its colour and its front peg at full colour. Current is
estimated the same way the software estimates it before every ``show()``
(``crib_pi/devices/leds/power.py``): each colour channel draws ``MA_PER_CHANNEL`` mA at 255, in
proportion to its value. The constants below copy the software's defaults; the tests check
that they still agree with ``crib_pi``.
"""

from __future__ import annotations

import argparse
import json
import sys

RGB = tuple[int, int, int]

# The default layout (crib_pi.devices.config.LedConfig): one straight track per side.
HOLES = 121
LEDS_PER_TRACK = 121
SIDES = 2
# The software's current estimate and limit (LedConfig defaults).
MA_PER_CHANNEL = 20.0
MAX_AMPS = 2.0
BACK_LEVEL = 0.2
COLOURS: tuple[RGB, ...] = ((255, 40, 20), (20, 100, 255), (40, 220, 50))
# What the frames light (crib_pi.devices.led_frame.LedStyle defaults).
MARKER: RGB = (10, 9, 6)
GAME_HOLE: RGB = (28, 20, 0)
SKUNK: RGB = (28, 0, 0)
DOUBLE_SKUNK: RGB = (16, 0, 22)
THREAT: RGB = (110, 0, 0)
WIN_LEVEL = 0.12
SKUNK_LINES = (90, 60)
# Not in the software: a dark WS2812B still draws a little. Users measure roughly
# 0.5 to 1 mA per LED; 1 mA is the cautious end (approximate).
QUIESCENT_MA_PER_LED = 1.0
# The strip's own supply (hardware/bom.md).
SUPPLY_AMPS = 4.0
SUPPLY_VOLTS = 5.0


def scale(rgb: RGB, level: float) -> RGB:
    """``rgb`` at ``level`` of its brightness, rounded down as the software does."""
    r, g, b = rgb
    return (int(r * level), int(g * level), int(b * level))


def milliamps(leds: list[RGB]) -> float:
    """The software's estimate: sum(R+G+B)/255 x MA_PER_CHANNEL, in mA."""
    return sum(r + g + b for r, g, b in leds) / 255 * MA_PER_CHANNEL


def markers(threatened: bool) -> list[RGB]:
    """The dim markers of one track; a track under skunk threat has its skunk marker bright."""
    leds = [MARKER for _ in range(5, HOLES + 1, 5)]
    # The first hole past the highest skunk line, then past each lower one (double skunk).
    leds.append(THREAT if threatened else SKUNK)
    leds += [DOUBLE_SKUNK] * (len(SKUNK_LINES) - 1)
    leds.append(GAME_HOLE)
    return leds


def pegs(side: int) -> list[RGB]:
    """One side's front peg (full colour) and back peg (BACK_LEVEL), on unmarked holes."""
    colour = COLOURS[side % len(COLOURS)]
    return [colour, scale(colour, BACK_LEVEL)]


def budget(sides: int = SIDES) -> dict[str, float]:
    """Every figure the script prints, in amps (LED counts as plain numbers)."""
    leds = sides * LEDS_PER_TRACK
    start = sum(milliamps(markers(False)) for _ in range(sides))
    # Mid-game with one side under skunk threat: markers, the bright skunk marker, 2 pegs a side.
    mid = milliamps(markers(True)) + sum(milliamps(markers(False)) for _ in range(sides - 1))
    mid += sum(milliamps(pegs(s)) for s in range(sides))
    # The win display, the brightest frame the software draws: the winner's whole track glows
    # at WIN_LEVEL with a band of six LEDs (0.4 to 0.9) sweeping along it; the other tracks
    # keep their markers and pegs. Taken for the brightest colour, pegs and band counted on
    # top of the glow, so this is an upper bound.
    brightest = max(range(sides), key=lambda s: sum(COLOURS[s % len(COLOURS)]))
    colour = COLOURS[brightest % len(COLOURS)]
    win = milliamps([scale(colour, WIN_LEVEL)] * LEDS_PER_TRACK)
    win += milliamps([scale(colour, 0.4 + 0.1 * k) for k in range(6)])
    win += milliamps(pegs(brightest))
    win += sum(milliamps(markers(False) + pegs(s)) for s in range(sides) if s != brightest)
    quiescent = leds * QUIESCENT_MA_PER_LED
    return {
        "leds": leds,
        "worst_case_a": leds * 3 * MA_PER_CHANNEL / 1000,
        "max_amps_a": MAX_AMPS,
        "start_a": start / 1000,
        "typical_a": mid / 1000,
        "win_a": win / 1000,
        "quiescent_a": quiescent / 1000,
        "typical_total_a": (mid + quiescent) / 1000,
        "capped_total_a": MAX_AMPS + quiescent / 1000,
        "supply_a": SUPPLY_AMPS,
    }


def report(b: dict[str, float], sides: int) -> str:
    leds = int(b["leds"])
    per_led = 3 * MA_PER_CHANNEL
    rows = [
        ("worst case, every LED full white", b["worst_case_a"], f"{leds} x {per_led:g} mA"),
        ("software current limit (max_amps)", b["max_amps_a"], "no frame is sent over this"),
        ("start of a game: markers only", b["start_a"], "software estimate"),
        ("typical: mid-game, skunk threat", b["typical_a"], "markers + 2 pegs a side"),
        ("win display (brightest frame drawn)", b["win_a"], "upper bound"),
        ("quiescent, all LEDs dark", b["quiescent_a"], f"~{QUIESCENT_MA_PER_LED:g} mA/LED, approx"),
        ("typical total (typical + quiescent)", b["typical_total_a"], "what the supply sees"),
        ("most the capped strip draws", b["capped_total_a"], "max_amps + quiescent"),
        ("strip supply rating", b["supply_a"], f"{SUPPLY_VOLTS:g} V"),
    ]
    lines = [
        "crib-pi LED strip power budget",
        f"layout: {sides} tracks x {LEDS_PER_TRACK} LEDs = {leds} LEDs, WS2812B at 5 V",
        f"estimate: {MA_PER_CHANNEL:g} mA per colour channel at 255 ({per_led:g} mA per LED"
        " at full white)",
        "",
    ]
    for label, amps, note in rows:
        watts = amps * SUPPLY_VOLTS
        lines.append(f"{label + ':':<40}{amps:7.3f} A {watts:6.2f} W   ({note})")
    headroom = b["supply_a"] / b["capped_total_a"]
    lines += [
        "",
        f"worst case is {b['worst_case_a'] / b['max_amps_a']:.1f} x the software limit;"
        f" the supply has {headroom:.2f} x headroom over the capped strip.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", type=int, default=SIDES, choices=(1, 2, 3))
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = budget(args.sides)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(report(figures, args.sides))
    return 0


if __name__ == "__main__":
    sys.exit(main())
