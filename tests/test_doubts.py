"""The table never scores a card it should doubt (issue 18, item 6), fed what the tracker and
the buttons would say, as in ``test_table``.

One deal, two players, player 0 deals, the starter 7H:
player 1 10S, player 0 5D (15 for 2), 1 4C, 0 KD (29), 1 AH (30), go, go (1 for the last
card), 0 9C, 1 6S (15 for 2), 0 3H (last card); the crib is to be turned up.
"""

from __future__ import annotations

import json

from crib_pi.actions import Crib, GameOptions, Go, Play
from crib_pi.cards import Card
from crib_pi.session.table import Press, TableSession, TypedCard
from crib_pi.session.tracker import CardLaid, CardUnsure, MatCleared
from crib_pi.store import GameLog

C = Card.parse
DEAL = [
    ("10S", 1),
    ("5D", 0),
    ("4C", 1),
    ("KD", 0),
    ("AH", 1),
    ("go", 0),
    ("go", 1),
    ("9C", 0),
    ("6S", 1),
    ("3H", 0),
]


def table(*, muggins: bool = False) -> TableSession:
    t = TableSession(GameOptions(players=2, dealer=0, muggins=muggins), GameLog(None))
    lay(t, "7H", "starter")
    return t


def lay(t: TableSession, card: str, zone: str) -> None:
    t.on_track(CardLaid(C(card), zone, (0, 0)))


def play(t: TableSession, steps: list[tuple[str, int]]) -> None:
    for card, player in steps:
        if card == "go":
            t.on_press(Press("go", player))
        else:
            lay(t, card, f"player {player}")
        assert t.question is None, (card, t.question)


def scored_cards(t: TableSession) -> list[Card]:
    """Every card the game has taken this far (plays, the starter, the crib)."""
    out: list[Card] = []
    for record in t.game.records:
        a = record.action
        if isinstance(a, Crib):
            out += a.cards
        elif hasattr(a, "card"):
            out.append(a.card)
    return out


# -- (a) a card read again after it was played this deal ------------------------------------


def test_a_played_card_read_again_elsewhere_asks_which_card_it_is() -> None:
    t = table()
    play(t, DEAL[:1])  # player 1 plays 10S
    lay(t, "10S", "player 0")  # player 0's ten read as the 10S already played
    q = t.question
    assert q is not None and "10S" in q.text and "Player 2's card" in q.text
    assert t.game.scores == (0, 0) and t.game.played(0) == ()
    # the choices: the other tens, as player 0's play
    assert q.actions == [Play(0, C("10C")), Play(0, C("10D")), Play(0, C("10H"))]
    t.on_press(Press("go"))
    t.on_press(Press("confirm"))
    assert t.game.played(0) == (C("10D"),) and t.game.scores == (2, 0)  # a pair
    assert scored_cards(t).count(C("10S")) == 1


def test_the_starter_read_in_a_players_zone_asks_and_undo_turns_it_down() -> None:
    t = table()
    lay(t, "7H", "player 1")  # player 1's seven read as the starter
    q = t.question
    assert q is not None and "the starter" in q.text
    assert [a.card for a in q.actions if isinstance(a, Play)] == [C("7C"), C("7D"), C("7S")]
    t.on_press(Press("undo"))  # none of them: taken back, nothing scored
    assert t.question is None and t.game.played(1) == () and t.game.turn == 1
    t.on_typed(TypedCard(C("7S")))  # typed in instead
    assert t.game.played(1) == (C("7S"),)


# -- (b) a card that contradicts the deal ---------------------------------------------------


def test_a_crib_card_already_played_is_asked_about_and_the_crib_waits() -> None:
    t = table()
    play(t, DEAL)
    assert t.game.crib_next
    for card in ("10C", "2D", "8S"):
        lay(t, card, "crib")
    scores = t.game.scores
    lay(t, "KD", "crib")  # the crib's KC read as KD, which player 0 played
    q = t.question
    assert q is not None and "Player 1's card" in q.text
    assert t.game.crib_next and t.game.scores == scores  # the crib is not counted
    assert q.actions[0] == Crib((C("KC"),))
    t.on_press(Press("confirm"))
    assert not t.game.crib_next and t.waiting_for_next_deal
    crib = t.game.records[-1].action
    assert isinstance(crib, Crib) and set(crib.cards) == {C("10C"), C("2D"), C("8S"), C("KC")}


def test_one_card_cut_by_two_players_is_not_taken_twice() -> None:
    t = TableSession(GameOptions(players=2, dealer=None), GameLog(None))
    lay(t, "5H", "player 0")
    lay(t, "5H", "player 1")  # player 1's card read as player 0's
    assert t.game.phase == "cut_for_deal" and t.cut_cards == {0: C("5H")}
    assert t.question is None and "5H" in t.message  # nothing to choose: a notice
    lay(t, "9C", "player 1")  # player 1's card read right
    assert t.game.dealer == 0


# -- (d) a question that offers no choice never swallows a press ----------------------------


def test_a_card_no_one_can_play_is_a_notice_and_the_go_still_counts() -> None:
    t = table()
    play(t, DEAL[:4])  # count 29, player 1 to play
    lay(t, "5S", "player 0")  # out of turn, and past 31 for player 1 too
    assert t.question is None and "5S" in t.message and t.game.count == 29
    t.on_press(Press("go", 1))  # player 1 says go: the press is not swallowed
    assert t.game.records[-1].action == Go(1)


def test_an_unclear_card_with_no_legal_reading_is_a_notice() -> None:
    t = table()
    play(t, DEAL[:4])  # count 29
    t.on_track(CardUnsure((C("5S"), C("5C")), "player 1", (0, 0)))  # either is past 31
    assert t.question is None and "unclear" in t.message
    t.on_press(Press("go", 1))
    assert t.game.records[-1].action == Go(1)


# -- (e) an incomplete crib asks about its missing card; the next deal waits ----------------


def test_an_unclear_crib_card_read_early_is_asked_when_the_crib_is_next() -> None:
    t = table(muggins=True)
    play(t, DEAL[:-1])
    lay(t, "3H", "player 0")  # the last card: player 1's hand to claim
    assert t.game.phase == "claim"
    # the crib is turned up while the hands are still being counted; one card is unclear
    t.on_track(CardUnsure((C("2D"), C("2H")), "crib", (0, 0)))
    assert t.question is None  # not asked yet: the claims' presses still work
    claims = 0
    while t.game.phase == "claim":
        t.on_press(Press("go"))  # claim one point (the presses are not swallowed)
        t.on_press(Press("confirm"))
        claims += 1
        if t.muggins_open:
            t.on_press(Press("confirm"))  # nobody calls muggins
    assert claims == 2 and t.game.crib_next
    q = t.question
    assert q is not None and q.actions == [Crib((C("2D"),)), Crib((C("2H"),))]
    t.on_press(Press("confirm"))
    for card in ("10C", "8S", "QC"):
        lay(t, card, "crib")
    crib = t.game.records[-1].action
    assert isinstance(crib, Crib) and set(crib.cards) == {C("2D"), C("10C"), C("8S"), C("QC")}


def test_an_incomplete_crib_asks_for_its_card_and_the_next_deal_waits() -> None:
    t = table()
    play(t, DEAL)
    for card in ("10C", "2D", "8S"):
        lay(t, card, "crib")  # the fourth is never read
    t.on_track(MatCleared())  # the players gather the cards
    assert "missing card" in t.message and "next deal" in t.message
    t.on_press(Press("confirm"))  # no next deal while the crib is open
    assert t.game.crib_next and not t.waiting_for_next_deal
    assert "missing card" in t.snapshot().prompt
    lay(t, "9H", "starter")  # the next deal's starter: not scored
    assert t.game.starter == C("7H") and t.game.crib_next
    scores = t.game.scores
    lay(t, "QS", "crib")  # a card on the crib spot now may be the next deal's
    q = t.question
    assert q is not None and "missing card" in q.text and q.actions == [Crib((C("QS"),))]
    assert t.game.scores == scores and t.game.crib_next  # not counted into the old crib
    t.on_press(Press("undo"))  # it is not
    assert t.question is None and t.crib_cards == [C("10C"), C("2D"), C("8S")]
    t.on_typed(TypedCard(C("QC")))  # the missing card typed in
    assert not t.game.crib_next and t.waiting_for_next_deal
    assert C("QS") not in scored_cards(t) and C("9H") not in scored_cards(t)
    t.on_press(Press("confirm"))
    lay(t, "9H", "starter")
    assert t.game.starter == C("9H")


def test_an_unclear_crib_card_is_offered_only_as_cards_not_elsewhere() -> None:
    t = table()
    play(t, DEAL)
    for card in ("10C", "2D", "8S"):
        lay(t, card, "crib")
    t.on_track(CardUnsure((C("KD"), C("QC")), "crib", (0, 0)))  # KD is player 0's
    q = t.question
    assert q is not None and q.actions == [Crib((C("QC"),))]
    t.on_press(Press("confirm"))
    crib = t.game.records[-1].action
    assert isinstance(crib, Crib) and set(crib.cards) == {C("10C"), C("2D"), C("8S"), C("QC")}


# -- (c) a place whose reads flip between two cards -----------------------------------------


def test_a_place_read_two_ways_asks_and_a_later_sure_read_does_not_answer_it() -> None:
    t = table()
    play(t, DEAL[:1])  # player 1: 10S
    t.on_track(CardUnsure((C("9C"), C("9S")), "player 0", (0, 0), flipped=True))
    q = t.question
    assert q is not None and "read two ways" in q.text
    assert q.actions == [Play(0, C("9C")), Play(0, C("9S"))]
    # 9C read for sure elsewhere in the zone (the card's other corner?) settles nothing
    lay(t, "9C", "player 0")
    assert t.question is q and t.game.played(0) == ()
    t.on_press(Press("go"))
    t.on_press(Press("confirm"))
    assert t.game.played(0) == (C("9S"),)


def test_a_crib_never_read_keeps_the_next_deal_s_crib_card_out() -> None:
    t = table()
    play(t, DEAL)  # the crib is next, but none of it has been read
    t.on_press(Press("confirm"))  # the players want the next deal
    assert t.game.crib_next and "crib" in t.message and "next deal waits" in t.message
    lay(t, "QS", "crib")  # a card on the crib spot is asked about, not counted
    assert t.question is not None and t.game.crib_next and t.crib_cards == []


def test_a_restart_keeps_the_doubts() -> None:
    t = table()
    play(t, DEAL)
    lay(t, "10C", "crib")
    t.on_press(Press("confirm"))  # moved on from an incomplete crib
    t.on_track(CardUnsure((C("2D"), C("2H")), "crib", (0, 0), flipped=True))
    again = TableSession(t.options, GameLog(None, None, list(t.log.memory)))  # resumed
    assert again.restore(json.loads(json.dumps(t.state())))
    assert again.crib_interrupted and again.crib_cards == [C("10C")]
    assert again.question is not None and not again.question.read_answers


# -- (h) a card found and not read offers what its corner's unsure read saw ----------------


def test_a_card_found_unread_offers_its_corner_guesses_first_then_any_card() -> None:
    t = table()
    play(t, DEAL[:2])  # 10S, 5D: player 1 to play
    guessed = CardUnsure((C("4C"), C("4S")), "player 1", (0, 0), unread=True)
    t.on_track(guessed)
    q = t.question
    assert q is not None and q.unread and "not read" in q.text
    assert q.stage == "pick" and q.actions == [Play(1, C("4C")), Play(1, C("4S"))]
    t.on_track(CardLaid(C("4C"), "player 1", (0, 0)))  # a read later is a card laid after it
    assert t.question is q and len(t.game.records) < 5
    t.on_press(Press("go", 1))  # 4S, then every other card by rank
    t.on_press(Press("go", 1))
    assert q.stage == "rank"
    t = table()
    play(t, DEAL[:2])
    t.on_track(CardUnsure((), "player 1", (0, 0), unread=True))  # no guess: by rank at once
    assert t.question is not None and t.question.stage == "rank"


def test_an_unread_card_s_guess_of_a_card_already_played_is_not_offered() -> None:
    t = table()
    play(t, DEAL[:2])
    t.on_track(CardUnsure((C("10S"), C("4C")), "player 1", (0, 0), unread=True))
    assert t.question is not None and t.question.actions == [Play(1, C("4C"))]
