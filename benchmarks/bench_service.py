"""Benchmark: start-up to READY, and peak memory during a session.

    python benchmarks/bench_service.py

Start-up: ``crib-pi run --service`` with mock devices under a stand-in systemd notify socket,
from process start to READY=1 (median of 5). Memory: the peak resident size of
``crib-pi session`` playing a filmed two-player game (cards read by crib_pi.vision when its
model is installed, else by the film's ground truth), and of the service once ready.
Targets (issue 6): ready in under 3 s, under 250 MB.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crib_pi.actions import GameOptions
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import film
from crib_pi.simulate import random_game


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_to_ready(tmp: Path) -> tuple[float, float]:
    sock = tmp / f"n{time.monotonic_ns()}.sock"
    env = dict(os.environ, CRIB_PI_DEVICES="mock", NOTIFY_SOCKET=str(sock), SDL_VIDEODRIVER="dummy")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock))
        server.settimeout(30)
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "crib_pi", "run", "--service", "--db", str(tmp / "g.sqlite3")],
            env=env,
            stderr=subprocess.DEVNULL,
        )
        while b"READY=1" not in server.recv(4096):
            pass
        took = time.monotonic() - started
        memory = peak_mb(proc.pid)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    return took, memory


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        runs = [start_to_ready(tmp) for _ in range(5)]
        print(f"start-up to READY: median {statistics.median(r[0] for r in runs):.2f} s (5 runs)")
        print(f"service once ready: {max(r[1] for r in runs):.0f} MB resident at most")
        options = GameOptions(players=2, target=61, dealer=0)
        _, actions = random_game(options, seed=5, known=False)
        film(options, actions, plain_face, tmp / "film", seed=5)
        vision = True
        try:
            from crib_pi.vision.recognizer import Recognizer

            Recognizer()
        except Exception:
            vision = False
        command = [
            sys.executable, "-m", "crib_pi", "session", "--frames", str(tmp / "film" / "frames"),
            "--buttons", str(tmp / "film" / "buttons.jsonl"), "--record", str(tmp / "out.jsonl"),
            "--target", "61", "--dealer", "0", "--db", str(tmp / "s.sqlite3"),
        ]  # fmt: skip
        if not vision:
            command += ["--truth", str(tmp / "film" / "truth.jsonl")]
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        reader = "crib_pi.vision" if vision else "ground truth (no recognition model)"
        peak = max(before, after) / 1024
        print(f"session of a filmed game, cards read by {reader}: {peak:.0f} MB peak")


if __name__ == "__main__":
    main()
