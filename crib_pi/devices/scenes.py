"""Board states to check a build with, without playing a game.

``crib-pi board --scene NAME`` draws one, and ``docs/screens/`` holds their screenshots; the
tests check the LED frames of the same states. Built by hand as the engine would build them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crib_pi.cards import Card, parse_cards
from crib_pi.i18n import N_, _
from crib_pi.players import side_name
from crib_pi.scoring import FIFTEEN, PAIR_NAMES, ScoreItem, spoken
from crib_pi.snapshot import BoardSnapshot, ScoreEvent, SideSnapshot

if TYPE_CHECKING:
    from crib_pi.session.table import TableSession

SKUNK_LINES = (90, 60)


def pegs_snapshot(pegs: list[tuple[int, int]], players: int, target: int = 121) -> BoardSnapshot:
    """A bare board: each (front, back) is one side's pegs; sides are players or partnerships."""
    sides = len(pegs)
    names = _names(players, sides)
    snapshot_sides = tuple(
        SideSnapshot(tuple(range(i, players, sides)), front, back, names[i])
        for i, (front, back) in enumerate(pegs)
    )
    won = [i for i, s in enumerate(snapshot_sides) if s.front >= target]
    return BoardSnapshot(
        players=players,
        target=target,
        sides=snapshot_sides,
        dealer=None,
        phase="over" if won else "deal",
        turn=None,
        count=0,
        pile=(),
        starter=None,
        last_events=(),
        last_text="",
        prompt=_("board check: {pegs}").format(
            pegs=", ".join(f"{s.name} {s.front}/{s.back}" for s in snapshot_sides)
        ),
        winner=won[0] if won else None,
        skunk=_skunk(snapshot_sides, won[0]) if won else "",
        skunk_lines=SKUNK_LINES,
    )


def _skunk(sides: tuple[SideSnapshot, ...], winner: int) -> str:
    """How badly the best-placed loser lost, as the game says it: "", skunk or double."""
    best = max(s.front for i, s in enumerate(sides) if i != winner)
    return "double" if best <= SKUNK_LINES[1] else "skunk" if best <= SKUNK_LINES[0] else ""


def _names(players: int, sides: int) -> list[str]:
    return [side_name(i, players) for i in range(sides)]


def _items(events: tuple[ScoreEvent, ...]) -> tuple[ScoreItem, ...]:
    return tuple(ScoreItem(e.reason, e.points, e.cards, e.text) for e in events)


def _two(front_a: int, back_a: int, front_b: int, back_b: int) -> tuple[SideSnapshot, ...]:
    return (
        SideSnapshot((0,), front_a, back_a, "Alice"),
        SideSnapshot((1,), front_b, back_b, "Bob"),
    )


def start() -> BoardSnapshot:
    """A new game: nobody on the board, Alice deals."""
    return BoardSnapshot(
        players=2, target=121, sides=_two(0, 0, 0, 0), dealer=0, phase="deal", turn=None,
        count=0, pile=(), starter=None, last_events=(), last_text="",
        prompt=_("Alice deals: six cards each, then two to the crib"), winner=None, skunk="",
        skunk_lines=SKUNK_LINES,
    )  # fmt: skip


def skunk_threat() -> BoardSnapshot:
    """Late game: Alice on 104, Bob still below the skunk line on 78."""
    cards = parse_cards(["5H", "5S", "JD", "4C"])
    events = (
        ScoreEvent(0, 0, 2, "fifteen", FIFTEEN, cards[:2], "show"),
        ScoreEvent(0, 0, 2, "fifteen", FIFTEEN, (cards[0], cards[2]), "show"),
        ScoreEvent(0, 0, 2, "fifteen", FIFTEEN, (cards[1], cards[2]), "show"),
        ScoreEvent(0, 0, 2, "pair", PAIR_NAMES[2], cards[:2], "show"),
    )
    return BoardSnapshot(
        players=2, target=121, sides=_two(104, 96, 78, 71), dealer=1, phase="show", turn=None,
        count=0, pile=(), starter=cards[3], last_events=events,
        last_text=spoken(_items(events)),
        prompt=_("Bob: count your hand"), winner=None, skunk="", skunk_lines=SKUNK_LINES,
    )  # fmt: skip


def pegging() -> BoardSnapshot:
    """Pegging: 7, 8 makes fifteen, then another 8 for a pair: count 23."""
    pile = parse_cards(["7C", "8D", "8S"])
    events = (ScoreEvent(0, 0, 2, "pair", N_("a pair for two"), pile[1:], "play"),)
    return BoardSnapshot(
        players=2, target=121, sides=_two(47, 45, 52, 50), dealer=1, phase="play", turn=1,
        count=23, pile=pile, starter=parse_cards(["QH"])[0], last_events=events,
        last_text=_("twenty-three for two: a pair"), prompt=_("Bob to play or say go"),
        winner=None, skunk="", skunk_lines=SKUNK_LINES,
    )  # fmt: skip


def muggins() -> BoardSnapshot:
    """Bob claimed 6 for a hand worth 8: Alice takes the 2 he missed."""
    hand = parse_cards(["6H", "7H", "8C", "9S"])
    events = (
        ScoreEvent(1, 1, 6, "hand", N_("the hand as counted"), hand, "claim"),
        ScoreEvent(0, 0, 2, "muggins", N_("muggins"), hand[1:3], "claim"),
    )
    return BoardSnapshot(
        players=2, target=121, sides=_two(68, 66, 63, 57), dealer=0, phase="claim", turn=None,
        count=0, pile=(), starter=parse_cards(["KD"])[0], last_events=events,
        last_text=_("Bob claimed six; the hand is worth eight"),
        prompt=_("Alice: confirm muggins or undo"), winner=None, skunk="",
        skunk_lines=SKUNK_LINES,
        flags=(_("Muggins! Bob missed fifteen two (7H 8C): 2 to Alice"),),
    )  # fmt: skip


def win() -> BoardSnapshot:
    """Alice pegs out at 121 while Bob is on 85: a skunk."""
    events = (
        ScoreEvent(
            0, 0, 3, "run", N_("a run of three for three"), parse_cards(["9C", "10D", "JH"]), "play"
        ),
    )
    return BoardSnapshot(
        players=2, target=121, sides=_two(121, 118, 85, 79), dealer=1, phase="over", turn=None,
        count=0, pile=(), starter=None, last_events=events, last_text=_("a run of three, and out"),
        prompt=_("Confirm for a new game"), winner=0, skunk="skunk", skunk_lines=SKUNK_LINES,
    )  # fmt: skip


def _learning_table() -> TableSession:
    from crib_pi.actions import GameOptions
    from crib_pi.session.table import TableSession
    from crib_pi.store import GameLog

    table = TableSession(GameOptions(dealer=0, names=("Alice", "Bob")), GameLog(None))
    table.set_learn(True)
    return table


def _lay(table: TableSession, laid: str) -> None:
    from crib_pi.session.tracker import CardLaid

    for item in laid.split(", "):
        zone, card = item.rsplit(" ", 1)
        table.on_track(CardLaid(Card.parse(card), zone, (0.0, 0.0)))


def learn() -> BoardSnapshot:
    """Learn mode in the play: Alice's eight made fifteen, the rule said, Bob cautioned.
    Played through a real table session, so the words are the ones the table shows."""
    table = _learning_table()
    _lay(table, "starter 3D, player 1 7C, player 0 8S")
    return table.snapshot()


def coach() -> BoardSnapshot:
    """Open-hand practice: Bob's six cards face up, the coach's best three, his discard."""
    table = _learning_table()
    _lay(table, "player 1 7C, player 1 9H, player 1 5H, player 1 5C, player 1 5D, player 1 JS")
    _lay(table, "crib 5H, crib 5D")
    return table.snapshot()


SCENES = {
    "start": start,
    "skunk-threat": skunk_threat,
    "pegging": pegging,
    "muggins": muggins,
    "win": win,
    "learn": learn,
    "coach": coach,
}
