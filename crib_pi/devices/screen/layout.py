"""Where each part of the screen goes, for any window size.

Landscape (the 7-inch 800x480 display) stacks scores, board, then the play and scoring
panels side by side; portrait (Touch Display 2, 720x1280) stacks everything. In learn mode
the board shares its space with the learn panel: beside it in landscape, below it in portrait.
A caption (a club's pairing, "Table 4: Alice v Bob") takes a band across the top, and the rest
shrinks to fit below it. Pure geometry, so the split is the same whatever draws it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in pixels."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def inset(self, d: int) -> Box:
        return Box(self.x + d, self.y + d, max(0, self.w - 2 * d), max(0, self.h - 2 * d))

    def split_x(self, fraction: float, gap: int = 0) -> tuple[Box, Box]:
        left = int(self.w * fraction)
        return (
            Box(self.x, self.y, left - gap // 2, self.h),
            Box(self.x + left + gap // 2, self.y, self.w - left - gap // 2, self.h),
        )

    def columns(self, n: int, gap: int) -> list[Box]:
        w = (self.w - gap * (n - 1)) // max(1, n)
        return [Box(self.x + i * (w + gap), self.y, w, self.h) for i in range(n)]


@dataclass(frozen=True, slots=True)
class ScreenLayout:
    """The boxes of one screen size."""

    size: tuple[int, int]
    scores: Box
    board: Box
    play: Box
    event: Box
    flags: Box
    prompt: Box
    unit: int
    learn: Box = Box(0, 0, 0, 0)
    caption: Box = Box(0, 0, 0, 0)

    @property
    def portrait(self) -> bool:
        return self.size[1] > self.size[0]

    @classmethod
    def for_size(
        cls,
        width: int,
        height: int,
        flag_lines: int = 0,
        *,
        learn: bool = False,
        caption: bool = False,
    ) -> ScreenLayout:
        """Lay out a ``width`` x ``height`` screen; ``flag_lines`` warnings get a band each;
        ``learn`` makes room for learn mode's panel, ``caption`` for a band across the top."""
        unit = max(4, min(width, height) // 60)
        m = unit * 2
        inner = Box(m, m, width - 2 * m, height - 2 * m)
        portrait = height > width
        band = Box(0, 0, 0, 0)
        if caption:  # as tall as a flag's band: big enough to read across the table
            band = Box(inner.x, inner.y, inner.w, int(inner.h * (0.045 if portrait else 0.075)))
            inner = Box(inner.x, band.bottom + unit, inner.w, inner.h - band.h - unit)
        weights = (0.17, 0.37, 0.15, 0.2, 0.06) if portrait else (0.22, 0.42, 0.0, 0.26, 0.1)
        flags_n = min(flag_lines, 2)
        flag_h = int(inner.h * (0.04 if portrait else 0.07)) * flags_n
        gaps = sum(1 for w in weights if w) - 1 + (1 if flags_n else 0)
        free = inner.h - flag_h - gaps * unit
        heights = [int(free * w) for w in weights]
        heights[1] += free - sum(heights)
        y = inner.y
        boxes = []
        for n, h in enumerate(heights):
            if n == len(heights) - 1 and flags_n:
                boxes.append(Box(inner.x, y, inner.w, flag_h))
                y += flag_h + unit
            boxes.append(Box(inner.x, y, inner.w, h))
            y += h + (unit if h else 0)
        if not flags_n:
            boxes.insert(4, Box(inner.x, boxes[4].y, inner.w, 0))
        scores, board, play, event, flags, prompt = boxes
        if not portrait:
            play, event = event.split_x(0.42, gap=unit * 2)
        taught = Box(0, 0, 0, 0)
        if learn and portrait:
            top = int(board.h * 0.4)
            board, taught = (
                Box(board.x, board.y, board.w, top),
                Box(board.x, board.y + top + unit, board.w, board.h - top - unit),
            )
        elif learn:
            board, taught = board.split_x(0.4, gap=unit * 2)
        return cls((width, height), scores, board, play, event, flags, prompt, unit, taught, band)
