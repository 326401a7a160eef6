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
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import NoReturn

from crib_pi import __version__, i18n
from crib_pi.errors import CribError
from crib_pi.i18n import LANGUAGES, N_, _, use_language

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
    "crib_pi.commands.club",
)


#: Longest input echoed in a message: a 100,000-character argument is named, not repeated.
MAX_ECHO = 300


def clip(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` cut in the middle when longer than ``limit``, saying how long it was."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}...({len(text):,} characters)...{text[-half // 2 :]}"


def free_name(path: Path, taken: Collection[Path] = ()) -> Path:
    """``path``, or ``name-2.ext``, ``name-3.ext``... the first that is neither a file already
    nor in ``taken``: a user's file is never written over without being asked."""
    candidate, number = path, 1
    while candidate.exists() or candidate.is_symlink() or candidate in taken:
        number += 1
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return candidate


#: argparse's own words (Python 3.11 to 3.13 ask for these msgids), in the catalogue so that
#: ``--help`` and a usage error speak the table's language; ``speak_argparse`` hooks them in.
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
)


def speak_argparse() -> None:
    """Point argparse's gettext lookups (``argparse._``, ``argparse.ngettext``, names it
    imported from gettext and looks up when it speaks) at our layer: its usage, help headings
    and errors then follow ``--lang``. Our ``_`` gives the English back unchanged in English."""
    setattr(argparse, "_", i18n._)  # noqa: B010 (a module global argparse reads at call time)
    setattr(argparse, "ngettext", i18n.ngettext)  # noqa: B010


class Parser(argparse.ArgumentParser):
    """argparse, with a bad argument's echo clipped (``error`` prints usage and exits 2)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        said = _("%(prog)s: error: %(message)s\n") % {"prog": self.prog, "message": clip(message)}
        self.exit(2, said)


def _language(text: str) -> str:
    if text not in LANGUAGES:
        raise argparse.ArgumentTypeError(
            _("--lang {lang!r} is not one of {known}").format(
                lang=clip(text, 40), known=", ".join(LANGUAGES)
            )
        )
    return text


def build_parser() -> argparse.ArgumentParser:
    """The command line, its help in the current language (``early_language`` chose it)."""
    speak_argparse()
    parser = Parser(prog="crib-pi", description=_("Keeps score at a real cribbage table."))
    lang_help = _("the language of the words shown and said (default: the config's, else LANG)")
    parser.add_argument("--lang", type=_language, metavar="en|fr", help=lang_help)
    parser.add_argument(
        "--version",
        action="version",
        version=f"crib-pi {__version__}",
        help=_("print crib-pi's version and exit"),
    )
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


def early_language(argv: Sequence[str] | None) -> str:
    """The language chosen before the parser is built, so ``--help`` and argparse's errors
    speak it: ``--lang X`` (or ``--lang=X``) anywhere on the line if the table speaks it,
    else as ``choose_language`` would without a ``--config``. A ``--json`` line stays English."""
    words = list(sys.argv[1:] if argv is None else argv)
    if "--json" in words:
        return use_language("en")
    for i, word in enumerate(words):
        value = word[len("--lang=") :] if word.startswith("--lang=") else None
        if word == "--lang" and i + 1 < len(words):
            value = words[i + 1]
        if value in LANGUAGES:
            return use_language(value)
    from crib_pi.config import configured_language

    return use_language(configured_language(None))


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse; files given after an option (``learn-deck P --expect X IMG``) still count."""
    args, extra = parser.parse_known_args(argv)
    files = isinstance(getattr(args, "images", None), list)
    if extra and files and not any(e.startswith("-") and e != "-" for e in extra):
        args.images += extra
        extra = []
    if extra:
        parser.error(_("unrecognized arguments: %s") % " ".join(extra))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    early_language(argv)
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
    except KeyboardInterrupt:  # Ctrl-C: said, and the usual status (128 + SIGINT)
        print(f"{name}: " + _("stopped ({why})").format(why="Ctrl-C"), file=sys.stderr)
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
