"""A Pi library that fails in any way is one clear message and the table goes on.

picamera2 and rpi_ws281x are stood in for by small modules written into a temporary folder that
fail the way the real ones were seen to: ``import picamera2`` raising ``ValueError`` ("numpy.dtype
size changed", numpy 2 over apt's numpy 1.24), ``Picamera2()`` raising ``IndexError`` (no camera
module), and ``PixelStrip.begin()`` failing with the library's atexit cleanup left behind, which
dereferences a null pointer (SIGSEGV) at exit as the real ``_cleanup`` does. Where the real
rpi_ws281x is installed (it builds on x86 too, and fails ``begin()`` the same way) it is used.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from crib_pi.devices import make_devices
from crib_pi.devices.cameras.base import NullCamera
from crib_pi.devices.clock import FakeClock
from crib_pi.devices.config import DeviceConfig
from crib_pi.devices.factory import on_a_pi
from crib_pi.devices.leds.base import NullStrip
from crib_pi.devices.scenes import pegs_snapshot

pytestmark = pytest.mark.skipif(bool(on_a_pi()), reason="on a Pi the real libraries are there")

ABI_ERROR = (
    "numpy.dtype size changed, may indicate binary incompatibility."
    " Expected 96 from C header, got 88 from PyObject"
)

PICAMERA2 = {
    "abi": f"raise ValueError({ABI_ERROR!r})\n",
    "no-camera": textwrap.dedent(
        """
        class Picamera2:
            def __init__(self):
                raise IndexError("list index out of range")
        """
    ),
    "start-fails": textwrap.dedent(
        """
        closed = []
        class Picamera2:
            def create_video_configuration(self, main):
                return {"main": main}
            def configure(self, config):
                pass
            def start(self):
                raise RuntimeError("Failed to start camera: Device or resource busy")
            def close(self):
                closed.append(self)
        """
    ),
}

# Shaped like rpi_ws281x 5.0's PixelStrip: __init__ registers _cleanup with atexit, begin()
# raises RuntimeError when ws2811_init fails, and _cleanup then runs ws2811_fini on the
# half-made strip, which reads through a null pointer.
RPI_WS281X = textwrap.dedent(
    """
    import atexit
    import ctypes

    class PixelStrip:
        def __init__(self, num, pin, freq_hz=800000, dma=10, invert=False, brightness=255,
                     channel=0, strip_type=None, gamma=None):
            self._leds = object()
            self._started = False
            atexit.register(self._cleanup)

        def begin(self):
            raise RuntimeError(
                "ws2811_init failed with code -3 (Hardware revision is not supported)")

        def _cleanup(self):
            if self._leds is not None:
                if not self._started:
                    ctypes.string_at(0)  # ws2811_fini on a strip whose init failed
                self._leds = None
    """
)


def _fake_libraries(folder: Path, camera: str, strip: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "picamera2.py").write_text(PICAMERA2[camera])
    if strip:
        (folder / "rpi_ws281x.py").write_text(RPI_WS281X)
    return folder


def _pi_config(**leds: Any) -> DeviceConfig:
    return DeviceConfig.from_mapping(
        {"screen": {"driver": "offscreen-missing"}, "leds": {"driver": "ws281x", **leds}}
    )


@pytest.mark.parametrize("camera", sorted(PICAMERA2))
def test_any_camera_library_failure_is_one_problem_and_the_table_goes_on(
    camera: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: Any
) -> None:
    monkeypatch.syspath_prepend(str(_fake_libraries(tmp_path / "libs", camera, strip=False)))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    clock = FakeClock()
    devices = make_devices(_pi_config(), backend="pi", clock=clock, pin_factory=mock_factory)
    try:
        assert isinstance(devices.camera, NullCamera)
        (problem,) = devices.reporter.about("camera")
        expected = {
            "abi": "picamera2 failed to import (ValueError: numpy.dtype size changed",
            "no-camera": "no camera module found (IndexError(",
            "start-fails": "the camera would not start (RuntimeError(",
        }[camera]
        assert expected in problem.message, problem.message
        assert problem.message.endswith("carrying on without it")
        if camera == "abi":
            assert "remake .venv" in problem.message
        if camera == "start-fails":
            assert len(sys.modules["picamera2"].closed) == 1  # the half-started camera let go
        for n in range(10):
            devices.show(pegs_snapshot([(n, 0), (n // 2, 0)], 2))
            assert devices.camera.read() is None
            clock.advance(0.1)
        assert len(devices.reporter.about("camera")) == 1
    finally:
        devices.close()
        monkeypatch.delitem(sys.modules, "picamera2", raising=False)


def test_the_stand_in_strip_crashes_at_exit_as_the_real_library_does(tmp_path: Path) -> None:
    """Without crib-pi's care, a failed begin() kills the process at exit (so the next test,
    which exits cleanly, shows the care works)."""
    libs = _fake_libraries(tmp_path / "libs", "abi")
    script = (
        "from rpi_ws281x import PixelStrip\n"
        "s = PixelStrip(10, 10)\n"
        "try:\n    s.begin()\nexcept RuntimeError as e:\n    print(e)\n"
    )
    done = _python(script, libs)
    assert "Hardware revision is not supported" in done.stdout
    assert done.returncode == -signal.SIGSEGV


def _python(script: str, libs: Path | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", SDL_VIDEODRIVER="dummy")
    if libs is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(libs), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )


STRIP_LIBRARIES = [
    "stand-in",
    pytest.param(
        "real",
        marks=pytest.mark.skipif(
            importlib.util.find_spec("rpi_ws281x") is None, reason="rpi_ws281x is not installed"
        ),
    ),
]


@pytest.mark.parametrize("library", STRIP_LIBRARIES)
def test_a_failed_led_start_is_reported_and_the_process_exits_cleanly(
    library: str, tmp_path: Path
) -> None:
    libs = _fake_libraries(tmp_path / "libs", "no-camera", strip=library == "stand-in")
    script = textwrap.dedent(
        """
        from crib_pi.devices import make_devices
        from crib_pi.devices.config import DeviceConfig
        config = DeviceConfig.from_mapping(
            {"screen": {"driver": "offscreen-missing"}, "leds": {"driver": "ws281x"}})
        devices = make_devices(config, backend="pi")
        print(type(devices.leds.strip).__name__)
        for p in devices.reporter.about("leds"):
            print(p)
        devices.close()
        """
    )
    done = _python(script, libs)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == NullStrip.__name__
    (problem,) = lines[1:]
    assert "rpi_ws281x could not start" in problem
    assert "Hardware revision is not supported" in problem
    assert 'driver = "pi5neo"' in problem


def test_the_service_on_a_pi_with_broken_libraries_is_ready_and_stops_cleanly(
    tmp_path: Path,
) -> None:
    """The pi backend as the service runs it: camera library raising at import, LED start
    failing; READY arrives, each problem is said once, SIGTERM stops it with status 0."""
    libs = _fake_libraries(tmp_path / "libs", "abi")
    sock = tmp_path / "notify.sock"
    env = dict(
        os.environ,
        CRIB_PI_DEVICES="pi",
        GPIOZERO_PIN_FACTORY="mock",
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        NOTIFY_SOCKET=str(sock),
        PYTHONPATH=os.pathsep.join([str(libs), os.environ.get("PYTHONPATH", "")]),
    )
    config = tmp_path / "config.toml"
    config.write_text('[devices.leds]\ndriver = "ws281x"\n')
    command = [sys.executable, "-m", "crib_pi", "run", "--service"]
    command += ["--db", str(tmp_path / "g.sqlite3"), "--config", str(config)]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock))
        server.settimeout(0.5)
        proc = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            got: list[str] = []
            end = time.monotonic() + 30
            while "READY=1" not in got and time.monotonic() < end and proc.poll() is None:
                try:
                    got += server.recv(4096).decode().splitlines()
                except TimeoutError:
                    continue
            assert "READY=1" in got, proc.communicate(timeout=10)
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, err
    said = [line for line in err.splitlines() if line.startswith("crib-pi: ")]
    assert len([s for s in said if s.startswith("crib-pi: camera: ")]) == 1, err
    assert len([s for s in said if s.startswith("crib-pi: leds: ")]) == 1, err
    assert "numpy.dtype size changed" in err and "Hardware revision is not supported" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("driver", "module"), [("ws281x", "rpi_ws281x"), ("pi5neo", "pi5neo")])
def test_an_led_library_that_raises_at_import_is_one_problem(
    driver: str, module: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_factory: Any
) -> None:
    libs = tmp_path / "libs"
    libs.mkdir()
    (libs / f"{module}.py").write_text("raise OSError('libws2811.so: cannot open shared object')\n")
    monkeypatch.syspath_prepend(str(libs))
    monkeypatch.delitem(sys.modules, module, raising=False)
    config = DeviceConfig.from_mapping(
        {"screen": {"driver": "offscreen-missing"}, "leds": {"driver": driver}}
    )
    devices = make_devices(config, backend="pi", clock=FakeClock(), pin_factory=mock_factory)
    try:
        assert isinstance(devices.leds.strip, NullStrip)
        (problem,) = devices.reporter.about("leds")
        assert f"{module} failed to import (OSError(" in problem.message, problem.message
    finally:
        devices.close()
        monkeypatch.delitem(sys.modules, module, raising=False)
