"""``crib-pi recognize IMAGE... [--json] [--deck PROFILE] [--draw OUT_DIR]``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from crib_pi.cli import clip, free_name
from crib_pi.errors import CribError
from crib_pi.i18n import _, ngettext


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "recognize",
        help=_("read the cards in photos of the table"),
        description=_(
            "Read every card whose index shows. Cards that cannot be read with "
            "confidence are listed as uncertain, with their candidates."
        ),
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help=_("PNG, JPEG, BMP or WebP"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per image, one per line"))
    p.add_argument("--deck", type=Path, metavar="PROFILE", help=_("a profile from learn-deck"))
    p.add_argument(
        "--draw", type=Path, metavar="OUT_DIR", help=_("write each image with its reads")
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read every image; one that cannot be read is said and skipped, the others read, and
    the failed ones named again at the end (status 2)."""
    import cv2

    from crib_pi.vision.draw import draw
    from crib_pi.vision.errors import ImageReadError
    from crib_pi.vision.profile import DeckProfile
    from crib_pi.vision.recognizer import Recognizer, load_image

    if args.deck is not None and args.deck.is_dir():
        raise CribError(
            _(
                "--deck {deck}: is a folder; give a deck profile file (learn-deck writes one)"
            ).format(deck=args.deck)
        )
    profile = DeckProfile.load(args.deck) if args.deck else None
    rec = Recognizer(profile)
    drawings = _drawing_names(args.draw, args.images) if args.draw else {}
    failed: list[str] = []
    for path in args.images:
        try:
            img = load_image(path)
        except ImageReadError as exc:
            failed.append(path)
            print(f"crib-pi recognize: {clip(str(exc))}", file=sys.stderr, flush=True)
            if args.json:
                print(json.dumps({"image": path, "error": str(exc)}, ensure_ascii=False))
            continue
        result = rec.read(img)
        if args.json:
            print(json.dumps({"image": path, **result.to_json()}), flush=True)
        else:
            named = " ".join(str(c.card) for c in result.cards) or "-"
            line = f"{path}: {named}"
            for u in result.uncertain:
                line += " ?" + "/".join(str(c) for c in u.candidates)
            print(line, flush=True)
        if args.draw:
            out, plain = drawings[path]
            if out.exists() or out.is_symlink():  # made since the names were chosen
                out = free_name(out)
            if not cv2.imwrite(str(out), draw(img, result)):
                raise ImageReadError(_("cannot write {path}").format(path=out))
            if out != plain:
                said = _("{plain} is taken; the drawing of {image} is {out}").format(
                    plain=plain, image=path, out=out
                )
                print(f"crib-pi recognize: {said}", file=sys.stderr)
    if failed and len(args.images) > 1:  # one image: its own line has said it
        said = ngettext(
            "{count} image of {total} could not be read: {names}",
            "{count} images of {total} could not be read: {names}",
            len(failed),
        ).format(count=len(failed), total=len(args.images), names=clip(" ".join(failed)))
        print(f"crib-pi recognize: {said}", file=sys.stderr)
    return 2 if failed else 0


def _drawing_names(folder: Path, images: list[str]) -> dict[str, tuple[Path, Path]]:
    """Where each image's drawing goes, and the plain name it would have had: ``NAME.png``
    in ``folder``, or ``NAME-2.png``... when that is a file already (a photo, an earlier
    drawing) or another image of the same name has it. Nothing is ever drawn over."""
    if folder.exists() and not folder.is_dir():
        raise CribError(
            _("--draw {folder}: not a folder (the drawings are written there)").format(
                folder=folder
            )
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CribError(
            _("--draw {folder}: cannot be made ({reason})").format(
                folder=folder, reason=exc.strerror or exc
            )
        ) from None
    taken: set[Path] = set()
    names: dict[str, tuple[Path, Path]] = {}
    for image in images:
        if image in names:
            continue
        plain = folder / (Path(image).stem + ".png")
        out = free_name(plain, taken)
        taken.add(out)
        names[image] = (out, plain)
    return names
