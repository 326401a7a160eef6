"""The shipped networks: the second's word is averaged in where the first sees an index; the
wide one's vouching lets the most believing judge index-likeness, and where the pair cannot
name a card the three vote."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from crib_pi.cards import Card
from crib_pi.session.faces import plain_face
from crib_pi.vision import decide
from crib_pi.vision.candidates import candidates, front_end
from crib_pi.vision.classifier import (
    GREY_VOUCH_AT,
    SECOND_LOOK_AT,
    SECOND_NAME,
    UNSURE_BELOW,
    VOUCH_AT,
    WIDE_MATE_AT,
    WIDE_NAME,
    WIDE_SAY_AT,
    Classifier,
    Scores,
    _score,
    _three,
    model_path,
)
from crib_pi.vision.engine import load
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
    pair = Classifier(grey=None).score(patches)
    look = first.index_prob() >= SECOND_LOOK_AT
    assert look.any() and not look.all()
    for got, a, b in ((pair.rank, first.rank, second.rank), (pair.suit, first.suit, second.suit)):
        np.testing.assert_allclose(got[look], (a[look] + b[look]) / 2, atol=1e-6)
        np.testing.assert_array_equal(got[~look], a[~look])
    # deck profiles compare against the first network's embeddings
    np.testing.assert_array_equal(pair.feat, first.feat)


def test_where_the_wide_network_vouches_the_most_believing_network_judges_index_likeness() -> None:
    frames, patches, pyr = front_end(three_cards_on_a_table())
    first = Classifier([model_path()]).score(patches)
    second = Classifier([model_path(SECOND_NAME)]).score(patches)
    plain = Classifier(grey=None).score(patches)
    seen: list[np.ndarray] = []

    def wide(idx: np.ndarray) -> np.ndarray:
        seen.append(idx)
        return extract_wide(pyr, frames.take(idx))

    got = Classifier(grey=None).score(patches, wide)
    look = np.flatnonzero(first.index_prob() >= SECOND_LOOK_AT)
    np.testing.assert_array_equal(seen[0], look)  # the wide look is cut for these only
    third = _score(load(model_path(WIDE_NAME)), patches[look], wide(look))
    vouched = third.index_prob() >= VOUCH_AT
    at, rest = look[vouched], look[~vouched]
    assert at.size >= 3  # the three clear indices at least
    believed = np.maximum.reduce(
        [first.index_prob()[at], second.index_prob()[at], third.index_prob()[vouched]]
    )
    np.testing.assert_allclose(got.index_prob()[at], believed, atol=1e-6)
    np.testing.assert_allclose(got.index_prob()[rest], plain.index_prob()[rest], atol=1e-6)
    # a read the pair is sure of keeps the pair's card probabilities
    sure = look[plain.card_probs()[look].max(axis=1) * got.index_prob()[look] >= UNSURE_BELOW]
    assert sure.size >= 3
    np.testing.assert_allclose(got.card_probs()[sure], plain.card_probs()[sure], atol=1e-5)
    # patches the second network does not look at are the first's alone
    away = np.setdiff1d(np.arange(len(patches)), look)
    np.testing.assert_array_equal(got.rank[away], first.rank[away])
    np.testing.assert_array_equal(got.suit[away], first.suit[away])


def _one(rank: int | None, suit: int, sure: float, index: float = 0.99) -> Scores:
    """One network's scores for one patch: ``sure`` on a rank (0 = ace) and a suit."""
    r = np.full((1, 14), 0.0, np.float32)
    r[0, :13] = (1.0 - sure) / 12
    if rank is not None:
        r[0, rank] = sure
    r[0, :13] *= index / r[0, :13].sum()
    r[0, 13] = 1.0 - index
    s = np.full((1, 4), (1.0 - sure) / 3, np.float32)
    s[0, suit] = sure
    return Scores(r, s, np.zeros((1, 96), np.float32))


def _card(rank: np.ndarray, suit: np.ndarray) -> tuple[Card, float]:
    probs = Scores(rank, suit, np.zeros((1, 0), np.float32))
    p = probs.card_probs()[0] * probs.index_prob()[0]
    return Card.from_index(int(np.argmax(p))), float(p.max())


def test_a_card_two_of_the_three_networks_are_sure_of_wins_a_close_call() -> None:
    nine, queen, hearts, diamonds = 8, 11, 2, 1
    assert UNSURE_BELOW == decide.NAME_AT
    # the first reads 9H, the second QH: the pair alone cannot name it
    first, second = _one(nine, hearts, 0.99), _one(queen, hearts, 0.9)
    assert _card((first.rank + second.rank) / 2, (first.suit + second.suit) / 2)[1] < 0.6
    assert _card(*_three(first, second, _one(None, hearts, 0.5)))[1] < decide.NAME_AT
    card, p = _card(
        *_three(_one(nine, hearts, 0.99), _one(queen, hearts, 0.9), _one(nine, hearts, 0.99))
    )
    assert card == Card.parse("9H") and p >= decide.NAME_AT
    # one network alone cannot carry a card against two
    card, p = _card(
        *_three(_one(nine, hearts, 0.99), _one(queen, diamonds, 0.9), _one(queen, hearts, 0.5))
    )
    assert p < decide.NAME_AT
    # a read the pair is sure of is not unsettled by the wide network's doubt of its rank (of
    # its suit, it is: test_a_wide_network_sure_of_the_other_suit_of_the_colour_doubts_even...)
    sure = _three(_one(nine, hearts, 0.99), _one(nine, hearts, 0.98), _one(queen, hearts, 0.99))
    assert _card(*sure)[0] == Card.parse("9H") and _card(*sure)[1] >= decide.NAME_AT
    pair = (_one(nine, hearts, 0.99), _one(nine, hearts, 0.98))
    assert _card(*_three(*pair, _one(queen, diamonds, 0.99)))[1] < decide.NAME_AT


def test_a_whole_index_the_wide_network_vouches_for_is_judged_by_the_most_believing() -> None:
    first, second = _one(5, 2, 0.999, index=0.75), _one(5, 2, 0.999, index=0.45)
    vouching = _three(first, second, _one(5, 2, 0.999, index=0.999))
    assert _card(*vouching)[0] == Card.parse("6H") and _card(*vouching)[1] >= decide.NAME_AT
    doubting = _three(first, second, _one(5, 2, 0.999, index=0.9))
    assert 1.0 - doubting[0][0, 13] == pytest.approx(0.6, abs=1e-5)  # the pair's average


def test_the_grey_network_must_find_an_index_for_the_wide_network_to_vouch() -> None:
    # An 8H whose upper loop is hidden by the card over it: the wide network vouches for a 6H,
    # the pair half believes it, and the grey network sees no index there.
    first, second = _one(5, 2, 0.99, index=0.4), _one(5, 2, 0.99, index=0.65)
    wide = _one(5, 2, 0.999, index=0.999)
    vouched = _three(first, second, wide, _one(5, 2, 0.7, index=GREY_VOUCH_AT + 0.05))
    assert _card(*vouched)[1] >= decide.NAME_AT
    doubted = _three(first, second, wide, _one(5, 2, 0.7, index=GREY_VOUCH_AT - 0.05))
    assert 1.0 - doubted[0][0, 13] == pytest.approx(0.525, abs=1e-5)  # the pair's average
    assert _card(*doubted)[1] < decide.NAME_AT


def test_a_wide_network_that_sees_no_index_has_no_say_on_the_card() -> None:
    # The first network reads 9H, the second QH; the wide look, which takes in the card
    # around the patch, reads 9H too, but counts only if it finds an index there at all.
    nine, queen, hearts = 8, 11, 2
    first, second = _one(nine, hearts, 0.99), _one(queen, hearts, 0.9)
    seeing = _three(first, second, _one(nine, hearts, 0.99, index=WIDE_SAY_AT + 0.05))
    assert _card(*seeing)[0] == Card.parse("9H") and _card(*seeing)[1] >= decide.NAME_AT
    blind = _three(first, second, _one(nine, hearts, 0.99, index=WIDE_SAY_AT - 0.05))
    assert _card(*blind)[1] < 0.6  # the pair's average, asked about


def _suited(one: Scores, suit: list[float]) -> Scores:
    return Scores(one.rank, np.array([suit], np.float32), one.feat)


def test_a_network_seeing_the_other_suit_of_the_colour_puts_the_suit_in_doubt() -> None:
    # A 10C whose club, 8 px high, reads as a spade: the second network gives the club a
    # quarter; the first and the wide network read a spade. Suits: clubs, diamonds, hearts, spades.
    ten = 9
    first = _suited(_one(ten, 3, 0.99), [0.004, 0.003, 0.003, 0.99])
    wide = _suited(_one(ten, 3, 0.99), [0.01, 0.005, 0.005, 0.98])
    clubs = _suited(_one(ten, 3, 0.99), [0.25, 0.025, 0.025, 0.7])
    diamonds = _suited(_one(ten, 3, 0.99), [0.025, 0.25, 0.025, 0.7])
    card, p = _card(*_three(first, diamonds, wide))  # a red suit's share: no doubt of a spade
    assert card == Card.parse("10S") and p >= decide.NAME_AT
    card, p = _card(*_three(first, clubs, wide))
    assert card == Card.parse("10S") and p < decide.NAME_AT
    grey = _suited(_one(ten, 3, 0.99), [0.5, 0.0, 0.0, 0.5])
    assert _card(*_three(first, clubs, wide, grey))[1] < _card(*_three(first, clubs, wide))[1]
    # a read the pair is sure of is not unsettled
    sure = _suited(_one(ten, 3, 0.99), [0.2, 0.0, 0.0, 0.8])
    assert _card(*_three(first, sure, wide))[1] >= decide.NAME_AT
    assert _card(*_three(first, _suited(sure, [0.19, 0.0, 0.0, 0.81]), wide))[1] >= 0.9


def test_a_wide_network_sure_of_the_other_suit_of_the_colour_doubts_even_a_sure_read() -> None:
    # A 10C in brown ink: the first and second networks, and the grey one, read a spade
    # surely; the wide look, the card around it in view, reads a club though it finds no
    # whole index there.
    ten, spades = 9, 3
    first = _suited(_one(ten, spades, 0.99), [0.01, 0.0, 0.0, 0.99])
    second = _suited(_one(ten, spades, 0.99), [0.0, 0.0, 0.0, 1.0])
    grey = _suited(_one(ten, spades, 0.99), [0.08, 0.0, 0.0, 0.92])
    sure = _three(first, second, _suited(_one(ten, 0, 0.99, index=0.1), [0.0, 0.0, 0.0, 1.0]), grey)
    assert _card(*sure)[0] == Card.parse("10S") and _card(*sure)[1] >= decide.NAME_AT
    for club in (WIDE_MATE_AT, 0.98):
        wide = _suited(_one(ten, 0, 0.99, index=0.1), [club, 0.0, 0.0, 1.0 - club])
        card, p = _card(*_three(first, second, wide, grey))
        assert card == Card.parse("10S") and p < decide.NAME_AT  # asked about
    # a red suit's share, or a club under WIDE_MATE_AT, is no doubt of a spade
    for suits in ([0.0, 0.98, 0.0, 0.02], [WIDE_MATE_AT - 0.05, 0.0, 0.0, 0.15]):
        wide = _suited(_one(ten, 0, 0.99, index=0.1), suits)
        assert _card(*_three(first, second, wide, grey))[1] >= decide.NAME_AT


def _ranked(one: Scores, ranks: dict[int, float]) -> Scores:
    r = np.zeros((1, 14), np.float32)
    for k, v in ranks.items():
        r[0, k] = v * 0.99
    r[0, 13] = 0.01
    return Scores(r, one.suit, one.feat)


def test_a_network_seeing_a_jack_where_the_lead_is_an_8_puts_the_rank_in_doubt() -> None:
    # A German jack prints B: in a font no network saw, the first network and the wide one
    # read it as an 8, the second gives the jack a third.
    eight, nine, jack, clubs = 7, 8, 10, 0
    first = _ranked(_one(eight, clubs, 0.99), {eight: 0.99, jack: 0.01})
    wide = _ranked(_one(eight, clubs, 0.99), {eight: 0.98, jack: 0.02})
    card, p = _card(*_three(first, _ranked(first, {eight: 0.7, nine: 0.3}), wide))
    assert card == Card.parse("8C") and p >= decide.NAME_AT  # a 9 is no B
    card, p = _card(*_three(first, _ranked(first, {eight: 0.7, jack: 0.3}), wide))
    assert card == Card.parse("8C") and p < decide.NAME_AT


def test_a_network_seeing_an_8_where_the_lead_is_a_6_puts_the_rank_in_doubt() -> None:
    # An 8 whose upper loop lies under the card beside it (seed 560's Andika 8H): the second,
    # wide and grey networks read a 6, the first mostly an 8.
    six, five, eight, hearts = 5, 4, 7, 2
    first = _ranked(_one(six, hearts, 0.99), {six: 0.99, eight: 0.01})
    wide = _ranked(_one(six, hearts, 0.99), {six: 0.98, eight: 0.02})
    card, p = _card(*_three(first, _ranked(first, {six: 0.7, five: 0.3}), wide))
    assert card == Card.parse("6H") and p >= decide.NAME_AT  # a 5 is no cut 8
    card, p = _card(*_three(first, _ranked(first, {six: 0.7, eight: 0.3}), wide))
    assert card == Card.parse("6H") and p < decide.NAME_AT


def test_a_missing_or_broken_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"missing.*nope\.onnx"):
        Classifier([tmp_path / "nope.onnx"])
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a network")
    with pytest.raises(ModelError, match=r"does not load.*bad\.onnx"):
        Classifier([bad])
    with pytest.raises(ModelError, match="at most three"):
        Classifier([model_path()] * 4)


def test_the_grey_network_names_the_suit_without_colour_and_doubts_in_colour() -> None:
    from crib_pi.vision.classifier import GREY_DOUBT_BELOW, _grey_say

    rank = np.zeros((2, 14), np.float32)
    rank[:, 9] = 0.99  # a ten, 99% an index
    rank[:, 13] = 0.01
    suit = np.array([[0.0, 0.99, 0.0, 0.01]] * 2, np.float32)  # the colour networks: diamonds
    grey_suit = np.array([[0.0, 0.02, 0.0, 0.98], [0.0, 0.9, 0.0, 0.1]], np.float32)
    grey = Scores(rank.copy(), grey_suit, np.zeros((2, 96), np.float32))
    # no colour in the frame: the grey network's suit (a spade, then a diamond) stands
    _, got = _grey_say(rank, suit, grey, colourless=True)
    np.testing.assert_allclose(got, grey_suit)
    # in colour: where it gives the diamond under GREY_DOUBT_BELOW, the two are averaged
    r, got = _grey_say(rank, suit, grey, colourless=False)
    assert grey_suit[0, 1] < GREY_DOUBT_BELOW <= grey_suit[1, 1]
    np.testing.assert_allclose(got[0], (suit[0] + grey_suit[0]) / 2)
    np.testing.assert_allclose(got[1], suit[1])
    np.testing.assert_allclose(r, rank, atol=1e-6)  # it agrees on the rank: unchanged
