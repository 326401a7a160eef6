"""All 12,994,800 shows through the batch scorer reproduce the oracle count tables exactly."""

from __future__ import annotations

import json

import numpy as np
import pytest

from crib_pi.scoring import all_shows, score_hands
from tests.conftest import oracle_path


@pytest.fixture(scope="module")
def shows() -> tuple[np.ndarray, np.ndarray]:
    return all_shows()


@pytest.mark.parametrize("kind", ["hand", "crib"])
def test_every_show_matches_the_oracle(shows: tuple[np.ndarray, np.ndarray], kind: str) -> None:
    oracle = json.loads(oracle_path("show_score_counts.json").read_text())[kind]
    hands, starters = shows
    assert len(hands) == oracle["total"] == 12_994_800
    totals = score_hands(hands, starters, crib=kind == "crib")
    counts = np.bincount(totals, minlength=30)
    assert len(counts) == 30
    assert {str(k): int(v) for k, v in enumerate(counts)} == oracle["counts"]
    assert round(float(totals.mean()), 6) == oracle["mean"]
