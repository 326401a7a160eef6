"""The ``crib-pi`` command: one sub-command per module, errors as one line, never a traceback.

Each module in ``COMMAND_MODULES`` has ``add_parser(subparsers)``, which adds its sub-command
and sets ``func(args) -> int`` as the parser default. Modules are imported only when the
command line is built, and each imports its heavy libraries inside ``func``.

Bad input ends with one line naming it and status 2; a long input is clipped in the message;
a closed pipe (``| head``) ends quietly; an unexpected exception (a bug) is one line too, with
status 3, unless ``CRIB_PI_DEBUG`` is set.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

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


#: Longest input echoed in a message: a 100,000-character argument is named, not repeated.
MAX_ECHO = 300


def clip(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` cut in the middle when longer than ``limit``, saying how long it was."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}...({len(text):,} characters)...{text[-half // 2 :]}"


class Parser(argparse.ArgumentParser):
    """argparse, with a bad argument's echo clipped (``error`` prints usage and exits 2)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {clip(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="crib-pi", description="Keeps score at a real cribbage table.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_parser(sub)
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse; files given after an option (``learn-deck P --expect X IMG``) still count."""
    args, extra = parser.parse_known_args(argv)
    files = isinstance(getattr(args, "images", None), list)
    if extra and files and not any(e.startswith("-") and e != "-" for e in extra):
        args.images += extra
        extra = []
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parse(parser, argv)
    name = f"crib-pi {args.command}"
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # The reader went away (``crib-pi replay ... | head``): not an error of ours.
        _quiet_stdout()
        return 0
    except CribError as exc:
        print(f"{name}: {clip(str(exc))}", file=sys.stderr)
        return 2
    except OSError as exc:
        reason = exc.strerror or str(exc)
        where = f" ({clip(str(exc.filename))})" if exc.filename else ""
        print(f"{name}: {clip(reason)}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except RecursionError:
        print(f"{name}: the input is nested too deeply to read", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"{name}: not enough memory for this input", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line, not a traceback (CRIB_PI_DEBUG=1 shows it)
        if os.environ.get("CRIB_PI_DEBUG"):
            raise
        print(
            f"{name}: internal error {type(exc).__name__}: {clip(str(exc))} (a bug: please "
            "report it with the command; CRIB_PI_DEBUG=1 shows where)",
            file=sys.stderr,
        )
        return 3


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so Python's own flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
