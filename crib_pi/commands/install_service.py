"""``crib-pi install-service``: install the systemd unit for this installation, then enable it.

The unit in ``systemd/crib-pi.service`` is written with ExecStart pointing at the crib-pi that
runs this command, a system user ``crib-pi`` is made (in the device groups), and the service is
enabled. ``--dry-run`` prints the unit and the commands instead.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from crib_pi.errors import CribError

UNIT_PATH = Path("/etc/systemd/system/crib-pi.service")
DEFAULT_EXEC = "/opt/crib-pi/.venv/bin/crib-pi"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("install-service", help="install and enable the systemd service")
    p.add_argument("--dry-run", action="store_true", help="print what would be done")
    p.add_argument("--unit", type=Path, default=UNIT_PATH, help="where to write the unit")
    p.set_defaults(func=run)


def unit_text(executable: str | None = None) -> str:
    """The unit file with ExecStart set to ``executable`` (this installation's crib-pi)."""
    template = resources.files("crib_pi").joinpath("data/crib-pi.service").read_text()
    exe = executable or str(Path(sys.executable).with_name("crib-pi"))
    return template.replace(DEFAULT_EXEC, exe)


def commands() -> list[list[str]]:
    groups = "video,gpio,spi,input,render"
    return [
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "crib-pi"],
        ["sh", "-c", f"for g in {groups.replace(',', ' ')}; do groupadd -f --system $g; done"],
        ["usermod", "-a", "-G", groups, "crib-pi"],
        ["systemctl", "daemon-reload"],
        ["systemctl", "enable", "--now", "crib-pi.service"],
    ]


def run(args: argparse.Namespace) -> int:
    text = unit_text()
    if args.dry_run:
        print(f"# {args.unit}\n{text}")
        for cmd in commands():
            print("$ " + " ".join(cmd))
        return 0
    if shutil.which("systemctl") is None:
        raise CribError("install-service needs systemd (systemctl was not found)")
    try:
        args.unit.write_text(text)
    except PermissionError:
        raise CribError(f"cannot write {args.unit}: run this with sudo") from None
    for cmd in commands():
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode not in (0, 9):  # 9: useradd, the user exists already
            raise CribError(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
    print(f"installed {args.unit}; crib-pi.service is enabled and started")
    return 0
