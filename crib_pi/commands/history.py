"""``crib-pi history``, ``crib-pi export GAME`` and ``crib-pi stats``: the stored games."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from crib_pi.cli import clip
from crib_pi.commands.out_file import write_out
from crib_pi.errors import CribError
from crib_pi.history import PlayerStats, add_stats, history_rows
from crib_pi.i18n import N_, _, ngettext
from crib_pi.store import GameStore, default_db, open_store


def add_parser(sub: Any) -> None:
    for name, helptext, func in (
        ("history", N_("list stored games: date, players, result, skunks"), run_history),
        ("stats", N_("each player's games, wins, skunks, averages and best hand"), run_stats),
    ):
        p = sub.add_parser(name, help=_(helptext))
        p.add_argument("--db", type=Path, help=_("game database (default: the state folder)"))
        p.add_argument("--json", action="store_true", help=_("print one JSON array"))
        p.set_defaults(func=func)
    p = sub.add_parser("export", help=_("write one stored game record (JSON lines)"))
    p.add_argument("game", metavar="RECORD", help=_("the record number history shows (3, or 3.2)"))
    p.add_argument("--db", type=Path, help=_("game database (default: the state folder)"))
    p.add_argument("--out", type=Path, help=_("file to write (default: standard output)"))
    p.add_argument("--force", action="store_true", help=_("replace the --out file if it exists"))
    p.set_defaults(func=run_export)


SKUNKS = {"skunk": N_("a skunk"), "double": N_("a double skunk"), "triple": N_("a triple skunk")}


def _open(args: argparse.Namespace) -> GameStore:
    """Read-only: history works on a read-only disk and never changes the file."""
    return open_store(args.db or default_db(), readonly=True)


def run_history(args: argparse.Namespace) -> int:
    store = _open(args)
    rows = [
        row
        for stored, replay in store.iter_replays()
        for row in history_rows(stored, replay, human=not args.json)
    ]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    if not rows:
        print(_("no games yet"))
    for r in rows:
        scores = "-".join(map(str, r["scores"]))
        result = _("{winner} won").format(winner=r["winner"]) if r["winner"] else _("in progress")
        if r["skunk"] in SKUNKS:
            result = _("{text}, {skunk}").format(text=result, skunk=_(SKUNKS[r["skunk"]]))
        line = _("record {record:>3} game {game:<2} {date}  {sides}  {scores}  {result}")
        sides = _(" v ").join(r["sides"])
        print(
            line.format(
                record=r["record"],
                game=r["game"],
                date=r["date"],
                sides=sides,
                scores=scores,
                result=result,
            )
        )
    if rows:
        print(_("(crib-pi export RECORD writes a record's games)"))
    return 0


def run_stats(args: argparse.Namespace) -> int:
    store = _open(args)
    stats: dict[str, PlayerStats] = {}
    for _number, replay in store.iter_replays():
        add_stats(stats, replay, human=not args.json)
    rows = [s.to_json() for s in stats.values()]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    for r in rows:
        line = _(
            "{name:<12} games {games:>3}  wins {wins:>3}  skunks {skunks}/{skunked}  "
            "hand {hand}  crib {crib}  pegging {pegging}  best {best} ({cards})"
        )
        print(
            line.format(
                name=r["name"],
                games=r["games"],
                wins=r["wins"],
                skunks=r["skunks"],
                skunked=r["skunked"],
                hand=r["average_hand"],
                crib=r["average_crib"],
                pegging=r["average_pegging"],
                best=r["best_hand"],
                cards=" ".join(r["best_hand_cards"]),
            )
        )
    return 0


def record_number(text: str) -> int:
    """``3`` or ``3.2`` (record 3, its game 2, as history used to show it) -> 3."""
    return record_and_game(text)[0]


def record_and_game(text: str) -> tuple[int, int | None]:
    """``3`` -> (3, None); ``3.2`` (record 3, its game 2, as history shows it) -> (3, 2)."""
    match = re.fullmatch(r"\s*([0-9]{1,19})(?:\.([0-9]{1,9}))?\s*", text)
    if match is None:
        raise CribError(
            _("RECORD {text!r} is not a record number from history, like 3").format(text=clip(text))
        )
    game = match.group(2)
    return int(match.group(1)), None if game is None else int(game)


def run_export(args: argparse.Namespace) -> int:
    store = _open(args)
    record, game = record_and_game(args.game)
    lines = store.lines(record)
    if game is not None:  # 3.2: history must have shown that game of that record
        stored = next(r for r in store.records() if r.id == record)
        games = len(history_rows(stored, store.replay(record)))
        if not 1 <= game <= games:
            raise CribError(
                ngettext(
                    "there is no game {record}.{game} in history (record {record} has {count} "
                    "game)",
                    "there is no game {record}.{game} in history (record {record} has {count} "
                    "games)",
                    games,
                ).format(record=record, game=game, count=games)
            )
    text = "\n".join(lines) + "\n"
    if args.out:
        write_out(args.out, text, force=args.force)
    else:
        print(text, end="")
    return 0
