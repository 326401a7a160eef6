"""The training-scene generator's own parts that need no installed deck."""

from __future__ import annotations

import numpy as np

from crib_pi.mat import Mat
from crib_pi.vision.candidates import candidates
from crib_pi.vision.synth.backgrounds import mat_table
from crib_pi.vision.synth.decks import plain_deck
from crib_pi.vision.synth.labels import NONE, label_frames
from crib_pi.vision.synth.scenes import make_scene


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


def test_cards_on_the_mat_are_labelled_from_their_index_boxes() -> None:
    rng = np.random.default_rng(4)
    scene = make_scene(
        rng,
        [plain_deck()],
        size=(1280, 720),
        card_width=(180.0, 200.0),
        n_cards=(3, 3),
        layout="scatter",
        degrade=0.0,
        clutter_count=(0, 0),
        on_mat=True,
    )
    frames, _ = candidates(scene.image)
    labels = label_frames(scene, frames)
    named = {int(v) for v in labels if v >= 0 and v != NONE}
    assert named and named <= set(scene.cards)
