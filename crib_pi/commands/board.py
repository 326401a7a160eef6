"""``crib-pi board``: draw a board state without a game, to check a build and for tests.

``--pegs "45:40,97:91"`` gives each side's front and back peg (or ``--scene NAME`` one of the
example states). ``--png`` saves the screen, ``--leds-json`` the strip's colours (after
brightness and the current limit) as ``{"leds": [[r, g, b], ...]}``. With neither, the state is
shown on the real devices (a Pi's strip and screen, a laptop's window) for ``--seconds`` or
until a button is pressed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from crib_pi.devices.errors import PegsNotationError
from crib_pi.errors import CribError
from crib_pi.i18n import N_, _

SIZE_HELP = N_("screen size for --png, WIDTHxHEIGHT (default 800x480; Touch Display 2: 720x1280)")


def add_parser(sub: Any) -> None:
    board = sub.add_parser(
        "board",
        help=_("draw a board state on the screen and the LEDs, or to PNG and JSON"),
        description=_('Draw pegs without a game: crib-pi board --pegs "45:40,97:91" --png b.png'),
    )
    what = board.add_mutually_exclusive_group(required=True)
    what.add_argument("--pegs", help=_('each side\'s "front:back", comma separated: "45:40,97:91"'))
    what.add_argument(
        "--scene",
        help=_("an example state: start, skunk-threat, pegging, muggins, win, learn, coach"),
    )
    board.add_argument("--players", type=int, help=_("players (4 with two pegs: partnerships)"))
    board.add_argument("--png", type=Path, help=_("save the screen as this PNG"))
    board.add_argument("--leds-json", type=Path, help=_("save the LED colours as this JSON"))
    board.add_argument(
        "--force", action="store_true", help=_("replace the --png or --leds-json file if there")
    )
    board.add_argument("--size", default="800x480", help=_(SIZE_HELP))
    board.add_argument("--config", type=Path, help=_("device config (TOML); else CRIB_PI_CONFIG"))
    board.add_argument("--seconds", type=float, default=10.0, help=_("how long to show on devices"))
    board.set_defaults(func=run_board)


def parse_pegs(text: str, target: int = 121) -> list[tuple[int, int]]:
    """``"45:40,97:91"`` -> [(45, 40), (97, 91)]; a lone ``"45"`` has its back peg at 0."""
    pegs = []
    for n, part in enumerate(text.split(","), start=1):
        front_text, _colon, back_text = part.strip().partition(":")
        try:
            front, back = int(front_text), int(back_text or 0)
        except ValueError:
            raise PegsNotationError(
                _("--pegs part {n} {part!r} is not front:back, like 45:40").format(
                    n=n, part=part.strip()
                )
            ) from None
        if not 0 <= back <= front <= target:
            raise PegsNotationError(
                _("--pegs part {n} {part!r}: need 0 <= back <= front <= {target}").format(
                    n=n, part=part.strip(), target=target
                )
            )
        pegs.append((front, back))
    if not 1 <= len(pegs) <= 3:
        raise PegsNotationError(
            _("--pegs gives {count} sides; a board has 1 to 3").format(count=len(pegs))
        )
    return pegs


def parse_size(text: str) -> tuple[int, int]:
    """``"800x480"`` -> (800, 480)."""
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise PegsNotationError(
            _("--size {text!r} is not WIDTHxHEIGHT, like 800x480").format(text=text)
        )
    size = (int(width), int(height))
    if min(size) < 64 or max(size) > 8192:
        raise PegsNotationError(
            _("--size {text!r}: each side must be 64 to 8192 pixels").format(text=text)
        )
    return size


def run_board(args: argparse.Namespace) -> int:
    from crib_pi.commands.out_file import keep_unless_forced
    from crib_pi.commands.session import check_output
    from crib_pi.devices import load_config
    from crib_pi.devices.scenes import SCENES, pegs_snapshot

    if args.scene is not None:
        if args.scene not in SCENES:
            raise PegsNotationError(
                _("no scene {scene!r}; scenes: {join}").format(
                    scene=args.scene, join=", ".join(SCENES)
                )
            )
        snapshot = SCENES[args.scene]()
    else:
        pegs = parse_pegs(args.pegs)
        players = args.players or len(pegs)
        if players % len(pegs) or players not in (1, 2, 3, 4, 6) or players < len(pegs):
            raise PegsNotationError(
                _("--players {players} does not suit {count} sides (4 players: 2 sides)").format(
                    players=players, count=len(pegs)
                )
            )
        snapshot = pegs_snapshot(pegs, players)
    config = load_config(args.config)
    size = parse_size(args.size)
    for option, path in (("--png", args.png), ("--leds-json", args.leds_json)):
        if path is not None:
            check_output(path, option)
            keep_unless_forced(path, option, force=args.force)
    if args.png is not None and args.png.suffix.lower() != ".png":
        raise CribError(_("--png {png}: give a .png file name").format(png=args.png))
    if not 0 <= args.seconds <= 3600:  # also refuses nan and inf
        raise CribError(_("--seconds {seconds:g}: give 0 to 3600").format(seconds=args.seconds))
    if args.png is None and args.leds_json is None:
        return _show_on_devices(snapshot, config, args.seconds)
    if args.leds_json is not None:
        from crib_pi.devices.leds.frame import LedStyle, render_frame
        from crib_pi.devices.leds.layout import LedLayout
        from crib_pi.devices.leds.power import PowerLimit

        layout = LedLayout.from_config(config.leds, len(snapshot.sides))
        frame = render_frame(snapshot, layout, LedStyle.from_config(config.leds))
        limited = PowerLimit.from_config(config.leds).apply(frame)
        args.leds_json.write_text(json.dumps({"leds": [list(rgb) for rgb in limited]}) + "\n")
    if args.png is not None:
        import pygame

        from crib_pi.devices.screen.draw import render

        try:
            pygame.image.save(render(snapshot, size), str(args.png))
        except pygame.error as exc:
            raise CribError(
                _("--png {png}: could not be written ({exc})").format(png=args.png, exc=exc)
            ) from None
    return 0


def _show_on_devices(snapshot: Any, config: Any, seconds: float) -> int:
    from crib_pi.commands.run import no_desktop_window
    from crib_pi.devices import make_devices

    no_desktop_window(config)
    told = 0
    with make_devices(config) as devices:
        if devices.backend == "desktop" and os.environ.get("SDL_VIDEODRIVER") == "dummy":
            print(
                _(
                    "crib-pi board: screen: no display here (no DISPLAY or WAYLAND_DISPLAY), "
                    "so the board is shown nowhere; --png FILE saves it as a picture"
                ),
                file=sys.stderr,
            )
        devices.show(snapshot)
        clock = devices.clock
        end = clock.now() + seconds
        while clock.now() < end:
            told = _tell(devices.problems, told)
            devices.leds.tick()
            if devices.screen.pump() or devices.buttons.poll():
                break
            clock.sleep(0.02)
    _tell(devices.problems, told)
    return 0


def _tell(problems: tuple[Any, ...], told: int) -> int:
    """Print the problems not printed yet; return how many are printed now."""
    for problem in problems[told:]:
        print(f"crib-pi board: {problem}", file=sys.stderr)
    return len(problems)
