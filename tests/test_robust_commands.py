"""What a player notices: results said plainly, record numbers that export takes, a session
that says what it skipped and where it resumed, an install that can be pasted."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from crib_pi.actions import GameOptions
from crib_pi.cards import Card
from crib_pi.cli import clip, main
from crib_pi.commands.history import record_number
from crib_pi.commands.install_service import commands, home_warning, unit_text
from crib_pi.commands.replay import who_won
from crib_pi.config import ConfigError, from_mapping
from crib_pi.i18n import in_language
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import film
from crib_pi.simulate import random_game
from crib_pi.store import GameStore


def test_results_name_the_winner_first_and_a_skunk_only_when_there_is_one() -> None:
    assert who_won(1, [49, 61], "none", 2) == "Player 2 wins 61-49"
    assert who_won(0, [121, 85, 60], "skunk", 3) == "Player 1 wins 121-85-60, a skunk"
    assert who_won(1, [55, 121], "double", 4) == "Player 2 and Player 4 win 121-55, a double skunk"
    assert who_won(1, [49, 61], "none", 2, ("Ann", "Bob")) == "Bob wins 61-49"
    with in_language("fr"):
        assert who_won(1, [49, 61], "none", 2) == "Joueur 2 gagne 61-49"


def test_history_shows_record_numbers_that_export_takes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite3"
    store = GameStore(db)
    opts = GameOptions(names=("Ann", "Bob"))
    _, actions = random_game(opts, seed=4)
    record = store.new_record(opts)
    for i, action in enumerate(actions):
        store.append(record, action, finished=i == len(actions) - 1)
    store.close()
    assert main(["history", "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    assert "record   1 game 1" in shown and "(none)" not in shown
    assert "won" in shown
    for n, text in enumerate(("1", "1.1", " 1 ")):
        assert record_number(text) == 1
        out = tmp_path / f"out{n}.jsonl"
        assert main(["export", text, "--db", str(db), "--out", str(out)]) == 0
        assert out.read_text().splitlines()[0].startswith('{"game"')


def test_the_dry_run_can_be_pasted_and_home_is_warned_of() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "crib_pi", "install-service", "--dry-run"],
        capture_output=True,
        text=True,
    )
    pasted = [shlex.split(line[2:]) for line in done.stdout.splitlines() if line.startswith("$ ")]
    assert pasted == commands()
    text = unit_text("/home/ann/crib-pi/.venv/bin/crib-pi")
    warning = home_warning(text, "/home/ann/crib-pi/.venv/bin/crib-pi")
    assert warning is not None and "ProtectHome" in warning and "/home" in warning
    assert home_warning(unit_text(), "/opt/crib-pi/.venv/bin/crib-pi") is None


def test_fps_out_of_range_says_the_range() -> None:
    with pytest.raises(ConfigError, match="more than 0 and at most 60"):
        from_mapping({"session": {"fps": 0}})


def test_a_phone_typed_heart_reads_and_long_input_is_clipped() -> None:
    assert Card.parse("5♥\ufe0f") == Card.parse("5H")
    assert Card.parse("10♠︎") == Card.parse("10S")
    clipped = clip("x" * 100_000)
    assert len(clipped) < 400 and "100,000 characters" in clipped


def test_a_session_says_what_it_skipped_and_where_it_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = GameOptions(players=2, target=61, dealer=0)
    _, actions = random_game(options, seed=3, known=False)
    film(options, actions[:12], plain_face, tmp_path / "film", seed=3)
    frames = tmp_path / "film" / "frames"
    (frames / "000003.jpg").write_bytes(b"")  # a zero-byte frame
    (frames / "000004.jpg").write_text("not an image")
    argv = [
        "session", "--frames", str(frames), "--truth", str(tmp_path / "film" / "truth.jsonl"),
        "--record", str(tmp_path / "r.jsonl"), "--dealer", "0", "--target", "61",
        "--db", str(tmp_path / "g.sqlite3"),
    ]  # fmt: skip
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "skipped a frame" in err and "000003.jpg is empty" in err and "000004.jpg" in err
    assert main(argv) == 0
    assert "resuming game record 1" in capsys.readouterr().err


def test_a_session_checks_its_output_before_it_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), np.zeros((48, 64, 3), np.uint8))
    record = tmp_path / "missing" / "r.jsonl"
    assert main(["session", "--frames", str(frames), "--record", str(record)]) == 2
    assert "does not exist" in capsys.readouterr().err
