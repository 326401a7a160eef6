"""The ``crib-pi`` command: one sub-command per module, errors as one line, never a traceback.

Each module in ``COMMAND_MODULES`` has ``add_parser(subparsers)``, which adds its sub-command
and sets ``func(args) -> int`` as the parser default. Modules are imported only when the
command line is built, and each imports its heavy libraries inside ``func``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from crib_pi.errors import CribError

COMMAND_MODULES = (
    "crib_pi.commands.score",
    "crib_pi.commands.replay",
    "crib_pi.commands.run",
    "crib_pi.commands.board",
    "crib_pi.commands.history",
    "crib_pi.commands.install_service",
    "crib_pi.commands.mat",
    "crib_pi.commands.session",
    "crib_pi.commands.config",
    "crib_pi.commands.recognize",
    "crib_pi.commands.learn_deck",
    "crib_pi.commands.discard",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crib-pi", description="Keeps score at a real cribbage table."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except CribError as exc:
        print(f"crib-pi {args.command}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"crib-pi {args.command}: {exc.strerror or exc} ({exc.filename})", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
