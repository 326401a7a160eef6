"""The game engine: a match of cribbage as a table plays it, one checked action at a time.

``Game.apply(action)`` checks the action against the rules and, only if it is legal,
applies it and returns a frozen ``Record`` of what happened and who pegged what. A refused
action raises ``IllegalActionError`` saying why and leaves the game exactly as it was.
``undo()`` takes back the last applied action exactly.

The engine runs whether or not the hands are known. With a ``Deal`` it checks every play and
every go at once. Without one (a real table, where hands stay hidden until the show) it
learns each card as it is played, takes a go on trust, and at the show records a problem if
a shown hand is not the cards that player played or if a go was said while holding a card
that fitted.

>>> g = Game(GameOptions(players=2, dealer=0))
>>> g.apply(Cut(Card.parse("JS"))).events[0].reason
'his_heels'
>>> g.apply(Play(1, Card.parse("5H"))).scores
(2, 0)
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from itertools import combinations

from crib_pi.actions import (
    Action,
    ChooseDealer,
    Claim,
    Crib,
    Cut,
    CutForDeal,
    Deal,
    Discard,
    GameOptions,
    Go,
    Muggins,
    NewGame,
    Play,
    Show,
    Undo,
)
from crib_pi.cards import Card, cards_text
from crib_pi.errors import CribError, DuplicateCardError, IllegalActionError
from crib_pi.i18n import N_, _
from crib_pi.pegging import Pegging
from crib_pi.players import player_name, side_name
from crib_pi.scoring import Score, ScoreItem, score_hand
from crib_pi.snapshot import BoardSnapshot, ScoreEvent, SideSnapshot

CRIB = -1  # the show order's marker for the crib
HAND = 4  # cards each player keeps, plays and shows


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: the winning side, final scores and how bad the loss was."""

    winner: int
    scores: tuple[int, ...]
    skunk: str
    match_points: int


@dataclass(frozen=True, slots=True)
class Missed:
    """A short muggins-mode claim: the points missed and items that make them up."""

    owner: int
    shortfall: int
    items: tuple[ScoreItem, ...]


@dataclass(frozen=True, slots=True)
class Record:
    """What one applied action did: events pegged, scores after, problems found."""

    action: Action
    events: tuple[ScoreEvent, ...]
    scores: tuple[int, ...]
    text: str
    problems: tuple[str, ...] = ()
    missed: Missed | None = None
    result: GameResult | None = None


@dataclass
class _State:
    """Everything the engine knows; copied whole for undo and for refused actions."""

    options: GameOptions
    dealer: int | None
    phase: str
    scores: list[int]
    backs: list[int]
    results: list[GameResult] = field(default_factory=list)
    # the deal in progress
    dealt: list[tuple[Card, ...]] | None = None
    extra: Card | None = None
    discards: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    starter: Card | None = None
    peg: Pegging | None = None
    show_order: list[int] = field(default_factory=list)
    shown: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    crib: tuple[Card, ...] | None = None
    pending_claim: tuple[int, Score, str] | None = None  # owner, true score, "hand" | "crib"
    missed: Missed | None = None
    winner: int | None = None
    flags: list[str] = field(default_factory=list)


class Game:
    """A match: one game after another, the loser of each dealing the next."""

    def __init__(self, options: GameOptions | None = None) -> None:
        self._state = _new_state(options or GameOptions())
        self._history: list[tuple[_State, Record]] = []
        self._last: Record | None = None

    # -- reading -----------------------------------------------------------------------

    @property
    def options(self) -> GameOptions:
        return self._state.options

    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._state.scores)

    @property
    def dealer(self) -> int | None:
        return self._state.dealer

    @property
    def turn(self) -> int | None:
        """Whose move it is: to play or go, show, or claim."""
        s = self._state
        if s.phase == "play" and s.peg:
            return s.peg.turn
        if s.phase == "claim" and s.pending_claim:
            return s.pending_claim[0]
        if s.phase == "show" and s.show_order:
            return s.dealer if s.show_order[0] == CRIB else s.show_order[0]
        return None

    @property
    def crib_next(self) -> bool:
        """Every hand is counted and the crib is to be shown."""
        s = self._state
        return s.phase == "show" and bool(s.show_order) and s.show_order[0] == CRIB

    @property
    def count(self) -> int:
        return self._state.peg.count if self._state.peg else 0

    @property
    def pile(self) -> tuple[Card, ...]:
        return tuple(self._state.peg.pile) if self._state.peg else ()

    @property
    def starter(self) -> Card | None:
        return self._state.starter

    @property
    def winner(self) -> int | None:
        return self._state.winner

    @property
    def results(self) -> tuple[GameResult, ...]:
        return tuple(self._state.results)

    @property
    def records(self) -> tuple[Record, ...]:
        """Every applied action's record, oldest first (undone ones are gone)."""
        return tuple(record for _, record in self._history)

    @property
    def missed(self) -> Missed | None:
        """The last short claim, while an opponent may still call muggins on it."""
        return self._state.missed

    def played(self, player: int) -> tuple[Card, ...]:
        return tuple(self._state.peg.played[player]) if self._state.peg else ()

    def hand(self, player: int) -> tuple[Card, ...] | None:
        """The cards a player still holds, when the deal is known."""
        kept = _kept(self._state, player)
        if kept is None:
            return None
        return tuple(c for c in kept if c not in self.played(player))

    def legal_plays(self, player: int) -> tuple[Card, ...] | None:
        """With known hands: the cards the player may lay now; None when hands are hidden."""
        held = self.hand(player)
        if held is None:
            return None
        if self._state.phase != "play" or self.turn != player:
            return ()
        return tuple(c for c in held if self.count + c.value <= 31)

    # -- acting ------------------------------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise ``IllegalActionError`` (or ``DuplicateCardError``) if ``action`` may not be
        applied now."""
        if isinstance(action, Undo):
            if action.count > len(self._history):
                raise IllegalActionError(
                    _("cannot undo {count} actions: only {have} to undo").format(
                        count=action.count, have=len(self._history)
                    )
                )
            return
        _apply(copy.deepcopy(self._state), action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` may be applied now (any refusal, duplicates included)."""
        try:
            self.check(action)
        except CribError:
            return False
        return True

    def apply(self, action: Action) -> Record:
        """Check and apply one action; ``Undo`` returns the record of the last one undone."""
        if isinstance(action, Undo):
            self.check(action)
            undone = self.undo(action.count)
            return undone[-1]
        state = copy.deepcopy(self._state)
        record = _apply(state, action)
        self._history.append((self._state, record))
        self._state = state
        return record

    def undo(self, count: int = 1) -> list[Record]:
        """Take back the last ``count`` actions; returns their records, newest first."""
        if not 1 <= count <= len(self._history):
            raise IllegalActionError(
                _("cannot undo {count} actions: only {have} to undo").format(
                    count=count, have=len(self._history)
                )
            )
        undone = []
        for _undone in range(count):
            self._state, record = self._history.pop()
            undone.append(record)
        return undone

    # convenience forms of apply
    def play(self, player: int, card: Card | str) -> Record:
        return self.apply(Play(player, card if isinstance(card, Card) else Card.parse(card)))

    def go(self, player: int) -> Record:
        return self.apply(Go(player))

    def cut(self, card: Card | str) -> Record:
        return self.apply(Cut(card if isinstance(card, Card) else Card.parse(card)))

    # -- showing -----------------------------------------------------------------------

    def snapshot(self) -> BoardSnapshot:
        """A frozen picture of the board for the screen, the LEDs and the log."""
        s = self._state
        o = s.options
        last = self._history[-1][1] if self._history else None
        names = _side_names(o)
        sides = []
        for side in range(o.sides):
            won = [r for r in s.results if r.winner == side]
            sides.append(
                SideSnapshot(
                    players=tuple(p for p in range(o.players) if o.side_of(p) == side),
                    front=s.scores[side],
                    back=s.backs[side],
                    name=names[side],
                    games_won=len(won),
                    match_points=sum(r.match_points for r in won),
                )
            )
        return BoardSnapshot(
            players=o.players,
            target=o.target,
            sides=tuple(sides),
            dealer=s.dealer,
            phase=s.phase,
            turn=self.turn,
            count=self.count,
            pile=self.pile,
            starter=s.starter,
            last_events=last.events if last else (),
            last_text=last.text if last else "",
            prompt=_prompt(s),
            winner=s.winner,
            skunk=_skunk(s) if s.winner is not None else "none",
            skunk_lines=_skunk_lines(o),
            flags=tuple(s.flags),
            names=o.names,
        )


# ---------------------------------------------------------------------------------------
# The rules. Each handler checks everything first, then changes the (copied) state.


def _new_state(options: GameOptions) -> _State:
    phase = "cut_for_deal" if options.dealer is None else "deal"
    zeros = [0] * options.sides
    state = _State(options, options.dealer, phase, list(zeros), list(zeros))
    _reset_deal(state)
    return state


def _apply(s: _State, action: Action) -> Record:
    if isinstance(action, NewGame):
        raise IllegalActionError(_("a 'game' line may only start a record"))
    if s.missed is not None and not isinstance(action, Muggins):
        s.missed = None  # muggins may be called only straight after the short claim
    if s.phase == "over" and not isinstance(action, Deal | Discard | Cut):
        raise IllegalActionError(
            _("the game is over ({winner} won); deal or cut to start the next game").format(
                winner=_side(s, s.winner)
            )
        )
    handlers = {
        CutForDeal: _cut_for_deal,
        ChooseDealer: _choose_dealer,
        Deal: _deal,
        Discard: _discard,
        Cut: _cut,
        Play: _play,
        Go: _go,
        Show: _show,
        Crib: _crib,
        Claim: _claim,
        Muggins: _muggins,
    }
    record: Record = handlers[type(action)](s, action)  # type: ignore[operator]
    return record


def _need_phase(s: _State, action: str, *phases: str) -> None:
    if s.phase not in phases:
        raise IllegalActionError(
            _("cannot {action} now: {prompt}").format(action=_(action), prompt=_prompt(s))
        )


def _check_player(s: _State, player: int) -> None:
    if not 0 <= player < s.options.players:
        raise IllegalActionError(
            _("there is no player {player} in a {players}-player game").format(
                player=player, players=s.options.players
            )
        )


def _record(s: _State, action: Action, events: list[ScoreEvent], text: str, **kw: object) -> Record:
    return Record(action, tuple(events), tuple(s.scores), text, **kw)  # type: ignore[arg-type]


def _peg(s: _State, player: int, item: ScoreItem, phase: str, events: list[ScoreEvent]) -> bool:
    """Peg one item for the player's side; True when that wins the game (play stops)."""
    if s.winner is not None:
        return True
    side = s.options.side_of(player)
    points = min(item.points, s.options.target - s.scores[side])
    if points <= 0:
        return False
    s.backs[side] = s.scores[side]
    s.scores[side] += points
    text = item.name if points == item.points else f"{item.name} (pegged {points} to win)"
    # (the event's text stays the English name, language-free: ScoreEvent.said() translates)
    events.append(ScoreEvent(player, side, points, item.reason, text, item.cards, phase))
    if s.scores[side] >= s.options.target:
        _finish(s, side)
        return True
    return False


def _finish(s: _State, side: int) -> None:
    s.winner = side
    s.phase = "over"
    skunk = _skunk(s)
    s.results.append(GameResult(side, tuple(s.scores), skunk, s.options.points_for(skunk)))


def _skunk_lines(o: GameOptions) -> tuple[int, ...]:
    """Highest losing scores for skunk, double (and triple): 90, 60 (30) in a game to 121."""
    lines = [o.target - 31, o.target - 61]
    if o.triple_skunk:
        lines.append(o.target - 91)
    return tuple(line for line in lines if line >= 0)


def _skunk(s: _State) -> str:
    """How badly the best-placed loser lost: "none" (no winner yet, or no skunk), "skunk",
    "double" or "triple"."""
    if s.winner is None:
        return "none"
    losers = [score for side, score in enumerate(s.scores) if side != s.winner]
    best = max(losers)
    names = ("skunk", "double", "triple")
    result = "none"
    for name, line in zip(names, _skunk_lines(s.options), strict=False):
        if best <= line:
            result = name
    return result


def _cut_for_deal(s: _State, a: CutForDeal) -> Record:
    _need_phase(s, N_("cut for deal"), "cut_for_deal")
    n = s.options.players
    if len(a.cards) != n:
        raise IllegalActionError(
            _("cut for deal needs {n} cards, one per player, not {count}").format(
                n=n, count=len(a.cards)
            )
        )
    if len(set(a.cards)) != n:
        raise DuplicateCardError(
            _("cut for deal: a card appears twice in {cards}").format(cards=cards_text(a.cards))
        )
    low = min(c.rank for c in a.cards)
    lowest = [p for p, c in enumerate(a.cards) if c.rank == low]
    if len(lowest) > 1:
        who = _(" and ").join(_name(s, p) for p in lowest)
        return _record(s, a, [], _("{who} tie for lowest: they cut again").format(who=who))
    s.dealer = lowest[0]
    s.phase = "deal"
    return _record(
        s,
        a,
        [],
        _("{dealer} cuts lowest ({cards}) and deals").format(
            dealer=_name(s, s.dealer), cards=a.cards[s.dealer]
        ),
    )


def _choose_dealer(s: _State, a: ChooseDealer) -> Record:
    _need_phase(s, N_("choose the dealer"), "cut_for_deal")
    _check_player(s, a.player)
    s.dealer = a.player
    s.phase = "deal"
    return _record(s, a, [], _("{player} deals (chosen by hand)").format(player=_name(s, a.player)))


def _known_cards(s: _State) -> set[Card]:
    """Every card whose place in this deal is known: dealt, discarded, starter, played."""
    known: set[Card] = set()
    for hand in s.dealt or ():
        known.update(hand)
    if s.extra:
        known.add(s.extra)
    for cards in s.discards.values():
        known.update(cards)
    if s.starter:
        known.add(s.starter)
    for pile in s.peg.played if s.peg else ():
        known.update(pile)
    for shown in s.shown.values():
        known.update(shown)
    return known


def _kept(s: _State, player: int) -> tuple[Card, ...] | None:
    if s.dealt is None or player not in s.discards:
        return None
    return tuple(c for c in s.dealt[player] if c not in s.discards[player])


def _start_deal_if_over(s: _State) -> None:
    """A deal or cut after a finished game starts the next game; its loser deals."""
    if s.phase != "over":
        return
    o = s.options
    assert s.dealer is not None
    s.dealer = next(
        p
        for p in ((s.dealer + i) % o.players for i in range(1, o.players + 1))
        if o.side_of(p) != s.winner
    )
    s.scores = [0] * o.sides
    s.backs = [0] * o.sides
    s.winner = None
    s.flags = []
    _reset_deal(s)
    s.phase = "deal"


def _reset_deal(s: _State) -> None:
    s.dealt, s.extra, s.discards, s.starter, s.peg = None, None, {}, None, None
    s.show_order, s.shown, s.crib, s.pending_claim = [], {}, None, None


def _deal(s: _State, a: Deal) -> Record:
    _start_deal_if_over(s)
    _need_phase(s, N_("deal"), "deal")
    o = s.options
    if s.dealt is not None or s.discards:
        raise IllegalActionError(_("this deal's hands are already known; cut the starter next"))
    if len(a.hands) != o.players:
        raise IllegalActionError(
            _("deal: {players} hands expected, not {count}").format(
                players=o.players, count=len(a.hands)
            )
        )
    for p, hand in enumerate(a.hands):
        if len(hand) != o.dealt:
            raise IllegalActionError(
                _("deal: {p} has {count} cards; each player gets {dealt}").format(
                    p=player_name(p, o.names), count=len(hand), dealt=o.dealt
                )
            )
    if a.extra is not None and o.players != 3:
        raise IllegalActionError(_("deal: only a 3-player deal has a card for the crib"))
    every = [c for hand in a.hands for c in hand] + ([a.extra] if a.extra else [])
    if len(set(every)) != len(every):
        dup = next(c for c in every if every.count(c) > 1)
        raise DuplicateCardError(_("deal: {dup} is dealt twice").format(dup=dup))
    s.dealt = list(a.hands)
    s.extra = a.extra
    return _record(s, a, [], _("{dealer} deals").format(dealer=_name(s, s.dealer)))


def _discard(s: _State, a: Discard) -> Record:
    _start_deal_if_over(s)
    _need_phase(s, N_("discard"), "deal")
    o = s.options
    _check_player(s, a.player)
    if a.player in s.discards:
        raise IllegalActionError(
            _("{player} has already discarded").format(player=_name(s, a.player))
        )
    if len(a.cards) != o.discards:
        raise IllegalActionError(
            _("{player} must lay {discards} card(s) away to the crib, not {count}").format(
                player=_name(s, a.player), discards=o.discards, count=len(a.cards)
            )
        )
    if s.dealt is not None:
        for card in a.cards:
            if card not in s.dealt[a.player]:
                raise IllegalActionError(
                    _("{player} was not dealt {card}").format(player=_name(s, a.player), card=card)
                )
    else:
        for card in a.cards:
            if card in _known_cards(s):
                raise DuplicateCardError(_("{card} is already in the crib").format(card=card))
    s.discards[a.player] = a.cards
    return _record(
        s,
        a,
        [],
        _("{player} lays away {cards}").format(
            player=_name(s, a.player), cards=cards_text(a.cards)
        ),
    )


def _cut(s: _State, a: Cut) -> Record:
    _start_deal_if_over(s)
    _need_phase(s, N_("cut the starter"), "deal")
    if a.card in _known_cards(s):
        raise DuplicateCardError(
            _("the starter {card} is already in a hand or the crib").format(card=a.card)
        )
    assert s.dealer is not None
    s.starter = a.card
    s.phase = "play"
    hands = [_kept(s, p) for p in range(s.options.players)]
    s.peg = Pegging(
        s.options.players,
        (s.dealer + 1) % s.options.players,
        hands,
        [HAND] * len(hands),
        names=s.options.names,
    )
    events: list[ScoreEvent] = []
    text = _("the starter is {card}").format(card=a.card)
    if a.card.is_jack:
        _peg(
            s,
            s.dealer,
            ScoreItem("his_heels", 2, (a.card,), N_("two for his heels")),
            "cut",
            events,
        )
        text = _("the starter is {card}: two for his heels").format(card=a.card)
    return _record(s, a, events, text, result=_result_if_won(s))


def _result_if_won(s: _State) -> GameResult | None:
    return s.results[-1] if s.phase == "over" else None


def _play(s: _State, a: Play) -> Record:
    _need_phase(s, N_("play a card"), "play")
    assert s.peg is not None
    if a.card == s.starter:
        raise DuplicateCardError(_("{card} is the starter").format(card=a.card))
    s.peg.check_turn(a.player)
    s.peg.check_unplayed(a.card)
    _check_dealt(s, a.player, (a.card,))
    return _peg_play(s, a, s.peg.play(a.player, a.card))


def _go(s: _State, a: Go) -> Record:
    _need_phase(s, N_("say go"), "play")
    assert s.peg is not None
    return _peg_play(s, a, s.peg.go(a.player))


def _check_dealt(s: _State, player: int, cards: tuple[Card, ...]) -> None:
    """A player's cards must be ones they were dealt (when known) and not laid away."""
    laid = {c for away in s.discards.values() for c in away} | ({s.extra} if s.extra else set())
    for card in cards:
        if s.dealt is not None and 0 <= player < len(s.dealt) and card not in s.dealt[player]:
            raise IllegalActionError(
                _("{player} was not dealt {card}").format(player=_name(s, player), card=card)
            )
        if card in laid:
            raise DuplicateCardError(_("{card} was laid away to the crib").format(card=card))


def _peg_play(s: _State, a: Action, awards: list[tuple[int, ScoreItem]]) -> Record:
    """Peg what a play or go earned, stopping the instant a side wins."""
    assert s.peg is not None
    events: list[ScoreEvent] = []
    for player, item in awards:
        if _peg(s, player, item, "play", events):
            break
    if s.winner is None and s.peg.turn is None:
        _end_play(s)
    return _record(s, a, events, s.peg.text, result=_result_if_won(s))


def _end_play(s: _State) -> None:
    assert s.dealer is not None
    n = s.options.players
    s.phase = "show"
    s.show_order = [(s.dealer + i) % n for i in range(1, n + 1)] + [CRIB]


def _show(s: _State, a: Show) -> Record:
    _need_phase(s, N_("show a hand"), "show")
    _check_player(s, a.player)
    expected = s.show_order[0]
    if expected == CRIB:
        raise IllegalActionError(_("every hand has been counted: the crib is next"))
    if a.player != expected:
        raise IllegalActionError(
            _("{expected} shows next (left of the dealer first)").format(
                expected=_name(s, expected)
            )
        )
    if len(a.cards) != 4:
        raise IllegalActionError(_("a hand has 4 cards, not {count}").format(count=len(a.cards)))
    _check_not_elsewhere(s, a.cards, owner=a.player)
    kept = _kept(s, a.player)
    if kept is not None and set(a.cards) != set(kept):
        raise IllegalActionError(
            _("{player} holds {kept}, not {cards}").format(
                player=_name(s, a.player), kept=cards_text(kept), cards=cards_text(a.cards)
            )
        )
    assert s.peg is not None
    problems = s.peg.problems_at_show(a.player, a.cards)
    s.shown[a.player] = a.cards
    assert s.starter is not None
    score = score_hand(a.cards, s.starter)
    return _count_show(s, a, a.player, score, "hand", problems)


def _check_not_elsewhere(s: _State, cards: tuple[Card, ...], owner: int | None) -> None:
    if s.starter in cards:
        raise DuplicateCardError(_("{starter} is the starter").format(starter=s.starter))
    assert s.peg is not None
    for p in range(s.options.players):
        if p == owner:
            continue
        for card in cards:
            if card in s.peg.played[p] or card in s.shown.get(p, ()):
                raise DuplicateCardError(
                    _("{card} belongs to {p}'s hand").format(card=card, p=_name(s, p))
                )
    if owner is not None:
        _check_dealt(s, owner, cards)


def _crib(s: _State, a: Crib) -> Record:
    _need_phase(s, N_("show the crib"), "show")
    if s.show_order[0] != CRIB:
        raise IllegalActionError(
            _("{player} shows before the crib").format(player=_name(s, s.show_order[0]))
        )
    if len(a.cards) != 4:
        raise IllegalActionError(_("the crib has 4 cards, not {count}").format(count=len(a.cards)))
    _check_not_elsewhere(s, a.cards, owner=None)
    laid = [c for cards in s.discards.values() for c in cards] + ([s.extra] if s.extra else [])
    known_all = len(s.discards) == s.options.players and (s.options.players != 3 or s.extra)
    if known_all and set(laid) != set(a.cards):
        raise IllegalActionError(
            _("the crib is {laid}, not {cards}").format(
                laid=cards_text(laid), cards=cards_text(a.cards)
            )
        )
    missing = [c for c in laid if c not in a.cards]
    if missing:
        raise IllegalActionError(
            _("{missing} was laid away to the crib").format(missing=missing[0])
        )
    s.crib = a.cards
    assert s.starter is not None and s.dealer is not None
    return _count_show(s, a, s.dealer, score_hand(a.cards, s.starter, crib=True), "crib", [])


def _count_show(
    s: _State, a: Action, owner: int, score: Score, what: str, problems: list[str]
) -> Record:
    s.flags.extend(problems)
    events: list[ScoreEvent] = []
    whose = _("the crib") if what == "crib" else _("{owner}'s hand").format(owner=_name(s, owner))
    if s.options.muggins:
        s.pending_claim = (owner, score, what)
        s.phase = "claim"
        text = _("{whose} is shown: {owner} to count it").format(whose=whose, owner=_name(s, owner))
        return _record(s, a, events, text, problems=tuple(problems))
    for item in score.items:
        if _peg(s, owner, item, what, events):
            break
    s.show_order.pop(0)
    if s.winner is None and not s.show_order:
        _next_deal(s)
    text = _("{whose}: {count}").format(whose=whose, count=score.spoken())
    return _record(s, a, events, text, problems=tuple(problems), result=_result_if_won(s))


def _next_deal(s: _State) -> None:
    assert s.dealer is not None
    s.dealer = (s.dealer + 1) % s.options.players
    s.phase = "deal"
    _reset_deal(s)


def _claim(s: _State, a: Claim) -> Record:
    if not s.options.muggins:
        raise IllegalActionError(_("muggins is off: the engine counts every hand itself"))
    _need_phase(s, N_("claim"), "claim")
    assert s.pending_claim is not None
    owner, score, what = s.pending_claim
    if a.player != owner:
        message = (
            _("{owner} counts this crib, not {player}")
            if what == "crib"
            else _("{owner} counts this hand, not {player}")
        )
        raise IllegalActionError(message.format(owner=_name(s, owner), player=_name(s, a.player)))
    if not 0 <= a.points <= 29:
        raise IllegalActionError(
            _("a claim of {points} is out of range: a count is 0 to 29").format(points=a.points)
        )
    true = score.total
    pegged = min(a.points, true)
    events: list[ScoreEvent] = []
    problems: list[str] = []
    missed = None
    name = N_("the crib as counted") if what == "crib" else N_("the hand as counted")
    item = ScoreItem(what, pegged, (), name)
    _peg(s, owner, item, what, events)
    crib = what == "crib"
    claims = (
        _("{owner} claims {points} for the crib")
        if crib
        else _("{owner} claims {points} for the hand")
    )
    text = claims.format(owner=_name(s, owner), points=a.points)
    if a.points > true:
        worth = (
            _("{owner} claimed {points} but the crib is worth {true}")
            if crib
            else _("{owner} claimed {points} but the hand is worth {true}")
        )
        problems.append(worth.format(owner=_name(s, owner), points=a.points, true=true))
        over = _("{text}: over-claim, pegged at the true {true} ({count})")
        text = over.format(text=text, true=true, count=score.spoken())
    elif a.points < true and s.winner is None:
        short = true - a.points
        missed = Missed(owner, short, _missing_items(score.items, short))
        s.missed = missed
        missed_in = (
            _("{owner} missed {short} in the crib: {items}")
            if crib
            else _("{owner} missed {short} in the hand: {items}")
        )
        items = _("; ").join(str(i) for i in missed.items)
        problems.append(missed_in.format(owner=_name(s, owner), short=short, items=items))
        text = _("{text}: {short} missed, muggins!").format(text=text, short=short)
    s.flags.extend(problems)
    s.pending_claim = None
    if s.winner is None:
        s.phase = "show"
        s.show_order.pop(0)
        if not s.show_order:
            _next_deal(s)
    return _record(
        s, a, events, text, problems=tuple(problems), missed=missed, result=_result_if_won(s)
    )


def _missing_items(items: tuple[ScoreItem, ...], shortfall: int) -> tuple[ScoreItem, ...]:
    """Items that add up to the shortfall: the fewest, preferring those said last.

    A claim is only a number, so which items were missed is a guess; players most often
    miss the items counted last (nobs, a flush, the last fifteen).
    """
    best: tuple[int, ...] | None = None
    n = len(items)
    # search by number of items, latest items first
    order = list(range(n - 1, -1, -1))
    for size in range(1, n + 1):
        for combo in combinations(order, size):
            if sum(items[i].points for i in combo) == shortfall:
                best = tuple(sorted(combo))
                break
        if best is not None:
            break
    if best is None:
        return items
    return tuple(items[i] for i in best)


def _muggins(s: _State, a: Muggins) -> Record:
    _check_player(s, a.player)
    missed = s.missed
    if missed is None:
        raise IllegalActionError(_("no points were missed in the last count: nothing to take"))
    o = s.options
    if o.side_of(a.player) == o.side_of(missed.owner):
        raise IllegalActionError(
            _("{player} cannot take points from their own side").format(player=_name(s, a.player))
        )
    s.missed = None
    events: list[ScoreEvent] = []
    cards = tuple(dict.fromkeys(c for i in missed.items for c in i.cards))
    item = ScoreItem("muggins", missed.shortfall, cards, N_("muggins"))
    _peg(s, a.player, item, "muggins", events)
    text = _("muggins! {player} takes {shortfall} missed by {owner}").format(
        player=_name(s, a.player), shortfall=missed.shortfall, owner=_name(s, missed.owner)
    )
    return _record(s, a, events, text, result=_result_if_won(s))


# ---------------------------------------------------------------------------------------
# Words for the screen.


def _side_names(o: GameOptions) -> list[str]:
    return [side_name(side, o.players, o.names) for side in range(o.sides)]


def _name(s: _State, player: int | None) -> str:
    """A player as people read it (``crib_pi.players``)."""
    assert player is not None
    return player_name(player, s.options.names)


def _side(s: _State, side: int | None) -> str:
    """A side as people read it: a player, or two partners."""
    assert side is not None
    return side_name(side, s.options.players, s.options.names)


def _prompt(s: _State) -> str:
    if s.phase == "cut_for_deal":
        return _("each player cuts a card: lowest deals")
    if s.phase == "deal":
        return _("{dealer} deals; then cut the starter").format(dealer=_name(s, s.dealer))
    if s.phase == "play" and s.peg:
        return _("{turn} to play or say go (count {count})").format(
            turn=_name(s, s.peg.turn), count=s.peg.count
        )
    if s.phase == "show":
        nxt = s.show_order[0]
        return (
            _("the dealer shows the crib")
            if nxt == CRIB
            else _("{player} shows a hand").format(player=_name(s, nxt))
        )
    if s.phase == "claim" and s.pending_claim:
        owner, _score, what = s.pending_claim
        counts = _("{owner} counts the crib") if what == "crib" else _("{owner} counts the hand")
        return counts.format(owner=_name(s, owner))
    return _("game over: {winner} wins").format(winner=_side(s, s.winner))
