"""A real Mosquitto for the club's tests: started on a free loopback port from the files
``crib_pi.club.broker`` writes (hashed passwords, the ACL), persistence on; skipped, saying
why, where Mosquitto or paho-mqtt is not installed. Simulated tables play random legal games
into their own game databases and publish them through ``TableLink``."""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from crib_pi.actions import Action, GameOptions
from crib_pi.club.broker import DIRECTOR, conf, table_user, write_files
from crib_pi.club.config import ClubConfig
from crib_pi.club.table import TableLink
from crib_pi.simulate import random_game
from crib_pi.store import GameStore

MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Broker:
    folder: Path
    club: str
    tables: list[str]
    port: int = field(default_factory=free_port)
    users: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None

    def write(self) -> None:
        self.users = write_files(self.folder, self.club, self.tables)
        self.write_conf()

    def write_conf(self) -> None:
        user = "root" if os.geteuid() == 0 else ""
        text = conf(self.folder, self.port, "127.0.0.1", standalone=True, user=user)
        (self.folder / "mosquitto.conf").write_text(text)

    def start(self) -> None:
        assert MOSQUITTO is not None
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def config(self, table: str = "", key: str = "k") -> ClubConfig:
        user = table_user(table) if table else DIRECTOR
        return ClubConfig(
            club=self.club,
            broker="127.0.0.1",
            port=self.port,
            table=table,
            user=user,
            password=self.users[user],
            key=key,
        )


@pytest.fixture
def need_broker() -> None:
    if MOSQUITTO is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
    pytest.importorskip("paho.mqtt", reason="paho-mqtt is not installed (pip install paho-mqtt)")


@pytest.fixture
def make_broker(tmp_path: Path, need_broker: None) -> Iterator[object]:
    made: list[Broker] = []

    def make(club: str = "friday", tables: int = 4) -> Broker:
        broker = Broker(tmp_path / f"broker-{club}", club, [str(n) for n in range(1, tables + 1)])
        broker.write()
        broker.start()
        made.append(broker)
        return broker

    yield make
    for broker in made:
        broker.stop()


class SimTable:
    """A table that plays each pairing it is sent: a random legal game written into its own
    game database a few lines at a time, as a real table's log writes it."""

    def __init__(self, link: TableLink, seed: int, pace: int = 30) -> None:
        self.link = link
        self.games: GameStore = link.games
        self.rng = random.Random(seed)
        self.pace = pace
        self.played: set[int] = set()
        self.record: int | None = None
        self.left: list[Action] = []

    def play(self) -> None:
        """One step: start the round's game when paired, else write the next few lines."""
        if self.record is None:
            pairing = self.link.pairing
            if pairing is None or pairing[0] in self.played or not pairing[1]:
                return
            number, players = pairing
            self.played.add(number)
            options = GameOptions(dealer=0, names=tuple(players))
            _game, actions = random_game(options, self.rng.randrange(10**9))
            self.record = self.games.new_record(options)
            self.left = list(actions)
        chunk, self.left = self.left[: self.pace], self.left[self.pace :]
        self.games.save(self.record, list(chunk), finished=not self.left)
        if not self.left:
            self.record = None

    @property
    def busy(self) -> bool:
        return self.record is not None
