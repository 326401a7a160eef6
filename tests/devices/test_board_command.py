"""``crib-pi board``: PNG and LED JSON for a board state, with the default layout."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from crib_pi.commands import board
from crib_pi.devices.errors import PegsNotationError


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="crib-pi")
    board.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["board", *argv])
    return int(args.func(args))


def leds(path: Path) -> list[list[int]]:
    data = json.loads(path.read_text())
    assert list(data) == ["leds"]
    return data["leds"]


def test_pegs_to_png_and_json_with_the_default_layout(tmp_path: Path) -> None:
    png, out = tmp_path / "b.png", tmp_path / "b.json"
    assert run("--pegs", "45:40,97:91", "--png", str(png), "--leds-json", str(out)) == 0
    strip = leds(out)
    assert len(strip) == 242
    for player, (front, back) in enumerate([(45, 40), (97, 91)]):
        lit_front = strip[player * 121 + front - 1]
        lit_back = strip[player * 121 + back - 1]
        assert max(lit_front) == 255
        assert 0 < sum(lit_back) < sum(lit_front)
        assert max(strip[player * 121 + 44 - 1 + (player * 52)]) < 40  # a hole with no peg
    pygame = pytest.importorskip("pygame")
    assert pygame.image.load(str(png)).get_size() == (800, 480)


def test_hole_zero_lights_nothing_and_three_players_chain_three_tracks(tmp_path: Path) -> None:
    out = tmp_path / "b.json"
    assert run("--pegs", "0:0,1:0,121:118", "--leds-json", str(out)) == 0
    strip = leds(out)
    assert len(strip) == 363
    assert strip[121] == [20, 100, 255]  # player 1, hole 1
    assert strip[2 * 121 + 120] == [40, 220, 50]  # player 2, hole 121
    assert max(strip[0]) < 40  # player 0 is not on the board yet


def test_four_players_are_two_partnerships(tmp_path: Path) -> None:
    png, out = tmp_path / "b.png", tmp_path / "b.json"
    assert run("--pegs", "45:40,97:91", "--players", "4", "--leds-json", str(out),
               "--png", str(png), "--size", "720x1280") == 0  # fmt: skip
    assert len(leds(out)) == 242
    pygame = pytest.importorskip("pygame")
    assert pygame.image.load(str(png)).get_size() == (720, 1280)


def test_a_scene(tmp_path: Path) -> None:
    out = tmp_path / "win.json"
    assert run("--scene", "win", "--leds-json", str(out)) == 0
    assert sum(1 for rgb in leds(out)[:121] if rgb != [0, 0, 0]) == 121


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--pegs", "45-40"], "not front:back"),
        (["--pegs", "40:45"], "back <= front"),
        (["--pegs", "130:1"], "<= 121"),
        (["--pegs", "1:0,2:0,3:0,4:0"], "1 to 3"),
        (["--pegs", "1:0,2:0", "--players", "3"], "--players 3"),
        (["--pegs", "1:0", "--size", "big"], "WIDTHxHEIGHT"),
        (["--scene", "nope"], "no scene"),
    ],
)
def test_bad_arguments_say_what_is_wrong(argv: list[str], message: str, tmp_path: Path) -> None:
    with pytest.raises(PegsNotationError, match=message):
        run(*argv, "--leds-json", str(tmp_path / "x.json"))


def test_without_outputs_it_shows_on_the_devices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CRIB_PI_DEVICES", "mock")
    assert run("--pegs", "45:40,97:91", "--seconds", "0.5") == 0


@pytest.mark.parametrize(
    ("pegs", "said"),
    [("121:118,95:90", ""), ("121:118,85:80", "skunk"), ("121:118,55:50", "double")],
)
def test_a_won_board_says_how_badly_the_loser_lost(pegs: str, said: str) -> None:
    from crib_pi.commands.board import parse_pegs
    from crib_pi.devices.scenes import pegs_snapshot

    assert pegs_snapshot(parse_pegs(pegs), 2).skunk == said
