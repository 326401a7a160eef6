"""Game records: the JSON-lines format, replay results, and bad lines named by number."""

from __future__ import annotations

import json

import pytest

from crib_pi.actions import GameOptions, NewGame
from crib_pi.errors import RecordError
from crib_pi.records import format_line, read_lines, replay_lines
from crib_pi.simulate import random_game

HEAD = '{"game": {"players": 2, "target": 121, "dealer": 0, "muggins": false}}'


def lines(*body: str) -> list[str]:
    return [HEAD, *body]


def test_every_action_round_trips_through_its_line() -> None:
    opts = GameOptions(players=3, muggins=True)
    _, actions = random_game(opts, seed=3)
    text = [format_line(NewGame(opts))] + [format_line(a) for a in actions]
    assert [a for _, a in read_lines(text)][1:] == actions


def test_replay_summary() -> None:
    r = replay_lines(
        lines(
            '{"cut": "JS"}',
            '{"play": [1, "5H"]}',
            '{"play": [0, "TD"]}',
            '{"play": [1, "5S"]}',
            '{"undo": 1}',
            '{"play": [1, "10♠"]}',
        )
    )
    s = r.summary()
    assert s["scores"] == [4, 2]
    assert [(e["line"], e["player"], e["points"], e["reason"]) for e in s["events"]] == [
        (2, 0, 2, "his_heels"),
        (4, 0, 2, "fifteen"),
        (7, 1, 2, "pair"),  # the undone 5S (line 5) scored nothing and is gone
    ]
    assert s["winner"] is None and s["skunk"] == "none" and s["problems"] == []
    json.dumps(s)


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        (['{"cut": "JS"'], 2, "not JSON"),
        (['{"cut": "1S"}'], 2, "'1S'"),
        (['{"cut": "5S"}', '{"play": [0, "5H"]}'], 3, "it is Player 2's turn"),
        (['{"cut": "5S"}', '{"play": [1, "KH"]}', '{"play": [0, "KH"]}'], 4, "already played"),
        (['{"cut": "5S"}', '{"claim": [1, 5]}'], 3, "muggins is off"),
        (['{"cut": "5S"}', '{"undo": 3}'], 3, "only 1 to undo"),
        (['{"shuffle": 1}'], 2, "unknown record line 'shuffle'"),
        (['{"cut": "5S", "play": [1, "KH"]}'], 2, "one key"),
    ],
)
def test_bad_lines_are_named(body: list[str], line: int, message: str) -> None:
    with pytest.raises(RecordError) as err:
        replay_lines(lines(*body))
    assert err.value.line == line
    assert message in str(err.value)
    assert str(err.value).startswith(f"line {line}: ")


def test_record_must_start_with_a_game_line() -> None:
    with pytest.raises(RecordError, match="line 1: a record starts with a 'game' line"):
        replay_lines(['{"cut": "JS"}'])
    with pytest.raises(RecordError, match="unknown game option 'colour'"):
        replay_lines(['{"game": {"players": 2, "colour": "red"}}'])
    with pytest.raises(RecordError, match="players must be 2, 3 or 4"):
        replay_lines(['{"game": {"players": 5}}'])
