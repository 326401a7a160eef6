"""Killed with SIGKILL at random points, again and again, a session still ends with exactly
the record of an uninterrupted run (each frame's actions and state commit together)."""

from __future__ import annotations

import random
import subprocess
import sys
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
        proc = subprocess.Popen(_command(tmp_path, db, record), stdout=subprocess.DEVNULL)
        try:
            proc.wait(timeout=rng.uniform(0.6, 1.6) if kills < 12 else 600)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            kills += 1
            continue
        assert proc.returncode == 0
        break
    assert kills >= 5, "the session finished before it could be killed often enough"
    assert record.read_text() == calm.read_text()
    store = GameStore(db)
    (game,) = [r for r in store.records() if r.lines > 1]
    assert "\n".join(store.lines(game.id)) + "\n" == calm.read_text()
