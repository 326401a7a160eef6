"""Tracking: only stable reads become cards laid; nothing twice, nothing invented."""

from __future__ import annotations

from crib_pi.cards import Card
from crib_pi.session.tracker import CardLaid, CardUnsure, MatCleared, Sighting, Tracker

FIVE = Card.parse("5H")
KING = Card.parse("KS")


def seen(
    card: Card | None, zone: str = "player 0", at: tuple[float, float] = (100, 100), *cands: Card
) -> Sighting:
    return Sighting(card, zone, at, tuple(cands))


def run(tracker: Tracker, frames: list[list[Sighting]]) -> list[object]:
    out: list[object] = []
    for frame in frames:
        out += tracker.update(frame)
    return out


def test_a_card_is_laid_after_stable_frames_and_only_once() -> None:
    t = Tracker(stable=3)
    assert run(t, [[seen(FIVE)]] * 2) == []
    assert run(t, [[seen(FIVE)]]) == [CardLaid(FIVE, "player 0", (100, 100))]
    # a hand covers it, it comes back: not a new play
    frames = [[], [], [], [], [seen(FIVE)], [seen(FIVE)], [seen(FIVE)], [seen(FIVE)]]
    assert [e for e in run(t, frames) if not isinstance(e, MatCleared)] == []


def test_flicker_and_passing_hands_never_lay_a_card() -> None:
    t = Tracker(stable=3)
    frames = [[seen(FIVE)], [], [seen(FIVE)], [seen(KING)], [seen(FIVE)], [], [seen(FIVE)]]
    assert [e for e in run(t, frames) if isinstance(e, CardLaid)] == []


def test_outside_the_zones_is_ignored() -> None:
    t = Tracker(stable=2)
    assert run(t, [[Sighting(FIVE, None, (5, 5))]] * 5) == []


def test_ignored_until_gone_then_can_be_laid_again() -> None:
    t = Tracker(stable=2)
    run(t, [[seen(FIVE)]] * 2)
    t.ignore(FIVE)
    assert run(t, [[seen(FIVE)]] * 5) == []  # still there: ignored
    run(t, [[], []])  # gone for two frames
    assert run(t, [[seen(FIVE, "player 1")]] * 2) == [CardLaid(FIVE, "player 1", (100, 100))]


def test_uncertain_spot_becomes_one_question() -> None:
    t = Tracker(stable=3)
    unsure = [seen(None, "player 0", (300, 100), FIVE, Card.parse("5D"))]
    events = run(t, [unsure] * 6 + [[]] + [unsure] * 3)
    assert events == [CardUnsure((FIVE, Card.parse("5D")), "player 0", (300, 100))]


def test_uncertain_then_read_for_sure_is_no_question() -> None:
    t = Tracker(stable=3)
    unsure = [seen(None, "player 0", (300, 100), FIVE)]
    events = run(
        t,
        [unsure, unsure, [seen(FIVE, "player 0", (305, 100))]] * 1
        + [[seen(FIVE, "player 0", (305, 100))]] * 2,
    )
    assert events == [CardLaid(FIVE, "player 0", (305, 100))]


def test_mat_cleared_once() -> None:
    t = Tracker(stable=2)
    run(t, [[seen(FIVE)]] * 2)
    assert run(t, [[], [], [], []]) == [MatCleared()]


def test_uncertain_spot_waits_twice_stable_before_asking() -> None:
    t = Tracker(stable=3)
    unsure = [seen(None, "player 0", (300, 100), FIVE)]
    assert run(t, [unsure] * 5) == []
    assert run(t, [unsure]) == [CardUnsure((FIVE,), "player 0", (300, 100))]


def test_a_laid_card_read_uncertain_where_it_lies_asks_nothing() -> None:
    t = Tracker(stable=3)
    run(t, [[seen(FIVE, "player 0", (300, 100))]] * 3)  # laid
    # now partly under the next card: read uncertain, itself first, at its own place
    covered = [seen(None, "player 0", (310, 102), FIVE, Card.parse("5D"))]
    assert run(t, [covered] * 8) == []
    # the same candidates somewhere else in the zone are a new card: asked about
    elsewhere = [seen(None, "player 0", (600, 100), FIVE, Card.parse("5D"))]
    assert run(t, [elsewhere] * 6) == [CardUnsure((FIVE, Card.parse("5D")), "player 0", (600, 100))]
