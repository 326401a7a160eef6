"""Game actions: frozen values, one per line of a game record.

Each action has ``to_json()`` (one record line, e.g. ``{"play": [1, "5H"]}``) and
``action_from_json()`` reads a line back, raising ``CribError`` with the reason.
The engine (``crib_pi.game``) decides whether an action is legal; here only its shape is
checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crib_pi.cards import Card, parse_cards
from crib_pi.errors import CribError
from crib_pi.i18n import _

MATCH_POINTS = {"normal": 1, "skunk": 2, "double": 3, "triple": 4}


@dataclass(frozen=True, slots=True)
class GameOptions:
    """How the table plays: ``dealer=None`` means cut for deal first."""

    players: int = 2
    target: int = 121
    dealer: int | None = 0
    muggins: bool = False
    triple_skunk: bool = False
    match_points: tuple[tuple[str, int], ...] = tuple(MATCH_POINTS.items())
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise CribError(
                _("players must be 2, 3 or 4, not {players!r}").format(players=self.players)
            )
        if self.target not in (61, 121):
            raise CribError(
                _("target must be 61 or 121, not {target!r}").format(target=self.target)
            )
        if self.dealer is not None and (
            not isinstance(self.dealer, int) or not 0 <= self.dealer < self.players
        ):
            raise CribError(
                _("dealer must be a player 0..{last}, not {dealer!r}").format(
                    last=self.players - 1, dealer=self.dealer
                )
            )
        for name in ("muggins", "triple_skunk"):
            if not isinstance(getattr(self, name), bool):
                raise CribError(
                    _("{name} must be true or false, not {value!r}").format(
                        name=name, value=getattr(self, name)
                    )
                )
        if self.names and (
            len(self.names) != self.players or not all(isinstance(n, str) for n in self.names)
        ):
            raise CribError(
                _("names must give {players} player names, not {names!r}").format(
                    players=self.players, names=self.names
                )
            )

    def name(self, player: int) -> str:
        """A player's name, or ``player N`` (0-based) when none was given: the language-free
        key the JSON outputs use; people read ``crib_pi.players.player_name``."""
        return self.names[player] if self.names else f"player {player}"

    @property
    def sides(self) -> int:
        """Two partnerships with four players, else one side per player."""
        return 2 if self.players == 4 else self.players

    def side_of(self, player: int) -> int:
        return player % self.sides

    @property
    def dealt(self) -> int:
        return 6 if self.players == 2 else 5

    @property
    def discards(self) -> int:
        return 2 if self.players == 2 else 1

    def points_for(self, skunk: str) -> int:
        """Match points for a game won with ``skunk`` ("none" is a plain win)."""
        return dict(self.match_points)["normal" if skunk == "none" else skunk]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": self.players,
            "target": self.target,
            "dealer": self.dealer,
            "muggins": self.muggins,
        }
        if self.triple_skunk:
            out["triple_skunk"] = True
        if dict(self.match_points) != MATCH_POINTS:
            out["match_points"] = dict(self.match_points)
        if self.names:
            out["names"] = list(self.names)
        return out

    @classmethod
    def from_json(cls, data: Any) -> GameOptions:
        if not isinstance(data, dict):
            raise CribError(
                _("'game' must be an object of options, not {data!r}").format(data=data)
            )
        known = {"players", "target", "dealer", "muggins", "triple_skunk", "match_points", "names"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise CribError(
                _("unknown game option {unknown!r} (known: {known})").format(
                    unknown=unknown[0], known=", ".join(sorted(known))
                )
            )
        kwargs = {k: v for k, v in data.items() if k not in ("match_points", "names")}
        names = data.get("names", [])
        if not isinstance(names, list):
            raise CribError(
                _("names must be a list of player names, not {names!r}").format(names=names)
            )
        points = data.get("match_points", MATCH_POINTS)
        if (
            not isinstance(points, dict)
            or set(points) != set(MATCH_POINTS)
            or not all(isinstance(v, int) and v >= 0 for v in points.values())
        ):
            raise CribError(
                _("match_points must give whole points for {kinds}").format(
                    kinds=", ".join(MATCH_POINTS)
                )
            )
        return cls(
            **kwargs, match_points=tuple((k, points[k]) for k in MATCH_POINTS), names=tuple(names)
        )


@dataclass(frozen=True, slots=True)
class NewGame:
    options: GameOptions = field(default_factory=GameOptions)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.options.to_json()}


@dataclass(frozen=True, slots=True)
class CutForDeal:
    """Each player's cut card, in seat order; the lowest deals."""

    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"cut_for_deal": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class ChooseDealer:
    """The dealer picked by hand instead of cutting for deal."""

    player: int

    def to_json(self) -> dict[str, Any]:
        return {"dealer": self.player}


@dataclass(frozen=True, slots=True)
class Deal:
    """Hands as dealt, when they are known; ``extra`` is the 3-player crib card."""

    hands: tuple[tuple[Card, ...], ...]
    extra: Card | None = None

    def to_json(self) -> dict[str, Any]:
        hands = [[str(c) for c in hand] for hand in self.hands]
        if self.extra is not None:
            hands.append([str(self.extra)])
        return {"deal": hands}


@dataclass(frozen=True, slots=True)
class Discard:
    player: int
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"discard": [self.player, [str(c) for c in self.cards]]}


@dataclass(frozen=True, slots=True)
class Cut:
    """The starter, turned by the dealer."""

    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"cut": str(self.card)}


@dataclass(frozen=True, slots=True)
class Play:
    player: int
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"play": [self.player, str(self.card)]}


@dataclass(frozen=True, slots=True)
class Go:
    """The player whose turn it is cannot play."""

    player: int

    def to_json(self) -> dict[str, Any]:
        return {"go": self.player}


@dataclass(frozen=True, slots=True)
class Show:
    player: int
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"show": [self.player, [str(c) for c in self.cards]]}


@dataclass(frozen=True, slots=True)
class Crib:
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"crib": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Claim:
    """Muggins on: what a player says the hand (or crib) just shown is worth."""

    player: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"claim": [self.player, self.points]}


@dataclass(frozen=True, slots=True)
class Muggins:
    """An opponent takes the points missed in the last claim."""

    player: int

    def to_json(self) -> dict[str, Any]:
        return {"muggins": self.player}


@dataclass(frozen=True, slots=True)
class Undo:
    count: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"undo": self.count}


Action = (
    NewGame
    | CutForDeal
    | ChooseDealer
    | Deal
    | Discard
    | Cut
    | Play
    | Go
    | Show
    | Crib
    | Claim
    | Muggins
    | Undo
)


def _player(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CribError(
            _("{what}: player must be a number 0, 1, ..., not {value!r}").format(
                what=what, value=value
            )
        )
    return value


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise CribError(
            _('{what}: cards must be a list like ["5H", "10D"], not {value!r}').format(
                what=what, value=value
            )
        )
    return parse_cards(value)


def _pair(value: Any, what: str) -> tuple[Any, Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise CribError(
            _("{what} must be [player, ...], not {value!r}").format(what=what, value=value)
        )
    return value[0], value[1]


def action_from_json(line: Any) -> Action:
    """Read one record line (already decoded from JSON) into an action."""
    if not isinstance(line, dict) or len(line) != 1:
        raise CribError(
            _("a record line is an object with one key, not {line!r}").format(line=line)
        )
    ((key, value),) = line.items()
    if key == "game":
        return NewGame(GameOptions.from_json(value))
    if key == "cut_for_deal":
        return CutForDeal(_cards(value, "cut_for_deal"))
    if key == "dealer":
        return ChooseDealer(_player(value, "dealer"))
    if key == "deal":
        if not isinstance(value, list) or not value:
            raise CribError(_("deal must be a list of hands, not {value!r}").format(value=value))
        hands = tuple(_cards(hand, "deal") for hand in value)
        extra = None
        if len(hands) == 4 and len(hands[-1]) == 1:
            extra = hands[-1][0]
            hands = hands[:-1]
        return Deal(hands, extra)
    if key == "discard":
        player, cards = _pair(value, "discard")
        return Discard(_player(player, "discard"), _cards(cards, "discard"))
    if key == "cut":
        if not isinstance(value, str):
            raise CribError(_('cut must be a card like "JS", not {value!r}').format(value=value))
        return Cut(Card.parse(value))
    if key == "play":
        player, card = _pair(value, "play")
        if not isinstance(card, str):
            raise CribError(_('play: the card must be like "5H", not {card!r}').format(card=card))
        return Play(_player(player, "play"), Card.parse(card))
    if key == "go":
        return Go(_player(value, "go"))
    if key == "show":
        player, cards = _pair(value, "show")
        return Show(_player(player, "show"), _cards(cards, "show"))
    if key == "crib":
        return Crib(_cards(value, "crib"))
    if key == "claim":
        player, points = _pair(value, "claim")
        if not isinstance(points, int) or isinstance(points, bool):
            raise CribError(
                _("claim: points must be a whole number, not {points!r}").format(points=points)
            )
        return Claim(_player(player, "claim"), points)
    if key == "muggins":
        return Muggins(_player(value, "muggins"))
    if key == "undo":
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise CribError(
                _("undo must be a count of actions, 1 or more, not {value!r}").format(value=value)
            )
        return Undo(value)
    raise CribError(_("unknown record line {key!r}").format(key=key))
