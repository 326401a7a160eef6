"""The smoke test scripts/pi-check runs inside the emulated Pi, with the installed crib-pi.

Usage: pi_smoke.py BOARD CRIB_PI_DIR EXPECTED_JSON PHOTO... (BOARD: 4 or 5). Each step prints
its time; any failure ends it with status 1 and says which step. EXPECTED_JSON holds the lines
of ``crib-pi recognize --json`` for the photos as read on the machine that runs the check (x86,
with the Pi's numpy and OpenCV versions), to be matched exactly.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DRIVERS = """
import importlib.util as u
found = [m for m in ("rpi_ws281x", "pi5neo") if u.find_spec(m)]
spidev = u.find_spec("spidev")
if "pi5neo" in found and spidev and spidev.origin.startswith("/usr/lib/python3/"):
    found.append("apt-spidev")
print(*found)
"""


def step(name: str, started: float) -> None:
    print(f"pi-check:   {name}: {time.monotonic() - started:.1f} s", flush=True)


def fail(name: str, why: str) -> None:
    print(f"pi-check: FAILED {name}: {why}", flush=True)
    sys.exit(1)


def run(name: str, command: list[str], **env: str) -> str:
    started = time.monotonic()
    done = subprocess.run(
        command, capture_output=True, text=True, env=dict(os.environ, **env), timeout=900
    )
    if done.returncode != 0:
        fail(name, f"exit status {done.returncode}\n{done.stdout}{done.stderr}")
    step(name, started)
    return done.stdout + done.stderr


def service(name: str, crib_pi: str, folder: Path, config: str, **env: str) -> str:
    """``crib-pi run --service`` to READY=1, then SIGTERM: it must exit 0 (no crash at exit)."""
    started = time.monotonic()
    sock = folder / f"{name}.sock"
    conf = folder / f"{name}.toml"
    conf.write_text(config)
    command = [crib_pi, "run", "--service", "--db", str(folder / f"{name}.sqlite3")]
    command += ["--config", str(conf)]
    full_env = dict(os.environ, NOTIFY_SOCKET=str(sock), SDL_VIDEODRIVER="dummy", **env)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock))
        server.settimeout(1.0)
        proc = subprocess.Popen(
            command, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        got: list[str] = []
        end = time.monotonic() + 600
        while "READY=1" not in got and time.monotonic() < end and proc.poll() is None:
            try:
                got += server.recv(4096).decode().splitlines()
            except TimeoutError:
                continue
        if "READY=1" not in got:
            proc.kill()
            out, err = proc.communicate()
            fail(name, f"no READY=1 (exit status {proc.returncode})\n{out}{err}")
        ready = time.monotonic() - started
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    if proc.returncode != 0:
        fail(name, f"exit status {proc.returncode} after SIGTERM\n{out}{err}")
    step(f"{name} (READY after {ready:.1f} s, then a clean stop)", started)
    return err


def control() -> None:
    """numpy 2 from pip over apt's numpy 1.24, in a scratch venv: importing the stand-in for
    picamera2's compiled part must then fail as picamera2 does ("numpy.dtype size changed")."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)])
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "numpy>=2"]
        subprocess.run(pip, check=True, timeout=900)
        done = subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import pywt"], capture_output=True, text=True
        )
    if done.returncode == 0 or "numpy.dtype size changed" not in done.stderr:
        fail("control", f"pywt imported over a pip numpy 2, so it checks nothing\n{done.stderr}")
    step("control: with a pip numpy 2 the stand-in fails to import, as picamera2 does", started)


def _reads(lines: str) -> dict[str, Any]:
    """recognize's JSON lines by the image's file name."""
    reads = [json.loads(line) for line in lines.splitlines() if line.startswith("{")]
    return {Path(str(read.pop("image"))).name: read for read in reads}


def _cards(lines: str) -> dict[str, Any]:
    """Per image, the cards named (in order of name) and the uncertain ones."""
    return {
        image: (sorted(c["card"] for c in read["cards"]), read["uncertain"])
        for image, read in _reads(lines).items()
    }


def main(argv: list[str]) -> int:
    board, home, expected, photos = argv[0], Path(argv[1]), Path(argv[2]), argv[3:]
    driver = "pi5neo" if board == "5" else "ws281x"
    crib_pi = str(home / ".venv" / "bin" / "crib-pi")
    python = str(home / ".venv" / "bin" / "python")
    apt_numpy = subprocess.run(
        ["/usr/bin/python3", "-s", "-c", "import numpy; print(numpy.__version__)"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    versions = run(
        "numpy, OpenCV and the picamera2 stand-in import together",
        [python, "-c", "import numpy, cv2, pywt; print(numpy.__version__, cv2.__version__)"],
    )
    print(
        f"pi-check:   numpy {versions.split()[0]} (apt's {apt_numpy}), OpenCV {versions.split()[1]}"
    )
    if versions.split()[0] != apt_numpy:
        fail("numpy", f"the venv's numpy {versions.split()[0]} is not apt's {apt_numpy}")
    drivers = run(
        "the board's LED driver, and only it",
        [python, "-c", DRIVERS],
    ).split()
    wanted = ["pi5neo", "apt-spidev"] if board == "5" else ["rpi_ws281x"]
    if drivers != wanted:
        fail("LED driver", f"installed {drivers}, wanted {wanted}")
    print(f"pi-check:   LED driver: {' '.join(drivers)}")
    if board == "5" and apt_numpy.startswith("1."):  # the stand-in catches a pip numpy 2
        control()
    out = run("crib-pi score 5H 5D 5S JC 5C", [crib_pi, "score", "5H", "5D", "5S", "JC", "5C"])
    if "29" not in out:
        fail("score", out)
    if photos:
        got = run(
            f"crib-pi recognize --json ({len(photos)} photos)",
            [crib_pi, "recognize", "--json", *photos],
        )
        want = expected.read_text()
        if _cards(got) != _cards(want):
            fail("recognize", f"other cards than on x86:\n{got}\nwanted:\n{want}")
        if _reads(got) == _reads(want):
            print("pi-check:   the same cards as on x86, at the same corners")
        else:  # on another numpy a card with two indices in view may be placed by the other
            print("pi-check:   the same cards as on x86 (one or more placed by another index)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        service("service, mock devices", crib_pi, folder, "", CRIB_PI_DEVICES="mock")
        err = service(
            f"service, pi devices with none there ({driver} start fails)",
            crib_pi,
            folder,
            f'[devices.leds]\ndriver = "{driver}"\n',
            CRIB_PI_DEVICES="pi",
            GPIOZERO_PIN_FACTORY="mock",
        )
        said = [line for line in err.splitlines() if line.startswith("crib-pi: leds: ")]
        if len(said) != 1:
            fail("failed LED start", f"wanted one line about the LEDs:\n{err}")
        print(f"pi-check:   {said[0]}")
        camera = [line for line in err.splitlines() if line.startswith("crib-pi: camera: ")]
        print(f"pi-check:   {camera[0] if camera else 'no camera line'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
