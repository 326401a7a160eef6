"""The durable event log: every action of every game in SQLite, as it happens.

Each record (a match: one game after another at a table) is a row in ``records`` and its
actions are rows in ``actions``, stored as record lines (``crib_pi.records`` format). SQLite
runs in WAL mode with ``synchronous=FULL`` so a committed action survives a power cut; one
commit per action costs a few milliseconds on an SD card, far below a human's pace.

``GameLog`` wraps a store for the running game: if the database is corrupt, full or
unwritable it reports the problem once and the game goes on in memory, never a crash loop.

A database crib-pi makes carries ``APPLICATION_ID`` in its SQLite header. ``open_store`` never
moves, overwrites or deletes a path that is not one of ours (a folder, a photo, another
program's database): it refuses it with a message. Only a database of ours that SQLite itself
finds corrupt (its error says so, or its quick check fails when opened) is moved aside, and
``GameStore.notice`` says where; one that merely cannot be written (read-only file or disk,
disk full, locked) is left exactly as it is and the error says so.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from crib_pi.actions import GameOptions, NewGame
from crib_pi.errors import CribError
from crib_pi.i18n import _
from crib_pi.records import Line, Replay, format_line, replay_lines

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    record INTEGER NOT NULL REFERENCES records(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (record, seq)
);
CREATE TABLE IF NOT EXISTS sessions (
    record INTEGER PRIMARY KEY REFERENCES records(id),
    source TEXT NOT NULL,
    position INTEGER NOT NULL,
    state TEXT NOT NULL
);
"""


APPLICATION_ID = 0x43524942  # "CRIB": PRAGMA application_id, bytes 68-71 of the header
SQLITE_MAGIC = b"SQLite format 3\x00"
OUR_TABLES = {"records", "actions", "sessions"}


def default_db() -> Path:
    """``$CRIB_PI_DB``, else systemd's ``$STATE_DIRECTORY``, else the user's state folder."""
    if os.environ.get("CRIB_PI_DB"):
        return Path(os.environ["CRIB_PI_DB"])
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0]) / "games.sqlite3"
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "crib-pi" / "games.sqlite3"


class StoreError(CribError):
    """The database cannot be opened, read or written; says which file and why."""


class DamagedStoreError(StoreError):
    """SQLite itself finds the database corrupt: the only kind ``open_store`` moves aside."""


#: SQLite's result codes that mean the file itself is damaged (not merely unwritable).
DAMAGED_CODES = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}


def _failure(path: str, exc: sqlite3.Error) -> StoreError:
    """The error to raise for ``exc``: damaged only when SQLite's code says the file is."""
    code = getattr(exc, "sqlite_errorname", "") or ""
    damaged = any(code == c or code.startswith(c + "_") for c in DAMAGED_CODES)
    kind = DamagedStoreError if damaged else StoreError
    return kind(_("game database {path}: {exc}").format(path=path, exc=exc))


def quick_check(db: sqlite3.Connection, path: str) -> None:
    """SQLite's own ``PRAGMA quick_check`` (every page and record read, a few ms for a season of
    games): a page damaged in the middle is found when the file is opened, not in a query later.
    """
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error as exc:
        raise _failure(path, exc) from None
    if rows != [("ok",)]:
        found = " ".join(str(row[0]) for row in rows[:2]).replace("\n", " ")
        found = found.replace("*** in database main *** ", "")
        raise DamagedStoreError(
            _("game database {path} is damaged ({found})").format(path=path, found=found)
        )


@dataclass(frozen=True, slots=True)
class StoredRecord:
    id: int
    started: float
    updated: float
    finished: bool
    lines: int


class GameStore:
    """SQLite file of game records; ``path=":memory:"`` for tests and fallbacks.

    ``readonly`` opens an existing database for reading only (history on a read-only disk or
    a file the user may not write) and creates nothing.
    """

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = str(path)
        self.notice: str | None = None  # e.g. where a corrupt database was moved
        try:
            if readonly:
                self._db = _connect_readonly(Path(self.path))
                quick_check(self._db, self.path)
            else:
                if self.path != ":memory:":
                    Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, isolation_level=None, timeout=5)
                quick_check(self._db, self.path)  # before anything is written to it
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.executescript(SCHEMA)
                self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._db.execute("SELECT count(*) FROM actions").fetchone()
        except StoreError:
            if hasattr(self, "_db"):
                self._db.close()
            raise
        except sqlite3.Error as exc:
            if hasattr(self, "_db"):
                self._db.close()
            raise _failure(self.path, exc) from None
        except OSError as exc:
            raise StoreError(
                _("game database {path}: {exc}").format(path=self.path, exc=exc.strerror or exc)
            ) from None

    def close(self) -> None:
        self._db.close()

    def new_record(self, options: GameOptions) -> int:
        """Start a record with its ``game`` line; returns its id."""
        now = time.time()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            cur = self._db.execute(
                "INSERT INTO records (started, updated) VALUES (?, ?)", (now, now)
            )
            record = int(cur.lastrowid or 0)
            self._db.execute(
                "INSERT INTO actions VALUES (?, 0, ?, ?)",
                (record, now, format_line(NewGame(options))),
            )
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise StoreError(
                _("game database {path}: {exc}").format(path=self.path, exc=exc)
            ) from None
        return record

    def append(self, record: int, action: Line, *, finished: bool = False) -> None:
        """Store one applied action (undo lines included), committed before returning."""
        self.save(record, [action], finished=finished)

    def save(
        self,
        record: int,
        actions: list[Line],
        *,
        finished: bool = False,
        session: tuple[str, int, dict[str, Any]] | None = None,
    ) -> None:
        """Store actions and, with them in the same transaction, where the session is.

        ``session`` is (source, position, state): e.g. the frames folder, the last frame
        taken in, and the table's state, so a restart carries on from exactly there.
        """
        now = time.time()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            (seq,) = self._db.execute(
                "SELECT coalesce(max(seq), -1) + 1 FROM actions WHERE record = ?", (record,)
            ).fetchone()
            self._db.executemany(
                "INSERT INTO actions VALUES (?, ?, ?, ?)",
                [(record, seq + i, now, format_line(a)) for i, a in enumerate(actions)],
            )
            self._db.execute(
                "UPDATE records SET updated = ?, finished = ? WHERE id = ?",
                (now, int(finished), record),
            )
            if session is not None:
                source, position, state = session
                self._db.execute(
                    "INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?)",
                    (record, source, position, json.dumps(state)),
                )
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise StoreError(
                _("game database {path}: {exc}").format(path=self.path, exc=exc)
            ) from None

    def session(self, record: int) -> tuple[str, int, dict[str, Any]] | None:
        """Where a record's session had got to: (source, position, table state)."""
        rows = self._query(
            "SELECT source, position, state FROM sessions WHERE record = ?", (record,)
        )
        if not rows:
            return None
        row = rows[0]
        try:
            return str(row[0]), int(row[1]), dict(json.loads(row[2]))
        except (ValueError, TypeError):
            return None

    def lines(self, record: int) -> list[str]:
        if not 0 < record < 2**63:  # SQLite's integers; a bigger one names no record either
            raise StoreError(
                _("there is no game record {record} in {path}").format(
                    record=record, path=self.path
                )
            )
        rows = self._query("SELECT line FROM actions WHERE record = ? ORDER BY seq", (record,))
        if not rows:
            raise StoreError(
                _("there is no game record {record} in {path}").format(
                    record=record, path=self.path
                )
            )
        return [row[0] for row in rows]

    def records(self) -> list[StoredRecord]:
        rows = self._query(
            "SELECT r.id, r.started, r.updated, r.finished, count(a.seq) FROM records r "
            "LEFT JOIN actions a ON a.record = r.id GROUP BY r.id ORDER BY r.id"
        )
        return [StoredRecord(i, s, u, bool(f), n) for i, s, u, f, n in rows]

    def latest_unfinished(self) -> int | None:
        rows = self._query("SELECT id FROM records WHERE finished = 0 ORDER BY id DESC LIMIT 1")
        return int(rows[0][0]) if rows else None

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Rows of a read; a damaged page met here is a ``StoreError`` naming the file too."""
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise _failure(self.path, exc) from None

    def replay(self, record: int) -> Replay:
        """The record's game as it stands: same deal, same count, undo history intact."""
        return replay_lines(self.lines(record))

    def iter_replays(self) -> Iterator[tuple[StoredRecord, Replay]]:
        for stored in self.records():
            yield stored, self.replay(stored.id)


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """Read without writing anything, even on a read-only disk.

    With no ``-wal`` file beside it everything is in the file itself and it is opened
    immutable (SQLite then makes no ``-shm`` or ``-wal``); while a writer has it open, through
    the write-ahead log, so that the latest actions are read too.
    """
    uri = f"file:{quote(path.resolve().as_posix())}"
    if path.with_name(path.name + "-wal").exists():
        try:
            db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None, timeout=5)
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError:
            pass
    return sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)


def check_ours(path: str | Path) -> str:
    """What is at ``path``: "new" (nothing, or an empty file), "ours" (a database crib-pi made,
    maybe corrupt), or a ``StoreError`` saying why it is not ours (and that it was left alone).
    """
    target = Path(path)
    if str(path) == ":memory:" or not target.exists():
        return "new"
    left = _("left as it is; give the path of a game database (a new file is made)")
    if target.is_dir():
        raise StoreError(
            _("{path} is a folder, not a game database; {left}").format(path=path, left=left)
        )
    if not target.is_file():
        raise StoreError(_("{path} is not a regular file; {left}").format(path=path, left=left))
    try:
        with target.open("rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        raise StoreError(f"{path}: {exc.strerror or exc}") from None
    if not head:
        return "new"
    if not head.startswith(SQLITE_MAGIC) or len(head) < 100:
        raise StoreError(
            _("{path} is not a crib-pi game database (not SQLite); {left}").format(
                path=path, left=left
            )
        )
    if int.from_bytes(head[68:72], "big") == APPLICATION_ID:
        return "ours"
    try:  # made before the header was marked, or by another program: look at its tables
        db = _connect_readonly(target)
        try:
            names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise StoreError(
            _("{path} cannot be read ({exc}) and is not marked as crib-pi's; {left}").format(
                path=path, exc=exc, left=left
            )
        ) from None
    if names and not {"records", "actions"} <= names:
        raise StoreError(
            _("{path} is another program's SQLite database; {left}").format(path=path, left=left)
        )
    return "ours"


def open_store(path: str | Path, *, readonly: bool = False) -> GameStore:
    """Open the game database, making it if need be; refuse a path that is not ours.

    A database of ours that SQLite finds corrupt is moved aside (``.corrupt-<time>``), a new
    one is made and ``notice`` on the store says where the old one went. One that cannot be
    written (read-only, disk full) is never moved: the ``StoreError`` says it was left as it
    is. A folder that did not exist is made, and ``notice`` says so. ``readonly`` (history,
    stats, export) needs the file to exist and never changes or moves anything. Raises
    ``StoreError`` when the path is not ours or even a fresh file cannot be made.
    """
    kind = check_ours(path)
    if readonly:
        if kind == "new":
            raise StoreError(
                _("no game database at {path} (no game has been stored yet)").format(path=path)
            )
        return GameStore(path, readonly=True)
    folder = Path(path).parent
    made = str(path) != ":memory:" and not folder.exists()
    try:
        store = GameStore(path)
    except DamagedStoreError as exc:
        if kind != "ours":
            raise
        return _move_aside(path, exc)
    except StoreError as exc:
        if kind != "ours":
            raise
        raise StoreError(_("{exc}; the file is left as it is").format(exc=exc)) from None
    if made:
        store.notice = _("the folder {folder} did not exist; it was made for {path}").format(
            folder=folder, path=Path(path).name
        )
    return store


def _move_aside(path: str | Path, exc: StoreError) -> GameStore:
    """A damaged database of ours to ``<name>.corrupt-<time>``, and a new one in its place."""
    target = Path(path)
    aside = target.with_name(f"{target.name}.corrupt-{int(time.time())}")
    try:
        target.replace(aside)
        for suffix in ("-wal", "-shm"):
            extra = target.with_name(target.name + suffix)
            if extra.exists():
                extra.replace(aside.with_name(aside.name + suffix))
    except OSError as err:
        raise StoreError(
            _("{exc}; it could not be moved aside ({strerror})").format(
                exc=exc, strerror=err.strerror
            )
        ) from None
    store = GameStore(path)
    store.notice = _("{exc}; the damaged database was moved to {aside} and a new one made").format(
        exc=exc, aside=aside
    )
    return store


class GameLog:
    """The running game's log: durable when it can be, in memory when it cannot.

    ``problem`` holds the one message to show the players when the database failed.
    """

    def __init__(
        self,
        store: GameStore | None,
        record: int | None = None,
        lines: list[str] | None = None,
        *,
        batch: bool = False,
    ) -> None:
        self.store = store
        self.record = record
        self.memory: list[str] = list(lines or [])
        self.problem: str | None = None
        self.batch = batch  # hold appends until commit(), for one transaction a frame
        self._pending: list[Line] = []
        self._finished = False

    def start(self, options: GameOptions) -> None:
        self.memory = [format_line(NewGame(options))]
        if self.store is not None:
            try:
                self.record = self.store.new_record(options)
            except StoreError as exc:
                self._fail(exc)

    def append(self, action: Line, *, finished: bool = False) -> None:
        self.memory.append(format_line(action))
        self._pending.append(action)
        self._finished = self._finished or finished
        if not self.batch:
            self.commit()

    def commit(self, session: tuple[str, int, dict[str, Any]] | None = None) -> None:
        """Write what is pending (and where the session is) in one transaction."""
        pending, self._pending = self._pending, []
        if self.store is None or self.record is None or (not pending and session is None):
            return
        try:
            self.store.save(self.record, pending, finished=self._finished, session=session)
        except StoreError as exc:
            self._fail(exc)

    def _fail(self, exc: StoreError) -> None:
        self.problem = _("{exc}; the game goes on in memory (not saved)").format(exc=exc)
        self.store = None

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None
