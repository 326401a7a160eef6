"""Learning a deck profile from photos of known cards (the work behind ``crib-pi learn-deck``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crib_pi.cards import SUITS, Card
from crib_pi.vision.candidates import candidates
from crib_pi.vision.classifier import Classifier
from crib_pi.vision.profile import DeckProfile, Look, build_profile

#: The default shoot: one photo per suit, all thirteen cards face up with their indices showing.
GUIDE = tuple(
    f"Photo {i + 1}: lay the 13 {name} face up, ace to king, apart or overlapping so that each "
    "top-left index shows; photograph them from above."
    for i, name in enumerate(("clubs", "diamonds", "hearts", "spades"))
)
DEFAULT_SHOTS = tuple(tuple(Card(r, s) for r in range(1, 14)) for s in SUITS)
#: An index patch counts for a card when it is this index-like and this sure among the expected.
MIN_INDEX = 0.5
MIN_SHARE = 0.6


@dataclass(frozen=True)
class ShotReport:
    """What one photo gave: the expected cards found, and those missing."""

    found: tuple[Card, ...]
    missing: tuple[Card, ...]


def learn(
    name: str, images: list[np.ndarray], expected: list[tuple[Card, ...]], clf: Classifier
) -> tuple[DeckProfile, list[ShotReport]]:
    """Looks at each expected card's indices, checked against what each photo should hold."""
    looks: list[Look] = []
    labels: list[int] = []
    reports = []
    for img, exp in zip(images, expected, strict=True):
        _, patches = candidates(img)
        s = clf.score(patches)
        allowed = np.array([c.index for c in exp])
        probs = s.card_probs()[:, allowed]
        share = probs / np.maximum(probs.sum(axis=1, keepdims=True), 1e-9)
        found = set()
        for i in np.flatnonzero(s.index_prob() >= MIN_INDEX):
            j = int(np.argmax(share[i]))
            if share[i, j] >= MIN_SHARE:
                sig = None if s.sig is None else s.sig[i]
                looks.append(Look(s.feat[i], sig))
                labels.append(int(allowed[j]))
                found.add(exp[j])
        reports.append(
            ShotReport(tuple(c for c in exp if c in found), tuple(c for c in exp if c not in found))
        )
    return build_profile(name, looks, labels), reports
