"""Things the screen and the LED board both read off a ``BoardSnapshot`` but it does not hold.

Derived here once so the two cannot disagree: which side has won, who leads and by how much,
and whether a side is under skunk threat.
"""

from __future__ import annotations

from crib_pi.snapshot import BoardSnapshot

SKUNK_REACH = 31
"""A side this close to the target could finish in one hand and crib; skunk threat starts."""


def winning_side(snapshot: BoardSnapshot) -> int | None:
    """The side that won, or None. ``winner`` may name a player or a side: both map here."""
    if snapshot.winner is None:
        return None
    return snapshot.side_of(snapshot.winner)


def leader(snapshot: BoardSnapshot) -> tuple[int | None, int]:
    """(leading side or None when level, points ahead of the next side)."""
    fronts = sorted(((s.front, i) for i, s in enumerate(snapshot.sides)), reverse=True)
    if len(fronts) < 2 or fronts[0][0] == fronts[1][0]:
        return None, 0
    return fronts[0][1], fronts[0][0] - fronts[1][0]


def skunk_threatened(snapshot: BoardSnapshot) -> tuple[int, ...]:
    """Sides at or below the skunk line while another side is within reach of the target."""
    if not snapshot.skunk_lines or snapshot.winner is not None:
        return ()
    line = max(snapshot.skunk_lines)
    top = max(s.front for s in snapshot.sides)
    if top < snapshot.target - SKUNK_REACH:
        return ()
    return tuple(i for i, s in enumerate(snapshot.sides) if s.front <= line and s.front < top)


def dealer_side(snapshot: BoardSnapshot) -> int | None:
    """The side whose crib it is (the dealer's side)."""
    return None if snapshot.dealer is None else snapshot.side_of(snapshot.dealer)
