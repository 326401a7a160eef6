"""Card notation round-trips, and bad notation is refused naming the input."""

from __future__ import annotations

import pytest

from crib_pi.cards import Card, deck, parse_cards
from crib_pi.errors import CardNotationError, DuplicateCardError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("5H", 5, "H"),
        ("10H", 10, "H"),
        ("TH", 10, "H"),
        ("th", 10, "H"),
        ("10♥", 10, "H"),
        ("q♠", 12, "S"),
        ("A♣", 1, "C"),
        ("KD", 13, "D"),
        (" jc ", 11, "C"),
        ("2♢", 2, "D"),
    ],
)
def test_parse_forms(text: str, rank: int, suit: str) -> None:
    assert Card.parse(text) == Card(rank, suit)


def test_every_card_round_trips() -> None:
    cards = deck()
    assert len(set(cards)) == 52
    for i, card in enumerate(cards):
        assert card.index == i
        assert Card.from_index(i) == card
        assert Card.parse(str(card)) == card
        assert eval(repr(card), {"Card": Card.parse}) == card  # repr parses back


@pytest.mark.parametrize("bad", ["", "5", "1H", "11H", "5X", "HH", "10", "ZZ", "5HH", "0S", "♥10"])
def test_bad_notation_quotes_the_input(bad: str) -> None:
    with pytest.raises(CardNotationError) as err:
        Card.parse(bad)
    assert repr(bad) in str(err.value)


def test_bad_index_and_values() -> None:
    with pytest.raises(CardNotationError, match="52"):
        Card.from_index(52)
    with pytest.raises(CardNotationError):
        Card(14, "H")
    with pytest.raises(CardNotationError):
        Card(5, "X")


def test_duplicates_are_named() -> None:
    with pytest.raises(DuplicateCardError, match="5H appears twice"):
        parse_cards(["5H", "6D", "5h"])


def test_values() -> None:
    assert [Card.parse(t).value for t in ("AS", "9S", "10S", "JS", "QS", "KS")] == [
        1,
        9,
        10,
        10,
        10,
        10,
    ]
