"""The words the table says: numbers and cards in both languages, a question for each choice,
an undone score withdrawn, the end of the game with its skunk."""

from __future__ import annotations

import pytest

from crib_pi.actions import Cut, GameOptions, Play
from crib_pi.cards import Card
from crib_pi.session.table import Question, TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog
from crib_pi.voice.words import Announcer, card_name, english_number, french_number


@pytest.mark.parametrize(
    ("n", "fr", "en"),
    [
        (1, "un", "one"),
        (21, "vingt et un", "twenty-one"),
        (31, "trente et un", "thirty-one"),
        (61, "soixante et un", "sixty-one"),
        (71, "soixante et onze", "seventy-one"),
        (80, "quatre-vingts", "eighty"),
        (81, "quatre-vingt-un", "eighty-one"),
        (97, "quatre-vingt-dix-sept", "ninety-seven"),
        (100, "cent", "one hundred"),
        (121, "cent vingt et un", "one hundred and twenty-one"),
    ],
)
def test_numbers_are_said_as_words(n: int, fr: str, en: str) -> None:
    assert (french_number(n), english_number(n)) == (fr, en)


def test_cards_are_named() -> None:
    assert card_name(Card.parse("7H"), "en") == "the seven of hearts"
    assert card_name(Card.parse("7H"), "fr") == "le sept de cœur"
    assert card_name(Card.parse("AS"), "fr") == "l'as de pique"
    assert card_name(Card.parse("QD"), "fr") == "la dame de carreau"


def test_a_question_is_asked_again_for_each_choice_and_not_repeated() -> None:
    table = TableSession(GameOptions(players=2), GameLog(None), Tracker())
    announcer = Announcer("en")
    assert announcer.after(table).say == ()
    table.question = Question("?", [Cut(Card.parse("7H")), Cut(Card.parse("7D"))], "starter")
    assert [u.text for u in announcer.after(table).say] == ["is that the seven of hearts?"]
    assert announcer.after(table).say == ()  # asked once until something changes
    table.question.index = 1
    said = announcer.after(table).say
    assert [(u.text, u.key) for u in said] == [("is that the seven of diamonds?", "question")]
    french = Announcer("fr")
    assert [u.text for u in french.after(table).say] == ["est-ce le sept de carreau ?"]


def test_an_undone_score_is_withdrawn_and_its_replay_keeps_the_key() -> None:
    options = GameOptions(players=2, target=61, dealer=0)
    game, actions = random_game(options, seed=5, known=False)
    table = TableSession(options, GameLog(None), Tracker())
    announcer = Announcer("en")
    announcer.after(table)
    k = next(i for i, r in enumerate(game.records) if isinstance(r.action, Play) and r.events)
    for action in actions[: k + 1]:
        table.game.apply(action)
    said = announcer.after(table).say
    assert said[-1].key == f"record {k}" and said[-1].kind == "score"
    table.game.undo()
    undone = announcer.after(table)
    assert undone.say == () and f"record {k}" in undone.withdraw
    table.game.apply(actions[k])
    assert [u.key for u in announcer.after(table).say] == [f"record {k}"]


def test_the_end_of_the_game_names_the_winner_the_score_and_the_skunk() -> None:
    options = GameOptions(players=2, target=61, dealer=0)
    game, _ = random_game(options, seed=5, known=False)
    last = game.records[-1]
    assert last.result is not None
    table = TableSession(options, GameLog(None), Tracker())
    winner, loser = sorted(last.result.scores, reverse=True)
    english = Announcer("en").end(last, table)
    french = Announcer("fr").end(last, table)
    number = last.result.winner + 1  # people count players from 1
    assert english.startswith(f"Player {number} wins, {english_number(winner)} to ")
    assert french.startswith(f"Joueur {number} gagne, {french_number(winner)} à ")
    named = TableSession(
        GameOptions(players=2, target=61, dealer=0, names=("Ann", "Bob")), GameLog(None), Tracker()
    )
    assert Announcer("en").end(last, named).startswith(f"{('Ann', 'Bob')[number - 1]} wins, ")
    assert english.endswith(english_number(loser)) == (last.result.skunk == "none")


def test_an_unknown_language_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="voice language 'de' is not one of"):
        Announcer("de")
