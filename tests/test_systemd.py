"""The service unit passes systemd's own checks; the notify protocol reaches a socket."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from crib_pi.commands.install_service import unit_text
from crib_pi.notify import notify, watchdog_interval

needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed"
)


def _unit(tmp_path: Path) -> Path:
    exe = Path(sys.executable).with_name("crib-pi")
    assert exe.exists(), exe
    path = tmp_path / "crib-pi.service"
    path.write_text(unit_text(str(exe)))
    return path


@needs_systemd
def test_unit_verifies(tmp_path: Path) -> None:
    done = subprocess.run(
        ["systemd-analyze", "verify", str(_unit(tmp_path))], capture_output=True, text=True
    )
    complaints = [line for line in done.stderr.splitlines() if "crib-pi.service" in line]
    assert done.returncode == 0 and complaints == [], done.stderr


@needs_systemd
def test_unit_security_exposure_is_at_most_1(tmp_path: Path) -> None:
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(_unit(tmp_path))],
        capture_output=True,
        text=True,
    )
    found = re.search(r"Overall exposure level for crib-pi.service: ([0-9.]+)", done.stdout)
    assert found, done.stdout + done.stderr
    assert float(found.group(1)) <= 1.0


def test_unit_reaches_the_devices_and_keeps_state() -> None:
    text = unit_text("/x/crib-pi")
    assert "ExecStart=/x/crib-pi run --service" in text
    for needed in ("Type=notify", "Restart=on-failure", "StateDirectory=crib-pi", "WatchdogSec="):
        assert needed in text
    for device in ("/dev/gpiochip0", "/dev/spidev0.0", "char-video4linux", "char-drm"):
        assert f"DeviceAllow={device}" in text
    assert "PrivateDevices=yes" not in text  # it would hide the GPIO, SPI, camera and display


def test_install_service_dry_run() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "crib_pi", "install-service", "--dry-run"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0
    assert "[Service]" in done.stdout and "systemctl enable --now crib-pi.service" in done.stdout


def test_notify_sends_datagrams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        server.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        assert notify("READY=1")
        assert server.recv(100) == b"READY=1"
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert not notify("READY=1")
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", "1")
    assert watchdog_interval() is None


def test_unit_leaves_the_device_tree_readable() -> None:
    """rpi_ws281x reads the Pi's revision from /proc/device-tree/system/linux,revision and
    crib-pi the model from /proc/device-tree/model; ProcSubset=pid would hide both."""
    text = unit_text("/x/crib-pi")
    assert "\nProcSubset=" not in text
