"""Films of the guided ``learn-deck`` on the mat: one suit's thirteen cards in a row, Confirm.

Tests and the benchmark need what a player does when teaching the camera a deck: lay a
suit's cards across the middle of the mat, ace on the left, each one overlapping the last so
its index shows (one at a time, by hand, as the camera sees a card laid in a game), press
Confirm, gather them, and go on to the next suit. ``film_lesson``
writes those frames (seen by the same tilted camera as a filmed game, hands passing) and the
presses, so the whole flow can run through real recognition with scripted buttons.
"""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from crib_pi.cards import Card
from crib_pi.mat import HEIGHT, PX_PER_MM, WIDTH, Mat
from crib_pi.session.filmstrip import CARD_W, Faces, Film, Placed
from crib_pi.session.lesson import DeckLesson, teach_from_film

#: Each card of a lesson row moves along by this much: 13 cards span 315 mm of the 420 mm mat.
LESSON_STEP = 21 * PX_PER_MM
#: Frames the row stays after Confirm is pressed (at 10 a second: Confirm's gesture is known
#: after its double-press window, a third of a second after the release).
AFTER_PRESS = 8


def row_places(count: int, rng: np.random.Generator) -> list[tuple[tuple[float, float], float]]:
    """Centres (mat pixels) and angles of ``count`` cards laid left to right across the mat."""
    span = (count - 1) * LESSON_STEP + CARD_W
    left = (WIDTH - span) / 2 + CARD_W / 2
    out = []
    for i in range(count):
        jitter = rng.uniform(-2, 2, size=2) * PX_PER_MM
        centre = (left + i * LESSON_STEP + float(jitter[0]), HEIGHT / 2 + float(jitter[1]))
        out.append((centre, float(rng.uniform(-4, 4))))
    return out


def film_lesson(
    rows: Sequence[Sequence[Card]],
    faces: Faces,
    out: Path,
    *,
    seed: int = 0,
    zoom: float = 1.0,
    players: int = 2,
    still: int = 3,
) -> Path:
    """Write frames/, buttons.jsonl and rows.jsonl: each row laid, Confirm pressed, the row
    gathered (rows.jsonl: each row's first frame, its cards and their left edges in mat pixels).

    A row is the cards as laid, left to right (a test lays a wrong card in one to see it
    refused, then the right row again). Returns the frames folder.
    """
    rng = np.random.default_rng(seed)
    f = Film(Mat(players), faces, out / "frames", rng, still, zoom)
    for _ in range(still):
        f.shoot()
    laid: list[dict[str, Any]] = []
    for row in rows:
        places = row_places(len(row), rng)
        laid.append({"frame": f.frame + 1, "cards": []})
        for card, (centre, angle) in zip(row, places, strict=True):
            laid[-1]["cards"].append({"card": str(card), "left": centre[0] - CARD_W / 2})
            f.lay(Placed(card, centre, angle))  # brought in by hand, let go, still frames
        for _ in range(still):
            f.shoot()
        f.press("confirm")
        for _ in range(AFTER_PRESS):  # the row stays while the press is told from a double
            f.shoot()
        f.clear()
    with (out / "buttons.jsonl").open("w", encoding="utf-8") as handle:
        for line in f.presses:
            handle.write(json.dumps(line) + "\n")
    with (out / "rows.jsonl").open("w", encoding="utf-8") as handle:
        for line in laid:
            handle.write(json.dumps(line) + "\n")
    return out / "frames"


def lesson_presses(film: Path) -> dict[int, list[str]]:
    """The buttons ``film_lesson`` wrote to ``film``/buttons.jsonl, by frame number."""
    out: dict[int, list[str]] = defaultdict(list)
    for text in (film / "buttons.jsonl").read_text().splitlines():
        line = json.loads(text)
        out[int(line["frame"])].append(str(line["button"]))
    return out


def teach_filmed(
    lesson: DeckLesson, rows: Sequence[Sequence[Card]], faces: Faces, *, seed: int, zoom: float
) -> None:
    """Film ``rows`` laid on the mat and play the film through ``lesson``, pressing Go after a
    row refused for cards the camera cannot find, as a player would (the benchmarks)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        frames = film_lesson(rows, faces, out, seed=seed, zoom=zoom)
        teach_from_film(lesson, sorted(frames.iterdir()), lesson_presses(out), go_on_missing=True)
