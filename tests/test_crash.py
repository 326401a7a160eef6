"""Killed with SIGKILL at random points, again and again, a session still ends with exactly
the record of an uninterrupted run (each frame's actions and state commit together).

The kills are placed by the session's progress (frames committed), not by wall time: a fast CI
machine once finished the game before it had been killed five times.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

from crib_pi.actions import GameOptions
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import film
from crib_pi.simulate import random_game
from crib_pi.store import GameStore


def _command(out: Path, db: Path, record: Path) -> list[str]:
    return [
        sys.executable, "-m", "crib_pi", "session",
        "--frames", str(out / "frames"), "--buttons", str(out / "buttons.jsonl"),
        "--truth", str(out / "truth.jsonl"), "--db", str(db), "--record", str(record),
        "--players", "2", "--target", "61", "--dealer", "0", "--muggins",
    ]  # fmt: skip


def _position(db: Path) -> int:
    """The last frame the session has committed to the database (-1 before any); read-only,
    where ``GameStore.session`` would open the database for writing beside the session."""
    if not db.exists():
        return -1
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)) as con:
            row = con.execute("SELECT MAX(position) FROM sessions").fetchone()
    except sqlite3.Error:
        return -1
    return -1 if row is None or row[0] is None else int(row[0])


def test_sigkill_at_random_points_loses_nothing(tmp_path: Path) -> None:
    options = GameOptions(players=2, target=61, dealer=0, muggins=True)
    _, actions = random_game(options, seed=31, known=False)
    film(options, actions, plain_face, tmp_path, seed=31)

    calm = tmp_path / "calm.jsonl"
    subprocess.run(_command(tmp_path, tmp_path / "calm.sqlite3", calm), check=True, timeout=600)

    rng = random.Random(7)
    db, record = tmp_path / "crashy.sqlite3", tmp_path / "crashy.jsonl"
    kills = 0
    for _ in range(40):
        start = _position(db)
        proc = subprocess.Popen(_command(tmp_path, db, record), stdout=subprocess.DEVNULL)
        if kills < 12:  # wait until it has committed 0-45 more frames, then a little more
            goal, deadline = start + rng.randint(0, 45), time.monotonic() + 600
            while proc.poll() is None and _position(db) < goal and time.monotonic() < deadline:
                time.sleep(0.005)
            time.sleep(rng.uniform(0.0, 0.05))
            if proc.poll() is None:
                proc.kill()
                proc.wait()
                kills += 1
                continue
        proc.wait(timeout=600)
        assert proc.returncode == 0
        break
    assert kills >= 5, "the session finished before it could be killed often enough"
    assert record.read_text() == calm.read_text()
    store = GameStore(db)
    (game,) = [r for r in store.records() if r.lines > 1]
    assert "\n".join(store.lines(game.id)) + "\n" == calm.read_text()
