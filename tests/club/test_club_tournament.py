"""The issue's must-show: 32 simulated tables play 5 rounds through a real Mosquitto, with the
broker restarted mid-round, a table off the network for a round, split, reordered and repeated
deliveries, and the director killed (SIGKILL) and started again; the standings must equal an
independent recount from the tables' own records, no game lost or counted twice."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import tomllib
from collections import defaultdict
from pathlib import Path

import pytest

from crib_pi.cli import main
from crib_pi.club.config import ClubConfig
from crib_pi.club.link import Link
from crib_pi.club.messages import Event, topic
from crib_pi.club.table import TableLink
from crib_pi.records import replay_lines
from crib_pi.store import GameStore
from tests.club.conftest import Broker, SimTable, free_port

ROOT = Path(__file__).resolve().parents[2]
TABLES = 32
ROUNDS = 5


def club_config(path: Path, **changes: object) -> ClubConfig:
    data = tomllib.loads(path.read_text())["club"]
    data.update(changes)
    return ClubConfig.from_mapping(data)


def recount(scores: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """Written apart from crib_pi.club.rules: 2 for a win, 3 when the loser is under 91;
    the spread is 121 less the loser's score."""
    win = 0 if scores[0] > scores[1] else 1
    loser = scores[1 - win]
    points = 3 if loser < 91 else 2
    out = [(0, -(121 - loser)), (0, -(121 - loser))]
    out[win] = (points, 121 - loser)
    return out[0], out[1]


class Director:
    def __init__(self, config: Path, file: Path) -> None:
        self.args = [
            sys.executable,
            "-m",
            "crib_pi",
            "--lang",
            "en",
            "club",
            "--config",
            str(config),
            "--file",
            str(file),
            "run",
            "--rounds",
            str(ROUNDS),
        ]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.args, cwd=ROOT, stdout=subprocess.DEVNULL)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def counted(file: Path) -> dict[int, int]:
    db = sqlite3.connect(f"file:{file}?mode=ro", uri=True, timeout=10)
    try:
        return {
            int(r): int(n)
            for r, n in db.execute("SELECT round, count(*) FROM games GROUP BY round")
        }
    finally:
        db.close()


def test_thirty_two_tables_five_rounds_through_trouble(tmp_path: Path, need_broker: None) -> None:
    port, web = free_port(), free_port()
    out, file = tmp_path / "broker", tmp_path / "club.sqlite3"
    assert (
        main(
            [
                "club",
                "--file",
                str(file),
                "init",
                "friday",
                "--tables",
                str(TABLES),
                "--out",
                str(out),
                "--port",
                str(port),
                "--broker",
                "127.0.0.1",
            ]
        )
        == 0
    )
    broker = Broker(out, "friday", [], port=port)
    broker.write_conf()
    broker.start()
    config = tmp_path / "director.toml"
    text = (out / "director.toml").read_text().replace("0.0.0.0:8033", f"127.0.0.1:{web}")
    config.write_text(text)
    names = [f"Player {n:02d}" for n in range(1, 2 * TABLES + 1)]
    assert main(["club", "--config", str(config), "--file", str(file), "players", *names]) == 0
    director = Director(config, file)
    director.start()

    sims: dict[str, SimTable] = {}
    played: dict[tuple[int, str], int] = {}  # (round, table) -> the table's record
    offline = {"table": "5", "round": 4, "back": False}
    stop = threading.Event()
    failures: list[BaseException] = []

    def tables() -> None:
        try:
            for n in range(1, TABLES + 1):
                t = str(n)
                games = GameStore(tmp_path / f"table-{t}.sqlite3")
                chaos = random.Random(n) if n % 4 == 3 else None  # split, reordered, repeated
                link = TableLink(
                    club_config(out / f"table-{t}.toml"),
                    games,
                    tmp_path / f"table-{t}.club",
                    chaos=chaos,
                    say=lambda m: None,
                )
                link.connect()
                sims[t] = SimTable(link, 1000 + n)
            cut = sims[offline["table"]]
            while not stop.is_set():
                for t, sim in sims.items():
                    sim.link.step()
                    was = sim.record
                    sim.play()
                    if was is None and sim.record is not None:
                        assert sim.link.pairing is not None
                        played[(sim.link.pairing[0], t)] = sim.record
                        if sim is cut and sim.link.pairing[0] == offline["round"]:
                            sim.link.disconnect()  # off the network for this round's game
                if cut.link.link is None and not cut.busy:
                    others = [s for s in sims.values() if s is not cut]
                    if all(offline["round"] in s.played and not s.busy for s in others):
                        time.sleep(1.0)  # the rest of the round waits on this table
                        cut.link.connect()
                        offline["back"] = True
                time.sleep(0.02)
        except BaseException as exc:
            failures.append(exc)
        finally:
            for sim in sims.values():
                sim.link.close()
                sim.games.close()

    thread = threading.Thread(target=tables)
    thread.start()
    killed = restarted = False
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and not failures:
            got = counted(file)
            if not killed and got.get(2, 0) >= 8:
                director.kill()  # mid-round 2: no goodbye, nothing flushed
                time.sleep(0.5)
                director.start()
                killed = True
            if not restarted and got.get(3, 0) >= 8:
                broker.stop()  # mid-round 3
                time.sleep(1.0)
                broker.start()
                restarted = True
            if sum(got.values()) == TABLES * ROUNDS and all(
                got.get(r) == TABLES for r in range(1, ROUNDS + 1)
            ):
                break
            time.sleep(0.2)
        # repeats of everything table 1 sent, long after: nothing may change
        before = counted(file)
        repeat = Link(club_config(out / "table-1.toml"), "repeater", [])
        time.sleep(0.5)
        store1 = GameStore(tmp_path / "table-1.sqlite3")
        for stored in store1.records():
            lines = store1.lines(stored.id)
            number = next(r for (r, t), rec in played.items() if t == "1" and rec == stored.id)
            event = Event("1", number, stored.id, 0, tuple(lines), len(lines))
            repeat.publish(topic("friday", "1", "events"), event.to_bytes("friday"))
        store1.close()
        time.sleep(2.0)
        repeat.close()
    finally:
        stop.set()
        thread.join(30)
        director.stop()
        broker.stop()
    assert not failures, failures
    assert killed and restarted and offline["back"]
    assert counted(file) == before == {r: TABLES for r in range(1, ROUNDS + 1)}

    # the independent recount, from each table's own game database
    expect: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for n in range(1, TABLES + 1):
        store = GameStore(tmp_path / f"table-{n}.sqlite3")
        for stored in store.records():
            replay = replay_lines(store.lines(stored.id))
            names = replay.game.options.names
            result = replay.game.results[0]
            for name, (points, spread) in zip(names, recount(result.scores), strict=True):
                expect[name][0] += points
                expect[name][1] += spread
                expect[name][2] += 1
        store.close()
    assert sum(v[2] for v in expect.values()) == 2 * TABLES * ROUNDS

    db = sqlite3.connect(str(file))
    games = {
        (int(r), str(t)): int(rec)
        for r, t, rec in db.execute("SELECT round, tbl, record FROM games")
    }
    problems = db.execute("SELECT message FROM problems").fetchall()
    pairs = [frozenset((a, b)) for a, b in db.execute("SELECT p0, p1 FROM pairings")]
    db.close()
    assert games == played  # each table's game of each round, once
    assert not problems
    assert len(set(pairs)) == len(pairs) == TABLES * ROUNDS  # no rematch

    import io
    from contextlib import redirect_stdout

    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert (
            main(["club", "--config", str(config), "--file", str(file), "standings", "--json"]) == 0
        )
    got = {r["name"]: [r["points"], r["spread"], r["games"]] for r in json.loads(buffer.getvalue())}
    assert got == dict(expect)


@pytest.fixture(autouse=True)
def _quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CRIB_PI_CONFIG", os.devnull)
