"""Learn mode filmed on the mat: each score explained on the screen, an open-hand practice
deal ranked by the coach, and the three guided hands played to their scripted end.

The frames are real images of the printed mat under a tilted camera (``filmstrip.film``) and
the cards are read by the film's ground truth, as in ``test_session``: these tests judge what
the table makes of a learner's game, one deal each to keep them short.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import pytest

from crib_pi.actions import Action, Crib, Deal, Discard, GameOptions, Play, Show
from crib_pi.coach import compare_discard, rank_discards
from crib_pi.commands.session import read_presses
from crib_pi.devices.screen.draw import render
from crib_pi.learn.guided import GUIDED_HANDS
from crib_pi.learn.mode import choice_line
from crib_pi.learn.rules import explain
from crib_pi.mat import Mat
from crib_pi.records import format_line, read_notes, replay_lines
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import OpenHand, TruthReader, film
from crib_pi.session.pipeline import FramePipeline
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.simulate import random_game
from crib_pi.snapshot import BoardSnapshot
from crib_pi.store import GameLog


def play_back(
    options: GameOptions, out: Path, guided: int = 0
) -> tuple[TableSession, list[BoardSnapshot]]:
    """The film through the pipeline and a learn-mode table; every screen it showed."""
    table = TableSession(options, GameLog(None), Tracker(stable=3))
    table.set_learn(True, guided)
    pipeline = FramePipeline(Mat(options.players), TruthReader(out / "truth.jsonl"), table.tracker)
    presses = read_presses(out / "buttons.jsonl")
    screens = [table.snapshot()]
    for number, path in enumerate(sorted((out / "frames").iterdir())):
        for event in pipeline.process(cv2.imread(str(path))):
            table.on_track(event)
            screens.append(table.snapshot())
        table.on_lines(presses.get(number, []))
        screens.append(table.snapshot())
        assert table.question is None, (number, table.question)
    return table, screens


def first_deal(options: GameOptions, seed: int, *, known: bool) -> list[Action]:
    _, actions = random_game(options, seed=seed, known=known)
    end = next(i for i, a in enumerate(actions) if isinstance(a, Crib))
    return list(actions[: end + 1])


def shown(screens: list[BoardSnapshot]) -> set[str]:
    return {line for s in screens for line in s.learn}


def words_on(screen: BoardSnapshot) -> list[str]:
    """Every text a person reads on the screen."""
    return [
        screen.prompt,
        screen.last_text,
        *screen.learn,
        *screen.flags,
        *(side.name for side in screen.sides),
    ]


def test_a_filmed_learn_mode_deal_explains_every_score(tmp_path: Path) -> None:
    options = GameOptions(players=2, target=121, dealer=0, names=("Alice", "Bob"))
    script = first_deal(options, seed=5, known=False)
    film(options, script, plain_face, tmp_path, seed=5, lift_and_return=0.0)
    table, screens = play_back(options, tmp_path)
    assert table.log.memory[1:] == [format_line(a) for a in script]
    said = shown(screens)
    events = [e for r in table.game.records for e in r.events]
    assert len(events) >= 8  # the play's points, two shows and a crib
    for event in events:
        assert explain(event) in said, event
    assert any(line.startswith("The play:") for line in said)
    assert any(line.startswith("The crib:") for line in said)
    words = [w for screen in screens for w in words_on(screen)]
    assert not [w for w in words if re.search(r"\b(player|joueur) \d", w, re.IGNORECASE)]
    assert any(w.startswith("Alice lays") for w in words)
    assert any(w.startswith("Bob to play") for w in words)
    image = render(screens[-1], (800, 480))  # the learn panel is drawn, not just computed
    assert image.get_size() == (800, 480)


def test_a_filmed_open_hand_practice_ranks_the_discards(tmp_path: Path) -> None:
    options = GameOptions(players=2, target=121, dealer=0)
    full = first_deal(options, seed=8, known=True)
    deal = next(a for a in full if isinstance(a, Deal))
    away = next(a for a in full if isinstance(a, Discard) and a.player == 1)
    practice = OpenHand(1, deal.hands[1], away.cards)
    table_part = [a for a in full if not isinstance(a, Deal | Discard)]  # hands unknown
    film(options, [practice, *table_part], plain_face, tmp_path, seed=8, lift_and_return=0.0)
    table, screens = play_back(options, tmp_path)
    ranked = rank_discards(deal.hands[1], players=2, dealer=False)
    said = shown(screens)
    assert "Coach for Player 2 (not dealing), best discards of 15:" in said
    for n, choice in enumerate(ranked[:3], start=1):
        assert choice_line(n, choice) in said
    verdict = compare_discard(ranked, away.cards)
    notes = [n for _, n in read_notes(table.log.memory)]
    assert len(notes) == 1 and notes[0]["place"] == verdict.place
    assert notes[0]["chosen"]["discard"] == [str(c) for c in verdict.chosen.discard]
    assert abs(notes[0]["lost"] - verdict.lost) < 1e-9
    # the practice cards were read again when played, and the deal scored as scripted
    actions = [json.loads(x) for x in table.log.memory[1:] if "practice" not in x]
    played = [a.to_json() for a in table_part if not isinstance(a, Show)]
    assert [a for a in actions if "show" not in a] == played
    reference = replay_lines([format_line(a) for a in [*_head(options), *full]]).game
    assert table.game.scores == reference.scores  # the practice changed no score
    assert replay_lines(table.log.memory).game.scores == reference.scores


@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_filmed_guided_hand_ends_as_scripted(tmp_path: Path, number: int) -> None:
    hand = GUIDED_HANDS[number - 1]
    film(hand.options, hand.table_record, plain_face, tmp_path, seed=number, lift_and_return=0.0)
    table, screens = play_back(hand.options, tmp_path, guided=number)
    assert table.game.scores == hand.final_scores
    logged = [json.loads(x) for x in table.log.memory[1:] if "show" not in x]
    assert logged == [a.to_json() for a in hand.script]
    said = shown(screens)
    for action in hand.script:
        if isinstance(action, Play):  # the screen said where to lay each card, before it was
            assert any(
                line.startswith(f"Player {action.player + 1}: lay {action.card} in your zone")
                for line in said
            ), action
    assert any("ended as scripted" in line for line in screens[-1].learn)
    assert not any("not the script" in line for line in said)


def _head(options: GameOptions) -> list[Action]:
    from crib_pi.actions import NewGame

    return [NewGame(options)]
