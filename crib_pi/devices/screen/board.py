"""The cribbage board drawn like a real one: wooden, holes in streets of five, pegs in lanes.

Holes run in rows of 30 (six streets of five), back and forth like a continuous board, one lane
per side in every row. Pegs not yet on the board wait in the start holes on the left; the game
hole sits on the left of the last row. Skunk lines are red bars just before the first hole that
escapes them, labelled S, SS (and SSS); a threatened line is drawn thick and bright.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from crib_pi.devices.screen import style as st
from crib_pi.devices.screen.layout import Box
from crib_pi.devices.snapshot_view import skunk_threatened
from crib_pi.snapshot import BoardSnapshot

ROW_CHOICES = (30, 20, 15)
STREET = 5
STREET_GAP = 0.6
START_COLUMN = 3.0
RIGHT_MARGIN = 1.6


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Hole centres for a board of ``holes`` holes and ``lanes`` sides inside ``box``."""

    box: Box
    holes: int
    lanes: int
    row: int
    pitch: float
    lane_h: float
    row_h: float
    left: float
    top: float
    origin: float

    @classmethod
    def fit(cls, box: Box, holes: int, lanes: int) -> BoardGeometry:
        """Pick the row length (30, 20 or 15 holes) that gives the biggest holes in ``box``."""
        best: BoardGeometry | None = None
        for row in ROW_CHOICES:
            rows = max(1, -(-(holes - 1) // row))
            across = row + (row // STREET - 1) * STREET_GAP + START_COLUMN + RIGHT_MARGIN
            pitch = min(box.w / across, box.h / (rows * (lanes + 0.55)))
            row_h = box.h / rows
            lane_h = min(pitch * 1.1, row_h * 0.85 / lanes)
            origin = box.x + (box.w - pitch * (across - 1)) / 2
            left = origin + pitch * START_COLUMN
            top = box.y + (row_h - lane_h * lanes) / 2
            geometry = cls(box, holes, lanes, row, pitch, lane_h, row_h, left, top, origin)
            if best is None or geometry.pitch > best.pitch * 1.05:
                best = geometry
        assert best is not None
        return best

    @property
    def rows(self) -> int:
        return max(1, -(-(self.holes - 1) // self.row))

    @property
    def hole_r(self) -> float:
        return max(1.5, min(self.pitch, self.lane_h) * 0.2)

    def row_of(self, hole: int) -> tuple[int, int]:
        """(row, column) of hole 1..holes-1 in travel order."""
        row, col = divmod(hole - 1, self.row)
        return row, (self.row - 1 - col if row % 2 else col)

    def x_of_col(self, col: int) -> float:
        return self.left + (col + (col // STREET) * STREET_GAP) * self.pitch

    def lane_y(self, row: int, lane: int) -> float:
        return self.top + row * self.row_h + (lane + 0.5) * self.lane_h

    def centre(self, lane: int, hole: int) -> tuple[float, float]:
        """Where a peg at ``hole`` sits; 0 is the start hole, ``holes`` the game hole."""
        if hole <= 0:
            return self.origin + self.pitch * 0.6, self.lane_y(0, lane)
        if hole >= self.holes:
            return self.game_hole()
        row, col = self.row_of(hole)
        return self.x_of_col(col), self.lane_y(row, lane)

    def game_hole(self) -> tuple[float, float]:
        last_row = self.rows - 1
        if last_row % 2 == 0:  # the last row ends on the right
            x = self.x_of_col(self.row - 1) + self.pitch * 1.2
        else:
            x = self.origin + self.pitch * 1.3
        return x, self.top + last_row * self.row_h + self.lane_h * self.lanes / 2


def draw_board(surface: pygame.Surface, box: Box, snapshot: BoardSnapshot) -> BoardGeometry:
    """Draw the board with every side's pegs; returns the geometry used."""
    lanes = len(snapshot.sides)
    holes = max(2, snapshot.target)
    g = BoardGeometry.fit(box, holes, lanes)
    st.panel(surface, box, st.WOOD, st.WOOD_DARK)
    _rows(surface, g)
    _skunk_lines(surface, g, snapshot)
    back_r, front_r = g.hole_r * 1.8, g.hole_r * 2.3
    for lane, side in enumerate(snapshot.sides):
        colour = st.side_colour(lane)
        if side.back != side.front:
            _peg(surface, g.centre(lane, side.back), back_r, st.shade(colour, 0.55), hollow=True)
        front = g.centre(lane, side.front)
        if side.front <= 0:
            front = (front[0] + g.pitch * 1.1, front[1])
        _peg(surface, front, front_r, colour, hollow=False)
    return g


def _rows(surface: pygame.Surface, g: BoardGeometry) -> None:
    """Row strips, holes in streets of five, the start holes and the game hole."""
    pad = g.pitch * 0.55
    for row in range(g.rows):
        count = min(g.row, g.holes - 1 - row * g.row)
        cols = range(count) if row % 2 == 0 else range(g.row - count, g.row)
        x0, x1 = g.x_of_col(min(cols)) - pad, g.x_of_col(max(cols)) + pad
        y0 = g.top + row * g.row_h - g.lane_h * 0.12
        strip = pygame.Rect(int(x0), int(y0), int(x1 - x0), int(g.lane_h * (g.lanes + 0.24)))
        pygame.draw.rect(surface, st.WOOD_LIGHT, strip, border_radius=int(g.lane_h * 0.4))
    for hole in range(1, g.holes):
        row, col = g.row_of(hole)
        for lane in range(g.lanes):
            pygame.draw.circle(surface, st.HOLE, (g.x_of_col(col), g.lane_y(row, lane)), g.hole_r)
    for lane in range(g.lanes):
        x, y = g.centre(lane, 0)
        for dx in (0.0, g.pitch * 1.1):
            pygame.draw.circle(surface, st.HOLE, (x + dx, y), g.hole_r)
    gx, gy = g.game_hole()
    pygame.draw.circle(surface, st.WOOD_LIGHT, (gx, gy), g.hole_r * 3.6)
    pygame.draw.circle(surface, st.HOLE, (gx, gy), g.hole_r * 1.5)


def _skunk_lines(surface: pygame.Surface, g: BoardGeometry, snapshot: BoardSnapshot) -> None:
    threat = bool(skunk_threatened(snapshot))
    lines = sorted(snapshot.skunk_lines, reverse=True)
    small = max(12, int(g.pitch * 1.0))
    for n, line in enumerate(lines):
        if not 0 < line < g.holes - 1:
            continue
        row, col = g.row_of(line + 1)
        forward = row % 2 == 0
        x = g.x_of_col(col) - (0.5 + (STREET_GAP / 2 if (line % STREET == 0) else 0)) * g.pitch * (
            1 if forward else -1
        )
        y0 = g.top + row * g.row_h - g.lane_h * 0.35
        y1 = min(g.top + row * g.row_h + g.lane_h * (g.lanes + 0.35), g.box.bottom - 6)
        colour = st.SKUNK if n == 0 else st.DOUBLE_SKUNK
        width = max(2, int(g.hole_r * (1.6 if n == 0 and threat else 0.8)))
        if n == 0 and threat:
            colour = (255, 48, 40)
        pygame.draw.line(surface, colour, (x, y0), (x, y1), width)
        label = "S" * (n + 1)
        side = 1 if forward else -1
        st.text(
            surface,
            label,
            small,
            colour,
            (int(x - side * g.pitch * 0.25), int(y0)),
            "midright" if forward else "midleft",
        )


def _peg(
    surface: pygame.Surface, at: tuple[float, float], r: float, colour: st.RGB, *, hollow: bool
) -> None:
    """A peg seen from above: a dark rim, the colour, and a highlight (the back peg is duller)."""
    x, y = at
    pygame.draw.circle(surface, (30, 20, 12), (x + r * 0.15, y + r * 0.2), r)
    pygame.draw.circle(surface, st.shade(colour, 0.6), (x, y), r)
    pygame.draw.circle(surface, colour, (x, y), r * 0.8)
    if hollow:
        pygame.draw.circle(surface, st.shade(colour, 0.6), (x, y), r * 0.35)
    else:
        pygame.draw.circle(surface, st.shade(colour, 1.45), (x - r * 0.3, y - r * 0.3), r * 0.28)
