"""The shipped networks: the second's word is averaged in where the first sees an index, and
the wide one's vouching lets the more believing of the two judge index-likeness."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from crib_pi.cards import Card
from crib_pi.session.faces import plain_face
from crib_pi.vision.candidates import candidates, front_end
from crib_pi.vision.classifier import (
    SECOND_LOOK_AT,
    SECOND_NAME,
    VOUCH_AT,
    WIDE_NAME,
    Classifier,
    _load,
    _score,
    model_path,
)
from crib_pi.vision.errors import ModelError
from crib_pi.vision.patches import extract_wide


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


def test_where_the_wide_network_vouches_the_more_believing_network_judges_index_likeness() -> None:
    frames, patches, pyr = front_end(three_cards_on_a_table())
    first = Classifier([model_path()]).score(patches)
    second = Classifier([model_path(SECOND_NAME)]).score(patches)
    plain = Classifier().score(patches)
    seen: list[np.ndarray] = []

    def wide(idx: np.ndarray) -> np.ndarray:
        seen.append(idx)
        return extract_wide(pyr, frames.take(idx))

    got = Classifier().score(patches, wide)
    look = np.flatnonzero(first.index_prob() >= SECOND_LOOK_AT)
    np.testing.assert_array_equal(seen[0], look)  # the wide look is cut for these only
    wide_net = _load(model_path(WIDE_NAME))
    vouched = _score(wide_net, patches[look], wide(look)).index_prob() >= VOUCH_AT
    at, rest = look[vouched], look[~vouched]
    assert at.size >= 3  # the three clear indices at least
    believed = np.maximum(first.index_prob()[at], second.index_prob()[at])
    np.testing.assert_allclose(got.index_prob()[at], believed, atol=1e-6)
    assert (got.index_prob()[at] >= plain.index_prob()[at] - 1e-6).all()
    # which card it is stays the pair's average, and nothing else changes
    np.testing.assert_allclose(got.card_probs()[at], plain.card_probs()[at], atol=1e-5)
    np.testing.assert_array_equal(got.rank[rest], plain.rank[rest])
    np.testing.assert_array_equal(got.suit, plain.suit)


def test_a_missing_or_broken_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"missing.*nope\.onnx"):
        Classifier([tmp_path / "nope.onnx"])
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a network")
    with pytest.raises(ModelError, match=r"does not load.*bad\.onnx"):
        Classifier([bad])
    with pytest.raises(ModelError, match="at most three"):
        Classifier([model_path()] * 4)
