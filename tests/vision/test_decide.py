"""The decision rules on made-up classifier outputs: name only what is certain, never twice."""

from __future__ import annotations

import numpy as np
import pytest

from crib_pi.cards import Card
from crib_pi.vision.classifier import Scores
from crib_pi.vision.decide import decide
from crib_pi.vision.pairs import Frames


def frames(*spots: tuple[float, float, float, float]) -> Frames:
    """Frames at (x, y, down angle in degrees, side)."""
    c = np.array([[x, y] for x, y, _, _ in spots], np.float32)
    a = np.radians([s[2] for s in spots])
    d = np.stack([np.sin(a), np.cos(a)], axis=1).astype(np.float32)
    side = np.array([s[3] for s in spots], np.float32)
    glyphs = np.arange(2 * len(spots), dtype=np.int32).reshape(-1, 2)  # no blob shared
    return Frames(c, d, side, side / 3, glyphs)


def scores(*rows: tuple[dict[str, float], dict[str, float], float]) -> Scores:
    """Per frame: rank shares, suit shares, chance of being an index."""
    rank = np.zeros((len(rows), 14), np.float32)
    suit = np.zeros((len(rows), 4), np.float32)
    for i, (r, s, p) in enumerate(rows):
        for k, v in r.items():
            rank[i, Card.parse(k + "C").rank - 1] = v * p
        rank[i, 13] = 1 - p
        for k, v in s.items():
            suit[i, "CDHS".index(k)] = v
    return Scores(rank, suit, np.zeros((len(rows), 96), np.float32))


def test_nothing_index_like_names_nothing() -> None:
    rec = decide(frames((10, 10, 0, 20)), scores(({"Q": 1.0}, {"S": 1.0}, 0.3)))
    assert rec.cards == () and rec.uncertain == ()


def test_a_clear_read_is_named_with_its_corners() -> None:
    rec = decide(frames((100, 100, 0, 20)), scores(({"10": 1.0}, {"H": 1.0}, 0.99)))
    assert [str(r.card) for r in rec.cards] == ["10H"] and rec.uncertain == ()
    assert rec.cards[0].corners == ((90.0, 90.0), (110.0, 90.0), (110.0, 110.0), (90.0, 110.0))


def test_an_unclear_read_is_uncertain_with_candidates() -> None:
    rec = decide(frames((100, 100, 0, 20)), scores(({"Q": 0.6, "J": 0.4}, {"S": 1.0}, 0.99)))
    assert rec.cards == ()
    (u,) = rec.uncertain
    assert [str(c) for c in u.candidates] == ["QS", "JS"]
    assert u.probabilities[0] > u.probabilities[1]


def test_frames_on_one_index_are_one_read() -> None:
    f = frames((100, 100, 0, 20), (103, 101, 5, 21), (300, 300, 0, 20))
    s = scores(
        ({"5": 1.0}, {"D": 1.0}, 0.99),
        ({"5": 1.0}, {"D": 1.0}, 0.95),
        ({"5": 1.0}, {"D": 1.0}, 0.97),  # the card's other index, or a second look
    )
    rec = decide(f, s)
    assert [str(r.card) for r in rec.cards] == ["5D"] and rec.uncertain == ()


def test_opposite_corners_that_agree_make_a_read() -> None:
    # top-left index at (100, 100) reading down; bottom-right one turned half round, each
    # sure of its card but only 0.7 index-like: together they are surely an index
    f = frames((100, 100, 0, 20), (170, 190, 180, 20))
    half = ({"Q": 1.0}, {"S": 1.0}, 0.7)
    rec = decide(f, scores(half, half))
    assert [str(r.card) for r in rec.cards] == ["QS"] and rec.uncertain == ()
    assert rec.cards[0].confidence == pytest.approx(1 - 0.3 * 0.3, abs=1e-4)
    # both corners were read: the read outlines the other one too (the card is whole)
    (read,) = rec.cards
    assert np.mean(read.corners, axis=0) == pytest.approx((100, 100))
    assert np.mean(read.opposite, axis=0) == pytest.approx((170, 190))
    alone = decide(frames((100, 100, 0, 20)), scores(({"Q": 1.0}, {"S": 1.0}, 0.99)))
    assert alone.cards[0].opposite == ()
    # the same two reads side by side, not as one card's corners, are not reported
    rec = decide(frames((100, 100, 0, 20), (170, 100, 0, 20)), scores(half, half))
    assert rec.cards == () and rec.uncertain == ()


def test_both_corners_named_turned_half_round_are_one_read_outlining_both() -> None:
    """Both corners of a card named where the patches are large for their spacing (a card
    read upright at its own corners): one read, the other corner its ``opposite``; the same
    card named twice the same way up has none (the geometry is the finder's to judge)."""
    sure = ({"5": 1.0}, {"S": 1.0}, 0.99)
    rec = decide(frames((100, 100, 0, 100), (240, 230, 180, 100)), scores(sure, sure))
    (read,) = rec.cards
    assert str(read.card) == "5S" and read.opposite != ()
    assert {tuple(np.mean(c, axis=0).round()) for c in (read.corners, read.opposite)} == {
        (100.0, 100.0),
        (240.0, 230.0),
    }
    rec = decide(frames((100, 100, 0, 100), (240, 230, 0, 100)), scores(sure, sure))
    (read,) = rec.cards
    assert read.opposite == ()


def test_opposite_corners_unsure_of_one_card_are_one_question_not_a_sure_read() -> None:
    # Both corners lean to QS at 0.8: a font that misleads one corner misleads the other
    # alike, so two such looks do not make the card sure.
    f = frames((100, 100, 0, 20), (170, 190, 180, 20))
    unsure = ({"Q": 0.8, "K": 0.2}, {"S": 1.0}, 0.99)
    rec = decide(f, scores(unsure, unsure))
    assert rec.cards == ()
    (u,) = rec.uncertain
    assert [str(c) for c in u.candidates] == ["QS", "KS"]
    assert u.probabilities[0] == pytest.approx(0.8, abs=1e-4)


def test_opposite_corners_that_disagree_are_one_uncertain_read() -> None:
    f = frames((100, 100, 0, 20), (170, 190, 180, 20))
    rec = decide(
        f,
        scores(
            ({"Q": 0.75, "K": 0.25}, {"S": 1.0}, 0.99), ({"K": 0.7, "Q": 0.3}, {"S": 1.0}, 0.99)
        ),
    )
    assert rec.cards == () and len(rec.uncertain) == 1
    assert sorted(str(c) for c in rec.uncertain[0].candidates) == ["KS", "QS"]


def test_one_card_whose_corners_are_both_sure_of_different_suits_is_never_two_cards() -> None:
    # A 10 whose top corner reads 10S and bottom corner 10D, each at 0.99: one question.
    f = frames((100, 100, 0, 20), (170, 190, 180, 20))
    rec = decide(
        f, scores(({"10": 1.0}, {"S": 0.99, "D": 0.01}, 0.99), ({"10": 1.0}, {"D": 1.0}, 0.99))
    )
    assert rec.cards == ()
    (u,) = rec.uncertain
    assert sorted(str(c) for c in u.candidates) == ["10D", "10S"]


def test_two_unrelated_cards_turned_to_each_other_stay_two_cards() -> None:
    f = frames((100, 100, 0, 20), (170, 190, 180, 20))
    rec = decide(f, scores(({"5": 1.0}, {"H": 1.0}, 0.99), ({"K": 1.0}, {"C": 1.0}, 0.99)))
    assert sorted(str(r.card) for r in rec.cards) == ["5H", "KC"] and rec.uncertain == ()


def test_fanned_neighbours_half_a_patch_apart_are_two_reads() -> None:
    # A fan puts the next card's index just over half a patch away; no glyph is shared.
    f = frames((100, 100, 0, 40), (124, 100, 10, 40))
    s = scores(({"9": 1.0}, {"D": 1.0}, 0.99), ({"Q": 1.0}, {"D": 1.0}, 0.99))
    rec = decide(f, s)
    assert sorted(str(r.card) for r in rec.cards) == ["9D", "QD"] and rec.uncertain == ()


def test_frames_sharing_a_glyph_are_one_index_even_half_a_patch_apart() -> None:
    f = frames((100, 100, 0, 40), (122, 100, 10, 40))
    f.glyphs[1, 0] = f.glyphs[0, 1]  # both made from the same suit blob
    s = scores(({"9": 1.0}, {"D": 1.0}, 0.99), ({"Q": 1.0}, {"D": 1.0}, 0.99))
    rec = decide(f, s)
    assert rec.cards == () and len(rec.uncertain) == 1  # one index, two answers: ask


def test_a_less_sure_frame_that_agrees_does_not_drag_a_clear_read_down() -> None:
    f = frames((100, 100, 0, 40), (102, 101, 0, 48))
    s = scores(({"Q": 1.0}, {"D": 1.0}, 0.99), ({"Q": 0.6, "K": 0.4}, {"D": 1.0}, 0.95))
    rec = decide(f, s)
    assert [str(r.card) for r in rec.cards] == ["QD"] and rec.uncertain == ()


def test_sure_frames_that_disagree_on_one_index_are_asked_about() -> None:
    f = frames((100, 100, 0, 40), (102, 101, 0, 48))
    s = scores(({"Q": 1.0}, {"D": 1.0}, 0.99), ({"K": 1.0}, {"D": 1.0}, 0.95))
    rec = decide(f, s)
    assert rec.cards == ()
    assert [str(c) for c in rec.uncertain[0].candidates] == ["QD", "KD"]


def test_a_frame_twice_the_size_over_a_sure_index_of_another_card_is_dropped() -> None:
    # A 10H index, and a frame twice its size around it and the pip beside it "reading" 8H.
    f = frames((100, 100, 0, 30), (120, 105, 0, 60))
    s = scores(({"10": 1.0}, {"H": 1.0}, 0.99), ({"8": 1.0}, {"H": 1.0}, 0.99))
    rec = decide(f, s)
    assert [str(r.card) for r in rec.cards] == ["10H"] and rec.uncertain == ()
    # the same two reads at one size (a fanned neighbour) both stand
    rec = decide(frames((100, 100, 0, 30), (118, 100, 0, 30)), s)
    assert sorted(str(r.card) for r in rec.cards) == ["10H", "8H"]


def test_an_unsure_frame_leading_elsewhere_does_not_spoil_a_sure_read() -> None:
    # A wider frame on the same index takes in the picture and half-guesses a J.
    f = frames((100, 100, 0, 40), (102, 101, 0, 50))
    s = scores(({"7": 1.0}, {"S": 1.0}, 0.99), ({"J": 0.4, "7": 0.3, "K": 0.3}, {"S": 1.0}, 0.96))
    rec = decide(f, s)
    assert [str(r.card) for r in rec.cards] == ["7S"] and rec.uncertain == ()
    # ...but one nearly as sure of another card makes it a question, even below naming.
    s = scores(
        ({"8": 0.92, "6": 0.08}, {"D": 1.0}, 0.99), ({"5": 0.88, "6": 0.12}, {"D": 1.0}, 0.99)
    )
    rec = decide(f, s)
    assert rec.cards == () and [str(c) for c in rec.uncertain[0].candidates][:2] == ["8D", "5D"]


def test_a_frame_on_one_index_reading_another_suit_makes_it_a_question() -> None:
    # A small 10C: the frame from its 1 to the club is sure of a spade, the frame from its 0
    # to the club, less index-like, leans to the club. The suit is in doubt: ask.
    f = frames((100, 100, 18, 48), (104, 101, -25, 50))
    f.glyphs[1, 1] = f.glyphs[0, 1]  # both made from the same suit blob
    s = scores(
        ({"10": 1.0}, {"S": 0.99, "C": 0.01}, 0.97), ({"10": 1.0}, {"C": 0.6, "S": 0.4}, 0.7)
    )
    rec = decide(f, s)
    assert rec.cards == ()
    assert sorted(str(c) for c in rec.uncertain[0].candidates) == ["10C", "10S"]
    # A frame leaning as much to another rank (the picture beside the index) does not.
    s = scores(({"10": 1.0}, {"S": 1.0}, 0.97), ({"Q": 0.6, "10": 0.4}, {"S": 1.0}, 0.7))
    assert [str(r.card) for r in decide(f, s).cards] == ["10S"]


def test_corners_whose_frames_lean_mirror_ways_are_one_card() -> None:
    # A 10's frame leans by the glyph it was made from (its "1" over the suit: 15 degrees),
    # and the card's other corner, turned half round, leans back the mirror way.
    f = frames((100, 100, 15, 40), (172, 184, 165, 40))
    s = scores(({"10": 1.0}, {"S": 1.0}, 0.99), ({"10": 1.0}, {"D": 1.0}, 0.99))
    rec = decide(f, s)
    assert rec.cards == () and len(rec.uncertain) == 1
    assert sorted(str(c) for c in rec.uncertain[0].candidates) == ["10D", "10S"]
