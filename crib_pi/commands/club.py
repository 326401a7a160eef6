"""``crib-pi club ...``: a club's tournament. ``init`` makes the tournament file, the broker's
passwords and ACL and each table's ``[club]`` section; ``players`` registers players; ``run``
is the director; ``pair``, ``correct``, ``standings`` and ``export`` work on the file (the
running director sends what they change); ``table`` is a table's link to its club."""

from __future__ import annotations

import argparse
import csv
import io
import json
import secrets
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from crib_pi.commands.out_file import write_out
from crib_pi.errors import CribError
from crib_pi.i18n import N_, _


def add_parser(sub: Any) -> None:
    club = sub.add_parser("club", help=_("a club's tables as one tournament (MQTT)"))
    club.add_argument("--config", type=Path, help=_("config file (default: the one in force)"))
    club.add_argument(
        "--file",
        type=Path,
        help=_("the tournament file (default: club.sqlite3 in the state folder)"),
    )
    verbs = club.add_subparsers(dest="verb", required=True, metavar="VERB")

    p = verbs.add_parser("init", help=_("make the tournament file, broker files and table configs"))
    p.add_argument("club", help=_("the club's name (letters, digits, - or _)"))
    p.add_argument("--tables", type=int, required=True, help=_("how many tables"))
    p.add_argument(
        "--out",
        type=Path,
        required=True,
        help=_("folder for the broker's files and the tables' config sections"),
    )
    p.add_argument(
        "--broker", default="localhost", help=_("the broker's address, as tables see it")
    )
    p.add_argument("--port", type=int, default=1883, help=_("the broker's port (default 1883)"))
    p.add_argument("--tls-cert", type=Path, help=_("the broker's certificate: listen with TLS"))
    p.add_argument("--tls-key", type=Path, help=_("the certificate's private key"))
    p.add_argument(
        "--tls-ca", type=Path, help=_("the CA that signed it, for the tables (default: --tls-cert)")
    )
    p.set_defaults(func=run_init)

    p = verbs.add_parser("players", help=_("register players"))
    p.add_argument("names", nargs="+", metavar="NAME", help=_("the players' names"))
    p.set_defaults(func=run_players)

    p = verbs.add_parser("pair", help=_("pair the next round (the running director sends it)"))
    p.set_defaults(func=run_pair)

    p = verbs.add_parser("run", help=_("the director: take in games, pair, show standings"))
    p.add_argument(
        "--rounds",
        type=int,
        default=0,
        help=_("pair each next round by itself up to this many (default: by hand)"),
    )
    p.set_defaults(func=run_director)

    p = verbs.add_parser("standings", help=_("print the standings"))
    p.add_argument("--json", action="store_true", help=_("print one JSON array"))
    p.set_defaults(func=run_standings)

    p = verbs.add_parser("correct", help=_("correct a game's scores (recorded, with a reason)"))
    p.add_argument("round", type=int, help=_("the round's number"))
    p.add_argument("table", help=_("the table's name"))
    p.add_argument(
        "scores",
        type=int,
        nargs=2,
        metavar="SCORE",
        help=_("the first and second player's scores, as paired"),
    )
    p.add_argument(
        "--reason", required=True, help=_("why the scores are corrected (kept with them)")
    )
    p.set_defaults(func=run_correct)

    p = verbs.add_parser("export", help=_("write the night's results as CSV"))
    p.add_argument("--out", type=Path, help=_("file to write (default: standard output)"))
    p.add_argument("--force", action="store_true", help=_("replace the --out file if it exists"))
    p.add_argument("--games", action="store_true", help=_("one row a game instead of standings"))
    p.set_defaults(func=run_export)

    p = verbs.add_parser("table", help=_("this table's link to its club"))
    p.add_argument("--db", type=Path, help=_("game database (default: the state folder)"))
    p.set_defaults(func=run_table)


def _config(args: argparse.Namespace) -> Any:
    from crib_pi.config import load

    return load(args.config)


def _file(args: argparse.Namespace, config: Any) -> Path:
    if args.file:
        return Path(args.file)
    from crib_pi.store import default_db

    return default_db().with_name("club.sqlite3")


def _open(args: argparse.Namespace) -> Any:
    from crib_pi.club.store import ClubStore

    config = _config(args)
    if not config.club.club:
        raise CribError(_("[club] club is not set in the config; crib-pi club init writes it"))
    return ClubStore(_file(args, config), config.club.club)


def run_init(args: argparse.Namespace) -> int:
    from crib_pi.club.broker import DIRECTOR, conf, table_user, write_files
    from crib_pi.club.messages import check_name
    from crib_pi.club.rules import ClubRules
    from crib_pi.club.store import ClubStore

    club = check_name(args.club, _("club"))
    if not 1 <= args.tables <= 500:
        raise CribError(_("--tables {n} is not 1 to 500").format(n=args.tables))
    tables = [str(n) for n in range(1, args.tables + 1)]
    path = _file(args, None)
    if path.exists() and path.stat().st_size:
        raise CribError(
            _("{path} exists already; give another --file (it is left as it is)").format(path=path)
        )
    out = args.out
    tls = None
    if args.tls_cert or args.tls_key:
        if not (args.tls_cert and args.tls_key):
            raise CribError(_("--tls-cert and --tls-key go together"))
        for given in (args.tls_cert, args.tls_key, args.tls_ca):
            if given is not None and not given.is_file():
                raise CribError(_("{path}: no such file").format(path=given))
        tls = (str(args.tls_cert.resolve()), str(args.tls_key.resolve()))
    users = write_files(out, club, tables)
    (out / "crib-pi.conf").write_text(conf(out, args.port, tls=tls))
    key = secrets.token_urlsafe(24)
    store = ClubStore(path, club, create=True)
    store.set_meta("key", key)
    store.set_rules(ClubRules())
    store.add_tables(tables)
    store.close()

    def section(user: str, table: str) -> str:
        return (
            f'[club]\nclub = "{club}"\nbroker = "{args.broker}"\nport = {args.port}\n'
            f'table = "{table}"\nuser = "{user}"\npassword = "{users[user]}"\nkey = "{key}"\n'
            + (f'tls_ca = "{(args.tls_ca or args.tls_cert).resolve()}"\n' if tls else "")
        )

    (out / "director.toml").write_text(section(DIRECTOR, "") + 'web = "0.0.0.0:8033"\n')
    for t in tables:
        (out / f"table-{t}.toml").write_text(section(table_user(t), t))
    print(_("tournament file: {path}").format(path=path))
    print(_("broker files: {folder} (crib-pi.conf, passwd, acl)").format(folder=out))
    print(
        _("director's config: {file}; each table's: {folder}/table-N.toml").format(
            file=out / "director.toml", folder=out
        )
    )
    return 0


def run_players(args: argparse.Namespace) -> int:
    store = _open(args)
    added = store.add_players(args.names)
    print(
        _("{n} players registered ({total} in all)").format(
            n=len(added), total=len(store.players())
        )
    )
    return 0


def _director(store: Any, publish: Any, rounds: int = 0) -> Any:
    from crib_pi.club.director import Director

    key = store.meta("key")
    if not key:
        raise CribError(
            _("{path} has no club key; make it with crib-pi club init").format(path=store.path)
        )
    return Director(store, key, publish, rounds=rounds)


def run_pair(args: argparse.Namespace) -> int:
    store = _open(args)
    director = _director(store, lambda *_a: None)
    number = director.pair_next()
    for _r, table, a, b in store.pairings(number):
        print(_("Table {table}: {a} v {b}").format(table=table, a=a, b=b))
    bye = store.byes().get(number)
    if bye:
        print(_("Bye: {name}").format(name=bye))
    print(
        _("round {round} paired; the running director sends it to the tables").format(round=number)
    )
    return 0


def run_director(args: argparse.Namespace) -> int:
    from crib_pi.club.link import Link, Waiting
    from crib_pi.club.messages import topic
    from crib_pi.club.web import serve, standings_body

    config = _config(args)
    store = _open(args)
    link = Link(config.club, f"crib-pi-{store.club}-director", [topic(store.club, "+", "events")])
    director = _director(store, link.publish, args.rounds)
    director.refresh()
    server = None
    if config.club.web:
        server = serve(director.board, config.club.web, N_("Standings"), standings_body)
        print(_("standings page: http://{where}/").format(where=config.club.web), flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_a: stop.set())
    print(
        _("director of club {club}: {tables} tables, {players} players, round {round}").format(
            club=store.club,
            tables=len(store.tables()),
            players=len(store.players()),
            round=store.current_round(),
        ),
        flush=True,
    )
    connects = 0
    waiting = Waiting(config.club)
    try:
        while not stop.is_set():
            if link.connects != connects:
                connects = link.connects
                director.resume()
            director.absorb(link.drain(0.2))
            if link.refused:
                raise CribError(
                    _("the broker refused the director: {why}").format(why=link.refused[-1])
                )
            waiting.check(link.connected)
    finally:
        link.close()
        if server is not None:
            server.server_close()
        store.close()
    return 0


def run_standings(args: argparse.Namespace) -> int:
    from crib_pi.club.pairing import ranked

    store = _open(args)
    rows = ranked(store.standings())
    if args.json:
        keys = ("name", "points", "spread", "games", "wins", "byes")
        print(json.dumps([{k: getattr(r, k) for k in keys} for r in rows], ensure_ascii=False))
        return 0
    for rank, r in enumerate(rows, start=1):
        print(
            _(
                "{rank:>3}. {name:<20} {points:>3} points  spread {spread:+4d}  "
                "games {games}  wins {wins}"
            ).format(
                rank=rank, name=r.name, points=r.points, spread=r.spread, games=r.games, wins=r.wins
            )
        )
    return 0


def run_correct(args: argparse.Namespace) -> int:
    store = _open(args)
    store.correct(args.round, args.table, (args.scores[0], args.scores[1]), args.reason)
    print(
        _("round {round} table {table} corrected to {a}-{b}, recorded with its reason").format(
            round=args.round, table=args.table, a=args.scores[0], b=args.scores[1]
        )
    )
    return 0


def run_export(args: argparse.Namespace) -> int:
    from crib_pi.club.pairing import ranked

    store = _open(args)
    rows: list[list[Any]] = []
    if args.games:
        rules = store.rules
        rows.append(
            [
                "round",
                "table",
                "player",
                "opponent",
                "score",
                "opponent_score",
                "game_points",
                "spread",
                "corrected",
            ]
        )
        for g in store.games():
            if g.scores is None:
                continue
            results = rules.score(g.scores)
            for side in (0, 1):
                rows.append(
                    [
                        g.round,
                        g.table,
                        g.players[side],
                        g.players[1 - side],
                        g.scores[side],
                        g.scores[1 - side],
                        results[side].points,
                        results[side].spread,
                        int(g.corrected),
                    ]
                )
    else:
        rows.append(["rank", "player", "game_points", "spread", "games", "wins", "byes"])
        for rank, s in enumerate(ranked(store.standings()), start=1):
            rows.append([rank, s.name, s.points, s.spread, s.games, s.wins, s.byes])
    if args.out:
        text = io.StringIO()
        csv.writer(text).writerows(rows)
        write_out(args.out, text.getvalue(), force=args.force)
    else:
        csv.writer(sys.stdout).writerows(rows)
    return 0


def run_table(args: argparse.Namespace) -> int:
    from crib_pi.club.director import Board
    from crib_pi.club.link import Waiting
    from crib_pi.club.table import TableLink
    from crib_pi.club.web import pairing_body, serve
    from crib_pi.store import default_db, open_store

    config = _config(args)
    db = args.db or (Path(config.db) if config.db else default_db())
    games = open_store(db)
    link = TableLink(config.club, games, db.with_name(db.name + ".club"))
    board = Board()
    server = None
    if config.club.web:
        server = serve(board, config.club.web, N_("Table"), pairing_body)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_a: stop.set())
    link.connect()
    print(link.caption(), flush=True)
    shown = ""
    waiting = Waiting(config.club)
    try:
        while not stop.is_set():
            link.step()
            if link.link is not None:
                if link.link.refused:
                    raise CribError(
                        _("the broker refused this table: {why}").format(why=link.link.refused[-1])
                    )
                waiting.check(link.link.connected)
            caption = link.caption()
            if caption != shown:
                shown = caption
                pairing = link.pairing
                board.set({"caption": caption, "round": pairing[0] if pairing else 0})
            stop.wait(0.1)
    finally:
        link.close()
        games.close()
        if server is not None:
            server.server_close()
    return 0
