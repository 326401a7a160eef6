"""The game engine: refusals that leave the game as it was, the show, muggins, undo, matches."""

from __future__ import annotations

import copy

import pytest

from crib_pi.actions import (
    Claim,
    Crib,
    Cut,
    CutForDeal,
    Deal,
    Discard,
    GameOptions,
    Go,
    Muggins,
    Play,
    Show,
)
from crib_pi.cards import Card, parse_cards
from crib_pi.errors import CribError, DuplicateCardError, IllegalActionError
from crib_pi.game import Game


def C(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


# A known 2-player deal: dealer 0. Player 1 keeps 5H 6D 7C 8S, player 0 keeps 9H 10D JC QS.
DEAL = Deal((cards("9H 10D JC QS 2C 3C"), cards("5H 6D 7C 8S 4D AD")))


def known_game(muggins: bool = False) -> Game:
    g = Game(GameOptions(players=2, dealer=0, muggins=muggins))
    g.apply(DEAL)
    g.apply(Discard(0, cards("2C 3C")))
    g.apply(Discard(1, cards("4D AD")))
    g.apply(Cut(C("KS")))
    return g


def state_of(g: Game) -> object:
    return copy.deepcopy(g._state)


def refused(g: Game, action: object, match: str) -> None:
    before = state_of(g)
    records = g.records
    with pytest.raises(CribError, match=match):
        g.apply(action)  # type: ignore[arg-type]
    assert state_of(g) == before
    assert g.records == records


def test_refusals_leave_the_game_unchanged() -> None:
    g = known_game()
    refused(g, Play(0, C("9H")), "it is Player 2's turn")
    refused(g, Play(1, C("9H")), "Player 2 was not dealt 9H")
    refused(g, Play(1, C("4D")), "4D was laid away to the crib")
    refused(g, Go(1), "leads: any card fits")
    refused(g, Play(5, C("5H")), "no player 5 in a 2-player game")
    g.apply(Play(1, C("8S")))
    g.apply(Play(0, C("QS")))  # 18
    g.apply(Play(1, C("7C")))  # 25
    refused(g, Play(0, C("9H")), "9H would make the count 34")
    refused(g, Play(0, C("8S")), "8S was already played")
    assert g.can(Go(0))


def test_already_played_and_starter() -> None:
    g = Game(GameOptions(players=2, dealer=0))  # hidden hands
    g.apply(Cut(C("KS")))
    g.apply(Play(1, C("5H")))
    with pytest.raises(DuplicateCardError, match="5H was already played"):
        g.apply(Play(0, C("5H")))
    with pytest.raises(DuplicateCardError, match="KS is the starter"):
        g.apply(Play(0, C("KS")))


def test_go_with_a_card_that_fits_is_refused_when_hands_are_known() -> None:
    g = known_game()
    g.apply(Play(1, C("8S")))
    g.apply(Play(0, C("QS")))
    g.apply(Play(1, C("7C")))  # 25
    g.apply(Go(0))  # nothing fits for player 0: 9, 10, J all > 6
    refused(g, Go(1), "5H fits the count of 25")
    r = g.apply(Play(1, C("5H")))  # 30
    assert [e.reason for e in r.events] == []
    r = g.apply(Play(1, C("6D"))) if g.can(Play(1, C("6D"))) else g.apply(Go(1))
    assert [e.reason for e in r.events] == ["go"] and r.events[0].player == 1
    assert g.turn == 0 and g.count == 0


def test_hidden_hands_checked_at_the_show() -> None:
    g = Game(GameOptions(players=2, dealer=0))
    g.apply(Cut(C("2S")))
    g.apply(Play(1, C("KH")))
    g.apply(Play(0, C("QH")))  # 20
    g.apply(Go(1))  # taken on trust
    g.apply(Play(0, C("JH")))  # 30: player 1 has said go, so player 0 goes on
    r = g.apply(Go(0))
    assert [(e.player, e.reason) for e in r.events] == [(0, "go")]
    for p, c in [(1, "3C"), (0, "4C"), (1, "5C"), (0, "6C"), (1, "7D")]:
        g.apply(Play(p, C(c)))
    assert g.phase == "show"
    r = g.apply(Show(1, cards("KH 3C 5C AD")))  # shows AD instead of 7D, held AD at the go
    assert any("played KH 3C 5C 7D" in p for p in r.problems)
    assert any("said go at 20 while holding" in p for p in r.problems)
    with pytest.raises(DuplicateCardError, match="KH belongs to Player 2"):
        g.apply(Show(0, cards("QH JH 4C KH")))
    r = g.apply(Show(0, cards("QH JH 4C 6C")))
    assert r.problems == ()


def test_show_order_and_crib() -> None:
    g = known_game()
    _to_show(g)
    refused(g, Show(0, cards("9H 10D JC QS")), "Player 2 shows next")
    refused(g, Crib(cards("2C 3C 4D AD")), "Player 2 shows before the crib")
    refused(g, Show(1, cards("5H 6D 7C 9H")), "9H belongs to Player 1")
    g.apply(Show(1, cards("5H 6D 7C 8S")))
    g.apply(Show(0, cards("9H 10D JC QS")))
    refused(g, Crib(cards("2C 3C 4D 2D")), "the crib is")
    r = g.apply(Crib(cards("2C 3C 4D AD")))
    assert {e.phase for e in r.events} == {"crib"}
    assert g.phase == "deal" and g.dealer == 1


def _to_show(g: Game) -> None:
    while g.phase == "play":
        p = g.turn
        assert p is not None
        legal = g.legal_plays(p)
        g.apply(Play(p, legal[0]) if legal else Go(p))


def test_muggins_short_claim_can_be_taken_once_by_an_opponent() -> None:
    g = known_game(muggins=True)
    _to_show(g)
    before = g.scores
    g.apply(Show(1, cards("5H 6D 7C 8S")))  # with KS: 15s 5-K, 7-8, 6-... = see true score
    assert g.phase == "claim" and g.turn == 1
    refused(g, Claim(0, 4), "Player 2 counts this hand")
    refused(g, Claim(1, 30), "out of range")
    true = 2 * 2 + 4  # 5+K, 7+8 fifteens; run of four
    r = g.apply(Claim(1, 4))
    assert r.missed is not None and r.missed.shortfall == true - 4
    assert sum(i.points for i in r.missed.items) == true - 4
    assert g.scores[1] == before[1] + 4
    refused(g, Muggins(1), "cannot take points from their own side")
    r = g.apply(Muggins(0))
    assert r.events[0].points == true - 4 and r.events[0].reason == "muggins"
    refused(g, Muggins(0), "nothing to take")


def test_muggins_lapses_after_the_next_action_and_over_claims_peg_true() -> None:
    g = known_game(muggins=True)
    _to_show(g)
    g.apply(Show(1, cards("5H 6D 7C 8S")))
    g.apply(Claim(1, 0))
    g.apply(Show(0, cards("9H 10D JC QS")))
    refused(g, Muggins(0), "nothing to take")
    score_before = g.scores[0]
    r = g.apply(Claim(0, 29))
    assert r.problems and "claimed 29" in r.problems[0]
    assert g.scores[0] - score_before == r.events[0].points < 29


def test_claim_with_muggins_off_is_refused() -> None:
    g = known_game()
    _to_show(g)
    g.apply(Show(1, cards("5H 6D 7C 8S")))
    refused(g, Claim(0, 10), "muggins is off")


def test_undo_restores_exactly_and_redo_matches() -> None:
    g = known_game()
    states = [state_of(g)]
    records = []
    for _ in range(5):
        p = g.turn
        assert p is not None
        legal = g.legal_plays(p)
        action = Play(p, legal[0]) if legal else Go(p)
        records.append((action, g.apply(action)))
        states.append(state_of(g))
    for i in range(5):
        g.undo()
        assert state_of(g) == states[-2 - i]
    for action, record in records:
        assert g.apply(action) == record
    assert state_of(g) == states[-1]
    g.undo(3)
    assert state_of(g) == states[2]
    with pytest.raises(IllegalActionError, match="only"):
        g.undo(100)


def test_cut_for_deal_ties_cut_again() -> None:
    g = Game(GameOptions(players=3, dealer=None))
    refused(g, Cut(C("5H")), "cannot cut the starter now")
    r = g.apply(CutForDeal(cards("5H 5D KS")))
    assert "cut again" in r.text and g.dealer is None
    g.apply(CutForDeal(cards("9H 2D KS")))
    assert g.dealer == 1 and g.phase == "deal"


def test_three_players_crib_card_and_four_player_sides() -> None:
    g = Game(GameOptions(players=3, dealer=2))
    hands = (cards("AH 2H 3H 4H 5H"), cards("AS 2S 3S 4S 5S"), cards("AD 2D 3D 4D 5D"))
    g.apply(Deal(hands, C("KC")))
    for p in range(3):
        g.apply(Discard(p, hands[p][4:]))
    g.apply(Cut(C("9C")))
    assert g.turn == 0
    _to_show(g)
    g.apply(Show(0, hands[0][:4]))
    g.apply(Show(1, hands[1][:4]))
    g.apply(Show(2, hands[2][:4]))
    refused(g, Crib(cards("5H 5S 5D QC")), "the crib is")
    r = g.apply(Crib(cards("5H 5S 5D KC")))
    assert sum(e.points for e in r.events) == 14  # pair royal 6 + fifteens 5-5-5 and 5-K x3
    g4 = Game(GameOptions(players=4, dealer=3))
    g4.apply(Cut(C("JH")))  # his heels to player 3, side 1
    assert g4.scores == (0, 2)
    g4.apply(Play(0, C("5H")))
    g4.apply(Play(1, C("KH")))  # 15 for player 1 -> side 1
    g4.apply(Play(2, C("KD")))  # pair for player 2 -> side 0
    assert g4.scores == (2, 4)


def test_next_game_loser_deals_and_match_points() -> None:
    g = Game(GameOptions(players=2, dealer=0, target=61))
    g._state.scores = [59, 20]
    g.apply(Cut(C("JS")))  # his heels wins for the dealer, player 0; 20 <= 30 is a skunk
    assert g.winner == 0 and g.results[-1].skunk == "skunk" and g.results[-1].match_points == 2
    refused(g, Play(1, C("5H")), "the game is over")
    g.apply(Cut(C("5D")))  # starts the next game: the loser deals
    assert g.dealer == 1 and g.scores == (0, 0) and g.turn == 0
    snap = g.snapshot()
    assert snap.sides[0].games_won == 1 and snap.sides[0].match_points == 2


def test_deal_known_without_discards() -> None:
    """A record may give the deal but not the discards: plays must come from the dealt cards,
    go's are taken on trust and checked at the show, and the crib is what was not shown."""
    g = Game(GameOptions(players=2, dealer=0))
    g.apply(DEAL)
    g.apply(Cut(C("KS")))
    refused(g, Play(1, C("9H")), "Player 2 was not dealt 9H")
    g.apply(Play(1, C("8S")))
    g.apply(Play(0, C("QS")))
    g.apply(Play(1, C("7C")))  # 25
    g.apply(Go(0))  # on trust: player 0 might hold 2C or 3C
    for p, c in [(1, "5H"), (1, "AD"), (0, "9H"), (0, "10D"), (0, "JC")]:
        if g.turn != p:
            g.apply(Go(g.turn))  # type: ignore[arg-type]
        g.apply(Play(p, C(c)))
    assert g.phase == "show"
    refused(g, Show(1, cards("8S 7C 5H 3C")), "Player 2 was not dealt 3C")
    r = g.apply(Show(1, cards("8S 7C 5H AD")))
    assert r.problems == ()
    r = g.apply(Show(0, cards("QS 9H 10D JC")))
    assert r.problems == ()


def test_dealer_chosen_by_hand() -> None:
    from crib_pi.actions import ChooseDealer

    g = Game(GameOptions(players=2, dealer=None))
    refused(g, ChooseDealer(2), "no player 2")
    g.apply(ChooseDealer(1))
    assert g.dealer == 1 and g.phase == "deal"
    refused(g, ChooseDealer(0), "cannot choose the dealer now")


def test_can_says_no_to_duplicates_rather_than_raising() -> None:
    g = Game(GameOptions(players=2, dealer=0))
    g.apply(Cut(C("3S")))
    assert not g.can(Play(1, C("3S")))  # the starter
    g.apply(Play(1, C("5H")))
    assert not g.can(Play(0, C("5H")))  # already played
