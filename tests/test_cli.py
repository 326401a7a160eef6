"""The commands, run as a user runs them: exit codes, output, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from crib_pi.actions import GameOptions, NewGame
from crib_pi.records import format_line
from crib_pi.simulate import random_game


def crib_pi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "crib_pi", *args], capture_output=True, text=True, timeout=120
    )


def test_score_text_and_json() -> None:
    out = crib_pi("score", "5H", "5D", "5S", "JC", "5C")
    assert out.returncode == 0
    assert "29" in out.stdout and "his nobs" in out.stdout
    data = json.loads(crib_pi("score", "2H", "4H", "6H", "8H", "KS", "--crib", "--json").stdout)
    assert data["total"] == 0 and data["crib"] is True
    data = json.loads(crib_pi("score", "2H", "4H", "6H", "8H", "KS", "--json").stdout)
    assert data["total"] == 4 and [i["reason"] for i in data["items"]] == ["flush"]


def test_peg() -> None:
    data = json.loads(crib_pi("peg", "5H", "7C", "6D", "--json").stdout)
    assert [p["points"] for p in data["plays"]] == [0, 0, 3] and data["total"] == 3
    assert crib_pi("peg", "KH", "QH", "JH", "5D").returncode != 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "5H", "5D", "5S", "JC", "5X"], "'5X'"),
        (["score", "5H", "5D", "5S", "JC"], "score needs 5 cards"),
        (["score", "5H", "5D", "5S", "JC", "5H"], "5H appears twice"),
        (["peg", "KH", "QH", "JH", "5D"], "5D would make the count 35"),
    ],
)
def test_errors_are_one_line(args: list[str], message: str) -> None:
    out = crib_pi(*args)
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_replay_many_files(tmp_path: Path) -> None:
    good = []
    for seed in range(2):
        opts = GameOptions(players=2 + seed)
        game, actions = random_game(opts, seed)
        path = tmp_path / f"game{seed}.jsonl"
        path.write_text("\n".join([format_line(NewGame(opts))] + [format_line(a) for a in actions]))
        good.append((path, game))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": {"players": 2}}\n{"cut": "JS"}\n{"play": [0, "5H"]}\n')
    out = crib_pi("replay", "--json", str(good[0][0]), str(bad), str(good[1][0]))
    assert out.returncode == 2
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == 3
    assert rows[0]["scores"] == list(good[0][1].scores) and rows[0]["winner"] == good[0][1].winner
    assert "line 3" in rows[1]["error"] and "Player 2's turn" in rows[1]["error"]
    assert rows[2]["winner"] == good[1][1].winner
    assert "bad.jsonl: line 3: it is Player 2's turn" in out.stderr
    text = crib_pi("replay", str(good[0][0]))
    assert text.returncode == 0 and "wins" in text.stdout
    missing = crib_pi("replay", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "No such file" in missing.stderr


def test_run_plays_the_demo_without_a_camera(tmp_path: Path) -> None:
    env = dict(os.environ, CRIB_PI_DEVICES="mock", SDL_VIDEODRIVER="dummy")
    env.pop("DISPLAY", None)
    out = subprocess.run(
        [sys.executable, "-m", "crib_pi", "run", "--demo", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    assert "wins" in out.stdout
    assert "the camera gave the board" in out.stdout  # read through real recognition
    boards = sorted(tmp_path.glob("board-*.png"))
    assert len(boards) >= 3  # one board image a deal
    again = crib_pi("replay", "--json", str(tmp_path / "demo-game.jsonl"))
    assert json.loads(again.stdout)["winner"] is not None
