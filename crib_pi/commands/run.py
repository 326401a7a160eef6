"""``crib-pi run``: start the assistant with the best devices present.

Camera recognition, the devices and the table session are separate issues still being
built; until they land, ``run`` plays the built-in demo: a whole game dealt and played by
the engine, shown as a text board after every deal, and its record written out.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from crib_pi.actions import Claim, Crib, GameOptions, NewGame, Show
from crib_pi.game import Game
from crib_pi.records import format_line
from crib_pi.simulate import random_game
from crib_pi.snapshot import BoardSnapshot


def add_parser(sub: Any) -> None:
    p = sub.add_parser("run", help="start the assistant (a demo game without camera or Pi)")
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--target", type=int, default=121, choices=(61, 121))
    p.add_argument("--seed", type=int, default=7, help="the demo's shuffle")
    p.add_argument("--record", type=Path, help="write the demo's game record here")
    p.set_defaults(func=run)


def board_text(snap: BoardSnapshot) -> str:
    """A one-line-per-side text board: name, pegs, and a 121-hole bar."""
    lines = []
    for side in snap.sides:
        filled = round(40 * side.front / snap.target)
        bar = "#" * filled + "." * (40 - filled)
        lines.append(f"  {side.name:<14} {side.front:>3} (back {side.back:>3}) |{bar}|")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    options = GameOptions(players=args.players, target=args.target, dealer=0)
    print("crib-pi: no camera or Pi devices found, playing the built-in demo game")
    _, actions = random_game(options, seed=args.seed)
    replay = Game(options)
    deal = 0
    for action in actions:
        before = replay.phase
        record = replay.apply(action)
        if isinstance(action, Show | Crib | Claim):
            print(f"  {record.text}")
        if before != replay.phase and replay.phase in ("deal", "over"):
            deal += 1
            print(f"after deal {deal}:\n{board_text(replay.snapshot())}")
    snap = replay.snapshot()
    winner = snap.sides[snap.winner].name if snap.winner is not None else "nobody"
    print(f"{winner} wins ({snap.skunk}): {' - '.join(str(s.front) for s in snap.sides)}")
    if args.record:
        lines = [format_line(NewGame(options))] + [format_line(a) for a in actions]
        args.record.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"record written to {args.record}")
    return 0
