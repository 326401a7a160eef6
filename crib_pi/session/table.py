"""The table: cards laid on the mat and button presses become checked game actions.

One ``TableSession`` owns the game. It is fed ``CardLaid`` / ``CardUnsure`` / ``MatCleared``
from the tracker, ``Press`` from the buttons and ``TypedCard`` when a card is entered by hand,
all from one thread. Every action it applies goes to the game log. Anything it cannot apply
(a card out of turn, past 31, unreadable) is never scored: it becomes a ``Question`` that the
players answer with the buttons (Go: next choice, Confirm: accept, Undo: reject).

A card it should doubt is never scored either: a card read again where it cannot be (already
played, the starter, in the crib or another player's cut this deal), or a place whose reads
flip between two cards (the tracker's ``CardUnsure``), asks which card it is, offering the
legal cards of the same rank in the other suits (the usual misreading) or the cards read.
A question always offers a choice: where there is none it is only a notice, and the button
press that follows does what it always does. The crib is counted only when its four cards
are known: a crib card read only uncertainly is asked about when the crib is next, and once
the players move on (clear the mat, press Confirm, lay another card) an incomplete crib asks
for its missing card; a card then laid on the crib spot joins it only if the players say so.

Buttons by phase: cutting - a player's Go picks them as dealer, Confirm picks player 0;
play - Go says go for the player to play (or the player whose Go it is), Undo takes back the
last action; muggins claims - Go adds a point, Undo takes one off, Confirm pegs the claim,
then an opponent's Go calls muggins and Confirm lets it go; after the crib - clear the mat
and Confirm starts the next deal.

Learn mode (``learn``, turned on by the config or a hold of Confirm) adds words to the board:
what comes next, the rule behind every score and a caution before a costly card. Before the
starter is cut, a learner may lay their whole hand face up in their zone (open-hand practice):
the coach ranks the discards, and the cards then laid face up on the crib spot are the discard
chosen; the comparison is kept in the record as a ``practice`` line that replay skips.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from crib_pi.actions import (
    Action,
    ChooseDealer,
    Claim,
    Crib,
    Cut,
    CutForDeal,
    GameOptions,
    Go,
    Muggins,
    Play,
    Show,
    Undo,
)
from crib_pi.cards import SUITS, Card, cards_text
from crib_pi.errors import CribError
from crib_pi.game import HAND, Game, Record
from crib_pi.i18n import _
from crib_pi.learn.guided import Guide
from crib_pi.learn.mode import LearnMode, verdict_line
from crib_pi.players import player_name
from crib_pi.records import Note, format_line, parse_line, replay_lines
from crib_pi.session.tracker import CardLaid, CardUnsure, MatCleared, Tracker, TrackEvent
from crib_pi.snapshot import BoardSnapshot
from crib_pi.store import GameLog

EVERY_CARD = tuple(Card(rank, suit) for rank in range(1, 14) for suit in SUITS)
"""By rank then suit: the order "another card" steps through."""


@dataclass(frozen=True, slots=True)
class Press:
    """A button gesture: ``go``, ``confirm`` or ``undo``; ``player`` for per-player buttons."""

    button: str
    player: int | None = None
    gesture: str = "press"


@dataclass(frozen=True, slots=True)
class TypedCard:
    """A card entered by hand (keys or screen) when the camera cannot read it."""

    card: Card


@dataclass
class Question:
    """Something seen that cannot be scored as it is; ``actions`` are the choices."""

    text: str
    actions: list[Action]
    zone: str
    seen: Card | None = None
    index: int = 0
    #: Whether a later sure read of one of the choices answers it (an unclear read does; a
    #: place read as two cards does not: the sure read may be the misread one).
    read_answers: bool = True
    #: The players' configured names, for the choices' words.
    names: tuple[str, ...] = ()
    #: Every other card that could lie there, by rank then suit: Go past the last choice
    #: steps through their ranks (``stage`` "rank"), Confirm a rank steps through its suits
    #: ("suit"), so that any card is a few presses away with three buttons.
    more: list[Action] = field(default_factory=list)
    stage: str = "pick"
    #: About a card found and not read: a card read later in its zone is another card (the
    #: next one laid there), held until this is settled.
    unread: bool = False

    #: The choices the reads gave (``actions`` at first): a card read later answers only these.
    picks: list[Action] = field(default_factory=list)
    #: Where on the mat the card asked about was seen (mat pixels), for a question the reads
    #: raised: the card answered is known to lie there, and a later read of another card
    #: there is a misread, asked about, not laid (``Tracker.answered``).
    centre: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if not self.picks and self.stage == "pick":
            self.picks = list(self.actions)

    def offers(self, card: Card) -> bool:
        """Whether ``card`` is among the reads' choices (a play, a starter or a crib card)."""
        return any(card_of(a) == card for a in self.picks)

    def could_be(self, card: Card) -> bool:
        """Whether ``card`` is any of the choices, the reads' or "another card"."""
        return self.offers(card) or any(card_of(a) == card for a in self.more)

    def step(self) -> None:
        """Go: the next choice; past the last of the reads' choices, the first rank."""
        if self.stage == "pick" and self.index == len(self.actions) - 1 and self.more:
            self.stage, self.actions, self.index = "rank", _by_rank(self.more), 0
        elif self.stage == "pick" and len(self.actions) <= 1:
            return  # one choice only: Confirm takes it, Undo turns it down
        else:
            self.index = (self.index + 1) % len(self.actions)

    def choose_rank(self) -> None:
        """Confirm on a rank: its suits are the choices now."""
        rank = card_of(self.actions[self.index]).rank
        self.stage = "suit"
        self.actions = [a for a in self.more if card_of(a).rank == rank]
        self.index = 0

    def back_to_ranks(self) -> None:
        rank = card_of(self.actions[self.index]).rank
        self.stage, self.actions = "rank", _by_rank(self.more)
        self.index = next(i for i, a in enumerate(self.actions) if card_of(a).rank == rank)

    def choice_text(self) -> str:
        if not self.actions:
            return _("{text} (Undo: take it back)").format(text=self.text)
        action = self.actions[self.index]
        if self.stage == "rank":
            return _("{text} Confirm: a {rank}, Go: next rank, Undo: no card").format(
                text=self.text, rank=card_of(action).rank_name
            )
        what = _describe(action, self.names)
        if self.stage == "suit":
            return _("{text} Confirm: {what}, Go: next suit, Undo: back to ranks").format(
                text=self.text, what=what
            )
        more = _(", Go: next choice") if len(self.actions) > 1 or self.more else ""
        return _("{text} Confirm: {what}{more}, Undo: neither").format(
            text=self.text, what=what, more=more
        )


def card_of(action: Action) -> Card:
    if isinstance(action, Crib):
        return action.cards[0]
    assert isinstance(action, Play | Cut)
    return action.card


def _by_rank(actions: list[Action]) -> list[Action]:
    """The first action of each rank, in rank order: the choices of the "rank" stage."""
    firsts: dict[int, Action] = {}
    for a in actions:
        firsts.setdefault(card_of(a).rank, a)
    return [firsts[r] for r in sorted(firsts)]


def _describe(action: Action, names: tuple[str, ...] = ()) -> str:
    if isinstance(action, Play):
        return _("{player} plays {card}").format(
            player=player_name(action.player, names), card=action.card
        )
    if isinstance(action, Cut):
        return _("the starter is {card}").format(card=action.card)
    if isinstance(action, Crib) and len(action.cards) == 1:
        return _("{cards} is in the crib").format(cards=action.cards[0])
    return type(action).__name__.lower()


def zone_words(zone: str, names: tuple[str, ...] = ()) -> str:
    """A zone of the mat (``starter``, ``crib``, ``player 1``: 0-based, as the mat keys it)
    as the table names it (``crib_pi.players``)."""
    if zone == "starter":
        return _("the starter")
    if zone == "crib":
        return _("the crib")
    if zone.startswith("player "):
        return player_name(int(zone.split()[1]), names)
    return zone


def _place_text(zone: str, names: tuple[str, ...] = ()) -> str:
    if zone == "starter":
        return _("the starter")
    if zone == "crib":
        return _("in the crib")
    return _("{zone}'s card this deal").format(zone=zone_words(zone, names))


@dataclass
class TableSession:
    options: GameOptions
    log: GameLog
    tracker: Tracker = field(default_factory=Tracker)
    game: Game = field(init=False)
    question: Question | None = None
    message: str = ""
    claim: int = 0
    muggins_open: bool = False
    waiting_for_next_deal: bool = False
    cut_cards: dict[int, Card] = field(default_factory=dict)
    crib_cards: list[Card] = field(default_factory=list)
    #: Candidates of a crib card read only uncertainly, kept until the crib is counted.
    crib_unclear: tuple[Card, ...] = ()
    #: The players moved on from an incomplete crib: every further crib card is asked about.
    crib_interrupted: bool = False
    #: Cards read and set aside with a notice (nothing to choose), counted for whoever watches.
    notices: int = 0
    #: Learn mode's words and open-hand practice; None while learn mode is off.
    learn: LearnMode | None = None
    #: Cards seen while a question was open, taken in order once it is settled.
    held: list[CardLaid | CardUnsure] = field(default_factory=list)
    #: Unclear cards laid before they could be played, each with the cards that player had
    #: played then: asked about once one could be, unless the player has played since.
    deferred: list[tuple[CardUnsure, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.log.memory:  # resuming: the log holds the game so far
            self.game = replay_lines(self.log.memory).game
        else:
            self.game = Game(self.options)
            self.log.start(self.options)

    # -- learn mode --------------------------------------------------------------------

    def set_learn(self, on: bool, guided: int = 0) -> None:
        """Learn mode on or off; ``guided`` (1-3) walks the players through a guided hand,
        which is for two players with player 0 dealing and muggins off."""
        if not on:
            self.learn = None
            return
        guide = Guide(guided, names=self.options.names) if guided else None
        o = self.options
        if guide is not None and (o.players, o.dealer, o.muggins) != (2, 0, False):
            raise CribError(
                _(
                    "guided hand {n} is for 2 players, the first player dealing, muggins off; "
                    "this table has {players} players, dealer {dealer}, muggins {muggins}"
                ).format(
                    n=guided,
                    players=o.players,
                    dealer=_("cut for deal")
                    if o.dealer is None
                    else player_name(o.dealer, o.names),
                    muggins=_("on") if o.muggins else _("off"),
                )
            )
        self.learn = LearnMode(self.options.players, guide, names=self.options.names)

    def toggle_learn(self) -> None:
        """A hold of Confirm: learn mode on (without a guided hand) or off."""
        self.set_learn(self.learn is None)
        self.message = _("learn mode on") if self.learn else _("learn mode off")

    def _practice(self, card: Card, zone: str) -> bool:
        """In learn mode before the starter: a card face up in a zone is open-hand practice.
        True when it was taken as practice."""
        learn = self.learn
        if learn is None or self.game.phase != "deal":
            return False
        if zone.startswith("player"):
            self.message = learn.lay(self.game, int(zone.split()[1]), card)
            return True
        if zone != "crib" or card not in learn.practice_cards():
            return False
        done = learn.discard(card)
        if done is None:
            self.message = _("practice: {card} laid away").format(card=card)
            return True
        self.log.append(Note("practice", done.note()))
        assert done.verdict is not None
        self.message = verdict_line(done.verdict)
        for c in done.cards:
            self.tracker.ignore(c)  # read afresh when laid in the play
        return True

    def _end_practice(self) -> None:
        if self.learn is not None:
            for c in self.learn.practice_cards():
                self.tracker.ignore(c)
            self.learn.new_deal()

    # -- surviving a restart -----------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The table's own state (not the game's: that is the log), for a restart."""
        q = self.question
        return {
            "actions": len(self.log.memory),
            "tracker": self.tracker.to_json(),
            "question": None
            if q is None
            else {
                "text": q.text,
                "actions": [format_line(a) for a in q.actions],
                "zone": q.zone,
                "seen": str(q.seen) if q.seen else None,
                "index": q.index,
                "read_answers": q.read_answers,
                "more": [format_line(a) for a in q.more],
                "picks": [format_line(a) for a in q.picks],
                "stage": q.stage,
                "unread": q.unread,
                "centre": None if q.centre is None else list(q.centre),
            },
            "message": self.message,
            "claim": self.claim,
            "muggins_open": self.muggins_open,
            "waiting_for_next_deal": self.waiting_for_next_deal,
            "cut_cards": {str(p): str(c) for p, c in self.cut_cards.items()},
            "crib_cards": [str(c) for c in self.crib_cards],
            "crib_unclear": [str(c) for c in self.crib_unclear],
            "crib_interrupted": self.crib_interrupted,
            "learn": None
            if self.learn is None
            else {"guided": self.learn.guide.number if self.learn.guide else 0},
            "held": [_event_json(e) for e in self.held],
            "deferred": [[_event_json(e), n] for e, n in self.deferred],
        }

    def restore(self, state: dict[str, Any]) -> bool:
        """Take back a saved state; False (and nothing changed) if it is not this log's."""
        if state.get("actions") != len(self.log.memory):
            return False
        q = state["question"]
        self.tracker = Tracker.from_json(state["tracker"])
        self.question = (
            None
            if q is None
            else Question(
                q["text"],
                [parse_line(line, 0) for line in q["actions"]],
                q["zone"],
                Card.parse(q["seen"]) if q["seen"] else None,
                int(q["index"]),
                bool(q.get("read_answers", True)),
                names=self.options.names,
                more=[parse_line(line, 0) for line in q.get("more", [])],
                picks=[parse_line(line, 0) for line in q.get("picks", q["actions"])],
                stage=str(q.get("stage", "pick")),
                unread=bool(q.get("unread", False)),
                centre=None if q.get("centre") is None else _point(q["centre"]),
            )
        )
        self.held = [_event_from_json(e) for e in state.get("held", [])]
        self.deferred = [
            (e, int(n))
            for data, n in state.get("deferred", [])
            if isinstance(e := _event_from_json(data), CardUnsure)
        ]
        self.message = state["message"]
        self.claim = int(state["claim"])
        self.muggins_open = bool(state["muggins_open"])
        self.waiting_for_next_deal = bool(state["waiting_for_next_deal"])
        self.cut_cards = {int(p): Card.parse(c) for p, c in state["cut_cards"].items()}
        self.crib_cards = [Card.parse(c) for c in state["crib_cards"]]
        self.crib_unclear = tuple(Card.parse(c) for c in state.get("crib_unclear", []))
        self.crib_interrupted = bool(state.get("crib_interrupted", False))
        learn = state.get("learn")
        if isinstance(learn, dict):
            self.set_learn(True, int(learn.get("guided", 0)))
        if self.question is not None and not self.question.actions:  # saved by older code
            self.message, self.question = self.question.text, None
        return True

    # -- inputs ------------------------------------------------------------------------

    def on_track(self, event: TrackEvent) -> None:
        q = self.question
        if isinstance(event, CardLaid):
            answers = q is not None and q.seen is None and not q.unread and q.zone == event.zone
            if q is not None and answers and q.offers(event.card):
                if not q.read_answers:  # a card read two ways, now read elsewhere: still asked
                    self.tracker.set_aside(event.card, event.zone)
                    return
                self.question = None  # the unclear card has now been read for sure
                self._laid(event.card, event.zone)
                self._release()
            elif q is not None:
                self.held.append(event)  # nothing later is scored before the question is settled
            else:
                self._laid(event.card, event.zone)
        elif isinstance(event, CardUnsure):
            if q is not None:
                self.held.append(event)
            else:
                self._unsure(event)
        elif isinstance(event, MatCleared) and self.waiting_for_next_deal:
            self.message = _("the mat is clear: Confirm starts the next deal")
        elif isinstance(event, MatCleared) and self.crib_cards:
            self._crib_interrupted()  # part of the crib was read, and now the mat is clear

    def on_typed(self, typed: TypedCard) -> None:
        """A card entered by hand goes where the game expects the next card."""
        g = self.game
        zone = "starter"
        if g.phase == "cut_for_deal":
            missing = [p for p in range(self.options.players) if p not in self.cut_cards]
            zone = f"player {missing[0]}" if missing else "starter"
        elif g.phase == "play":
            zone = f"player {g.turn}"
        elif g.phase == "show" and g.crib_next:
            zone = "crib"
        q = self.question
        if q is not None and q.could_be(typed.card):
            self.question = None  # the card asked about, typed in
            zone = q.zone
        self.tracker.laid[typed.card] = zone
        if zone == "crib" and typed.card not in self._placed():
            self._add_to_crib(typed.card)  # typed on purpose: no need to ask
        else:
            self._laid(typed.card, zone)
        self._release()

    def on_lines(self, lines: list[dict[str, Any]]) -> None:
        """A frame's lines from a buttons file: ``{"button": ..., "player": ...}`` presses and
        ``{"card": "5H"}`` cards typed in (``crib-pi session --buttons``)."""
        for line in lines:
            if "card" in line:
                self.on_typed(TypedCard(Card.parse(line["card"])))
            else:
                self.on_press(Press(line["button"], line.get("player")))

    def on_press(self, press: Press) -> None:
        if self.question is not None:
            self._answer(press)
            return
        g = self.game
        if press.button == "undo" and not (g.phase == "claim" and self.claim > 0):
            self._undo()
        elif g.phase == "cut_for_deal" and press.button in ("go", "confirm"):
            self._apply(ChooseDealer(press.player or 0))
        elif g.phase == "claim":
            self._claim_button(press)
        elif self.muggins_open and press.button == "go":
            self._muggins(press.player)
        elif self.muggins_open and press.button == "confirm":
            self.muggins_open = False
            self.message = _("no muggins")
            self._after()
        elif g.phase == "play" and press.button == "go":
            player = press.player if press.player is not None else g.turn
            assert player is not None
            self._apply(Go(player))
        elif press.button == "confirm" and (self.waiting_for_next_deal or g.phase == "over"):
            self.tracker.ignore_everything()
            self.waiting_for_next_deal = False
            self._forget_crib()
            if self.learn is not None:
                self.learn.new_deal()
                self.learn.next_deal()
            self.message = _("new deal: turn the starter on its spot")
        elif press.button == "confirm":
            self._crib_interrupted()  # the crib is not settled: no next deal yet

    # -- what the board shows ----------------------------------------------------------

    def snapshot(self) -> BoardSnapshot:
        snap = self.game.snapshot()
        prompt = snap.prompt
        if self.question is not None:
            prompt = self.question.choice_text()
        elif self.game.phase == "claim":
            prompt = _("{prompt}: {claim} (Go +1, Undo -1, Confirm to peg)").format(
                prompt=prompt, claim=self.claim
            )
        elif self.muggins_open:
            prompt = _("muggins? an opponent's Go takes the missed points, Confirm lets it go")
        elif self.waiting_for_next_deal:
            prompt = _("clear the mat, then Confirm starts the next deal")
        elif self.game.crib_next and self.crib_cards:
            have = cards_text(tuple(self.crib_cards))
            prompt = _("the crib so far: {have}; lay or type its missing card").format(have=have)
        flags = snap.flags + ((self.log.problem,) if self.log.problem else ())
        text = self.message or snap.last_text
        learn = self.learn.lines(self.game) if self.learn is not None else ()
        return dataclasses.replace(snap, prompt=prompt, flags=flags, last_text=text, learn=learn)

    # -- the rules of the table --------------------------------------------------------

    def _apply(self, action: Action) -> Record | None:
        before = self.game.phase
        try:
            record = self.game.apply(action)
        except CribError as exc:
            self.message = str(exc)
            return None
        self.log.append(action, finished=self.game.winner is not None)
        self.message = record.text
        if self.learn is not None:
            self.learn.scored([record])
        if isinstance(action, Cut):
            self._end_practice()
        self.muggins_open = record.missed is not None
        if before in ("show", "claim") and self.game.phase == "deal":
            self.waiting_for_next_deal = True  # the crib is counted: clear the mat
        self._after()
        return record

    def _after(self) -> None:
        """Do what follows by itself: count the hands shown by the cards on the mat."""
        g = self.game
        while g.phase == "show" and not self.muggins_open and not g.crib_next:
            player = g.turn
            assert player is not None
            show = Show(player, g.played(player))
            record = g.apply(show)
            self.log.append(show, finished=g.winner is not None)
            self.message = record.text
            if self.learn is not None:
                self.learn.scored([record], more=True)
        if g.phase == "claim":
            self.claim = 0
        if g.crib_next and not self.muggins_open:
            if len(self.crib_cards) >= 4:  # turned up while the hands were being counted
                self._apply_crib()
            elif self.crib_unclear and self.question is None:
                self._ask_unclear_crib()
        self._ask_deferred()

    def _ask_deferred(self) -> None:
        """Ask about an unclear card laid before it could be played, now that it can be; one
        whose player has played a card since was that card."""
        waiting, self.deferred = self.deferred, []
        for event, played in waiting:
            player = int(event.zone.split()[1])
            if len(self.game.played(player)) > played or not self._early(event):
                continue
            if self.question is not None or not self._choices(event.candidates, event.zone):
                self.deferred.append((event, played))
            else:
                self._unsure(event)

    def _early(self, event: CardUnsure) -> bool:
        """Whether an unclear card may be a play laid before it could be played (while the
        previous player's card is not on the board yet, or before the Go that lets it come):
        read in a player's place who has cards left, as cards none of which is on the board.
        A card found and not read at all is more often one already played, lifted and put
        back, and an unclear read of one may name it."""
        g, zone = self.game, event.zone
        if g.phase != "play" or not zone.startswith("player") or event.unread:
            return False
        placed = self._placed()
        return (
            len(g.played(int(zone.split()[1]))) < HAND
            and bool(event.candidates)
            and all(c not in placed for c in event.candidates)
        )

    def _laid(self, card: Card, zone: str) -> None:
        if self.waiting_for_next_deal:
            self.tracker.ignore(card)
            self.message = _("{card} ignored: Confirm starts the next deal").format(card=card)
            return
        g = self.game
        where = self._placed().get(card)
        if where == zone:
            return  # the card seen again where it lies (the starter on its spot, a played card)
        if where is not None:
            self._doubt(
                card,
                zone,
                _("{card} read in {zone}, but it is {place}.").format(
                    card=card,
                    zone=zone_words(zone, self.options.names),
                    place=_place_text(where, self.options.names),
                ),
            )
            return
        player = int(zone.split()[1]) if zone.startswith("player") else None
        if zone != "starter" and self._practice(card, zone):
            return
        if g.phase == "cut_for_deal":
            if player is not None and player not in self.cut_cards:
                self.cut_cards[player] = card
                if len(self.cut_cards) == self.options.players:
                    cards = tuple(self.cut_cards[p] for p in range(self.options.players))
                    self._apply(CutForDeal(cards))
                    for c in cards:
                        self.tracker.ignore(c)
                    self.cut_cards = {}
            return
        if g.phase in ("deal", "over") and zone == "starter":
            self._apply(Cut(card))
        elif g.phase == "play" and player is not None:
            self._play(player, card)
        elif zone == "crib" and self.crib_interrupted:
            have = cards_text(tuple(self.crib_cards)) or _("nothing")
            text = _("is {card} the crib's missing card? (the crib so far: {have})").format(
                card=card, have=have
            )
            self._ask(text, [Crib((card,))], zone, card)
        elif zone == "crib" and g.phase in ("show", "claim"):
            self._add_to_crib(card)  # counted once the hands are (turned up early if need be)
        elif zone == "crib":
            return  # the crib laid face down
        else:
            self.tracker.ignore(card)
            self.message = _("{card} in {zone} not scored now: {prompt}").format(
                card=card, zone=zone_words(zone, self.options.names), prompt=g.snapshot().prompt
            )
            self._crib_interrupted()

    def _placed(self) -> dict[Card, str]:
        """This deal's cards the table knows, and the zone each lies in."""
        g = self.game
        placed: dict[Card, str] = {c: f"player {p}" for p, c in self.cut_cards.items()}
        if g.phase in ("cut_for_deal", "deal", "over"):
            return placed
        if g.starter is not None:
            placed[g.starter] = "starter"
        for p in range(self.options.players):
            placed.update((c, f"player {p}") for c in g.played(p))
        placed.update((c, "crib") for c in self.crib_cards)
        return placed

    def _doubt(self, card: Card, zone: str, reason: str) -> None:
        """A card read where it cannot be: most likely another suit of its rank, misread."""
        others = [Card(card.rank, suit) for suit in "CDHS" if suit != card.suit]
        self._ask(reason, self._choices(tuple(others), zone), zone, card)

    def _choices(self, cards: tuple[Card, ...], zone: str) -> list[Action]:
        """The cards that could lie in ``zone`` now, as the actions that would take them."""
        g = self.game
        placed = self._placed()
        fresh = [c for c in cards if c not in placed]
        if g.phase == "play" and zone.startswith("player"):
            plays = [Play(int(zone.split()[1]), c) for c in fresh]
            return [a for a in plays if g.can(a)]
        if g.phase in ("deal", "over") and zone == "starter":
            return [a for a in (Cut(c) for c in fresh) if g.can(a)]
        if zone == "crib" and g.phase in ("show", "claim"):
            return [Crib((c,)) for c in fresh]
        return []

    def _ask(
        self,
        text: str,
        actions: list[Action],
        zone: str,
        seen: Card | None,
        more: list[Action] | None = None,
    ) -> None:
        """A question when there is a choice to make; otherwise only a notice, and the card
        (if one was read) is set aside, so the next button press does what it always does.
        ``more``: every other card that could be there, reached by rank then suit."""
        rest = [a for a in more or [] if a not in actions]
        if actions or rest:
            q = Question(
                text, actions, zone, seen, names=self.options.names, more=rest, picks=list(actions)
            )
            if not actions:
                q.stage, q.actions = "rank", _by_rank(rest)
            self.question = q
            return
        self.message = _("{text} Not scored.").format(text=text)
        if seen is not None:
            self.notices += 1
            self._set_aside(seen, zone)

    def _set_aside(self, card: Card, zone: str) -> None:
        """Stop reading ``card`` in ``zone``; where it lies for sure this deal it stays."""
        if self._placed().get(card, zone) != zone:
            self.tracker.set_aside(card, zone)
        else:
            self.tracker.ignore(card)

    def _add_to_crib(self, card: Card) -> None:
        self.crib_cards.append(card)
        self.crib_unclear = ()
        if len(self.crib_cards) >= 4 and self.game.crib_next and not self.muggins_open:
            self._apply_crib()

    def _apply_crib(self) -> None:
        cards = tuple(self.crib_cards[:4])
        if self._apply(Crib(cards)) is None:
            for c in cards:
                self.tracker.ignore(c)
        self._forget_crib()

    def _forget_crib(self) -> None:
        self.crib_cards, self.crib_unclear, self.crib_interrupted = [], (), False

    def _crib_interrupted(self) -> None:
        """The players moved on (cleared the mat, pressed Confirm, laid another card) while
        the crib is incomplete: ask for its missing card; later crib cards are asked about."""
        if not self.game.crib_next or self.crib_interrupted:
            return
        self.crib_interrupted = True
        if self.crib_unclear:
            self._ask_unclear_crib()
            if self.question is not None:
                return
        have = cards_text(tuple(self.crib_cards))
        what = (
            _("the crib has only {have}").format(have=have)
            if have
            else _("the crib has not been read")
        )
        lay = _("{what}: lay its missing card on the crib spot or type it in; the next deal waits")
        self.message = lay.format(what=what)

    def _ask_unclear_crib(self) -> None:
        names = cards_text(self.crib_unclear)
        text = _("a crib card is unclear ({names}).").format(names=names)
        self._ask(text, self._choices(self.crib_unclear, "crib"), "crib", None)
        self.crib_unclear = ()

    def _play(self, player: int, card: Card) -> None:
        g = self.game
        if g.can(Play(player, card)):
            self._apply(Play(player, card))
            return
        try:
            g.check(Play(player, card))
        except CribError as exc:
            reason = str(exc)
        turn = g.turn
        if turn is not None and turn != player and g.can(Play(turn, card)):
            text = _("{card} in {player}'s place: {reason}.").format(
                card=card, player=player_name(player, self.options.names), reason=reason
            )
            self._ask(text, [Play(turn, card)], f"player {player}", card)
        else:
            text = _("{card} in {player}'s place: {reason}.").format(
                card=card, player=player_name(player, self.options.names), reason=reason
            )
            self._ask(text, [], f"player {player}", card)

    def _unsure(self, event: CardUnsure) -> None:
        g = self.game
        zone = event.zone
        if event.unread and not self._face_up_expected(zone):
            return  # a card face down: the crib laid away, the pack, last deal's cards
        if event.unread:
            text = _("a card laid in {zone} was not read: which is it?").format(
                zone=zone_words(zone, self.options.names)
            )
            guesses = self._choices(event.candidates, zone)  # an unsure read at its corner
            self._ask(text, guesses, zone, None, self._choices(EVERY_CARD, zone))
            if self.question is not None:
                self.question.unread, self.question.centre = True, event.centre
            return
        names = cards_text(event.candidates) or _("no guess")
        how = _("read two ways") if event.flipped else _("unclear")
        text = _("a card in {zone} is {how} ({names}).").format(
            zone=zone_words(zone, self.options.names), how=how, names=names
        )
        if zone == "crib" and not g.crib_next and g.phase in ("play", "show", "claim"):
            self.crib_unclear = event.candidates  # asked when the crib is counted
            self.message = _("{text} Asked when the crib is counted.").format(text=text)
            return
        choices = self._choices(event.candidates, zone)
        if not choices and self._early(event):  # none legal yet: asked once one is
            self.deferred.append((event, len(g.played(int(zone.split()[1])))))
            self.message = _("{text} Asked when it can be played.").format(text=text)
            return
        more = self._choices(EVERY_CARD, zone) if choices else []
        self._ask(text, choices, zone, None, more)  # none legal: a notice, as before
        if self.question is not None:
            self.question.centre = event.centre
            if event.flipped:
                self.question.read_answers = False

    def _face_up_expected(self, zone: str) -> bool:
        """Whether a card laid in ``zone`` now is laid face up, to be scored."""
        g = self.game
        if self.waiting_for_next_deal:
            return False
        if zone == "crib":
            return g.crib_next and g.phase in ("show", "claim")
        if zone == "starter":
            return g.phase in ("deal", "over")
        return g.phase == "play"

    def _release(self) -> None:
        """Take the cards held while a question was open, in order, until one asks again."""
        while self.held and self.question is None:
            event = self.held.pop(0)
            self.on_track(event)

    def _answer(self, press: Press) -> None:
        q = self.question
        assert q is not None
        if press.button == "go":
            q.step()
            return
        if q.stage == "rank" and press.button == "confirm":
            q.choose_rank()
            return
        if q.stage == "suit" and press.button == "undo":
            q.back_to_ranks()
            return
        self._settle(q, press)
        self._release()

    def _settle(self, q: Question, press: Press) -> None:
        self.question = None
        if press.button == "undo":
            if q.seen is not None:
                self._set_aside(q.seen, q.zone)
            self.message = _("taken back: lay the card again or type it in")
            return
        if press.button == "confirm" and q.actions:
            action = q.actions[q.index]
            if isinstance(action, Crib):
                self.tracker.answered(action.cards[0], "crib", None)  # a pile: no place
                self._add_to_crib(action.cards[0])
            elif isinstance(action, Play | Cut):
                self.tracker.answered(action.card, q.zone, q.centre)  # seen there from now on
                self._apply(action)
        elif q.seen is not None:
            self._set_aside(q.seen, q.zone)

    def _undo(self) -> None:
        g = self.game
        if not g.records:
            self.message = _("nothing to undo")
            return
        last = g.records[-1].action
        while isinstance(last, Show) and len(g.records) > 1:
            g.undo()
            self.log.append(Undo(1))
            last = g.records[-1].action
        g.undo()
        self.log.append(Undo(1))
        if isinstance(last, Play | Cut):
            self.tracker.ignore(last.card)
        if isinstance(last, Crib):
            for c in last.cards:
                self.tracker.ignore(c)
        self.waiting_for_next_deal = False
        self.muggins_open = False
        self.message = _("undone: {what}").format(what=_describe(last, self.options.names))

    def _claim_button(self, press: Press) -> None:
        if press.button == "go":
            self.claim = min(29, self.claim + 1)
        elif press.button == "undo":
            self.claim = max(0, self.claim - 1)
        elif press.button == "confirm":
            owner = self.game.turn
            assert owner is not None
            self._apply(Claim(owner, self.claim))

    def _muggins(self, player: int | None) -> None:
        g = self.game
        missed = g.missed
        assert missed is not None
        o = self.options
        if player is None:
            owner_side = o.side_of(missed.owner)
            player = next(p for p in range(o.players) if o.side_of(p) != owner_side)
        self._apply(Muggins(player))


def _event_json(event: CardLaid | CardUnsure) -> dict[str, Any]:
    if isinstance(event, CardLaid):
        return {"laid": str(event.card), "zone": event.zone, "centre": list(event.centre)}
    return {
        "unsure": [str(c) for c in event.candidates],
        "zone": event.zone,
        "centre": list(event.centre),
        "flipped": event.flipped,
        "unread": event.unread,
    }


def _point(data: Any) -> tuple[float, float]:
    return float(data[0]), float(data[1])


def _event_from_json(data: dict[str, Any]) -> CardLaid | CardUnsure:
    centre = _point(data["centre"])
    if "laid" in data:
        return CardLaid(Card.parse(data["laid"]), str(data["zone"]), centre)
    return CardUnsure(
        tuple(Card.parse(c) for c in data["unsure"]),
        str(data["zone"]),
        centre,
        bool(data.get("flipped", False)),
        bool(data.get("unread", False)),
    )
