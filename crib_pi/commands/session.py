"""``crib-pi session --frames DIR [--buttons FILE.jsonl] --record OUT.jsonl [--json]``.

Runs a whole table session offline: the frames are the image files in DIR in name order, one
camera frame each; button presses are lines ``{"frame": 120, "button": "go"}`` (optionally
with ``"player"``), and ``{"frame": 7, "card": "5H"}`` enters a card by hand. A press listed
for frame N happens after frame N is seen. The game record is written as it is played, in the
rules-engine format; ``--json`` prints the result as ``crib-pi replay --json`` does.

With ``--db FILE`` every frame's actions, the frame number and the table's state are committed
to the game database in one transaction, and a session started again on the same frames
carries on after the last frame committed: kill it at any point and the record comes out the
same. ``--truth FILE`` reads the cards from a filmed sequence's ground truth instead of the
camera recognizer, to test the session on its own.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from crib_pi.errors import CribError

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp"}


def add_parser(sub: Any) -> None:
    p = sub.add_parser("session", help="run a table session offline from recorded frames")
    p.add_argument("--frames", type=Path, required=True, metavar="DIR")
    p.add_argument("--buttons", type=Path, metavar="FILE.jsonl")
    p.add_argument("--record", type=Path, required=True, metavar="OUT.jsonl")
    p.add_argument("--json", action="store_true")
    p.add_argument("--config", type=Path, help="configuration file (default: the one in force)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), help="instead of the config's")
    p.add_argument("--target", type=int, choices=(61, 121), help="instead of the config's")
    p.add_argument("--dealer", type=int, default=None, help="skip the cut for deal")
    p.add_argument("--muggins", action="store_true", default=None)
    p.add_argument("--stable", type=int, help="frames a card must be read alike (default 3)")
    p.add_argument("--db", type=Path, help="game database: commit each frame, resume after a crash")
    p.add_argument("--truth", type=Path, help="read cards from a film's truth.jsonl (testing)")
    p.set_defaults(func=run)


def read_presses(path: Path | None) -> dict[int, list[dict[str, Any]]]:
    """Button lines by frame number; a bad line is an error naming its number."""
    out: dict[int, list[dict[str, Any]]] = {}
    if path is None:
        return out
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
            frame = int(line["frame"])
            if not ("button" in line) ^ ("card" in line):
                raise ValueError("give either a button or a card")
            if "button" in line and line["button"] not in ("go", "confirm", "undo"):
                raise ValueError(f"unknown button {line['button']!r}")
        except (ValueError, KeyError, TypeError) as exc:
            raise CribError(f"{path}: line {number}: {exc}") from None
        out.setdefault(frame, []).append(line)
    return out


def run(args: argparse.Namespace) -> int:
    import dataclasses

    import cv2

    from crib_pi.config import load as load_config
    from crib_pi.mat import Mat
    from crib_pi.records import replay_lines
    from crib_pi.session.pipeline import FramePipeline, Recognizer
    from crib_pi.session.table import TableSession
    from crib_pi.session.tracker import Tracker
    from crib_pi.store import GameLog, open_store

    if not args.frames.is_dir():
        raise CribError(f"--frames {args.frames}: not a folder of images")
    frames = sorted(p for p in args.frames.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not frames:
        raise CribError(f"--frames {args.frames}: no images in it")
    presses = read_presses(args.buttons)
    config = load_config(args.config)
    flags = {"players": args.players, "target": args.target, "muggins": args.muggins}
    changes: dict[str, Any] = {k: v for k, v in flags.items() if v is not None}
    if args.dealer is not None:
        changes["dealer"] = args.dealer
    if "players" in changes and len(config.game.names) != args.players:
        changes["names"] = ()
    options = dataclasses.replace(config.game, **changes)
    stable = args.stable or config.session.stable
    source = str(args.frames.resolve())
    start = 0
    state = None
    if args.db:
        store = open_store(args.db)
        if store.notice:
            print(f"crib-pi session: {store.notice}", file=sys.stderr)
        record = next(
            (
                r.id
                for r in reversed(store.records())
                if (store.session(r.id) or ("",))[0] == source  # finished or not: carry on
            ),
            None,
        )
        if record is not None:
            saved = store.session(record)
            assert saved is not None
            _, position, state = saved
            start = position + 1
            log = GameLog(store, record, store.lines(record), batch=True)
        else:
            log = GameLog(store, batch=True)
    else:
        log = GameLog(None)
    table = TableSession(options, log, Tracker(stable=stable))
    if state is not None and not table.restore(state):
        raise CribError(f"{args.db}: the saved session does not match its game record")
    if args.db and state is None:
        log.commit((source, -1, table.state()))  # this record belongs to these frames
    recognizer: Recognizer
    if args.truth:
        from crib_pi.session.filmstrip import TruthReader

        recognizer = TruthReader(args.truth, start=start)
    else:
        from crib_pi.vision.recognizer import Recognizer as VisionRecognizer

        recognizer = VisionRecognizer()
    pipeline = FramePipeline(Mat(table.options.players), recognizer, table.tracker)
    for number in range(start, len(frames)):
        image = cv2.imread(str(frames[number]), cv2.IMREAD_COLOR)
        if image is None:
            table.message = f"frame {frames[number].name} could not be read; skipped"
        else:
            for event in pipeline.process(image):
                table.on_track(event)
        table.on_lines(presses.get(number, []))
        log.commit((source, number, table.state()))
    args.record.write_text("\n".join(log.memory) + "\n", encoding="utf-8")
    summary = replay_lines(log.memory).summary()
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(f"{len(frames)} frames, {len(log.memory) - 1} actions written to {args.record}")
        print(f"scores {' - '.join(map(str, summary['scores']))}, winner {summary['winner']}")
    if log.problem:
        print(f"crib-pi session: {log.problem}", file=sys.stderr)
    return 0
