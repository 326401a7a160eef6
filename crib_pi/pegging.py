"""The play of one deal: whose turn it is, the count, go, 31 and last card.

``Pegging`` knows nothing of scores or winning; each play or go returns the awards it
earned, in order, and the game pegs them (stopping the instant one wins).

Rules: the player left of the dealer leads; turns pass left, skipping players with no cards
and players who have said go in this series; when every player still holding cards has said
go, the last player to lay a card pegs one for the go (none at 31, which scored two) and the
player after them leads a fresh count; the last card of all pegs one (never with 31).

>>> p = Pegging(players=2, leader=1)
>>> [(who, item.reason) for who, item in p.play(1, Card.parse("5H"))]
[]
>>> [(who, item.reason) for who, item in p.play(0, Card.parse("KS"))]
[(0, 'fifteen')]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from crib_pi.cards import Card, cards_text
from crib_pi.errors import DuplicateCardError, IllegalActionError
from crib_pi.i18n import N_, _
from crib_pi.players import player_name
from crib_pi.scoring import (
    FIFTEEN,
    PAIR_NAMES,
    RUN_NAMES,
    THIRTY_ONE,
    ScoreItem,
    score_play,
)

Award = tuple[int, ScoreItem]


@dataclass(frozen=True, slots=True)
class GoCall:
    """A go said at ``count`` by a player who had then laid ``laid`` cards."""

    player: int
    count: int
    laid: int


@dataclass
class Pegging:
    """The state of play; ``hands`` (when known) lets plays and go's be checked at once.

    ``hands`` may know some players' hands and not others (``None`` for those).
    """

    players: int
    leader: int
    hands: list[tuple[Card, ...] | None] | None = None
    hand_sizes: list[int] | None = None
    turn: int | None = None
    pile: list[Card] = field(default_factory=list)
    played: list[list[Card]] = field(default_factory=list)
    said_go: set[int] = field(default_factory=set)
    last_player: int | None = None
    go_calls: list[GoCall] = field(default_factory=list)
    text: str = ""
    #: The players' configured names, for the texts (``crib_pi.players``).
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.hands is not None and self.hand_sizes is None:
            self.hand_sizes = [4 if h is None else len(h) for h in self.hands]
        if self.hand_sizes is None:
            self.hand_sizes = [4] * self.players
        if len(self.hand_sizes) != self.players:
            raise IllegalActionError(
                _("{players} players need {players} hands").format(players=self.players)
            )
        self.played = [[] for _ in range(self.players)]
        self.turn = self.leader
        self._skip_empty()

    # -- reading -----------------------------------------------------------------------

    @property
    def count(self) -> int:
        return sum(c.value for c in self.pile)

    @property
    def over(self) -> bool:
        return not self.holders()

    def holders(self) -> list[int]:
        """Players who still hold cards to play."""
        assert self.hand_sizes is not None
        return [p for p in range(self.players) if len(self.played[p]) < self.hand_sizes[p]]

    def held(self, player: int) -> tuple[Card, ...] | None:
        """The cards a player still holds, when hands are known."""
        hand = None if self.hands is None else self.hands[player]
        if hand is None:
            return None
        return tuple(c for c in hand if c not in self.played[player])

    def fits(self, player: int) -> tuple[Card, ...] | None:
        held = self.held(player)
        return None if held is None else tuple(c for c in held if self.count + c.value <= 31)

    def name(self, player: int) -> str:
        """A player as people read it (``crib_pi.players``)."""
        return player_name(player, self.names)

    # -- checking ----------------------------------------------------------------------

    def check_play(self, player: int, card: Card) -> None:
        self.check_turn(player)
        self.check_unplayed(card)
        held = self.held(player)
        if held is not None and card not in held:
            raise IllegalActionError(
                _("{player} does not hold {card}").format(player=self.name(player), card=card)
            )
        if self.count + card.value > 31:
            raise IllegalActionError(
                _("{card} would make the count {value}").format(
                    card=card, value=self.count + card.value
                )
            )

    def check_unplayed(self, card: Card) -> None:
        for p, cards in enumerate(self.played):
            if card in cards:
                raise DuplicateCardError(
                    _("{card} was already played (by {p})").format(card=card, p=self.name(p))
                )

    def check_go(self, player: int) -> None:
        self.check_turn(player)
        if not self.pile:
            raise IllegalActionError(
                _("{player} leads: any card fits the count of 0").format(player=self.name(player))
            )
        fits = self.fits(player)
        if fits:
            raise IllegalActionError(
                _("{player} cannot say go: {fits} fits the count of {count}").format(
                    player=self.name(player), fits=fits[0], count=self.count
                )
            )

    def check_turn(self, player: int) -> None:
        if not 0 <= player < self.players:
            raise IllegalActionError(
                _("there is no player {player} in a {players}-player game").format(
                    player=player, players=self.players
                )
            )
        if self.turn is None:
            raise IllegalActionError(_("play is over: every card has been laid"))
        if player != self.turn:
            raise IllegalActionError(
                _("it is {turn}'s turn, not {player}'s").format(
                    turn=self.name(self.turn), player=self.name(player)
                )
            )

    # -- acting ------------------------------------------------------------------------

    def play(self, player: int, card: Card) -> list[Award]:
        """Lay a card; returns the awards it earned (15, 31, pairs, runs, go, last card)."""
        self.check_play(player, card)
        self.pile.append(card)
        self.played[player].append(card)
        self.last_player = player
        score = score_play(self.pile)
        awards = [(player, _said(item)) for item in score.items]
        self.text = _("{player} lays {card}, {count}").format(
            player=self.name(player), card=card, count=self.count
        )
        if score.items:
            self.text += _(": ") + _(", ").join(_(item.name) for _who, item in awards)
        awards += self._advance(player)
        return awards

    def go(self, player: int) -> list[Award]:
        """The player whose turn it is cannot play."""
        self.check_go(player)
        self.said_go.add(player)
        self.go_calls.append(GoCall(player, self.count, len(self.played[player])))
        self.text = _("{player} says go").format(player=self.name(player))
        return self._advance(player)

    def _advance(self, actor: int) -> list[Award]:
        holders = self.holders()
        last = self.last_player
        assert last is not None
        awards: list[Award] = []
        if self.count == 31 or all(p in self.said_go for p in holders):
            if self.count != 31:
                end = self.pile[-1:]
                item = (
                    ScoreItem("go", 1, tuple(end), N_("one for the go"))
                    if holders
                    else ScoreItem("last_card", 1, tuple(end), N_("one for last card"))
                )
                awards.append((last, item))
                self.text += _("; {last} pegs {name}").format(
                    last=self.name(last), name=_(item.name)
                )
            self.pile, self.said_go = [], set()
            if not holders:
                self.turn = None
                self.text += _("; play is over")
                return awards
            self.turn = self._next(last, lambda p: p in holders)
            self.text += _("; the count starts again and {turn} leads").format(
                turn=self.name(self.turn)
            )
            return awards
        self.turn = self._next(actor, lambda p: p in holders and p not in self.said_go)
        return awards

    def _next(self, after: int, ok: Callable[[int], bool]) -> int:
        n = self.players
        return next(p for p in ((after + i) % n for i in range(1, n + 1)) if ok(p))

    def _skip_empty(self) -> None:
        holders = self.holders()
        if not holders:
            self.turn = None
        elif self.turn not in holders:
            self.turn = self._next(self.leader, lambda p: p in holders)

    def problems_at_show(self, player: int, shown: Sequence[Card]) -> list[str]:
        """Hidden hands, checked at the show: the cards played, and every go said."""
        problems = []
        played = self.played[player]
        if set(shown) != set(played):
            problems.append(
                _("{player} shows {shown} but played {played}").format(
                    player=self.name(player), shown=cards_text(shown), played=cards_text(played)
                )
            )
        for call in self.go_calls:
            if call.player != player:
                continue
            still_held = [c for c in shown if c not in played[: call.laid]]
            fits = [c for c in still_held if call.count + c.value <= 31]
            if fits:
                problems.append(
                    _("{player} said go at {count} while holding {fits}, which fitted").format(
                        player=self.name(player), count=call.count, fits=fits[0]
                    )
                )
        return problems


#: What a pegging item is called with its points ("fifteen for two"): English names, kept
#: language-free in records and events, translated where they are shown or said.
PEGGED_NAMES = {
    FIFTEEN: N_("fifteen for two"),
    THIRTY_ONE: N_("thirty-one for two"),
    PAIR_NAMES[2]: N_("a pair for two"),
    PAIR_NAMES[3]: N_("a pair royal for six"),
    PAIR_NAMES[4]: N_("a double pair royal for twelve"),
    RUN_NAMES[3]: N_("a run of three for three"),
    RUN_NAMES[4]: N_("a run of four for four"),
    RUN_NAMES[5]: N_("a run of five for five"),
    RUN_NAMES[6]: N_("a run of six for six"),
    RUN_NAMES[7]: N_("a run of seven for seven"),
}


def _said(item: ScoreItem) -> ScoreItem:
    """Pegging items are said with their points: 'fifteen for two'."""
    return ScoreItem(item.reason, item.points, item.cards, PEGGED_NAMES[item.name])
