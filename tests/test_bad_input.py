"""Bad input, every command: one line naming the input, status 2, no traceback, no hang, and no
user file moved, changed or deleted.

Each case is a command line run through the real CLI (``crib_pi.cli.main``, in this process,
with a time limit), in a folder holding the files the case names; a representative set also
runs as a separate process (``python -m crib_pi``). Property-based tests throw generated cards,
record lines and button lines at the same commands.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import struct
import subprocess
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crib_pi.cli import main
from crib_pi.store import GameStore

ROOT = Path(__file__).resolve().parents[1]
RECORD = (ROOT / "tests" / "data" / "one-deal.jsonl").read_text()
LIMIT_S = 60  # "no hang": any case taking longer fails


def png(width: int, height: int, *, rows: int | None = None) -> bytes:
    """A PNG that says it is ``width`` x ``height`` (its data may stop after ``rows`` rows)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    body = zlib.compress((b"\x00" + b"\x80" * width * 3) * (height if rows is None else rows))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def jpeg_header(width: int, height: int) -> bytes:
    """The start of a baseline JPEG that says it is ``width`` x ``height``, and no image."""
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + sof


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def other_sqlite(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE contacts (name TEXT)")
    db.execute("INSERT INTO contacts VALUES ('Ann')")
    db.commit()
    db.close()


def corrupt_ours(path: Path) -> None:
    GameStore(path).close()
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * 3996
    path.write_bytes(bytes(data))


@dataclass(frozen=True)
class Case:
    """``argv`` (``{d}`` is the case's folder), files to make there, text the message must hold."""

    id: str
    argv: tuple[str, ...]
    names: str
    files: dict[str, bytes | str] = field(default_factory=dict)


def case(
    id: str, argv: str | list[str], names: str, **files: bytes | str
) -> Case:  # a short way to write a case
    args = tuple(argv.split()) if isinstance(argv, str) else tuple(argv)
    return Case(id, args, names, {k.replace("__", "."): v for k, v in files.items()})


DIR = "<dir>"  # a file entry that is a folder (holding one file of the user's)
FRAMES = "<frames>"  # a folder with one camera frame
OTHER_DB = "<other-sqlite>"
OUR_CORRUPT_DB = "<corrupt-ours>"
LONG = "Q" * 100_000
BUTTON = '{"frame": 0, "button": "go"}\n'
FRAME = png(64, 48)


def _other_npz() -> bytes:
    """An .npz another program wrote: one array of Python objects (numpy refuses its pickle)."""
    import io

    import numpy as np

    buf = io.BytesIO()
    np.savez(buf, notes=np.array([{"a": 1}], dtype=object))
    return buf.getvalue()


OTHER_NPZ = _other_npz()

CASES: list[Case] = [
    # -- the command line itself ----------------------------------------------------------
    case("no-command", "", "COMMAND"),
    case("unknown-command", "scor 5H", "scor"),
    case("unknown-option", "score --cribb 5H 5D 5S JC 5C", "--cribb"),
    case("long-unknown-command", [LONG], "characters"),
    # -- score ----------------------------------------------------------------------------
    *[
        case(f"score-card-{i}", ["score", bad, "5D", "5S", "JC", "5C"], names)
        for i, (bad, names) in enumerate(
            [
                ("1H", "1H"),
                ("5X", "5X"),
                ("11H", "11H"),
                ("0S", "0S"),
                ("5HH", "5HH"),
                ("H", "'H'"),
                ("10", "'10'"),
                ("♥5", "♥5"),
                ("5♥♥", "5♥♥"),
                ("ZZ", "ZZ"),
                ("５H", "５H"),
                ("5H\u200b", "5H\\u200b"),
                ("", "''"),
                (" ", "' '"),
                ("5 H D", "5 H D"),
                ("NaN", "NaN"),
                ("5H,5D", "5H,5D"),
                ("AH!", "AH!"),
                ("\x00", "\\x00"),
                ("10♥️♥️", "10♥"),
                ("1O♥", "1O♥"),
                (LONG, "characters"),
            ]
        )
    ],
    case("score-four-cards", "score 5H 5D 5S JC", "not 4"),
    case("score-six-cards", "score 5H 5D 5S JC 5C 2D", "not 6"),
    case("score-duplicate", "score 5H 5H 5S JC 5C", "5H"),
    case("score-duplicate-forms", "score 10H TH 5S JC 5C", "10H"),
    case("score-option-card", "score -5H 5D 5S JC 5C", "-5H"),
    case("score-no-cards", "score", "CARD"),
    # -- peg ------------------------------------------------------------------------------
    case("peg-bad-card", "peg 5H 7Y", "7Y"),
    case("peg-over-31", "peg KH QH JH 5D", "5D"),
    case("peg-duplicate", "peg 5H 5H", "5H"),
    case("peg-empty-card", ["peg", "5H", ""], "''"),
    case("peg-long", ["peg", LONG], "characters"),
    case("peg-no-cards", "peg", "CARD"),
    # -- replay ---------------------------------------------------------------------------
    case("replay-missing", "replay {d}/none.jsonl", "none.jsonl"),
    case("replay-folder", "replay {d}/games", "games", games=DIR),
    case("replay-empty", "replay {d}/r.jsonl", "r.jsonl", r__jsonl=""),
    case("replay-binary", "replay {d}/r.jsonl", "r.jsonl", r__jsonl=b"\x00\xff\xfe\x01" * 50),
    case(
        "replay-latin1", "replay {d}/r.jsonl", "r.jsonl", r__jsonl='{"cut": "é"}'.encode("latin-1")
    ),
    case("replay-nested", "replay {d}/r.jsonl", "line 1", r__jsonl=nested(100_000)),
    case("replay-nested-object", "replay {d}/r.jsonl", "line 1", r__jsonl='{"a":' * 50_000),
    case("replay-array", "replay {d}/r.jsonl", "line 1", r__jsonl="[1, 2]\n"),
    case("replay-number", "replay {d}/r.jsonl", "line 1", r__jsonl="42\n"),
    case("replay-string", "replay {d}/r.jsonl", "line 1", r__jsonl='"game"\n'),
    case("replay-null", "replay {d}/r.jsonl", "line 1", r__jsonl="null\n"),
    case("replay-not-json", "replay {d}/r.jsonl", "line 1", r__jsonl="game: 2 players\n"),
    case("replay-no-game-line", "replay {d}/r.jsonl", "line 1", r__jsonl='{"cut": "JH"}\n'),
    case(
        "replay-unknown-action",
        "replay {d}/r.jsonl",
        "line 2",
        r__jsonl=RECORD.replace('{"cut"', '{"cutt"', 1),
    ),
    case(
        "replay-bad-card",
        "replay {d}/r.jsonl",
        "line 2",
        r__jsonl=RECORD.replace('"JH"', '"JX"', 1),
    ),
    case(
        "replay-card-number",
        "replay {d}/r.jsonl",
        "line 2",
        r__jsonl=RECORD.replace('"JH"', "11", 1),
    ),
    case(
        "replay-card-list",
        "replay {d}/r.jsonl",
        "line 2",
        r__jsonl=RECORD.replace('"JH"', '["J", "H"]', 1),
    ),
    case(
        "replay-player-text",
        "replay {d}/r.jsonl",
        "line 3",
        r__jsonl=RECORD.replace('[1, "5S"]', '["one", "5S"]', 1),
    ),
    case(
        "replay-player-9",
        "replay {d}/r.jsonl",
        "line 3",
        r__jsonl=RECORD.replace('[1, "5S"]', '[9, "5S"]', 1),
    ),
    case(
        "replay-player-float",
        "replay {d}/r.jsonl",
        "line 3",
        r__jsonl=RECORD.replace('[1, "5S"]', '[1.5, "5S"]', 1),
    ),
    case(
        "replay-player-bool",
        "replay {d}/r.jsonl",
        "line 3",
        r__jsonl=RECORD.replace('[1, "5S"]', '[true, "5S"]', 1),
    ),
    case(
        "replay-player-huge",
        "replay {d}/r.jsonl",
        "line 3",
        r__jsonl=RECORD.replace('[1, "5S"]', "[" + "9" * 30 + ', "5S"]', 1),
    ),
    case(
        "replay-play-short",
        "replay {d}/r.jsonl",
        "line 3",
        r__jsonl=RECORD.replace('[1, "5S"]', "[1]", 1),
    ),
    case(
        "replay-wrong-turn",
        "replay {d}/r.jsonl",
        "line 3",
        r__jsonl=RECORD.replace('[1, "5S"]', '[0, "5S"]', 1),
    ),
    case(
        "replay-players-9",
        "replay {d}/r.jsonl",
        "line 1",
        r__jsonl=RECORD.replace('"players": 2', '"players": 9', 1),
    ),
    case(
        "replay-players-text",
        "replay {d}/r.jsonl",
        "line 1",
        r__jsonl=RECORD.replace('"players": 2', '"players": "two"', 1),
    ),
    case(
        "replay-target-0",
        "replay {d}/r.jsonl",
        "line 1",
        r__jsonl=RECORD.replace('"target": 121', '"target": 0', 1),
    ),
    case(
        "replay-target-nan",
        "replay {d}/r.jsonl",
        "line 1",
        r__jsonl=RECORD.replace('"target": 121', '"target": NaN', 1),
    ),
    case(
        "replay-dealer-5",
        "replay {d}/r.jsonl",
        "line 1",
        r__jsonl=RECORD.replace('"dealer": 0', '"dealer": 5', 1),
    ),
    case(
        "replay-muggins-text",
        "replay {d}/r.jsonl",
        "line 1",
        r__jsonl=RECORD.replace('"muggins": false', '"muggins": "no"', 1),
    ),
    case("replay-game-list", "replay {d}/r.jsonl", "line 1", r__jsonl='{"game": [2, 121]}\n'),
    case(
        "replay-two-keys",
        "replay {d}/r.jsonl",
        "line 2",
        r__jsonl=RECORD.replace('{"cut": "JH"}', '{"cut": "JH", "go": 0}', 1),
    ),
    case(
        "replay-null-byte-line",
        "replay {d}/r.jsonl",
        "line 2",
        r__jsonl=RECORD.replace('{"cut": "JH"}', '{"cut": "J\\u0000H"}', 1),
    ),
    case(
        "replay-long-line",
        "replay {d}/r.jsonl",
        "line 2",
        r__jsonl=RECORD.replace('"JH"', '"' + LONG + '"', 1),
    ),
    case(
        "replay-one-bad-of-two",
        "replay {d}/ok.jsonl {d}/r.jsonl",
        "r.jsonl",
        ok__jsonl=RECORD,
        r__jsonl="x\n",
    ),
    # -- session --------------------------------------------------------------------------
    case("session-frames-missing", "session --frames {d}/none --record {d}/o.jsonl", "--frames"),
    case(
        "session-frames-file",
        "session --frames {d}/f.png --record {d}/o.jsonl",
        "f.png",
        f__png=FRAME,
    ),
    case(
        "session-frames-empty",
        "session --frames {d}/frames --record {d}/o.jsonl",
        "no images",
        frames=DIR,
    ),
    case(
        "session-record-folder",
        "session --frames {d}/frames --record {d}/out --truth {d}/t.jsonl",
        "--record",
        frames=FRAMES,
        out=DIR,
        t__jsonl="[]\n",
    ),
    case(
        "session-record-no-folder",
        "session --frames {d}/frames --record {d}/none/o.jsonl --truth {d}/t.jsonl",
        "none",
        frames=FRAMES,
        t__jsonl="[]\n",
    ),
    *[
        case(
            f"session-stable-{v}",
            ["session", "--frames", "{d}/frames", "--record", "{d}/o.jsonl", "--stable", v],
            f"--stable {v}",
            frames=FRAMES,
        )
        for v in ("0", "-3", "31", "1000000")
    ],
    case(
        "session-stable-text",
        "session --frames {d}/frames --record {d}/o.jsonl --stable many",
        "many",
        frames=FRAMES,
    ),
    case(
        "session-dealer-7",
        "session --frames {d}/frames --record {d}/o.jsonl --dealer 7",
        "--dealer 7",
        frames=FRAMES,
    ),
    case(
        "session-dealer-neg",
        "session --frames {d}/frames --record {d}/o.jsonl --dealer=-1",
        "--dealer -1",
        frames=FRAMES,
    ),
    case(
        "session-players-5",
        "session --frames {d}/frames --record {d}/o.jsonl --players 5",
        "5",
        frames=FRAMES,
    ),
    case(
        "session-target-100",
        "session --frames {d}/frames --record {d}/o.jsonl --target 100",
        "100",
        frames=FRAMES,
    ),
    case(
        "session-buttons-missing",
        "session --frames {d}/frames --record {d}/o.jsonl --buttons {d}/none.jsonl",
        "none.jsonl",
        frames=FRAMES,
    ),
    case(
        "session-buttons-folder",
        "session --frames {d}/frames --record {d}/o.jsonl --buttons {d}/b",
        "--buttons",
        frames=FRAMES,
        b=DIR,
    ),
    case(
        "session-buttons-binary",
        "session --frames {d}/frames --record {d}/o.jsonl --buttons {d}/b.jsonl",
        "b.jsonl",
        frames=FRAMES,
        b__jsonl=b"\x89PNG\r\n\x1a\n\x00\xff",
    ),
    *[
        case(
            f"session-button-line-{i}",
            "session --frames {d}/frames --record {d}/o.jsonl --buttons {d}/b.jsonl",
            names,
            frames=FRAMES,
            b__jsonl=BUTTON + line + "\n",
        )
        for i, (line, names) in enumerate(
            [
                ('{"frame": 1, "button": "go", "player": "one"}', "'one'"),
                ('{"frame": 1, "button": "go", "player": [1]}', "[1]"),
                ('{"frame": 1, "button": "go", "player": 9}', "player 9"),
                ('{"frame": 1, "button": "go", "player": -1}', "player -1"),
                ('{"frame": 1, "button": "go", "player": 1.0}', "1.0"),
                ('{"frame": 1, "button": "go", "player": true}', "True"),
                ('{"frame": -5, "button": "go"}', "-5"),
                ('{"frame": 1.7, "button": "go"}', "1.7"),
                ('{"frame": "3", "button": "go"}', "'3'"),
                ('{"frame": null, "button": "go"}', "None"),
                ('{"frame": 1e999, "button": "go"}', "inf"),
                ('{"button": "go"}', "frame"),
                ('{"frame": 1}', "button or a card"),
                ('{"frame": 1, "button": "stop"}', "stop"),
                ('{"frame": 1, "button": ["go"]}', "['go']"),
                ('{"frame": 1, "button": "go", "card": "5H"}', "button or a card"),
                ('{"frame": 1, "card": "5X"}', "5X"),
                ('{"frame": 1, "card": 5}', "5"),
                ('{"frame": 1, "card": "5H", "colour": "red"}', "colour"),
                ("[1, 2]", "JSON object"),
                ('"go"', "JSON object"),
                ("go at frame 1", "line 2"),
                (nested(50_000), "line 2"),
            ]
        )
    ],
    case(
        "session-buttons-line-number",
        "session --frames {d}/frames --record {d}/o.jsonl --buttons {d}/b.jsonl",
        "line 3",
        frames=FRAMES,
        b__jsonl=BUTTON + "\n" + '{"frame": 2, "button": "no"}',
    ),
    case(
        "session-truth-missing",
        "session --frames {d}/frames --record {d}/o.jsonl --truth {d}/none.jsonl",
        "none.jsonl",
        frames=FRAMES,
    ),
    case(
        "session-truth-binary",
        "session --frames {d}/frames --record {d}/o.jsonl --truth {d}/t.jsonl",
        "t.jsonl",
        frames=FRAMES,
        t__jsonl=b"\xff\xfe\xfd",
    ),
    case(
        "session-truth-not-list",
        "session --frames {d}/frames --record {d}/o.jsonl --truth {d}/t.jsonl",
        "line 1",
        frames=FRAMES,
        t__jsonl='{"card": "5H"}\n',
    ),
    case(
        "session-truth-bad-card",
        "session --frames {d}/frames --record {d}/o.jsonl --truth {d}/t.jsonl",
        "5Z",
        frames=FRAMES,
        t__jsonl='[{"card": "5Z", "corners": [[0,0],[1,0],[1,1],[0,1]]}]\n',
    ),
    case(
        "session-truth-corners",
        "session --frames {d}/frames --record {d}/o.jsonl --truth {d}/t.jsonl",
        "line 1",
        frames=FRAMES,
        t__jsonl='[{"card": "5H", "corners": [[0,0]]}]\n',
    ),
    case(
        "session-truth-nested",
        "session --frames {d}/frames --record {d}/o.jsonl --truth {d}/t.jsonl",
        "line 1",
        frames=FRAMES,
        t__jsonl=nested(60_000),
    ),
    case(
        "session-db-folder",
        "session --frames {d}/frames --record {d}/o.jsonl --truth {d}/t.jsonl --db {d}/games",
        "games",
        frames=FRAMES,
        games=DIR,
        t__jsonl="[]\n",
    ),
    case(
        "session-db-text",
        "session --frames {d}/frames --record {d}/o.jsonl --truth {d}/t.jsonl --db {d}/notes.txt",
        "notes.txt",
        frames=FRAMES,
        notes__txt="my notes\n" * 100,
        t__jsonl="[]\n",
    ),
    case(
        "session-db-photo",
        "session --frames {d}/frames --record {d}/o.jsonl --truth {d}/t.jsonl --db {d}/p.png",
        "p.png",
        frames=FRAMES,
        p__png=FRAME,
        t__jsonl="[]\n",
    ),
    case(
        "session-db-other-sqlite",
        "session --frames {d}/frames --record {d}/o.jsonl --truth {d}/t.jsonl --db {d}/other.db",
        "other.db",
        frames=FRAMES,
        other__db=OTHER_DB,
        t__jsonl="[]\n",
    ),
    case(
        "session-config-missing",
        "session --frames {d}/frames --record {d}/o.jsonl --config {d}/none.toml",
        "none.toml",
        frames=FRAMES,
    ),
    case(
        "session-config-bad",
        "session --frames {d}/frames --record {d}/o.jsonl --config {d}/c.toml",
        "c.toml",
        frames=FRAMES,
        c__toml="[game]\nplayers = 7\n",
    ),
    # -- board ----------------------------------------------------------------------------
    *[
        case(f"board-pegs-{i}", ["board", "--pegs", pegs, "--png", "{d}/b.png"], names)
        for i, (pegs, names) in enumerate(
            [
                ("abc", "'abc'"),
                ("45-40", "45-40"),
                ("40:45", "40:45"),
                ("200:1", "200:1"),
                ("", "''"),
                (",,,", "''"),
                ("1:1,2:2,3:3,4:4", "4 sides"),
                ("1.5:1", "1.5:1"),
                ("45:40:30", "45:40:30"),
                ("4 5:40", "4 5:40"),
                ("45:x", "45:x"),
                (":40", ":40"),
                ("9" * 5000 + ":1", "characters"),
            ]
        )
    ],
    case("board-pegs-option-like", "board --pegs -1:0 --png {d}/b.png", "--pegs"),
    *[
        case(
            f"board-size-{i}",
            ["board", "--pegs", "45:40", "--png", "{d}/b.png", "--size", size],
            names,
        )
        for i, (size, names) in enumerate(
            [
                ("800", "'800'"),
                ("800x", "800x"),
                ("x480", "x480"),
                ("10x10", "10x10"),
                ("100000x480", "100000x480"),
                ("800x480x3", "800x480x3"),
                ("0x0", "0x0"),
                ("800×480", "800×480"),
            ]
        )
    ],
    case("board-scene", "board --scene nope --png {d}/b.png", "nope"),
    case("board-players", "board --pegs 45:40,97:91 --players 3 --png {d}/b.png", "--players 3"),
    case("board-players-neg", "board --pegs 45:40 --players=-2 --png {d}/b.png", "-2"),
    case("board-png-missing-folder", "board --pegs 45:40 --png {d}/none/b.png", "none"),
    case("board-png-folder", "board --pegs 45:40 --png {d}/out", "out", out=DIR),
    case("board-png-suffix", "board --pegs 45:40 --png {d}/b.txt", "b.txt"),
    case("board-leds-missing-folder", "board --pegs 45:40 --leds-json {d}/none/l.json", "none"),
    case("board-seconds-nan", "board --pegs 45:40 --seconds nan", "nan"),
    case("board-seconds-neg", "board --pegs 45:40 --seconds=-1", "-1"),
    case("board-seconds-inf", "board --pegs 45:40 --seconds inf", "inf"),
    case(
        "board-config-binary",
        "board --pegs 45:40 --png {d}/b.png --config {d}/c.toml",
        "c.toml",
        c__toml=b"\xff\x00\xfe",
    ),
    case("board-both", "board --pegs 45:40 --scene win --png {d}/b.png", "--scene"),
    # -- history, stats, export -----------------------------------------------------------
    *[
        case(
            f"{command}-db-{kind}",
            [command, *extra, "--db", f"{{d}}/{name}"],
            name,
            **{name.replace(".", "__"): content},
        )
        for command, extra in (("history", []), ("stats", []), ("export", ["1"]))
        for kind, name, content in (
            ("folder", "games", DIR),
            ("text", "notes.txt", "my notes\n" * 50),
            ("photo", "p.png", FRAME),
            ("other-sqlite", "other.db", OTHER_DB),
            ("empty", "empty.sqlite3", ""),
        )
    ],
    case("history-db-missing", "history --db {d}/none.sqlite3", "none.sqlite3"),
    case("export-db-missing", "export 1 --db {d}/none.sqlite3", "none.sqlite3"),
    *[
        case(
            f"export-record-{i}",
            ["export", rec, "--db", "{d}/g.sqlite3"],
            names,
            g__sqlite3="<ours>",
        )
        for i, (rec, names) in enumerate(
            [
                ("abc", "'abc'"),
                ("0", "record 0"),
                ("99999999999999999999", "99999999999999999999"),
                ("1.2.3", "1.2.3"),
                ("1e3", "1e3"),
                ("", "''"),
                ("７", "７"),
                ("42", "record 42"),
                (LONG, "characters"),
            ]
        )
    ],
    case("export-record-negative", "export --db {d}/g.sqlite3 -- -1", "-1", g__sqlite3="<ours>"),
    case(
        "export-out-folder",
        "export 1 --db {d}/g.sqlite3 --out {d}/out",
        "out",
        g__sqlite3="<ours>",
        out=DIR,
    ),
    case(
        "export-out-missing-folder",
        "export 1 --db {d}/g.sqlite3 --out {d}/none/x.jsonl",
        "none",
        g__sqlite3="<ours>",
    ),
    case(
        "history-corrupt-ours", "history --db {d}/g.sqlite3", "g.sqlite3", g__sqlite3=OUR_CORRUPT_DB
    ),
    # -- mat ------------------------------------------------------------------------------
    case("mat-suffix", "mat --out {d}/mat.txt", "mat.txt"),
    case("mat-missing-folder", "mat --out {d}/none/mat.pdf", "none"),
    case("mat-folder", "mat --out {d}/out", "out", out=DIR),
    case("mat-players", "mat --out {d}/m.pdf --players 5", "5"),
    case("mat-nothing", "mat", "--out"),
    case("mat-png-missing-folder", "mat --out {d}/none/mat.png", "none"),
    # -- config ---------------------------------------------------------------------------
    case("config-missing", "config --file {d}/none.toml", "none.toml"),
    case("config-folder", "config --file {d}/conf", "conf", conf=DIR),
    case("config-binary", "config --file {d}/c.toml", "c.toml", c__toml=b"\x00\xff\xfe\x89PNG"),
    case(
        "config-utf16",
        "config --file {d}/c.toml",
        "c.toml",
        c__toml="[game]\nplayers = 2\n".encode("utf-16"),
    ),
    case("config-not-toml", "config --file {d}/c.toml", "c.toml", c__toml="players: 2\n"),
    case(
        "config-nested",
        "config --file {d}/c.toml",
        "c.toml",
        c__toml="x = " + nested(100_000) + "\n",
    ),
    *[
        case(f"config-value-{i}", "config --file {d}/c.toml", names, c__toml=text)
        for i, (text, names) in enumerate(
            [
                ("[game]\nplayers = 5\n", "players"),
                ('[game]\nplayers = "two"\n', "players"),
                ("[game]\ntarget = 100\n", "target"),
                ('[game]\ndealer = "me"\n', "game.dealer"),
                ('[game]\ncolour = "red"\n', "game.colour"),
                ("[gmae]\n", "gmae"),
                ('[players]\nnames = "Ann"\n', "players.names"),
                ('[players]\nnames = ["", "Bob"]\n', "players.names"),
                ("[session]\nfps = 0\n", "session.fps"),
                ("[session]\nfps = 1000\n", "session.fps"),
                ("[session]\nfps = nan\n", "session.fps"),
                ('[session]\nfps = "fast"\n', "session.fps"),
                ("[session]\nstable = 0\n", "session.stable"),
                ("[session]\nstable = true\n", "session.stable"),
                ("[store]\ndb = 5\n", "store.db"),
                ("game = 5\n", "[game]"),
                ('[devices]\nbackend = "toaster"\n', "toaster"),
                ("[devices.leds]\nbrightness = 7\n", "brightness"),
            ]
        )
    ],
    # -- recognize ------------------------------------------------------------------------
    case("recognize-missing", "recognize {d}/none.png", "none.png"),
    case("recognize-folder", "recognize {d}/photos", "photos", photos=DIR),
    case("recognize-empty", "recognize {d}/e.png", "e.png", e__png=b""),
    case("recognize-text", "recognize {d}/t.jpg", "t.jpg", t__jpg="not an image\n"),
    case("recognize-huge-png", "recognize {d}/h.png", "h.png", h__png=png(40000, 40000, rows=1)),
    case("recognize-huge-jpeg", "recognize {d}/h.jpg", "h.jpg", h__jpg=jpeg_header(65000, 65000)),
    case("recognize-zero-png", "recognize {d}/z.png", "z.png", z__png=png(0, 0)),
    case("recognize-truncated-png", "recognize {d}/t.png", "t.png", t__png=FRAME[:40]),
    case("recognize-truncated-jpeg", "recognize {d}/t.jpg", "t.jpg", t__jpg=jpeg_header(640, 480)),
    case(
        "recognize-gif",
        "recognize {d}/g.gif",
        "g.gif",
        g__gif=b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",
    ),
    case(
        "recognize-second-bad",
        "recognize {d}/ok.png {d}/bad.png",
        "bad.png",
        ok__png=FRAME,
        bad__png=b"\x89PNG nope",
    ),
    case(
        "recognize-deck-missing",
        "recognize {d}/ok.png --deck {d}/none.npz",
        "none.npz",
        ok__png=FRAME,
    ),
    case(
        "recognize-deck-junk",
        "recognize {d}/ok.png --deck {d}/d.npz",
        "d.npz",
        ok__png=FRAME,
        d__npz=b"junk",
    ),
    case(  # another program's .npz, holding pickled objects: not numpy's remark about pickles
        "recognize-deck-other-npz",
        "recognize {d}/ok.png --deck {d}/d.npz",
        "d.npz is not a deck profile",
        ok__png=FRAME,
        d__npz=OTHER_NPZ,
    ),
    case(
        "recognize-draw-file",
        "recognize {d}/ok.png --draw {d}/f.txt",
        "f.txt",
        ok__png=FRAME,
        f__txt="mine\n",
    ),
    # -- learn-deck -----------------------------------------------------------------------
    case(
        "learn-deck-count",
        "learn-deck {d}/p.npz {d}/a.png {d}/b.png",
        "2 photos",
        a__png=FRAME,
        b__png=FRAME,
    ),
    case(
        "learn-deck-expect-count",
        ["learn-deck", "{d}/p.npz", "{d}/a.png", "--expect", "AS", "--expect", "2S"],
        "--expect",
        a__png=FRAME,
    ),
    case(
        "learn-deck-expect-card",
        ["learn-deck", "{d}/p.npz", "{d}/a.png", "--expect", "AS 2Z"],
        "2Z",
        a__png=FRAME,
    ),
    case(
        "learn-deck-expect-twice",
        ["learn-deck", "{d}/p.npz", "{d}/a.png", "--expect", "AS AS"],
        "AS",
        a__png=FRAME,
    ),
    case(
        "learn-deck-image-missing",
        ["learn-deck", "{d}/p.npz", "{d}/none.png", "--expect", "AS"],
        "none.png",
    ),
    case(
        "learn-deck-profile-photo",
        ["learn-deck", "{d}/a.png", "{d}/a.png", "--expect", "AS"],
        "a.png",
        a__png=FRAME,
    ),
    case(
        "learn-deck-profile-folder",
        ["learn-deck", "{d}/prof.npz", "{d}/a.png", "--expect", "AS"],
        "prof.npz",
        a__png=FRAME,
        prof__npz=DIR,
    ),
    case(
        "learn-deck-profile-no-folder",
        ["learn-deck", "{d}/none/p.npz", "{d}/a.png", "--expect", "AS"],
        "none",
        a__png=FRAME,
    ),
    case(
        "learn-deck-huge-image",
        ["learn-deck", "{d}/p.npz", "{d}/h.png", "--expect", "AS"],
        "h.png",
        h__png=png(40000, 40000, rows=1),
    ),
    case(
        "learn-deck-option",
        ["learn-deck", "{d}/p.npz", "--bogus", "{d}/a.png"],
        "--bogus",
        a__png=FRAME,
    ),
    case(
        "learn-deck-camera-photo",
        "learn-deck --camera {d}/p.npz {d}/a.png",
        "--camera",
        a__png=FRAME,
    ),
    case("learn-deck-camera-not-npz", "learn-deck --camera {d}/a.png", "a.png", a__png=FRAME),
    case("learn-deck-camera-no-folder", "learn-deck --camera {d}/none/p.npz", "none"),
    case("learn-deck-camera-config", "learn-deck --camera --config {d}/none.toml", "none.toml"),
    # -- run ------------------------------------------------------------------------------
    case("run-config-missing", "run --demo --config {d}/none.toml", "none.toml"),
    case(
        "run-config-bad",
        "run --demo --config {d}/c.toml",
        "c.toml",
        c__toml="[session]\nfps = -1\n",
    ),
    case("run-players", "run --demo --players 7", "7"),
    case("run-target", "run --demo --target 50", "50"),
    case("run-demo-db-folder", "run --demo --db {d}/games", "games", games=DIR),
    case("run-demo-db-text", "run --demo --db {d}/n.txt", "n.txt", n__txt="notes\n"),
    case("run-demo-out-file", "run --demo --out {d}/o.txt", "o.txt", o__txt="mine\n"),
    case("run-seed-text", "run --demo --seed x", "'x'"),
    case("run-live-db-folder", "run --db {d}/games", "games", games=DIR),
    case("run-live-db-other-sqlite", "run --db {d}/o.db", "o.db", o__db=OTHER_DB),
    # -- install-service ------------------------------------------------------------------
    case("install-service-option", "install-service --dry-run --now", "--now"),
]


def _make(folder: Path, files: dict[str, bytes | str]) -> None:
    for name, content in files.items():
        path = folder / name
        if content == DIR:
            path.mkdir()
            (path / "mine.txt").write_text("a file of the user's\n")
        elif content == FRAMES:
            path.mkdir()
            (path / "000000.png").write_bytes(FRAME)
        elif content == OTHER_DB:
            other_sqlite(path)
        elif content == OUR_CORRUPT_DB:
            corrupt_ours(path)
        elif content == "<ours>":
            store = GameStore(path)
            from crib_pi.actions import GameOptions

            store.new_record(GameOptions())
            store.close()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _state(folder: Path) -> dict[str, str]:
    """Every file and folder under ``folder`` with a hash of its bytes."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        out[rel] = "dir" if path.is_dir() else hashlib.sha1(path.read_bytes()).hexdigest()
    return out


class Hang(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang(f"no answer within {LIMIT_S} s")


@pytest.fixture
def time_limit() -> Iterator[None]:
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, LIMIT_S)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _argv(c: Case, folder: Path) -> list[str]:
    return [a.replace("{d}", str(folder)) for a in c.argv]


def _run_in_process(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own errors
        status = exc.code if isinstance(exc.code, int) else 2
    return status, capsys.readouterr().err


def _check(status: int, err: str, c: Case, folder: Path, before: dict[str, str]) -> None:
    assert "Traceback" not in err, err
    assert status == 2, f"status {status}: {err}"
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("usage:")]
    assert lines, "no message"
    message = " ".join(lines)
    assert c.names.replace("{d}", str(folder)) in message, message
    assert len(message) < 2_000, f"a message of {len(message)} characters"
    after = _state(folder)
    assert {k: v for k, v in after.items() if k in before} == before, "a user file changed"
    assert set(before) <= set(after), "a user file was moved or deleted"


def test_there_are_at_least_150_distinct_bad_inputs() -> None:
    assert len({c.id for c in CASES}) == len(CASES) >= 150
    assert len({(c.argv, tuple(sorted(c.files.items(), key=str))) for c in CASES}) == len(CASES)


@pytest.mark.parametrize("c", CASES, ids=lambda c: c.id)
def test_bad_input_in_process(
    c: Case,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    time_limit: None,
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("CRIB_PI_DEVICES", "mock")
    monkeypatch.chdir(tmp_path)
    _make(tmp_path, c.files)
    before = _state(tmp_path)
    status, err = _run_in_process(_argv(c, tmp_path), capsys)
    _check(status, err, c, tmp_path, before)


#: A representative set run as a user runs them: a process of its own.
SUBPROCESS = (
    "no-command",
    "score-card-0",
    "score-card-21",
    "peg-over-31",
    "replay-nested",
    "replay-binary",
    "session-button-line-0",
    "session-stable-0",
    "session-db-folder",
    "board-png-missing-folder",
    "export-record-2",
    "history-db-other-sqlite",
    "config-binary",
    "recognize-huge-png",
    "recognize-huge-jpeg",
    "learn-deck-profile-photo",
    "run-demo-db-folder",
)


@pytest.mark.parametrize("name", SUBPROCESS)
def test_bad_input_in_a_process(name: str, tmp_path: Path) -> None:
    (c,) = [c for c in CASES if c.id == name]
    _make(tmp_path, c.files)
    before = _state(tmp_path)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "CRIB_PI_DEVICES": "mock"}
    done = subprocess.run(
        [sys.executable, "-m", "crib_pi", *_argv(c, tmp_path)],
        capture_output=True,
        text=True,
        timeout=LIMIT_S,
        cwd=tmp_path,
        env=env,
    )
    _check(done.returncode, done.stderr, c, tmp_path, before)
    assert done.stdout == "" or "Traceback" not in done.stdout


def test_a_closed_pipe_ends_quietly() -> None:
    """``crib-pi replay ... | head`` and ``crib-pi mat --json | head``: status 0, no message."""
    for args in (["replay", str(ROOT / "tests/data/one-deal.jsonl")] * 1, ["mat", "--json"]):
        proc = subprocess.Popen(
            [sys.executable, "-m", "crib_pi", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.read(5)
        proc.stdout.close()  # what head does after its lines
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=30) == 0, err
        assert err == ""


# -- property-based: generated cards, record lines and button lines -----------------------

quick = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


@quick
@given(card=TEXT.filter(lambda t: t.strip() not in ("",) and not t.startswith("-")))
def test_any_card_text_is_read_or_refused_by_name(
    card: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from crib_pi.cards import Card

    try:
        Card.parse(card)
        return  # a card after all
    except ValueError:
        pass
    status, err = _run_in_process(["score", card, "2D", "3S", "4C", "9H"], capsys)
    assert status == 2 and "Traceback" not in err
    assert "crib-pi score: card" in err and len(err) < 1_000


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=12,
)


@quick
@given(
    line=st.one_of(
        JSON.map(json.dumps),
        st.dictionaries(
            st.sampled_from(["play", "go", "cut", "deal", "discard", "show", "claim", "undo"]),
            JSON,
            min_size=1,
            max_size=2,
        ).map(json.dumps),
        st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
    )
)
def test_any_record_line_is_applied_or_refused_by_line(
    line: str, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path_factory.mktemp("rec") / "r.jsonl"
    text = RECORD.splitlines()
    path.write_text("\n".join([text[0], line.replace("\n", " "), *text[1:]]) + "\n")
    status, err = _run_in_process(["replay", str(path)], capsys)
    assert "Traceback" not in err and "internal error" not in err, err
    if status:
        assert status == 2 and f"{path}: line" in err, err


@quick
@given(
    line=st.dictionaries(st.sampled_from(["frame", "button", "card", "player"]), JSON, max_size=4)
)
def test_any_button_line_is_taken_or_refused_by_line(line: dict[str, object]) -> None:
    from crib_pi.commands.session import _press_line

    try:
        checked = _press_line(json.dumps(line), 2)
    except (ValueError, KeyError, TypeError) as exc:
        assert not isinstance(exc, TypeError), exc
        return
    assert isinstance(checked["frame"], int) and checked["frame"] >= 0
    assert checked.get("player") in (None, 0, 1)
