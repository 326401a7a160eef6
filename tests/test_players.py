"""The demo's scripted players put a faulty camera right with the table's own inputs only."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import pytest

from crib_pi.actions import Action, GameOptions, Play, Undo
from crib_pi.cards import Card
from crib_pi.commands.session import read_presses
from crib_pi.mat import Mat
from crib_pi.records import replay_lines
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import TruthReader, film, read_settled
from crib_pi.session.pipeline import FramePipeline
from crib_pi.session.players import ScriptedPlayers, same_game
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog


@dataclass(frozen=True)
class _Unsure:
    candidates: tuple[Card, ...]
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class _Reading:
    cards: tuple[Any, ...]
    uncertain: tuple[_Unsure, ...]


class FaultyReader:
    """The film's ground truth, but blind to one card, confusing another with a third, and
    unsure of a fourth (offering it second among its candidates)."""

    def __init__(self, truth: Path, blind: Card, confused: tuple[Card, Card], unsure: Card):
        self.truth = TruthReader(truth)
        self.blind, self.confused, self.unsure = blind, confused, unsure

    def read(self, bgr: Any) -> _Reading:
        reading = self.truth.read(bgr)
        cards, uncertain = [], []
        for r in reading.cards:
            if r.card == self.blind:
                continue
            if r.card == self.unsure:
                decoy = Card.from_index((r.card.index + 13) % 52)
                uncertain.append(_Unsure((decoy, r.card), r.corners))
            elif r.card == self.confused[0]:
                cards.append(replace(r, card=self.confused[1]))
            else:
                cards.append(r)
        return _Reading(tuple(cards), tuple(uncertain))


def _plays(actions: list[Action], first: int) -> list[Play]:
    return [a for a in actions[first:] if isinstance(a, Play)]


@pytest.mark.parametrize("seed", [31, 32])
def test_scripted_players_end_with_the_scripted_game(tmp_path: Path, seed: int) -> None:
    options = GameOptions(players=2, target=61, dealer=0)
    game, actions = random_game(options, seed=seed, known=False)
    film(options, actions, plain_face, tmp_path, seed=seed)
    plays = _plays(actions, 0)
    played = {p.card for p in plays}
    # A confusion that the rules cannot catch: a card that is legal in its place is read as
    # another card that was never played in this game and is low enough to be legal too.
    victim = next(p.card for p in plays[6:] if p.card.value <= 5)
    decoy = next(c for c in map(Card.from_index, range(52)) if c not in played and c.value == 1)
    blind, unsure = plays[3].card, plays[10].card
    assert len({blind, unsure, victim}) == 3
    reader = FaultyReader(tmp_path / "truth.jsonl", blind, (victim, decoy), unsure)
    players = ScriptedPlayers.from_film(actions, read_settled(tmp_path))
    table = TableSession(options, GameLog(None), Tracker(stable=3))
    pipeline = FramePipeline(Mat(2), reader, table.tracker)
    presses = read_presses(tmp_path / "buttons.jsonl")
    for number, path in enumerate(sorted((tmp_path / "frames").iterdir())):
        for event in pipeline.process(cv2.imread(str(path))):
            table.on_track(event)
        players.after_frame(table, number, presses.get(number, []))
    players.finish(table)
    assert same_game([r.action for r in table.game.records], actions)
    assert table.game.scores == game.scores and table.game.winner == game.winner
    assert blind in players.typed and victim in players.typed
    assert players.answered >= 1
    if seed == 31:
        # Here the decoy is legal where the victim was played, so the board took it until the
        # players saw it and pressed Undo; the log keeps the undo line.
        assert any(getattr(a, "card", None) == decoy for a in players.taken_back)
        assert any(line.startswith('{"undo"') for line in table.log.memory)
    assert replay_lines(table.log.memory).game.scores == game.scores


def test_a_script_with_an_undo_is_refused() -> None:
    options = GameOptions(players=2, target=61, dealer=0)
    _, actions = random_game(options, seed=1, known=False)
    with pytest.raises(ValueError, match="undo"):
        ScriptedPlayers.from_film([actions[0], Undo(1)], [])
