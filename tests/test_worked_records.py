"""Whole deals worked out by hand, line by line, replayed through the engine."""

from __future__ import annotations

from pathlib import Path

from crib_pi.records import replay_file

DATA = Path(__file__).parent / "data"


def events(name: str) -> list[tuple[int, int, int, str]]:
    summary = replay_file(DATA / name).summary()
    return [(e["line"], e["player"], e["points"], e["reason"]) for e in summary["events"]]


def test_one_deal_by_hand() -> None:
    # his heels; 5-10 fifteen; 5-5 pair (the 10 between 5S and 5D breaks that one);
    # 6H makes 31; new count 4-4 pair; 7C makes fifteen and is the last card.
    # Pone's 5 5 6 4 + JH: four fifteens, a pair, two runs of three = 16.
    # Dealer's 10 5 4 7 + JH: two fifteens = 4.  Crib 2 3 9 K + JH: two fifteens = 4.
    assert events("one-deal.jsonl") == [
        (2, 0, 2, "his_heels"),
        (4, 0, 2, "fifteen"),
        (6, 0, 2, "pair"),
        (7, 1, 2, "thirty_one"),
        (9, 1, 2, "pair"),
        (10, 0, 2, "fifteen"),
        (10, 0, 1, "last_card"),
        *[(11, 1, 2, "fifteen")] * 4,
        (11, 1, 2, "pair"),
        (11, 1, 3, "run"),
        (11, 1, 3, "run"),
        *[(12, 0, 2, "fifteen")] * 2,
        *[(13, 0, 2, "fifteen")] * 2,
    ]
    summary = replay_file(DATA / "one-deal.jsonl").summary()
    assert summary["scores"] == [17, 20]
    assert summary["winner"] is None and summary["problems"] == []


def test_muggins_deal_by_hand() -> None:
    # Same deal, players counting: pone claims 12 of 16 and the dealer mugs 4; the dealer
    # over-claims 6 for a 4 hand (pegged 4, flagged); the crib claim of 2 is undone and 4 claimed.
    summary = replay_file(DATA / "muggins-deal.jsonl").summary()
    assert [(e["line"], e["player"], e["points"], e["reason"]) for e in summary["events"]][-4:] == [
        (12, 1, 12, "hand"),
        (13, 0, 4, "muggins"),
        (15, 0, 4, "hand"),
        (19, 0, 4, "crib"),
    ]
    assert summary["scores"] == [9 + 4 + 4 + 4, 4 + 12]
    problems = [p["line"] for p in summary["problems"]]
    assert problems == [12, 15]
