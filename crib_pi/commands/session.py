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
import os
import sys
from pathlib import Path
from typing import Any

from crib_pi.cli import free_name
from crib_pi.commands.out_file import has_content, keep_unless_forced
from crib_pi.errors import CribError
from crib_pi.i18n import _, ngettext

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp"}
#: Longest --buttons or --truth file read (a film's truth is about 1 MB): ``/dev/zero`` or a
#: video given by mistake is refused, not read into memory.
MAX_TEXT_BYTES = 64_000_000


def add_parser(sub: Any) -> None:
    p = sub.add_parser("session", help=_("run a table session offline from recorded frames"))
    p.add_argument(
        "--frames",
        type=Path,
        required=True,
        metavar="DIR",
        help=_("the camera frames, in name order"),
    )
    p.add_argument(
        "--buttons",
        type=Path,
        metavar="FILE.jsonl",
        help=_('button presses and typed cards: {"frame": 120, "button": "go"} a line'),
    )
    p.add_argument(
        "--record",
        type=Path,
        required=True,
        metavar="OUT.jsonl",
        help=_("where to write the game record (a new file, unless --force)"),
    )
    p.add_argument("--force", action="store_true", help=_("replace the --record file if it exists"))
    p.add_argument(
        "--json", action="store_true", help=_("print the result as crib-pi replay --json does")
    )
    p.add_argument("--config", type=Path, help=_("configuration file (default: the one in force)"))
    p.add_argument("--players", type=int, choices=(2, 3, 4), help=_("instead of the config's"))
    p.add_argument("--target", type=int, choices=(61, 121), help=_("instead of the config's"))
    p.add_argument("--dealer", type=int, default=None, help=_("skip the cut for deal"))
    p.add_argument("--muggins", action="store_true", default=None, help=_("muggins on"))
    p.add_argument("--stable", type=int, help=_("frames a card must be read alike (default 3)"))
    p.add_argument(
        "--db", type=Path, help=_("game database: commit each frame, resume after a crash")
    )
    p.add_argument("--truth", type=Path, help=_("read cards from a film's truth.jsonl (testing)"))
    p.set_defaults(func=run)


def read_presses(path: Path | None, players: int = 4) -> dict[int, list[dict[str, Any]]]:
    """Button lines by frame number; a bad line is an error naming the file and line."""
    out: dict[int, list[dict[str, Any]]] = {}
    if path is None:
        return out
    for number, text in enumerate(_text_lines(path, "--buttons"), start=1):
        if not text.strip():
            continue
        try:
            line = _press_line(text, players)
        except (ValueError, KeyError, TypeError, RecursionError) as exc:
            reason = (
                exc if not isinstance(exc, KeyError) else _("no {exc} in the line").format(exc=exc)
            )
            raise CribError(
                _("{path}: line {number}: {reason}").format(path=path, number=number, reason=reason)
            ) from None
        out.setdefault(line["frame"], []).append(line)
    return out


def _text_lines(path: Path, option: str) -> list[str]:
    """A text file's lines, or an error naming the option and file (folder, binary...)."""
    if path.is_dir():
        raise CribError(
            _("{option} {path}: is a folder, not a file").format(option=option, path=path)
        )
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_TEXT_BYTES + 1)
        if len(data) > MAX_TEXT_BYTES:
            raise CribError(
                _("{option} {path}: longer than {limit} MB; not a crib-pi file").format(
                    option=option, path=path, limit=MAX_TEXT_BYTES // 1_000_000
                )
            )
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise CribError(
            _("{option} {path}: not UTF-8 text (byte {start})").format(
                option=option, path=path, start=exc.start
            )
        ) from None
    except OSError as exc:
        raise CribError(
            _("{option} {path}: cannot be read ({reason})").format(
                option=option, path=path, reason=exc.strerror or exc
            )
        ) from None


def _press_line(text: str, players: int) -> dict[str, Any]:
    from crib_pi.cards import Card

    line = json.loads(text)
    if not isinstance(line, dict):
        raise ValueError(_('not a JSON object like {"frame": 12, "button": "go"}'))
    unknown = set(line) - {"frame", "button", "card", "player"}
    if unknown:
        raise ValueError(_("unknown key {unknown!r}").format(unknown=sorted(unknown)[0]))
    frame = line["frame"]
    if not isinstance(frame, int) or isinstance(frame, bool) or frame < 0:
        raise ValueError(_("frame {frame!r} is not a frame number (0 or more)").format(frame=frame))
    if not ("button" in line) ^ ("card" in line):
        raise ValueError(_("give either a button or a card"))
    if "button" in line and line["button"] not in ("go", "confirm", "undo"):
        raise ValueError(
            _("unknown button {button!r} (go, confirm or undo)").format(button=line["button"])
        )
    if "card" in line:
        Card.parse(line["card"])  # a CardNotationError names the card
    player = line.get("player")
    if player is not None and (
        not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players
    ):
        raise ValueError(
            _("player {player!r} is not a player number 0 to {value}").format(
                player=player, value=players - 1
            )
        )
    return dict(line)


def run(args: argparse.Namespace) -> int:
    import dataclasses

    from crib_pi.config import load as load_config
    from crib_pi.mat import Mat
    from crib_pi.records import replay_lines
    from crib_pi.session.pipeline import FramePipeline, Recognizer
    from crib_pi.session.table import TableSession
    from crib_pi.session.tracker import Tracker
    from crib_pi.store import GameLog, open_store
    from crib_pi.vision.errors import ImageReadError
    from crib_pi.vision.image_file import load_image

    if not args.frames.is_dir():
        raise CribError(_("--frames {frames}: not a folder of images").format(frames=args.frames))
    frames = sorted(p for p in args.frames.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not frames:
        raise CribError(_("--frames {frames}: no images in it").format(frames=args.frames))
    if args.stable is not None and not 1 <= args.stable <= 30:
        raise CribError(_("--stable {stable}: give 1 to 30 frames").format(stable=args.stable))
    if args.dealer is not None and not 0 <= args.dealer < (args.players or 4):
        raise CribError(_("--dealer {dealer}: not a player number").format(dealer=args.dealer))
    check_output(args.record, "--record")
    if not args.db:
        keep_unless_forced(args.record, "--record", force=args.force)
    config = load_config(args.config)
    players = args.players or config.game.players
    presses = read_presses(args.buttons, players)
    if args.truth:
        _check_truth(args.truth)
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
            _record, position, state = saved
            start = position + 1
            print(
                ngettext(
                    "crib-pi session: resuming game record {record} from "
                    "{db} after frame {position} ({value} frame to go)",
                    "crib-pi session: resuming game record {record} from "
                    "{db} after frame {position} ({value} frames to go)",
                    len(frames) - start,
                ).format(record=record, db=args.db, position=position, value=len(frames) - start),
                file=sys.stderr,
            )
            log = GameLog(store, record, store.lines(record), batch=True)
        else:
            log = GameLog(store, batch=True)
    else:
        log = GameLog(None)
    table = TableSession(options, log, Tracker(stable=stable))
    table.set_learn(config.session.learn, config.session.guided)
    if state is not None and not table.restore(state):
        raise CribError(
            _("{db}: the saved session does not match its game record").format(db=args.db)
        )
    if args.db and state is None:
        log.commit((source, -1, table.state()))  # this record belongs to these frames
    recognizer: Recognizer
    if args.truth:
        from crib_pi.session.filmstrip import TruthReader

        recognizer = TruthReader(args.truth, start=start)
    else:
        from crib_pi.vision.recognizer import Recognizer as VisionRecognizer

        recognizer = VisionRecognizer()
    pipeline = FramePipeline(
        Mat(table.options.players), recognizer, table.tracker, find=config.session.find_cards
    )
    skipped: list[str] = []
    for number in range(start, len(frames)):
        try:
            image = load_image(frames[number])
        except ImageReadError as exc:
            skipped.append(str(exc))
            table.message = _("frame {name} could not be read; skipped").format(
                name=frames[number].name
            )
        else:
            for event in pipeline.process(image):
                table.on_track(event)
        try:
            table.on_lines(presses.get(number, []))
        except CribError as exc:
            raise CribError(
                _("{buttons}: frame {number}: {exc}").format(
                    buttons=args.buttons, number=number, exc=exc
                )
            ) from None
        log.commit((source, number, table.state()))
    for why in skipped[:5]:
        print(_("crib-pi session: skipped a frame: {why}").format(why=why), file=sys.stderr)
    if len(skipped) > 5:
        print(
            _("crib-pi session: ... {count} frames skipped in all").format(count=len(skipped)),
            file=sys.stderr,
        )
    written = args.record
    if not args.force and not _continued_by(args.record, log.memory):
        written = free_name(args.record)  # resumed from --db onto another game's record
        print(
            _("crib-pi session: {record} holds another game; this one is written to {new}").format(
                record=args.record, new=written
            ),
            file=sys.stderr,
        )
    try:
        written.write_text("\n".join(log.memory) + "\n", encoding="utf-8")
    except OSError as exc:
        raise CribError(
            _("--record {record}: {value}").format(record=written, value=exc.strerror or exc)
        ) from None
    summary = replay_lines(log.memory).summary()
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        frames_read = ngettext("{count} frame", "{count} frames", len(frames)).format(
            count=len(frames)
        )
        actions = ngettext("{count} action", "{count} actions", len(log.memory) - 1).format(
            count=len(log.memory) - 1
        )
        print(
            _("{frames}, {actions} written to {record}").format(
                frames=frames_read, actions=actions, record=written
            )
        )
        if summary["winner"] is None:
            scores = " - ".join(map(str, summary["scores"]))
            print(_("scores {scores}, no winner yet").format(scores=scores))
        else:
            from crib_pi.commands.replay import who_won

            o = table.options
            print(
                who_won(summary["winner"], summary["scores"], summary["skunk"], o.players, o.names)
            )
    if log.problem:
        print(f"crib-pi session: {log.problem}", file=sys.stderr)
    return 0


def _continued_by(path: Path, lines: list[str]) -> bool:
    """Whether writing ``lines`` to ``path`` loses nothing: no file there, an empty one, or
    the record of this very game so far (a session resumed from ``--db`` writes it again)."""
    if not has_content(path):
        return True
    try:
        with path.open("rb") as fh:
            text = fh.read(MAX_TEXT_BYTES + 1).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    old = text.removesuffix("\n").split("\n")
    return len(old) <= len(lines) and old == lines[: len(old)]


def check_output(path: Path, option: str) -> None:
    """Before a long run: the output file can be written (its folder exists, it is a file)."""
    if path.is_dir():
        raise CribError(
            _("{option} {path}: is a folder; give a file name").format(option=option, path=path)
        )
    folder = path.parent
    if not folder.is_dir():
        raise CribError(
            _("{option} {path}: the folder {folder} does not exist").format(
                option=option, path=path, folder=folder
            )
        )
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CribError(
            _("{option} {path}: cannot be written here").format(option=option, path=path)
        )


def _check_truth(path: Path) -> None:
    """A film's truth: one JSON list a line (read again by the recognizer stand-in)."""
    from crib_pi.cards import Card

    for number, text in enumerate(_text_lines(path, "--truth"), start=1):
        try:
            seen = json.loads(text)
            if not isinstance(seen, list) or not all(
                isinstance(i, dict) and isinstance(i.get("card"), str) for i in seen
            ):
                raise ValueError(_("not a list of seen cards"))
            for item in seen:
                Card.parse(item["card"])
                corners = item.get("corners")
                if not (
                    isinstance(corners, list)
                    and len(corners) == 4
                    and all(
                        isinstance(p, list)
                        and len(p) == 2
                        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
                        for p in corners
                    )
                ):
                    raise ValueError(_("each seen card needs four corners [x, y]"))
        except (ValueError, RecursionError) as exc:
            raise CribError(
                _("--truth {path}: line {number}: {exc}").format(path=path, number=number, exc=exc)
            ) from None
