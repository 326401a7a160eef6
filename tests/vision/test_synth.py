"""The training-scene generator's own parts that need no installed deck."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from crib_pi.mat import Mat
from crib_pi.vision.candidates import candidates
from crib_pi.vision.synth.backgrounds import mat_table
from crib_pi.vision.synth.decks import Deck, plain_deck
from crib_pi.vision.synth.faces import index_boxes
from crib_pi.vision.synth.labels import NONE, label_frames, readable_cards, unindexed_cards
from crib_pi.vision.synth.scenes import Scene, make_scene


def test_the_plain_deck_has_every_index_measured() -> None:
    deck = plain_deck()
    assert len(deck.faces) == 52 and all(b is not None for b in deck.boxes)
    rank, suit = deck.boxes[0]  # type: ignore[misc]
    assert rank[3] <= suit[1] + 2  # the rank sits above the suit


def test_the_mat_background_shows_the_printed_mat() -> None:
    img = mat_table(np.random.default_rng(0), 360, 640)
    assert img.shape == (360, 640, 3)
    # The mat is white paper with black markers: much of the frame is bright, some is dark.
    grey = img.mean(axis=2)
    assert (grey > 180).mean() > 0.3 and (grey < 60).mean() > 0.005
    assert Mat(2).render().shape[2] == 3


def three_cards(deck: Deck, seed: int, on_mat: bool = False) -> Scene:
    """Three clean cards of ``deck`` scattered at the product's size."""
    return make_scene(
        np.random.default_rng(seed),
        [deck],
        size=(1280, 720),
        card_width=(180.0, 200.0),
        n_cards=(3, 3),
        layout="scatter",
        degrade=0.0,
        clutter_count=(0, 0),
        on_mat=on_mat,
    )


def test_cards_on_the_mat_are_labelled_from_their_index_boxes() -> None:
    scene = three_cards(plain_deck(), 4, on_mat=True)
    frames, _ = candidates(scene.image)
    labels = label_frames(scene, frames)
    named = {int(v) for v in labels if v >= 0 and v != NONE}
    assert named and named <= set(scene.cards)


def _face(marks: list[tuple[str, int, int, float]]) -> np.ndarray:
    """A white 240x360 RGBA face with text marks (text, x, y baseline, scale)."""
    face = np.full((360, 240, 4), 255, np.uint8)
    for text, x, y, size in marks:
        cv2.putText(face, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0, 255), 3)
    return face


def test_index_boxes_measure_a_big_index_and_skip_a_court_without_one() -> None:
    big = index_boxes(_face([("A", 12, 62, 2.0), ("o", 14, 160, 3.0)]))  # suit reaches 0.45 h
    assert big is not None
    rank, suit = big
    assert rank[1] < 30 and suit[3] > 0.42 * 360
    # ink only well down the face (a court's picture) is not an index
    assert index_boxes(_face([("X", 30, 140, 1.5), ("o", 30, 175, 1.5)])) is None


def test_faces_without_a_measured_index_are_counted_apart() -> None:
    known = three_cards(plain_deck(), 9)
    unknown = three_cards(replace(plain_deck(), boxes=(None,) * 52), 9)
    assert readable_cards(known) and not unindexed_cards(known)
    assert not readable_cards(unknown) and unindexed_cards(unknown)


def test_drawn_decks_print_their_index_where_their_boxes_say() -> None:
    pytest.importorskip("PIL")
    from crib_pi.vision.synth.drawn import drawn_decks, font_paths
    from crib_pi.vision.synth.faces import index_boxes

    if not font_paths():
        pytest.skip("no fonts installed (Debian's fonts-dejavu-core and others)")
    for deck in drawn_decks(np.random.default_rng(3), 3):
        assert len(deck.faces) == 52 and deck.name.startswith("drawn-")
        for face, boxes in zip(deck.faces[::7], deck.boxes[::7], strict=True):
            assert boxes is not None
            (_, ry0, rx1, ry1), (_, sy0, sx1, sy1) = boxes
            h, w = face.shape[:2]
            assert rx1 < 0.45 * w and sy1 < 0.45 * h and sy0 >= ry1 - 2  # suit under rank
            # the bottom-right corner is the top-left one turned half round
            tl = face[: int(sy1) + 2, : int(max(rx1, sx1)) + 2, :3]
            br = np.rot90(face[h - tl.shape[0] :, w - tl.shape[1] :, :3], 2)
            assert np.abs(tl.astype(int) - br.astype(int)).mean() < 2
            measured = index_boxes(face)  # the measuring the rendered decks get agrees
            assert measured is not None and abs(measured[0][1] - ry0) < 4


@pytest.mark.parametrize("art", ["cartoon", "ornamental"])
def test_cartoon_and_ornamental_decks_draw_their_pictures_round_a_bare_index(art: str) -> None:
    pytest.importorskip("PIL")
    from crib_pi.vision.synth.drawn import drawn_deck, font_paths, random_style

    if not font_paths():
        pytest.skip("no fonts installed (Debian's fonts-dejavu-core and others)")
    style = random_style(np.random.default_rng(5), font_paths())
    plain, drawn = drawn_deck(style, "plain"), drawn_deck(style, "x", art)
    assert drawn.boxes == plain.boxes  # the index is where the plain deck prints it
    for i in (0, 6, 9, 10, 12, 25, 38, 51):  # aces, numbers and courts of each suit
        face, boxes = drawn.faces[i], drawn.boxes[i]
        assert boxes is not None
        h, w = face.shape[:2]
        (rx0, ry0, rx1, _), (sx0, _, sx1, sy1) = boxes
        x0, y0 = int(min(rx0, sx0)), int(ry0)
        x1, y1 = int(max(rx1, sx1)) + 1, int(sy1) + 1
        corner = face[y0:y1, x0:x1, :3].astype(int)
        assert np.abs(corner - plain.faces[i][y0:y1, x0:x1, :3].astype(int)).max() <= 2
        # the bottom-right index is the top-left one turned half round, art and all
        br = np.rot90(face[h - y1 : h - y0, w - x1 : w - x0, :3], 2).astype(int)
        assert np.abs(corner - br).mean() < 2
        body = (slice(int(0.2 * h), int(0.8 * h)), slice(int(0.3 * w), int(0.7 * w)))
        changed = np.abs(face[body][..., :3].astype(int) - plain.faces[i][body][..., :3]).max(
            axis=2
        )
        assert (changed > 40).mean() > 0.03  # the pictures are not the plain deck's
    with pytest.raises(ValueError, match="watercolour"):
        drawn_deck(style, "x", "watercolour")
