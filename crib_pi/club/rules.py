"""The club's scoring rules: game points for a win and a skunk, and the spread of each game.

Defaults are those of the American Cribbage Congress's tournament and Grass Roots club play,
as clubs publish them: a win is worth 2 game points, a win by a skunk (the loser at 90 or less
of 121) 3, a loss 0; the spread of a game is the points it was won or lost by, plus for the
winner and minus for the loser; standings go by game points, then spread. Sources: the ACC
rules (cribbage.org, "Cribbage Tournament Rules", as reproduced at cribbage121.com/rulesed),
and club pages that follow them, e.g. "0 game points for a loss, 2 for a win, and 3 for a skunk
(winning by more than 30 points) ... the same rules as in larger ACC tournaments"
(home.comcast.net/~surfitch/Cribbage/cribbage_tournament_info.htm). The ACC counts no double
skunk in tournament play, so a double skunk is worth a skunk's 3 unless the club says
otherwise; it names no cap on the spread (``spread_cap = 0``: none) and leaves a bye to the
club (here: a win's 2 game points and no spread).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from crib_pi.errors import CribError
from crib_pi.i18n import _


@dataclass(frozen=True, slots=True)
class ClubRules:
    win: int = 2
    skunk: int = 3
    double_skunk: int = 3
    loss: int = 0
    spread_cap: int = 0  # 0: no cap
    bye_points: int = 2
    bye_spread: int = 0

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 1000:
                raise CribError(
                    _("club rule {name} = {value!r} is not a whole number 0 to 1000").format(
                        name=name, value=value
                    )
                )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> ClubRules:
        known = set(cls.__dataclass_fields__)
        for key in data:
            if key not in known:
                raise CribError(
                    _("unknown club rule {key!r} (known: {known})").format(
                        key=key, known=", ".join(sorted(known))
                    )
                )
        return cls(**dict(data))

    def to_json(self) -> dict[str, int]:
        return asdict(self)

    def score(self, scores: tuple[int, int], target: int = 121) -> tuple[Result, Result]:
        """Each side's game points and spread for a game that ended at ``scores``."""
        if scores[0] == scores[1] or max(scores) < target:
            raise CribError(
                _("scores {a}-{b} are not a finished game to {target}").format(
                    a=scores[0], b=scores[1], target=target
                )
            )
        winner = 0 if scores[0] > scores[1] else 1
        lost = scores[1 - winner]
        margin = target - lost if scores[winner] >= target else scores[winner] - lost
        if self.spread_cap:
            margin = min(margin, self.spread_cap)
        points = self.win
        if lost <= target - 61:
            points = self.double_skunk
        elif lost <= target - 31:
            points = self.skunk
        won = Result(points, margin, True)
        beaten = Result(self.loss, -margin, False)
        return (won, beaten) if winner == 0 else (beaten, won)


@dataclass(frozen=True, slots=True)
class Result:
    """One player's share of one game."""

    points: int
    spread: int
    won: bool
