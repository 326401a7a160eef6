"""A card the finder missed, read whole, is found by its two indices (``FramePipeline``,
``CardFinder.propose``): a white card laid over most of the last one on a white mat."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from crib_pi.cards import Card
from crib_pi.mat import PX_PER_MM, Mat
from crib_pi.session.filmstrip import INDEX_BOTTOM_RIGHT, INDEX_TOP_LEFT, Film, Placed
from crib_pi.session.pipeline import FramePipeline
from crib_pi.session.tracker import CardLaid, CardUnsure, Sighting, Tracker
from crib_pi.vision.reads import CardRead
from tests.conftest import ink_only_face

MM = PX_PER_MM
LOWER, UPPER = Card(7, "S"), Card(8, "S")


@dataclass(frozen=True)
class _Reading:
    cards: tuple[Any, ...]
    uncertain: tuple[Any, ...] = ()


class UpperReader:
    """Reads the upper card only, from the frame it lies still in: its top-left index, and
    (``whole``) its other index too, agreeing, as the recognizer gives a card read whole."""

    every_frame = True

    def __init__(self, index: Any, other: Any, start: int, whole: bool) -> None:
        self.index, self.other, self.start, self.whole = index, other, start, whole
        self.frame = -1

    def read(self, bgr: Any) -> _Reading:
        self.frame += 1
        if self.frame < self.start:
            return _Reading(())
        opposite = self.other if self.whole else ()
        return _Reading((CardRead(UPPER, 0.99, self.index, opposite),))


@pytest.fixture(scope="module")
def laid_over(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Film, Placed, int]:
    """A white card found, then a white card laid over most of it, 3 mm off, that the finder
    does not find (and takes the one below for gone)."""
    out = tmp_path_factory.mktemp("over")
    faces = {LOWER: ink_only_face(315), UPPER: ink_only_face(180, twin=False)}
    f = Film(Mat(2), lambda c: faces[c], out, np.random.default_rng(4))
    for _ in range(2):
        f.shoot()
    f.lay(Placed(LOWER, (200 * MM, 240 * MM), 0.0))
    for _ in range(3):
        f.shoot()
    upper = Placed(UPPER, (203 * MM, 243 * MM), 0.0)
    f.lay(upper)
    still = len(list(out.glob("*.jpg")))
    for _ in range(8):
        f.shoot()
    return out, f, upper, still


def _watch(laid_over: tuple[Path, Film, Placed, int], whole: bool) -> Any:
    out, f, upper, still = laid_over
    index = f._quad(upper, 1.0, 1.0, INDEX_TOP_LEFT)
    other = np.roll(f._quad(upper, 1.0, 1.0, INDEX_BOTTOM_RIGHT), 2, axis=0)  # as it stands
    reader = UpperReader(tuple(map(tuple, index)), tuple(map(tuple, other)), still - 1, whole)
    pipeline = FramePipeline(Mat(2), reader, Tracker(stable=3), find=True)
    events = []
    for path in sorted(out.glob("*.jpg")):
        events += pipeline.process(cv2.imread(str(path)))
    return pipeline, events


def test_a_card_read_whole_where_none_was_found_is_found_and_laid(
    laid_over: tuple[Path, Film, Placed, int],
) -> None:
    pipeline, events = _watch(laid_over, whole=True)
    assert pipeline.found_by_indices == 1
    assert any(isinstance(e, CardLaid) and e.card == UPPER for e in events)
    ids = [c.id for c in pipeline.found]
    assert len(ids) == 2 and ids[0] < ids[1]  # the card below it put back, under it


def test_a_card_read_by_one_index_on_no_card_found_is_asked_about_not_laid(
    laid_over: tuple[Path, Film, Placed, int],
) -> None:
    """The same read without the other index (and no reader of a card's corners to look
    for it): no card is found there, and the read is a question, never a card laid."""
    pipeline, events = _watch(laid_over, whole=False)
    assert pipeline.found_by_indices == 0
    assert not any(isinstance(e, CardLaid) and e.card == UPPER for e in events)
    assert any(isinstance(e, CardUnsure) and e.candidates[:1] == (UPPER,) for e in events)


class CountingReader:
    """Reads nothing; counts the reads at a card's corners it is asked for."""

    def __init__(self) -> None:
        self.corner_reads = 0

    def read(self, bgr: Any) -> _Reading:
        return _Reading(())

    def read_card(self, bgr: Any, quad: Any, grey: bool) -> _Reading:
        self.corner_reads += 1
        return _Reading(())


def test_a_single_index_is_looked_for_every_frame_as_it_lands_then_now_and_then() -> None:
    """Every frame for ``WHOLE_FRAMES``, then every ``WHOLE_EVERY``; the same card not looked
    for in ``WHOLE_AGAIN`` frames is laid again (the next deal): every frame again."""
    from crib_pi.session import pipeline as module

    reader = CountingReader()
    pipeline = FramePipeline(Mat(2), reader, Tracker(stable=3), find=True)
    frame = np.zeros((720, 1280, 3), np.uint8)
    quad = np.array([(0, 0), (63, 0), (63, 88), (0, 88)], float) * MM

    def reads(frames: range) -> int:
        before = reader.corner_reads
        for number in frames:
            pipeline.frames = number
            pipeline._both_indices(UPPER, quad, frame, np.eye(3))
        return reader.corner_reads - before

    assert reads(range(100, 100 + module.WHOLE_FRAMES + 1)) == module.WHOLE_FRAMES + 1
    assert reads(range(111, 141)) == 30 // module.WHOLE_EVERY
    assert reads(range(300, 305)) == 5  # laid again, two deals on


def test_an_unsure_read_at_the_corner_of_a_card_named_so_is_that_card() -> None:
    """An unsure read at the corner of a found card named for sure (the mat still changing
    there, or the card's outline a few mm off, so that no card hosts it), leading with that
    card's name, is that card's other index: the same card, not a question. Leading with
    another card, or at no card found, it stays a question."""
    pipeline = FramePipeline(Mat(2), CountingReader(), Tracker(stable=3), find=True)
    pipeline._names[7] = UPPER
    at_corner = Sighting(None, "crib", (1.0, 2.0), (UPPER, LOWER), found=7)
    assert pipeline._as_named(at_corner, None) == Sighting(UPPER, "crib", (1.0, 2.0))
    other = Sighting(None, "crib", (1.0, 2.0), (LOWER, UPPER), found=7)
    assert pipeline._as_named(other, None) == other
    nowhere = Sighting(None, "crib", (1.0, 2.0), (UPPER,), found=-1)
    assert pipeline._as_named(nowhere, None) == nowhere
