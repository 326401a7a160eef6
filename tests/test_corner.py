"""Reading a found card at its own corners (``crib_pi.vision.corner``): a card whose index
the whole-frame reader never finds is read where the card finder says it lies."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from crib_pi.actions import Crib, GameOptions, Play
from crib_pi.cards import Card
from crib_pi.mat import Mat
from crib_pi.session import pipeline as pipeline_module
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import TruthReader, film, read_settled
from crib_pi.session.pipeline import FramePipeline
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import CardLaid, CardUnsure, Sighting, Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog
from crib_pi.vision.corner import CARD_MM, MARGIN_MM, PX_PER_MM, card_view, in_corner
from crib_pi.vision.recognizer import Recognizer

OPTIONS = GameOptions(players=2, target=61, dealer=0)
SEED = 5


def _patch(cx: float, cy: float, down: tuple[float, float], side: float = 12.0) -> tuple:
    """An index patch's corners (top-left, top-right, bottom-right, bottom-left) in the
    upright view's pixels, centred (cx, cy) mm from the card's top-left corner."""
    d = np.asarray(down, float)
    r = np.array([d[1], -d[0]])
    c = (np.array([cx, cy]) + MARGIN_MM) * PX_PER_MM
    h = side * PX_PER_MM / 2
    return tuple(
        map(tuple, [c - r * h - d * h, c + r * h - d * h, c + r * h + d * h, c - r * h + d * h])
    )


def test_only_an_index_upright_in_a_corner_counts() -> None:
    w, h = CARD_MM
    assert in_corner(_patch(7, 14, (0, 1)))  # top-left, rank above suit
    assert in_corner(_patch(w - 7, h - 14, (0, -1)))  # bottom-right, turned half round
    assert not in_corner(_patch(7, 14, (0, -1)))  # top-left, upside down
    assert not in_corner(_patch(w - 7, h - 14, (0, 1)))
    assert not in_corner(_patch(w / 2, h / 2, (0, 1)))  # a pip pair in the middle
    assert not in_corner(_patch(7, 14, (1, 0)))  # on its side: a picture, not this card


def test_the_upright_view_maps_the_cards_corners_whichever_side_comes_first() -> None:
    quad = np.array([[300, 100], [300, 226], [124, 226], [124, 100]], float)  # long side first
    view, size = card_view(quad)
    m = MARGIN_MM * PX_PER_MM
    inner = np.array([[m, m], [size[0] - m, m], [size[0] - m, size[1] - m]], float)
    seen = cv2.perspectiveTransform(inner.reshape(-1, 1, 2), view).reshape(-1, 2)
    assert size == (
        round((CARD_MM[0] + 2 * MARGIN_MM) * PX_PER_MM),
        round((CARD_MM[1] + 2 * MARGIN_MM) * PX_PER_MM),
    )
    assert {tuple(np.round(p)) for p in seen} <= {tuple(p) for p in quad}  # corners onto corners
    assert np.linalg.norm(seen[1] - seen[0]) < np.linalg.norm(seen[2] - seen[1])  # short side first


def _deck() -> Any:
    pytest.importorskip("PIL")
    from crib_pi.vision.synth.drawn import drawn_deck, font_paths, random_style

    if not font_paths():
        pytest.skip("no fonts installed (Debian's fonts-dejavu-core and others)")
    return drawn_deck(random_style(np.random.default_rng(SEED), font_paths()), "plain")


@dataclass(frozen=True)
class _Reading:
    cards: tuple[Any, ...]
    uncertain: tuple[Any, ...] = ()


class BlindReader:
    """The film's truth, but for one card whose index is never found in the whole frame (a
    thin font the glyph finder does not cut out); the corners of found cards are read by the
    shipped networks (``Recognizer.read_card``)."""

    every_frame = True

    def __init__(self, truth: Path, card: Card) -> None:
        self.truth, self.card, self.networks = TruthReader(truth), card, Recognizer()

    def read(self, bgr: Any) -> _Reading:
        return _Reading(tuple(r for r in self.truth.read(bgr).cards if r.card != self.card))

    def read_card(self, bgr: Any, quad: Any, grey: bool) -> Any:
        return self.networks.read_card(bgr, quad, grey)


@pytest.fixture(scope="module")
def drawn_deal(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    deck = _deck()
    _, actions = random_game(OPTIONS, seed=SEED, known=False)
    end = next(i for i, a in enumerate(actions) if isinstance(a, Crib))
    out = tmp_path_factory.mktemp("corner")
    film(OPTIONS, actions[: end + 1], lambda c: deck.faces[c.index], out, seed=SEED, zoom=0.85)
    return out, actions[: end + 1]


@pytest.mark.parametrize("frames", [pipeline_module.CORNER_FRAMES, 0])
def test_a_card_the_frame_reader_never_finds_is_read_at_its_corners(
    drawn_deal: tuple[Path, list[Any]], frames: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without reading at the corners (``frames`` 0) the same card is asked about."""
    out, script = drawn_deal
    monkeypatch.setattr(pipeline_module, "CORNER_FRAMES", frames)
    play = next(a for a in script if isinstance(a, Play))
    landed = {s["card"]: int(s["frame"]) for s in read_settled(out) if not s["again"]}
    table = TableSession(OPTIONS, GameLog(None), Tracker(stable=3))
    pipeline = FramePipeline(
        Mat(2), BlindReader(out / "truth.jsonl", play.card), table.tracker, find=True
    )
    laid: dict[Card, int] = {}
    asked: list[CardUnsure] = []
    for number, path in enumerate(sorted((out / "frames").iterdir())):
        for event in pipeline.process(cv2.imread(str(path))):
            if isinstance(event, CardLaid):
                laid.setdefault(event.card, number)
            elif isinstance(event, CardUnsure) and event.zone == "player 1":
                asked.append(event)
    if frames == 0:
        assert play.card not in laid and any(e.unread for e in asked)
        return
    assert pipeline.corner_reads > 0
    assert laid[play.card] - landed[str(play.card)] <= 10  # on the board within a second
    assert set(laid) <= {Card.parse(c) for c in landed}  # nothing read that was not laid


def test_an_unsure_read_on_a_card_named_before_is_its_other_index() -> None:
    pipeline = FramePipeline(Mat(2), Recognizer(), Tracker(stable=3), find=True)
    pipeline._names[4] = Card.parse("KD")
    unsure = Sighting(None, "player 1", (10.0, 20.0), (Card.parse("KD"), Card.parse("AD")))
    other = Sighting(None, "player 1", (10.0, 20.0), (Card.parse("AD"), Card.parse("KD")))
    assert pipeline._as_named(unsure, 4) == Sighting(Card.parse("KD"), "player 1", (10.0, 20.0))
    assert pipeline._as_named(other, 4) == other  # leading with another card: still asked
    assert pipeline._as_named(unsure, 5) == unsure  # on another card
    assert pipeline._as_named(unsure, None) == unsure


@dataclass(frozen=True)
class _Unsure:
    candidates: tuple[Card, ...]
    corners: tuple[Any, ...]


class UnsureCornerReader(BlindReader):
    """As ``BlindReader``, but every read at a card's corners is unsure: the card, then
    another (a thin index read at 0.6)."""

    def read_card(self, bgr: Any, quad: Any, grey: bool) -> Any:
        read = self.networks.read_card(bgr, quad, grey)
        guesses = [((r.card, Card(r.card.rank % 13 + 1, "S")), r.corners) for r in read.cards]
        return _Reading((), tuple(_Unsure(*guess) for guess in guesses))


def test_a_card_unsure_at_its_corners_is_asked_about_with_that_guess_first(
    drawn_deal: tuple[Path, list[Any]],
) -> None:
    out, script = drawn_deal
    play = next(a for a in script if isinstance(a, Play))
    table = TableSession(OPTIONS, GameLog(None), Tracker(stable=3))
    reader = UnsureCornerReader(out / "truth.jsonl", play.card)
    pipeline = FramePipeline(Mat(2), reader, table.tracker, find=True)
    asked: list[CardUnsure] = []
    for path in sorted((out / "frames").iterdir()):
        for event in pipeline.process(cv2.imread(str(path))):
            assert not (isinstance(event, CardLaid) and event.card == play.card)  # never sure
            if isinstance(event, CardUnsure) and event.zone == f"player {play.player}":
                asked.append(event)
    assert any(e.unread and e.candidates[:1] == (play.card,) for e in asked)


class MisreadReader(BlindReader):
    """The film's truth, but one card read in the whole frame as ``misread``, sure (a club's
    lobes read as a spade's); its corners are read by the networks."""

    def __init__(self, truth: Path, card: Card, misread: Card) -> None:
        super().__init__(truth, card)
        self.misread = misread

    def read(self, bgr: Any) -> _Reading:
        reads = self.truth.read(bgr).cards
        return _Reading(
            tuple(replace(r, card=self.misread) if r.card == self.card else r for r in reads)
        )


def test_a_card_misread_in_the_frame_is_asked_about_when_its_corners_say_otherwise(
    drawn_deal: tuple[Path, list[Any]],
) -> None:
    out, script = drawn_deal
    play = next(a for a in script if isinstance(a, Play))
    dealt = {Card.parse(s["card"]) for s in read_settled(out)}
    misread = next(Card(play.card.rank, s) for s in "SCHD" if Card(play.card.rank, s) not in dealt)
    table = TableSession(OPTIONS, GameLog(None), Tracker(stable=3))
    reader = MisreadReader(out / "truth.jsonl", play.card, misread)
    pipeline = FramePipeline(Mat(2), reader, table.tracker, find=True)
    laid: set[Card] = set()
    asked: list[CardUnsure] = []
    for path in sorted((out / "frames").iterdir()):
        for event in pipeline.process(cv2.imread(str(path))):
            if isinstance(event, CardLaid):
                laid.add(event.card)
            elif isinstance(event, CardUnsure) and event.zone == f"player {play.player}":
                asked.append(event)
    assert misread not in laid and play.card not in laid
    assert any(e.candidates[:2] == (play.card, misread) for e in asked)


@pytest.mark.parametrize("name", ["7H", "KS", "10D", "AC"])
def test_the_networks_asked_where_an_index_is_printed_guess_the_card(name: str) -> None:
    """``guess_card``, for a card whose index the glyph finder cuts no index out of: its
    corners, as the card finder outlines it, whichever side is first; a blank card, none."""
    card = Card.parse(name)
    face = plain_face(card)[:, :, :3]
    h, w = face.shape[:2]
    table = np.full((h + 80, w + 80, 3), (60, 110, 40), np.uint8)  # the card on the mat
    table[40 : 40 + h, 40 : 40 + w] = face
    quad = np.array([(40, 40), (40 + w, 40), (40 + w, 40 + h), (40, 40 + h)], np.float64)
    recognizer = Recognizer()
    assert recognizer.guess_card(table, quad, False)[:1] == (card,)
    assert recognizer.guess_card(table, np.roll(quad, 2, axis=0), False)[:1] == (card,)
    table[40 : 40 + h, 40 : 40 + w] = 250
    assert recognizer.guess_card(table, quad, False) == ()
