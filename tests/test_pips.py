"""The pips as a second witness (``crib_pi.vision.pips``): a read the face contradicts is a
question, never a card laid."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from crib_pi.actions import Crib, GameOptions, Play
from crib_pi.cards import Card
from crib_pi.mat import Mat
from crib_pi.session import pipeline as pipeline_module
from crib_pi.session.filmstrip import TruthReader, film, read_settled
from crib_pi.session.pipeline import FramePipeline
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import CardLaid, CardUnsure, Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog
from crib_pi.vision.learnt_corners import vouches
from crib_pi.vision.pips import agrees, count_pips, face_size, upright

OPTIONS = GameOptions(players=2, target=61, dealer=0)
SEED = 5


def _deck() -> Any:
    pytest.importorskip("PIL")
    from crib_pi.vision.synth.drawn import drawn_deck, font_paths, random_style

    if not font_paths():
        pytest.skip("no fonts installed (Debian's fonts-dejavu-core and others)")
    return drawn_deck(random_style(np.random.default_rng(SEED), font_paths()), "plain")


def test_the_pips_of_a_number_card_are_counted_and_a_court_shows_no_set() -> None:
    deck = _deck()
    w, h = face_size()
    for i, face in enumerate(deck.faces[:13]):  # the clubs
        rank = i + 1
        bgr = np.ascontiguousarray(face[:, :, :3])
        fh, fw = bgr.shape[:2]
        turned = np.rot90(bgr).copy()  # lying on its side: ``upright`` turns it back
        quad = [(0, fw), (0, 0), (fh, 0), (fh, fw)]  # its corners, a short side first
        pips = count_pips(upright(turned, quad))
        assert upright(turned, quad).shape[:2] == (h, w)
        if 4 <= rank <= 8:
            assert pips == rank, (rank, pips)
        assert agrees(rank, pips), (rank, pips)
    assert not agrees(11, 8) and not agrees(3, 8) and not agrees(8, 3) and agrees(8, None)


def _face_with_low_index(pips: int, px_per_mm: float = 4.0) -> npt.NDArray[np.uint8]:
    """A white 63 x 88 mm face: ``pips`` diamonds in two columns down its middle, and an
    index whose suit is printed low, 30 mm from the top (and from the bottom, turned),
    beside the pips and as big: as some decks print theirs."""
    w, h = round(63 * px_per_mm), round(88 * px_per_mm)
    face = np.full((h, w, 3), 250, np.uint8)

    def diamond(x_mm: float, y_mm: float) -> None:
        x, y, r = x_mm * px_per_mm, y_mm * px_per_mm, 3.5 * px_per_mm
        pts = np.array([(x, y - r * 1.3), (x + r, y), (x, y + r * 1.3), (x - r, y)], np.int32)
        cv2.fillPoly(face, [pts], (30, 30, 200))

    for i in range(pips):
        diamond(22 if i % 2 == 0 else 41, 18 + (i // 2) * 13)
    diamond(7, 30)  # the index's suit, low
    diamond(63 - 7, 88 - 30)
    return face


def test_an_index_suit_printed_low_beside_the_pips_is_not_a_pip() -> None:
    face = _face_with_low_index(4)
    h, w = face.shape[:2]
    quad = [(0, 0), (w, 0), (w, h), (0, h)]
    assert count_pips(upright(face, quad)) == 4


@dataclass(frozen=True)
class _Reading:
    cards: tuple[Any, ...]
    uncertain: tuple[Any, ...] = ()


class MisReader:
    """The film's truth, but for one card, read for sure as another (``as_``) at both its
    corners: the mistake an index network made on an ornamental deck (an 8 read as a J)."""

    every_frame = True

    def __init__(self, truth: Path, card: Card, as_: Card) -> None:
        self.truth, self.card, self.as_ = TruthReader(truth), card, as_

    def read(self, bgr: Any) -> _Reading:
        reads = self.truth.read(bgr).cards
        return _Reading(
            tuple(replace(r, card=self.as_) if r.card == self.card else r for r in reads)
        )


@pytest.fixture(scope="module")
def drawn_deal(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any], Any]:
    deck = _deck()
    _, actions = random_game(OPTIONS, seed=SEED, known=False)
    end = next(i for i, a in enumerate(actions) if isinstance(a, Crib))
    out = tmp_path_factory.mktemp("pips")
    film(OPTIONS, actions[: end + 1], lambda c: deck.faces[c.index], out, seed=SEED, zoom=0.85)
    return out, actions[: end + 1], deck


@pytest.mark.parametrize("looks", [pipeline_module.PIP_LOOKS, 0])
def test_a_sure_read_the_pips_contradict_is_asked_about_never_laid(
    drawn_deal: tuple[Path, list[Any], Any], looks: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no look at the pips (``looks`` 0) the same film lays the wrong card."""
    out, script, _ = drawn_deal
    monkeypatch.setattr(pipeline_module, "PIP_LOOKS", looks)
    play = next(a for a in script if isinstance(a, Play) and 4 <= a.card.rank <= 8)
    wrong = Card(11, play.card.suit)
    settled = {s["card"]: int(s["frame"]) for s in read_settled(out) if not s["again"]}
    table = TableSession(OPTIONS, GameLog(None), Tracker(stable=3))
    pipeline = FramePipeline(
        Mat(2), MisReader(out / "truth.jsonl", play.card, wrong), table.tracker,
        find=True,
    )  # fmt: skip
    laid, asked = [], []
    for number, path in enumerate(sorted((out / "frames").iterdir())):
        for event in pipeline.process(cv2.imread(str(path))):
            if isinstance(event, CardLaid):
                laid.append(event.card)
            elif isinstance(event, CardUnsure) and wrong in event.candidates:
                asked.append((number, event.candidates))
    if looks == 0:
        assert wrong in laid
        return
    assert wrong not in laid
    first, candidates = asked[0]
    assert candidates == (wrong, play.card)  # the read first, then what the pips say
    assert first - settled[str(play.card)] <= 10  # within a second of landing


class VouchingReader(MisReader):
    """``MisReader``, and the deck's corners as its filmed lesson learnt them: the second
    look a profile made at the table gives (``Recognizer.vouches``)."""

    def __init__(
        self, truth: Path, card: Card, as_: Card, corners: Any, known: npt.NDArray[np.bool_]
    ) -> None:
        super().__init__(truth, card, as_)
        self.corners, self.known = corners, known
        self.asked: list[Card] = []
        self.named: set[str] = set()

    def vouches(self, bgr: Any, quad: Any, card: Card, grey: bool) -> bool:
        self.asked.append(card)
        said = vouches(card, bgr, quad, self.corners, self.known)
        if said:
            self.named.add(str(card))
        return said


@pytest.fixture(scope="module")
def lesson_corners(drawn_deal: tuple[Path, list[Any], Any]) -> tuple[Any, npt.NDArray[np.bool_]]:
    """The drawn deck's corners, learnt by the lesson filmed on the mat (``learn-deck
    --camera``): its four rows laid a card at a time."""
    from crib_pi.session.lesson import ROW_SUITS, DeckLesson
    from crib_pi.session.lesson_film import teach_filmed
    from crib_pi.vision.recognizer import Recognizer

    deck = drawn_deal[2]
    lesson = DeckLesson(Recognizer().classifier, name="pips")
    rows = [[Card(r, s) for r in range(1, 14)] for s in ROW_SUITS]
    teach_filmed(lesson, rows, lambda c: deck.faces[c.index], seed=SEED, zoom=0.85)
    profile = lesson.profile()
    assert profile.corners is not None and profile.cornered is not None
    return profile.corners, profile.cornered


@pytest.mark.parametrize("learnt", [True, False])
def test_the_decks_learnt_corners_outweigh_a_face_unlike_a_number_cards(
    drawn_deal: tuple[Path, list[Any], Any],
    lesson_corners: tuple[Any, npt.NDArray[np.bool_]],
    learnt: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every face counted as a set of nine like shapes (as a deck whose queens wear dotted
    gowns shows five): with the deck's corners learnt, a card the pips contradict is laid
    where its corners name it, and asked about where they do not (a corner the lesson learnt
    poorly); the misread card is not laid, its corner naming another. With nothing learnt
    (``learnt`` False) they are all questions."""
    out, script, _ = drawn_deal
    corners, known = lesson_corners
    monkeypatch.setattr(pipeline_module, "count_pips", lambda face: 9)
    play = next(a for a in script if isinstance(a, Play) and 4 <= a.card.rank <= 8)
    wrong = Card(11, play.card.suit)
    known = known if learnt else np.zeros_like(known)
    reader = VouchingReader(out / "truth.jsonl", play.card, wrong, corners, known)
    table = TableSession(OPTIONS, GameLog(None), Tracker(stable=3))
    pipeline = FramePipeline(Mat(2), reader, table.tracker, find=True)
    laid, asked = set(), set()
    for path in sorted((out / "frames").iterdir()):
        for event in pipeline.process(cv2.imread(str(path))):
            if isinstance(event, CardLaid):
                laid.add(str(event.card))
            elif isinstance(event, CardUnsure):
                asked.add(str(event.candidates[0]))
    vetoed = {str(c) for c in reader.asked} - {str(wrong)}  # read sure, the pips against
    assert str(wrong) not in laid and str(wrong) in asked and str(wrong) not in reader.named
    assert len(vetoed) >= 3 and vetoed <= laid | asked
    assert vetoed & laid == reader.named & vetoed  # laid only where the corners name it
    assert len(reader.named) >= (len(vetoed) - 1 if learnt else 0)
