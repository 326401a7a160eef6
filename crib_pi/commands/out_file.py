"""A command's ``--out`` file: a file already there is kept unless ``--force`` says to replace
it, and it is never left half written (a full disk, a power cut): the text goes to a file
beside it that then takes its name."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from crib_pi.errors import CribError
from crib_pi.i18n import _


def write_out(path: Path, text: str, *, force: bool) -> None:
    """Write ``text`` to ``path``; a clear error naming it when it cannot be."""
    if path.is_dir():
        raise CribError(_("--out {out}: is a folder; give a file name").format(out=path))
    keep_unless_forced(path, "--out", force=force)
    try:
        fd, part = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(part, 0o666 & ~_umask())
            os.replace(part, path)
        except BaseException:
            Path(part).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise CribError(
            _("--out {out}: cannot be written ({reason})").format(
                out=path, reason=exc.strerror or exc
            )
        ) from None


def keep_unless_forced(path: Path, option: str, *, force: bool) -> None:
    """A file with something in it at ``path`` (given as ``option``) is the user's: a clear
    error naming it, unless ``force`` says to replace it."""
    if not force and has_content(path):
        raise CribError(
            _(
                "{option} {path}: a file is there already; give a new name, or --force to "
                "replace it"
            ).format(option=option, path=path)
        )


def has_content(path: Path) -> bool:
    """Whether a file with something in it is there (one that cannot be looked at: no)."""
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError:
        return False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
