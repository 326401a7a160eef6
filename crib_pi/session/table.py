"""The table: cards laid on the mat and button presses become checked game actions.

One ``TableSession`` owns the game. It is fed ``CardLaid`` / ``CardUnsure`` / ``MatCleared``
from the tracker, ``Press`` from the buttons and ``TypedCard`` when a card is entered by hand,
all from one thread. Every action it applies goes to the game log. Anything it cannot apply
(a card out of turn, past 31, unreadable) is never scored: it becomes a ``Question`` that the
players answer with the buttons (Go: next choice, Confirm: accept, Undo: reject).

Buttons by phase: cutting - a player's Go picks them as dealer, Confirm picks player 0;
play - Go says go for the player to play (or the player whose Go it is), Undo takes back the
last action; muggins claims - Go adds a point, Undo takes one off, Confirm pegs the claim,
then an opponent's Go calls muggins and Confirm lets it go; after the crib - clear the mat
and Confirm starts the next deal.
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
from crib_pi.cards import Card, cards_text
from crib_pi.errors import CribError
from crib_pi.game import Game, Record
from crib_pi.records import format_line, parse_line, replay_lines
from crib_pi.session.tracker import CardLaid, CardUnsure, MatCleared, Tracker, TrackEvent
from crib_pi.snapshot import BoardSnapshot
from crib_pi.store import GameLog


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

    def offers(self, card: Card) -> bool:
        """Whether ``card`` is among the choices (a play, a starter or a crib card)."""
        for action in self.actions:
            if isinstance(action, Crib) and card in action.cards:
                return True
            if isinstance(action, Play | Cut) and action.card == card:
                return True
        return False

    def choice_text(self) -> str:
        if not self.actions:
            return f"{self.text} (Undo: take it back)"
        action = self.actions[self.index]
        what = _describe(action)
        more = ", Go: next choice" if len(self.actions) > 1 else ""
        return f"{self.text} Confirm: {what}{more}, Undo: neither"


def _describe(action: Action) -> str:
    if isinstance(action, Play):
        return f"player {action.player} plays {action.card}"
    if isinstance(action, Cut):
        return f"the starter is {action.card}"
    return type(action).__name__.lower()


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

    def __post_init__(self) -> None:
        if self.log.memory:  # resuming: the log holds the game so far
            self.game = replay_lines(self.log.memory).game
        else:
            self.game = Game(self.options)
            self.log.start(self.options)

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
            },
            "message": self.message,
            "claim": self.claim,
            "muggins_open": self.muggins_open,
            "waiting_for_next_deal": self.waiting_for_next_deal,
            "cut_cards": {str(p): str(c) for p, c in self.cut_cards.items()},
            "crib_cards": [str(c) for c in self.crib_cards],
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
            )
        )
        self.message = state["message"]
        self.claim = int(state["claim"])
        self.muggins_open = bool(state["muggins_open"])
        self.waiting_for_next_deal = bool(state["waiting_for_next_deal"])
        self.cut_cards = {int(p): Card.parse(c) for p, c in state["cut_cards"].items()}
        self.crib_cards = [Card.parse(c) for c in state["crib_cards"]]
        return True

    # -- inputs ------------------------------------------------------------------------

    def on_track(self, event: TrackEvent) -> None:
        if isinstance(event, CardLaid):
            q = self.question
            if q is not None and q.seen is None and q.zone == event.zone and q.offers(event.card):
                self.question = None  # the unclear card has now been read for sure
            self._laid(event.card, event.zone)
        elif isinstance(event, CardUnsure):
            self._unsure(event)
        elif isinstance(event, MatCleared) and self.waiting_for_next_deal:
            self.message = "the mat is clear: Confirm starts the next deal"

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
        self.tracker.laid[typed.card] = zone
        self._laid(typed.card, zone)

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
            self.message = "no muggins"
            self._after()
        elif g.phase == "play" and press.button == "go":
            player = press.player if press.player is not None else g.turn
            assert player is not None
            self._apply(Go(player))
        elif press.button == "confirm" and (self.waiting_for_next_deal or g.phase == "over"):
            self.tracker.ignore_everything()
            self.waiting_for_next_deal = False
            self.crib_cards = []
            self.message = "new deal: turn the starter on its spot"

    # -- what the board shows ----------------------------------------------------------

    def snapshot(self) -> BoardSnapshot:
        snap = self.game.snapshot()
        prompt = snap.prompt
        if self.question is not None:
            prompt = self.question.choice_text()
        elif self.game.phase == "claim":
            prompt = f"{prompt}: {self.claim} (Go +1, Undo -1, Confirm to peg)"
        elif self.muggins_open:
            prompt = "muggins? an opponent's Go takes the missed points, Confirm lets it go"
        elif self.waiting_for_next_deal:
            prompt = "clear the mat, then Confirm starts the next deal"
        flags = snap.flags + ((self.log.problem,) if self.log.problem else ())
        text = self.message or snap.last_text
        return dataclasses.replace(snap, prompt=prompt, flags=flags, last_text=text)

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
        if g.phase == "claim":
            self.claim = 0

    def _laid(self, card: Card, zone: str) -> None:
        if self.waiting_for_next_deal:
            self.tracker.ignore(card)
            self.message = f"{card} ignored: Confirm starts the next deal"
            return
        g = self.game
        player = int(zone.split()[1]) if zone.startswith("player") else None
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
        elif g.phase == "show" and g.crib_next and zone == "crib":
            self.crib_cards.append(card)
            if len(self.crib_cards) == 4:
                if self._apply(Crib(tuple(self.crib_cards))) is None:
                    for c in self.crib_cards:
                        self.tracker.ignore(c)
                self.crib_cards = []
        elif zone == "crib" or (zone == "starter" and card == g.starter):
            return  # the crib laid face down, or the starter still on its spot
        else:
            self.tracker.ignore(card)
            self.message = f"{card} in {zone} not scored now: {g.snapshot().prompt}"

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
            text = f"{card} in player {player}'s place: {reason}."
            self.question = Question(text, [Play(turn, card)], f"player {player}", card)
        else:
            self.question = Question(f"{card} not scored: {reason}.", [], f"player {player}", card)

    def _unsure(self, event: CardUnsure) -> None:
        g = self.game
        zone = event.zone
        actions: list[Action] = []
        if g.phase == "play" and zone.startswith("player"):
            actions = [Play(int(zone.split()[1]), c) for c in event.candidates]
            actions = [a for a in actions if g.can(a)]
        elif g.phase == "deal" and zone == "starter":
            actions = [a for a in (Cut(c) for c in event.candidates) if g.can(a)]
        elif g.crib_next and zone == "crib":
            actions = [Crib((c,)) for c in event.candidates]
        names = cards_text(event.candidates) or "no guess"
        self.question = Question(f"a card in {zone} is unclear ({names}).", actions, zone)

    def _answer(self, press: Press) -> None:
        q = self.question
        assert q is not None
        if press.button == "go" and q.actions:
            q.index = (q.index + 1) % len(q.actions)
            return
        self.question = None
        if press.button == "undo":
            if q.seen is not None:
                self.tracker.ignore(q.seen)
            self.message = "taken back: lay the card again"
            return
        if press.button == "confirm" and q.actions:
            action = q.actions[q.index]
            if isinstance(action, Crib):
                self._laid(action.cards[0], "crib")
            elif isinstance(action, Play | Cut):
                self.tracker.laid[action.card] = q.zone  # seen there from now on
                self._apply(action)
        elif q.seen is not None:
            self.tracker.ignore(q.seen)

    def _undo(self) -> None:
        g = self.game
        if not g.records:
            self.message = "nothing to undo"
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
        self.message = f"undone: {_describe(last)}"

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
