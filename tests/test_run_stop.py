"""Stopping ``crib-pi run``: SIGTERM and the window's close button end the demo and the live
game within a second, cleanly (SIGTERM's usual status 143, no traceback, the game stored)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from crib_pi.actions import GameOptions
from crib_pi.app import Assistant
from crib_pi.cli import main
from crib_pi.devices import make_devices
from crib_pi.session.pipeline import NoRecognizer
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.store import GameLog, GameStore

ENV = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


def _start(args: list[str], **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "crib_pi", "run", *args],
        env={**os.environ, **ENV, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _term_within(proc: subprocess.Popen[str], seconds: float) -> tuple[float, str]:
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        status = proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    took = time.monotonic() - started
    err = proc.stderr.read() if proc.stderr else ""
    assert status == 143, err  # 128 + SIGTERM, the usual status (0 only under --service)
    assert "Traceback" not in err
    assert took < seconds, f"SIGTERM took {took:.2f} s"
    return took, err


def test_sigterm_stops_the_demo_while_it_films(tmp_path: Path) -> None:
    proc = _start(["--demo", "--out", str(tmp_path / "out")], DISPLAY="")
    assert proc.stdout is not None
    for line in proc.stdout:
        if "filming" in line:
            break
    time.sleep(1.0)
    _, err = _term_within(proc, 1.0)
    assert "stopped (SIGTERM)" in err


def test_sigterm_stops_the_live_game_and_keeps_it(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    proc = _start(["--db", str(db)], CRIB_PI_DEVICES="mock")
    end = time.monotonic() + 60
    while not db.exists() and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.1)
    time.sleep(1.0)  # well into the main loop
    _term_within(proc, 1.0)
    store = GameStore(db)
    assert len(store.records()) == 1


def test_the_window_close_button_stops_the_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real pygame window (SDL's dummy driver) gets SDL's quit event, as its close button
    sends, while the demo is filming."""
    pygame = pytest.importorskip("pygame")
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("DISPLAY", ":crib-pi-test")  # the demo thinks it has a desktop
    monkeypatch.setenv("CRIB_PI_DEVICES", "desktop")
    posted: list[float] = []

    def close_the_window() -> None:
        end = time.monotonic() + 60
        while not pygame.display.get_init() and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(1.5)
        posted.append(time.monotonic())
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    closer = threading.Thread(target=close_the_window)
    closer.start()
    status = main(["run", "--demo", "--out", str(tmp_path / "out")])
    returned = time.monotonic()
    closer.join()
    assert status == 0
    assert "stopped (the window was closed)" in capsys.readouterr().err
    assert posted and returned - posted[0] < 1.0
    assert not pygame.display.get_init()  # the screen was closed on the way out


def test_the_window_close_button_stops_the_live_loop() -> None:
    devices = make_devices(backend="mock")
    table = TableSession(GameOptions(), GameLog(None), Tracker())
    assistant = Assistant(devices, table, NoRecognizer())
    runner = threading.Thread(target=assistant.run)
    runner.start()
    time.sleep(0.3)
    assert runner.is_alive()
    closed = time.monotonic()
    devices.screen.quit_requested = True  # type: ignore[attr-defined]
    runner.join(timeout=5)
    assert not runner.is_alive() and time.monotonic() - closed < 1.0
    assert assistant.stop.is_set()
    devices.close()


def test_the_signal_handler_never_waits_for_the_stop_events_lock() -> None:
    """The handler runs on the main thread between two bytecodes, which may be inside
    ``stop.wait()`` holding the Event's lock (a CI run hung there for good). Called while that
    lock is held, it must return at once; the loop then stops by itself."""
    devices = make_devices(backend="mock")
    table = TableSession(GameOptions(), GameLog(None), Tracker())
    assistant = Assistant(devices, table, NoRecognizer())
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        assistant._handle_signals()
        handler = signal.getsignal(signal.SIGTERM)
        assert callable(handler)
        with assistant.stop._cond:  # as inside Event.wait()
            caller = threading.Thread(target=handler, args=(signal.SIGTERM, None), daemon=True)
            caller.start()
            caller.join(timeout=2)
            returned = not caller.is_alive()
        assert returned, "the SIGTERM handler waited for the stop Event's lock"
    finally:
        for sig, old in before.items():
            signal.signal(sig, old)
    runner = threading.Thread(target=assistant.run)  # the signal came: it stops at once
    runner.start()
    runner.join(timeout=5)
    assert not runner.is_alive()
    assert assistant.stop.is_set()
    devices.close()
