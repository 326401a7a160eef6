"""One function that draws a whole screen from a snapshot: what the pygame screen shows and
what ``crib-pi board --png`` saves."""

from __future__ import annotations

import pygame

from crib_pi.devices.screen import style as st
from crib_pi.devices.screen.base import Hint
from crib_pi.devices.screen.board import draw_board
from crib_pi.devices.screen.layout import ScreenLayout
from crib_pi.devices.screen.panels import (
    draw_caption,
    draw_event,
    draw_flags,
    draw_learn,
    draw_play,
    draw_prompt,
    draw_scores,
    draw_win,
)
from crib_pi.i18n import N_
from crib_pi.snapshot import BoardSnapshot

DEFAULT_HINTS: tuple[Hint, ...] = (("Go", N_("go")), ("Confirm", N_("ok")), ("Undo", N_("undo")))


def draw(
    surface: pygame.Surface, snapshot: BoardSnapshot, hints: tuple[Hint, ...] = DEFAULT_HINTS
) -> None:
    """Fill ``surface`` (any size) with the board state."""
    width, height = surface.get_size()
    layout = ScreenLayout.for_size(
        width,
        height,
        flag_lines=len(snapshot.flags[-2:]),
        learn=bool(snapshot.learn),
        caption=bool(snapshot.caption),
    )
    surface.fill(st.BACKGROUND)
    draw_caption(surface, layout.caption, snapshot.caption, layout.unit)
    draw_scores(surface, layout.scores, snapshot, layout.unit)
    draw_board(surface, layout.board, snapshot)
    draw_win(surface, layout.board, snapshot)
    draw_play(surface, layout.play, snapshot, layout.unit)
    draw_event(surface, layout.event, snapshot, layout.unit)
    draw_flags(surface, layout.flags, snapshot, layout.unit)
    draw_learn(surface, layout.learn, snapshot, layout.unit)
    draw_prompt(surface, layout.prompt, snapshot, hints, layout.unit)


def render(
    snapshot: BoardSnapshot, size: tuple[int, int], hints: tuple[Hint, ...] = DEFAULT_HINTS
) -> pygame.Surface:
    """The screen for ``snapshot`` on an off-screen surface (no display needed)."""
    surface = pygame.Surface(size)
    draw(surface, snapshot, hints)
    return surface
