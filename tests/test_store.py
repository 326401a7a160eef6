"""The durable log: actions survive a reopen, a bad database never stops the game."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from crib_pi.actions import GameOptions, Undo
from crib_pi.game import Game
from crib_pi.records import replay_lines
from crib_pi.simulate import random_game
from crib_pi.store import GameLog, GameStore, StoreError, open_store


def test_a_reopened_store_resumes_the_same_game(tmp_path: Path) -> None:
    opts = GameOptions(players=3, names=("Ann", "Bob", "Cy"))
    _, actions = random_game(opts, seed=5)
    cut = len(actions) // 2
    store = GameStore(tmp_path / "games.sqlite3")
    log = GameLog(store)
    log.start(opts)
    game = Game(opts)
    for action in actions[:cut]:
        game.apply(action)
        log.append(action)
    record = log.record
    assert record is not None
    store.close()  # as if the power went: every append was already committed

    again = GameStore(tmp_path / "games.sqlite3")
    assert again.latest_unfinished() == record
    resumed = again.replay(record).game
    assert resumed.snapshot() == game.snapshot()
    assert resumed.records == game.records
    resumed.undo()  # undo still works after a restart
    game.undo()
    assert resumed.snapshot() == game.snapshot()
    again.append(record, Undo(1))
    assert replay_lines(again.lines(record)).game.snapshot() == game.snapshot()


def test_a_corrupt_database_of_ours_is_moved_aside_and_said_where(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    GameStore(path).close()
    damaged = bytearray(path.read_bytes())
    damaged[100:4096] = b"\xff" * 3996  # the header (and its mark) intact, the schema gone
    path.write_bytes(bytes(damaged))
    store = open_store(path)
    assert store.records() == []
    (aside,) = tmp_path.glob("games.sqlite3.corrupt-*[0-9]")
    assert aside.read_bytes() == bytes(damaged)
    assert store.notice is not None and str(aside) in store.notice


@pytest.mark.parametrize("kind", ["folder", "text", "photo", "other-sqlite", "short-sqlite"])
def test_a_path_that_is_not_our_database_is_refused_and_left_alone(
    tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "given"
    if kind == "folder":
        path.mkdir()
        (path / "holiday.txt").write_text("my own file")
    elif kind == "text":
        path.write_text("this is not a database" * 100)
    elif kind == "photo":
        path.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 20)
    elif kind == "other-sqlite":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE contacts (name TEXT)")
        db.commit()
        db.close()
    else:
        path.write_bytes(b"SQLite format 3\x00 and then nothing")
    before = sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in tmp_path.rglob("*"))
    with pytest.raises(StoreError, match=str(path)):
        open_store(path)
    after = sorted((p.name, p.read_bytes() if p.is_file() else b"") for p in tmp_path.rglob("*"))
    assert after == before


def test_history_reads_a_read_only_database(tmp_path: Path) -> None:
    """Opened read-only and immutable: nothing beside it is made, nothing in it changes."""
    folder = tmp_path / "ro"
    folder.mkdir()
    store = GameStore(folder / "games.sqlite3")
    opts = GameOptions(names=("Ann", "Bob"))
    _, actions = random_game(opts, seed=3)
    record = store.new_record(opts)
    for action in actions:
        store.append(record, action)
    store.close()
    data = (folder / "games.sqlite3").read_bytes()
    (folder / "games.sqlite3").chmod(0o444)
    folder.chmod(0o555)
    try:
        for command in ("history", "stats"):
            done = _crib_pi(command, "--db", str(folder / "games.sqlite3"), "--json")
            assert done.returncode == 0, done.stderr
            assert json.loads(done.stdout)
        assert _crib_pi("export", "1", "--db", str(folder / "games.sqlite3")).stdout
        assert sorted(p.name for p in folder.iterdir()) == ["games.sqlite3"]
        assert (folder / "games.sqlite3").read_bytes() == data
    finally:
        folder.chmod(0o755)


def test_a_full_disk_leaves_the_game_going_in_memory(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count = {pages + 1}")  # a disk that fills up soon
    log = GameLog(store)
    opts = GameOptions()
    log.start(opts)
    game, actions = random_game(opts, seed=1)
    for action in actions:
        log.append(action)
    assert log.problem is not None and "full" in log.problem
    assert log.store is None  # reported once, then in memory only
    assert replay_lines(log.memory).game.scores == game.scores


def _crib_pi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crib_pi", *args], capture_output=True, text=True)


def test_history_stats_and_export(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store = GameStore(db)
    games = []
    for seed in range(3):
        opts = GameOptions(names=("Ann", "Bob"))
        game, actions = random_game(opts, seed=seed)
        record = store.new_record(opts)
        for i, action in enumerate(actions):
            store.append(record, action, finished=i == len(actions) - 1)
        games.append(game)
    store.close()
    rows = json.loads(_crib_pi("history", "--db", str(db), "--json").stdout)
    assert [r["scores"] for r in rows] == [list(g.scores) for g in games]
    assert all(r["winner"] in ("Ann", "Bob") for r in rows)
    stats = {s["name"]: s for s in json.loads(_crib_pi("stats", "--db", str(db), "--json").stdout)}
    assert stats["Ann"]["games"] == stats["Bob"]["games"] == 3
    assert stats["Ann"]["wins"] + stats["Bob"]["wins"] == 3
    assert 0 <= stats["Ann"]["best_hand"] <= 29 and len(stats["Ann"]["best_hand_cards"]) == 5
    out = tmp_path / "game2.jsonl"
    assert _crib_pi("export", "2", "--db", str(db), "--out", str(out)).returncode == 0
    assert replay_lines(out.read_text().splitlines()).game.scores == games[1].scores
    missing = _crib_pi("export", "9", "--db", str(db))
    assert missing.returncode == 2 and "no game record 9" in missing.stderr
    nodb = _crib_pi("history", "--db", str(tmp_path / "none.sqlite3"))
    assert nodb.returncode == 2 and "no game database" in nodb.stderr
