"""The board page in a real headless Chromium: it follows a filmed game score by score within
a second, reads on a phone held upright and on a TV, in English and in French, and shows
names as text. Skips when Chromium is absent (``.ci/run`` installs Debian's)."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import struct
from pathlib import Path

import cv2
import pytest

from crib_pi.actions import GameOptions
from crib_pi.app import Assistant
from crib_pi.commands.session import read_presses
from crib_pi.devices import make_devices
from crib_pi.game import Game
from crib_pi.i18n import in_language
from crib_pi.mat import Mat
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import TruthReader, film
from crib_pi.session.pipeline import FramePipeline, NoRecognizer
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.simulate import random_game
from crib_pi.snapshot import BoardSnapshot
from crib_pi.store import GameLog
from crib_pi.web.config import WebConfig
from crib_pi.web.server import BoardServer
from tests.web.chromium import Chromium, Page
from tests.web.conftest import url

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
SHOWN = (
    "[...document.querySelectorAll('.side .score')].map(e => e.textContent).join(',') === {scores}"
    " && document.getElementById('last-text').textContent === {last}"
)


def _shows(snapshot: BoardSnapshot, nothing: str = "nothing scored yet") -> str:
    scores = ",".join(str(side.front) for side in snapshot.sides)
    return SHOWN.format(scores=json.dumps(scores), last=json.dumps(snapshot.last_text or nothing))


def test_the_page_follows_a_filmed_game_within_a_second(
    tmp_path: Path, browser: Chromium, board: BoardServer
) -> None:
    """A two-player game filmed on the mat, read frame by frame through the session (the
    film's truth stands in for recognition), each snapshot handed on by the assistant's own
    ``show`` as in ``crib-pi run``: after every score the page shows the new scores and the
    last score's words within a second."""
    options = GameOptions(players=2, target=61, dealer=0, names=("Alice", "Bob"))
    game, actions = random_game(options, seed=21, known=False)
    film(options, actions, plain_face, tmp_path, seed=21, lift_and_return=0)
    table = TableSession(options, GameLog(None), Tracker(stable=3))
    assistant = Assistant(make_devices(backend="mock"), table, NoRecognizer())
    assistant.listeners.append(board.publish)
    page = browser.page(390, 844, mobile=True)
    page.goto(url(board))
    pipeline = FramePipeline(Mat(2), TruthReader(tmp_path / "truth.jsonl"), table.tracker)
    presses = read_presses(tmp_path / "buttons.jsonl")
    shown = tuple(table.game.scores)
    waits: list[float] = []
    for number, path in enumerate(sorted((tmp_path / "frames").iterdir())):
        events = pipeline.process(cv2.imread(str(path)))
        for event in events:
            table.on_track(event)
        table.on_lines(presses.get(number, []))
        if not (events or presses.get(number)):
            continue
        assistant.show()
        if tuple(table.game.scores) != shown:
            shown = tuple(table.game.scores)
            waits.append(page.wait_for(_shows(table.snapshot()), timeout=1.0))
    assert tuple(table.game.scores) == game.scores and table.game.winner == game.winner
    assert len(waits) >= 20  # every change of score in the game, each seen within the second
    result = page.evaluate("document.getElementById('result').textContent")
    winner = options.names[game.winner] if game.winner is not None else ""
    assert result.startswith(f"{winner} wins "), result
    print(
        f"\npage updates after a score: {len(waits)}, median {statistics.median(waits) * 1000:.0f}"
        f" ms, slowest {max(waits) * 1000:.0f} ms"
    )


def _mid_play(language: str) -> BoardSnapshot:
    """A two-player game to 121 well into its pegging, said in ``language`` at the table."""
    options = GameOptions(players=2, target=121, dealer=0, names=("Alice", "Bob"))
    _played, actions = random_game(options, seed=5, known=False)
    with in_language(language):
        game = Game(options)
        best: BoardSnapshot | None = None
        for action in actions:
            game.apply(action)
            snapshot = game.snapshot()
            if snapshot.phase == "play" and len(snapshot.pile) >= 3 and min(game.scores) > 40:
                best = snapshot
                if snapshot.last_events:
                    break
        assert best is not None
        return best


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


@pytest.mark.parametrize("language", ["en", "fr"])
def test_phone_and_tv_in_english_and_french(
    tmp_path: Path, browser: Chromium, language: str
) -> None:
    """Screenshots of the board mid-game on a phone (390 x 844) and a TV (1920 x 1080); with
    CRIB_PI_WRITE_SCREENS=1 they are written to docs/screens for the README."""
    server = BoardServer(WebConfig(enabled=True, port=0, banner="Table 4"), language).start()
    try:
        snapshot = _mid_play(language)
        server.publish(snapshot)
        label = {"en": "LAST SCORE", "fr": "DERNIERS POINTS"}[language]
        count = {"en": "COUNT", "fr": "TOTAL"}[language]
        for device, (width, height), mobile in (
            ("phone", (390, 844), True),
            ("tv", (1920, 1080), False),
        ):
            page = browser.page(width, height, mobile=mobile)
            page.goto(url(server))
            page.wait_for(_shows(snapshot), timeout=5)
            assert page.evaluate("document.documentElement.lang") == language
            assert page.evaluate("document.getElementById('last-label').textContent") == label
            assert page.evaluate("document.getElementById('title').textContent").startswith(count)
            assert page.evaluate("document.getElementById('count').textContent") == str(
                snapshot.count
            )
            assert page.evaluate("document.getElementById('banner').textContent") == "Table 4"
            # Nothing runs off the side of the screen.
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            if device == "tv":  # the whole board on one screen, no scrolling on a TV
                assert page.evaluate("document.documentElement.scrollHeight") <= height
            shot = tmp_path / f"web-{device}-{language}.png"
            page.screenshot(shot)
            assert _png_size(shot) == (width, height)
            if os.environ.get("CRIB_PI_WRITE_SCREENS") == "1":
                shutil.copy(shot, SCREENS / shot.name)
    finally:
        server.close()


def test_names_are_shown_as_text_never_as_markup(browser: Chromium, board: BoardServer) -> None:
    names = ("<img src=x onerror=alert(1)>", "Bob & <b>Co</b>")
    game = Game(GameOptions(players=2, dealer=0, names=names))
    board.publish(game.snapshot())
    page: Page = browser.page(800, 600)
    page.goto(url(board))
    page.wait_for("document.querySelectorAll('.side .name').length === 2")
    shown = page.evaluate("[...document.querySelectorAll('.side .name')].map(e => e.textContent)")
    assert shown == list(names)
    assert page.evaluate("document.querySelectorAll('img, b').length") == 0


def test_the_page_says_when_the_table_has_gone(browser: Chromium) -> None:
    server = BoardServer(WebConfig(enabled=True, port=0), "fr").start()
    page = browser.page(390, 844, mobile=True)
    page.goto(url(server))
    page.wait_for("document.body.dataset.seq === '0'")
    server.close()
    page.wait_for("document.getElementById('status').className === 'lost'", timeout=5)
    status = page.evaluate("document.getElementById('status').textContent")
    assert status == "connexion à la table perdue ; nouvel essai"
