"""The shipped pair of networks: the second's word is averaged in where the first sees an index."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from crib_pi.cards import Card
from crib_pi.session.faces import plain_face
from crib_pi.vision.candidates import candidates
from crib_pi.vision.classifier import SECOND_LOOK_AT, SECOND_NAME, Classifier, model_path
from crib_pi.vision.errors import ModelError


def three_cards_on_a_table() -> np.ndarray:
    img = np.full((720, 1280, 3), (60, 110, 70), np.uint8)
    for x, text in zip((150, 500, 850), ("7H", "10S", "QD"), strict=True):
        face = plain_face(Card.parse(text))[:, :, :3]
        img[200:480, x : x + 200] = cv2.resize(face, (200, 280), interpolation=cv2.INTER_AREA)
    return img


def test_the_second_network_is_averaged_in_on_index_like_patches_only() -> None:
    _, patches = candidates(three_cards_on_a_table())
    first = Classifier([model_path()]).score(patches)
    second = Classifier([model_path(SECOND_NAME)]).score(patches)
    pair = Classifier().score(patches)
    look = first.index_prob() >= SECOND_LOOK_AT
    assert look.any() and not look.all()
    for got, a, b in ((pair.rank, first.rank, second.rank), (pair.suit, first.suit, second.suit)):
        np.testing.assert_allclose(got[look], (a[look] + b[look]) / 2, atol=1e-6)
        np.testing.assert_array_equal(got[~look], a[~look])
    # deck profiles compare against the first network's embeddings
    np.testing.assert_array_equal(pair.feat, first.feat)


def test_a_missing_or_broken_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"missing.*nope\.onnx"):
        Classifier([tmp_path / "nope.onnx"])
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a network")
    with pytest.raises(ModelError, match=r"does not load.*bad\.onnx"):
        Classifier([bad])
    with pytest.raises(ModelError, match="at most two"):
        Classifier([model_path()] * 3)
