"""The discard coach against a slow count of every crib and starter, and its command."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from itertools import combinations

import numpy as np
import pytest

import crib_pi.coach
from crib_pi.cards import Card, deck, parse_cards
from crib_pi.coach import DiscardChoice, compare_discard, rank_discards
from crib_pi.errors import CribError
from crib_pi.scoring import score_hand, score_hands

# Hands chosen so every term is exercised: a suited discard (crib flush), a jack laid away, a
# jack kept, jacks unseen, pairs and runs; for 3 and 4 players a discard of each kind too.
HANDS = {
    2: ["7C 9H 5H 5C 5D JS", "JH 5H 2H 8H QC KD", "AC 2C 3C 4C JC 10D"],
    3: ["JD 5D 6D 4S KH", "JC 4C 7C 8C 9C"],
    4: ["JD 5D 6D 4S KH", "5S 5H 10D QS JS"],
}


def brute_force(held: tuple[Card, ...], players: int) -> dict[frozenset[Card], tuple[float, ...]]:
    """Hand mean, min, max and crib mean per discard, by listing every starter and every crib.

    The hand is scored card by card with ``score_hand``; the crib lists every set of the crib's
    other cards (2 of the unseen for two players, 3 for three or four) with every starter left,
    and scores each with the batch scorer (``score_hands``, which test_oracle checks over every
    show and test_scoring against ``score_hand``; here 200 of each discard's cribs are scored
    card by card as well).
    """
    unseen = [c for c in deck() if c not in held]
    others = 2 if players == 2 else 3
    rng = np.random.default_rng(len(held) * 100 + players)
    out: dict[frozenset[Card], tuple[float, ...]] = {}
    for laid in combinations(held, len(held) - 4):
        keep = [c for c in held if c not in laid]
        shows = [score_hand(keep, s).total for s in unseen]
        cards = np.array([c.index for c in unseen])
        rest = np.array(list(combinations(cards, others)))  # every set of the other crib cards
        rest_rows = np.repeat(rest, len(cards), axis=0)
        starters = np.tile(cards, len(rest))  # ... with every starter
        fair = ~(rest_rows == starters[:, None]).any(axis=1)  # ... that is not one of them
        laid_rows = np.tile([c.index for c in laid], (len(rest_rows), 1))
        rows, starters = np.hstack([laid_rows, rest_rows])[fair], starters[fair]
        cribs = score_hands(rows, starters, crib=True)
        assert len(rows) == (45_540 if players == 2 else 713_460)
        for i in rng.choice(len(rows), 200, replace=False):  # the batch scorer, card by card
            crib = [Card.from_index(int(c)) for c in rows[i]]
            starter = Card.from_index(int(starters[i]))
            assert cribs[i] == score_hand(crib, starter, crib=True).total
        out[frozenset(laid)] = (
            sum(shows) / len(shows),
            min(shows),
            max(shows),
            float(cribs.mean()),
        )
    return out


@pytest.mark.parametrize(("players", "text"), [(p, h) for p, hands in HANDS.items() for h in hands])
def test_coach_equals_brute_force(players: int, text: str) -> None:
    held = parse_cards(text.split())
    slow = brute_force(held, players)
    for dealer in (True, False):
        choices = rank_discards(held, players=players, dealer=dealer)
        assert len(choices) == (15 if players == 2 else 5)
        assert {frozenset(c.discard) for c in choices} == set(slow)
        for c in choices:
            hand, low, high, crib = slow[frozenset(c.discard)]
            assert set(c.keep) | set(c.discard) == set(held)
            assert c.hand == pytest.approx(hand, abs=1e-9)
            assert (c.hand_min, c.hand_max) == (low, high)
            assert c.crib == pytest.approx(crib, abs=1e-9)
            assert c.net == pytest.approx(hand + crib if dealer else hand - crib, abs=1e-9)
        nets = [c.net for c in choices]
        assert nets == sorted(nets, reverse=True)


def test_crib_by_card_objects() -> None:
    """One discard's crib counted crib by crib with ``score_hand``, no batch scorer at all."""
    held = parse_cards("JH 5H 2H 8H QC KD".split())
    unseen = [c for c in deck() if c not in held]
    laid = (Card.parse("JH"), Card.parse("5H"))
    total = counted = 0
    for x, y in combinations(unseen, 2):
        for starter in unseen:
            if starter not in (x, y):
                total += score_hand((*laid, x, y), starter, crib=True).total
                counted += 1
    choice = next(c for c in rank_discards(held) if set(c.discard) == set(laid))
    assert choice.crib == pytest.approx(total / counted, abs=1e-9)


def test_three_and_four_players_share_the_crib_odds() -> None:
    """From one seat both tables hide 3 crib cards and the starter among 47 unseen."""
    three = rank_discards(parse_cards("JD 5D 6D 4S KH".split()), players=3)
    four = rank_discards(parse_cards("JD 5D 6D 4S KH".split()), players=4)
    assert three == four


def test_well_known_choices() -> None:
    """Four fives and a jack: keep them, lay the seven and nine away, as any player would."""
    best = rank_discards(parse_cards("7C 9H 5H 5C 5D JS".split()), dealer=False)[0]
    assert set(best.discard) == set(parse_cards(["7C", "9H"]))
    assert best.hand_max == 29  # the five of spades cut: the 29 hand


def test_compare_discard() -> None:
    choices = rank_discards(parse_cards("7C 9H 5H 5C 5D JS".split()))
    best = compare_discard(choices, ["9H", "7C"])
    assert best.is_best and best.place == 1 and best.lost == 0
    assert best.text().startswith("7C 9H is the best of 15")
    worse = compare_discard(choices, ["5C", "5D"])
    assert worse.place == 10 and worse.chosen.discard == (Card.parse("5C"), Card.parse("5D"))
    assert worse.lost == pytest.approx(choices[0].net - worse.chosen.net)
    assert "10th of 15" in worse.text()
    with pytest.raises(CribError, match="KS is not a discard"):
        compare_discard(choices, ["5C", "KS"])


@pytest.mark.parametrize(
    ("cards", "players", "message"),
    [
        ("7C 9H 5H 5C 5D", 2, "2 players hold 6 cards each, not 5"),
        ("7C 9H 5H 5C 5D JS", 3, "3 players hold 5 cards each, not 6"),
        ("7C 9H 5H 5C 5D 5D", 2, "5D appears twice"),
        ("7C 9H 5H 5C 5D JS", 5, "players 5 is not 2, 3 or 4"),
    ],
)
def test_refuses_bad_hands(cards: str, players: int, message: str) -> None:
    with pytest.raises(CribError, match=message):
        rank_discards(cards.split(), players=players)


def test_docstring_example() -> None:
    assert doctest.testmod(crib_pi.coach).failed == 0


def crib_pi_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "crib_pi", "discard", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_command_json_and_text() -> None:
    out = crib_pi_cli("7C", "9H", "5H", "5C", "5D", "JS", "--pone", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert len(data) == 15
    assert set(data[0]) == {"discard", "keep", "hand", "hand_min", "hand_max", "crib", "net"}
    expected = rank_discards(parse_cards("7C 9H 5H 5C 5D JS".split()), dealer=False)
    assert data == [c.as_json() for c in expected]
    assert data[0]["net"] == pytest.approx(data[0]["hand"] - data[0]["crib"])
    dealer = json.loads(
        crib_pi_cli("JD", "5D", "6D", "4S", "KH", "--players", "4", "--json").stdout
    )
    assert len(dealer) == 5 and dealer[0]["net"] == pytest.approx(
        dealer[0]["hand"] + dealer[0]["crib"]
    )
    text = crib_pi_cli("7C", "9H", "5H", "5C", "5D", "JS")
    lines = text.stdout.splitlines()
    assert "dealer (net = hand + crib)" in lines[0]
    assert lines[2].split()[:2] == ["7C", "9H"] and "14-29" in lines[2]
    assert len(lines) == 2 + 15


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["7C", "9H", "5H", "5C", "5D"], "2 players hold 6 cards each, not 5: 7C 9H 5H 5C 5D"),
        (["7C", "9H", "5H", "5C", "5D", "JS", "--players", "4"], "4 players hold 5 cards"),
        (["7C", "9H", "5H", "5C", "5D", "5C"], "5C appears twice"),
        (["7C", "9H", "5H", "5C", "5D", "1S"], "'1S'"),
        (["7C", "9H", "5H", "5C", "5D", "--players", "five"], "--players 'five'"),
    ],
)
def test_command_errors_are_one_line(args: list[str], message: str) -> None:
    out = crib_pi_cli(*args)
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_choices_are_frozen() -> None:
    choice = rank_discards(parse_cards("AC 2C 3C 4C JC 10D".split()))[0]
    assert isinstance(choice, DiscardChoice)
    with pytest.raises(AttributeError):
        choice.net = 0.0  # type: ignore[misc]
