"""``crib-pi install-service``: install the systemd unit for this installation, then enable it.

The unit in ``systemd/crib-pi.service`` is written with ExecStart pointing at the crib-pi that
runs this command, a system user ``crib-pi`` is made (in the device groups), and the service is
enabled. ``--dry-run`` prints the unit and the commands instead, quoted so that they can be
pasted into a shell. It needs a running systemd (not merely ``systemctl`` on the path), checked
before anything is changed, and warns when the installation lies under a folder the unit's
``ProtectHome=yes`` hides from the service.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from crib_pi.errors import CribError
from crib_pi.i18n import _

UNIT_PATH = Path("/etc/systemd/system/crib-pi.service")
DEFAULT_EXEC = "/opt/crib-pi/.venv/bin/crib-pi"
SYSTEMD_RUNNING = Path("/run/systemd/system")  # sd_booted(): present only under systemd
HIDDEN_BY_PROTECT_HOME = ("/home", "/root", "/run/user")


def add_parser(sub: Any) -> None:
    p = sub.add_parser("install-service", help=_("install and enable the systemd service"))
    p.add_argument("--dry-run", action="store_true", help=_("print what would be done"))
    p.add_argument("--unit", type=Path, default=UNIT_PATH, help=_("where to write the unit"))
    p.set_defaults(func=run)


def unit_text(executable: str | None = None) -> str:
    """The unit file with ExecStart set to ``executable`` (this installation's crib-pi)."""
    template = resources.files("crib_pi").joinpath("data/crib-pi.service").read_text()
    exe = executable or str(Path(sys.executable).with_name("crib-pi"))
    return template.replace(DEFAULT_EXEC, exe)


def commands() -> list[list[str]]:
    groups = "video,gpio,spi,input,render,audio"
    return [
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "crib-pi"],
        ["sh", "-c", f"for g in {groups.replace(',', ' ')}; do groupadd -f --system $g; done"],
        ["usermod", "-a", "-G", groups, "crib-pi"],
        ["systemctl", "daemon-reload"],
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
    warning = home_warning(text, exe)
    if warning:
        print(warning, file=sys.stderr)
    if args.dry_run:
        print(f"# {args.unit}\n{text}")
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
    try:
        args.unit.write_text(text)
    except PermissionError:
        raise CribError(
            _("cannot write {unit}: run this with sudo").format(unit=args.unit)
        ) from None
    for cmd in commands():
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode not in (0, 9):  # 9: useradd, the user exists already
            raise CribError(
                _("{command} failed: {error}").format(
                    command=shlex.join(cmd), error=done.stderr.strip()
                )
            )
    print(_("installed {unit}; crib-pi.service is enabled and started").format(unit=args.unit))
    return 0
