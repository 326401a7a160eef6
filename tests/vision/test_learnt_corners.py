"""A deck's learnt corners witness the networks' read of a found card (issue 32, item 3)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from crib_pi.cards import Card
from crib_pi.vision.errors import DeckProfileError
from crib_pi.vision.learnt_corners import corner_shape, corner_shift, likest, upright, witness
from crib_pi.vision.profile import DeckProfile, build_profile
from crib_pi.vision.reads import CardRead, Recognition, UncertainRead
from crib_pi.vision.synth.scenes import Scene, make_scene

SCENE = {
    "size": (1280, 720),
    "card_width": (125.0, 135.0),
    "layout": "scatter",
    "tilt": 0.0,
    "degrade": 0.0,
    "clutter_count": (0, 0),
    "on_mat": True,
}
SEVEN_CLUBS = Card(7, "C")


def outline(scene: Scene) -> np.ndarray:
    import cv2

    fw, fh = scene.face_sizes[0]
    face = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(face, scene.homographies[0])).reshape(4, 2)


@cache
def learnt() -> tuple[object, tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """A drawn deck, its 52 corners learnt (each card alone on the mat, the outline 2 px
    off), and the seven of clubs alone on the mat in another light (frame, outline)."""
    pytest.importorskip("PIL")
    from crib_pi.vision.synth.drawn import drawn_deck, font_paths, random_style

    if not font_paths():
        pytest.skip("no fonts installed (Debian's fonts-dejavu-core and others)")
    deck = drawn_deck(random_style(np.random.default_rng(13), font_paths()), "test")
    rng = np.random.default_rng(1)
    views = {}
    for card in range(52):
        scene = make_scene(rng, [deck], cards=[card], **SCENE)  # type: ignore[arg-type]
        quad = outline(scene) + rng.uniform(-2, 2, (4, 2))
        views[card] = upright(scene.image, quad)[0]
    prof = build_profile("test", [], [], views)
    assert prof.corners is not None and prof.cornered is not None
    scene = make_scene(rng, [deck], cards=[SEVEN_CLUBS.index], **SCENE)  # type: ignore[arg-type]
    return deck, (prof.corners, prof.cornered), (scene.image, outline(scene))


def box(quad: np.ndarray) -> tuple[tuple[float, float], ...]:
    """An index-sized box at the card's top-left, as a read's corners."""
    x, y = quad.min(axis=0)
    return ((x + 4, y + 4), (x + 20, y + 4), (x + 20, y + 34), (x + 4, y + 34))


def test_with_all_52_learnt_a_card_no_network_read_is_named_by_its_corner() -> None:
    _, (corners, cornered), (frame, quad) = learnt()
    got = witness(Recognition((), ()), frame, quad, corners, cornered)
    assert [r.card for r in got.cards] == [SEVEN_CLUBS]
    import cv2

    centre = np.mean(got.cards[0].corners, axis=0)  # the read lies on its card, at a corner
    assert cv2.pointPolygonTest(quad.astype(np.float32), tuple(map(float, centre)), False) > 0


def test_a_card_never_learnt_is_not_named_as_another() -> None:
    _, (corners, cornered), (frame, quad) = learnt()
    missing = cornered.copy()
    missing[SEVEN_CLUBS.index] = False
    got = witness(Recognition((), ()), frame, quad, corners, missing)
    assert got.cards == ()


def test_a_card_is_named_alone_only_where_every_card_of_its_rank_and_suit_was_learnt() -> None:
    _, (corners, cornered), (frame, quad) = learnt()
    for unlearnt, named in ((Card(1, "H"), True), (Card(7, "H"), False), (Card(2, "C"), False)):
        missing = cornered.copy()
        missing[unlearnt.index] = False  # a lesson that missed one card
        got = witness(Recognition((), ()), frame, quad, corners, missing)
        assert [r.card for r in got.cards] == ([SEVEN_CLUBS] if named else []), unlearnt


def test_an_unsure_read_the_corner_agrees_with_is_named() -> None:
    _, (corners, cornered), (frame, quad) = learnt()
    missing = cornered.copy()
    missing[Card(7, "H").index] = False  # a seven not learnt: the corner alone names no seven
    unsure = UncertainRead((SEVEN_CLUBS, Card(7, "S")), (0.6, 0.4), box(quad))
    got = witness(Recognition((), (unsure,)), frame, quad, corners, missing)
    assert [r.card for r in got.cards] == [SEVEN_CLUBS] and got.uncertain == ()
    other = UncertainRead((Card(7, "S"), SEVEN_CLUBS), (0.6, 0.4), box(quad))
    got = witness(Recognition((), (other,)), frame, quad, corners, missing)
    assert got.cards == () and got.uncertain == (other,)  # not the lead: still a question


def test_a_sure_read_the_corner_contradicts_becomes_a_question_between_the_two() -> None:
    _, (corners, cornered), (frame, quad) = learnt()
    wrong = CardRead(Card(7, "S"), 0.97, box(quad))
    got = witness(Recognition((wrong,), ()), frame, quad, corners, cornered)
    assert got.cards == ()
    assert [set(u.candidates) for u in got.uncertain] == [{Card(7, "S"), SEVEN_CLUBS}]
    right = CardRead(SEVEN_CLUBS, 0.97, box(quad))
    assert witness(Recognition((right,), ()), frame, quad, corners, cornered).cards == (right,)
    # a read of a card never learnt: the corners cannot judge it
    unknown = cornered.copy()
    unknown[Card(7, "S").index] = False
    assert witness(Recognition((wrong,), ()), frame, quad, corners, unknown).cards == (wrong,)


def test_the_learnt_cards_likest_a_card_are_its_guesses_and_a_blank_has_none() -> None:
    """For a card no read named, the learnt cards likest its corners are offered, it first;
    bare paper (no index at its corners) is like none of them."""
    _, (corners, cornered), (frame, quad) = learnt()
    guesses = likest(frame, quad, corners, cornered, 3)
    assert guesses[:1] == [SEVEN_CLUBS] and len(guesses) <= 3
    missing = cornered.copy()
    missing[SEVEN_CLUBS.index] = False
    assert SEVEN_CLUBS not in likest(frame, quad, corners, missing, 3)
    blank = np.full_like(frame, 235)
    assert likest(blank, quad, corners, cornered, 3) == []


def test_a_profile_keeps_its_corners_and_refuses_corners_of_another_size(tmp_path: Path) -> None:
    _, (corners, cornered), _ = learnt()
    prof = build_profile("test", [], [])
    path = tmp_path / "deck.npz"
    prof.save(path)
    assert DeckProfile.load(path).corners is None  # a profile without corners reads as before
    with_corners = DeckProfile(
        "test", prof.prototypes, prof.counts, prof.model, prof.signatures, corners, cornered
    )
    with_corners.save(path)
    back = DeckProfile.load(path)
    assert back.corners is not None and back.cornered is not None
    np.testing.assert_array_equal(back.corners, corners)
    assert back.cornered.all() and corners.shape[1:] == corner_shape()
    small = DeckProfile(
        "test", prof.prototypes, prof.counts, prof.model, prof.signatures, corners[:, 1:], cornered
    )
    small.save(path)
    with pytest.raises(DeckProfileError, match="not a 52-card profile"):
        DeckProfile.load(path)


def test_a_corner_cut_from_bare_paper_is_not_learnt() -> None:
    """A lesson's card cut from its row where it did not lie shows no index: learnt, it would
    be like any blank corner; it is left unlearnt, the cards round it learnt."""
    from crib_pi.vision.profile import learnt_corner_set

    _, _, (frame, quad) = learnt()
    view = upright(frame, quad)[0]
    paper = np.full_like(view, 238)
    paper += np.random.default_rng(0).integers(0, 3, paper.shape, dtype=np.uint8)  # the grain
    got, known = learnt_corner_set({SEVEN_CLUBS.index: view, Card(8, "C").index: paper})
    assert known[SEVEN_CLUBS.index] and not known[Card(8, "C").index]
    assert known.sum() == 1 and not got[Card(8, "C").index].any()


def test_a_corner_is_found_where_it_lies_round_an_outline_a_few_millimetres_off() -> None:
    _, (corners, _cornered), (frame, quad) = learnt()
    template = corners[SEVEN_CLUBS.index]
    along = (quad[1] - quad[0]) / 63.0  # a millimetre along the card's top, in frame pixels
    for off_mm in (0.0, 4.0, -5.0):
        dx, dy, like = corner_shift(frame, quad + off_mm * along, template, 6.0)
        assert abs(dx + off_mm) < 1.0 and abs(dy) < 1.0 and like > 0.9, (off_mm, dx, dy, like)
    # a corner further off than the search reaches is not found as like
    assert corner_shift(frame, quad + 20 * along, template, 6.0)[2] < 0.9
