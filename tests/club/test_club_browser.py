"""The club's pages in a real headless Chromium (tests/web/chromium.py drives it): the
standings follow a game within a second, fit a phone in French, and a table's page shows its
pairing. ``CRIB_PI_SCREENS=1`` also writes the README's screenshots (docs/screens/club-*.png)."""

from __future__ import annotations

import os
import random
from pathlib import Path

from crib_pi.club.config import ClubConfig
from crib_pi.club.director import Board, Director
from crib_pi.club.messages import sign, topic
from crib_pi.club.pairing import pair
from crib_pi.club.store import ClubStore
from crib_pi.club.table import TableLink
from crib_pi.club.web import pairing_body, serve, standings_body
from crib_pi.store import GameStore
from tests.club.conftest import free_port
from tests.web.chromium import Chromium, chromium_or_skip

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
NAMES = [
    "Alice",
    "Bob",
    "Chloé",
    "Dmitri",
    "Emma",
    "Farid",
    "Grace",
    "Hugo",
    "Inès",
    "Jack",
    "Kiri",
    "Léon",
    "Maya",
    "Noah",
    "Olga",
    "Pat",
    "Quinn",
]


def a_night(path: Path) -> ClubStore:
    """Four rounds of seventeen players at eight tables, three games of the last still on."""
    store = ClubStore(path, "friday", create=True)
    store.add_tables([str(n) for n in range(1, 9)])
    store.add_players(NAMES)
    rng = random.Random(4)
    for number in range(1, 5):
        pairs, bye = pair(store.standings(), store.met())
        store.add_round([(str(i + 1), a, b) for i, (a, b) in enumerate(pairs)], bye)
        for i in range(len(pairs)):
            if number == 4 and i in (2, 5, 7):
                continue
            low = rng.randint(70, 118)
            scores = (121, low) if rng.random() < 0.5 else (low, 121)
            store.add_game(number, str(i + 1), number, scores)
    store.correct(2, "3", (121, 104), "a crib of 12 pegged as 2")
    return store


def test_the_club_pages_in_a_real_browser(tmp_path: Path) -> None:
    browser = Chromium(chromium_or_skip())
    store = a_night(tmp_path / "club.sqlite3")
    director = Director(store, "k", lambda *_a: None, say=lambda m: None)
    director.refresh()
    port, table_port = free_port(), free_port()
    server = serve(director.board, f"127.0.0.1:{port}", "Standings", standings_body)
    link = TableLink(
        ClubConfig(club="friday", table="4", key="k"),
        GameStore(tmp_path / "games.sqlite3"),
        tmp_path / "games.club",
        say=lambda m: None,
    )
    body = {
        "club": "friday",
        "table": "4",
        "kind": "pairing",
        "round": 4,
        "players": ["Alice", "Bob"],
    }
    link._take(topic("friday", "4", "pairing"), sign("k", body))
    board = Board()
    board.set({"caption": link.caption(), "round": 4})
    table = serve(board, f"127.0.0.1:{table_port}", "Table", pairing_body)
    shots = bool(os.environ.get("CRIB_PI_SCREENS"))
    try:
        tv = browser.page(1280, 1320)
        tv.goto(f"http://127.0.0.1:{port}/")
        tv.wait_for("document.body.innerText.includes('standings after round 4')")
        assert tv.evaluate("document.querySelectorAll('table.st tr').length") == 18
        if shots:
            tv.screenshot(SCREENS / "club-standings.png")
        # a game ends at table 3: the open page shows it within a second
        row = (
            "[...document.querySelectorAll('tr')]"
            ".find(r => r.cells[0].innerText === 'Table 3').cells[2].innerText"
        )
        assert tv.evaluate(row) == "playing"
        store.add_game(4, "3", 9, (121, 64))
        director.refresh()
        took = tv.wait_for(f"{row} === '121-64'", 5.0)
        assert took < 1.0

        phone = browser.page(420, 900, mobile=True)
        phone.goto(f"http://127.0.0.1:{port}/?lang=fr")
        phone.wait_for("document.body.innerText.includes('classement après le tour 4')")
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert "Alice contre" in phone.evaluate("document.body.innerText")
        if shots:
            phone.screenshot(SCREENS / "club-standings-fr-phone.png")

        screen = browser.page(800, 480)
        screen.goto(f"http://127.0.0.1:{table_port}/")
        screen.wait_for("document.body.innerText.includes('Table 4: Alice v Bob')")
        if shots:
            screen.screenshot(SCREENS / "club-table-pairing.png")
    finally:
        browser.close()
        server.server_close()
        table.server_close()
        link.close()
