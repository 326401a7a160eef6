"""``crib-pi recognize IMAGE... [--json] [--deck PROFILE] [--draw OUT_DIR]``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from crib_pi.i18n import _


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "recognize",
        help=_("read the cards in photos of the table"),
        description=_(
            "Read every card whose index shows. Cards that cannot be read with "
            "confidence are listed as uncertain, with their candidates."
        ),
    )
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help=_("one JSON object per image, one per line"))
    p.add_argument("--deck", type=Path, metavar="PROFILE", help=_("a profile from learn-deck"))
    p.add_argument(
        "--draw", type=Path, metavar="OUT_DIR", help=_("write each image with its reads")
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from crib_pi.vision.draw import draw
    from crib_pi.vision.errors import ImageReadError
    from crib_pi.vision.profile import DeckProfile
    from crib_pi.vision.recognizer import Recognizer, load_image

    profile = DeckProfile.load(args.deck) if args.deck else None
    rec = Recognizer(profile)
    if args.draw:
        args.draw.mkdir(parents=True, exist_ok=True)
    for path in args.images:
        img = load_image(path)
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
            out = args.draw / (Path(path).stem + ".png")
            if not cv2.imwrite(str(out), draw(img, result)):
                raise ImageReadError(_("cannot write {path}").format(path=out))
    return 0
