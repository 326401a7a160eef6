"""Whole scripted games filmed on the mat and played back through the session.

The frames are real images (the printed mat under a tilted camera, cards laid in rows, a hand
passing over before each card lands, cards slid in crooked, lifted and put back, glare). Here
the cards are read by the film's ground truth, so these tests judge the session — mat finding,
tracking, the table's rules and the buttons — apart from recognition.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from crib_pi.actions import Action, GameOptions, Play, Undo
from crib_pi.commands.session import read_presses
from crib_pi.mat import Mat
from crib_pi.records import format_line, replay_lines
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import TruthReader, film
from crib_pi.session.pipeline import FramePipeline
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog


def play_back(options: GameOptions, out: Path, *, find: bool = False) -> TableSession:
    table = TableSession(options, GameLog(None), Tracker(stable=3))
    pipeline = FramePipeline(
        Mat(options.players), TruthReader(out / "truth.jsonl"), table.tracker, find=find
    )
    presses = read_presses(out / "buttons.jsonl")
    for number, path in enumerate(sorted((out / "frames").iterdir())):
        for event in pipeline.process(cv2.imread(str(path))):
            table.on_track(event)
        table.on_lines(presses.get(number, []))
        assert table.question is None, (number, table.question)
    assert pipeline.frames_without_mat == 0
    return table


def with_an_undo(actions: list[Action]) -> list[Action]:
    k = next(i for i, a in enumerate(actions) if isinstance(a, Play) and i > 12)
    return [*actions[: k + 1], Undo(1), actions[k], *actions[k + 1 :]]


GAMES = [(2, False, 21), (3, True, 22), (4, True, 23)]


def test_the_scripts_cover_the_table_s_moments() -> None:
    """Between them the filmed games have goes, 31s, his heels, claims, muggins and undos."""
    reasons: set[str] = set()
    for players, muggins, seed in GAMES:
        options = GameOptions(players=players, target=61, dealer=0, muggins=muggins)
        game, actions = random_game(options, seed=seed, known=False)
        reasons |= {e.reason for r in game.records for e in r.events}
        assert any(isinstance(a, Undo) for a in with_an_undo(actions))
    assert {"go", "thirty_one", "his_heels", "hand", "muggins", "last_card"} <= reasons


@pytest.mark.parametrize("find", [False, True], ids=["reads", "finder"])
@pytest.mark.parametrize(("players", "muggins", "seed"), GAMES)
def test_whole_filmed_games_give_the_scripted_record(
    tmp_path: Path, players: int, muggins: bool, seed: int, find: bool
) -> None:
    """With the card finder (``find``) the cards are found on the mat first, and a read
    counts only at a found card's corner: glare, a hand, a card lifted and put back crooked
    and an undo must neither lose a card nor make one where none lies."""
    options = GameOptions(players=players, target=61, dealer=0, muggins=muggins)
    game, actions = random_game(options, seed=seed, known=False)
    script = with_an_undo(actions)
    film(options, script, plain_face, tmp_path, seed=seed, lift_and_return=0.15)
    table = play_back(options, tmp_path, find=find)
    assert table.log.memory == [format_line(a) for a in [*_head(options), *script]]
    result = replay_lines(table.log.memory).game
    assert result.scores == game.scores and result.winner == game.winner


def _head(options: GameOptions) -> list[Action]:
    from crib_pi.actions import NewGame

    return [NewGame(options)]
