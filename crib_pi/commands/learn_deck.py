"""``crib-pi learn-deck PROFILE [IMAGE...] [--expect CARDS]...``: learn a user's own deck."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "learn-deck",
        help="learn your own deck from photos of known cards",
        description="Without images, print how to photograph the deck. With images, read the "
        "expected cards in each (by default one suit per photo: clubs, diamonds, hearts, "
        "spades), check them, and save a profile for recognize --deck.",
    )
    p.add_argument("profile", type=Path, metavar="PROFILE", help="file to write (.npz)")
    p.add_argument("images", nargs="*", metavar="IMAGE")
    p.add_argument(
        "--expect",
        action="append",
        metavar="CARDS",
        help="the cards in one photo, e.g. 'AS 2S 3S'; give once per image, in order",
    )
    p.add_argument("--name", default=None, help="a name for the deck (default: file name)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from crib_pi.cards import parse_cards
    from crib_pi.vision.classifier import Classifier
    from crib_pi.vision.errors import DeckProfileError
    from crib_pi.vision.learn import DEFAULT_SHOTS, GUIDE, learn
    from crib_pi.vision.recognizer import load_image

    if not args.images:
        print("\n".join(GUIDE))
        print(f"Then: crib-pi learn-deck {args.profile} PHOTO1 PHOTO2 PHOTO3 PHOTO4")
        return 0
    if args.expect:
        expected = [tuple(parse_cards(e.replace(",", " ").split())) for e in args.expect]
    elif len(args.images) == len(DEFAULT_SHOTS):
        expected = list(DEFAULT_SHOTS)
    else:
        raise DeckProfileError(
            f"{len(args.images)} photos: give 4 (one suit each) or --expect once per photo"
        )
    if len(expected) != len(args.images):
        raise DeckProfileError(
            f"{len(args.images)} photos but {len(expected)} --expect lists; give one per photo"
        )
    images = [load_image(p) for p in args.images]
    profile, reports = learn(args.name or args.profile.stem, images, expected, Classifier())
    for path, rep in zip(args.images, reports, strict=True):
        line = f"{path}: found {len(rep.found)} of {len(rep.found) + len(rep.missing)}"
        if rep.missing:
            line += "; not found: " + " ".join(str(c) for c in rep.missing)
        print(line)
    if not profile.counts.any():
        raise DeckProfileError("no expected card was found in the photos; no profile written")
    profile.save(args.profile)
    missing = sum(len(r.missing) for r in reports)
    print(
        f"wrote {args.profile}" + (f" ({missing} cards not learnt; retake them)" if missing else "")
    )
    return 0 if missing == 0 else 1
