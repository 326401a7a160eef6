"""A real headless Chromium driven by its DevTools protocol over a pipe (no extra package).

``--remote-debugging-pipe`` makes Chromium read commands on its fd 3 and answer on its fd 4,
each a JSON message ended by a NUL byte; this is just enough of the protocol for the tests:
open a page at a screen size, load a URL, evaluate JavaScript, take a screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)


def chromium_or_skip() -> str:
    path = os.environ.get("CRIB_PI_CHROMIUM") or CHROMIUM
    if not (os.access(path, os.X_OK) or shutil.which(path)):
        pytest.skip(f"no Chromium at {path} (apt-get install chromium; .ci/run installs it)")
    return path


def _above_4(fd: int) -> int:
    """``fd`` moved above 4, so that putting the pipes on 3 and 4 clobbers neither."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class BrowserError(RuntimeError):
    pass


class Chromium:
    """One browser process with a fresh profile; ``page`` opens a tab."""

    def __init__(self, executable: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="crib-pi-chromium-")
        to_browser, self._commands = os.pipe()
        self._answers, from_browser = os.pipe()
        to_browser, from_browser = _above_4(to_browser), _above_4(from_browser)

        # bash (dash takes fds 0-9 only) puts the pipes on fds 3 and 4, where Chromium reads
        # and writes them.
        move = f'exec "$@" 3<&{to_browser} 4>&{from_browser} {to_browser}<&- {from_browser}>&-'
        self.process = subprocess.Popen(
            [
                "/bin/bash",
                "-c",
                move,
                "bash",
                executable,
                *FLAGS,
                f"--user-data-dir={self.profile}",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=None if os.environ.get("CRIB_PI_CHROMIUM_LOG") else subprocess.DEVNULL,
            pass_fds=(to_browser, from_browser),
        )
        os.close(to_browser)
        os.close(from_browser)
        self._next = 0
        self._lock = threading.Condition()
        self._results: dict[int, dict[str, Any]] = {}
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._answers, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._lock:
                    self._results[-1] = {"error": {"message": "Chromium closed the pipe"}}
                    self._lock.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._lock:
                        self._results[message["id"]] = message
                        self._lock.notify_all()

    def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session: str | None = None,
        timeout: float = 30.0,
    ) -> dict[str, Any]:
        with self._lock:
            self._next += 1
            number = self._next
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        with self._lock:
            if not self._lock.wait_for(
                lambda: number in self._results or -1 in self._results, timeout
            ):
                raise BrowserError(f"{method}: no answer in {timeout} s")
            answer = self._results.pop(number, None) or self._results[-1]
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error'].get('message')}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    def page(self, width: int, height: int, *, mobile: bool = False) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        page = Page(self, session)
        page.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
        )
        return page

    def close(self) -> None:
        with contextlib.suppress(BrowserError):
            self.send("Browser.close", timeout=5)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    def __init__(self, browser: Chromium, session: str) -> None:
        self.browser = browser
        self.session = session

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.send(method, params, self.session)

    def evaluate(self, expression: str) -> Any:
        answer = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in answer:
            raise BrowserError(f"{expression}: {answer['exceptionDetails'].get('text')}")
        return answer["result"].get("value")

    def goto(self, url: str, timeout: float = 20.0) -> None:
        self.call("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete'", timeout)

    def wait_for(self, expression: str, timeout: float = 5.0, every: float = 0.01) -> float:
        """Poll ``expression`` until it is true; the seconds it took (BrowserError after
        ``timeout``)."""
        started = time.monotonic()
        while True:
            if self.evaluate(expression):
                return time.monotonic() - started
            if time.monotonic() - started > timeout:
                raise BrowserError(f"not true after {timeout} s: {expression}")
            time.sleep(every)

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        path.write_bytes(base64.b64decode(data))
