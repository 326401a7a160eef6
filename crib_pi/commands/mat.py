"""``crib-pi mat --out mat.pdf|mat.png [--players N]`` and ``crib-pi mat --json``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from crib_pi.errors import CribError
from crib_pi.i18n import _


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "mat", help=_("make the printable play mat (PDF or PNG), or print its layout")
    )
    p.add_argument("--out", type=Path, help=_("mat.pdf (A3 vector, print at 100%%) or mat.png"))
    p.add_argument(
        "--players", type=int, default=2, choices=(2, 3, 4), help=_("2 (default), 3 or 4")
    )
    p.add_argument("--json", action="store_true", help=_("print size, markers and zones"))
    p.add_argument("--force", action="store_true", help=_("replace the --out file if it exists"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from crib_pi.commands.out_file import keep_unless_forced
    from crib_pi.mat import HEIGHT_MM, WIDTH_MM, Mat, pdf_bytes

    mat = Mat(args.players)
    if args.json:
        print(json.dumps(mat.to_json()))
    if args.out is None:
        if not args.json:
            raise CribError(_("say where to write the mat with --out mat.pdf, or use --json"))
        return 0
    suffix = args.out.suffix.lower()
    if suffix in (".pdf", ".png", ".jpg", ".jpeg"):
        keep_unless_forced(args.out, "--out", force=args.force)
    image = mat.render()
    if suffix == ".pdf":
        args.out.write_bytes(pdf_bytes(mat))
    elif suffix in (".png", ".jpg", ".jpeg"):
        if not cv2.imwrite(str(args.out), image):
            raise CribError(_("could not write {out}").format(out=args.out))
    else:
        raise CribError(_("--out {out}: the mat is written as .pdf or .png").format(out=args.out))
    if not args.json:
        print(
            _("wrote {out} ({players} players, A3 {width} x {height} mm)").format(
                out=args.out, players=args.players, width=WIDTH_MM, height=HEIGHT_MM
            )
        )
    return 0
