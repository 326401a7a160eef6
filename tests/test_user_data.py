"""What a user gave is never lost or replaced (issue 34, items 1-7): a read-only database is
read and left alone, a damaged one is found when opened, records and photos are not written
over, ``/dev/zero`` is refused, the demo's folder and the database's folder are checked first,
and ``export`` takes only a game history showed."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from crib_pi.actions import GameOptions
from crib_pi.cli import main
from crib_pi.simulate import random_game
from crib_pi.store import DamagedStoreError, GameStore, StoreError, open_store

NOBODY = 65534
SETPRIV = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


def _games(path: Path, count: int = 1) -> list[list[str]]:
    """A database of ``count`` finished games; their lines."""
    store = GameStore(path)
    options = GameOptions(names=("Ann", "Bob"))
    for seed in range(count):
        _, actions = random_game(options, seed=seed)
        record = store.new_record(options)
        for i, action in enumerate(actions):
            store.append(record, action, finished=i == len(actions) - 1)
    lines = [store.lines(r.id) for r in store.records()]
    store.close()
    for suffix in ("-wal", "-shm"):  # a database at rest, as a user copies it
        assert not path.with_name(path.name + suffix).exists()
    return lines


def _as_nobody(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``crib-pi ARGS`` run as the unprivileged user nobody (root ignores chmod 444)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CRIB_PI_", "XDG_"))}
    env.update(HOME=str(cwd), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.update(CRIB_PI_DEVICES="mock")
    return subprocess.run(
        [*SETPRIV, sys.executable, "-m", "crib_pi", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A folder the user nobody may use (pytest's own are root's alone), for the tests that
    run crib-pi as nobody from root; skipped unless the tests run as root with setpriv."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("runs crib-pi as the user nobody, which needs root and setpriv")
    folder = Path(tempfile.mkdtemp(prefix="crib-pi-nobody-"))
    folder.chmod(0o777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- 1. a healthy database that cannot be written is left alone ----------------------------


def _beside(folder: Path) -> list[str]:
    """The files in ``folder``, less SQLite's own empty ``-wal`` and ``-shm`` (a reader of a
    WAL database makes them where it may, and they hold nothing of the games)."""
    names = []
    for path in sorted(folder.iterdir()):
        if path.name.endswith("-shm") or (path.name.endswith("-wal") and not path.stat().st_size):
            continue
        names.append(path.name)
    return names


class _ReadOnlyConnect:
    """``sqlite3.connect`` as it behaves on a file the user may not write: the real SQLite
    opened read-only (``mode=ro``), so every write fails with SQLite's own "attempt to write
    a readonly database", as for a chmod 444 file, even when the tests run as root."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)
        self.real = sqlite3.connect

    def __call__(self, database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        if str(database) == self.path:
            return self.real(f"file:{self.path}?mode=ro", *args, uri=True, **kwargs)
        return self.real(database, *args, **kwargs)


def test_an_unwritable_database_is_never_moved_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.db"
    lines = _games(db)
    before = db.read_bytes()
    monkeypatch.setattr(sqlite3, "connect", _ReadOnlyConnect(db))
    with pytest.raises(StoreError) as caught:
        open_store(db)
    assert not isinstance(caught.value, DamagedStoreError)
    said = str(caught.value)
    assert "readonly" in said and "left as it is" in said and "moved" not in said
    assert _beside(tmp_path) == ["games.db"]
    assert db.read_bytes() == before
    monkeypatch.undo()
    assert open_store(db, readonly=True).lines(1) == lines[0]


def test_the_demo_on_an_unwritable_database_says_so_once_and_plays_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Filming is replaced by an error at once: only the database's handling is looked at."""
    import crib_pi.session.filmstrip as filmstrip

    db = tmp_path / "games.db"
    _games(db)
    before = db.read_bytes()
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("CRIB_PI_DEVICES", "mock")
    monkeypatch.setattr(sqlite3, "connect", _ReadOnlyConnect(db))

    def film(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt  # as if Ctrl-C came while filming

    monkeypatch.setattr(filmstrip, "film", film)
    status = main(["run", "--demo", "--db", str(db), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 130
    assert err.count("readonly") == 1 and "kept in memory" in err and "moved" not in err
    assert db.read_bytes() == before
    assert not list(tmp_path.glob("games.db.corrupt-*"))


def test_a_chmod_444_database_as_a_user_is_read_and_left_alone(shared_tmp: Path) -> None:
    """The issue's own steps, as a non-root user (root may write a 444 file)."""
    tmp_path = shared_tmp
    db = tmp_path / "games.db"
    lines = _games(db, 2)
    db.chmod(0o444)
    before = db.read_bytes()
    probe = _as_nobody("--help", cwd=tmp_path)
    if probe.returncode != 0:
        pytest.skip(f"the user nobody cannot run this Python here: {probe.stderr.strip()[:200]}")
    frames = tmp_path / "frames"
    frames.mkdir(mode=0o755)
    cv2.imwrite(str(frames / "0.png"), np.zeros((8, 8, 3), np.uint8))
    done = _as_nobody("session", "--frames", str(frames), "--record", "x.jsonl", "--db", str(db),
                      cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert "readonly" in done.stderr and "left as it is" in done.stderr
    history = _as_nobody("history", "--db", str(db), cwd=tmp_path)
    assert (
        history.returncode == 0
        and history.stdout.count("Ann won") + history.stdout.count("Bob won") == 2
    ), history.stdout
    assert "no games yet" not in history.stdout
    assert _beside(tmp_path) == ["frames", "games.db"]
    assert db.read_bytes() == before
    assert open_store(db, readonly=True).lines(2) == lines[1]


def test_only_a_database_sqlite_finds_corrupt_is_moved_aside(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    _games(db)
    with db.open("r+b") as fh:  # the header sound, the schema page garbage
        fh.seek(100)
        fh.write(b"\xa5" * 3900)
    store = open_store(db)
    assert store.notice is not None and "moved to" in store.notice
    assert len(list(tmp_path.glob("games.db.corrupt-*"))) == 1
    assert store.records() == []


# -- 2. a database damaged in its middle ----------------------------------------------------


def _damaged(tmp_path: Path, page: int | None = None) -> tuple[Path, int]:
    """Six games, then one page in the middle overwritten (header and first page sound)."""
    db = tmp_path / "games.db"
    _games(db, 6)
    pages = db.stat().st_size // 4096
    page = page or pages // 2
    with db.open("r+b") as fh:
        fh.seek(4096 * (page - 1))
        fh.write(b"\xa5" * 4096)
    return db, pages


def test_a_page_damaged_in_the_middle_is_found_by_every_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, pages = _damaged(tmp_path)
    sound = tmp_path / "sound.db"
    _games(sound, 6)
    for page in range(2, pages + 1):  # whichever page it is: the schema, a table, an index
        shutil.copyfile(sound, db)
        with db.open("r+b") as fh:
            fh.seek(4096 * (page - 1))
            fh.write(b"\x5a" * 4096)
        before = db.read_bytes()
        for argv in (["history"], ["stats"], ["export", "1"], ["history", "--json"]):
            status = main([*argv, "--db", str(db)])
            out, err = capsys.readouterr()
            assert status == 2, (page, argv, err)
            assert err.count("\n") == 1 and str(db) in err and "damaged" in err, (page, err)
            assert "internal error" not in err and out == ""
        assert db.read_bytes() == before  # readers never change it


def test_the_demo_moves_a_database_damaged_in_its_middle_aside_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import crib_pi.session.filmstrip as filmstrip

    db, _ = _damaged(tmp_path)
    damaged = db.read_bytes()
    monkeypatch.setenv("CRIB_PI_DEVICES", "mock")

    def film(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(filmstrip, "film", film)
    main(["run", "--demo", "--db", str(db), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    (aside,) = tmp_path.glob("games.db.corrupt-*")
    assert "damaged" in err and str(aside) in err
    assert aside.read_bytes() == damaged  # kept, whole, for whoever wants to rescue it
    assert main(["history", "--db", str(db)]) == 0
    assert "no games yet" in capsys.readouterr().out


# -- 3. files the user has are not written over --------------------------------------------


def _film(tmp_path: Path, seed: int = 3) -> tuple[Path, Path]:
    from crib_pi.session.faces import plain_face
    from crib_pi.session.filmstrip import film

    options = GameOptions(players=2, target=61, dealer=0)
    _, actions = random_game(options, seed=seed, known=False)
    film(options, actions[:10], plain_face, tmp_path / "film", seed=seed)
    return tmp_path / "film" / "frames", tmp_path / "film" / "truth.jsonl"


def test_a_session_never_replaces_a_record_it_was_not_asked_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames, truth = _film(tmp_path)
    game = tmp_path / "game.jsonl"
    kept = "".join(f'{{"cut": "{c}"}}\n' for c in ("5H", "6H", "7H")) * 40  # 120 lines
    game.write_text(kept)
    argv = ["session", "--frames", str(frames), "--truth", str(truth), "--record", str(game),
            "--dealer", "0", "--target", "61"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert str(game) in err and "--force" in err and err.count("\n") == 1
    assert game.read_text() == kept
    # With --db the session may be one resumed: another game goes to a new name, said.
    assert main([*argv, "--db", str(tmp_path / "g.db")]) == 0
    err = capsys.readouterr().err
    assert game.read_text() == kept
    assert "game-2.jsonl" in err and (tmp_path / "game-2.jsonl").read_text().startswith('{"game"')
    assert main([*argv, "--force"]) == 0
    assert game.read_text().startswith('{"game"')


def test_recognize_never_draws_over_a_photo_or_another_drawing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = tmp_path / "photos"
    (photos / "a").mkdir(parents=True)
    (photos / "b").mkdir()
    picture = np.full((120, 160, 3), 40, np.uint8)
    for folder, shade in (("a", 60), ("b", 90)):
        picture[:] = shade
        cv2.imwrite(str(photos / folder / "table.png"), picture)
    mine = photos / "a" / "table.png"
    before = mine.read_bytes()
    images = [str(mine), str(photos / "b" / "table.png")]
    assert main(["recognize", *images, "--draw", str(photos / "a")]) == 0
    err = capsys.readouterr().err
    assert mine.read_bytes() == before
    drawn = sorted(p.name for p in (photos / "a").iterdir())
    assert drawn == ["table-2.png", "table-3.png", "table.png"]
    assert "table-2.png" in err and "table-3.png" in err
    shades = {int(cv2.imread(str(photos / "a" / n))[0, 0, 0]) for n in drawn[:2]}
    assert shades == {60, 90}  # each photo's own drawing, neither drawn over the other


def test_draw_onto_a_file_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.zeros((40, 40, 3), np.uint8))
    assert main(["recognize", str(photo), "--draw", str(notes)]) == 2
    err = capsys.readouterr().err
    assert "notes.txt" in err and "not a folder" in err and "File exists" not in err
    assert notes.read_text() == "mine"


# -- 4. endless inputs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "/dev/zero"],
        ["config", "--check", "--file", "/dev/zero"],
        ["session", "--frames", "{frames}", "--record", "{tmp}/r.jsonl", "--buttons", "/dev/zero"],
    ],
)
def test_an_endless_file_is_refused_not_read_for_ever(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), np.zeros((8, 8, 3), np.uint8))
    argv = [a.format(frames=frames, tmp=tmp_path) for a in argv]
    started = time.monotonic()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert time.monotonic() - started < 20
    assert "/dev/zero" in err and "MB" in err and err.count("\n") == 1


# -- 5. the demo's folder, checked before filming -------------------------------------------


def test_the_demo_checks_its_folder_before_it_films(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import crib_pi.session.filmstrip as filmstrip

    filmed: list[int] = []
    monkeypatch.setattr(filmstrip, "film", lambda *a, **k: filmed.append(1))
    monkeypatch.setenv("CRIB_PI_DEVICES", "mock")
    (tmp_path / "a-file").write_text("mine")
    for out in (tmp_path / "a-file" / "under", Path("/proc/crib-pi-demo")):
        started = time.monotonic()
        assert main(["run", "--demo", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert str(out) in err and "cannot be written" in err and err.count("\n") == 1
        assert time.monotonic() - started < 10
    assert filmed == []
    assert (tmp_path / "a-file").read_text() == "mine"


def test_a_read_only_demo_folder_is_refused_at_once_for_a_user(shared_tmp: Path) -> None:
    tmp_path = shared_tmp
    out = tmp_path / "out"
    out.mkdir(mode=0o555)
    out.chmod(0o555)
    probe = _as_nobody("--help", cwd=tmp_path)
    if probe.returncode != 0:
        pytest.skip(f"the user nobody cannot run this Python here: {probe.stderr.strip()[:200]}")
    started = time.monotonic()
    done = _as_nobody("run", "--demo", "--out", str(out), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "cannot be written" in done.stderr and str(out) in done.stderr
    assert "filming" not in done.stdout
    assert time.monotonic() - started < 15


# -- 6. a database's folder that does not exist -----------------------------------------------


def test_a_database_folder_that_did_not_exist_is_said(tmp_path: Path) -> None:
    db = tmp_path / "new" / "deeper" / "games.db"
    store = open_store(db)
    assert store.notice is not None
    assert str(tmp_path / "new" / "deeper") in store.notice and "did not exist" in store.notice
    store.close()
    assert open_store(db).notice is None  # said once, when it was made


# -- 7. export takes only a game history showed ----------------------------------------------


def test_export_refuses_a_game_history_never_showed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.db"
    _games(db)
    assert main(["history", "--db", str(db)]) == 0
    assert "record   1 game 1 " in capsys.readouterr().out
    for text in ("1.99", "1.2", "1.0"):
        assert main(["export", text, "--db", str(db)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and f"game {text}" in err and "1 game" in err
    assert main(["export", "1.1", "--db", str(db)]) == 0
    assert capsys.readouterr().out.startswith('{"game"')


def test_export_keeps_a_file_already_there_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.db"
    _games(db)
    out = tmp_path / "mine.jsonl"
    out.write_text("the only copy of something\n")
    assert main(["export", "1", "--db", str(db), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(out) in err and "--force" in err
    assert out.read_text() == "the only copy of something\n"
    assert main(["export", "1", "--db", str(db), "--out", str(out), "--force"]) == 0
    assert out.read_text().startswith('{"game"')
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_export_to_a_file_it_cannot_write_names_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.db"
    _games(db)
    assert main(["export", "1", "--db", str(db), "--out", "/proc/version"]) == 2
    err = capsys.readouterr().err
    assert "/proc/version" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "option", "name"),
    [
        (["mat", "--out"], "--out", "mat.pdf"),
        (["mat", "--out"], "--out", "mat.png"),
        (["board", "--pegs", "45:40,97:91", "--png"], "--png", "board.png"),
        (["board", "--pegs", "45:40,97:91", "--leds-json"], "--leds-json", "leds.json"),
    ],
)
def test_a_picture_or_leds_file_already_there_is_kept_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], option: str, name: str
) -> None:
    """The mat and the board write where they are told, but a file of the user's already
    there is not replaced without ``--force``."""
    out = tmp_path / name
    out.write_bytes(b"the only copy of something\n")
    assert main([*argv, str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{option} {out}" in err and "--force" in err and err.count("\n") == 1
    assert out.read_bytes() == b"the only copy of something\n"
    assert main([*argv, str(out), "--force"]) == 0
    assert out.read_bytes() != b"the only copy of something\n" and out.stat().st_size > 100
