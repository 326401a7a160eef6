"""Playing cards as frozen values with a notation that round-trips.

``Card.parse`` accepts what people and other programs write (``5H``, ``10h``, ``TH``,
``10♥``, ``Q♠``); ``str(card)`` writes the canonical form (``10H``), which parses back.
``Card.index`` numbers the deck 0..51 (suit-major: clubs, diamonds, hearts, spades; ace
to king), the form the batch scorer and the camera use.

>>> Card.parse("10♥")
Card('10H')
>>> Card.from_index(Card.parse("JS").index)
Card('JS')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from crib_pi.errors import CardNotationError, DuplicateCardError
from crib_pi.i18n import _

SUITS = "CDHS"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_RANK_ALIASES = {name: i + 1 for i, name in enumerate(RANK_NAMES)} | {"T": 10}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card: ``rank`` 1 (ace) to 13 (king) and ``suit`` one of ``C D H S``."""

    rank: int
    suit: str

    JACK: ClassVar[int] = 11

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise CardNotationError(
                _("card rank {rank!r} is not 1 (ace) to 13 (king)").format(rank=self.rank)
            )
        if self.suit not in SUITS or len(self.suit) != 1:
            raise CardNotationError(
                _("card suit {suit!r} is not one of C, D, H, S").format(suit=self.suit)
            )

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``5H``, ``10H``, ``TH``, ``th``, ``10♥``; raise naming the input otherwise."""
        if not isinstance(text, str):
            raise CardNotationError(
                _("card {text!r} is not text like '5H' or '10♥'").format(text=text)
            )
        # Phones type suit symbols with a variation selector (U+FE0F, emoji style): drop it.
        cleaned = text.strip().replace("\ufe0f", "").replace("\ufe0e", "")
        if len(cleaned) < 2:
            raise CardNotationError(
                _("card {text!r} is not a rank and a suit like '5H' or '10♥'").format(text=text)
            )
        rank_text, suit_text = cleaned[:-1].strip().upper(), cleaned[-1]
        suit = SUIT_SYMBOLS.get(suit_text, suit_text.upper())
        if suit not in SUITS:
            raise CardNotationError(
                _("card {text!r}: suit {suit_text!r} is not C, D, H, S or ♣♦♥♠").format(
                    text=text, suit_text=suit_text
                )
            )
        rank = _RANK_ALIASES.get(rank_text)
        if rank is None:
            raise CardNotationError(
                _("card {text!r}: rank {rank_text!r} is not A, 2-10 (or T), J, Q or K").format(
                    text=text, rank_text=rank_text
                )
            )
        return cls(rank, suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card numbered ``index`` (0..51, suit-major)."""
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < 52:
            raise CardNotationError(_("card index {index!r} is not 0..51").format(index=index))
        return cls(index % 13 + 1, SUITS[index // 13])

    @property
    def index(self) -> int:
        """0..51: clubs A..K are 0..12, then diamonds, hearts, spades."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @property
    def value(self) -> int:
        """Counting value: ace 1, two to ten face value, court cards 10."""
        return min(self.rank, 10)

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank - 1]

    @property
    def is_jack(self) -> bool:
        return self.rank == self.JACK

    def __str__(self) -> str:
        return f"{self.rank_name}{self.suit}"

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def deck() -> list[Card]:
    """All 52 cards in index order."""
    return [Card.from_index(i) for i in range(52)]


def parse_cards(texts: Iterable[str | Card], *, unique: bool = True) -> tuple[Card, ...]:
    """Parse many cards; with ``unique`` a card written twice is an error naming it."""
    cards = tuple(t if isinstance(t, Card) else Card.parse(t) for t in texts)
    if unique:
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise DuplicateCardError(
                    _("{card} appears twice in {join}").format(
                        card=card, join=" ".join(map(str, cards))
                    )
                )
            seen.add(card)
    return cards


def cards_text(cards: Iterable[Card]) -> str:
    """``5H 5D JS``: how cards are written in messages."""
    return " ".join(str(c) for c in cards)
