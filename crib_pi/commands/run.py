"""``crib-pi run``: the assistant, with the best devices present.

On a Pi: its camera, buttons, LED strip and screen; on a laptop: a webcam, keys and a window.
With no camera at all (or ``--demo``) it plays the built-in demo: a short two-player game
filmed on the mat with the project's own card faces and played through the real recognition,
the session (mat finding, tracking, the table's rules, the buttons) and the board, in a window
when there is a display, otherwise written as board images and a summary. Scripted players
sit at the demo table: where the camera misses or doubts a card they answer the screen or type
the card in, as people would, and the summary says how often. ``--service`` is how systemd
runs it (notify, watchdog).
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from crib_pi.actions import GameOptions


def add_parser(sub: Any) -> None:
    p = sub.add_parser("run", help="start the assistant (a demo game without a camera)")
    p.add_argument("--config", type=Path, help="configuration file (default: the one in force)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), help="instead of the config's")
    p.add_argument("--target", type=int, choices=(61, 121), help="instead of the config's")
    p.add_argument("--muggins", action="store_true", default=None, help="muggins on")
    p.add_argument("--db", type=Path, help="game database (default: the state folder)")
    p.add_argument("--service", action="store_true", help="run under systemd (notify, watchdog)")
    p.add_argument("--demo", action="store_true", help="play the built-in demo game")
    p.add_argument("--out", type=Path, default=Path("crib-pi-demo"), help="demo board images")
    p.add_argument("--seed", type=int, default=7, help="the demo's shuffle")
    p.set_defaults(func=run)


def _recognizer(problems: list[str]) -> Any:
    """The card recognizer, or one that reads nothing (cards can then be typed in)."""
    try:
        from crib_pi.vision.recognizer import Recognizer

        return Recognizer()
    except Exception as exc:
        from crib_pi.session.pipeline import NoRecognizer

        problems.append(f"card recognition is not available ({exc}); cards can be typed in")
        return NoRecognizer()


def run(args: argparse.Namespace) -> int:
    import dataclasses

    from crib_pi.config import load
    from crib_pi.devices import make_devices
    from crib_pi.devices.cameras import NullCamera

    if args.service:  # a crash or a hang (SIGABRT) leaves every thread's traceback in the journal
        faulthandler.enable()
    config = load(args.config)
    changes = {
        k: v
        for k, v in (("players", args.players), ("target", args.target), ("muggins", args.muggins))
        if v is not None
    }
    if "players" in changes and len(config.game.names) != args.players:
        changes["names"] = ()
    config = dataclasses.replace(config, game=dataclasses.replace(config.game, **changes))
    devices = make_devices(config.devices)
    try:
        if args.demo or (devices.backend != "pi" and isinstance(devices.camera, NullCamera)):
            return demo(args, devices)
        return live(args, devices, config)
    finally:
        devices.close()


def live(args: argparse.Namespace, devices: Any, config: Any) -> int:
    from crib_pi.app import LIVE, Assistant, describe
    from crib_pi.session.table import TableSession
    from crib_pi.session.tracker import Tracker
    from crib_pi.store import GameLog, StoreError, default_db, open_store

    problems = describe(devices)
    options = config.game
    state = None
    try:
        store = open_store(args.db or (Path(config.db) if config.db else default_db()))
        record = store.latest_unfinished()
        saved = store.session(record) if record is not None else None
        if record is not None and saved is not None and saved[0] == LIVE:
            state = saved[2]
            log = GameLog(store, record, store.lines(record), batch=True)
        else:
            log = GameLog(store, batch=True)
    except StoreError as exc:
        problems.append(f"{exc}; the game is kept in memory only")
        log = GameLog(None)
    table = TableSession(options, log, Tracker(stable=config.session.stable))
    if state is not None and not table.restore(state):
        problems.append("the saved table state did not match the game; the mat is read afresh")
    recognizer = _recognizer(problems)
    for problem in problems:
        print(f"crib-pi: {problem}", file=sys.stderr)
    Assistant(devices, table, recognizer, fps=config.session.fps).run(service=args.service)
    return 0


def demo(args: argparse.Namespace, devices: Any) -> int:
    import cv2

    from crib_pi.commands.session import read_presses
    from crib_pi.mat import Mat
    from crib_pi.records import replay_lines
    from crib_pi.session.faces import plain_face
    from crib_pi.session.filmstrip import film, read_settled
    from crib_pi.session.pipeline import FramePipeline
    from crib_pi.session.players import ScriptedPlayers
    from crib_pi.session.table import TableSession
    from crib_pi.session.tracker import Tracker
    from crib_pi.simulate import random_game
    from crib_pi.store import GameLog

    windowed = devices.backend == "desktop" and bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    options = GameOptions(players=2, target=61, dealer=0)
    _, actions = random_game(options, seed=args.seed, known=False)
    print("crib-pi: no camera found: playing the built-in demo game (two players, to 61)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        print("crib-pi: filming the demo table ...", flush=True)
        film(options, actions, plain_face, out, seed=args.seed)
        problems: list[str] = []
        recognizer = _recognizer(problems)
        for problem in problems:
            print(f"crib-pi: {problem}", file=sys.stderr)
        players = ScriptedPlayers.from_film(actions, read_settled(out))
        table = TableSession(options, GameLog(None), Tracker(stable=3))
        pipeline = FramePipeline(Mat(2), recognizer, table.tracker)
        presses = read_presses(out / "buttons.jsonl")
        images = 0
        if not windowed:
            args.out.mkdir(parents=True, exist_ok=True)
        for number, path in enumerate(sorted((out / "frames").iterdir())):
            started = time.monotonic()
            before = (table.game.phase, len(table.log.memory))
            image = cv2.imread(str(path))
            for event in pipeline.process(image) if image is not None else []:
                table.on_track(event)
            players.after_frame(table, number, presses.get(number, []))
            if windowed:
                devices.show(table.snapshot())
                time.sleep(max(0.0, 0.1 - (time.monotonic() - started)))
            elif table.game.phase != before[0] and table.game.phase in ("deal", "over"):
                images += 1
                _save_board(table, args.out / f"board-{images:02d}.png")
        before = (table.game.phase, len(table.log.memory))
        players.finish(table)  # what the camera never gave, typed in at the end
        if not windowed and table.game.phase == "over" and before[0] != "over":
            images += 1
            _save_board(table, args.out / f"board-{images:02d}.png")
    summary = replay_lines(table.log.memory).summary()
    if not windowed:
        record = args.out / "demo-game.jsonl"
        record.write_text("\n".join(table.log.memory) + "\n", encoding="utf-8")
        print(f"crib-pi: {images} board images and the game record are in {args.out}/")
    names = ["player 0", "player 1"]
    winner = summary["winner"]
    result = f"{names[winner]} wins" if winner is not None else "no winner"
    print(f"crib-pi: {result} {' - '.join(map(str, summary['scores']))} ({summary['skunk']})")
    print(f"crib-pi: {players.report()}")
    return 0


def _save_board(table: Any, path: Path) -> None:
    """Draw the board as the screen shows it, without a display (SDL's dummy driver)."""
    from crib_pi.devices.config import ScreenConfig
    from crib_pi.devices.pygame_screen import PygameScreen
    from crib_pi.devices.report import Reporter

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    screen = PygameScreen(ScreenConfig(size=(800, 480)), Reporter())
    try:
        screen.show(table.snapshot())
        screen.save(str(path))
    finally:
        screen.close()
