"""Tracking: only stable reads become cards laid; nothing twice, nothing invented."""

from __future__ import annotations

import json

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


def test_an_uncertain_spot_is_asked_about_once_it_lies_still() -> None:
    """Asked as soon as a card is laid (``stable`` frames), and only once."""
    t = Tracker(stable=3)
    unsure = [seen(None, "player 0", (300, 100), FIVE)]
    assert run(t, [unsure] * 2) == []
    assert run(t, [unsure]) == [CardUnsure((FIVE,), "player 0", (300, 100))]
    assert run(t, [unsure] * 6) == []


def test_a_laid_card_read_uncertain_where_it_lies_asks_nothing() -> None:
    t = Tracker(stable=3)
    run(t, [[seen(FIVE, "player 0", (300, 100))]] * 3)  # laid
    # now partly under the next card: read uncertain, itself first, at its own place
    covered = [seen(None, "player 0", (310, 102), FIVE, Card.parse("5D"))]
    assert run(t, [covered] * 8) == []
    # the same candidates somewhere else in the zone are a new card: asked about
    elsewhere = [seen(None, "player 0", (600, 100), FIVE, Card.parse("5D"))]
    assert run(t, [elsewhere] * 6) == [CardUnsure((FIVE, Card.parse("5D")), "player 0", (600, 100))]


TEN_C, TEN_S = Card.parse("10C"), Card.parse("10S")


def test_reads_that_flip_between_frames_are_one_question_never_a_card() -> None:
    t = Tracker(stable=3)
    # 10S, 10S, 10C, then 10S three times: the same index read two ways
    frames = [[seen(TEN_S)], [seen(TEN_S)], [seen(TEN_C)]] + [[seen(TEN_S)]] * 3
    assert run(t, frames) == [CardUnsure((TEN_S, TEN_C), "player 0", (100, 100), flipped=True)]
    # nothing read at that place lays a card while it stays; it is not asked again
    later = [[seen(TEN_C)]] * 4 + [[seen(TEN_S)]] * 4 + [[seen(None, "player 0", (102, 99))]] * 8
    assert run(t, later) == []
    assert t.laid == {}


def test_a_laid_card_read_as_another_at_its_place_is_a_question() -> None:
    t = Tracker(stable=3)
    run(t, [[seen(TEN_S)]] * 3)  # laid as 10S
    for _ in range(10):  # a hand over it
        t.update([])
    assert run(t, [[seen(TEN_C, "player 0", (104, 97))]] * 5) == [
        CardUnsure((TEN_C, TEN_S), "player 0", (104, 97), flipped=True)
    ]
    assert t.laid == {TEN_S: "player 0"}


def test_the_next_card_in_a_row_or_the_spread_crib_is_no_flip() -> None:
    t = Tracker(stable=3)
    crib = [Card.parse(c) for c in ("2D", "7C", "QH", "AS")]
    events: list[object] = []
    on_mat: list[Sighting] = []
    for k, card in enumerate(crib):  # 9 mm along and 3 mm down each: 38 px apart
        on_mat.append(seen(card, "crib", (1000 + 36 * k, 500 + 12 * k)))
        events += run(t, [on_mat[:]] * 3)
    assert [e.card for e in events if isinstance(e, CardLaid)] == crib
    assert not any(isinstance(e, CardUnsure) for e in events)


def test_a_laid_card_read_in_another_zone_is_reported_once_and_stays_laid() -> None:
    t = Tracker(stable=3)
    run(t, [[seen(FIVE)]] * 3)
    both = [seen(FIVE), seen(FIVE, "player 1", (400, 100))]
    assert run(t, [both] * 12) == [CardLaid(FIVE, "player 1", (400, 100))]
    assert t.laid == {FIVE: "player 0"}


def test_an_unclear_crib_card_beside_a_sure_one_is_asked_about() -> None:
    t = Tracker(stable=3)
    sure = seen(KING, "crib", (1000, 500))
    unclear = seen(None, "crib", (1036, 512), FIVE, Card.parse("5D"))
    events = run(t, [[sure, unclear]] * 6)
    assert CardUnsure((FIVE, Card.parse("5D")), "crib", (1036, 512)) in events


def test_a_restarted_tracker_remembers_a_contested_place() -> None:
    t = Tracker(stable=3)
    run(t, [[seen(TEN_S)], [seen(TEN_S)], [seen(TEN_C)]] + [[seen(TEN_S)]] * 3)
    again = Tracker.from_json(t.to_json())
    assert again.to_json() == t.to_json()
    assert run(again, [[seen(TEN_C)]] * 4) == []


def test_a_tracker_saved_by_an_older_version_loads() -> None:
    """A state saved before the ``glimpsed`` wait was removed (a power cut across an update)."""
    t = Tracker(stable=3)
    run(t, [[Sighting(None, "player 0", (300, 300), (), True, 7)]] * 2)
    data = t.to_json()
    data["unsure"][0]["glimpsed"] = True
    again = Tracker.from_json(data)
    assert again.to_json() == t.to_json()
    assert run(again, [[Sighting(None, "player 0", (300, 300), (), True, 7)]]) == [
        CardUnsure((), "player 0", (300, 300), unread=True)
    ]


def test_a_card_in_doubt_is_not_laid_from_its_other_index_meanwhile() -> None:
    t = Tracker(stable=3)
    run(t, [[seen(TEN_S)], [seen(TEN_S)], [seen(TEN_C)]] + [[seen(TEN_S)]] * 3)  # asked
    other_index = seen(TEN_S, "player 0", (400, 380))  # the same card's far corner
    assert run(t, [[seen(TEN_C), other_index]] * 5) == []
    # once the doubted place is gone (covered), the far corner is read as it is
    events = run(t, [[other_index]] * 6)
    assert events == [CardLaid(TEN_S, "player 0", (400, 380))]


def test_a_card_found_with_no_index_read_is_asked_about_as_soon_as_it_lies_still() -> None:
    """Picked up to look at after half a second, it must have been asked about already."""
    t = Tracker(stable=3)
    blind = Sighting(None, "player 0", (300, 300), (), True, 7)
    assert run(t, [[blind]] * 2) == []
    assert run(t, [[blind]]) == [CardUnsure((), "player 0", (300, 300), unread=True)]


def test_a_card_found_unread_is_asked_about_before_a_card_read_later_is_laid() -> None:
    """The unread card came first: it is asked about first, so the table does not take the
    later card out of turn meanwhile."""
    t = Tracker(stable=3)
    unread = Sighting(None, "player 0", (300, 300), (), True, 7)
    later = seen(FIVE, "player 1", (900, 300))
    events = run(t, [[unread]] * 3 + [[unread, later]] * 3)
    assert events == [
        CardUnsure((), "player 0", (300, 300), unread=True),
        CardLaid(FIVE, "player 1", (900, 300)),
    ]


def test_a_card_found_unread_is_asked_even_where_its_guess_is_a_card_laid_there() -> None:
    """An unsure read at a found card's corner that names the card below it (laid right there)
    is a guess, not that card: the card was found anew, so it is still asked about."""
    t = Tracker(stable=3)
    assert run(t, [[seen(FIVE, "player 0", (300, 300))]] * 3) == [
        CardLaid(FIVE, "player 0", (300, 300))
    ]
    guess = Sighting(None, "player 0", (310, 300), (FIVE, TEN_S), True, 7)
    assert run(t, [[guess]] * 3) == [CardUnsure((FIVE, TEN_S), "player 0", (310, 300), unread=True)]


def test_a_card_found_as_its_unsure_index_is_read_is_asked_about_once() -> None:
    """The index read unsure before the finder had the card under it (it was still landing),
    then on it, and the card itself not yet read in as many frames: one card, one question."""
    t = Tracker(stable=3)
    before = Sighting(None, "crib", (400, 500), (FIVE, KING))
    on_it = Sighting(None, "crib", (400, 500), (FIVE, KING), found=7)
    unread = Sighting(None, "crib", (300, 380), (), True, 7)
    events = run(t, [[before], [on_it, unread], [on_it, unread], [on_it, unread], [on_it]])
    assert events == [CardUnsure((FIVE, KING), "crib", (400, 500))]
    # its index covered by the next card, the card still unread: not asked again, even by
    # a session restarted meanwhile
    assert run(t, [[unread]] * 3) == []
    t = Tracker.from_json(json.loads(json.dumps(t.to_json())))
    assert run(t, [[unread]] * 40) == []  # however long it lies unread


def test_an_index_read_at_a_found_cards_corner_after_it_was_found_is_another_card() -> None:
    """A card landing on a pile shows its index at the corner of the card below: that card,
    found first and unread, is asked about as well."""
    t = Tracker(stable=3)
    unread = Sighting(None, "crib", (300, 380), (), True, 7)
    over = Sighting(None, "crib", (400, 500), (FIVE, KING), found=7)
    events = run(t, [[unread], [unread, over], [unread, over], [unread, over]])
    assert events == [
        CardUnsure((), "crib", (300, 380), unread=True),
        CardUnsure((FIVE, KING), "crib", (400, 500)),
    ]


def test_a_card_whose_unsure_read_is_a_laid_card_below_is_still_asked_about() -> None:
    """An unsure read on a found card led by the card laid right there is that card's index,
    asking nothing: the card found over it, unread, is asked about all the same."""
    t = Tracker(stable=3)
    assert run(t, [[seen(FIVE, "player 0", (300, 300))]] * 3) == [
        CardLaid(FIVE, "player 0", (300, 300))
    ]
    below = Sighting(None, "player 0", (310, 300), (FIVE,), found=7)
    unread = Sighting(None, "player 0", (420, 420), (), True, 7)
    assert run(t, [[below, unread]] * 3) == [CardUnsure((), "player 0", (420, 420), unread=True)]


def test_a_card_laid_on_a_pile_showing_its_index_where_the_last_was_asked_is_asked() -> None:
    """A question out on a place does not cover the next card laid neatly over it: read on
    another card found there, or on a card found only after the first read was asked, it is
    a card of its own."""
    ace, two = Card.parse("AH"), Card.parse("2C")
    for before in (7, -1):  # on a card found, and on no card found (the finder missed it)
        t = Tracker(stable=3)
        first = Sighting(None, "crib", (400, 500), (FIVE, KING), found=before)
        assert run(t, [[first]] * 3) == [CardUnsure((FIVE, KING), "crib", (400, 500))]
        assert run(t, [[first]] * 5) == []  # answered; still read so
        over = Sighting(None, "crib", (405, 500), (ace, two), found=8)
        unread = Sighting(None, "crib", (300, 380), (), True, 8)
        assert run(t, [[over, unread]] * 3) == [CardUnsure((ace, two), "crib", (405, 500))]
