"""``crib-pi replay FILE... [--json]``: replay game records, print every point and the result."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from crib_pi.cli import clip
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
            replay = replay_file(path)
            summary = replay.summary()
        except (CribError, OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            reason = clip(reason)
            status = 2
            print(f"crib-pi replay: {path}: {reason}", file=sys.stderr)
            if args.json:
                print(json.dumps({"file": path, "error": reason}, ensure_ascii=False))
            continue
        if args.json:
            print(json.dumps(summary, ensure_ascii=False))
        else:
            _print_text(path, summary, replay.game.options.players)
    return status


def who_won(winner: int, scores: list[int], skunk: str, players: int) -> str:
    """'player 1 wins 121-85, a skunk' (a side of partners when four play): winner first."""
    side = f"player {winner}" if players < 4 else f"players {winner} and {winner + 2}"
    order = [winner] + [i for i in range(len(scores)) if i != winner]
    text = f"{side} {'win' if players == 4 else 'wins'} " + "-".join(str(scores[i]) for i in order)
    names = {"skunk": "a skunk", "double": "a double skunk", "triple": "a triple skunk"}
    return f"{text}, {names[skunk]}" if skunk in names else text


def _print_text(path: str, summary: dict[str, Any], players: int) -> None:
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
        won = who_won(game["winner"], game["scores"], game["skunk"], players)
        print(f"  game {number}: {won}")
    if summary["winner"] is None:
        print(f"  unfinished: scores {' - '.join(map(str, summary['scores']))}")
