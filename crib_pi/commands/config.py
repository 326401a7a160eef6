"""``crib-pi config --check [--file PATH]``: what the assistant would use, or why not."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from crib_pi.i18n import _


def add_parser(sub: Any) -> None:
    p = sub.add_parser("config", help=_("check the configuration file and say what would be used"))
    p.add_argument("--check", action="store_true", help=_("check it (the default action)"))
    p.add_argument("--file", type=Path, help=_("this file instead of the one in force"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from crib_pi.config import load

    print(load(args.file).describe())
    return 0
