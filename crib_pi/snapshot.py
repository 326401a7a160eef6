"""Frozen pictures of a game, for everything that shows or stores it.

The engine (``crib_pi.game``) makes these; the screen, the LED strip, the event log and
the replay command only read them. Nothing here knows how a game is played.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crib_pi.cards import Card
from crib_pi.i18n import _
from crib_pi.players import player_name

PHASES = ("cut_for_deal", "deal", "play", "show", "claim", "over")


def said(text: str, points: int) -> str:
    """An event's English ``text`` in the current language, its pegged-to-win note too."""
    name, pegged, _rest = text.partition(" (pegged ")
    if pegged:
        return _("{name} (pegged {points} to win)").format(name=_(name), points=points)
    return _(text)


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """Points pegged for one reason: ``reason`` is a fixed word, ``text`` says it aloud.

    reasons: ``fifteen``, ``thirty_one``, ``pair`` (2, 6 or 12 points), ``run``, ``flush``,
    ``nobs``, ``his_heels``, ``go``, ``last_card``, ``hand`` (a muggins-mode claim as
    pegged), ``muggins`` (points taken from a short claim).
    """

    player: int
    side: int
    points: int
    reason: str
    text: str
    cards: tuple[Card, ...] = ()
    phase: str = ""

    def said(self) -> str:
        """``text`` in the current language (``text`` itself stays the English name)."""
        return said(self.text, self.points) if self.text else self.reason

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "side": self.side,
            "points": self.points,
            "reason": self.reason,
            "text": self.text,
            "cards": [str(c) for c in self.cards],
            "phase": self.phase,
        }


@dataclass(frozen=True, slots=True)
class SideSnapshot:
    """One side's pegs: a player, or a partnership of players ``(0, 2)`` / ``(1, 3)``."""

    players: tuple[int, ...]
    front: int
    back: int
    name: str
    games_won: int = 0
    match_points: int = 0


@dataclass(frozen=True, slots=True)
class BoardSnapshot:
    """What the board shows after an action: pegs, who deals, the count, what just scored.

    ``prompt`` says what the game waits for ("player 2 to play or say go").
    ``flags`` holds muggins flags and problems found at the show, newest last.
    ``learn`` holds learn mode's words (the next step, the rule behind each score, a caution,
    the coach's discards), empty when learn mode is off.
    ``skunk_lines`` are the highest losing scores that are a skunk, a double (and a triple,
    when that house rule is on): ``(90, 60)`` in a game to 121.
    ``caption`` is a line above the board that is not the game's: a club's pairing ("Table 4:
    Alice v Bob"), empty when the table is no club's.
    """

    players: int
    target: int
    sides: tuple[SideSnapshot, ...]
    dealer: int | None
    phase: str
    turn: int | None
    count: int
    pile: tuple[Card, ...]
    starter: Card | None
    last_events: tuple[ScoreEvent, ...]
    last_text: str
    prompt: str
    winner: int | None
    skunk: str
    skunk_lines: tuple[int, ...]
    flags: tuple[str, ...] = field(default=())
    learn: tuple[str, ...] = field(default=())
    #: The players' configured names; ``name_of`` says a player as people read it.
    names: tuple[str, ...] = field(default=())
    caption: str = ""

    def side_of(self, player: int) -> int:
        """The side a player pegs for."""
        return player % len(self.sides)

    def name_of(self, player: int) -> str:
        """Player ``player`` (0-based) as people read it (``crib_pi.players``)."""
        return player_name(player, self.names)
