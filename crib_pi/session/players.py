"""The demo's players: they watch the board and put it right the way people at a table would.

The built-in demo and the session benchmark play a filmed game through real recognition. The
camera may read a card late, not at all, or (rarely) wrongly; at a real table the players then
answer the screen's question, take a wrong play back with Undo, or type the card in. These
scripted players do exactly that, from the game's script, using only the table's own inputs
(button presses and typed cards), and count every correction so the demo can say how much
help recognition needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crib_pi.actions import Action, Crib, Cut, CutForDeal, Play, Undo
from crib_pi.cards import Card
from crib_pi.i18n import _, ngettext
from crib_pi.session.table import Press, Question, TableSession, TypedCard, card_of


def same_action(a: Action, b: Action) -> bool:
    """The same move at the table: a crib is the same four cards in whatever order read."""
    if isinstance(a, Crib) and isinstance(b, Crib):
        return sorted(a.cards, key=lambda c: c.index) == sorted(b.cards, key=lambda c: c.index)
    return a == b


def same_game(records: list[Action], script: list[Action]) -> bool:
    """Every action the script's, in order (``same_action``)."""
    return len(records) == len(script) and all(map(same_action, records, script))


@dataclass
class ScriptedPlayers:
    """Players who know the script: ``actions`` (the game) and ``laid`` (frame each card came to
    rest, in order; a card put back after a lift is not listed). They wait ``patience`` frames
    for the camera before typing a card in, and hold a button press until the board has
    caught up with the cards on the mat."""

    actions: list[Action]
    laid: list[tuple[int, Card]]
    patience: int = 8
    #: Presses waiting for the board: (frame pressed, cards laid by then, the lines).
    held: list[tuple[int, int, list[dict[str, Any]]]] = field(default_factory=list)
    typed: list[Card] = field(default_factory=list)
    #: Each card typed at least once, by deal (a card typed again after an undo counts once).
    typed_cards: set[tuple[int, Card]] = field(default_factory=set)
    answered: int = 0
    presses: int = 0  # buttons pressed to answer questions
    taken_back: list[Action] = field(default_factory=list)
    #: The table's notices seen so far (a card read, not scored, nothing to choose).
    notices: int = 0

    @classmethod
    def from_film(cls, actions: list[Action], settled: list[dict[str, Any]]) -> ScriptedPlayers:
        """From a film's ``settled.jsonl`` lines."""
        laid = [(int(s["frame"]), Card.parse(s["card"])) for s in settled if not s["again"]]
        if any(isinstance(a, Undo) for a in actions):
            raise ValueError(_("scripted players cannot follow a script with an undo in it"))
        return cls(actions, laid)

    def after_frame(self, table: TableSession, frame: int, presses: list[dict[str, Any]]) -> None:
        """Look at the board after the camera's events of ``frame``; then press what the film
        pressed in that frame, each press held until the board shows the cards laid before
        it."""
        self._take_back_wrong(table)
        rejected = self._answer(table, frame) or self._new_notice(table)
        if presses:
            self.held.append((frame, self._cards_laid(frame), presses))
        due = self._cards_laid(frame - self.patience)
        if self.held and frame - self.held[0][0] >= self.patience:
            due = max(due, self.held[0][1])
        if rejected:  # a card the board was not ready for: the players catch the board up
            due = max(due, self._cards_laid(frame))
        for _attempt in range(4):  # the players type what the camera has not given the board
            if self._cards_on_board(table) >= due:
                break
            self._type_next(table)
        self._release_held(table)

    def finish(self, table: TableSession) -> None:
        """After the last frame: the players type what the camera never gave and press what
        is still held."""
        for _round in range(len(self.laid) + len(self.held) + 1):
            self._take_back_wrong(table)
            self._answer(table, self.laid[-1][0] if self.laid else 0)
            if self._cards_on_board(table) < len(self.laid):
                self._type_next(table)
            self._release_held(table)

    def report(self) -> str:
        """How much help the camera needed, in one line, in the table's language."""
        laid, typed, taken = len(self.laid), len(self.typed), len(self.taken_back)
        camera = ngettext(
            "the camera gave the board {read} of the {laid} card laid",
            "the camera gave the board {read} of the {laid} cards laid",
            laid,
        ).format(read=laid - len(self.typed_cards), laid=laid)
        typing = (
            ngettext(
                "the players typed {cards} ({count} entry: {typed})",
                "the players typed {cards} ({count} entries: {typed})",
                typed,
            ).format(
                cards=len(self.typed_cards),
                count=typed,
                typed=" ".join(str(c) for c in self.typed),
            )
            if self.typed
            else _("the players typed nothing")
        )
        answered = ngettext(
            "answered {count} question", "answered {count} questions", self.answered
        ).format(count=self.answered)
        took = ngettext(
            "took back {count} misread action", "took back {count} misread actions", taken
        ).format(count=taken)
        return _("{camera}; {typing}, {answered} and {took}").format(
            camera=camera, typing=typing, answered=answered, took=took
        )

    # -- what the players notice -----------------------------------------------------

    def _release_held(self, table: TableSession) -> None:
        """Press, in order, what was held until the board showed the cards laid before it."""
        while self.held and (
            self._cards_on_board(table) >= self.held[0][1] or table.waiting_for_next_deal
        ):
            table.on_lines(self.held.pop(0)[2])
            self._take_back_wrong(table)

    def _new_notice(self, table: TableSession) -> bool:
        """The board set a card read for sure aside with a notice (it came before the board
        was ready, or cannot be there): like a question turned down."""
        seen, self.notices = self.notices, table.notices
        return table.notices > seen

    def _expected(self, table: TableSession) -> Action | None:
        done = len(table.game.records)
        return self.actions[done] if done < len(self.actions) else None

    def _take_back_wrong(self, table: TableSession) -> None:
        """A play the script did not make (a card misread as another) is taken back with Undo."""
        records = table.game.records
        while records and not same_action(records[-1].action, self.actions[len(records) - 1]):
            self.taken_back.append(records[-1].action)
            if table.question is not None:
                table.on_press(Press("undo"))  # first turn down what the screen asks
            table.on_press(Press("undo"))
            if len(table.game.records) >= len(records):
                break  # Undo did nothing here (a claim being dialled): leave it
            records = table.game.records

    def _answer(self, table: TableSession, frame: int) -> bool:
        """A question on the screen at ``frame``: pick the script's action among the choices,
        or reject it; True when a card read for sure was rejected (it came before the board
        was ready)."""
        q = table.question
        if q is None:
            return False
        self.answered += 1
        want = self._expected(table)
        choices = [*q.actions, *q.more]
        target = self._target(table, frame, choices, want) if want is not None else None
        if target is not None:
            self._pick(table, q, target)
            return False
        self._press(table, "undo")
        return q.seen is not None

    def _target(
        self, table: TableSession, frame: int, choices: list[Action], want: Action
    ) -> Action | None:
        """The choice the players mean, or None when they turn the question down. Asked
        about a crib card, they name the one lying there unread: the first of this deal's
        crib laid by ``frame`` that the board lacks. With none (the card asked about is on
        the board already) they press Undo: any other crib card of the script would be a
        card still in a hand. So with a play or the starter: they name it once it is laid."""
        if isinstance(want, Crib):
            for card in self._crib_lying(table, want, frame):
                meant = next(
                    (a for a in choices if isinstance(a, Crib) and a.cards[0] == card), None
                )
                if meant is not None:
                    return meant
            return None
        if isinstance(want, Play | Cut) and not self._lying(table, want.card, frame):
            return None  # not laid yet: the question is about something else
        return next((a for a in choices if self._same(a, want)), None)

    def _not_on_board(self, table: TableSession) -> list[tuple[int, Card]]:
        """The cards laid (frame, card), in order, from the first the board lacks."""
        return self.laid[sum(map(_cards_in, self.actions[: len(table.game.records)])) :]

    def _lying(self, table: TableSession, card: Card, by: int) -> bool:
        """Whether ``card`` is among the cards laid by frame ``by`` that the board lacks."""
        return any(at <= by and c == card for at, c in self._not_on_board(table))

    def _crib_lying(self, table: TableSession, crib: Crib, by: int | None = None) -> list[Card]:
        """This deal's crib cards laid (by frame ``by``) that the board lacks, as laid."""
        return [
            c
            for at, c in self._not_on_board(table)
            if (by is None or at <= by) and c in crib.cards and c not in table.crib_cards
        ]

    def _pick(self, table: TableSession, q: Question, target: Action) -> None:
        """Go to ``target`` as a player would: through the reads' choices, then by its rank,
        then by its suit; Confirm it."""
        while q.stage == "pick" and q.actions[q.index] != target:
            self._press(table, "go")
        if q.stage == "rank":
            while card_of(q.actions[q.index]).rank != card_of(target).rank:
                self._press(table, "go")
            self._press(table, "confirm")
        while q.actions[q.index] != target:
            self._press(table, "go")
        self._press(table, "confirm")

    def _press(self, table: TableSession, button: str) -> None:
        self.presses += 1
        table.on_press(Press(button))

    @staticmethod
    def _same(choice: Action, want: Action) -> bool:
        if isinstance(choice, Crib) and isinstance(want, Crib):
            return choice.cards[0] in want.cards  # one crib card at a time
        return choice == want

    def _cards_laid(self, frame: int) -> int:
        return sum(1 for at, _ in self.laid if at <= frame)

    def _cards_on_board(self, table: TableSession) -> int:
        """Cards the board has taken so far, counted the way the film laid them."""
        count = len(table.cut_cards) + len(table.crib_cards)
        return count + sum(_cards_in(record.action) for record in table.game.records)

    def _type_next(self, table: TableSession) -> None:
        """Type in the next card the script lays that the board does not have yet."""
        want = self._expected(table)
        card: Card | None = None
        if isinstance(want, Play | Cut):
            card = want.card
        elif isinstance(want, Crib):  # the first laid that the board lacks, in the film's order
            lying = self._crib_lying(table, want)
            card = next((c for c in [*lying, *want.cards] if c not in table.crib_cards), None)
        elif isinstance(want, CutForDeal):
            missing = [p for p in range(len(want.cards)) if p not in table.cut_cards]
            card = want.cards[missing[0]] if missing else None
        if card is None:
            return
        self.typed.append(card)
        deal = sum(isinstance(r.action, Cut) for r in table.game.records)
        self.typed_cards.add((deal, card))
        table.on_typed(TypedCard(card))
        self._take_back_wrong(table)


def _cards_in(action: Action) -> int:
    """Cards an action lays on the mat."""
    if isinstance(action, CutForDeal | Crib):
        return len(action.cards)
    return 1 if isinstance(action, Play | Cut) else 0
