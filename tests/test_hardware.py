"""The hardware/ folder agrees with itself and with the software's device defaults."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from crib_pi.devices import scenes
from crib_pi.devices.config import DEFAULT_BUTTONS, LedConfig
from crib_pi.devices.leds.frame import LedStyle, render_frame, win_frames
from crib_pi.devices.leds.layout import LedLayout
from crib_pi.devices.leds.power import PowerLimit
from tests.conftest import load_script

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
BUDGET = HARDWARE / "power_budget.py"

# The 40-pin header (Pi 2 and later, Pi 4 and Pi 5 alike): physical pin -> BCM GPIO.
HEADER_GPIO = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
    21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
    36: 16, 37: 26, 38: 20, 40: 21,
}  # fmt: skip
HEADER_GND = {6, 9, 14, 20, 25, 30, 34, 39}


def _run_budget(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(BUDGET), *args], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _amps(text: str, label: str) -> float:
    match = re.search(rf"^{re.escape(label)}:\s+([\d.]+) A", text, re.MULTILINE)
    assert match, f"no line {label!r} in the power budget output"
    return float(match.group(1))


# ---- power budget -----------------------------------------------------------------------


def test_power_budget_prints_consistent_figures() -> None:
    out = _run_budget()
    leds = 2 * LedConfig().leds_per_track
    assert f"= {leds} LEDs" in out
    worst = _amps(out, "worst case, every LED full white")
    assert worst == pytest.approx(leds * 0.060)
    assert _amps(out, "software current limit (max_amps)") == LedConfig().max_amps
    typical = _amps(out, "typical: mid-game, skunk threat")
    quiescent = _amps(out, "quiescent, all LEDs dark")
    assert _amps(out, "typical total (typical + quiescent)") == pytest.approx(
        typical + quiescent, abs=0.002
    )
    capped = _amps(out, "most the capped strip draws")
    assert capped == pytest.approx(LedConfig().max_amps + quiescent, abs=0.002)
    assert _amps(out, "start of a game: markers only") < typical < LedConfig().max_amps
    assert capped < _amps(out, "strip supply rating")
    figures = json.loads(_run_budget("--json"))
    assert figures["worst_case_a"] == pytest.approx(worst, abs=0.001)
    three = json.loads(_run_budget("--sides", "3", "--json"))
    assert three["leds"] == 3 * 121 and three["worst_case_a"] == pytest.approx(363 * 0.060)


def test_power_budget_constants_match_the_software() -> None:
    pb = load_script(BUDGET)
    led, style = LedConfig(), LedStyle()
    software = {
        "HOLES": led.holes,
        "LEDS_PER_TRACK": led.leds_per_track,
        "MA_PER_CHANNEL": led.ma_per_channel,
        "MAX_AMPS": led.max_amps,
        "BACK_LEVEL": led.back_level,
        "COLOURS": led.colours,
        "MARKER": style.marker,
        "GAME_HOLE": style.game_hole,
        "SKUNK": style.skunk,
        "DOUBLE_SKUNK": style.double_skunk,
        "THREAT": style.threat,
        "WIN_LEVEL": style.win_level,
        "SKUNK_LINES": scenes.SKUNK_LINES,
    }
    assert {name: getattr(pb, name) for name in software} == software
    assert led.colours == style.colours


def test_power_budget_agrees_with_the_rendered_frames() -> None:
    """The script's start and typical figures are the software's own estimate of those scenes;
    its win figure bounds every frame of the real win display."""
    figures = load_script(BUDGET).budget(2)
    config = LedConfig()
    layout = LedLayout.from_config(config, 2)
    style = LedStyle.from_config(config)
    power = PowerLimit.from_config(config)
    start = power.amps(render_frame(scenes.start(), layout, style))
    threat = power.amps(render_frame(scenes.skunk_threat(), layout, style))
    assert figures["start_a"] == pytest.approx(start, abs=1e-6)
    assert figures["typical_a"] == pytest.approx(threat, abs=1e-6)
    brightest = max(
        power.amps(frame)
        for make in scenes.SCENES.values()
        for frame in win_frames(make(), layout, style)
    )
    assert brightest <= figures["win_a"] < config.max_amps


def test_power_budget_md_shows_the_real_output() -> None:
    text = (HARDWARE / "power_budget.md").read_text()
    block = re.search(r"```\n(crib-pi LED strip power budget.*?)```", text, re.DOTALL)
    assert block, "power_budget.md has no copy of the script's output"
    assert block.group(1).strip() == _run_budget().strip()


# ---- wiring diagram ---------------------------------------------------------------------


def _svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return sorted(
        "".join(el.itertext()).strip()
        for el in root.iter()
        if el.tag.rsplit("}", 1)[-1] in ("text", "title")
    )


def test_wiring_svg_is_well_formed_and_made_from_the_dot() -> None:
    svg = (HARDWARE / "wiring.svg").read_text()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    stamp = re.search(r"<!-- source: wiring\.dot sha256 ([0-9a-f]{64}) -->", svg)
    assert stamp, "wiring.svg was not made by hardware/render.sh"
    digest = hashlib.sha256((HARDWARE / "wiring.dot").read_bytes()).hexdigest()
    assert stamp.group(1) == digest, "wiring.svg is stale: run hardware/render.sh"
    texts = " ".join(_svg_texts(svg))
    for needed in ("GPIO17", "GPIO27", "GPIO22", "GPIO10", "74AHCT125", "330 ohm"):
        assert needed in texts


def test_wiring_svg_matches_a_fresh_render() -> None:
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (apt-get install graphviz)")
    fresh = subprocess.run(
        ["dot", "-Tsvg", str(HARDWARE / "wiring.dot")],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    ).stdout
    # Coordinates differ between Graphviz versions; the labels and names must not.
    assert _svg_texts(fresh) == _svg_texts((HARDWARE / "wiring.svg").read_text())


def test_render_script_is_there() -> None:
    script = (HARDWARE / "render.sh").read_text()
    assert "dot -Tsvg wiring.dot" in script and "sha256" in script


# ---- pinout -----------------------------------------------------------------------------


def _pin_table(variant: str) -> list[tuple[str, str, str]]:
    """(physical pin, BCM, function) rows of the table under ``## {variant}``."""
    text = (HARDWARE / "pinout.md").read_text()
    section = re.search(rf"^## {re.escape(variant)}.*?$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert section, f"pinout.md has no section {variant!r}"
    rows = []
    for line in section.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0][:1].isdigit():
            rows.append((cells[0], cells[1], cells[2]))
    assert rows, f"no pin table under {variant!r}"
    return rows


def _gpio_for(rows: list[tuple[str, str, str]], words: str) -> tuple[int, int]:
    found = [(int(pin), bcm) for pin, bcm, what in rows if words.lower() in what.lower()]
    assert len(found) == 1, f"expected one row for {words!r}, got {found}"
    pin, bcm = found[0]
    assert bcm.startswith("GPIO"), bcm
    return pin, int(bcm.removeprefix("GPIO"))


@pytest.mark.parametrize("variant", ["Raspberry Pi 5", "Raspberry Pi 4"])
def test_pinout_matches_the_software_defaults(variant: str) -> None:
    rows = _pin_table(variant)
    for pin, bcm, what in rows:
        physical = [int(p) for p in re.findall(r"\d+", pin)]
        if bcm.startswith("GPIO"):
            assert physical == [p for p in physical if HEADER_GPIO.get(p) == int(bcm[4:])], (
                f"{variant}: pin {pin} is not {bcm}"
            )
        elif bcm == "GND":
            assert set(physical) <= HEADER_GND, f"{variant}: pin {pin} is not a ground"
        else:
            assert bcm == "5V" and set(physical) <= {2, 4}, (variant, pin, bcm, what)
    defaults = {b.name: b.pin for b in DEFAULT_BUTTONS if b.pin is not None}
    assert defaults == {"go": 17, "confirm": 27, "undo": 22}
    for name, words in (("go", "Go button"), ("confirm", "Confirm button"), ("undo", "Undo")):
        assert _gpio_for(rows, words)[1] == defaults[name]
    data_pin, data_gpio = _gpio_for(rows, "LED data")
    if variant.endswith("4"):
        # rpi_ws281x on GPIO10 uses SPI, which the service's crib-pi user may open (no /dev/mem).
        assert data_gpio == LedConfig().pin == 10 and data_pin == 19
    else:
        # pi5neo drives SPI0 MOSI, which is GPIO10 whatever LedConfig.pin says.
        assert LedConfig().spi_device == "/dev/spidev0.0"
        assert data_gpio == 10 and data_pin == 19
        assert LedConfig().spi_device in dict(((b, w) for _, b, w in rows))["GPIO10"]
    grounds = [p for p, bcm, _ in rows if bcm == "GND"]
    assert grounds, "no ground in the table"


# ---- camera mount -----------------------------------------------------------------------


def _scad_code() -> str:
    text = (HARDWARE / "camera_mount.scad").read_text()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def test_scad_is_balanced_and_declares_its_parameters() -> None:
    code = _scad_code()
    stack: list[str] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for ch in code:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            assert stack and stack.pop() == pairs[ch], "unbalanced brackets in camera_mount.scad"
    assert not stack, "unclosed brackets in camera_mount.scad"
    declared = dict(re.findall(r"^(\w+)\s*=\s*([^;]+);", code, re.M))
    for name in ("camera_height", "tilt", "clamp_thickness", "arm_length", "tube_d", "pole_d"):
        assert name in declared, f"camera_mount.scad does not declare {name}"
    assert float(declared["camera_height"]) == 600
    assert (float(declared["cam_w"]), float(declared["cam_h"])) == (25, 24)
    assert (float(declared["hole_dx"]), float(declared["hole_dy"])) == (21, 12.5)


def test_scad_evaluates_in_openscad(tmp_path: Path) -> None:
    if shutil.which("openscad") is None:
        pytest.skip("openscad is not installed (apt-get install openscad)")
    out = tmp_path / "mount.echo"
    done = subprocess.run(
        ["openscad", "-o", str(out), str(HARDWARE / "camera_mount.scad")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr and "ERROR" not in done.stderr, done.stderr
    assert "cut the tube to 612.5 mm" in out.read_text()


# ---- links ------------------------------------------------------------------------------


def test_readme_links_resolve() -> None:
    for page in HARDWARE.glob("*.md"):
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" not in target:
                assert (page.parent / target).exists(), f"{page.name} links to missing {target}"
