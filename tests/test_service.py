"""``crib-pi run --service`` under a stand-in systemd: READY and WATCHDOG arrive, SIGTERM stops
it cleanly within seconds, and a restart resumes the same game."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from crib_pi.store import GameStore


def _start(tmp_path: Path, sock: Path) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env.update(
        CRIB_PI_DEVICES="mock",
        NOTIFY_SOCKET=str(sock),
        WATCHDOG_USEC="400000",
        SDL_VIDEODRIVER="dummy",
    )
    env.pop("WATCHDOG_PID", None)
    return subprocess.Popen(
        [sys.executable, "-m", "crib_pi", "run", "--service", "--db", str(tmp_path / "g.sqlite3")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _messages(server: socket.socket, until: str, seconds: float) -> list[str]:
    got: list[str] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            got += server.recv(4096).decode().splitlines()
        except TimeoutError:
            continue
        if until in got:
            break
    return got


def _stops_cleanly(proc: subprocess.Popen[str], seconds: float = 5.0) -> None:
    """SIGTERM stops the service within ``seconds``, exit status 0; if it hangs instead, its
    threads' tracebacks (faulthandler, on SIGABRT) make the failure message."""
    proc.send_signal(signal.SIGTERM)
    try:
        status = proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        _, err = proc.communicate(timeout=10)
        raise AssertionError(f"no stop within {seconds} s of SIGTERM; tracebacks:\n{err}") from None
    assert status == 0, proc.stderr.read() if proc.stderr else status


def test_ready_watchdog_and_clean_stop(tmp_path: Path) -> None:
    sock = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock))
        server.settimeout(0.5)
        started = time.monotonic()
        proc = _start(tmp_path, sock)
        try:
            got = _messages(server, "READY=1", 30)
            assert "READY=1" in got, proc.stderr.read() if proc.poll() is not None else got
            ready_after = time.monotonic() - started
            assert "WATCHDOG=1" in _messages(server, "WATCHDOG=1", 3)
            _stops_cleanly(proc)
            assert "STOPPING=1" in _messages(server, "STOPPING=1", 2)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert ready_after < 30
    store = GameStore(tmp_path / "g.sqlite3")
    (record,) = store.records()
    assert store.session(record.id) is not None  # the table's state was saved for a restart
    # a second start resumes that game rather than starting another
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock.with_name("n2.sock")))
        server.settimeout(0.5)
        proc = _start(tmp_path, sock.with_name("n2.sock"))
        try:
            assert "READY=1" in _messages(server, "READY=1", 30)
            _stops_cleanly(proc)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert len(GameStore(tmp_path / "g.sqlite3").records()) == 1
