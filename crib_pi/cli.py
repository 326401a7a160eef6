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
from crib_pi.i18n import LANGUAGES, _, use_language

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


def _language(text: str) -> str:
    if text not in LANGUAGES:
        raise argparse.ArgumentTypeError(
            _("--lang {lang!r} is not one of {known}").format(
                lang=clip(text, 40), known=", ".join(LANGUAGES)
            )
        )
    return text


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="crib-pi", description="Keeps score at a real cribbage table.")
    lang_help = "the language of the words shown and said (default: the config's, else LANG)"
    parser.add_argument("--lang", type=_language, metavar="en|fr", help=lang_help)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_parser(sub)
    for command in sub.choices.values():  # after the command too: crib-pi score ... --lang fr
        command.add_argument(
            "--lang", type=_language, metavar="en|fr", default=argparse.SUPPRESS, help=lang_help
        )
    return parser


def choose_language(args: argparse.Namespace) -> str:
    """``--lang``, else the config's ``language``, else ``LANGUAGE``/``LC_*``/``LANG``; a
    ``--json`` output stays in English, language-free, whatever is chosen."""
    if getattr(args, "json", False):
        return use_language("en")
    if args.lang:
        return use_language(args.lang)
    from crib_pi.config import configured_language

    return use_language(configured_language(getattr(args, "config", None)))


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
        choose_language(args)
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
        print(f"{name}: {_('the input is nested too deeply to read')}", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"{name}: {_('not enough memory for this input')}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line, not a traceback (CRIB_PI_DEBUG=1 shows it)
        if os.environ.get("CRIB_PI_DEBUG"):
            raise
        bug = _(
            "internal error {kind}: {error} (a bug: please report it with the command; "
            "CRIB_PI_DEBUG=1 shows where)"
        )
        print(
            f"{name}: " + bug.format(kind=type(exc).__name__, error=clip(str(exc))), file=sys.stderr
        )
        return 3


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so Python's own flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
