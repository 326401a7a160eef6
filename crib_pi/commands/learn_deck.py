"""``crib-pi learn-deck PROFILE [IMAGE...] [--expect CARDS]...``: learn a user's own deck.

``crib-pi learn-deck --camera [PROFILE]``: the guided lesson on the mat, with the assistant's
camera, buttons and screen (``crib_pi.session.lesson``): four rows of a suit, Confirm each.
Without PROFILE the profile goes where ``crib-pi run`` looks for it when the configuration
names none, so the table reads with it from then on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from crib_pi.cards import Card
from crib_pi.i18n import _, ngettext


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "learn-deck",
        help=_("learn your own deck from photos of known cards"),
        description=_(
            "Without images, print how to photograph the deck. With images, read the "
            "expected cards in each (by default one suit per photo: clubs, diamonds, hearts, "
            "spades), check them, and save a profile for recognize --deck."
        ),
    )
    p.add_argument(
        "profile",
        type=Path,
        metavar="PROFILE",
        nargs="?",
        help=_("file to write (.npz); with --camera, default: the one crib-pi run uses"),
    )
    p.add_argument("images", nargs="*", metavar="IMAGE", help=_("photos of known cards"))
    p.add_argument(
        "--expect",
        action="append",
        metavar="CARDS",
        help=_("the cards in one photo, e.g. 'AS 2S 3S'; give once per image, in order"),
    )
    p.add_argument("--name", default=None, help=_("a name for the deck (default: file name)"))
    p.add_argument(
        "--camera",
        action="store_true",
        help=_("learn at the table: lay each suit in a row on the mat and press Confirm"),
    )
    p.add_argument("--config", type=Path, help=_("with --camera: configuration file"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from crib_pi.commands.score import read_cards
    from crib_pi.commands.session import check_output
    from crib_pi.i18n import _
    from crib_pi.vision.errors import DeckProfileError
    from crib_pi.vision.learn import DEFAULT_SHOTS, GUIDE, learn
    from crib_pi.vision.recognizer import Recognizer, load_image

    if args.camera:
        if args.images or args.expect:
            raise DeckProfileError(_("--camera reads the mat: give no photos and no --expect"))
        return run_camera(args)
    if args.profile is None:
        raise DeckProfileError(_("give PROFILE, the .npz file to write (or --camera)"))
    if not args.images:
        print("\n".join(GUIDE))
        print(
            _("Then: crib-pi learn-deck {profile} PHOTO1 PHOTO2 PHOTO3 PHOTO4").format(
                profile=args.profile
            )
        )
        return 0
    if args.expect:
        expected = [tuple(read_cards(e.replace(",", " ").split())) for e in args.expect]
    elif len(args.images) == len(DEFAULT_SHOTS):
        expected = list(DEFAULT_SHOTS)
    else:
        raise DeckProfileError(
            ngettext(
                "{count} photo: give 4 (one suit each) or --expect once per photo",
                "{count} photos: give 4 (one suit each) or --expect once per photo",
                len(args.images),
            ).format(count=len(args.images))
        )
    if len(expected) != len(args.images):
        raise DeckProfileError(
            ngettext(
                "{count} photo but {lists} --expect lists; give one per photo",
                "{count} photos but {lists} --expect lists; give one per photo",
                len(args.images),
            ).format(count=len(args.images), lists=len(expected))
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


def run_camera(args: argparse.Namespace) -> int:
    """The guided lesson with the assistant's devices; the profile saved once all four rows
    are in."""
    from crib_pi.commands.run import no_desktop_window
    from crib_pi.commands.session import check_output
    from crib_pi.config import load
    from crib_pi.devices import make_devices
    from crib_pi.i18n import _
    from crib_pi.session.lesson import DeckLesson, learnt_deck_path, unlearnt_note
    from crib_pi.vision.errors import DeckProfileError
    from crib_pi.vision.recognizer import Recognizer

    config = load(args.config)
    path = args.profile
    if path is None:
        path = Path(config.session.deck) if config.session.deck else learnt_deck_path()
        path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() != ".npz":
        raise DeckProfileError(
            _("PROFILE {path}: give a .npz file name to write to").format(path=path)
        )
    check_output(path, "PROFILE")
    no_desktop_window(config.devices)
    lesson = DeckLesson(Recognizer().classifier, config.game.players, args.name or path.stem)
    devices = make_devices(config.devices)
    try:
        for problem in devices.problems:
            print(f"crib-pi: {problem}", file=sys.stderr)
        print(lesson.prompt(), flush=True)
        teach(devices, lesson)
    finally:
        devices.close()
    if not lesson.done:
        print(_("the lesson stopped before the fourth row: no profile written"))
        return 1
    profile = lesson.profile()
    profile.save(path)
    print(_("wrote {path}: the table reads this deck with it from now on").format(path=path))
    note = unlearnt_note(profile)
    if note:
        print(note)
    used = Path(config.session.deck) if config.session.deck else learnt_deck_path()
    if path.resolve() != used.resolve():
        print(
            _('to use it, set deck = "{path}" under [session] in the configuration').format(
                path=path
            )
        )
    return 0


def teach(devices: Any, lesson: Any, *, idle_s: float = 0.02) -> None:
    """Camera frames to the lesson, buttons to its rows, its words to the screen, until the
    four rows are in or the window is closed."""
    import cv2

    from crib_pi.session.lesson import press

    devices.show(lesson.snapshot())
    said = ""
    while not lesson.done:
        if devices.screen.pump():
            return
        frame = devices.camera.read()
        if frame is not None:
            lesson.on_frame(cv2.cvtColor(frame.image, cv2.COLOR_RGB2BGR))
        changed = False
        for gesture in devices.buttons.poll():
            if gesture.button in ("go", "confirm", "undo") and gesture.gesture in (
                "press",
                "double",
            ):
                press(lesson, gesture.button)
                changed = True
        if changed:
            devices.show(lesson.snapshot())
            if lesson.message != said:
                said = lesson.message
                print(f"crib-pi: {said}", flush=True)
                if not lesson.done:
                    print(lesson.prompt(), flush=True)
        if frame is None:
            devices.clock.sleep(idle_s)
