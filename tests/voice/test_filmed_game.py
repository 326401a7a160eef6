"""A whole filmed game said aloud by the mock voice: one sentence per scoring record, in
order, none dropped, none overlapping; in English and in French (no English left, on the
screen either: every text the screen draws is recorded as the game goes)."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import pytest

from crib_pi.actions import Claim, Crib, Cut, GameOptions, Go, Muggins, Play, Show
from crib_pi.commands.session import read_presses
from crib_pi.devices.screen import style as screen_style
from crib_pi.devices.screen.draw import render
from crib_pi.game import Record
from crib_pi.i18n import in_language
from crib_pi.mat import Mat
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import TruthReader, film
from crib_pi.session.pipeline import FramePipeline
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.simulate import random_game
from crib_pi.snapshot import BoardSnapshot
from crib_pi.store import GameLog
from crib_pi.voice.speakers import MockSpeaker
from crib_pi.voice.speech import Voice
from crib_pi.voice.words import Announcer

#: Words of the English sentences that must never reach a French table.
ENGLISH = re.compile(
    r"\b(fifteen|thirty|pair|run|flush|player|hand|crib|wins|for|is|and|last card|heels|nobs|"
    r"one|two|three|four|five|seven|eight|nine|ten|twelve)\b"
)


def expected_kinds(record: Record) -> list[str]:
    """What the table should say for a record, worked out from the rules engine alone."""
    a = record.action
    kinds = []
    if isinstance(a, Go) or (isinstance(a, Play | Cut) and record.events):
        kinds.append("score")
    elif isinstance(a, Show | Crib):
        kinds.append("count")
    elif isinstance(a, Claim):
        kinds.append("muggins" if record.missed is not None else "count")
    elif isinstance(a, Muggins):
        kinds.append("muggins")
    if record.result is not None:
        kinds.append("end")
    return kinds


#: Words of the French sentences that must never reach an English table.
FRENCH = re.compile(r"\b(le|la|joueur|crèche|retourne|quinze|paire|suite|gagne|pour|et|donne)\b")


def play_aloud(
    options: GameOptions,
    out: Path,
    language: str,
    seconds: float,
    screen: list[str] | None = None,
) -> tuple[TableSession, MockSpeaker, list[str]]:
    """Play the film back frame by frame, handing the voice what is new after each frame as
    the main loop does; a frame is a tenth of a second at the table, so the voice keeps up.
    With ``screen``, each new board is drawn and the texts drawn on it are added there."""
    with in_language(language):
        return _play_aloud(options, out, language, seconds, screen)


def _screen_texts(snapshot: BoardSnapshot) -> list[str]:
    drawn: list[str] = []
    original = screen_style.text

    def record(surface: object, words: str, *args: object, **kw: object) -> object:
        drawn.append(words)
        return original(surface, words, *args, **kw)  # type: ignore[arg-type]

    screen_style.text = record  # type: ignore[assignment]
    try:
        render(snapshot, (800, 480))
    finally:
        screen_style.text = original
    return drawn


def _play_aloud(
    options: GameOptions, out: Path, language: str, seconds: float, screen: list[str] | None
) -> tuple[TableSession, MockSpeaker, list[str]]:
    table = TableSession(options, GameLog(None), Tracker(stable=3))
    pipeline = FramePipeline(Mat(options.players), TruthReader(out / "truth.jsonl"), table.tracker)
    presses = read_presses(out / "buttons.jsonl")
    speaker = MockSpeaker(seconds=seconds)
    voice = Voice(speaker, language=language)
    announcer = Announcer(language)
    kinds: list[str] = []
    last_drawn: BoardSnapshot | None = None
    for number, path in enumerate(sorted((out / "frames").iterdir())):
        for event in pipeline.process(cv2.imread(str(path))):
            table.on_track(event)
        table.on_lines(presses.get(number, []))
        narration = announcer.after(table)
        voice.withdraw(set(narration.withdraw))
        for utterance in narration.say:
            voice.say(utterance)
            kinds.append(utterance.kind)
        assert voice.wait_idle(5)  # the next frame comes 100 ms later: nothing piles up
        if screen is not None:
            snapshot = table.snapshot()
            if snapshot != last_drawn:
                screen.extend(_screen_texts(snapshot))
                last_drawn = snapshot
    voice.close()
    return table, speaker, kinds


@pytest.fixture(scope="module")
def filmed(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameOptions, Path]:
    options = GameOptions(players=3, target=61, dealer=0, muggins=True)
    _, actions = random_game(options, seed=22, known=False)
    out = tmp_path_factory.mktemp("film")
    film(options, actions, plain_face, out, seed=22)
    return options, out


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_filmed_game_is_said_one_sentence_per_scoring_record(
    filmed: tuple[GameOptions, Path], language: str
) -> None:
    options, out = filmed
    screen: list[str] = []
    table, speaker, kinds = play_aloud(options, out, language, seconds=0.001, screen=screen)
    expected = [k for r in table.game.records for k in expected_kinds(r)]
    assert kinds == expected  # one per scoring record, in the game's order
    assert len(speaker.said) == len(expected)  # none dropped
    assert {"score", "count", "muggins", "end"} <= set(kinds)
    for before, after in zip(speaker.said, speaker.said[1:], strict=False):
        assert before.end <= after.start  # none overlapping
    texts = speaker.texts
    scored = [r for r in table.game.records if expected_kinds(r)]
    events = [e.reason for r in scored for e in r.events if r.action.__class__ in (Play, Cut, Go)]
    assert {"go", "last_card", "fifteen"} <= set(events)
    if language == "en":
        assert any(t.startswith("go") for t in texts)
        assert any("last card for one" in t for t in texts)
        assert any(t.startswith("fifteen two") for t in texts)
        assert any("claims" in t for t in texts) and re.search(r"wins, sixty-one to", texts[-1])
        assert [t for t in texts + screen if FRENCH.search(t)] == []
        assert "LAST SCORE" in screen and any(t.endswith(" wins!") for t in screen)
    else:
        assert [t for t in texts if ENGLISH.search(t)] == []
        assert [t for t in screen if ENGLISH.search(t)] == []
        assert "DERNIERS POINTS" in screen and any(t.endswith(" gagne !") for t in screen)
        assert any("dernière carte pour un" in t for t in texts)
        assert any(t.startswith("quinze deux") for t in texts)
        assert re.search(r"gagne, soixante et un à", texts[-1])


def test_a_slow_voice_still_says_every_count_in_order(filmed: tuple[GameOptions, Path]) -> None:
    """Speech slower than the game: sentences wait their turn (different records never
    replace each other) and still come out one at a time, in order."""
    options, out = filmed
    table, speaker, _ = play_aloud(options, out, "en", seconds=0.0)
    fast = speaker.texts
    announcer = Announcer("en")
    slow = MockSpeaker(seconds=0.002)
    voice = Voice(slow)
    replayed = TableSession(options, GameLog(None), Tracker(stable=3))
    for record in table.game.records:  # the whole game at once: everything queues
        replayed.game.apply(record.action)
        for utterance in announcer.after(replayed).say:
            voice.say(utterance)
    assert voice.wait_idle(30)
    voice.close()
    assert slow.texts == fast and voice.replaced == 0
    for before, after in zip(slow.said, slow.said[1:], strict=False):
        assert before.end <= after.start
