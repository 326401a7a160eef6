"""Shared test helpers: where the oracles (in the repository) and the photos (beside it) live,
cards from bare ranks, and loading a script that is not part of the package (a tool, a hardware
calculator) as a module."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest
from hypothesis import settings

from crib_pi.cards import SUITS, Card

# HYPOTHESIS_PROFILE=deep runs ten times the examples (a long run before a release).
settings.register_profile("ci", max_examples=40)
settings.register_profile("deep", max_examples=400)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The oracles are committed (tests/data/oracles, origin in its README); only the real card
# photos, under other people's licences, stay outside the repository, in ../shared or
# $CRIB_PI_SHARED, and the tests that use them skip when they are absent.
ORACLES = Path(__file__).resolve().parent / "data" / "oracles"
SHARED = Path(
    os.environ.get("CRIB_PI_SHARED") or Path(__file__).resolve().parents[1].parent / "shared"
)


def oracle_path(name: str) -> Path:
    return ORACLES / name


def shared_path(*parts: str) -> Path:
    """A file of the shared photos; call inside a test (it skips the test when absent)."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"the shared card photos are not here ({path}); set CRIB_PI_SHARED to them")
    return path


def load_script(path: Path) -> ModuleType:
    """A script outside the package (``tools/``, ``hardware/``), imported from its file."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rules_cases(kind: str) -> list[dict[str, object]]:
    lines = oracle_path("rules_cases.jsonl").read_text().splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    return [c for c in cases if c["kind"] == kind]


class RankDealer:
    """Turns bare ranks ("5", "T", "K") into distinct cards, suits in turn per rank."""

    def __init__(self) -> None:
        self.used: dict[str, int] = {}

    def card(self, rank: str) -> Card:
        n = self.used.get(rank, 0)
        self.used[rank] = n + 1
        return Card.parse(rank + SUITS[n])


@pytest.fixture(autouse=True)
def _no_local_config(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tests see the defaults, whatever configuration this machine has."""
    empty = tmp_path_factory.getbasetemp() / "empty-config.toml"
    empty.touch()
    monkeypatch.setenv("CRIB_PI_CONFIG", str(empty))


def ink_only_face(pips_x: int, twin: bool = True) -> np.ndarray:
    """A borderless card face as white as the mat: an index (a 7 over a pip) at two opposite
    corners, upright from its own short edge (``twin``; else the second a pip alone, as no
    card prints one), and three pips down at ``pips_x`` (of 630). The finder finds it by its
    ink where its indices are twins, or where the whole face is the same turned half round
    (the pips down the middle, 315); not otherwise."""
    face = np.full((880, 630, 4), 255, np.uint8)
    index = np.full((190, 90, 4), 255, np.uint8)
    cv2.putText(index, "7", (5, 95), cv2.FONT_HERSHEY_SIMPLEX, 3.4, (30, 30, 30, 255), 10)
    cv2.circle(index, (45, 145), 30, (30, 30, 30, 255), -1)
    face[40:230, 40:130] = index
    corner = index.copy()
    if not twin:  # its suit alone, no rank
        corner[:110] = 255
    face[650:840, 500:590] = cv2.rotate(corner, cv2.ROTATE_180)
    for y in (250, 440, 630):
        cv2.circle(face, (pips_x, y), 45, (30, 30, 30, 255), -1)
    return face
