"""Shared fixtures for the vision tests: the recognizer, and decks when they are installed."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")

from crib_pi.vision.recognizer import Recognizer  # noqa: E402
from crib_pi.vision.synth.decks import Deck, available, load_deck  # noqa: E402

#: A few decks of different styles keep the tests quick.
TEST_DECKS = ("anglo", "paris", "plastic", "tigullio")


@pytest.fixture(scope="session")
def recognizer() -> Recognizer:
    cv2.setNumThreads(1)
    return Recognizer()


@pytest.fixture(scope="session")
def decks() -> list[Deck]:
    if not available():
        pytest.skip("needs Debian's gnome-cards-data and librsvg2-bin (rsvg-convert)")
    return [load_deck(n) for n in TEST_DECKS]
