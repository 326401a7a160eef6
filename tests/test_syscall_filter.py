"""The service runs under its own unit's system call filter: READY, then a clean stop.

``systemd-analyze security`` scores a filter but cannot say whether the program survives it.
Here the unit's ``SystemCallFilter=`` lines are read, their groups expanded with
``systemd-analyze syscall-filter``, and loaded with libseccomp (Debian's ``python3-seccomp``,
for the system's python3) in a child process that then execs crib-pi, as systemd would. The
unit as it was (no ``SystemCallErrorNumber=``) is shown to kill the service, so the check can fail.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

import pytest

from crib_pi.commands.install_service import unit_text

SYSTEM_PYTHON = "/usr/bin/python3"


@cache
def _seccomp_python() -> str | None:
    """A python3 that can import libseccomp's bindings, or None."""
    if shutil.which("systemd-analyze") is None or not os.path.exists(SYSTEM_PYTHON):
        return None
    done = subprocess.run([SYSTEM_PYTHON, "-c", "import seccomp"], capture_output=True)
    return SYSTEM_PYTHON if done.returncode == 0 else None


needs_seccomp = pytest.mark.skipif(
    sys.platform != "linux" or _seccomp_python() is None,
    reason="needs systemd-analyze and python3-seccomp (apt) for /usr/bin/python3",
)


@cache
def _groups() -> dict[str, tuple[str, ...]]:
    """Every ``@group`` systemd knows, with its entries (calls and nested groups)."""
    out = subprocess.run(
        ["systemd-analyze", "syscall-filter", "--no-pager"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    groups: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in out.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.strip(), [])
        elif line.startswith("    ") and current is not None:
            entry = line.strip()
            if entry and not entry.startswith("#"):
                current.append(entry)
        elif not line.strip():
            current = None
    return {name: tuple(entries) for name, entries in groups.items()}


def expand(items: list[str]) -> set[str]:
    """System call names for a list of calls and ``@groups``, nested groups included."""
    names: set[str] = set()
    for item in items:
        if item.startswith("@"):
            names |= expand(list(_groups()[item]))
        else:
            names.add(item.split(":")[0])
    return names


def unit_filter(text: str) -> tuple[set[str], str | None]:
    """The calls a unit allows and its ``SystemCallErrorNumber=`` (None: a blocked call kills),
    read the way systemd reads them: the first line, not inverted, makes an allow list (with
    ``@default``), and each ``~`` line takes calls out of it."""
    allowed: set[str] = set()
    errno_name: str | None = None
    first = True
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key == "SystemCallErrorNumber":
            errno_name = value.strip() or None
        if key != "SystemCallFilter":
            continue
        deny = value.startswith("~")
        names = expand(value.lstrip("~").split())
        if first:
            assert not deny, "this reading covers allow-list units only"
            allowed |= expand(["@default"])
            first = False
        allowed = allowed - names if deny else allowed | names
    return allowed, errno_name


LOADER = textwrap.dedent(
    """
    import errno, os, sys
    import seccomp
    errno_name, names_file = sys.argv[1], sys.argv[2]
    if errno_name == "-":
        action = seccomp.KILL_PROCESS
    else:
        action = seccomp.ERRNO(getattr(errno, errno_name))
    f = seccomp.SyscallFilter(action)
    for name in open(names_file).read().split():
        try:
            f.add_rule(seccomp.ALLOW, name)
        except Exception:
            pass  # not a call on this architecture
    f.load()
    os.execv(sys.argv[3], sys.argv[3:])
    """
)


def _filtered(tmp_path: Path, text: str, command: list[str]) -> list[str]:
    """``command`` prefixed so that it runs under ``text``'s filter."""
    allowed, errno_name = unit_filter(text)
    names = tmp_path / "allowed.txt"
    names.write_text("\n".join(sorted(allowed)))
    loader = tmp_path / "load_filter.py"
    loader.write_text(LOADER)
    python = _seccomp_python()
    assert python is not None
    return [python, str(loader), errno_name or "-", str(names), *command]


def _service(tmp_path: Path, text: str, sock: Path) -> subprocess.Popen[str]:
    db = tmp_path / "state" / "g.sqlite3"
    db.parent.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "crib_pi", "run", "--service", "--db", str(db)]
    env = dict(
        os.environ,
        CRIB_PI_DEVICES="mock",
        NOTIFY_SOCKET=str(sock),
        WATCHDOG_USEC="2000000",
        SDL_VIDEODRIVER="dummy",
        PYTHONUNBUFFERED="1",
    )
    env.pop("WATCHDOG_PID", None)
    return subprocess.Popen(
        _filtered(tmp_path, text, command),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _until_ready(server: socket.socket, proc: subprocess.Popen[str], seconds: float) -> bool:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end and proc.poll() is None:
        try:
            if "READY=1" in server.recv(4096).decode().splitlines():
                return True
        except TimeoutError:
            continue
    return False


def _exe_text() -> str:
    return unit_text(str(Path(sys.executable).with_name("crib-pi")))


def test_the_filter_reading_matches_systemds_groups() -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    allowed, errno_name = unit_filter(_exe_text())
    assert errno_name == "EPERM"
    assert {"read", "openat", "execve", "ioctl", "futex"} <= allowed
    # the deny list's calls really are out
    assert "mbind" not in allowed and "fchown" not in allowed and "setuid" not in allowed


@needs_seccomp
def test_the_service_is_ready_and_stops_cleanly_under_its_own_filter(tmp_path: Path) -> None:
    sock = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock))
        server.settimeout(0.5)
        proc = _service(tmp_path, _exe_text(), sock)
        try:
            ready = _until_ready(server, proc, 30)
            assert ready, proc.communicate(timeout=10)
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err


@needs_seccomp
def test_score_runs_under_the_filter(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "crib_pi", "score", "5H", "5D", "5S", "JC", "5C"]
    done = subprocess.run(
        _filtered(tmp_path, _exe_text(), command), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"\b29\b", done.stdout), done.stdout


@needs_seccomp
def test_the_unit_without_an_error_number_would_kill_the_service(tmp_path: Path) -> None:
    """Where a blocked call is made (SQLite's fchown as root, OpenBLAS's mbind), a filter that
    kills on it ends the service with SIGSYS; as an unprivileged user without NUMA nothing may
    be blocked, so then there is nothing to show."""
    if os.geteuid() != 0:
        pytest.skip("SQLite calls fchown only as root")
    text = "\n".join(
        line for line in _exe_text().splitlines() if not line.startswith("SystemCallErrorNumber=")
    )
    sock = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock))
        server.settimeout(0.5)
        proc = _service(tmp_path, text, sock)
        try:
            _until_ready(server, proc, 30)
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == -signal.SIGSYS
