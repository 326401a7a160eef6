"""Swiss pairing: players ranked by game points then spread meet the nearest-ranked player
they have not met yet; with an odd number the lowest-ranked player without a bye sits out.

The search backtracks, so a late round still finds a pairing with no rematch when one exists;
when none does, it says so rather than pairing a rematch quietly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from crib_pi.errors import CribError
from crib_pi.i18n import _


@dataclass(frozen=True, slots=True)
class Standing:
    name: str
    points: int = 0
    spread: int = 0
    games: int = 0
    wins: int = 0
    byes: int = 0


def ranked(standings: Iterable[Standing]) -> list[Standing]:
    """Game points, then spread, then name (so a tie is always broken the same way)."""
    return sorted(standings, key=lambda s: (-s.points, -s.spread, s.name))


def pair(
    standings: Sequence[Standing], met: set[frozenset[str]]
) -> tuple[list[tuple[str, str]], str | None]:
    """The round's pairs, best-ranked first, and the player with the bye (or None)."""
    order = [s.name for s in ranked(standings)]
    bye: str | None = None
    if len(order) % 2:
        byes = {s.name: s.byes for s in standings}
        fewest = min(byes.values())
        candidates = [n for n in reversed(order) if byes[n] == fewest]
        for candidate in candidates:  # the lowest-ranked first; another if the rest cannot pair
            rest = [n for n in order if n != candidate]
            pairs = _pair(rest, met)
            if pairs is not None:
                return pairs, candidate
        raise CribError(_("no pairing without a rematch is left for these players"))
    pairs = _pair(order, met)
    if pairs is None:
        raise CribError(_("no pairing without a rematch is left for these players"))
    return pairs, bye


def _pair(order: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]] | None:
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1 :], met)
        if tail is not None:
            return [(first, other), *tail]
    return None
