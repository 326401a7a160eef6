"""The director's tournament file: players, tables, rounds, every record line received, the
games scored, corrections and the problems reported, in one SQLite file.

Each line is stored once under its id (table, record, seq), so a repeated delivery changes
nothing; the director commits before it acknowledges, so a director killed at any moment loses
nothing the tables will not send again. The file is marked as a tournament file in its SQLite
header; another file (a table's game database, another program's database, a photo) or another
club's tournament is refused with a message and left as it is.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crib_pi.club.pairing import Standing
from crib_pi.club.rules import ClubRules
from crib_pi.errors import CribError
from crib_pi.i18n import _
from crib_pi.store import APPLICATION_ID as GAMES_ID
from crib_pi.store import SQLITE_MAGIC

CLUB_ID = 0x43524243  # "CRBC" in the header: a crib-pi club's tournament file
FORMAT = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (name TEXT PRIMARY KEY, added REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tables (name TEXT PRIMARY KEY, added REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rounds (round INTEGER PRIMARY KEY, paired REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pairings (
    round INTEGER NOT NULL, tbl TEXT NOT NULL, p0 TEXT NOT NULL, p1 TEXT NOT NULL,
    PRIMARY KEY (round, tbl));
CREATE TABLE IF NOT EXISTS byes (round INTEGER PRIMARY KEY, player TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    tbl TEXT NOT NULL, record INTEGER NOT NULL, seq INTEGER NOT NULL, line TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY (tbl, record, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    tbl TEXT NOT NULL, record INTEGER NOT NULL, round INTEGER NOT NULL, final INTEGER,
    status TEXT NOT NULL DEFAULT 'open', reason TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tbl, record));
CREATE TABLE IF NOT EXISTS games (
    round INTEGER NOT NULL, tbl TEXT NOT NULL, record INTEGER NOT NULL,
    s0 INTEGER NOT NULL, s1 INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (round, tbl));
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY, at REAL NOT NULL, round INTEGER NOT NULL, tbl TEXT NOT NULL,
    before TEXT NOT NULL, s0 INTEGER NOT NULL, s1 INTEGER NOT NULL, reason TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS problems (
    id INTEGER PRIMARY KEY, at REAL NOT NULL, tbl TEXT NOT NULL, message TEXT NOT NULL);
"""


class TournamentError(CribError):
    """A tournament file that cannot be used: names the file and why."""


@dataclass(frozen=True, slots=True)
class Game:
    round: int
    table: str
    record: int | None
    players: tuple[str, str]
    scores: tuple[int, int] | None  # None: not played yet
    corrected: bool = False


def check_file(path: Path) -> str:
    """'new' or 'ours'; anything else is a ``TournamentError`` (and the file is left alone)."""
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return "new"
    if not path.is_file():
        raise TournamentError(_("{path} is not a file; it is left as it is").format(path=path))
    with path.open("rb") as fh:
        head = fh.read(100)
    if not head.startswith(SQLITE_MAGIC) or len(head) < 100:
        raise TournamentError(
            _("{path} is not a club tournament file (not SQLite); it is left as it is").format(
                path=path
            )
        )
    marked = int.from_bytes(head[68:72], "big")
    if marked == GAMES_ID:
        raise TournamentError(
            _(
                "{path} is a table's game database, not a club tournament file; it is left as it is"
            ).format(path=path)
        )
    if marked != CLUB_ID:
        raise TournamentError(
            _(
                "{path} is another program's SQLite database, not a club tournament file; "
                "it is left as it is"
            ).format(path=path)
        )
    return "ours"


class ClubStore:
    """The tournament file; ``club`` names the club it must belong to."""

    def __init__(self, path: str | Path, club: str, *, create: bool = False) -> None:
        self.path = Path(path)
        kind = check_file(self.path)
        if kind == "new" and not create:
            raise TournamentError(
                _("no tournament file at {path} (crib-pi club init makes one)").format(
                    path=self.path
                )
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(
                str(self.path), isolation_level=None, timeout=10, check_same_thread=False
            )
            if kind == "new":  # marked before WAL, so the header on disk says it at once
                self.db.execute(f"PRAGMA application_id = {CLUB_ID}")
                self.db.executescript(SCHEMA)
                self._set("format", str(FORMAT))
                self._set("club", club)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            found = self.meta("club")
            version = int(self.meta("format") or "0")
        except (sqlite3.Error, OSError, ValueError) as exc:
            raise TournamentError(
                _("tournament file {path}: {exc}").format(path=self.path, exc=exc)
            ) from None
        if found != club:
            self.db.close()
            raise TournamentError(
                _(
                    "{path} is the tournament of club {found!r}, not {club!r}; it is left as it is"
                ).format(path=self.path, found=found, club=club)
            )
        if version > FORMAT:
            self.db.close()
            raise TournamentError(
                _("{path} was written by a newer crib-pi (format {version})").format(
                    path=self.path, version=version
                )
            )
        self.club = club

    def close(self) -> None:
        self.db.close()

    # meta, players, tables ------------------------------------------------------------------

    def _set(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self._set(key, value)

    @property
    def rules(self) -> ClubRules:
        text = self.meta("rules")
        return ClubRules.from_mapping(json.loads(text)) if text else ClubRules()

    def set_rules(self, rules: ClubRules) -> None:
        self._set("rules", json.dumps(rules.to_json()))

    def add_players(self, names: Iterable[str]) -> list[str]:
        """Register players; returns those new (a name given twice is kept once)."""
        added = []
        for name in names:
            name = name.strip()
            if not name or len(name) > 60:
                raise CribError(
                    _("player name {name!r} must be 1 to 60 characters").format(name=name)
                )
            cur = self.db.execute(
                "INSERT OR IGNORE INTO players VALUES (?, ?)", (name, time.time())
            )
            if cur.rowcount:
                added.append(name)
        return added

    def players(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT name FROM players ORDER BY added, name")]

    def add_tables(self, names: Iterable[str]) -> None:
        for name in names:
            self.db.execute("INSERT OR IGNORE INTO tables VALUES (?, ?)", (name, time.time()))

    def tables(self) -> list[str]:
        rows = [r[0] for r in self.db.execute("SELECT name FROM tables")]
        return sorted(rows, key=lambda t: (len(t), t))

    # rounds ---------------------------------------------------------------------------------

    def current_round(self) -> int:
        row = self.db.execute("SELECT coalesce(max(round), 0) FROM rounds").fetchone()
        return int(row[0])

    def add_round(self, pairs: list[tuple[str, str, str]], bye: str | None) -> int:
        """Store round n+1's pairings (table, player, player) and bye; returns n+1."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            number = self.current_round() + 1
            self.db.execute("INSERT INTO rounds VALUES (?, ?)", (number, time.time()))
            self.db.executemany(
                "INSERT INTO pairings VALUES (?, ?, ?, ?)", [(number, *p) for p in pairs]
            )
            if bye is not None:
                self.db.execute("INSERT INTO byes VALUES (?, ?)", (number, bye))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return number

    def pairings(self, round_: int | None = None) -> list[tuple[int, str, str, str]]:
        sql = "SELECT round, tbl, p0, p1 FROM pairings"
        rows = (
            self.db.execute(sql + " WHERE round = ?", (round_,))
            if round_ is not None
            else self.db.execute(sql)
        )
        out = [(int(r), str(t), str(a), str(b)) for r, t, a, b in rows]
        return sorted(out, key=lambda p: (p[0], len(p[1]), p[1]))

    def pairing(self, round_: int, table: str) -> tuple[str, str] | None:
        row = self.db.execute(
            "SELECT p0, p1 FROM pairings WHERE round = ? AND tbl = ?", (round_, table)
        ).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def byes(self) -> dict[int, str]:
        return {int(r): str(p) for r, p in self.db.execute("SELECT round, player FROM byes")}

    def round_done(self, round_: int) -> bool:
        (left,) = self.db.execute(
            "SELECT count(*) FROM pairings p LEFT JOIN games g "
            "ON g.round = p.round AND g.tbl = p.tbl WHERE p.round = ? AND g.round IS NULL",
            (round_,),
        ).fetchone()
        return int(left) == 0

    # events and records ---------------------------------------------------------------------

    def begin(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def commit(self) -> None:
        self.db.execute("COMMIT")

    def add_lines(self, table: str, record: int, seq: int, lines: Iterable[str]) -> int:
        """Store lines under their ids; returns how many were new (repeats change nothing)."""
        now = time.time()
        before = self.db.total_changes
        self.db.executemany(
            "INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?)",
            [(table, record, seq + i, line, now) for i, line in enumerate(lines)],
        )
        return self.db.total_changes - before

    def lines(self, table: str, record: int, start: int = 0) -> list[tuple[int, str]]:
        return [
            (int(s), str(x))
            for s, x in self.db.execute(
                "SELECT seq, line FROM events WHERE tbl = ? AND record = ? AND seq >= ? "
                "ORDER BY seq",
                (table, record, start),
            )
        ]

    def record(self, table: str, record: int) -> tuple[int, int | None, str, str] | None:
        row = self.db.execute(
            "SELECT round, final, status, reason FROM records WHERE tbl = ? AND record = ?",
            (table, record),
        ).fetchone()
        return None if row is None else (int(row[0]), row[1], str(row[2]), str(row[3]))

    def note_record(self, table: str, record: int, round_: int, final: int | None) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO records (tbl, record, round) VALUES (?, ?, ?)",
            (table, record, round_),
        )
        if final is not None:
            self.db.execute(
                "UPDATE records SET final = ? WHERE tbl = ? AND record = ? AND final IS NULL",
                (final, table, record),
            )

    def set_status(self, table: str, record: int, status: str, reason: str = "") -> None:
        self.db.execute(
            "UPDATE records SET status = ?, reason = ? WHERE tbl = ? AND record = ?",
            (status, reason, table, record),
        )

    def open_records(self) -> list[tuple[str, int, int, int | None]]:
        return [
            (str(t), int(r), int(n), f)
            for t, r, n, f in self.db.execute(
                "SELECT tbl, record, round, final FROM records WHERE status = 'open'"
            )
        ]

    def records_of(self, table: str) -> list[tuple[str, int, int, int | None]]:
        return [
            (str(t), int(r), int(n), f)
            for t, r, n, f in self.db.execute(
                "SELECT tbl, record, round, final FROM records WHERE tbl = ?", (table,)
            )
        ]

    def acked(self, table: str) -> dict[int, int]:
        """Per record of ``table``: how many lines from seq 0 on are stored without a gap."""
        out: dict[int, int] = {}
        rows = self.db.execute(
            "SELECT record, seq FROM events WHERE tbl = ? ORDER BY record, seq", (table,)
        )
        for record, seq in rows:
            if out.get(record, 0) == seq:
                out[record] = seq + 1
        return out

    def add_game(self, round_: int, table: str, record: int, scores: tuple[int, int]) -> bool:
        """Count the pairing's game; False when one is counted already (never twice)."""
        cur = self.db.execute(
            "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?)",
            (round_, table, record, scores[0], scores[1], time.time()),
        )
        return bool(cur.rowcount)

    def report(self, table: str, message: str) -> None:
        self.db.execute(
            "INSERT INTO problems (at, tbl, message) VALUES (?, ?, ?)",
            (time.time(), table, message),
        )

    def problems(self) -> list[tuple[float, str, str]]:
        return [
            (float(a), str(t), str(m))
            for a, t, m in self.db.execute("SELECT at, tbl, message FROM problems ORDER BY id")
        ]

    # corrections and results ----------------------------------------------------------------

    def correct(self, round_: int, table: str, scores: tuple[int, int], reason: str) -> None:
        """Record the director's correction of a game (kept with what it replaced)."""
        pairing = self.pairing(round_, table)
        if pairing is None:
            raise CribError(
                _("round {round} has no table {table}").format(round=round_, table=table)
            )
        if not reason.strip():
            raise CribError(_("a correction needs a reason (--reason)"))
        self.rules.score(scores)  # a finished game's scores, or a CribError
        before = {g.table: g.scores for g in self.games(round_)}.get(table)
        self.db.execute(
            "INSERT INTO corrections (at, round, tbl, before, s0, s1, reason) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (time.time(), round_, table, json.dumps(before), scores[0], scores[1], reason),
        )

    def corrections(self) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT at, round, tbl, before, s0, s1, reason FROM corrections ORDER BY id"
        )
        return [
            {
                "at": a,
                "round": int(r),
                "table": str(t),
                "before": json.loads(b),
                "scores": [int(s0), int(s1)],
                "reason": str(why),
            }
            for a, r, t, b, s0, s1, why in rows
        ]

    def games(self, round_: int | None = None) -> list[Game]:
        """Every pairing with its result (a correction overrides what the table sent)."""
        played = {
            (int(r), str(t)): (int(rec), (int(a), int(b)))
            for r, t, rec, a, b in self.db.execute("SELECT round, tbl, record, s0, s1 FROM games")
        }
        fixed = {(c["round"], c["table"]): tuple(c["scores"]) for c in self.corrections()}
        out = []
        for number, table, p0, p1 in self.pairings(round_):
            record, scores = played.get((number, table), (None, None))
            corrected = (number, table) in fixed
            if corrected:
                scores = fixed[(number, table)]
            out.append(Game(number, table, record, (p0, p1), scores, corrected))
        return out

    def standings(self) -> list[Standing]:
        rules = self.rules
        rows: dict[str, dict[str, int]] = {
            name: {"points": 0, "spread": 0, "games": 0, "wins": 0, "byes": 0}
            for name in self.players()
        }
        for game in self.games():
            if game.scores is None:
                continue
            for name, result in zip(game.players, rules.score(game.scores), strict=True):
                row = rows.setdefault(
                    name, {"points": 0, "spread": 0, "games": 0, "wins": 0, "byes": 0}
                )
                row["points"] += result.points
                row["spread"] += result.spread
                row["games"] += 1
                row["wins"] += int(result.won)
        for name in self.byes().values():
            row = rows[name]
            row["points"] += rules.bye_points
            row["spread"] += rules.bye_spread
            row["byes"] += 1
        return [Standing(name, **row) for name, row in rows.items()]

    def met(self) -> set[frozenset[str]]:
        return {frozenset((a, b)) for _r, _t, a, b in self.pairings()}
