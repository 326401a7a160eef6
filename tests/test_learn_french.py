"""Learn mode in French: a deal at the table, a practice hand, the guided hands, every step and
caution, and the discard coach's words, with no English left in what a learner reads."""

from __future__ import annotations

import re

import pytest

from crib_pi.actions import Crib, Cut, GameOptions, Go, Play, Show
from crib_pi.cards import Card, parse_cards
from crib_pi.cli import main
from crib_pi.coach import compare_discard, rank_discards
from crib_pi.errors import CribError, IllegalActionError
from crib_pi.game import Game
from crib_pi.i18n import in_language, use_language
from crib_pi.learn.guided import Guide
from crib_pi.learn.mode import general_caution
from crib_pi.learn.risks import risks, warning
from crib_pi.learn.rules import STEPS, explain, step_text
from crib_pi.scoring import ScoreItem, score_hand, score_play
from crib_pi.session.table import Press, TableSession
from crib_pi.session.tracker import CardLaid
from crib_pi.simulate import random_game
from crib_pi.store import GameLog
from tests.test_i18n import ENGLISH

C = Card.parse

#: The English words of learn mode's own texts (the rules, steps, cautions and the coach),
#: added to the CLI's list; a word French uses too (six, net, go, muggins) is not in it.
LEARN_ENGLISH = re.compile(
    r"\b(lay|laid|deal|dealer|dealing|count|counts|score|scores|with|each|leaves|makes|"
    r"invites|less|unseen|best|below|turn|cut|show|step|any|one|two|three|four|five|ten|"
    r"ace|jack|queen|king|careful|coach|practice|sequence|order|pegs|starts|again|when|"
    r"exactly|bringing|suit|rank|royal|double|heels|nobs|your|spot|down|up|"
    r"discard|discards|points a deal|scripted|guided|lesson|over|left|last)\b",
    re.IGNORECASE,
)


def english_in(lines: list[str] | tuple[str, ...]) -> list[str]:
    """The English words found in ``lines`` (card codes and numbers are not words)."""
    text = "\n".join(lines)
    return ENGLISH.findall(text) + LEARN_ENGLISH.findall(text)


@pytest.fixture(autouse=True)
def french() -> object:
    use_language("fr")
    yield
    use_language("en")


def learning(options: GameOptions | None = None) -> TableSession:
    table = TableSession(options or GameOptions(dealer=0), GameLog(None))
    table.set_learn(True)
    return table


def lay(table: TableSession, zone: str, cards: str) -> None:
    for card in cards.split():
        table.on_track(CardLaid(C(card), zone, (0, 0)))


def test_the_checker_finds_english_in_learn_mode_words() -> None:
    """The checker can fail: the same deal's words in English are full of English."""
    with in_language("en"):
        said = [step_text(s, 2, 0) for s in STEPS]
        said.append(explain(score_play(parse_cards("3H 5C 4D".split())).items[0], "play"))
    assert len(english_in(said)) > 50


def test_a_learn_mode_deal_at_the_table_reads_in_french() -> None:
    """A whole deal played through the table in learn mode: every panel line is French."""
    options = GameOptions(players=2, target=121, dealer=0)
    _game, actions = random_game(options, seed=3, known=False)
    table = learning(options)
    panels = [table.snapshot().learn]
    explained = 0
    for action in actions:
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
        learn = table.snapshot().learn
        panels.append(learn)
        for record in table.game.records[before:]:
            for event in record.events:
                line = explain(event)
                assert line in learn and " : " in line
                explained += 1
        if isinstance(action, Crib):
            break
    lines = [line for panel in panels for line in panel]
    assert explained >= 6 and len(lines) > 20
    assert english_in(lines) == [], [s for s in lines if english_in([s])][:5]
    joined = "\n".join(lines)
    assert "Le jeu : en partant de la gauche du donneur" in joined
    assert "quinze" in joined and "rapporte" in joined


def test_a_practice_hand_and_its_cautions_read_in_french() -> None:
    table = learning()
    lay(table, "player 1", "7C 9H 5H 5C 5D JS")
    learn = table.snapshot().learn
    assert "Conseils pour Joueur 2 (non donneur), meilleurs écarts sur 15 :" in learn
    lay(table, "crib", "5H 5D")
    verdict = table.message
    assert verdict.startswith("5H 5D est numéro ") and "de moins que 7C 9H" in verdict
    lay(table, "starter", "2D")
    caution = table.snapshot().learn[-1]
    assert caution.startswith("Attention : 5C laisse le compte à 5 : un dix, valet, dame ou roi")
    assert "fait quinze pour 2" in caution and "cartes non vues" in caution
    lines = [*learn, verdict, caution]
    assert english_in(lines) == [], lines


def test_every_step_and_rule_reads_in_french() -> None:
    said = [step_text(s, players, dealer) for s in STEPS for players in (2, 3, 4)
            for dealer in (None, 1)]  # fmt: skip
    assert said[0].startswith("Couper pour la donne :")
    assert "Donne : le donneur (Joueur 2) distribue cinq cartes" in " ".join(said)
    for hand, starter in (("5H 5D 5C JS", "5S"), ("2H 4H 8H JH", "6H"), ("3S 4S 5S 5D", "6C")):
        items = score_hand(parse_cards(hand.split()), starter).items
        said += [explain(item, "hand") for item in items]
        said += [explain(item, "crib") for item in items]
    for pile in ("3H 5C 4D", "7H 8C", "KH QH JH AD", "6H 6C 6D", "6H 6C 6D 6S", "9H 9C"):
        said += [explain(item, "play") for item in score_play(parse_cards(pile.split())).items]
    others = (
        ScoreItem("his_heels", 2, (C("JS"),), "two for his heels"),
        ScoreItem("go", 1, (C("KH"), C("QH")), "one for the go"),
        ScoreItem("last_card", 1, (C("4D"),), "one for last card"),
        ScoreItem("muggins", 2, (), "muggins"),
    )
    said += [explain(item, "cut" if item.reason == "his_heels" else "play") for item in others]
    assert any(s.startswith("deux pour le valet retourné (JS) : quand la retourne") for s in said)
    nobs = explain(score_hand(parse_cards("5H 5D 5C JS".split()), "5S").items[-1])
    assert nobs.startswith("un pour le valet de même couleur (JS) : le valet de même couleur")
    run = explain(score_play(parse_cards("3H 5C 4D".split())).items[0], "play")
    assert run.startswith("une suite de trois pour 3 (3H 5C 4D) : les trois dernières cartes")
    assert english_in(said) == [], [s for s in said if english_in([s])][:5]


@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_guided_hand_reads_in_french(number: int) -> None:
    guide = Guide(number)
    game = Game(guide.hand.options)
    said = list(guide.lines(game))
    for action in guide.hand.table_record:
        game.apply(action)
        said += guide.lines(game)
    assert said[0].startswith(f"Main guidée {number} sur 3 :")
    assert said[-1].startswith("La main s'est terminée comme prévu")
    assert english_in(said) == [], [s for s in said if english_in([s])][:5]


def test_warnings_and_cautions_read_in_french() -> None:
    hand = parse_cards("5H 9C KD 2S".split())
    said = warning([], C("5H"), hand)
    assert said == (
        "5H laisse le compte à 5 : un dix, valet, dame ou roi fait quinze pour 2 "
        "(15 des 48 cartes non vues). 2S expose moins."
    )
    pair = warning(parse_cards(["7H"]), C("7C"), parse_cards("7C 3D".split()))
    assert pair == (
        "7C fait une paire à 14 : un as fait quinze pour 2 (4 des 49 cartes non vues) ; "
        "un sept fait un brelan pour 6 (2 des 49 cartes non vues). 3D expose moins."
    )
    royal = risks(parse_cards(["4H", "4C"]), C("4D"))
    assert [r.text() for r in royal] == [
        "un trois fait quinze pour 2 (4 des 49 cartes non vues)",
        "un quatre fait un carré pour 12 (1 des 49 cartes non vues)",
    ]
    queens = risks(parse_cards(["QH"]), C("QD"))
    assert [r.text() for r in queens] == [
        "une dame fait un brelan pour 6 (2 des 50 cartes non vues)"
    ]
    general = general_caution((C("5H"),), [C("5H"), C("2D")])
    assert general is not None and "rejouer ce rang (cinq) fait une paire" in general
    assert english_in([said, pair, *(r.text() for r in [*royal, *queens]), general]) == []


def test_the_coach_and_learn_errors_speak_french() -> None:
    choices = rank_discards(parse_cards("5H 5D 5C JS 7C 9H".split()), dealer=True)
    verdict = compare_discard(choices, parse_cards(["5H", "5D"]))
    assert verdict.text() == "5H 5D est 10e sur 15 : 7.28 points par donne de moins que 7C 9H"
    best = compare_discard(choices, parse_cards(["7C", "9H"])).text()
    assert best == "7C 9H est le meilleur des 15 (+20.91 par donne)"
    with in_language("en"):
        assert verdict.text() == "5H 5D is 10th of 15: 7.28 points a deal below 7C 9H"
    errors = []
    for call in (
        lambda: compare_discard(choices, parse_cards(["AS", "5D"])),
        lambda: rank_discards(parse_cards("5H 5D 5C".split())),
        lambda: risks(parse_cards("KH QH JH".split()), C("5S")),
        lambda: warning([], C("5H"), parse_cards(["2S"])),
        lambda: step_text("lunch"),
        lambda: Guide(5),
    ):
        with pytest.raises(CribError) as caught:
            call()
        errors.append(str(caught.value))
    assert errors[0] == "AS 5D n'est pas un écart possible de 7C 9H 5H 5D 5C JS"
    assert errors[1] == "à 2 joueurs, chacun reçoit 6 cartes, pas 3 : 5H 5D 5C"
    assert all(len(e.splitlines()) == 1 for e in errors)
    assert errors[4].startswith("l'étape 'lunch' n'est pas l'une de cut_for_deal, ")
    del errors[4]  # it names the steps by their code names
    assert english_in(errors) == [], errors
    assert isinstance(caught.value, CribError) and not isinstance(caught.value, IllegalActionError)


def test_crib_pi_discard_speaks_french(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["discard", "7C", "9H", "5H", "5C", "5D", "JS", "--lang", "fr"])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "7C 9H 5H 5C 5D JS : 2 joueurs, donneur (net = main + crèche)"
    assert lines[1].split()[:5] == ["à", "écarter", "garder", "main", "min-max"]
    assert len(lines) == 2 + 15
    words = re.sub(r"\b[0-9AJQK]{1,2}[SHDC]\b", " ", out)  # card codes are not words
    assert english_in([words]) == [], out
