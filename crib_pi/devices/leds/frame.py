"""LED frames drawn from a board snapshot: pegs, markers, a move animation and a win display.

A frame is one (r, g, b) per LED of the strip, before brightness and the current limit
(``power``) are applied. Drawn in layers, later ones on top: dim markers (every fifth
hole, the game hole, the first hole past each skunk line), then each side's back peg at
``back_level`` of its colour, then its front peg at full colour. On a shared track, pegs in
the same hole add their colours.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from crib_pi.devices.config import RGB, LedConfig
from crib_pi.devices.leds.layout import LedLayout
from crib_pi.devices.snapshot_view import skunk_threatened, winning_side
from crib_pi.snapshot import BoardSnapshot

Frame = tuple[RGB, ...]
OFF: RGB = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class LedStyle:
    """Colours of the board; markers are dim so the pegs stand out across a table."""

    colours: tuple[RGB, ...] = LedConfig().colours
    back_level: float = 0.2
    marker: RGB = (10, 9, 6)
    game_hole: RGB = (28, 20, 0)
    skunk: RGB = (28, 0, 0)
    double_skunk: RGB = (16, 0, 22)
    threat: RGB = (110, 0, 0)
    win_level: float = 0.12

    @classmethod
    def from_config(cls, config: LedConfig) -> LedStyle:
        return cls(colours=config.colours, back_level=config.back_level)

    def colour(self, side: int) -> RGB:
        return self.colours[side % len(self.colours)]


def scale(rgb: RGB, level: float) -> RGB:
    """``rgb`` at ``level`` (0..1) of its brightness, rounded down."""
    r, g, b = rgb
    return (int(r * level), int(g * level), int(b * level))


def render_frame(snapshot: BoardSnapshot, layout: LedLayout, style: LedStyle) -> Frame:
    """The still frame for a snapshot."""
    leds: list[RGB] = [OFF] * layout.size
    _markers(leds, snapshot, layout, style)
    won = winning_side(snapshot)
    if won is not None:
        for i in layout.track_leds(won):
            leds[i] = scale(style.colour(won), style.win_level)
    for side, pegs in enumerate(snapshot.sides):
        back = scale(style.colour(side), style.back_level)
        _put(leds, layout, layout.index(side, pegs.back), back)
    for side, pegs in enumerate(snapshot.sides):
        _put(leds, layout, layout.index(side, pegs.front), style.colour(side))
    return tuple(leds)


def _markers(leds: list[RGB], snapshot: BoardSnapshot, layout: LedLayout, style: LedStyle) -> None:
    threatened = {layout.track_of(s) for s in skunk_threatened(snapshot)}
    lines = sorted(snapshot.skunk_lines, reverse=True)
    tracks = {layout.track_of(s): s for s in range(len(snapshot.sides))}
    for track, side in tracks.items():
        for hole in range(5, layout.holes + 1, 5):
            leds[_must(layout.index(side, hole))] = style.marker
        for n, line in enumerate(lines):
            if 0 <= line < layout.holes:
                colour = style.skunk if n == 0 else style.double_skunk
                if n == 0 and track in threatened:
                    colour = style.threat
                leds[_must(layout.index(side, line + 1))] = colour
        if 0 < snapshot.target <= layout.holes:
            leds[_must(layout.index(side, snapshot.target))] = style.game_hole


def _must(index: int | None) -> int:
    assert index is not None, "holes from 1 up always have an LED"
    return index


def _put(leds: list[RGB], layout: LedLayout, index: int | None, rgb: RGB) -> None:
    """Light ``index``; on a shared track a second peg in a hole adds its colour."""
    if index is None:
        return
    if layout.shared_track and leds[index] != OFF and _is_peg(leds[index]):
        r, g, b = (min(255, a + c) for a, c in zip(leds[index], rgb, strict=True))
        leds[index] = (r, g, b)
    else:
        leds[index] = rgb


def _is_peg(rgb: RGB) -> bool:
    return max(rgb) > 40


def move_frames(
    before: BoardSnapshot, after: BoardSnapshot, layout: LedLayout, style: LedStyle
) -> list[Frame]:
    """A peg running from its old hole to its new one (at most 12 steps), ending on ``after``.

    Only forward moves of the same game animate; an undo or a new game just shows ``after``.
    """
    moved = [
        side
        for side, (old, new) in enumerate(zip(before.sides, after.sides, strict=False))
        if new.front > old.front and len(before.sides) == len(after.sides)
    ]
    frames: list[Frame] = []
    if moved:
        steps = min(12, max(after.sides[s].front - before.sides[s].front for s in moved))
        for step in range(1, steps):
            sides = list(after.sides)
            for s in moved:
                old, new = before.sides[s].front, after.sides[s].front
                at = old + (new - old) * step // steps
                sides[s] = dataclasses.replace(sides[s], front=at, back=old)
            between = dataclasses.replace(after, sides=tuple(sides))
            frames.append(render_frame(between, layout, style))
    frames.append(render_frame(after, layout, style))
    return frames


def win_frames(snapshot: BoardSnapshot, layout: LedLayout, style: LedStyle) -> list[Frame]:
    """One loop of the win display: a bright band sweeping along the winner's track."""
    won = winning_side(snapshot)
    still = render_frame(snapshot, layout, style)
    if won is None:
        return [still]
    track = layout.track_leds(won)
    colour = style.colour(won)
    frames = []
    for start in range(0, len(track), 4):
        leds = list(still)
        for k, i in enumerate(track[start : start + 6]):
            leds[i] = scale(colour, 0.4 + 0.1 * k)
        frames.append(tuple(leds))
    frames.append(still)
    return frames
