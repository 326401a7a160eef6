"""The guided ``learn-deck`` at the table: four rows of thirteen, one Confirm each.

The screen asks for one suit's thirteen cards laid across the mat, ace to king; Confirm reads
the last few frames (``lesson_row.read_row``). A row with a missing, wrong or swapped card, or
a row learnt already laid again, is refused with the cards named, to be laid again. A row
whose only fault is cards the camera cannot find, or a few it reads as another suit of the
row's colour (a player sees whether they are right), may be kept with Go without those cards
(they keep the network's word). Undo goes back a suit. After the fourth row the profile is built
from the cards' index embeddings, named by their places in the rows, and saved where the
table looks for it.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from pathlib import Path

import numpy as np
import numpy.typing as npt

from crib_pi.actions import GameOptions
from crib_pi.cards import Card
from crib_pi.game import Game
from crib_pi.i18n import NC_, _, pgettext
from crib_pi.mat import Mat
from crib_pi.session.lesson_row import RowReading, read_row
from crib_pi.session.locate import MatLocator
from crib_pi.snapshot import BoardSnapshot
from crib_pi.vision.classifier import Classifier
from crib_pi.vision.profile import DeckProfile, Look, build_profile

#: The order the rows are asked for, and each suit's name on the screen.
ROW_SUITS = ("S", "H", "C", "D")
SUIT_NAMES = {
    "S": NC_("a row of one suit", "spades"),
    "H": NC_("a row of one suit", "hearts"),
    "C": NC_("a row of one suit", "clubs"),
    "D": NC_("a row of one suit", "diamonds"),
}
#: A row whose cards look this much like a learnt row's, rank for rank (median cosine), is
#: that row laid again.
REPEAT_SIM = 0.93
#: Frames kept for Confirm: the best reading of the last few is used (a hand may pass).
KEEP = 3


def learnt_deck_path() -> Path:
    """Where the guided lesson saves the profile, beside the game database; the table uses it
    when the configuration names no other (``session.deck``)."""
    from crib_pi.store import default_db

    return default_db().parent / "deck.npz"


def cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards)


class DeckLesson:
    """The lesson's state: which suit is asked for, what was learnt, what the screen says."""

    def __init__(self, classifier: Classifier, players: int = 2, name: str = "deck") -> None:
        self.classifier = classifier
        self.mat = Mat(players)
        self.locator = MatLocator(self.mat)
        self.name = name
        self.row = 0
        self.learnt: list[dict[Card, list[Look]]] = []
        self.kept: deque[tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]] = deque(maxlen=KEEP)
        self.last: RowReading | None = None
        self.message = ""
        self.refusals = 0

    # -- what the player does ----------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.row >= len(ROW_SUITS)

    @property
    def expected(self) -> tuple[Card, ...]:
        suit = ROW_SUITS[min(self.row, len(ROW_SUITS) - 1)]
        return tuple(Card(r, suit) for r in range(1, 14))

    def on_frame(self, bgr: npt.NDArray[np.uint8]) -> None:
        """A camera frame (BGR): kept for the next Confirm when the mat is in view."""
        homography = self.locator.update(bgr)
        if homography is not None and self.locator.markers_seen:
            self.kept.append((bgr, homography))

    def confirm(self) -> bool:
        """Read the row now on the mat; True when it is accepted."""
        if self.done:
            return False
        if not self.kept:
            self.message = _("the mat is not in view: check the camera, then press Confirm")
            return False
        readings = [read_row(bgr, h, self.expected, self.classifier) for bgr, h in self.kept]
        best = max(readings, key=lambda r: (r.ok, -len(r.missing), r.places))
        self.last = best
        again = self._repeated(best) if best.ok else None
        if again is not None:
            self.refusals += 1
            self.message = _(
                "these look like the {again} learnt already: lay the {suit}, then press Confirm"
            ).format(again=suit_name(again), suit=suit_name(ROW_SUITS[self.row]))
            return False
        if best.ok:  # every sound frame's looks at each card go into the profile
            for other in readings:
                if other is not best and not (other.wrong or other.swapped):
                    for card, looks in other.looks.items():
                        best.looks.setdefault(card, []).extend(looks)
            return self._accept(best)
        self.refusals += 1
        self.message = refusal(best)
        return False

    def keep_as_is(self) -> bool:
        """Go after a refusal for missing cards, or for a few read as another suit of the row's
        colour (``RowReading.keepable``): keep the row without them (even none: a suit the
        camera cannot find at all is left to the network). What is left out is not learnt."""
        last = self.last
        if self.done or last is None or last.ok or not last.keepable:
            return False
        if last.expected != self.expected:
            return False
        for expected, _read in last.wrong:
            last.looks.pop(expected, None)
        return self._accept(last)

    def _repeated(self, reading: RowReading) -> str | None:
        """The suit of a row learnt already that this one looks like card for card, if any.

        The same cards laid again look alike to the network (cosine about 0.95 and more),
        where two suits of one deck, rank for rank, were at most 0.86 on decks it never saw:
        a row of the same colour laid twice is refused even when the network cannot tell
        the suits apart.
        """
        for suit, row in zip(ROW_SUITS, self.learnt, strict=False):
            sims = [
                float(_unit(_mean_feat(looks)) @ _unit(_mean_feat(row[other])))
                for card, looks in reading.looks.items()
                if (other := Card(card.rank, suit)) in row
            ]
            if len(sims) >= 3 and float(np.median(sims)) >= REPEAT_SIM:
                return suit
        return None

    def undo(self) -> None:
        """Back one suit (its row is forgotten)."""
        if self.row > 0:
            self.row -= 1
            self.learnt = self.learnt[: self.row]
            self.message = _("back to the {suit}").format(suit=suit_name(ROW_SUITS[self.row]))
        self.last = None

    def _accept(self, reading: RowReading) -> bool:
        self.learnt.append(reading.looks)
        found = len(reading.looks)
        self.message = _("{suit} learnt: {found} of 13 cards").format(
            suit=suit_name(ROW_SUITS[self.row]), found=found
        )
        self.row += 1
        self.last = None
        self.kept.clear()  # the next row is read from frames taken after this Confirm
        return True

    # -- results -----------------------------------------------------------------------

    def profile(self) -> DeckProfile:
        """The profile of every card learnt (only once all four rows are in)."""
        if not self.done:
            raise ValueError("the lesson is not finished")
        looks: list[Look] = []
        labels: list[int] = []
        for row in self.learnt:
            for card, seen in row.items():
                looks += seen
                labels += [card.index] * len(seen)
        return build_profile(self.name, looks, labels)

    def prompt(self) -> str:
        if self.done:
            return _("the deck is learnt")
        return _(
            "row {n} of 4: lay the thirteen {suit} in a row across the mat, ace to king, "
            "left to right, each index showing; then press Confirm"
        ).format(n=self.row + 1, suit=suit_name(ROW_SUITS[self.row]))

    def snapshot(self) -> BoardSnapshot:
        """What the screen shows: an empty board with the lesson's prompt and its last word."""
        snap = Game(GameOptions(players=self.mat.players)).snapshot()
        return dataclasses.replace(snap, prompt=self.prompt(), last_text=self.message)


def _mean_feat(looks: list[Look]) -> npt.NDArray[np.float32]:
    return np.asarray(np.mean([look.feat for look in looks], axis=0), np.float32)


def _unit(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    return np.asarray(v / max(float(np.linalg.norm(v)), 1e-9), np.float32)


def unlearnt_note(profile: DeckProfile) -> str | None:
    """What to tell the player about the cards a finished lesson could not learn, if any: the
    profile cannot help the camera with them."""
    missing = [Card.from_index(i) for i, seen in enumerate(profile.counts) if seen == 0]
    if not missing:
        return None
    return _(
        "{count} of 52 cards not learnt ({cards}): the camera may ask about them more "
        "often; run learn-deck again to learn them"
    ).format(count=len(missing), cards=cards_text(tuple(missing)))


def suit_name(suit: str) -> str:
    return pgettext("a row of one suit", SUIT_NAMES[suit])


def refusal(reading: RowReading) -> str:
    """One line naming what is wrong with the row, and what to do."""
    parts = []
    if reading.wrong:
        parts.append(
            _("wrong cards: {cards}").format(
                cards=", ".join(
                    _("{read} where {expected} goes").format(read=r, expected=e)
                    for e, r in reading.wrong
                )
            )
        )
    if reading.swapped:
        parts.append(
            _("out of order: {pairs}").format(
                pairs=", ".join(f"{a} <-> {b}" for a, b in reading.swapped)
            )
        )
    if reading.missing:
        parts.append(_("not found: {cards}").format(cards=cards_text(reading.missing)))
    advice = _("lay the row again and press Confirm")
    if reading.keepable:
        advice = _("lay the row again and press Confirm, or Go to keep it without them")
    return "; ".join(parts) + ". " + advice


def press(lesson: DeckLesson, button: str) -> None:
    """A button press during the lesson: Confirm reads the row, Go keeps a row with missing
    cards, Undo goes back a suit."""
    if button == "confirm":
        lesson.confirm()
    elif button == "go":
        lesson.keep_as_is()
    elif button == "undo":
        lesson.undo()


def teach_from_film(
    lesson: DeckLesson, frames: list[Path], presses: dict[int, list[str]], *, go_on_missing: bool
) -> None:
    """Play a filmed lesson through ``lesson``: each frame read, then that frame's presses.

    ``go_on_missing``: after a row refused for cards not found (or a few read as another suit
    of its colour), press Go as a player who cannot make the camera see them, or sees the
    cards are right, would (the benchmark; a test presses what its script says).
    """
    import cv2

    for number, path in enumerate(frames):
        image = cv2.imread(str(path))
        if image is not None:
            lesson.on_frame(np.asarray(image, np.uint8))
        for button in presses.get(number, []):
            press(lesson, button)
            last = lesson.last
            if go_on_missing and button == "confirm" and last is not None and not last.ok:
                lesson.keep_as_is()
