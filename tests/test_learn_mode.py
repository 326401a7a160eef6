"""Learn mode at the table: the rule behind each score, cautions, open-hand practice, the
guided hands' scripts and the hold of Confirm, fed as the tracker and buttons would feed it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crib_pi.actions import Crib, Cut, GameOptions, Go, Play, Show
from crib_pi.app import Assistant
from crib_pi.cards import Card, parse_cards
from crib_pi.coach import rank_discards
from crib_pi.config import ConfigError, from_mapping
from crib_pi.devices import make_devices
from crib_pi.devices.clock import FakeClock
from crib_pi.errors import CribError, RecordError
from crib_pi.game import Game
from crib_pi.learn.guided import GUIDED_HANDS, Guide
from crib_pi.learn.mode import LearnMode, choice_line, general_caution
from crib_pi.learn.rules import explain
from crib_pi.records import parse_line, read_notes, replay_lines
from crib_pi.scoring import score_hand
from crib_pi.session.pipeline import NoRecognizer
from crib_pi.session.table import Press, TableSession
from crib_pi.session.tracker import CardLaid
from crib_pi.simulate import random_game
from crib_pi.store import GameLog, GameStore

C = Card.parse


def learning(options: GameOptions | None = None, guided: int = 0) -> TableSession:
    table = TableSession(options or GameOptions(dealer=0), GameLog(None))
    table.set_learn(True, guided)
    return table


def lay(table: TableSession, zone: str, cards: str) -> None:
    for card in cards.split():
        table.on_track(CardLaid(C(card), zone, (0, 0)))


def test_open_hand_practice_ranks_the_discards_and_keeps_a_note() -> None:
    table = learning()
    lay(table, "player 1", "7C 9H 5H 5C 5D")
    assert "5 of 6 cards" in table.message and not any("Coach" in s for s in table.snapshot().learn)
    lay(table, "player 1", "JS")
    learn = table.snapshot().learn
    ranked = rank_discards(parse_cards("7C 9H 5H 5C 5D JS".split()), dealer=False)
    at = learn.index("Coach for Player 2 (not dealing), best discards of 15:")
    assert list(learn[at + 1 : at + 4]) == [choice_line(n, c) for n, c in enumerate(ranked[:3], 1)]
    assert ranked[0].net >= ranked[1].net >= ranked[2].net
    assert table.game.records == () and len(table.log.memory) == 1  # nothing played or logged
    lay(table, "crib", "5H 5D")
    place = 1 + sum(1 for c in ranked if c.net > next(
        r.net for r in ranked if set(map(str, r.discard)) == {"5H", "5D"}) + 1e-9)  # fmt: skip
    assert f"is number {place} of 15" in table.message and "below 7C 9H" in table.message
    note = json.loads(table.log.memory[-1])["practice"]
    assert note["hand"] == "7C 9H 5H 5C 5D JS".split() and note["place"] == place
    assert note["chosen"]["discard"] == ["5H", "5D"] and note["best"]["discard"] == ["7C", "9H"]
    assert note["dealer"] is False and len(note["top"]) == 3 and note["top"][0] == note["best"]
    # the kept hand is known now: the play's cautions name its cards
    lay(table, "starter", "2D")
    assert table.game.starter == C("2D") and table.learn is not None and not table.learn.practice
    caution = table.snapshot().learn[-1]  # Bob to lead, holding 7C 9H 5C JS
    assert caution.startswith("Careful: 5C leaves the count at 5: a ten, jack, queen or king")
    lay(table, "player 1", "5C")  # Bob leads the five all the same
    lay(table, "player 0", "5S")  # a pair for Alice
    assert not table.snapshot().learn[-1].startswith("Careful")  # 7C, 9H, JS invite nothing
    # the record replays to the same game with the note, and the note can be read back
    replayed = replay_lines(table.log.memory)
    assert replayed.game.scores == table.game.scores == (2, 0)
    assert [n for _, n in read_notes(table.log.memory)] == [note]


def test_a_crib_card_not_in_a_practice_hand_is_not_practice() -> None:
    table = learning()
    lay(table, "crib", "4D")  # the crib laid face up by someone not practising
    assert table.learn is not None and table.learn.practice == {}
    assert not any(json.loads(line).get("practice") for line in table.log.memory)


def test_learn_mode_explains_every_score_of_a_deal() -> None:
    options = GameOptions(players=2, target=121, dealer=0)
    _, actions = random_game(options, seed=3, known=False)
    table = learning(options)
    deal = []
    for action in actions:
        deal.append(action)
        if isinstance(action, Crib):
            break
    explained = 0
    for action in deal:
        before = len(table.game.records)
        if isinstance(action, Cut):
            lay(table, "starter", str(action.card))
        elif isinstance(action, Play):
            lay(table, f"player {action.player}", str(action.card))
        elif isinstance(action, Go):
            table.on_press(Press("go", action.player))
        elif isinstance(action, Crib):
            lay(table, "crib", " ".join(map(str, action.cards)))
        elif isinstance(action, Show):
            continue
        shown = table.snapshot().learn
        for record in table.game.records[before:]:
            for event in record.events:
                assert explain(event) in shown, (action, event, shown)
                explained += 1
    assert explained >= 6  # the deal has shows and a crib, each explained


def test_every_step_says_what_comes_next() -> None:
    table = learning(GameOptions(dealer=None))
    assert table.snapshot().learn[0].startswith("Cut for deal")
    lay(table, "player 0", "2C")
    lay(table, "player 1", "9C")
    assert table.snapshot().learn[0].startswith("Deal: the dealer (Player 1) deals six cards")
    lay(table, "starter", "4S")
    assert table.snapshot().learn[0].startswith("The play:")


def test_general_caution_names_the_risky_ranks() -> None:
    five = general_caution((C("5H"),), [C("5H"), C("2D")])
    assert five is not None and "another five" in five and "pair royal" in five
    at_eleven = general_caution(tuple(parse_cards(["6H", "5S"])), parse_cards(["6H", "5S"]))
    assert at_eleven is not None and "leaves 21: any ten-card makes 31" in at_eleven
    assert "a ten, jack, queen or king leaves 21" in at_eleven
    at_29 = tuple(parse_cards(["KH", "QH", "9D"]))  # only a two makes 31, no pair fits
    assert general_caution(at_29, list(at_29)) is None


def test_learn_mode_is_off_by_default_and_its_panel_empty() -> None:
    table = TableSession(GameOptions(dealer=0), GameLog(None))
    lay(table, "player 1", "7C 9H 5H 5C 5D JS")
    assert table.snapshot().learn == () and table.learn is None
    assert len(table.log.memory) == 1


def test_a_hold_of_confirm_turns_learn_mode_on_and_off() -> None:
    clock = FakeClock()
    devices = make_devices(backend="mock", clock=clock)
    table = TableSession(GameOptions(dealer=0), GameLog(None))
    assistant = Assistant(devices, table, NoRecognizer())
    buttons = devices.buttons
    for expected in (True, False):
        buttons.press("confirm")  # type: ignore[attr-defined]
        clock.advance(1.0)
        assert assistant._step()
        buttons.release("confirm")  # type: ignore[attr-defined]
        clock.advance(1.0)
        assistant._step()
        assert (table.learn is not None) is expected
        assert table.message == ("learn mode on" if expected else "learn mode off")
    assert table.game.records == ()  # the hold pressed nothing else
    devices.close()


def test_learn_mode_survives_a_restart() -> None:
    table = learning(GameOptions(dealer=0), guided=0)
    state = table.state()
    again = TableSession(GameOptions(dealer=0), GameLog(None, lines=list(table.log.memory)))
    assert again.restore(state) and again.learn is not None


def test_config_turns_learn_mode_and_guided_hands_on() -> None:
    config = from_mapping({"session": {"learn": True}})
    assert config.session.learn and config.session.guided == 0
    guided = from_mapping({"game": {"dealer": 0}, "session": {"guided": 2}})
    assert guided.session.learn and guided.session.guided == 2
    with pytest.raises(ConfigError, match=r"session\.guided = 4"):
        from_mapping({"game": {"dealer": 0}, "session": {"guided": 4}})
    with pytest.raises(ConfigError, match=r"game\.dealer = 0"):
        from_mapping({"session": {"guided": 1}})
    with pytest.raises(ConfigError, match=r"game\.muggins = false"):
        from_mapping({"game": {"dealer": 0, "muggins": True}, "session": {"guided": 1}})
    with pytest.raises(ConfigError, match="wrong type"):
        from_mapping({"session": {"learn": "yes"}})


def test_guided_hands_for_other_tables_are_refused() -> None:
    table = TableSession(GameOptions(players=3, dealer=0), GameLog(None))
    with pytest.raises(CribError, match="guided hand 1 is for 2 players"):
        table.set_learn(True, 1)
    named = TableSession(GameOptions(dealer=0, target=61, names=("Ann", "Bob")), GameLog(None))
    named.set_learn(True, 1)  # names and the target do not matter to one deal
    assert named.learn is not None and named.learn.guide is not None
    with pytest.raises(CribError, match="guided hand 5"):
        Guide(5)


# -- the guided hands' scripts, checked against counts made by hand -------------------------

# Counted by hand. Hand 1, Alice (dealer): play 15 (7C 8S) 2, pair 7H 2, go 1, last card 1;
# show 7H 8S 5C JD + 3D: 7+8, 5+J, 7+5+3 = 6, nobs 1; crib KH 2S 4H QC + 3D: 2+3+K, 2+3+Q = 4,
# run 2-3-4 = 3. Alice 6 + 7 + 7 = 20. Bob: show 7C 7D 6H 9D + 3D: 6+9 = 2, pair 2 = 4.
# Hand 2, Bob: play run 3-4-5 3, pair 6s 2, go 1; show 3S 5H 6C 8D + 7H: 8+7, 3+5+7 = 4, run
# 5-6-7-8 = 4: 14. Alice: play run of four 4, last card 1; show 4C 6D 9S 9H + 7H: 6+9 twice 4,
# pair 2; crib JC AD KC QS + 7H: run J-Q-K 3: 14.
# Hand 3, Alice: play run 2-3-4 3, last card 1; show 2H 4H 8H JH + 6H: flush of five 5, nobs 1;
# crib KD QS 5S 5D + 6H: four fifteens 8, pair 2: 20. Bob: go 1; show 10C 3C 9C 5C + 6H: 10+5,
# 9+6 = 4, flush of four 4: 9.
HAND_COUNTED = {1: (20, 4), 2: (14, 14), 3: (20, 9)}


@pytest.mark.parametrize("number", [1, 2, 3])
def test_each_guided_hand_plays_legally_to_the_end_of_its_deal(number: int) -> None:
    hand = GUIDED_HANDS[number - 1]
    game = Game(hand.options)
    for action in hand.script:  # what the table sees, without the hands known
        game.apply(action)
        while game.phase == "show" and not game.crib_next:
            turn = game.turn
            assert turn is not None
            game.apply(Show(turn, game.played(turn)))
    assert game.phase == "deal" and game.scores == hand.final_scores == HAND_COUNTED[number]
    crib = next(a for a in hand.script if isinstance(a, Crib))
    assert score_hand(crib.cards, C(hand.starter), crib=True).total > 0


def test_the_guide_walks_through_a_hand_and_notices_a_card_off_the_script() -> None:
    guide = Guide(1)
    hand = guide.hand
    game = Game(hand.options)
    first = guide.lines(game)
    assert first[0] == "Guided hand 1 of 3: Fifteens and pairs"
    assert "Deal Player 2 7C 7D 6H 9D KH 2S; they lay away KH 2S." in first
    assert first[-1] == "Turn up 3D on the starter spot: it scores nothing."
    game.apply(hand.script[0])
    game.apply(hand.script[1])  # Bob's 7C
    said = guide.lines(game)[-1]
    assert said.startswith("Player 1: lay 8S in your zone: fifteen for two (7C 8S)")
    assert "bringing the count to exactly fifteen scores two" in said
    game.apply(Play(0, C("5C")))  # not the script's card
    assert guide.done(game) == -1 and "Undo takes it back" in guide.lines(game)[-1]
    game = Game(hand.options)
    for action in hand.table_record:
        game.apply(action)
    assert guide.finished(game) and guide.lines(game)[-1] == "The hand ended as scripted: 20 - 4."
    game.apply(Cut(C("KS")))  # the players play on: the hand stays ended, not off the script
    assert guide.finished(game) and "ended as scripted" in guide.lines(game)[-1]


def test_a_learn_mode_with_a_guide_shows_the_guide_first() -> None:
    mode = LearnMode(2, Guide(3))
    game = Game(GUIDED_HANDS[2].options)
    lines = mode.lines(game)
    assert lines[0].startswith("Guided hand 3 of 3") and "flush" in lines[1]


def test_a_stored_practice_survives_and_replay_skips_it(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3")
    table = TableSession(GameOptions(dealer=0), GameLog(store))
    table.set_learn(True)
    lay(table, "player 0", "7C 9H 5H 5C 5D JS")
    lay(table, "crib", "7C 9H")
    lay(table, "starter", "JD")  # his heels: 2 for the dealer
    record = table.log.record
    assert record is not None
    lines = store.lines(record)
    assert '"practice"' in lines[1] and json.loads(lines[1])["practice"]["place"] == 1
    assert store.replay(record).game.scores == (2, 0)
    resumed = TableSession(GameOptions(dealer=0), GameLog(store, record, lines))
    assert resumed.game.scores == (2, 0) and resumed.game.starter == C("JD")
    with pytest.raises(RecordError, match="line 2: a 'practice' line is a note"):
        parse_line(lines[1], 2)
