"""Deck profiles: signatures learnt from a lesson tell a deck's own indices."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from crib_pi.cards import Card
from crib_pi.vision.candidates import front_end
from crib_pi.vision.classifier import SECOND_LOOK_AT, SIG_SIZE, Classifier, Scores, model_path
from crib_pi.vision.errors import DeckProfileError
from crib_pi.vision.patches import extract_wide
from crib_pi.vision.profile import CLOSE, INDEX, MARGIN, DeckProfile, Look, build_profile
from tests.vision.test_classifier import three_cards_on_a_table

JS, QS, KS = Card(11, "S").index, Card(12, "S").index, Card(13, "S").index
WIDTH = 3 * SIG_SIZE


def sig_of(card: int, spread: float = 0.0) -> np.ndarray:
    """A made-up signature: one value per card, so cards lie far apart (root mean square)."""
    v = np.full(WIDTH, -2.0, np.float32)
    v[card % WIDTH] = 12.0
    return v + np.float32(spread)


def profile_of(*cards: int) -> DeckProfile:
    looks = [Look(np.eye(96, dtype=np.float32)[c], sig_of(c)) for c in cards]
    return build_profile("test", looks, list(cards))


def scores(lead: int, share: float, p_index: float, sig: np.ndarray | None) -> Scores:
    """One patch's scores: ``lead`` at ``share`` among the spades' courts, ``p_index`` an index."""
    rank = np.zeros((1, 14), np.float32)
    rank[0, 13] = 1.0 - p_index
    rank[0, lead % 13] = p_index * share
    rank[0, (lead + 1) % 13] = p_index * (1.0 - share)
    suit = np.zeros((1, 4), np.float32)
    suit[0, lead // 13] = 1.0
    return Scores(rank, suit, np.zeros((1, 96), np.float32), sig=None if sig is None else sig[None])


def test_an_index_the_profile_knows_is_believed_and_its_card_left_to_the_networks() -> None:
    prof = profile_of(JS, QS, KS)
    before = scores(JS, 0.97, 0.6, sig_of(JS, 0.1))
    got = prof.adjust(before)
    assert got.index_prob()[0] == pytest.approx(INDEX)
    np.testing.assert_allclose(got.card_probs(), before.card_probs(), atol=1e-6)
    # an unsure card stays unsure: a sure card from the profile named 2 wrong in 2,207
    unsure = prof.adjust(scores(JS, 0.55, 0.6, sig_of(JS, 0.1)))
    assert unsure.card_probs()[0, JS] == pytest.approx(0.55)
    assert unsure.index_prob()[0] == pytest.approx(INDEX)


def test_the_profile_never_vouches_for_a_card_the_networks_do_not_lead_with() -> None:
    prof = profile_of(JS, QS, KS)
    before = scores(QS, 0.97, 0.6, sig_of(JS))  # the networks say QS, the signature says JS
    got = prof.adjust(before)
    np.testing.assert_allclose(got.index_prob(), before.index_prob())


def test_an_undecided_or_distant_signature_changes_nothing() -> None:
    prof = profile_of(JS, QS, KS)
    halfway = (sig_of(JS) + sig_of(QS)) / 2  # no margin
    assert prof.adjust(scores(JS, 0.97, 0.6, halfway)).index_prob()[0] == pytest.approx(0.6)
    far = sig_of(JS, CLOSE + 0.5)  # nearest JS by the margin, but far from it
    d = np.sqrt(np.mean((far[None] - prof.signatures[[JS, QS]]) ** 2, axis=1))
    assert d[1] - d[0] >= MARGIN and d[0] > CLOSE
    assert prof.adjust(scores(JS, 0.97, 0.6, far)).index_prob()[0] == pytest.approx(0.6)
    near = sig_of(JS, CLOSE - 0.5)
    assert prof.adjust(scores(JS, 0.97, 0.6, near)).index_prob()[0] == pytest.approx(INDEX)


def test_patches_not_looked_at_and_single_network_scores_are_left_alone() -> None:
    prof = profile_of(JS, QS, KS)
    nan = np.full(WIDTH, np.nan, np.float32)
    before = scores(JS, 0.55, 0.2, nan)
    np.testing.assert_allclose(prof.adjust(before).card_probs(), before.card_probs())
    before = scores(JS, 0.55, 0.6, None)
    assert prof.adjust(before) is before


def test_the_lesson_and_the_table_give_a_patch_the_same_signature() -> None:
    # the lesson takes signatures with Classifier.signature; recognition gets them from score
    frames, patches, pyr = front_end(three_cards_on_a_table())
    clf = Classifier()
    got = clf.score(patches, lambda idx: extract_wide(pyr, frames.take(idx)))
    assert got.sig is not None
    first = Classifier([model_path()]).score(patches)
    look = np.flatnonzero(first.index_prob() >= SECOND_LOOK_AT)
    assert look.size and np.isfinite(got.sig[look]).all()
    assert np.isnan(np.delete(got.sig, look, axis=0)).all()
    np.testing.assert_allclose(clf.signature(patches[look]), got.sig[look], atol=1e-5)


def test_a_profile_round_trips_and_an_old_one_asks_for_the_lesson_again(tmp_path: Path) -> None:
    prof = profile_of(JS, QS)
    path = tmp_path / "deck.npz"
    prof.save(path)
    back = DeckProfile.load(path)
    np.testing.assert_array_equal(back.signatures[[JS, QS]], prof.signatures[[JS, QS]])
    assert np.isnan(back.signatures[KS]).all() and back.counts[KS] == 0
    old = tmp_path / "old.npz"
    np.savez_compressed(
        old, name="old", prototypes=prof.prototypes, counts=prof.counts, model=prof.model
    )
    with pytest.raises(DeckProfileError, match="older crib-pi; run crib-pi learn-deck again"):
        DeckProfile.load(old)
