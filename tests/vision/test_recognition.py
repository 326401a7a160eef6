"""Recognition end to end: synthetic scenes (decks rendered here), empty tables, real photos."""

from __future__ import annotations

import csv

import cv2
import numpy as np
import pytest

from crib_pi.cards import Card
from crib_pi.vision.recognizer import Recognizer, load_image
from crib_pi.vision.synth.decks import Deck
from crib_pi.vision.synth.labels import readable_cards
from crib_pi.vision.synth.scenes import LAYOUTS, make_scene, product_scene
from tests.conftest import shared_path


def test_product_geometry_scenes_read_without_wrong_cards(
    recognizer: Recognizer, decks: list[Deck]
) -> None:
    rng = np.random.default_rng(424242)
    right = truth_n = wrong = 0
    for i in range(8):
        scene = product_scene(rng, decks, LAYOUTS[i % 4])
        res = recognizer.read(scene.image)
        truth = {Card.from_index(c) for c in readable_cards(scene)}
        named = {r.card for r in res.cards}
        present = {Card.from_index(c) for c in scene.cards}
        right += len(named & truth)
        truth_n += len(truth)
        wrong += len(named - present)
        for r in res.cards:
            assert 0.0 <= r.confidence <= 1.0 and len(r.corners) == 4
    assert wrong == 0
    assert right / truth_n >= 0.8


def test_one_card_is_named_once(recognizer: Recognizer, decks: list[Deck]) -> None:
    """Both corner indices show; the card is one read."""
    rng = np.random.default_rng(7)
    scene = make_scene(
        rng,
        decks[:1],
        size=(1280, 720),
        card_width=(220.0, 220.0),
        cards=[Card.parse("7H").index],
        layout="scatter",
        tilt=0.0,
        degrade=0.0,
        clutter_count=(0, 0),
    )
    res = recognizer.read(scene.image)
    assert [str(r.card) for r in res.cards] == ["7H"]


def test_empty_tables_name_no_card(recognizer: Recognizer, decks: list[Deck]) -> None:
    rng = np.random.default_rng(99)
    for _ in range(6):
        scene = make_scene(rng, decks, size=(1280, 720), n_cards=(0, 0), clutter_count=(3, 10))
        assert recognizer.read(scene.image).cards == ()


def test_plain_images_name_no_card(recognizer: Recognizer) -> None:
    rng = np.random.default_rng(1)
    for img in (
        np.zeros((720, 1280, 3), np.uint8),
        np.full((300, 200, 3), 255, np.uint8),
        rng.integers(0, 255, (480, 640, 3), dtype=np.uint8),
    ):
        assert recognizer.read(img).cards == ()


def test_real_development_photos_precision(recognizer: Recognizer) -> None:
    """A floor, not the figure: the benchmark reports the numbers on these photos."""
    labels = shared_path("cards", "labels.csv")
    right = named = 0
    with labels.open() as fh:
        for row in csv.DictReader(fh):
            res = recognizer.read(load_image(labels.parent / row["file"]))
            truth = {Card.parse(c) for c in row["cards"].split()}
            got = {r.card for r in res.cards}
            right += len(got & truth)
            named += len(got)
    assert named > 0
    assert right / named >= 0.95


def _small_scene_reads(recognizer: Recognizer, decks: list[Deck]) -> tuple[int, int, int]:
    """(right, wrong, readable) over small photos: cards 70-80 px wide in 504x378 frames."""
    rng = np.random.default_rng(5)
    right = wrong = total = 0
    for _ in range(12):
        scene = make_scene(
            rng,
            decks,
            size=(504, 378),
            card_width=(70.0, 80.0),
            n_cards=(3, 4),
            layout="scatter",
            tilt=0.0,
            clutter_count=(0, 0),
        )
        res = recognizer.read(scene.image)
        for r in res.cards:  # corners come back in the photo's own pixels
            assert all(-20 <= x <= 524 and -20 <= y <= 398 for x, y in r.corners)
        truth = {Card.from_index(c) for c in readable_cards(scene)}
        named = {r.card for r in res.cards}
        right += len(named & truth)
        wrong += len(named - {Card.from_index(c) for c in scene.cards})
        total += len(truth)
    return right, wrong, total


def test_small_photos_are_read_at_twice_their_size(
    recognizer: Recognizer, decks: list[Deck], monkeypatch: pytest.MonkeyPatch
) -> None:
    right, wrong, total = _small_scene_reads(recognizer, decks)
    assert wrong == 0 and right >= 0.85 * total
    monkeypatch.setattr("crib_pi.vision.recognizer.ENLARGE_BELOW", 0)
    unenlarged, _, _ = _small_scene_reads(recognizer, decks)
    assert unenlarged < right


def _one_card(top: str, bottom: str, width: int = 220) -> np.ndarray:
    """A table with one plain card whose top corner prints ``top``, its bottom ``bottom``."""
    from crib_pi.session.faces import plain_face

    a, b = plain_face(Card.parse(top)), plain_face(Card.parse(bottom))
    face = a.copy()
    face[a.shape[0] // 2 :] = b[a.shape[0] // 2 :]
    s = width / face.shape[1]
    face = cv2.resize(face, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    img = np.full((720, 1280, 3), (60, 110, 50), np.uint8)
    fh, fw = face.shape[:2]
    alpha = face[:, :, 3:4] / 255.0
    spot = img[200 : 200 + fh, 500 : 500 + fw]
    img[200 : 200 + fh, 500 : 500 + fw] = (face[:, :, :3] * alpha + spot * (1 - alpha)).astype(
        np.uint8
    )
    return img


def test_a_card_whose_corners_read_two_cards_is_one_question(recognizer: Recognizer) -> None:
    res = recognizer.read(_one_card("10S", "10D"))
    assert res.cards == ()
    (u,) = res.uncertain
    assert sorted(str(c) for c in u.candidates) == ["10D", "10S"]
    assert [str(r.card) for r in recognizer.read(_one_card("10S", "10S")).cards] == ["10S"]


def test_a_grey_camera_never_takes_a_red_suit_for_a_black_one(recognizer: Recognizer) -> None:
    from crib_pi.vision.synth.inks import grey

    for card in ("4D", "9D", "QH", "AD", "KD", "10H"):
        res = recognizer.read(grey(_one_card(card, card)))
        assert [str(r.card) for r in res.cards] in ([card], []), card


def test_a_box_of_the_frame_is_read_as_in_the_whole_frame(
    recognizer: Recognizer, decks: list[Deck]
) -> None:
    """``read_region`` reads one part of a frame (where a card just landed) and gives the
    corners in the whole frame's pixels, as ``read`` names them."""
    rng = np.random.default_rng(31)
    scene = product_scene(rng, decks, LAYOUTS[0])
    whole = recognizer.read(scene.image)
    assert len(whole.cards) >= 2
    first = whole.cards[0]
    pts = np.asarray(first.corners)
    x0, y0 = (int(v) - 120 for v in pts.min(axis=0))
    x1, y1 = (int(v) + 120 for v in pts.max(axis=0))
    h, w = scene.image.shape[:2]
    box = (max(x0, 0), max(y0, 0), min(x1, w), min(y1, h))
    part = recognizer.read_region(scene.image, box)
    same = [r for r in part.cards if r.card == first.card]
    assert same, f"{first.card} not read in {box}"
    assert np.abs(np.asarray(same[0].corners) - pts).max() < 1.0
    for r in part.cards:  # only what lies in the box, placed in the whole frame
        cx, cy = np.asarray(r.corners).mean(axis=0)
        assert box[0] <= cx <= box[2] and box[1] <= cy <= box[3]
    assert len(part.cards) < len(whole.cards)
