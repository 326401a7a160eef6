"""The table session fed what the tracker and buttons would say: the game record comes out."""

from __future__ import annotations

import json

import pytest

from crib_pi.actions import (
    Action,
    ChooseDealer,
    Claim,
    Crib,
    Cut,
    CutForDeal,
    GameOptions,
    Go,
    Muggins,
    Play,
    Show,
    Undo,
)
from crib_pi.cards import Card
from crib_pi.records import format_line, replay_lines
from crib_pi.session.table import Press, TableSession, TypedCard
from crib_pi.session.tracker import CardLaid, CardUnsure, Sighting
from crib_pi.simulate import random_game
from crib_pi.store import GameLog

C = Card.parse


def _canonical(lines: list[str]) -> list[str]:
    """Record lines with each shown hand's cards sorted (their order means nothing)."""
    out = []
    for line in lines:
        data = json.loads(line)
        if "show" in data:
            data["show"][1].sort()
        if "crib" in data:
            data["crib"].sort()
        out.append(json.dumps(data))
    return out


def session(options: GameOptions) -> TableSession:
    return TableSession(options, GameLog(None))


def feed(table: TableSession, action: Action) -> None:
    """What the players do at the table for one scripted action."""
    if isinstance(action, Cut):
        table.on_track(CardLaid(action.card, "starter", (0, 0)))
    elif isinstance(action, Play):
        table.on_track(CardLaid(action.card, f"player {action.player}", (0, 0)))
    elif isinstance(action, Go):
        table.on_press(Press("go", action.player))
    elif isinstance(action, Crib):
        for card in action.cards:
            table.on_track(CardLaid(card, "crib", (0, 0)))
    elif isinstance(action, Claim):
        for _ in range(action.points):
            table.on_press(Press("go"))
        table.on_press(Press("confirm"))
    elif isinstance(action, Muggins):
        table.on_press(Press("go", action.player))
    elif isinstance(action, CutForDeal):
        for player, card in enumerate(action.cards):
            table.on_track(CardLaid(card, f"player {player}", (0, 0)))
    elif isinstance(action, ChooseDealer):
        table.on_press(Press("confirm", action.player))
    elif isinstance(action, Undo):
        table.on_press(Press("undo"))
    elif isinstance(action, Show):
        return  # the played cards are on the mat: the session shows them itself
    else:
        raise AssertionError(action)


def play_script(options: GameOptions, actions: list[Action]) -> TableSession:
    table = session(options)
    for i, action in enumerate(actions):
        feed(table, action)
        assert table.question is None, (i, action, table.question)
        if table.waiting_for_next_deal:
            # declined muggins windows and cleared mats are part of the table's routine
            nxt = actions[i + 1] if i + 1 < len(actions) else None
            if not isinstance(nxt, Muggins):
                if table.muggins_open:
                    table.on_press(Press("confirm"))
                table.on_press(Press("confirm"))
        elif (
            table.muggins_open and i + 1 < len(actions) and not isinstance(actions[i + 1], Muggins)
        ):
            table.on_press(Press("confirm"))
    return table


@pytest.mark.parametrize(
    ("players", "muggins", "seed"),
    [(2, False, 1), (3, False, 2), (4, False, 3), (2, True, 4), (3, True, 5), (4, True, 6)],
)
def test_scripted_games_give_the_same_record(players: int, muggins: bool, seed: int) -> None:
    options = GameOptions(players=players, muggins=muggins, target=61)
    game, actions = random_game(options, seed=seed, known=False)
    table = play_script(options, actions)
    assert _canonical(table.log.memory[1:]) == _canonical([format_line(a) for a in actions])
    replayed = replay_lines(table.log.memory).game
    assert replayed.scores == game.scores and replayed.winner == game.winner


def test_out_of_turn_card_is_a_question_not_a_score() -> None:
    table = session(GameOptions(players=2, dealer=0))
    table.on_track(CardLaid(C("JS"), "starter", (0, 0)))
    assert table.game.scores == (2, 0)  # his heels at once
    table.on_track(CardLaid(C("5H"), "player 0", (0, 0)))  # player 1 leads, not 0
    assert table.question is not None and "it is Player 2's turn" in table.question.text
    assert table.game.played(0) == () and table.game.played(1) == ()
    assert "Confirm: Player 2 plays 5H" in table.snapshot().prompt
    table.on_press(Press("confirm"))  # it was player 1's card in the wrong place
    assert table.game.played(1) == (C("5H"),) and table.question is None
    table.on_track(CardLaid(C("KH"), "player 0", (0, 0)))
    assert table.game.scores == (4, 0)  # fifteen


def test_past_31_is_refused_and_undo_takes_back() -> None:
    table = session(GameOptions(players=2, dealer=0))
    for card, zone in [("2C", "starter"), ("KH", "player 1"), ("QH", "player 0")]:
        table.on_track(CardLaid(C(card), zone, (0, 0)))
    table.on_track(CardLaid(C("JH"), "player 1", (0, 0)))  # 30
    table.on_track(CardLaid(C("5D"), "player 0", (0, 0)))  # 35: no
    # nothing to choose: a notice, not a question, so the next press is not swallowed
    assert table.question is None and "would make the count 35" in table.message
    assert table.game.count == 30
    table.on_press(Press("undo"))  # take back JH
    assert table.game.count == 20 and table.log.memory[-1] == '{"undo": 1}'
    assert C("JH") not in table.game.played(1)


def test_unsure_read_asks_with_candidates_and_typed_cards_play() -> None:
    table = session(GameOptions(players=2, dealer=1))
    table.on_typed(TypedCard(C("9S")))  # camera down: the starter typed in
    assert table.game.starter == C("9S")
    table.on_track(CardUnsure((C("6H"), C("6D")), "player 0", (0, 0)))
    assert table.question is not None and len(table.question.actions) == 2
    table.on_press(Press("go"))  # next choice
    table.on_press(Press("confirm"))
    assert table.game.played(0) == (C("6D"),)
    table.on_typed(TypedCard(C("9D")))  # player 1's turn: 15
    assert table.game.scores == (0, 2)


def test_an_unclear_card_read_for_sure_later_withdraws_its_question() -> None:
    table = session(GameOptions(players=2, dealer=1))
    table.on_typed(TypedCard(C("9S")))
    table.on_track(CardUnsure((C("6H"), C("6D")), "player 0", (0, 0)))
    assert table.question is not None
    table.on_track(CardLaid(C("6D"), "player 0", (0, 0)))  # the camera now reads it
    assert table.question is None and table.game.played(0) == (C("6D"),)
    table.on_typed(TypedCard(C("9D")))  # player 1
    # another unclear card: a different card read for sure does not answer for it
    table.on_track(CardUnsure((C("2H"), C("2D")), "player 0", (0, 0)))
    table.on_track(CardLaid(C("AC"), "player 0", (0, 0)))
    assert table.question is not None and "2H" in table.question.text


def test_a_card_answered_where_it_was_asked_is_not_laid_as_another_read_there_later() -> None:
    """An index read two ways (JH or 8H) is asked about and answered 8H. The same index read
    later for sure as JH, on a frame the reader misread, is that 8H misread: asked about, never
    laid as a JH that was never played there; and the card answered stays the one played."""
    table = session(GameOptions(players=2, dealer=1))
    table.on_typed(TypedCard(C("9S")))
    place = (552.0, 873.0)
    for sightings in [[Sighting(None, "player 0", place, (C("JH"), C("8H")))]] * 3:
        for event in table.tracker.update(sightings):
            table.on_track(event)
    again = TableSession(table.options, table.log)  # a restart while it is asked
    assert again.restore(json.loads(json.dumps(table.state())))
    q = again.question
    assert q is not None and q.centre == place
    again.on_press(Press("go"))
    again.on_press(Press("confirm"))
    assert again.game.played(0) == (C("8H"),) and again.question is None
    events = []
    for sightings in [[Sighting(C("JH"), "player 0", (place[0] + 2, place[1]))]] * 4:
        events += again.tracker.update(sightings)
    assert not [e for e in events if isinstance(e, CardLaid)], events
    assert [e.candidates for e in events if isinstance(e, CardUnsure)] == [(C("JH"), C("8H"))]


def test_an_unclear_card_laid_before_its_turn_is_asked_about_when_the_turn_comes() -> None:
    """Player 0 lays before player 1's card is on the board (the camera missed it, or not yet
    read): nothing to offer yet, as player 0 cannot play now. The question comes as soon as
    player 1's card is, not never."""
    table = session(GameOptions(players=2, dealer=0))  # player 1 plays first
    table.on_typed(TypedCard(C("9S")))
    table.on_track(CardUnsure((C("6H"), C("6D")), "player 0", (0, 0)))
    assert table.question is None and table.game.turn == 1
    table.on_typed(TypedCard(C("KC")))  # player 1's card, typed in
    q = table.question
    assert q is not None and q.zone == "player 0" and "6H" in q.text
    assert [a for a in q.actions] == [Play(0, C("6H")), Play(0, C("6D"))]
    table.on_press(Press("confirm"))
    assert table.game.played(0) == (C("6H"),)
    state = table.state()
    assert state["deferred"] == []


def test_an_unclear_card_laid_before_the_go_that_lets_it_come_is_asked_after_it() -> None:
    """At 26 player 0 lays a queen before pressing Go (the count is reset by the Goes): it
    cannot be played at 26, and is asked about once the count is back to 0, not dropped."""
    table = session(GameOptions(players=2, dealer=0))  # player 1 plays first
    table.on_typed(TypedCard(C("9S")))
    for card in ("KC", "KD", "6C"):  # 10, 20, 26
        table.on_typed(TypedCard(C(card)))
    table.on_track(CardUnsure((C("QS"), C("QC")), "player 0", (0, 0)))
    assert table.question is None and table.game.count == 26
    table.on_press(Press("go", 0))
    assert table.question is None  # player 1 may still play at 26
    table.on_press(Press("go", 1))  # the count starts again, player 0 to lead
    q = table.question
    assert q is not None and q.zone == "player 0" and "QS QC" in q.text
    table.on_press(Press("confirm"))
    assert table.game.played(0) == (C("KD"), C("QS")) and table.game.count == 10


def test_unclear_cards_laid_early_are_asked_in_turn_and_once_each() -> None:
    """Two players lay before the first; one of them is seen unclear twice (lifted and laid
    again). Each is asked as its turn comes, and the second sighting of a card already
    settled is not asked again. A table restarted meanwhile keeps what waits. A card found
    and not read at all, out of turn, is only a notice: most often one already played,
    lifted and put back."""
    table = session(GameOptions(players=3, dealer=0))  # players 1, 2, 0 in turn
    table.on_typed(TypedCard(C("9S")))
    table.on_track(CardUnsure((C("4H"), C("4D")), "player 2", (0, 0)))
    table.on_track(CardUnsure((C("8H"), C("8D")), "player 0", (0, 0)))
    table.on_track(CardUnsure((C("8D"), C("8H")), "player 0", (0, 0), flipped=True))
    table.on_track(CardUnsure((C("5C"),), "player 0", (0, 0), unread=True))
    assert table.question is None and len(table.state()["deferred"]) == 3
    again = TableSession(table.options, table.log)
    assert again.restore(table.state()) and again.deferred == table.deferred
    table.on_track(CardLaid(C("KC"), "player 1", (0, 0)))
    q = table.question  # player 2's turn
    assert q is not None and q.zone == "player 2" and "4H 4D" in q.text
    table.on_press(Press("confirm"))
    assert table.game.played(2) == (C("4H"),)
    q = table.question  # player 0's turn
    assert q is not None and q.zone == "player 0" and "8H 8D" in q.text
    table.on_track(CardLaid(C("8D"), "player 0", (0, 0)))  # now read for sure
    assert table.game.played(0) == (C("8D"),) and table.question is None
    assert table.deferred == []


def test_cut_for_deal_tie_then_lowest_deals() -> None:
    table = session(GameOptions(players=2, dealer=None))
    table.on_track(CardLaid(C("5H"), "player 0", (0, 0)))
    table.on_track(CardLaid(C("5D"), "player 1", (0, 0)))
    assert table.game.dealer is None and "cut again" in table.message
    table.on_track(CardLaid(C("2C"), "player 0", (0, 0)))
    table.on_track(CardLaid(C("9C"), "player 1", (0, 0)))
    assert table.game.dealer == 0
    assert table.log.memory[1:] == [
        '{"cut_for_deal": ["5H", "5D"]}',
        '{"cut_for_deal": ["2C", "9C"]}',
    ]


def test_scripted_game_with_an_undo() -> None:
    options = GameOptions(players=2, target=61)
    game, actions = random_game(options, seed=11, known=False)
    k = next(i for i, a in enumerate(actions) if isinstance(a, Play) and i > 20)
    script = [*actions[: k + 1], Undo(1), actions[k], *actions[k + 1 :]]
    table = play_script(options, script)
    assert _canonical(table.log.memory[1:]) == _canonical([format_line(a) for a in script])
    assert replay_lines(table.log.memory).game.scores == game.scores
