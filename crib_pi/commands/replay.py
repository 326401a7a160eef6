"""``crib-pi replay FILE... [--json]``: replay game records, print every point and the result."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from crib_pi.actions import GameOptions
from crib_pi.cli import clip
from crib_pi.errors import CribError
from crib_pi.i18n import N_, _
from crib_pi.players import player_name
from crib_pi.records import replay_file
from crib_pi.snapshot import said


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help=_("replay game records (JSON lines) and print every scoring event"),
        description=_(
            "Replay each record and print what was pegged and the result. With --json, "
            "one JSON object per file, one per line, in the order given."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help=_("game records (JSON lines)"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per file, one per line"))
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
            _print_text(path, summary, replay.game.options)
    return status


def who_won(
    winner: int, scores: list[int], skunk: str, players: int, names: Sequence[str] = ()
) -> str:
    """'Player 2 wins 121-85, a skunk' (a side of partners when four play): winner first."""
    order = [winner] + [i for i in range(len(scores)) if i != winner]
    score = "-".join(str(scores[i]) for i in order)
    if players < 4:
        text = _("{player} wins {score}").format(player=player_name(winner, names), score=score)
    else:
        text = _("{player} and {partner} win {score}").format(
            player=player_name(winner, names), partner=player_name(winner + 2, names), score=score
        )
    skunks = {
        "skunk": N_("a skunk"),
        "double": N_("a double skunk"),
        "triple": N_("a triple skunk"),
    }
    return (
        _("{text}, {skunk}").format(text=text, skunk=_(skunks[skunk])) if skunk in skunks else text
    )


def _print_text(path: str, summary: dict[str, Any], options: GameOptions) -> None:
    print(f"== {path}")
    for e in summary["events"]:
        cards = " ".join(e["cards"])
        line = _("  line {line:>3}  {player} pegs {points:>2}  {text}").format(
            line=e["line"],
            player=player_name(e["player"], options.names),
            points=e["points"],
            text=said(e["text"], e["points"]),
        )
        print(line + (f" ({cards})" if cards else ""))
    for p in summary["problems"]:
        print(
            _("  line {line:>3}  problem: {problem}").format(line=p["line"], problem=p["problem"])
        )
    for number, game in enumerate(summary["games"], start=1):
        won = who_won(game["winner"], game["scores"], game["skunk"], options.players, options.names)
        print(_("  game {number}: {won}").format(number=number, won=won))
    if summary["winner"] is None:
        scores = " - ".join(map(str, summary["scores"]))
        print(_("  unfinished: scores {scores}").format(scores=scores))
