"""``crib-pi run`` at a club's table, in-process and through a real Mosquitto: the table's link
starts with the game (``run.join_club``, as ``run.live`` calls it), the director's pairing is
drawn above the board by the real pygame screen (SDL's dummy driver) and on the board page's
banner, the game played for it reaches the director, and the next pairing waits for Confirm
once the game is over. ``CRIB_PI_SCREENS=1`` also writes the README's screenshot of the
table's screen (docs/screens/club-table-screen.png)."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from crib_pi.actions import GameOptions
from crib_pi.app import Assistant
from crib_pi.club.attable import Pairing, waits
from crib_pi.club.config import ClubConfig
from crib_pi.club.director import Director
from crib_pi.club.link import Link
from crib_pi.club.messages import topic
from crib_pi.club.store import ClubStore
from crib_pi.commands.run import join_club
from crib_pi.config import AppConfig
from crib_pi.devices import make_devices
from crib_pi.devices.clock import FakeClock
from crib_pi.devices.config import ScreenConfig
from crib_pi.session.pipeline import NoRecognizer
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog, GameStore, open_store
from crib_pi.web.config import WebConfig
from crib_pi.web.server import BoardServer
from tests.club.conftest import free_port

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
GOLD = (250, 205, 70)  # the caption's colour (crib_pi.devices.screen.style.GOLD)


class Table:
    """``crib-pi run``'s pieces put together as ``live`` does, the real screen drawing, and the
    assistant's main loop in a thread of its own, which opens the game database (SQLite keeps a
    connection to the thread that made it) and has no signal handlers."""

    def __init__(self, tmp_path: Path, club: ClubConfig, *, patience: float = 3.0) -> None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        from crib_pi.devices.report import Reporter
        from crib_pi.devices.screen.pygame_ce import PygameScreen

        self.clock = FakeClock()
        self.devices = make_devices(backend="mock", clock=self.clock)
        self.devices.screen.close()
        self.screen = PygameScreen(ScreenConfig(size=(800, 480)), Reporter())
        self.devices.screen = self.screen
        self.web = BoardServer(WebConfig(enabled=True, port=0), "en").start()
        self.config = AppConfig(game=GameOptions(dealer=0), club=club)
        self.db = tmp_path / "games.sqlite3"
        self.patience = patience
        self.problems: list[str] = []
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.loop = threading.Thread(target=self._live)
        self.loop.start()
        assert self.ready.wait(10)
        assert self.problems == []

    def _live(self) -> None:
        store = open_store(self.db)
        table = TableSession(self.config.game, GameLog(store, batch=True), Tracker())
        self.assistant = Assistant(self.devices, table, NoRecognizer(), stop=self.stop)
        self.assistant.listeners.append(self.web.publish)
        self.club = join_club(
            self.config, self.assistant, self.web, store, self.problems, patience=self.patience
        )
        self.ready.set()
        try:
            if self.club is not None:
                self.club.start()
                self.assistant.run()
        finally:
            if self.club is not None:
                self.club.close()
            store.close()

    def close(self) -> None:
        self.stop.set()
        self.loop.join(10)
        self.web.close()
        self.devices.close()

    def on_loop(self, work: Callable[[], object]) -> object:
        """Run ``work`` on the main loop (where the game lives) and return what it returned."""
        done: list[object] = []
        self.assistant.chores.put(lambda: done.append(work()) or True)
        wait_for(lambda: bool(done), 5, "the main loop took the work")
        return done[0]

    @property
    def caption(self) -> str:
        last = self.screen.last
        return last.caption if last is not None else ""

    def banner(self) -> str:
        return str(json.loads(self.web.view("en")[1])["banner"])

    def play(self, seed: int) -> tuple[int, tuple[int, int]]:
        """A whole game played on the main loop as the table logs it; its record and scores."""

        def play() -> tuple[int, tuple[int, int]]:
            table = self.assistant.table
            game, actions = random_game(table.options, seed)
            for action in actions:
                table.game.apply(action)
                table.log.append(action, finished=table.game.winner is not None)
            assert table.log.record is not None
            return table.log.record, (game.scores[0], game.scores[1])

        played = self.on_loop(play)
        assert isinstance(played, tuple)
        return played

    def press_confirm(self) -> None:
        def press() -> None:  # a press and its release, then past the double-press window
            self.devices.buttons.press("confirm")  # type: ignore[attr-defined]
            self.clock.advance(0.05)
            self.devices.buttons.release("confirm")  # type: ignore[attr-defined]
            self.clock.advance(0.5)

        self.on_loop(press)

    def gold_in_caption_band(self) -> int:
        """Pixels of the caption's gold in the band across the top of the screen drawn now."""
        import pygame

        def count() -> int:
            surface = pygame.display.get_surface()
            return sum(
                1
                for x in range(0, 800, 2)
                for y in range(16, 50)
                if tuple(surface.get_at((x, y)))[:3] == GOLD
            )

        counted = self.on_loop(count)
        assert isinstance(counted, int)
        return counted


def wait_for(ready: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s: {what}")
        time.sleep(0.02)


@pytest.fixture
def director_of(tmp_path: Path) -> Iterator[Callable[..., tuple[ClubStore, Director, Link]]]:
    made: list[tuple[ClubStore, Link]] = []

    def make(broker: object, players: list[str], rounds: int) -> tuple[ClubStore, Director, Link]:
        store = ClubStore(tmp_path / "club.sqlite3", "friday", create=True)
        store.add_tables(["4"])
        store.add_players(players)
        config = broker.config()  # type: ignore[attr-defined]
        link = Link(config, "director", [topic("friday", "+", "events")])
        director = Director(store, "club-key", link.publish, rounds=rounds, say=lambda m: None)
        made.append((store, link))
        return store, director, link

    yield make
    for store, link in made:
        link.close()
        store.close()


def absorb_until(director: Director, link: Link, done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 15
    while not done():
        assert time.monotonic() < deadline, f"the director waited 15 s: {what}"
        director.absorb(link.drain(0.05))


def test_the_pairing_is_on_the_screen_and_the_game_played_for_it_is_counted(
    tmp_path: Path, make_broker, director_of
) -> None:
    broker = make_broker("friday", 4)
    store, director, link = director_of(broker, ["Alice", "Bob", "Chloé"], rounds=2)
    table = Table(tmp_path, broker.config("4", key="club-key"))
    try:
        wait_for(lambda: table.caption.endswith("waiting for the director's pairing"), 10, "link")
        assert table.caption == "Table 4: waiting for the director's pairing"
        set_up = table.assistant.table.log.record

        director.absorb([])  # round 1 paired and sent
        a, b = store.pairing(1, "4") or ("", "")
        shown = f"Table 4: {a} v {b}"
        wait_for(lambda: table.caption == shown, 10, f"the screen shows {shown!r}")
        assert table.banner() == shown
        assert table.gold_in_caption_band() > 100  # drawn, not only carried in the snapshot
        game = table.assistant.table
        assert game.options.names == (a, b)  # nothing was played: set up afresh for the pairing
        assert game.log.record is not None and set_up is not None and game.log.record > set_up
        if os.environ.get("CRIB_PI_SCREENS"):
            table.on_loop(lambda: table.screen.save(str(SCREENS / "club-table-screen.png")))

        record, scores = table.play(seed=5)
        absorb_until(director, link, lambda: store.round_done(1), "round 1's game")
        counted = store.games(1)[0]
        assert (counted.record, counted.scores, counted.players) == (record, scores, (a, b))

        # round 2 is paired at once; the finished game stays on the screen until Confirm
        absorb_until(director, link, lambda: store.current_round() == 2, "round 2 paired")
        c, d = store.pairing(2, "4") or ("", "")
        waiting = f"Table 4: {c} v {d} · Confirm starts this game"
        wait_for(lambda: table.caption == waiting, 10, f"the screen shows {waiting!r}")
        assert table.banner() == f"Table 4: {c} v {d}"
        assert table.assistant.table.log.record == record  # the result is still shown
        table.press_confirm()
        wait_for(lambda: table.caption == f"Table 4: {c} v {d}", 5, "Confirm took the pairing")
        assert table.assistant.table.options.names == (c, d)
        record2, scores2 = table.play(seed=8)
        absorb_until(director, link, lambda: store.round_done(2), "round 2's game")
        assert (store.games(2)[0].record, store.games(2)[0].scores) == (record2, scores2)
    finally:
        table.close()
    assert len({s.name for s in store.standings() if s.games}) == 3


def test_a_broker_out_of_reach_is_said_once_and_the_game_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("paho.mqtt", reason="paho-mqtt is not installed (pip install paho-mqtt)")
    port = free_port()  # nothing listens there
    club = ClubConfig(club="friday", broker="127.0.0.1", port=port, table="4", key="k")
    table = Table(tmp_path, club, patience=0.3)
    try:
        wait_for(lambda: "cannot reach" in capsys.readouterr().err, 10, "said it")
        time.sleep(0.5)
        assert "cannot reach" not in capsys.readouterr().err  # once
        assert table.caption == "Table 4: waiting for the director's pairing"
        record, _scores = table.play(seed=3)  # the game goes on, and is kept
        assert table.loop.is_alive() and table.assistant.table.log.record == record
    finally:
        table.close()
    games = GameStore(tmp_path / "games.sqlite3")
    assert [(r.id, r.finished) for r in games.records()] == [(record, True)]
    games.close()


def test_only_a_table_of_a_club_joins_and_a_missing_key_is_said(tmp_path: Path) -> None:
    pytest.importorskip("paho.mqtt", reason="paho-mqtt is not installed (pip install paho-mqtt)")
    devices = make_devices(backend="mock")
    table = TableSession(GameOptions(dealer=0), GameLog(None))
    assistant = Assistant(devices, table, NoRecognizer())
    store = GameStore(tmp_path / "g.sqlite3")
    problems: list[str] = []
    director = AppConfig(club=ClubConfig(club="friday", key="k"))  # no table: the director's
    assert join_club(director, assistant, None, store, problems) is None and problems == []
    keyless = AppConfig(club=ClubConfig(club="friday", table="4"))
    assert join_club(keyless, assistant, None, store, problems) is None
    assert problems == ["[club] needs club, table and key for a table to join its club"]
    assert assistant.caption is None  # nothing drawn above the board
    nodb = AppConfig(club=ClubConfig(club="friday", table="4", key="k"))
    assert join_club(nodb, assistant, None, None, problems) is None
    assert "needs the game database" in problems[-1]
    store.close()
    devices.close()


@pytest.mark.parametrize(
    "record, names, expected",
    [
        (None, (), True),  # a game kept in memory, set up with no names
        (9, ("Ann", "Bob"), True),  # begun before the pairing came
        (10, ("Ann", "Cid"), True),  # after it, but under other names
        (10, ("Bob", "Ann"), False),  # the pairing's game
        (11, ("Ann", "Bob"), False),
    ],
)
def test_a_pairing_waits_for_a_game_of_its_own(
    record: int | None, names: tuple[str, ...], expected: bool
) -> None:
    assert waits(Pairing("Table 4: Ann v Bob", 2, ("Ann", "Bob"), 10), record, names) is expected
    assert not waits(Pairing("Table 4: no game in round 2", 2, (), 10), record, names)


def test_the_screenshot_of_a_tables_screen_is_committed_and_shown() -> None:
    pygame = pytest.importorskip("pygame")
    shot = SCREENS / "club-table-screen.png"
    assert pygame.image.load(str(shot)).get_size() == (800, 480)
    readme = (SCREENS.parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## A club's tables")[1].split("\n## ")[0]
    assert "(docs/screens/club-table-screen.png)" in section
    assert "start the game after the pairing shows" in section
