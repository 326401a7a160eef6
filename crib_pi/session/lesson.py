"""The guided ``learn-deck`` at the table: four rows of thirteen, one Confirm each.

The screen asks for one suit's thirteen cards laid across the mat, ace to king; Confirm reads
the last few frames (``lesson_row.read_row``). A row with a missing, wrong or swapped card, or
a row learnt already laid again, is refused with the cards named, to be laid again. A row
whose only fault is cards the camera cannot find, or a few it reads as another suit of the
row's colour (a player sees whether they are right), may be kept with Go without those cards
(they keep the network's word). Undo goes back a suit. After the fourth row the profile is built
from the cards' index embeddings, named by their places in the rows, and saved where the
table looks for it.

The card finder watches the lesson as it watches a game, so each card is seen whole as it lands,
before the next covers it; what its corner looked like then goes into the profile
(``learnt_corners``), so a deck whose indices no network reads is still read by what was
learnt. A found card is named by the index read at its corner, or, where the finder found the
whole row, evenly spaced, by its place in it. Every other card of the row (white on white, the
finder missed it; or its index in a font no network finds) is cut from the row's frame at its
place, the places fitted to the cards found and the indices read: the order names it. A card
left out with Go (read as another suit) is not learnt.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, deque
from itertools import pairwise
from pathlib import Path

import numpy as np
import numpy.typing as npt

from crib_pi.actions import GameOptions
from crib_pi.cards import Card
from crib_pi.game import Game
from crib_pi.i18n import NC_, _, pgettext
from crib_pi.mat import PX_PER_MM, Mat
from crib_pi.session.lesson_row import RowReading, read_row
from crib_pi.session.locate import MatLocator, mat_to_frame
from crib_pi.snapshot import BoardSnapshot
from crib_pi.vision.classifier import Classifier
from crib_pi.vision.corner import CARD_MM as CARD_SIZE_MM
from crib_pi.vision.finder import CardFinder, FoundCard
from crib_pi.vision.learnt_corners import CORNER_MM, aligned_corners, corner_shift, upright
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
#: A found row of thirteen is named by its order only where neighbouring cards lie this far
#: apart (mm, along the row) and their centres within ``ROW_LINE_MM`` of one another across it.
ROW_STEP_MM = (12.0, 32.0)
ROW_LINE_MM = 10.0
#: A card the finder missed is cut where its index says, at the index's place on the cards it
#: found (the median of at least this many): the row's cards lie square to the mat within a
#: few degrees, and a learnt corner is looked for a few millimetres round where it should be.
MIN_OFFSETS = 3
#: A row's places fit the cards found and the indices read within this much (mm): a card
#: laid by hand lies a millimetre or two off its step, and a learnt corner is looked for
#: ``learnt_corners.SEARCH_MM`` round where it should be.
PLACE_MM = 5.0
#: A card cut at a fitted place is moved to where a corner like the deck's learnt ones lies
#: within this much along the row (mm; under half the least step, so never onto the next
#: card's index), where one is at least ``REFIT_LIKE`` like them.
REFIT_MM = 6.0
REFIT_LIKE = 0.5


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
        self.finder = CardFinder(self.mat)
        self.landed: dict[int, npt.NDArray[np.uint8]] = {}  # found id: the card as it landed
        self.views: list[dict[Card, npt.NDArray[np.uint8]]] = []  # each learnt row's cards
        self.row_frame: tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]] | None = None
        # where this deck's index lies from its card's top-left (mat pixels), once seen: the
        # median over every row learnt (each row's index reads on the cards found there)
        self.index_offset: tuple[float, float] | None = None
        self.offsets: list[list[tuple[float, float]]] = []  # each learnt row's

    # -- what the player does ----------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.row >= len(ROW_SUITS)

    @property
    def expected(self) -> tuple[Card, ...]:
        suit = ROW_SUITS[min(self.row, len(ROW_SUITS) - 1)]
        return tuple(Card(r, suit) for r in range(1, 14))

    def on_frame(self, bgr: npt.NDArray[np.uint8]) -> None:
        """A camera frame (BGR): each card the finder sees land is kept as it lay; the frame
        is kept for the next Confirm when the mat is in view."""
        homography = self.locator.update(bgr)
        if homography is None:
            return
        for card in self.finder.update(bgr, homography):
            self.landed[card.id] = upright(bgr, mat_to_frame(card.quad, homography))[0]
        if self.locator.markers_seen:
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
        self.row_frame = self.kept[next(i for i, r in enumerate(readings) if r is best)]
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
            self.views = self.views[: self.row]
            self.offsets = self.offsets[: self.row]
            self.index_offset = _median_offset(self.offsets)
            self.message = _("back to the {suit}").format(suit=suit_name(ROW_SUITS[self.row]))
        self.last = None

    def _accept(self, reading: RowReading) -> bool:
        self.learnt.append(reading.looks)
        self.views.append(self._found_row(reading))
        found = len(set(reading.looks) | set(self.views[-1]))
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
        views = {card.index: view for row in self.views for card, view in row.items()}
        return build_profile(self.name, looks, labels, views)

    def _found_row(self, reading: RowReading) -> dict[Card, npt.NDArray[np.uint8]]:
        """The row's cards as they landed, each named by the index read at its top-left
        corner, or, where the finder found the whole row evenly spaced, by its place (a card
        named twice, or two cards one name, are not taken as they landed). Every other card of
        the row is cut from the row's frame at its place: where the indices read and the cards
        found lay the row's places out (``_row_places``), so a card the finder missed or whose
        index no network finds is learnt too (the order names it): each a step from the card
        placed next to it, then moved to where a corner like the deck's lies (``_refit``). A
        card Go left out as read another suit is not learnt."""
        cards = [c for c in self.finder.cards if c.id in self.landed]
        names: dict[int, Card | None] = {}
        if len(cards) == len(reading.expected) and _evenly_in_a_row(cards):
            names = dict(
                zip((c.id for c in sorted(cards, key=_left)), reading.expected, strict=True)
            )
        offsets: list[tuple[float, float]] = []
        for card, x in reading.where.items():  # an index read names the card it lies on
            host = next((c for c in reversed(cards) if _on_its_corner(c, x, reading.across)), None)
            if host is not None and names.setdefault(host.id, card) != card:
                names[host.id] = None  # two names: neither
            if host is not None:
                offsets.append((x - _left(host), reading.across - _top(host)))
        counts = Counter(names.values())
        out = {
            name: self.landed[i]
            for i, name in names.items()
            if name is not None and name in reading.expected and counts[name] == 1
        }
        self.landed = {c.id: self.landed[c.id] for c in cards}  # a gathered row is forgotten
        self.offsets.append(offsets)  # where this deck prints its index on the card
        self.index_offset = _median_offset(self.offsets)
        if self.row_frame is not None:
            bgr, homography = self.row_frame
            found = {n: c for c in cards if (n := names.get(c.id)) is not None and n in out}
            places = self._row_places(reading, found)
            template = _mean_corner(
                [*out.values(), *(v for row in self.views for v in row.values())]
            )
            order = {card: k for k, card in enumerate(reading.expected)}
            sure = {order[c]: places[c] for c in reading.where if c in places and c in order}
            sure |= {order[c]: (_left(f), _top(f)) for c, f in found.items() if c in order}
            step = _step({order[c]: p for c, p in places.items()})
            # from the cards placed surely outward, each a step from its placed neighbour
            # (a step fitted from a few cards is a little off, and adds up along the row),
            # then moved to where its corner lies
            for card in sorted(places, key=lambda c: _reach(order[c], sure)):
                if card in out:
                    continue
                k = order[card]
                left, top = places[card]
                if k not in sure:
                    near = min(sure, key=lambda j: abs(j - k), default=None)
                    if near is not None and step is not None:
                        left, top = sure[near][0] + step * (k - near), sure[near][1]
                    dx, dy = _refit(bgr, homography, _card_at(left, top), template)
                    left, top = left + dx * PX_PER_MM, top + dy * PX_PER_MM
                    sure[k] = (left, top)
                out[card] = upright(bgr, mat_to_frame(_card_at(left, top), homography))[0]
        left_out = {expected for expected, _read in reading.wrong}  # Go kept the row without
        return {card: view for card, view in out.items() if card not in left_out}

    def _row_places(
        self, reading: RowReading, found: dict[Card, FoundCard]
    ) -> dict[Card, tuple[float, float]]:
        """The top-left corner (mat pixels) of each of the row's cards not found and named:
        where its index was read, at the deck's ``index_offset`` from its card's corner; else
        at its place along the row, fitted to the cards found and named and the indices read
        (cards laid a steady step apart on one line: ``_fitted``)."""
        order = {card: k for k, card in enumerate(reading.expected)}
        known: dict[int, tuple[float, float]] = {
            order[c]: (_left(f), _top(f)) for c, f in found.items() if c in order
        }
        read: dict[int, tuple[float, float]] = {}
        if self.index_offset is not None:
            dx, dy = self.index_offset
            for card, x in reading.where.items():
                if card in order:
                    read[order[card]] = (x - dx, reading.across - dy)
        fit = _fitted({**read, **known})
        out = {}
        for card, k in order.items():
            if k in read:
                out[card] = read[k]
            elif fit is not None:
                start, step, top = fit
                out[card] = (start + step * k, top)
        return out

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


def _left(card: FoundCard) -> float:
    return float(min(x for x, _ in card.quad))


def _top(card: FoundCard) -> float:
    return float(min(y for _, y in card.quad))


def _fitted(places: dict[int, tuple[float, float]]) -> tuple[float, float, float] | None:
    """The row's first card's left, its step and its top (mat pixels) from the top-left
    corners known of some of its cards (by place), each slope and start a median, so that
    an outline found a few millimetres off moves nothing; None where fewer than
    ``MIN_OFFSETS`` are known, the step is not a lesson row's, or a third of them lie more
    than ``PLACE_MM`` off the line."""
    if len(places) < MIN_OFFSETS:
        return None
    ks = sorted(places)
    lefts = {k: places[k][0] for k in ks}
    step = float(np.median([(lefts[b] - lefts[a]) / (b - a) for a in ks for b in ks if b > a]))
    start = float(np.median([lefts[k] - step * k for k in ks]))
    off = np.array([abs(start + step * k - lefts[k]) for k in ks]) / PX_PER_MM
    low, high = ROW_STEP_MM
    if not low <= step / PX_PER_MM <= high or (off > PLACE_MM).sum() * 3 > len(ks):
        return None
    return start, step, float(np.median([places[k][1] for k in ks]))


def _refit(
    bgr: npt.NDArray[np.uint8],
    homography: npt.NDArray[np.float64],
    quad: npt.NDArray[np.float64],
    template: npt.NDArray[np.uint8] | None,
) -> tuple[float, float]:
    """How far (mm) the card cut at a fitted place ``quad`` (mat pixels) lies from it: where
    a corner like the deck's learnt ones lies within ``REFIT_MM`` of it (a card laid by hand
    lies a few millimetres off its step); nothing where none is ``REFIT_LIKE`` like them."""
    if template is None:
        return 0.0, 0.0
    dx, dy, like = corner_shift(bgr, mat_to_frame(quad, homography), template, REFIT_MM)
    return (dx, dy) if like >= REFIT_LIKE else (0.0, 0.0)


def _step(places: dict[int, tuple[float, float]]) -> float | None:
    """The row's step (mat pixels) between its places (by place in the row)."""
    ks = sorted(places)
    steps = [(places[b][0] - places[a][0]) / (b - a) for a, b in pairwise(ks)]
    return float(np.median(steps)) if steps else None


def _reach(k: int, placed: dict[int, tuple[float, float]]) -> int:
    """How many places a row's ``k``-th card lies from the nearest card placed surely."""
    return min((abs(k - j) for j in placed), default=0)


def _mean_corner(views: list[npt.NDArray[np.uint8]]) -> npt.NDArray[np.uint8] | None:
    """The mean of the learnt corners of ``views`` cut alike: what this deck's index corner
    looks like, to find one by (None without two views)."""
    if len(views) < 2:
        return None
    return np.asarray(np.mean(aligned_corners(views), axis=0), np.uint8)


def _median_offset(rows: list[list[tuple[float, float]]]) -> tuple[float, float] | None:
    """The deck's index offset from its card's top-left: the median over every row's (a row's
    few reads on found cards, each outline a few millimetres off, vary by more than a deck's
    print); None before ``MIN_OFFSETS`` are seen."""
    offsets = [o for row in rows for o in row]
    if len(offsets) < MIN_OFFSETS:
        return None
    dx, dy = np.median(np.asarray(offsets), axis=0)
    return float(dx), float(dy)


def _card_at(left: float, top: float) -> npt.NDArray[np.float64]:
    """The outline (mat pixels) of a card lying square to the mat, its top-left at (left, top)."""
    w, h = (v * PX_PER_MM for v in CARD_SIZE_MM)
    return np.array([[left, top], [left + w, top], [left + w, top + h], [left, top + h]])


def _evenly_in_a_row(cards: list[FoundCard]) -> bool:
    """Whether found cards lie left to right a lesson row's step apart, on one line."""
    ordered = sorted(cards, key=_left)
    steps = np.diff([_left(c) for c in ordered]) / PX_PER_MM
    ys = [c.centre[1] / PX_PER_MM for c in ordered]
    low, high = ROW_STEP_MM
    return bool(((steps >= low) & (steps <= high)).all()) and max(ys) - min(ys) <= ROW_LINE_MM


def _on_its_corner(card: FoundCard, x: float, y: float) -> bool:
    """Whether an index read at (x, y) mat pixels lies on ``card`` in its top-left corner
    (``learnt_corners.CORNER_MM`` across from its left edge): on the card below it, it lies
    a row's step further in."""
    import cv2

    quad = np.asarray(card.quad, np.float32)
    inside = cv2.pointPolygonTest(quad, (float(x), float(y)), False) >= 0
    return inside and 0.0 <= (x - _left(card)) / PX_PER_MM <= CORNER_MM[2]


def _mean_feat(looks: list[Look]) -> npt.NDArray[np.float32]:
    return np.asarray(np.mean([look.feat for look in looks], axis=0), np.float32)


def _unit(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    return np.asarray(v / max(float(np.linalg.norm(v)), 1e-9), np.float32)


def unlearnt_note(profile: DeckProfile) -> str | None:
    """What to tell the player about the cards a finished lesson could not learn, if any: the
    profile cannot help the camera with them."""
    cornered = profile.cornered if profile.cornered is not None else np.zeros(52, bool)
    missing = [
        Card.from_index(i) for i, seen in enumerate(profile.counts) if seen == 0 and not cornered[i]
    ]
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
