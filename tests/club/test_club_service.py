"""``crib-pi run --service`` at a club's table under the unit's own restrictions: the system
call filter and the socket families of the unit and of the network drop-in that
``install-service`` writes, loaded with libseccomp as ``tests/test_syscall_filter.py`` does
(``RestrictAddressFamilies=`` is a seccomp filter on ``socket()``). With the drop-in the table
reaches its club's real Mosquitto and serves its page, the pairing on its banner, so no family
beyond AF_UNIX, AF_INET and AF_INET6 (no AF_NETLINK) is needed; with the unit alone the page
cannot start and the game goes on regardless. ``IPAddressAllow=`` and ``PrivateNetwork=`` need
systemd itself and are not tried here."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

from crib_pi.club.director import Director
from crib_pi.club.link import Link
from crib_pi.club.messages import topic
from crib_pi.club.store import ClubStore
from crib_pi.commands import install_service
from tests.club.conftest import free_port
from tests.test_syscall_filter import _seccomp_python, _until_ready, needs_seccomp, unit_filter

FAMILIES = {"AF_UNIX": socket.AF_UNIX, "AF_INET": socket.AF_INET, "AF_INET6": socket.AF_INET6}

LOADER = textwrap.dedent(
    """
    import errno, os, sys
    import seccomp
    names_file, families = sys.argv[1], [int(f) for f in sys.argv[2].split(",")]
    f = seccomp.SyscallFilter(seccomp.ERRNO(errno.EPERM))
    for name in open(names_file).read().split():
        if name == "socket":
            continue
        try:
            f.add_rule(seccomp.ALLOW, name)
        except Exception:
            pass  # not a call on this architecture
    for family in families:
        f.add_rule(seccomp.ALLOW, "socket", seccomp.Arg(0, seccomp.EQ, family))
    f.load()
    os.execv(sys.argv[3], sys.argv[3:])
    """
)


def families(text: str) -> list[int]:
    """The socket families the unit's ``RestrictAddressFamilies=`` lines allow, read as
    systemd reads an allow list: each line adds to it, an empty one resets it."""
    allowed: list[str] = []
    for line in text.splitlines():
        key, _eq, value = line.partition("=")
        if key == "RestrictAddressFamilies":
            allowed = allowed + value.split() if value.strip() else []
    assert allowed and not any(name.startswith("~") for name in allowed)
    return [FAMILIES[name] for name in allowed]


def _service(tmp_path: Path, text: str, config: Path, sock: Path) -> subprocess.Popen[str]:
    allowed, errno_name = unit_filter(text)
    assert errno_name == "EPERM"
    names = tmp_path / "allowed.txt"
    names.write_text("\n".join(sorted(allowed)))
    loader = tmp_path / "load_filter.py"
    loader.write_text(LOADER)
    python = _seccomp_python()
    assert python is not None
    db = tmp_path / "state" / "games.sqlite3"
    db.parent.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "crib_pi", "--lang", "en", "run", "--service", "--db", str(db)]
    env = dict(
        os.environ,
        CRIB_PI_CONFIG=str(config),
        CRIB_PI_DEVICES="mock",
        NOTIFY_SOCKET=str(sock),
        WATCHDOG_USEC="2000000",
        SDL_VIDEODRIVER="dummy",
        PYTHONUNBUFFERED="1",
    )
    env.pop("WATCHDOG_PID", None)
    return subprocess.Popen(
        [python, str(loader), str(names), ",".join(map(str, families(text))), *command],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _banner(port: int) -> str | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/board.json", timeout=1) as page:
            return str(json.load(page)["banner"])
    except OSError:
        return None


def _run(tmp_path: Path, text: str, config: Path, port: int, want: str | None) -> str:
    """The service under ``text``'s restrictions, until its page shows ``want`` (or, for
    None, until it is ready and a second more); stopped with SIGTERM. Its stderr."""
    sock = tmp_path / "notify.sock"
    sock.unlink(missing_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(sock))
        server.settimeout(0.5)
        proc = _service(tmp_path, text, config, sock)
        try:
            assert _until_ready(server, proc, 30), proc.communicate(timeout=10)
            deadline = time.monotonic() + (20 if want else 1)
            while time.monotonic() < deadline and (want is None or _banner(port) != want):
                time.sleep(0.1)
            shown = _banner(port)
            proc.send_signal(signal.SIGTERM)
            _out, err = proc.communicate(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert shown == want, err
    return err


@needs_seccomp
def test_the_service_reaches_its_club_and_serves_its_page_with_the_drop_in_only(
    tmp_path: Path, make_broker
) -> None:
    broker = make_broker("friday", 4)
    table = broker.config("4", key="club-key")
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(
        f'[web]\nenabled = true\nbind = "127.0.0.1"\nport = {port}\n\n'
        f'[club]\nclub = "friday"\nbroker = "127.0.0.1"\nport = {table.port}\ntable = "4"\n'
        f'user = "{table.user}"\npassword = "{table.password}"\nkey = "club-key"\n'
    )
    store = ClubStore(tmp_path / "club.sqlite3", "friday", create=True)
    store.add_tables(["4"])
    store.add_players(["Alice", "Bob"])
    link = Link(broker.config(), "director", [topic("friday", "+", "events")])
    director = Director(store, "club-key", link.publish, say=lambda m: None)
    director.pair_next()
    director.absorb([])  # sent, retained: the table gets it when it connects
    unit = install_service.unit_text(str(Path(sys.executable).with_name("crib-pi")))
    needs = install_service.network_needs(config)
    assert needs == ["[web]", "[club]"]
    opened = unit + "\n" + install_service.drop_in_text(config, needs)
    try:
        a, b = store.pairing(1, "4") or ("", "")
        err = _run(tmp_path, opened, config, port, f"Table 4: {a} v {b}")
        assert "cannot reach the broker" not in err and "could not start" not in err
        closed = _run(tmp_path, unit, config, port, None)  # the unit alone: AF_UNIX only
        assert "the board's web page could not start on 127.0.0.1" in closed
    finally:
        link.close()
        store.close()
