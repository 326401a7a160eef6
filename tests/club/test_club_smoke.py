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
