"""``crib-pi learn-deck PROFILE [IMAGE...] [--expect CARDS]...``: learn a user's own deck."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from crib_pi.cards import Card
from crib_pi.i18n import _


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
    from crib_pi.commands.session import check_output
    from crib_pi.vision.errors import DeckProfileError
    from crib_pi.vision.learn import DEFAULT_SHOTS, GUIDE, learn
    from crib_pi.vision.recognizer import Recognizer, load_image

    if not args.images:
        print("\n".join(GUIDE))
        print(
            _("Then: crib-pi learn-deck {profile} PHOTO1 PHOTO2 PHOTO3 PHOTO4").format(
                profile=args.profile
            )
        )
        return 0
    if args.expect:
        expected = [tuple(parse_cards(e.replace(",", " ").split())) for e in args.expect]
    elif len(args.images) == len(DEFAULT_SHOTS):
        expected = list(DEFAULT_SHOTS)
    else:
        raise DeckProfileError(
            _("{count} photos: give 4 (one suit each) or --expect once per photo").format(
                count=len(args.images)
            )
        )
    if len(expected) != len(args.images):
        raise DeckProfileError(
            _("{count} photos but {lists} --expect lists; give one per photo").format(
                count=len(args.images), lists=len(expected)
            )
        )
    if args.profile.suffix.lower() != ".npz":  # never write a profile over a photo
        raise DeckProfileError(
            _("PROFILE {profile}: give a .npz file name to write to").format(profile=args.profile)
        )
    check_output(args.profile, "PROFILE")
    images = [load_image(p) for p in args.images]
    recognizer = Recognizer()
    for path, image, cards in zip(args.images, images, expected, strict=True):
        check_labels(path, cards, {r.card for r in recognizer.read(image).cards})
    profile, reports = learn(
        args.name or args.profile.stem, images, expected, recognizer.classifier
    )
    for path, rep in zip(args.images, reports, strict=True):
        line = _("{path}: found {count} of {value}").format(
            path=path, count=len(rep.found), value=len(rep.found) + len(rep.missing)
        )
        if rep.missing:
            line += "; not found: " + " ".join(str(c) for c in rep.missing)
        print(line)
    if not profile.counts.any():
        raise DeckProfileError(_("no expected card was found in the photos; no profile written"))
    profile.save(args.profile)
    missing = sum(len(r.missing) for r in reports)
    print(
        _("wrote {profile}").format(profile=args.profile)
        + (
            _(" ({missing} cards not learnt; retake them)").format(missing=missing)
            if missing
            else ""
        )
    )
    return 0 if missing == 0 else 1


def check_labels(path: str, expected: tuple[Card, ...], seen: set[Card]) -> None:
    """Refuse a photo whose cards, as the recognizer reads them, are mostly not the expected.

    A profile learnt from wrongly labelled photos would teach the wrong names. A stray misread
    among right ones is let through (that is what a profile is for); a photo where the cards
    read outside the list are at least as many as those inside it is not.
    """
    from crib_pi.vision.errors import DeckProfileError

    wrong = seen - set(expected)
    if wrong and len(wrong) >= len(seen & set(expected)):
        shown = " ".join(str(c) for c in sorted(seen, key=lambda c: c.index))
        raise DeckProfileError(
            _(
                "{path}: expected {join} but the photo shows {shown}; check the photo "
                "and its --expect list (no profile written)"
            ).format(path=path, join=" ".join(map(str, expected)), shown=shown)
        )
