"""The show and the play, item by item, and the batch scorer against the single one."""

from __future__ import annotations

import numpy as np
import pytest

from crib_pi.cards import Card, deck
from crib_pi.errors import CribError, DuplicateCardError, IllegalActionError
from crib_pi.scoring import score_hand, score_hands, score_play


def hand(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(
    ("cards", "starter", "crib", "total", "reasons"),
    [
        ("5H 5D 5C JS", "5S", False, 29, {"fifteen": 16, "pair": 12, "nobs": 1}),
        ("3H 3D 3C 3S", "9S", False, 24, {"fifteen": 12, "pair": 12}),
        ("7H 7D 8C 8S", "9S", False, 24, {"fifteen": 8, "pair": 4, "run": 12}),
        ("AH 2H 3H 4H", "5H", False, 12, {"fifteen": 2, "run": 5, "flush": 5}),
        ("AH 2H 3H 4H", "5H", True, 12, {"fifteen": 2, "run": 5, "flush": 5}),
        ("AH 2H 3H 4H", "KS", False, 12, {"fifteen": 4, "run": 4, "flush": 4}),
        ("AH 2H 3H 4H", "KS", True, 8, {"fifteen": 4, "run": 4}),
        ("JH 2C 4D 6S", "9H", False, 5, {"fifteen": 4, "nobs": 1}),
        ("JH 2C 4D 6S", "9C", False, 4, {"fifteen": 4}),
        ("2S 4H 6D 8C", "KS", False, 0, {}),
        ("10H JH QH KH", "5H", False, 18, {"fifteen": 8, "run": 4, "flush": 5, "nobs": 1}),
        ("6C 7C 8C 9C", "8S", True, 16, {"fifteen": 6, "pair": 2, "run": 8}),
    ],
)
def test_hands(cards: str, starter: str, crib: bool, total: int, reasons: dict) -> None:
    score = score_hand(hand(cards), starter, crib=crib)
    assert score.total == total
    assert score.by_reason() == {k: v for k, v in reasons.items() if v}


def test_items_carry_their_cards_and_are_said_in_order() -> None:
    score = score_hand(hand("5H 5D JH 10S"), "KH")
    reasons = [i.reason for i in score.items]
    assert reasons == sorted(reasons, key=["fifteen", "pair", "run", "flush", "nobs"].index)
    assert all(sum(c.value for c in i.cards) == 15 for i in score.items if i.reason == "fifteen")
    nobs = [i for i in score.items if i.reason == "nobs"]
    assert [str(c) for c in nobs[0].cards] == ["JH"]
    assert score.spoken().startswith("fifteen two, fifteen four, fifteen six")
    assert score.spoken().endswith("and one for his nobs is 15".replace("15", "fifteen"))


def test_zero_hand_is_nineteen() -> None:
    assert "nineteen" in score_hand(hand("2S 4H 6D 8C"), "KS").spoken()


def test_bad_hands() -> None:
    with pytest.raises(IllegalActionError, match="4 cards"):
        score_hand(hand("5H 5D 5C"), "5S")
    with pytest.raises(DuplicateCardError, match="5H"):
        score_hand(hand("5H 5D 5C 5H"), "5S")
    with pytest.raises(DuplicateCardError, match="starter 5S"):
        score_hand(hand("5H 5D 5C 5S"), "5S")
    with pytest.raises(CribError, match="'5Z'"):
        score_hand(hand("5H 5D 5C 5Z"), "5S")


@pytest.mark.parametrize(
    ("pile", "points"),
    [
        ("5H KD", 2),
        ("5H 5D", 2),
        ("5H 5D 5C", 8),  # fifteen and a pair royal
        ("5H 5D 5C 5S", 12),
        ("KH QD JC", 3),  # run of three
        ("KH QD JC AS", 2),  # 31, no run
        ("9H 6D 7C 8S", 4),  # run of four out of order, count 30
        ("2H 3D 2C", 0),  # not adjacent pair
        ("4H 5D 6C 6S", 2),
        ("10H 5D", 2),
        ("7H 8H 9D 7S", 5),  # 31, and 8-9-7 is a run of three
        ("3H 4D 5C 3S", 5),  # fifteen, and the last three (4-5-3) are a run
    ],
)
def test_play(pile: str, points: int) -> None:
    assert score_play(pile.split()).total == points


def test_play_past_31_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="past 31"):
        score_play("KH QH JH 5D".split())


def test_batch_matches_single_on_a_random_sample() -> None:
    rng = np.random.default_rng(12)
    picks = np.array([rng.choice(52, 5, replace=False) for _ in range(4000)])
    for crib in (False, True):
        batch = score_hands(picks[:, :4], picks[:, 4], crib=crib)
        single = [
            score_hand(
                [Card.from_index(int(i)) for i in row[:4]], Card.from_index(int(row[4])), crib=crib
            ).total
            for row in picks
        ]
        assert batch.tolist() == single


def test_batch_flush_and_nobs_corners() -> None:
    ids = {str(c): c.index for c in deck()}
    hands = np.array(
        [[ids[c] for c in h.split()] for h in ["2H 4H 6H 8H", "2H 4H 6H 8H", "JS 2D 4C 6H"]]
    )
    starters = np.array([ids["KS"], ids["KH"], ids["9S"]])
    assert score_hands(hands, starters).tolist() == [4, 5, 5]
    assert score_hands(hands, starters, crib=True).tolist() == [0, 5, 5]


def test_batch_bad_shapes() -> None:
    with pytest.raises(IllegalActionError, match="N x 4"):
        score_hands(np.zeros((3, 5), dtype=int), np.zeros(3, dtype=int))
    with pytest.raises(IllegalActionError, match=r"0\.\.51"):
        score_hands(np.full((1, 4), 52), np.zeros(1, dtype=int))
