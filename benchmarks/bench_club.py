"""Benchmark: the club's director through a real Mosquitto, at 32 and 200 simulated tables.

    python benchmarks/bench_club.py [TABLES ...]     (default: 32 200)

Round 1: every table publishes a whole random legal game one record line a message (as a
table's log writes them, one action at a time), all tables at once; the figure is the record
lines the director takes in, checks (each finished record replayed through the rules engine)
and commits a second, from the first line sent to the last game counted. Round 2: every table
sends all but its game's last line; then, one table at a time, the last line is sent and the
time until the standings page's live stream (server-sent events) carries the result is taken:
the delay from a score at a table to the standings page (a table's link adds up to its 0.1 s
poll of the game database to this).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from crib_pi.actions import GameOptions, NewGame
from crib_pi.club.broker import DIRECTOR, conf, table_user, write_files
from crib_pi.club.config import ClubConfig
from crib_pi.club.link import Link
from crib_pi.club.messages import Event, topic
from crib_pi.club.store import ClubStore
from crib_pi.records import format_line
from crib_pi.simulate import random_game


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def lines_for(names: tuple[str, str], seed: int) -> list[str]:
    options = GameOptions(dealer=0, names=names)
    _game, actions = random_game(options, seed)
    return [format_line(NewGame(options))] + [format_line(a) for a in actions]


def wait(condition, timeout: float) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise SystemExit("timed out")
        time.sleep(0.005)


def run(count: int, folder: Path) -> None:
    tables = [str(n) for n in range(1, count + 1)]
    port, web = free_port(), free_port()
    users = write_files(folder, "bench", tables)
    user = "root" if os.geteuid() == 0 else ""
    (folder / "mosquitto.conf").write_text(
        conf(folder, port, "127.0.0.1", standalone=True, user=user)
    )
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    broker = subprocess.Popen(
        [mosquitto, "-c", str(folder / "mosquitto.conf")], stderr=subprocess.DEVNULL
    )
    time.sleep(0.5)

    def config(table: str = "") -> ClubConfig:
        name = table_user(table) if table else DIRECTOR
        return ClubConfig("bench", "127.0.0.1", port, table, name, users[name], "k")

    file = folder / "club.sqlite3"
    store = ClubStore(file, "bench", create=True)
    store.set_meta("key", "k")
    store.add_tables(tables)
    store.add_players([f"P{n:03d}" for n in range(2 * count)])
    store.close()
    director_config = folder / "director.toml"
    director_config.write_text(
        f'[club]\nclub = "bench"\nbroker = "127.0.0.1"\nport = {port}\nuser = "{DIRECTOR}"\n'
        f'password = "{users[DIRECTOR]}"\nkey = "k"\nweb = "127.0.0.1:{web}"\n'
    )
    director = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "crib_pi",
            "--lang",
            "en",
            "club",
            "--config",
            str(director_config),
            "--file",
            str(file),
            "run",
            "--rounds",
            "2",
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        measure(count, file, senders_for(tables, config), web)
    finally:
        director.terminate()
        director.wait()
        broker.terminate()
        broker.wait()


def senders_for(tables: list[str], config) -> dict[str, Link]:  # type: ignore[no-untyped-def]
    return {t: Link(config(t), f"table-{t}", []) for t in tables}


def measure(count: int, file: Path, senders: dict[str, Link], web: int) -> None:
    reader = ClubStore(file, "bench")
    wait(lambda: all(s.connected for s in senders.values()), 30)
    wait(lambda: reader.current_round() == 1, 30)

    games = {}
    for number, table, a, b in reader.pairings(1):
        games[table] = (number, lines_for((a, b), int(table)))
    total = sum(len(x) for _n, x in games.values())
    start = time.monotonic()
    longest = max(len(x) for _n, x in games.values())
    for i in range(longest):  # every table a line at a time, interleaved
        for table, (number, lines) in games.items():
            if i < len(lines):
                final = len(lines) if i == len(lines) - 1 else None
                event = Event(table, number, 1, i, (lines[i],), final)
                senders[table].publish(topic("bench", table, "events"), event.to_bytes("bench"))
    wait(lambda: reader.round_done(1), 600)
    took = time.monotonic() - start
    print(
        f"{count} tables: {total:,} record lines ({count} games) absorbed in {took:.2f} s: "
        f"{total / took:,.0f} lines/s",
        flush=True,
    )

    wait(lambda: reader.current_round() == 2, 30)
    pending = {}
    for number, table, a, b in reader.pairings(2):
        lines = lines_for((a, b), 10_000 + int(table))
        pending[table] = (number, lines)
        event = Event(table, number, 2, 0, tuple(lines[:-1]), None)
        senders[table].publish(topic("bench", table, "events"), event.to_bytes("bench"))
    sent = total + sum(len(x) - 1 for _n, x in pending.values())
    wait(lambda: reader.db.execute("SELECT count(*) FROM events").fetchone()[0] >= sent, 300)
    time.sleep(0.5)
    stream = urllib.request.urlopen(f"http://127.0.0.1:{web}/events", timeout=30)
    latest: dict[str, object] = {}
    seen = threading.Event()

    def listen() -> None:
        for raw in stream:
            if raw.startswith(b"data: "):
                latest["html"] = json.loads(raw[6:])
                seen.set()

    threading.Thread(target=listen, daemon=True).start()
    delays = []
    sample = list(pending)[:: max(1, len(pending) // 10)][:10]
    for table in sample:
        number, lines = pending[table]
        event = Event(table, number, 2, len(lines) - 1, (lines[-1],), len(lines))
        marker = f"Table {table}</td>"
        seen.clear()
        t0 = time.monotonic()
        senders[table].publish(topic("bench", table, "events"), event.to_bytes("bench"))
        while True:
            seen.wait(30)
            seen.clear()
            page = str(latest.get("html", ""))
            row = page[page.find(marker) :][:300]
            if page.find(marker) >= 0 and "playing" not in row.split("</tr>")[0]:
                break
        delays.append(time.monotonic() - t0)
    print(
        f"{count} tables: score to standings page {statistics.median(delays) * 1000:.0f} ms "
        f"median, {max(delays) * 1000:.0f} ms max over {len(delays)} games",
        flush=True,
    )
    for s in senders.values():
        s.close()


def main() -> None:
    counts = [int(a) for a in sys.argv[1:]] or [32, 200]
    for count in counts:
        with tempfile.TemporaryDirectory() as folder:
            run(count, Path(folder))


if __name__ == "__main__":
    main()
