"""The slips and the smaller things of issue 34 (items 11 and 12): counts said as people say
them, a long input named with its own length, an I/O error naming its file, config errors
naming their key, stops said with the usual statuses, an interrupted demo gone on with,
recognize going on past a bad image, ``--version``, the unit path checked in a dry run,
``discard --json`` as its help says, ``board`` saying there is no screen, help on every
option, and one service file."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from crib_pi.actions import GameOptions
from crib_pi.cli import build_parser, main
from crib_pi.config import ConfigError, from_mapping
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import film
from crib_pi.simulate import random_game
from crib_pi.store import GameStore

ROOT = Path(__file__).resolve().parents[1]
ENV = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "CRIB_PI_DEVICES": "mock"}


# -- 11. slips ------------------------------------------------------------------------------


def test_a_one_frame_session_says_frame_and_no_winner_as_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), np.zeros((48, 64, 3), np.uint8))
    argv = ["session", "--frames", str(frames), "--record", str(tmp_path / "r.jsonl")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "1 frame," in out and "1 frames" not in out
    assert "None" not in out and "no winner yet" in out


def test_a_finished_session_names_the_winner_as_people_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = GameOptions(players=2, target=61, dealer=0)
    _, actions = random_game(options, seed=5, known=False)
    film(options, actions, plain_face, tmp_path / "film", seed=5)
    argv = ["session", "--frames", str(tmp_path / "film" / "frames"),
            "--truth", str(tmp_path / "film" / "truth.jsonl"),
            "--buttons", str(tmp_path / "film" / "buttons.jsonl"),
            "--record", str(tmp_path / "r.jsonl"), "--dealer", "0", "--target", "61"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "winner" not in out and " wins 61-" in out and "Player " in out


def test_learn_deck_counts_one_photo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.zeros((40, 40, 3), np.uint8))
    assert main(["learn-deck", str(tmp_path / "d.npz"), str(photo)]) == 2
    err = capsys.readouterr().err
    assert "1 photo:" in err and "1 photos" not in err


def test_a_long_card_is_named_with_its_own_length(capsys: pytest.CaptureFixture[str]) -> None:
    card = "5" * 100_001
    assert main(["score", card, "5D", "5S", "JC", "5C"]) == 2
    err = capsys.readouterr().err
    assert "(100,001 characters)" in err and "card" in err and len(err) < 400


@pytest.mark.parametrize(
    "argv, said",
    [
        (["score", "10", "H", "5D", "5S", "JC"], "10 H: write a card's rank and suit together"),
        (["score", "5D", "5S", "JC", "5C", "10"], "card '10' has no suit"),
        (["discard", "7C", "9H", "5H", "5C", "Q", "S"], "Q S: write a card's rank and suit"),
    ],
)
def test_a_rank_typed_apart_from_its_suit_is_said_so(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "suit '0'" not in err


def test_an_io_error_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), np.zeros((8, 8, 3), np.uint8))
    argv = ["session", "--frames", str(frames), "--record", str(tmp_path / "r.jsonl"),
            "--buttons", "/proc/self/mem"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "/proc/self/mem" in err and "--buttons" in err and err.count("\n") == 1


def test_a_deck_folder_is_said_to_be_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.zeros((40, 40, 3), np.uint8))
    assert main(["recognize", str(photo), "--deck", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is a folder" in err and "no such deck profile" not in err


@pytest.mark.parametrize(
    "game, key",
    [
        ({"target": 100}, "game.target"),
        ({"muggins": "yes"}, "game.muggins"),
        ({"dealer": 5}, "game.dealer"),
        ({"players": 7}, "game.players"),
    ],
)
def test_a_config_error_names_its_key(game: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        from_mapping({"game": game})
    said = str(caught.value)
    assert said.startswith(key) and "[game] / [players]" not in said


def test_player_names_that_do_not_fit_name_players_names() -> None:
    with pytest.raises(ConfigError) as caught:
        from_mapping({"game": {"players": 3}, "players": {"names": ["Ann", "Bob"]}})
    assert str(caught.value).startswith("players.names")


# -- 12. stops, the demo gone on with, recognize, --version ... ------------------------------


def test_ctrl_c_says_stopped_with_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import crib_pi.commands.score as score

    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(score, "run_score", interrupted)
    assert main(["score", "5H", "5D", "5S", "JC", "5C"]) == 130
    assert "stopped (Ctrl-C)" in capsys.readouterr().err


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_demo_with_the_usual_status(
    sig: signal.Signals, status: int, tmp_path: Path
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "crib_pi", "run", "--demo", "--out", str(tmp_path / "out")],
        env={**os.environ, **ENV, "DISPLAY": ""},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # as from a terminal: a shell's background job (a test run started with &) would
        # hand on SIGINT ignored, and Python then keeps it so
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None and proc.stderr is not None
    for line in proc.stdout:
        if "filming" in line:
            break
    time.sleep(0.5)
    proc.send_signal(sig)
    try:
        assert proc.wait(timeout=60) == status  # a loaded machine films slowly
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read()
    assert "stopped (" in err and "Traceback" not in err


def test_sigterm_under_systemd_is_a_clean_stop() -> None:
    from crib_pi.commands.run import stopped_status

    assert stopped_status("SIGTERM", service=True) == 0
    assert stopped_status("SIGTERM") == 143 and stopped_status("SIGINT", service=True) == 130
    assert stopped_status("the window was closed") == 0


def test_an_interrupted_demo_is_gone_on_with_in_its_own_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stopped a third of the way through its frames, the demo's record is unfinished; the
    next demo goes on with that record (no second one) and ends it as a whole demo does."""
    import crib_pi.commands.run as run

    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    db, out = tmp_path / "games.db", tmp_path / "out"
    real_tick = run._Progress.tick
    frames_read = [0]

    def tick(self: Any, say: Any = None, *, on_board: bool = False) -> None:
        if say is not None and say.__name__ == "played":
            frames_read[0] += 1
            if frames_read[0] == 250:
                raise run.Stopped("SIGTERM")
        real_tick(self, say, on_board=on_board)

    monkeypatch.setattr(run._Progress, "tick", tick)
    assert main(["run", "--demo", "--db", str(db), "--out", str(out)]) == 143
    store = GameStore(db)
    (first,) = store.records()
    kept = store.lines(first.id)
    assert not first.finished and len(kept) > 5
    store.close()
    capsys.readouterr()
    frames_read[0] = -10_000  # not stopped this time
    assert main(["run", "--demo", "--db", str(db), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"game record {first.id}" in said and "goes on" in said
    store = GameStore(db)
    (record,) = store.records()
    lines = store.lines(record.id)
    assert record.finished and lines[: len(kept)] == kept
    assert lines == (out / "demo-game.jsonl").read_text().splitlines()  # the whole demo


def test_recognize_goes_on_past_a_bad_image_and_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), np.full((60, 80, 3), 30, np.uint8))
    bad = tmp_path / "bad.png"
    bad.write_text("not a picture")
    missing = tmp_path / "missing.png"
    assert main(["recognize", str(bad), str(good), str(missing)]) == 2
    out, err = capsys.readouterr()
    assert f"{good}:" in out  # read although a bad image came first
    assert "2 images of 3 could not be read" in err and str(bad) in err and str(missing) in err
    assert main(["recognize", str(bad), str(good), "--json"]) == 2
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == [str(bad), str(good)]
    assert "error" in lines[0] and "cards" in lines[1]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from crib_pi import __version__

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"crib-pi {__version__}"


@pytest.mark.parametrize(
    "unit, said",
    [
        ("{tmp}", "is a folder"),
        ("{tmp}/nowhere/crib-pi.service", "does not exist"),
        ("{tmp}/crib-pi.txt", ".service"),
    ],
)
def test_a_dry_run_checks_the_unit_path(
    unit: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install-service", "--dry-run", "--unit", unit.format(tmp=tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert said in err and "[Service]" not in out


def test_discard_json_is_what_its_help_says(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["discard", "7C", "9H", "5H", "5C", "5D", "JS", "--json"]) == 0
    choices = json.loads(capsys.readouterr().out)
    assert isinstance(choices, list) and len(choices) == 15
    assert all(isinstance(c, dict) for c in choices)
    nets = [c["net"] for c in choices]
    assert nets == sorted(nets, reverse=True)
    helps = _option_helps()
    assert "JSON array" in helps["discard"]["--json"] and "best first" in helps["discard"]["--json"]


def test_board_without_a_display_says_the_screen_shows_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("CRIB_PI_DEVICES", "desktop")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert main(["board", "--pegs", "45:40,20:10", "--seconds", "0"]) == 0
    err = capsys.readouterr().err
    assert "screen: no display here" in err and "--png" in err


def _option_helps() -> dict[str, dict[str, str | None]]:
    """Every sub-command's options (and positionals) with their help, from the real parser."""
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    out: dict[str, dict[str, str | None]] = {
        "crib-pi": {a.option_strings[-1]: a.help for a in parser._actions if a.option_strings}
    }
    for name, command in sub.choices.items():
        out[name] = {}
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                for inner, nested in action.choices.items():
                    for a in nested._actions:
                        out[name][f"{inner} {(a.option_strings or [a.dest])[-1]}"] = a.help
                continue
            out[name][(action.option_strings or [action.dest])[-1]] = action.help
    return out


def test_every_option_of_every_command_says_what_it_is() -> None:
    missing = [
        f"{command} {option}"
        for command, options in _option_helps().items()
        for option, text in options.items()
        if not text or text == argparse.SUPPRESS or not text.strip()
    ]
    assert missing == []
    assert len(_option_helps()["session"]) >= 10  # --frames, --buttons, --record, --json...


def test_every_command_has_a_line_in_the_help() -> None:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert sorted(a.dest for a in sub._choices_actions if a.help) == sorted(sub.choices)


def test_the_service_file_has_one_copy_with_no_line_twice() -> None:
    package = ROOT / "crib_pi" / "data" / "crib-pi.service"
    shipped = ROOT / "systemd" / "crib-pi.service"
    assert shipped.resolve() == package.resolve()  # one file; the other a link to it
    lines = [line for line in package.read_text().splitlines() if line.strip()]
    repeated = sorted({line for line in lines if lines.count(line) > 1})
    assert repeated == []
