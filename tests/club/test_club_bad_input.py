"""Bad input at the club: a forged record, a table writing on another's topic, malformed
messages, a pairing not signed by the director and a tournament file from elsewhere: each a
clear message, nothing counted wrongly, nothing the user gave changed."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path

import pytest

from crib_pi.actions import GameOptions, NewGame
from crib_pi.cli import main
from crib_pi.club.director import Director
from crib_pi.club.link import Link
from crib_pi.club.messages import Event, MessageError, sign, topic, verify
from crib_pi.club.store import ClubStore, TournamentError
from crib_pi.records import format_line
from crib_pi.simulate import random_game
from crib_pi.store import GameStore


def game_lines(names: tuple[str, str], seed: int) -> list[str]:
    options = GameOptions(dealer=0, names=names)
    _game, actions = random_game(options, seed)
    return [format_line(NewGame(options))] + [format_line(a) for a in actions]


@pytest.fixture
def club(tmp_path: Path, make_broker):  # type: ignore[no-untyped-def]
    broker = make_broker("friday", 3)
    store = ClubStore(tmp_path / "club.sqlite3", "friday", create=True)
    store.add_tables(["1", "2", "3"])
    store.add_players(["Ann", "Bob", "Cid", "Dee"])
    store.add_round([("1", "Ann", "Bob"), ("2", "Cid", "Dee")], None)
    link = Link(broker.config(), "director", [topic("friday", "+", "events")])
    said: list[str] = []
    director = Director(store, "k", link.publish, say=said.append)
    yield broker, store, link, director, said
    link.close()


def settle(link: Link, director: Director, seconds: float = 1.5) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        director.absorb(link.drain(0.1))


def wait_connected(*links: Link) -> None:
    end = time.monotonic() + 10
    while time.monotonic() < end and not all(x.connected for x in links):
        time.sleep(0.05)


def test_a_forged_record_is_refused_reported_and_not_counted(club) -> None:  # type: ignore[no-untyped-def]
    broker, store, link, director, said = club
    table = Link(broker.config("1"), "t1", [])
    wait_connected(table, link)
    lines = game_lines(("Ann", "Bob"), 3)
    forged = list(lines)
    at = next(i for i, x in enumerate(forged) if x.startswith('{"show"'))
    shown = json.loads(forged[at])
    shown["show"][1] = ["5H", "5D", "5C", "JS"]  # a 29-ish hand the player never held
    forged[at] = json.dumps(shown)
    table.publish(
        topic("friday", "1", "events"),
        Event("1", 1, 1, 0, tuple(forged), len(forged)).to_bytes("friday"),
    )
    other = Link(broker.config("2"), "t2", [])
    wait_connected(other)
    names = game_lines(("Zed", "Yan"), 4)  # not the pairing's players
    other.publish(
        topic("friday", "2", "events"),
        Event("2", 1, 1, 0, tuple(names), len(names)).to_bytes("friday"),
    )
    settle(link, director)
    table.close()
    other.close()
    assert store.games(1)[0].scores is None and store.games(1)[1].scores is None
    assert all(s.games == 0 for s in store.standings())
    messages = [m for _a, _t, m in store.problems()]
    assert any(
        m.startswith(f"table 1 record 1 refused, not counted: line {at + 1}:") for m in messages
    ), messages
    assert any("table 2 record 1 refused" in m and "Zed v Yan" in m for m in messages), messages
    assert said == messages


def test_a_table_cannot_write_on_another_tables_topic(club) -> None:  # type: ignore[no-untyped-def]
    broker, store, link, director, _said = club
    rogue = Link(broker.config("2"), "t2", [])
    wait_connected(rogue, link)
    lines = game_lines(("Ann", "Bob"), 5)
    rogue.publish(
        topic("friday", "1", "events"),  # the broker's ACL drops this
        Event("1", 1, 1, 0, tuple(lines), len(lines)).to_bytes("friday"),
    )
    rogue.publish(
        topic("friday", "2", "events"),  # its own topic, naming table 1
        Event("1", 1, 1, 0, tuple(lines), len(lines)).to_bytes("friday"),
    )
    settle(link, director)
    rogue.close()
    db = sqlite3.connect(str(store.path))
    assert db.execute("SELECT count(*) FROM events").fetchone() == (0,)
    db.close()
    assert all(s.games == 0 for s in store.standings())
    assert [m for _a, _t, m in store.problems()] == [
        "crib/friday/table/2/events: the message names table '1', not the topic's"
    ]


@pytest.mark.parametrize(
    ("payload", "said"),
    [
        (b"\xff\xfe not json", "not a JSON message"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"club": "tuesday", "table": "1"}', "for another club"),
        (
            b'{"club": "friday", "table": "1", "round": 1, "record": 1, "seq": 0, "lines": []}',
            "lines must be a list of 1 to 500 record lines",
        ),
        (
            b'{"club": "friday", "table": "1", "round": 0, "record": 1, "seq": 0, "lines": ["x"]}',
            "round = 0 is not a whole number of 1 or more",
        ),
        (
            b'{"club": "friday", "table": "1", "round": 2, "record": 1, "seq": 0, "lines": ["x"]}',
            "table 1 has no game in round 2",
        ),
        (
            b'{"club": "friday", "table": "1", "round": 1, "record": 1, "seq": 5, "lines": ["x"],'
            b' "final": 3}',
            "lines past its end (3)",
        ),
    ],
)
def test_a_malformed_message_is_reported_and_the_director_goes_on(
    club,
    payload: bytes,
    said: str,  # type: ignore[no-untyped-def]
) -> None:
    broker, store, link, director, _said = club
    table = Link(broker.config("1"), "t1", [])
    wait_connected(table, link)
    table.publish(topic("friday", "1", "events"), payload)
    good = game_lines(("Ann", "Bob"), 6)
    table.publish(
        topic("friday", "1", "events"),
        Event("1", 1, 1, 0, tuple(good), len(good)).to_bytes("friday"),
    )
    settle(link, director)
    table.close()
    (problem,) = [m for _a, _t, m in store.problems()]
    assert said in problem and ("table 1" in problem or "table/1/" in problem)
    assert store.games(1)[0].scores is not None  # the good record after it still counts


def test_a_table_takes_only_pairings_its_club_signed() -> None:
    body = {"club": "friday", "table": "4", "kind": "pairing", "round": 1, "players": ["A", "B"]}
    good = sign("club-key", body)
    assert verify("club-key", "friday", "4", "pairing", good)["players"] == ["A", "B"]
    with pytest.raises(MessageError, match="not signed by this club's director"):
        verify("club-key", "friday", "4", "pairing", sign("another-key", body))
    tampered = good.replace(b'"A"', b'"Z"')
    with pytest.raises(MessageError, match="not signed by this club's director"):
        verify("club-key", "friday", "4", "pairing", tampered)
    with pytest.raises(MessageError, match="another club, table or purpose"):
        verify("club-key", "friday", "5", "pairing", good)  # table 4's pairing, sent to 5


def test_a_tournament_file_from_elsewhere_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "games.sqlite3"
    GameStore(games).close()
    other = tmp_path / "other.sqlite3"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8\xff" + bytes(200))
    tuesday = tmp_path / "tuesday.sqlite3"
    ClubStore(tuesday, "tuesday", create=True).close()
    config = tmp_path / "config.toml"
    config.write_text('[club]\nclub = "friday"\n')
    cases = {
        games: "is a table's game database, not a club tournament file",
        other: "is another program's SQLite database, not a club tournament file",
        photo: "is not a club tournament file (not SQLite)",
        tuesday: "is the tournament of club 'tuesday', not 'friday'",
        tmp_path: "is not a file",
        tmp_path / "none.sqlite3": "no tournament file at",
    }
    for path, said in cases.items():
        before = path.read_bytes() if path.is_file() else None
        with pytest.raises(TournamentError, match=re.escape(said)):
            ClubStore(path, "friday")

        assert main(["club", "--config", str(config), "--file", str(path), "standings"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and said in err[0] and str(path) in err[0], err
        assert (path.read_bytes() if path.is_file() else None) == before
