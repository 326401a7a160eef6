"""``crib-pi install-service``: install the systemd unit for this installation, then enable it.

The unit in ``systemd/crib-pi.service`` is written with ExecStart pointing at the crib-pi that
runs this command, a system user ``crib-pi`` is made (in the device groups), and the service is
enabled. ``--dry-run`` prints the unit and the commands instead, quoted so that they can be
pasted into a shell. It needs a running systemd (not merely ``systemctl`` on the path), checked
before anything is changed, and warns when the installation lies under a folder the unit's
``ProtectHome=yes`` hides from the service.

The unit keeps the service off the network. When the config the service reads turns on
``[web]`` (the board's page) or names a club's table in ``[club]`` (its broker), a drop-in,
``crib-pi.service.d/network.conf`` beside the unit, opens it to this machine and the local
network only; when neither is on, a drop-in left from before is removed. Running it again
after changing either applies the change: the running service is restarted.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from crib_pi.config import SYSTEM_PATH
from crib_pi.errors import CribError
from crib_pi.i18n import _

UNIT_PATH = Path("/etc/systemd/system/crib-pi.service")
DEFAULT_EXEC = "/opt/crib-pi/.venv/bin/crib-pi"
SYSTEMD_RUNNING = Path("/run/systemd/system")  # sd_booted(): present only under systemd
HIDDEN_BY_PROTECT_HOME = ("/home", "/root", "/run/user")
DROP_IN = "network.conf"
#: What the board's page and a club's broker need, and no more: IPv4 and IPv6 sockets (no
#: netlink: Python's servers and paho-mqtt never ask for it), and only to this machine, the
#: private ranges of a home or club LAN and link-local addresses.
NETWORK = """\
# crib-pi: written by `crib-pi install-service` because {config} turns on {needs}.
# The unit keeps the service off the network; this opens it to this machine and the local
# network only. Run `sudo crib-pi install-service` again after changing [web] or [club]:
# it rewrites this file, or removes it when neither is on.
[Service]
PrivateNetwork=no
RestrictAddressFamilies=
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
IPAddressDeny=any
IPAddressAllow=localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7
"""


def add_parser(sub: Any) -> None:
    p = sub.add_parser("install-service", help=_("install and enable the systemd service"))
    p.add_argument("--dry-run", action="store_true", help=_("print what would be done"))
    p.add_argument("--unit", type=Path, default=UNIT_PATH, help=_("where to write the unit"))
    p.add_argument(
        "--config",
        type=Path,
        default=SYSTEM_PATH,
        help=_(
            "the config the service reads, to see what it needs of the network (default {path})"
        ).format(path=SYSTEM_PATH),
    )
    p.set_defaults(func=run)


def unit_text(executable: str | None = None) -> str:
    """The unit file with ExecStart set to ``executable`` (this installation's crib-pi)."""
    template = resources.files("crib_pi").joinpath("data/crib-pi.service").read_text()
    exe = executable or str(Path(sys.executable).with_name("crib-pi"))
    return template.replace(DEFAULT_EXEC, exe)


def drop_in_path(unit: Path) -> Path:
    """The network drop-in for ``unit``: ``<unit>.d/network.conf``, where systemd looks."""
    return unit.with_name(unit.name + ".d") / DROP_IN


def network_needs(config: Path) -> list[str]:
    """The sections of ``config`` that need the network: ``[web]`` when it is enabled,
    ``[club]`` when it names this machine's table (``crib-pi run`` then joins the club).
    A config that is missing is none at all (the defaults: off); one that cannot be read is
    a ``CribError`` naming it, as the service itself would stop on it."""
    from crib_pi.config import load

    if config == SYSTEM_PATH and not config.exists():
        return []
    loaded = load(config)
    return [
        name
        for name, on in (("[web]", loaded.web.enabled), ("[club]", bool(loaded.club.table)))
        if on
    ]


def drop_in_text(config: Path, needs: list[str]) -> str:
    return NETWORK.format(config=config, needs=" and ".join(needs))


def commands() -> list[list[str]]:
    groups = "video,gpio,spi,input,render,audio"
    return [
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "crib-pi"],
        ["sh", "-c", f"for g in {groups.replace(',', ' ')}; do groupadd -f --system $g; done"],
        ["usermod", "-a", "-G", groups, "crib-pi"],
        ["systemctl", "daemon-reload"],
        ["systemctl", "try-restart", "crib-pi.service"],  # a running one takes the new unit
        ["systemctl", "enable", "--now", "crib-pi.service"],
    ]


def home_warning(text: str, executable: str) -> str | None:
    """Why the service could not see its own files, or None."""
    if "ProtectHome=yes" not in text:
        return None
    where = str(Path(executable).resolve())
    hidden = next((h for h in HIDDEN_BY_PROTECT_HOME if where.startswith(h + "/")), None)
    if hidden is None:
        return None
    return _(
        "warning: {where} is under {hidden}, which the unit's ProtectHome=yes "
        "hides from the service; clone crib-pi to /opt/crib-pi (see README) "
        "and install from there"
    ).format(where=where, hidden=hidden)


def check_unit_path(unit: Path) -> None:
    """``--unit`` names a ``.service`` file whose folder exists (a dry run checks it too)."""
    if unit.is_dir():
        raise CribError(
            _("--unit {unit}: is a folder; give the unit file's path").format(unit=unit)
        )
    if unit.suffix != ".service":
        raise CribError(
            _("--unit {unit}: a systemd service unit's name ends in .service").format(unit=unit)
        )
    if not unit.parent.is_dir():
        raise CribError(
            _("--unit {unit}: the folder {folder} does not exist").format(
                unit=unit, folder=unit.parent
            )
        )
    if unit.exists() and not unit.is_file():
        raise CribError(_("--unit {unit}: is not a regular file").format(unit=unit))


def run(args: argparse.Namespace) -> int:
    exe = str(Path(sys.executable).with_name("crib-pi"))
    check_unit_path(args.unit)  # a dry run says what the real one would refuse
    text = unit_text(exe)
    needs = network_needs(args.config)  # a config the service could not read stops it here
    drop_in = drop_in_path(args.unit)
    warning = home_warning(text, exe)
    if warning:
        print(warning, file=sys.stderr)
    if args.dry_run:
        print(f"# {args.unit}\n{text}")
        if needs:
            print(f"# {drop_in}\n{drop_in_text(args.config, needs)}")
        else:
            gone = _("{drop_in} would be removed") if drop_in.exists() else ""
            print("# " + _off_network(args.config, gone.format(drop_in=drop_in)))
        for cmd in commands():
            print("$ " + shlex.join(cmd))
        return 0
    if shutil.which("systemctl") is None or not SYSTEMD_RUNNING.is_dir():
        raise CribError(
            _(
                "install-service needs a running systemd (systemctl was not found, or systemd is "
                "not this machine's init); nothing was changed"
            )
        )
    _write(args.unit, text)
    if needs:
        drop_in.parent.mkdir(exist_ok=True)
        _write(drop_in, drop_in_text(args.config, needs))
    removed = not needs and drop_in.exists()
    if removed:
        drop_in.unlink()
        with contextlib.suppress(OSError):  # only if nothing else was put there
            drop_in.parent.rmdir()
    for cmd in commands():
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode not in (0, 9):  # 9: useradd, the user exists already
            raise CribError(
                _("{command} failed: {error}").format(
                    command=shlex.join(cmd), error=done.stderr.strip()
                )
            )
    print(_("installed {unit}; crib-pi.service is enabled and started").format(unit=args.unit))
    if needs:
        print(
            _(
                "{needs} in {config}: {drop_in} lets the service reach this machine and the "
                "local network only"
            ).format(needs=" ".join(needs), config=args.config, drop_in=drop_in)
        )
    else:
        gone = _("{drop_in} was removed") if removed else ""
        print(_off_network(args.config, gone.format(drop_in=drop_in)))
    return 0


def _off_network(config: Path, removal: str) -> str:
    """Why there is no drop-in, and ``removal``: what became of one left from before."""
    off = _("[web] and [club] are off in {config}: the service stays off the network").format(
        config=config
    )
    return f"{off}; {removal}" if removal else off


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text)
    except PermissionError:
        raise CribError(_("cannot write {unit}: run this with sudo").format(unit=path)) from None
