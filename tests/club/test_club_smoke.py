"""Two tables, one round, through a real broker: the director counts both games."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from crib_pi.club.director import Director
from crib_pi.club.link import Link
from crib_pi.club.messages import topic
from crib_pi.club.store import ClubStore
from crib_pi.club.table import TableLink
from crib_pi.store import GameStore
from tests.club.conftest import SimTable


def test_two_tables_play_a_round(tmp_path: Path, make_broker) -> None:
    broker = make_broker("friday", 2)
    store = ClubStore(tmp_path / "club.sqlite3", "friday", create=True)
    store.add_tables(["1", "2"])
    store.add_players(["Ann", "Bob", "Cid", "Dee", "Eve"])
    link = Link(broker.config(), "director", [topic("friday", "+", "events")])
    director = Director(store, "k", link.publish, rounds=1, say=lambda m: None)
    sims: list[SimTable] = []
    stop = threading.Event()

    def tables() -> None:  # SQLite connections stay in the thread that made them
        for t in ("1", "2"):
            games = GameStore(tmp_path / f"t{t}.sqlite3")
            link = TableLink(broker.config(t), games, tmp_path / f"t{t}.club", say=lambda m: None)
            link.connect()
            sims.append(SimTable(link, int(t)))
        while not stop.is_set():
            for sim in sims:
                sim.link.step()
                sim.play()
            time.sleep(0.05)
        for sim in sims:
            sim.link.close()

    thread = threading.Thread(target=tables)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
            store.current_round() == 1 and store.round_done(1)
        ):
            director.absorb(link.drain(0.1))
    finally:
        stop.set()
        thread.join()
        link.close()
    assert store.round_done(1)
    rows = {s.name: s for s in store.standings()}
    assert sum(s.games for s in rows.values()) == 4
    assert sum(s.byes for s in rows.values()) == 1
    assert sims[0].link.caption().startswith("Table 1: ")


def test_the_table_command_shows_its_pairing_and_sends_its_game(
    tmp_path: Path, make_broker
) -> None:
    import os
    import subprocess
    import sys

    from crib_pi.actions import GameOptions
    from crib_pi.simulate import random_game

    broker = make_broker("friday", 1)
    c = broker.config("1", key="club-key")
    db = tmp_path / "games.sqlite3"
    config = tmp_path / "table.toml"
    config.write_text(
        f'[store]\ndb = "{db}"\n\n[club]\nclub = "friday"\nbroker = "127.0.0.1"\n'
        f'port = {c.port}\ntable = "1"\nuser = "{c.user}"\npassword = "{c.password}"\n'
        'key = "club-key"\n'
    )
    store = ClubStore(tmp_path / "club.sqlite3", "friday", create=True)
    store.add_tables(["1"])
    store.add_players(["Ann", "Bob"])
    link = Link(broker.config(), "director", [topic("friday", "+", "events")])
    director = Director(store, "club-key", link.publish, rounds=1, say=lambda m: None)
    root = Path(__file__).resolve().parents[2]
    table = subprocess.Popen(
        [sys.executable, "-m", "crib_pi", "--lang", "en", "club", "--config", str(config), "table"],
        cwd=root,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRIB_PI_DB": ""},
    )
    try:
        assert table.stdout is not None
        assert table.stdout.readline().strip() == "Table 1: waiting for the director's pairing"
        director.absorb([])  # pairs round 1 and sends it
        assert table.stdout.readline().strip() in ("Table 1: Ann v Bob", "Table 1: Bob v Ann")
        games = GameStore(db)
        a, b = store.pairing(1, "1") or ("", "")
        options = GameOptions(dealer=0, names=(a, b))
        _game, actions = random_game(options, 11)
        record = games.new_record(options)
        for start in range(0, len(actions), 20):  # as the table's log writes them
            chunk = actions[start : start + 20]
            games.save(record, list(chunk), finished=start + 20 >= len(actions))
            director.absorb(link.drain(0.05))
        deadline = time.monotonic() + 20
        while not store.round_done(1) and time.monotonic() < deadline:
            director.absorb(link.drain(0.1))
        assert store.round_done(1) and store.games(1)[0].record == record
        games.close()
    finally:
        table.terminate()
        assert table.wait(10) == 0
        link.close()
