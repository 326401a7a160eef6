"""Learn mode's words and warnings: every score explained, each step named, risks counted."""

from __future__ import annotations

import ast
import doctest
import random
from pathlib import Path

import pytest

import crib_pi.learn.risks
import crib_pi.learn.rules
from crib_pi.actions import Crib, Cut, Deal, Discard, GameOptions, Go, Play, Show
from crib_pi.cards import Card, deck, parse_cards
from crib_pi.coach import compare_discard, rank_discards
from crib_pi.errors import CribError, IllegalActionError
from crib_pi.game import Game
from crib_pi.learn.risks import risks, unseen_cards, warning
from crib_pi.learn.rules import STEPS, explain, explain_events, rule, step_of, step_text
from crib_pi.scoring import score_hand, score_play
from crib_pi.simulate import random_game

NEXT_ACTION = {
    "deal": (Deal,),
    "discard": (Discard,),
    "starter": (Cut,),
    "play": (Play, Go),
    "show": (Show,),
    "crib": (Crib,),
}


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


def test_learn_reads_only_the_core() -> None:
    """Learn mode's words sit at the edge but need nothing from vision, devices or the app."""
    core = {
        f"crib_pi.{n}"
        for n in (
            "cards",
            "scoring",
            "game",
            "actions",
            "snapshot",
            "errors",
            "coach",
            "i18n",
            "players",
        )
    }
    core |= {"crib_pi.learn.rules", "crib_pi.learn.risks", "crib_pi.learn.guided"}  # its own
    package = Path(crib_pi.learn.rules.__file__).parent
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("crib_pi"):
                assert node.module in core, f"{path.name} imports {node.module}"
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("crib_pi") for a in node.names), path.name


def test_doctests() -> None:
    for module in (crib_pi.learn.rules, crib_pi.learn.risks):
        assert doctest.testmod(module).failed == 0


def test_every_score_in_real_games_has_its_rule() -> None:
    """Each event of 2-, 3- and 4-player games reads '<what> for <points> (...): <rule>'."""
    seen: set[tuple[str, str]] = set()
    for players in (2, 3, 4):
        for seed in range(4):
            game, _ = random_game(GameOptions(players=players), seed)
            for record in game.records:
                for line, event in zip(explain_events(record.events), record.events, strict=True):
                    said, _, why = line.partition(": ")
                    assert why and why == rule(
                        event.reason, event.points, len(event.cards), event.phase
                    )
                    assert not why.startswith(f"{event.points} for "), line  # not the fallback
                    assert event.text in said
                    seen.add((event.reason, "play" if event.phase == "play" else "count"))
    assert {"fifteen", "pair", "run", "go", "last_card", "nobs", "his_heels"} <= {
        reason for reason, _ in seen
    }


@pytest.mark.parametrize(
    ("pile", "expected"),
    [
        ("3H 5C 4D", "a run of three for 3 (3H 5C 4D): the last three cards laid are in sequence"),
        ("7H 8C", "fifteen for 2 (7H 8C): bringing the count to exactly fifteen scores two"),
        ("KH QH JH AD", "thirty-one for 2 (KH QH JH AD): bringing the count to exactly thirty-one"),
        ("6H 6C 6D", "a pair royal for 6 (6H 6C 6D): three cards of one rank laid one after"),
    ],
)
def test_play_scores_explained(pile: str, expected: str) -> None:
    items = score_play(cards(pile)).items
    assert any(explain(item, phase="play").startswith(expected) for item in items)


def test_show_scores_explained() -> None:
    run = score_hand(cards("4H 5C 6D KS"), "9C").items[-1]
    assert explain(run) == (
        "a run of three for 3 (4H 5C 6D): three cards in sequence, in any order, score one "
        "each; each different set of cards that makes the run counts again"
    )
    four = score_hand(cards("2H 4H 6H 8H"), "KS").items[-1]
    assert explain(four).startswith("a flush of four for 4 (2H 4H 6H 8H): the four cards")
    five = score_hand(cards("2H 4H 6H 8H"), "KH", crib=True).items[-1]
    assert "and the starter of one suit score five" in explain(five, phase="crib")
    quads = score_hand(cards("5H 5D 5C JS"), "5S").items
    pairs = [i for i in quads if i.reason == "pair"]
    assert "a double pair royal scores twelve" in explain(pairs[0])
    fifteen = quads[0]
    assert "every different set of cards that adds up to fifteen" in explain(fifteen)


def test_each_step_said_for_each_table() -> None:
    for players in (2, 3, 4):
        texts = [step_text(step, players, dealer=1) for step in STEPS]
        assert len(set(texts)) == len(STEPS)
    assert "six cards" in step_text("deal", 2) and "one card face down" in step_text("deal", 3)
    assert "two cards" in step_text("discard", 2) and "one card" in step_text("discard", 4)
    assert "(Player 2)" in step_text("crib", 2, dealer=1)
    assert "(Bob)" in step_text("crib", 2, dealer=1, names=("Alice", "Bob"))
    with pytest.raises(CribError, match="step 'shuffle' is not one of"):
        step_text("shuffle")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_step_of_names_what_comes_next(players: int) -> None:
    """Replaying real games, each action applied is the kind the step before it asked for."""
    _, actions = random_game(GameOptions(players=players), seed=players)
    game = Game(GameOptions(players=players))
    steps = []
    for action in actions:
        step = step_of(game)
        steps.append(step)
        assert isinstance(action, NEXT_ACTION[step]), (step, action)
        game.apply(action)
    assert step_of(game) == "over"
    assert set(steps) == set(NEXT_ACTION)


def test_step_of_cut_for_deal() -> None:
    assert step_of(Game(GameOptions(dealer=None))) == "cut_for_deal"


def test_risks_leading_and_thirty_one() -> None:
    lead = risks([], Card.parse("5H"))
    assert [(r.kind, r.points, r.ranks, r.answers, r.unseen) for r in lead] == [
        ("fifteen", 2, (10, 11, 12, 13), 16, 51)
    ]
    assert risks([], Card.parse("4H")) == ()  # fifteen needs 11: no card does it
    late = risks(cards("KH QD"), Card.parse("AS"))  # 21: any ten-card makes 31
    assert [(r.kind, r.ranks) for r in late] == [("thirty_one", (10, 11, 12, 13))]
    assert risks(cards("KH QD 5C"), Card.parse("5D"))[0].kind == "thirty_one"  # 30: an ace
    with pytest.raises(IllegalActionError, match="5D would make the count 35"):
        risks(cards("KH QD JC"), Card.parse("5D"))


def test_risks_of_pairing() -> None:
    pair = risks(cards("7H"), Card.parse("7C"))  # 14: an ace makes 15, a seven a pair royal
    assert {(r.kind, r.points, r.answers) for r in pair} == {
        ("fifteen", 2, 4),
        ("pair_royal", 6, 2),
    }
    royal = risks(cards("3H 3C"), Card.parse("3D"))
    assert ("double_pair_royal", 12, 1) in {(r.kind, r.points, r.answers) for r in royal}
    # all the sevens seen: nothing answers the pair; the aces seen too: nothing at all
    no_sevens = risks(cards("7H"), Card.parse("7C"), unseen_cards(cards("7H 7C 7D 7S")))
    assert [r.kind for r in no_sevens] == ["fifteen"]
    assert not risks(cards("7H"), Card.parse("7C"), unseen_cards(cards("7H 7C 7D 7S A♥ AC AD AS")))
    # a third five would pass 31: no pair royal risk
    assert all(r.kind != "pair_royal" for r in risks(cards("KH QD 5C"), Card.parse("5D")))


def test_risks_agree_with_the_play_scorer() -> None:
    """For random counts, the cards a risk names are exactly those that score it next."""
    rng = random.Random(7)
    checked = 0
    while checked < 300:
        laid = rng.sample(deck(), rng.randint(1, 5))
        if sum(c.value for c in laid) > 31:
            continue
        pile, card = laid[:-1], laid[-1]
        unseen = unseen_cards(laid)
        found = risks(pile, card, unseen)
        count = sum(c.value for c in laid)
        for kind in ("fifteen", "thirty_one", "pair"):
            by_scorer = set()
            for other in unseen:
                if count + other.value > 31:
                    continue
                for item in score_play([*laid, other]).items:
                    if item.reason == kind and (kind != "pair" or item.points >= 6):
                        by_scorer.add(other)
            named = {
                c
                for r in found
                if r.kind == kind or (kind == "pair" and r.kind.endswith("pair_royal"))
                for c in unseen
                if c.rank in r.ranks
            }
            assert named == by_scorer, (laid, kind)
            assert all(r.answers == sum(c.rank in r.ranks for c in unseen) for r in found)
        checked += 1


def test_warning_names_a_better_card() -> None:
    hand = cards("5H 9C KD 2S")
    said = warning([], Card.parse("5H"), hand)
    assert said is not None and said.startswith("5H leaves the count at 5:")
    assert said.endswith("2S invites less.") and "(15 of 48 unseen cards)" in said
    assert warning([], Card.parse("2S"), hand) is None  # nothing to fear from a two
    # every card invites the same: no warning, there is nothing better to do
    assert warning([], Card.parse("5H"), cards("5H 5D")) is None
    # the starter is known: the sevens left are fewer
    pairing = warning(cards("7H"), Card.parse("7C"), cards("7C 2D"), known=cards("7S"))
    assert pairing is not None and "makes a pair at 14" in pairing
    assert "a seven makes a pair royal for 6 (1 of" in pairing and "2D invites less" in pairing
    with pytest.raises(IllegalActionError, match="KS is not in the hand"):
        warning([], Card.parse("KS"), hand)


def test_practice_verdict_json() -> None:
    choices = rank_discards(cards("7C 9H 5H 5C 5D JS"), dealer=False)
    verdict = compare_discard(choices, cards("5H 5C"))
    data = verdict.as_json()
    assert data["chosen"] == verdict.chosen.as_json() and data["best"] == choices[0].as_json()
    assert data["place"] == 13 and data["choices"] == 15
    assert data["lost"] == pytest.approx(choices[0].net - verdict.chosen.net)
