"""What recognition returns: cards read with confidence, and uncertain indices with candidates."""

from __future__ import annotations

from dataclasses import dataclass

from crib_pi.cards import Card

Point = tuple[float, float]


@dataclass(frozen=True)
class CardRead:
    """A card named with confidence; ``corners`` outline its index (rank and suit) in the image;
    ``opposite``, where the card's other corner index was read too and agreed, outlines that one
    (both at one card's corners: the card is whole in view)."""

    card: Card
    confidence: float
    corners: tuple[Point, ...]
    opposite: tuple[Point, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "card": str(self.card),
            "confidence": round(self.confidence, 4),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
        }


@dataclass(frozen=True)
class UncertainRead:
    """An index that is there but not read with confidence: the players are asked which it is."""

    candidates: tuple[Card, ...]
    probabilities: tuple[float, ...]
    corners: tuple[Point, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "candidates": [str(c) for c in self.candidates],
            "probabilities": [round(p, 4) for p in self.probabilities],
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
        }


@dataclass(frozen=True)
class Recognition:
    """Every card read in one image, each physical card once, and the uncertain indices."""

    cards: tuple[CardRead, ...]
    uncertain: tuple[UncertainRead, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "cards": [c.to_json() for c in self.cards],
            "uncertain": [u.to_json() for u in self.uncertain],
        }
