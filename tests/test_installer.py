"""scripts/_venv.sh on a Pi: apt's packages first, the board's LED driver only, and a clear
word about a missing apt package before pip can fail.

The Pi's model comes from a file (``CRIB_PI_MODEL_FILE``), and the system python3 the
installer asks about apt's numpy and spidev is a stand-in on PATH that answers as Pi OS would;
``CRIB_PI_INSTALL_DRY_RUN`` prints the venv and pip commands instead of running them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALLER = ROOT / "scripts" / "_venv.sh"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

FAKE_PYTHON = """#!/bin/sh
# A system python3 as Pi OS has it: answers the installer's three questions.
case "$*" in
  *"import numpy"*) [ -n "$APT_NUMPY" ] && echo "$APT_NUMPY" && exit 0; exit 1 ;;
  *"import spidev"*) [ -n "$APT_SPIDEV" ] && exit 0; exit 1 ;;
  *"import rpi_ws281x"*) exit 1 ;;
  *sysconfig*) echo "$PY_INCLUDE"; exit 0 ;;
esac
exec "$REAL_PYTHON" "$@"
"""


def _install(
    tmp_path: Path,
    model: str | None,
    *,
    extras: str = "devices",
    apt_numpy: str = "1.24.2",
    apt_spidev: bool = True,
    headers: bool = True,
) -> subprocess.CompletedProcess[str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "python3"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    include = tmp_path / "include"
    include.mkdir(exist_ok=True)
    if headers:
        (include / "Python.h").write_text("")
    model_file = tmp_path / "model"
    if model is not None:
        model_file.write_bytes(model.encode() + b"\x00")
    env = dict(
        os.environ,
        PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        REAL_PYTHON=sys.executable,
        APT_NUMPY=apt_numpy,
        APT_SPIDEV="1" if apt_spidev else "",
        PY_INCLUDE=str(include),
        CRIB_PI_MODEL_FILE=str(model_file),
        CRIB_PI_EXTRAS=extras,
        CRIB_PI_VENV=str(tmp_path / "venv"),
        CRIB_PI_INSTALL_DRY_RUN="1",
    )
    env.pop("CRIB_PI_CONSTRAINTS", None)
    return subprocess.run(
        ["bash", str(INSTALLER)], env=env, capture_output=True, text=True, timeout=60
    )


def _constraints(tmp_path: Path) -> list[str]:
    return (tmp_path / "venv" / "pi-constraints.txt").read_text().splitlines()


def test_a_pi_4_gets_rpi_ws281x_apts_numpy_and_opencv_4_11(tmp_path: Path) -> None:
    done = _install(tmp_path, "Raspberry Pi 4 Model B Rev 1.5")
    assert done.returncode == 0, done.stderr
    venv_line, pip_line = done.stdout.splitlines()
    assert "--system-site-packages" in venv_line
    assert pip_line.endswith("[devices,ws281x]") and "pi5neo" not in pip_line
    assert "--constraint" in pip_line
    assert _constraints(tmp_path) == ["numpy==1.24.2", "opencv-python-headless==4.11.0.86"]


def test_a_pi_5_gets_pi5neo_only(tmp_path: Path) -> None:
    done = _install(tmp_path, "Raspberry Pi 5 Model B Rev 1.0")
    assert done.returncode == 0, done.stderr
    pip_line = done.stdout.splitlines()[1]
    assert pip_line.endswith("[devices,pi5neo]") and "ws281x" not in pip_line


def test_trixie_keeps_its_numpy_2_and_any_opencv(tmp_path: Path) -> None:
    done = _install(tmp_path, "Raspberry Pi 5 Model B Rev 1.1", apt_numpy="2.2.4")
    assert done.returncode == 0, done.stderr
    assert _constraints(tmp_path) == ["numpy==2.2.4"]


def test_a_laptop_gets_a_plain_venv_and_no_led_driver(tmp_path: Path) -> None:
    done = _install(tmp_path, None, extras="dev")
    assert done.returncode == 0, done.stderr
    venv_line, pip_line = done.stdout.splitlines()
    assert "--system-site-packages" not in venv_line
    assert "--constraint" not in pip_line and pip_line.endswith("[dev]")


def test_a_device_tree_that_is_not_a_pi_is_not_taken_for_one(tmp_path: Path) -> None:
    done = _install(tmp_path, "Pine64 RockPro64 v2.1", extras="devices")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].endswith("[devices]")


@pytest.mark.parametrize(
    ("model", "missing", "says"),
    [
        ("Raspberry Pi 4 Model B Rev 1.5", "headers", "sudo apt install python3-dev"),
        ("Raspberry Pi 5 Model B Rev 1.0", "spidev", "sudo apt install python3-spidev"),
        ("Raspberry Pi 5 Model B Rev 1.0", "numpy", "sudo apt install python3-numpy"),
    ],
)
def test_a_missing_apt_package_is_named_before_pip_runs(
    tmp_path: Path, model: str, missing: str, says: str
) -> None:
    done = _install(
        tmp_path,
        model,
        headers=missing != "headers",
        apt_spidev=missing != "spidev",
        apt_numpy="" if missing == "numpy" else "1.24.2",
    )
    assert done.returncode == 2
    assert done.stdout == ""  # nothing was run
    (line,) = done.stderr.splitlines()
    assert line.startswith("crib-pi install: ") and says in line


def test_the_readme_pi_steps_are_where_pi_check_reads_them() -> None:
    """scripts/pi-check runs the sh block after this marker word for word; keep it runnable."""
    readme = (ROOT / "README.md").read_text()
    after = readme.split("<!-- pi-check: steps -->\n", 1)[1]
    assert after.startswith("```sh\n")
    steps = after.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert steps[-1] == "sudo CRIB_PI_EXTRAS=devices bash scripts/run --help"
    assert any("<this repository> /opt/crib-pi" in line for line in steps)
    pi4_only = [line for line in steps if "Pi 4 and earlier only" in line]
    assert len(pi4_only) == 1 and "python3-dev" in pi4_only[0]
    assert all("python3-dev" not in line for line in steps if line not in pi4_only)
    installs = " ".join(line for line in steps if "apt install" in line)
    for package in ("python3-venv", "python3-numpy", "python3-spidev", "python3-picamera2"):
        assert package in installs
