"""Every case in tests/data/oracles/rules_cases.jsonl, run through the public API."""

from __future__ import annotations

import pytest

from crib_pi.actions import Crib, Cut, Deal, Discard, GameOptions, Go, Play, Show
from crib_pi.cards import Card
from crib_pi.game import Game, GameResult
from crib_pi.pegging import Pegging
from crib_pi.scoring import score_hand, score_play
from tests.conftest import RankDealer, rules_cases

REASONS = {"pairs": "pair", "thirtyone": "thirty_one", "fifteen": "fifteen", "run": "run"}


@pytest.mark.parametrize("case", rules_cases("pile"), ids=lambda c: str(c["id"]))
def test_pile(case: dict) -> None:
    dealer = RankDealer()
    score = score_play([dealer.card(r) for r in case["pile"]])
    assert score.total == case["expected"], case["desc"]
    assert score.by_reason() == {REASONS[k]: v for k, v in case["breakdown"].items()}


@pytest.mark.parametrize("case", rules_cases("show"), ids=lambda c: str(c["id"]))
def test_show(case: dict) -> None:
    score = score_hand(case["hand"], case["starter"], crib=case["is_crib"])
    assert score.total == case["expected"], case["desc"]


def _points_by_player(players: int, awards: list) -> list[int]:
    points = [0] * players
    for player, item in awards:
        points[player] += item.points
    return points


@pytest.mark.parametrize("case", rules_cases("play"), ids=lambda c: str(c["id"]))
def test_play_with_known_hands(case: dict) -> None:
    """Lay the case's cards in its order; whoever is to play before them must say go.

    The engine knows the hands, so each go is checked, and the points of every play and
    every go / last card must match the case's log.
    """
    dealer = RankDealer()
    hands = [[dealer.card(r) for r in h.split()] for h in case["hands_in_lay_order"]]
    n = len(hands)
    peg = Pegging(players=n, leader=case["leader"], hands=[tuple(h) for h in hands])
    log: list[list] = []
    awards: list = []

    def record(got: list) -> None:
        for who, item in got:
            if item.reason in ("go", "last_card"):
                log.append([{"go": "go", "last_card": "last"}[item.reason], who, 1])
        awards.extend(got)

    for kind, player, rank, count, _points in (e for e in case["log"] if e[0] == "play"):
        card = next(c for c in hands[player] if c.rank == rank and c not in peg.played[player])
        while peg.turn != player or peg.count + card.value > 31:
            assert peg.turn is not None, case["desc"]
            record(peg.go(peg.turn))
        got = peg.play(player, card)
        assert sum(c.value for c in peg.pile) in (count, 0)
        made = sum(i.points for _, i in got if i.reason not in ("go", "last_card"))
        log.append([kind, player, rank, count, made])
        record(got)
    while peg.turn is not None:
        record(peg.go(peg.turn))
    assert _points_by_player(n, awards) == case["expected_points"], case["desc"]
    assert log == case["log"]


@pytest.mark.parametrize("case", rules_cases("series"), ids=lambda c: str(c["id"]))
def test_series_with_hidden_hands(case: dict) -> None:
    """Cards and go's in turn order from player 0; then everyone says go until it resets."""
    n = case["players"]
    peg = Pegging(players=n, leader=0)
    awards: list = []
    for event in case["events"]:
        assert peg.turn is not None
        awards += peg.go(peg.turn) if event == "GO" else peg.play(peg.turn, Card.parse(event))
    while peg.pile:
        assert peg.turn is not None
        awards += peg.go(peg.turn)
    assert _points_by_player(n, awards) == case["expected_points"], case["desc"]


def _finished(target: int, loser: int, triple: bool = False) -> str:
    """Play a 2-player game to the end with the loser on ``loser`` points (via his heels)."""
    from crib_pi.game import _finish, _new_state

    state = _new_state(GameOptions(target=target, triple_skunk=triple))
    state.scores = [target, loser]
    _finish(state, 0)
    result: GameResult = state.results[-1]
    return result.skunk


@pytest.mark.parametrize(
    "case", [c for c in rules_cases("game") if c["id"].startswith("K")], ids=lambda c: c["id"]
)
def test_skunk_lines(case: dict) -> None:
    _, target, loser = case["id"].replace("K", "").partition("-")[0], *case["id"][1:].split("-")
    target, loser = int(target), int(loser)
    expected = case["expected"]
    if expected.startswith("triple"):
        assert _finished(target, loser, triple=True) == "triple"
        assert _finished(target, loser, triple=False) == "double"
    else:  # the case file says "normal" for a win without a skunk; the engine says "none"
        assert _finished(target, loser) == {"normal": "none"}.get(expected, expected)


def _known_game(dealer: int = 0) -> Game:
    return Game(GameOptions(players=2, dealer=dealer))


def test_e01_pone_counts_first_and_wins() -> None:
    """Pone at 115 counts 6 first and wins; the dealer's 20 hand and crib are never counted."""
    g = _known_game(dealer=0)
    pone = [Card.parse(c) for c in "2C 3D 4H 9S".split()]  # with AH: 15 two, run of 4 = 10
    dealer_hand = [Card.parse(c) for c in "5C 5D 5H JS".split()]
    crib = [Card.parse(c) for c in "KC QC 8D 7D".split()]
    starter = Card.parse("AH")
    g.apply(Deal((tuple(dealer_hand + crib[:2]), tuple(pone + crib[2:]))))
    g.apply(Discard(0, tuple(crib[:2])))
    g.apply(Discard(1, tuple(crib[2:])))
    g.apply(Cut(starter))
    # play out with the fewest points: alternate, saying go when stuck
    while g.phase == "play":
        p = g.turn
        assert p is not None
        fits = g.legal_plays(p)
        g.apply(Play(p, fits[0]) if fits else Go(p))
    assert g.phase == "show"
    g._state.scores = [118, 115]  # put the pegs where the case has them, before the show
    record = g.apply(Show(1, tuple(pone)))
    assert sum(e.points for e in record.events) == 6  # capped at the target
    assert g.winner == 1
    assert g.scores[1] == 121
    assert g.phase == "over"
    assert not g.can(Show(0, tuple(dealer_hand)))
    assert not g.can(Crib(tuple(crib)))


def test_e02_his_heels_wins_before_play() -> None:
    g = _known_game(dealer=0)
    g._state.scores = [119, 50]
    record = g.apply(Cut(Card.parse("JD")))
    assert record.events[0].reason == "his_heels"
    assert g.scores == (121, 50)
    assert g.winner == 0
    assert not g.can(Play(1, Card.parse("5H")))


def test_e03_game_ends_mid_play() -> None:
    g = _known_game(dealer=0)
    g._state.scores = [100, 119]
    g.apply(Cut(Card.parse("2C")))
    g.apply(Play(1, Card.parse("7H")))
    record = g.apply(Play(0, Card.parse("8H")))  # 15 for player 0
    assert g.scores == (102, 119)
    record = g.apply(Play(1, Card.parse("8S")))  # pair: player 1 reaches 121
    assert record.events[-1].reason == "pair"
    assert g.scores == (102, 121)
    assert g.winner == 1
    assert not g.can(Play(0, Card.parse("9H")))
