"""The configuration file: checked before use, every bad key named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from crib_pi.config import ConfigError, find_config, load


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_defaults_without_a_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CRIB_PI_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr("crib_pi.config.SYSTEM_PATH", tmp_path / "nope.toml")
    assert find_config() is None
    config = load()
    assert config.game.players == 2 and config.game.dealer is None and config.session.stable == 3


def test_a_full_file(tmp_path: Path) -> None:
    config = load(
        write(
            tmp_path,
            """
[game]
players = 4
target = 61
muggins = true
dealer = 2
[players]
names = ["Ann", "Bob", "Cy", "Di"]
[session]
fps = 15
stable = 4
[store]
db = "/tmp/x.sqlite3"
[devices.leds]
max_amps = 1.5
[devices.buttons.go]
pin = 5
""",
        )
    )
    assert config.game.players == 4 and config.game.target == 61 and config.game.dealer == 2
    assert config.game.names == ("Ann", "Bob", "Cy", "Di")
    assert config.session.fps == 15 and config.session.stable == 4
    assert config.devices.leds.max_amps == 1.5
    assert config.devices.buttons.spec("go").pin == 5
    assert "4 players to 61" in config.describe()


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("[game]\nplayerz = 3\n", "game.playerz"),
        ("[gmae]\n", "unknown setting gmae"),
        ("[game]\nplayers = 5\n", "players must be 2, 3 or 4"),
        ("[game]\ntarget = 100\n", "target must be 61 or 121"),
        ('[game]\ndealer = "me"\n', "game.dealer"),
        ('[players]\nnames = ["Ann"]\n', "names must give 2 player names"),
        ("[session]\nfps = 0\n", "session.fps"),
        ("[session]\nstable = true\n", "session.stable"),
        ('[session]\nfind_cards = "yes"\n', "session.find_cards"),
        ("[devices.leds]\nmax_amp = 3\n", "devices.leds.max_amp"),
        ("[game\n", "not valid TOML"),
    ],
)
def test_bad_files_are_refused_with_the_key(tmp_path: Path, text: str, named: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load(path)
    assert named in str(err.value) and str(path) in str(err.value)


def test_the_card_finder_is_on_trial_and_off_unless_asked(tmp_path: Path) -> None:
    assert load(write(tmp_path, "")).session.find_cards is False
    assert load(write(tmp_path, "[session]\nfind_cards = true\n")).session.find_cards is True


def test_config_check_command(tmp_path: Path) -> None:
    good = write(tmp_path, "[game]\nplayers = 3\n")
    done = subprocess.run(
        [sys.executable, "-m", "crib_pi", "config", "--check", "--file", str(good)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "3 players to 121" in done.stdout
    bad = write(tmp_path, "[game]\nplayerz = 3\n")
    done = subprocess.run(
        [sys.executable, "-m", "crib_pi", "config", "--file", str(bad)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "game.playerz" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_example_file_loads() -> None:
    example = Path(__file__).resolve().parents[1] / "docs" / "config.example.toml"
    config = load(example)
    assert config.game.names == ("Ann", "Bob")
    assert config.devices.buttons.spec("confirm").pin == 27
    assert (config.devices.voice.language, config.devices.voice.volume) == ("", 0.7)
