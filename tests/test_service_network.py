"""``crib-pi install-service`` opens the network to the service only when the config it reads
turns on ``[web]`` or names a club's table, and only to this machine and the LAN: a drop-in
beside the unit, printed by ``--dry-run``, written (or removed again) by a real run, read by
``systemd-analyze`` as part of the unit."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crib_pi.cli import main
from crib_pi.commands import install_service

WEB = '[web]\nenabled = true\nbind = "192.168.1.20"\n'
CLUB = '[club]\nclub = "friday"\nbroker = "192.168.1.10"\ntable = "4"\nkey = "k"\n'
DIRECTOR = '[club]\nclub = "friday"\nkey = "k"\nweb = "0.0.0.0:8033"\n'  # no table: no service's
OPENED = (
    "PrivateNetwork=no",
    "RestrictAddressFamilies=\n",
    "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n",
    "IPAddressDeny=any",
    "IPAddressAllow=localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7",
)


def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def dry_run(unit: Path, conf: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["install-service", "--dry-run", "--unit", str(unit), "--config", str(conf)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "text, needs",
    [(WEB, "[web]"), (CLUB, "[club]"), (WEB + CLUB, "[web] and [club]"), (DIRECTOR, ""), ("", "")],
)
def test_the_dry_run_prints_the_drop_in_only_when_the_config_needs_the_network(
    tmp_path: Path, text: str, needs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    unit = tmp_path / "crib-pi.service"
    conf = config(tmp_path, text)
    out = dry_run(unit, conf, capsys)
    header = f"# {tmp_path}/crib-pi.service.d/network.conf\n"
    assert out.startswith(f"# {unit}\n") and "PrivateNetwork=yes" in out  # the unit, closed
    if needs:
        assert header in out and f"because {conf} turns on {needs}." in out
        drop_in = out.split(header)[1].split("\n$ ")[0]
        assert all(line in drop_in for line in OPENED)
        assert "AF_NETLINK" not in out and "IPAddressAllow=any" not in out
    else:
        assert header not in out and "PrivateNetwork=no" not in out
        assert f"[web] and [club] are off in {conf}: the service stays off the network" in out
    assert not unit.exists() and not (tmp_path / "crib-pi.service.d").exists()  # a dry run


def test_a_config_the_service_could_not_read_is_named_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unit = tmp_path / "crib-pi.service"
    bad = config(tmp_path, "[web]\nenabled = yes\n")
    assert main(["install-service", "--dry-run", "--unit", str(unit), "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "TOML" in err
    missing = tmp_path / "nowhere.toml"
    assert main(["install-service", "--unit", str(unit), "--config", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err and not unit.exists()


@pytest.fixture
def systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """A running systemd, as far as install-service can tell; the commands it runs, kept."""
    ran: list[list[str]] = []
    running = tmp_path / "run-systemd-system"
    running.mkdir()
    monkeypatch.setattr(install_service, "SYSTEMD_RUNNING", running)
    monkeypatch.setattr(install_service.shutil, "which", lambda name: f"/usr/bin/{name}")

    def fake_run(cmd: list[str], **_kw: object) -> subprocess.CompletedProcess[str]:
        ran.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(install_service.subprocess, "run", fake_run)
    return ran


def test_a_real_run_writes_the_drop_in_and_removes_it_when_web_and_club_go_off(
    tmp_path: Path, systemd: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    etc = tmp_path / "etc"
    etc.mkdir()
    unit = etc / "crib-pi.service"
    drop_in = etc / "crib-pi.service.d" / "network.conf"
    conf = config(tmp_path, WEB + CLUB)
    assert main(["install-service", "--unit", str(unit), "--config", str(conf)]) == 0
    assert "PrivateNetwork=yes" in unit.read_text()
    written = drop_in.read_text()
    assert all(line in written for line in OPENED)
    out = capsys.readouterr().out
    assert f"[web] [club] in {conf}: {drop_in} lets the service reach" in out
    # the running service is restarted, so that it takes the new drop-in, before enable --now
    names = [" ".join(cmd) for cmd in systemd]
    reload = names.index("systemctl daemon-reload")
    assert names[reload + 1 :] == [
        "systemctl try-restart crib-pi.service",
        "systemctl enable --now crib-pi.service",
    ]

    conf.write_text(WEB.replace("true", "false"))  # the owner turns the page off again
    assert main(["install-service", "--unit", str(unit), "--config", str(conf)]) == 0
    assert not drop_in.exists() and not drop_in.parent.exists()
    assert f"stays off the network; {drop_in} was removed" in capsys.readouterr().out

    drop_in.parent.mkdir()  # the owner's own override is left alone
    (drop_in.parent / "override.conf").write_text("[Service]\nNice=5\n")
    drop_in.write_text(written)
    assert main(["install-service", "--unit", str(unit), "--config", str(conf)]) == 0
    assert not drop_in.exists() and (drop_in.parent / "override.conf").exists()


def test_without_sudo_the_drop_in_is_refused_with_a_message(
    tmp_path: Path, systemd: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    etc = tmp_path / "etc"
    etc.mkdir()
    unit = etc / "crib-pi.service"
    (etc / "crib-pi.service.d").mkdir()
    (etc / "crib-pi.service.d" / "network.conf").mkdir()  # cannot be written as a file
    conf = config(tmp_path, WEB)
    assert main(["install-service", "--unit", str(unit), "--config", str(conf)]) != 0
    assert "network.conf" in capsys.readouterr().err and systemd == []


needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (apt install systemd)",
)


def _install(folder: Path, text: str) -> Path:
    """Unit and drop-in as a dry run would have them written, in ``folder``."""
    exe = str(Path(sys.executable).with_name("crib-pi"))
    unit = folder / "crib-pi.service"
    unit.write_text(install_service.unit_text(exe))
    needs = install_service.network_needs(config(folder, text))
    if needs:
        drop_in = install_service.drop_in_path(unit)
        drop_in.parent.mkdir()
        drop_in.write_text(install_service.drop_in_text(folder / "config.toml", needs))
    return unit


def _exposure(unit: Path) -> float:
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(unit)],
        capture_output=True,
        text=True,
    )
    found = re.search(r"Overall exposure level for crib-pi.service: ([0-9.]+)", done.stdout)
    assert found, done.stdout + done.stderr
    return float(found.group(1))


@needs_systemd
def test_systemd_reads_the_unit_with_its_drop_in_cleanly(tmp_path: Path) -> None:
    opened, closed = tmp_path / "opened", tmp_path / "closed"
    opened.mkdir()
    closed.mkdir()
    unit = _install(opened, WEB + CLUB)
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    complaints = [
        line for line in done.stderr.splitlines() if "crib-pi.service" in line or "network" in line
    ]
    assert done.returncode == 0 and complaints == [], done.stderr
    # systemd takes the drop-in as part of the unit: opening the network is scored, and only
    # that (the rest of the hardening stands)
    base, with_network = _exposure(_install(closed, "")), _exposure(unit)
    assert base < with_network <= 2.0, (base, with_network)
