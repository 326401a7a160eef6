"""Colours and fonts of the screen, and the small drawing helpers every panel uses.

High contrast on a dark ground and pygame's bundled bold font, so the screen reads across a
table and looks the same on every machine (no system fonts needed). Suits are drawn as
shapes, because the bundled font has no suit symbols.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pygame

from crib_pi.devices.screen.layout import Box

RGB = tuple[int, int, int]
BACKGROUND: RGB = (17, 21, 27)
PANEL: RGB = (31, 37, 47)
PANEL_EDGE: RGB = (52, 60, 74)
TEXT: RGB = (238, 236, 228)
DIM: RGB = (150, 157, 168)
WOOD: RGB = (178, 124, 68)
WOOD_DARK: RGB = (128, 84, 42)
WOOD_LIGHT: RGB = (196, 144, 88)
HOLE: RGB = (74, 46, 22)
SKUNK: RGB = (205, 30, 30)
DOUBLE_SKUNK: RGB = (120, 40, 160)
AMBER: RGB = (245, 176, 40)
GOLD: RGB = (250, 205, 70)
CARD: RGB = (250, 248, 240)
RED_SUIT: RGB = (200, 28, 36)
BLACK_SUIT: RGB = (25, 25, 30)
SIDE_COLOURS: tuple[RGB, ...] = ((226, 62, 50), (64, 128, 238), (62, 184, 86))


def side_colour(side: int) -> RGB:
    return SIDE_COLOURS[side % len(SIDE_COLOURS)]


def shade(rgb: RGB, level: float) -> RGB:
    """Darker (level < 1) or lighter towards white (level > 1)."""
    if level <= 1:
        return (int(rgb[0] * level), int(rgb[1] * level), int(rgb[2] * level))
    t = min(1.0, level - 1)
    return (
        int(rgb[0] + (255 - rgb[0]) * t),
        int(rgb[1] + (255 - rgb[1]) * t),
        int(rgb[2] + (255 - rgb[2]) * t),
    )


@lru_cache(maxsize=64)
def font(size: int) -> pygame.font.Font:
    """pygame's bundled bold sans at ``size`` pixels."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, max(8, size))


def text(
    surface: pygame.Surface,
    words: str,
    size: int,
    colour: RGB,
    at: tuple[int, int],
    anchor: str = "topleft",
    max_w: int | None = None,
) -> pygame.Rect:
    """Draw one line, shrunk until it fits ``max_w``; returns where it went."""
    f = font(size)
    while max_w is not None and size > 10 and f.size(words)[0] > max_w:
        size -= 2
        f = font(size)
    image = f.render(words, True, colour)
    rect = image.get_rect(**{anchor: at})
    surface.blit(image, rect)
    return rect


def wrap(words: str, size: int, width: int) -> list[str]:
    """Split ``words`` into lines no wider than ``width`` at ``size``."""
    f = font(size)
    lines: list[str] = []
    line = ""
    for word in words.split():
        trial = f"{line} {word}".strip()
        if f.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def panel(surface: pygame.Surface, box: Box, colour: RGB = PANEL, edge: RGB | None = None) -> None:
    radius = max(4, min(box.w, box.h) // 10)
    rect = pygame.Rect(box.x, box.y, box.w, box.h)
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if edge is not None:
        pygame.draw.rect(surface, edge, rect, width=max(2, radius // 4), border_radius=radius)


def suit(surface: pygame.Surface, letter: str, centre: tuple[int, int], size: int) -> None:
    """A suit shape ``size`` pixels across."""
    x, y = centre
    r = size / 4
    colour = RED_SUIT if letter in "HD" else BLACK_SUIT
    if letter == "D":
        pts = [(x, y - size / 2), (x + size * 0.38, y), (x, y + size / 2), (x - size * 0.38, y)]
        pygame.draw.polygon(surface, colour, pts)
        return
    if letter == "H":
        pygame.draw.circle(surface, colour, (x - r, y - r * 0.6), r)
        pygame.draw.circle(surface, colour, (x + r, y - r * 0.6), r)
        pygame.draw.polygon(
            surface, colour, [(x - 2 * r, y - r * 0.3), (x + 2 * r, y - r * 0.3), (x, y + 2 * r)]
        )
        return
    if letter == "S":
        pygame.draw.circle(surface, colour, (x - r, y + r * 0.3), r)
        pygame.draw.circle(surface, colour, (x + r, y + r * 0.3), r)
        pygame.draw.polygon(
            surface, colour, [(x - 2 * r, y + r * 0.1), (x + 2 * r, y + r * 0.1), (x, y - 2 * r)]
        )
    else:
        pygame.draw.circle(surface, colour, (x, y - r * 0.9), r * 0.9)
        pygame.draw.circle(surface, colour, (x - r, y + r * 0.3), r * 0.9)
        pygame.draw.circle(surface, colour, (x + r, y + r * 0.3), r * 0.9)
    stem: Any = [(x, y), (x - r * 0.8, y + 2 * r), (x + r * 0.8, y + 2 * r)]
    pygame.draw.polygon(surface, colour, stem)
