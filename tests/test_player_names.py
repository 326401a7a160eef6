"""One naming scheme for players wherever a person reads or hears them: the configured name,
else "Player 1".."Player 4" (1-based, "Joueur 1" in French), never "player 0"; the records
and the JSON outputs stay 0-based and language-free.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from crib_pi.actions import GameOptions
from crib_pi.cli import main
from crib_pi.devices.scenes import SCENES
from crib_pi.game import Game
from crib_pi.i18n import in_language, use_language
from crib_pi.players import player_name, side_name
from crib_pi.records import format_line
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog, GameStore
from crib_pi.voice.words import Announcer

#: A player said the 0-based way records count ("player 0", "Joueur 0", "P0").
ZERO_BASED = re.compile(r"\b(player|joueur) 0\b|\bP0\b", re.IGNORECASE)
#: Any player said by number, whatever the base.
NUMBERED = re.compile(r"\b(player|joueur) \d", re.IGNORECASE)


@pytest.fixture(autouse=True)
def english_after() -> object:
    yield
    use_language("en")


def test_a_player_is_their_name_else_a_number_counted_from_one() -> None:
    assert player_name(0) == "Player 1" and player_name(3) == "Player 4"
    assert player_name(1, ("Alice", "Bob")) == "Bob"
    assert player_name(1, ("Alice", "")) == "Player 2"  # an empty name is no name
    assert side_name(0, 4) == "Player 1 & Player 3"
    assert side_name(1, 4, ("A", "B", "C", "D")) == "B & D"
    assert side_name(2, 3) == "Player 3"
    with in_language("fr"):
        assert player_name(0) == "Joueur 1"
        assert side_name(1, 4) == "Joueur 2 et Joueur 4"
        assert player_name(0, ("Alice", "Bob")) == "Alice"


def _texts(options: GameOptions, seed: int, language: str = "en") -> list[str]:
    """Every text a whole game shows (records, prompts, board names) and says (the voice)."""
    _, actions = random_game(options, seed=seed, known=False)
    texts: list[str] = []
    with in_language(language):
        table = TableSession(options, GameLog(None), Tracker())
        announcer = Announcer(language)
        for action in actions:
            record = table.game.apply(action)
            snap = table.snapshot()
            texts += [record.text, snap.prompt, snap.last_text, *snap.flags]
            texts += [side.name for side in snap.sides]
            texts += [u.text for u in announcer.after(table).say]
    return texts


def test_a_game_with_names_shows_and_says_the_names_never_a_number() -> None:
    texts = _texts(GameOptions(players=2, target=61, dealer=0, names=("Alice", "Bob")), seed=5)
    assert [t for t in texts if NUMBERED.search(t)] == []
    assert any(t.startswith("Alice lays") for t in texts)
    assert any(t.startswith("Bob to play") for t in texts)
    assert any(t.startswith(("Alice wins", "Bob wins")) for t in texts)  # the voice's end


def test_a_game_without_names_counts_players_from_one() -> None:
    texts = _texts(GameOptions(players=2, target=61, dealer=0), seed=5)
    assert [t for t in texts if ZERO_BASED.search(t)] == []
    numbers = {m.group(1) for t in texts for m in re.finditer(r"\bPlayer (\d)", t)}
    assert numbers == {"1", "2"}
    assert [t for t in texts if re.search(r"\bplayer \d", t)] == []  # the old lower-case way


def test_a_four_player_game_names_the_partnerships() -> None:
    texts = _texts(GameOptions(players=4, target=61, dealer=0), seed=2)
    assert [t for t in texts if ZERO_BASED.search(t)] == []
    assert "Player 1 & Player 3" in texts and "Player 4 lays" in " ".join(texts)


def test_a_french_game_says_joueur_from_one() -> None:
    texts = _texts(GameOptions(players=2, target=61, dealer=0), seed=5, language="fr")
    assert [t for t in texts if ZERO_BASED.search(t)] == []
    assert any(t.startswith("Joueur 1 pose") for t in texts)
    assert any(t.startswith("Joueur 2 pose") for t in texts)
    named = _texts(GameOptions(players=2, target=61, names=("Alice", "Bob")), 5, "fr")
    assert [t for t in named if NUMBERED.search(t)] == [] and any("Alice" in t for t in named)


def test_the_learn_scene_of_the_readme_names_alice_and_bob() -> None:
    snap = SCENES["learn"]()
    words = [snap.prompt, snap.last_text, *snap.learn]
    assert snap.last_text.startswith("Alice lays 8S") and snap.prompt.startswith("Bob to play")
    assert [w for w in words if NUMBERED.search(w)] == []
    coach = SCENES["coach"]()
    assert any(line.startswith("Coach for Bob") for line in coach.learn)


def test_records_stay_numbered_from_zero_and_language_free() -> None:
    options = GameOptions(players=2, target=61, dealer=0, names=("Alice", "Bob"))
    _game, actions = random_game(options, seed=5, known=False)
    with in_language("fr"):
        french = Game(options)
        for action in actions:
            french.apply(action)
    assert [format_line(r.action) for r in french.records] == [format_line(a) for a in actions]
    assert json.loads(format_line(actions[-1])) == actions[-1].to_json()
    play = next(json.loads(format_line(a)) for a in actions if "play" in a.to_json())
    assert play["play"][0] in (0, 1)  # the record keeps the player's index


def _store_game(db: Path, options: GameOptions, seed: int) -> None:
    _, actions = random_game(options, seed=seed, known=False)
    store = GameStore(db)
    record = store.new_record(options)
    for i, action in enumerate(actions):
        store.append(record, action, finished=i == len(actions) - 1)
    store.close()


def test_history_and_stats_name_people_for_people_and_keep_the_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite3"
    _store_game(db, GameOptions(players=2, target=61, dealer=0), seed=5)
    assert main(["history", "--db", str(db)]) == 0
    text = capsys.readouterr().out
    assert "Player 1 v Player 2" in text and not ZERO_BASED.search(text)
    assert main(["history", "--db", str(db), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["sides"] == ["player 0", "player 1"]  # the JSON as before: 0-based keys
    assert main(["stats", "--db", str(db)]) == 0
    text = capsys.readouterr().out
    assert "Player 1" in text and "Player 2" in text and not ZERO_BASED.search(text)
    assert main(["stats", "--db", str(db), "--json"]) == 0
    names = {row["name"] for row in json.loads(capsys.readouterr().out)}
    assert names == {"player 0", "player 1"}


def test_the_demo_s_last_line_names_the_winner_as_configured() -> None:
    from crib_pi.commands.run import _result

    summary = {"winner": 1, "scores": [29, 61], "skunk": "skunk"}
    assert _result(summary, ("Ann", "Bob")) == "Bob wins 61-29, a skunk"
    assert _result(summary) == "Player 2 wins 61-29, a skunk"
