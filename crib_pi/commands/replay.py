"""``crib-pi replay FILE... [--json]``: replay game records, print every point and the result."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from crib_pi.errors import CribError
from crib_pi.records import replay_file


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="replay game records (JSON lines) and print every scoring event",
        description="Replay each record and print what was pegged and the result. With --json, "
        "one JSON object per file, one per line, in the order given.",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            summary = replay_file(path).summary()
        except (CribError, OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            status = 2
            print(f"crib-pi replay: {path}: {reason}", file=sys.stderr)
            if args.json:
                print(json.dumps({"file": path, "error": reason}, ensure_ascii=False))
            continue
        if args.json:
            print(json.dumps(summary, ensure_ascii=False))
        else:
            _print_text(path, summary)
    return status


def _print_text(path: str, summary: dict[str, Any]) -> None:
    print(f"== {path}")
    for e in summary["events"]:
        cards = " ".join(e["cards"])
        print(
            f"  line {e['line']:>3}  player {e['player']} pegs {e['points']:>2}"
            f"  {e['text']}" + (f" ({cards})" if cards else "")
        )
    for p in summary["problems"]:
        print(f"  line {p['line']:>3}  problem: {p['problem']}")
    for number, game in enumerate(summary["games"], start=1):
        scores = "-".join(map(str, game["scores"]))
        print(f"  game {number}: side {game['winner']} wins {scores} ({game['skunk']})")
    if summary["winner"] is None:
        print(f"  unfinished: scores {' - '.join(map(str, summary['scores']))}")
