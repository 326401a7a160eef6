"""Property tests over random legal games for 2, 3 and 4 players (hypothesis)."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from crib_pi.actions import GameOptions, Go, NewGame, Undo
from crib_pi.game import Game
from crib_pi.records import format_line, replay_lines
from crib_pi.simulate import random_game

options = st.builds(
    GameOptions,
    players=st.sampled_from([2, 3, 4]),
    target=st.sampled_from([61, 121]),
    dealer=st.integers(0, 1),
    muggins=st.booleans(),
    triple_skunk=st.booleans(),
)
seeds = st.integers(0, 2**32 - 1)
SETTINGS = settings(deadline=None)  # examples: the profile's (tests/conftest.py)


def replayed(opts: GameOptions, seed: int, known: bool) -> tuple[Game, list]:
    game, actions = random_game(opts, seed, known=known)
    return game, actions


@SETTINGS
@given(options, seeds, st.booleans())
def test_game_invariants(opts: GameOptions, seed: int, known: bool) -> None:
    _, actions = replayed(opts, seed, known)
    game = Game(opts)
    last = [0] * opts.sides
    pegged = [0] * opts.sides
    for action in actions:
        record = game.apply(action)
        assert 0 <= game.count <= 31
        assert len(set(game.pile)) == len(game.pile)
        for event in record.events:
            assert event.points > 0
            pegged[event.side] += event.points
        assert list(game.scores) == pegged  # totals are the sum of the records
        assert all(now >= before for now, before in zip(game.scores, last, strict=True))
        last = list(game.scores)
        if game.phase == "play":
            seen = [c for p in range(opts.players) for c in game.played(p)]
            assert len(seen) == len(set(seen)) and game.starter not in seen
    assert game.winner is not None
    assert game.scores[game.winner] == opts.target  # the winner stops at the target
    assert max(s for i, s in enumerate(game.scores) if i != game.winner) < opts.target
    assert game.phase == "over" and not game.can(Go(game.turn or 0))


@SETTINGS
@given(options, seeds, st.booleans(), st.randoms(use_true_random=False))
def test_undo_then_redo_gives_the_same_state(
    opts: GameOptions, seed: int, known: bool, rnd: random.Random
) -> None:
    _, actions = replayed(opts, seed, known)
    game = Game(opts)
    for i, action in enumerate(actions):
        game.apply(action)
        if rnd.random() < 0.1:
            back = rnd.randint(1, i + 1)
            state = copy.deepcopy(game._state)
            records = game.records
            game.undo(back)
            assert len(game.records) == len(records) - back
            for redo in actions[i + 1 - back : i + 1]:
                game.apply(redo)
            assert game._state == state
            assert game.records == records


@SETTINGS
@given(options, seeds, st.booleans(), st.randoms(use_true_random=False))
def test_a_record_replays_to_the_same_result(
    opts: GameOptions, seed: int, known: bool, rnd: random.Random
) -> None:
    game, actions = replayed(opts, seed, known)
    lines = [format_line(NewGame(opts))]
    for action in actions:
        lines.append(format_line(action))
        if rnd.random() < 0.05:  # an undo line followed by the same action again
            lines.append(format_line(Undo(1)))
            lines.append(format_line(action))
    replay = replay_lines(lines)
    assert replay.game.scores == game.scores
    assert replay.game.winner == game.winner
    assert replay.game.records == game.records
    summary = replay.summary()
    for side in range(opts.sides):
        assert sum(e["points"] for e in summary["events"] if e["side"] == side) == game.scores[side]
