"""The club's rules, Swiss pairing, corrections and the CSV export, on the tournament file."""

from __future__ import annotations

import csv
import io
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from crib_pi.club.pairing import Standing, pair
from crib_pi.club.rules import ClubRules
from crib_pi.club.store import ClubStore
from crib_pi.errors import CribError


def test_game_points_and_spread_as_the_acc_counts_them() -> None:
    rules = ClubRules()
    won, lost = rules.score((121, 91))
    assert (won.points, won.spread, lost.points, lost.spread) == (2, 30, 0, -30)
    won, lost = rules.score((121, 90))  # the loser at 90: a skunk
    assert (won.points, won.spread) == (3, 31)
    beaten, won = rules.score((40, 121))  # a double skunk is worth a skunk's 3 by default
    assert (won.points, won.spread, beaten.spread) == (3, 81, -81)
    capped = ClubRules(spread_cap=40, double_skunk=4)
    beaten, won = capped.score((40, 121))
    assert (won.points, won.spread, beaten.spread) == (4, 40, -40)
    with pytest.raises(CribError, match="not a finished game"):
        rules.score((100, 90))
    with pytest.raises(CribError, match="unknown club rule 'skunks'"):
        ClubRules.from_mapping({"skunks": 3})


def test_swiss_pairs_by_points_with_no_rematch_and_a_bye_for_the_lowest() -> None:
    players = [
        Standing("A", 6, 50),
        Standing("B", 6, 40),
        Standing("C", 3, 10),
        Standing("D", 2, -5),
        Standing("E", 0, -95, byes=0),
    ]
    pairs, bye = pair(players, set())
    assert bye == "E" and pairs == [("A", "B"), ("C", "D")]
    met = {frozenset(("A", "B")), frozenset(("C", "D"))}
    pairs, bye = pair(players, met)
    assert bye == "E" and {frozenset(p) for p in pairs}.isdisjoint(met)
    assert pairs[0] == ("A", "C")
    players[4] = Standing("E", 2, -95, byes=1)  # E has had a bye: the next lowest sits out
    _pairs, bye = pair(players, met)
    assert bye == "D"
    everyone = {frozenset((a, b)) for a in "ABCD" for b in "ABCD" if a != b}
    with pytest.raises(CribError, match="no pairing without a rematch"):
        pair(players[:4], everyone)


def test_five_rounds_of_twelve_players_never_rematch(tmp_path: Path) -> None:
    store = ClubStore(tmp_path / "c.sqlite3", "friday", create=True)
    store.add_tables(["1", "2", "3", "4", "5", "6"])
    store.add_players([f"P{n}" for n in range(11)])
    met: set[frozenset[str]] = set()
    for number in range(1, 6):
        pairs, bye = pair(store.standings(), store.met())
        store.add_round([(str(i + 1), a, b) for i, (a, b) in enumerate(pairs)], bye)
        for i, (a, b) in enumerate(pairs):
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            low = (number * 7 + i * 13) % 90
            store.add_game(number, str(i + 1), i + 1, (121, low) if i % 2 else (low, 121))
    assert len(store.byes()) == 5 and len(set(store.byes().values())) == 5


def test_a_correction_is_recorded_with_what_it_replaced_and_exported(tmp_path: Path) -> None:
    from crib_pi.cli import main

    path = tmp_path / "c.sqlite3"
    store = ClubStore(path, "friday", create=True)
    store.add_tables(["1"])
    store.add_players(["Ann", "Bob"])
    store.add_round([("1", "Ann", "Bob")], None)
    store.add_game(1, "1", 7, (121, 100))
    with pytest.raises(CribError, match="needs a reason"):
        store.correct(1, "1", (95, 121), " ")
    store.correct(1, "1", (95, 121), "a hand was pegged twice")
    (game,) = store.games()
    assert game.scores == (95, 121) and game.corrected
    (c,) = store.corrections()
    assert c["before"] == [121, 100] and c["reason"] == "a hand was pegged twice"
    store.close()
    config = tmp_path / "config.toml"
    config.write_text('[club]\nclub = "friday"\n')
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert main(["club", "--config", str(config), "--file", str(path), "export"]) == 0
    rows = list(csv.reader(io.StringIO(buffer.getvalue())))
    assert rows[0][:4] == ["rank", "player", "game_points", "spread"]
    assert rows[1][1:4] == ["Bob", "2", "26"] and rows[2][1:4] == ["Ann", "0", "-26"]
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        assert (
            main(["club", "--config", str(config), "--file", str(path), "export", "--games"]) == 0
        )
    rows = list(csv.reader(io.StringIO(buffer.getvalue())))
    assert rows[1] == ["1", "1", "Ann", "Bob", "95", "121", "0", "-26", "1"]
    out = tmp_path / "night.csv"
    club = ["club", "--config", str(config), "--file", str(path), "export", "--out", str(out)]
    assert main(club) == 0
    assert list(csv.reader(io.StringIO(out.read_text())))[1][1:4] == ["Bob", "2", "26"]
    assert main([*club, "--games"]) == 2  # the standings written first are kept
    assert out.read_text().startswith("rank,player,")
    assert main([*club, "--games", "--force"]) == 0
    assert list(csv.reader(io.StringIO(out.read_text())))[1] == rows[1]
