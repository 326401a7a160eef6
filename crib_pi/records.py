"""Game records: JSON lines, one action a line, the event log and a file players can share.

A record starts with a ``game`` line and then lists actions as they happened::

    {"game": {"players": 2, "target": 121, "dealer": 0, "muggins": false}}
    {"deal": [["5H", ...6 cards], ["KD", ...]]}     optional: hands known
    {"discard": [0, ["5H", "6D"]]}                  optional
    {"cut": "JS"}
    {"play": [1, "5H"]}
    {"go": 0}
    {"show": [1, ["5H", "5D", "JC", "QS"]]}
    {"crib": ["2C", "3C", "9H", "KD"]}
    {"claim": [1, 12]}                               muggins on
    {"muggins": 0}
    {"undo": 1}
    {"practice": {"player": 0, "hand": [...], "chosen": {...}, "best": [...], ...}}

``practice`` lines are notes, not actions: learn mode's open-hand practice (the six cards laid
face up, the coach's best discards and how the chosen one compared) is kept in the record, and
``read_lines`` (so replay, history and resuming) skips them, so a record scores the same with
or without them. Older versions of crib-pi refuse a record holding one (an unknown line).

``replay`` applies a record to a fresh ``Game`` and collects what was pegged, with the line
each point came from.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crib_pi.actions import Action, NewGame, Undo, action_from_json
from crib_pi.errors import CribError, RecordError
from crib_pi.game import Game, Record
from crib_pi.i18n import _

NOTE_KINDS = ("practice",)
"""Record lines kept with a game but not played: replay skips them."""


@dataclass(frozen=True, slots=True)
class Note:
    """A record line that is not an action (``practice``: an open-hand practice deal)."""

    kind: str
    data: dict[str, Any]

    def __post_init__(self) -> None:
        if self.kind not in NOTE_KINDS:
            raise CribError(f"{self.kind!r} is not a kind of note ({', '.join(NOTE_KINDS)})")

    def to_json(self) -> dict[str, Any]:
        return {self.kind: self.data}


Line = Action | Note
"""What a record line holds: an action, or a note that replay skips."""


def format_line(action: Line) -> str:
    """One record line, as written to a file (UTF-8, compact)."""
    return json.dumps(action.to_json(), ensure_ascii=False, separators=(", ", ": "))


def _decode(text: str, line: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(line, f"not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise RecordError(line, "JSON nested too deeply to be a record line") from None


def _is_note(data: Any) -> bool:
    return isinstance(data, dict) and len(data) == 1 and next(iter(data)) in NOTE_KINDS


def parse_line(text: str, line: int) -> Action:
    """Decode one action line; a bad line (or a note) raises ``RecordError`` naming its number."""
    data = _decode(text, line)
    if _is_note(data):
        raise RecordError(line, f"a {next(iter(data))!r} line is a note, not an action")
    try:
        return action_from_json(data)
    except CribError as exc:
        raise RecordError(line, str(exc)) from None


def read_lines(lines: Iterable[str]) -> list[tuple[int, Action]]:
    """Every action with its line number (1-based); blank lines and notes are skipped."""
    out = []
    for number, text in enumerate(lines, start=1):
        if text.strip():
            data = _decode(text, number)
            if _is_note(data):
                continue
            try:
                out.append((number, action_from_json(data)))
            except CribError as exc:
                raise RecordError(number, str(exc)) from None
    return out


def read_notes(lines: Iterable[str], kind: str = "practice") -> list[tuple[int, dict[str, Any]]]:
    """The notes of ``kind`` in a record, with their line numbers (what practice was kept)."""
    out = []
    for number, text in enumerate(lines, start=1):
        if text.strip():
            data = _decode(text, number)
            if _is_note(data) and kind in data and isinstance(data[kind], dict):
                out.append((number, data[kind]))
    return out


@dataclass
class Replay:
    """A record applied to a game: the game, and the line each surviving record came from."""

    game: Game
    lines: list[int] = field(default_factory=list)

    def apply(self, line: int, action: Action) -> Record:
        """Apply one action (``Undo`` included); a refused one raises ``RecordError``."""
        try:
            record = self.game.apply(action)
        except CribError as exc:
            raise RecordError(line, str(exc)) from None
        if isinstance(action, Undo):
            del self.lines[len(self.lines) - action.count :]
        else:
            self.lines.append(line)
        return record

    def events(self) -> list[dict[str, Any]]:
        return [
            {"line": line, **event.to_json()}
            for line, record in zip(self.lines, self.game.records, strict=True)
            for event in record.events
        ]

    def problems(self) -> list[dict[str, Any]]:
        return [
            {"line": line, "problem": problem}
            for line, record in zip(self.lines, self.game.records, strict=True)
            for problem in record.problems
        ]

    def summary(self) -> dict[str, Any]:
        """The replay's JSON: events, scores per side, winner, skunk, problems, games."""
        game = self.game
        snap = game.snapshot()
        return {
            "events": self.events(),
            "scores": list(game.scores),
            "winner": game.winner,
            "skunk": snap.skunk,
            "problems": self.problems(),
            "games": [
                {
                    "winner": r.winner,
                    "scores": list(r.scores),
                    "skunk": r.skunk,
                    "match_points": r.match_points,
                }
                for r in game.results
            ],
            "match": [side.match_points for side in snap.sides],
        }


def start(actions: list[tuple[int, Action]]) -> tuple[Replay, list[tuple[int, Action]]]:
    """A replay from the record's first line, which must be a ``game`` line."""
    if not actions:
        raise RecordError(1, "the record is empty: it starts with a 'game' line")
    line, first = actions[0]
    if not isinstance(first, NewGame):
        raise RecordError(line, "a record starts with a 'game' line")
    return Replay(Game(first.options)), actions[1:]


def replay_lines(lines: Iterable[str]) -> Replay:
    """Replay a whole record; the first bad line raises ``RecordError``."""
    replay, rest = start(read_lines(lines))
    for line, action in rest:
        replay.apply(line, action)
    return replay


#: Longest record file read: a long match is a few hundred kB; ``/dev/zero`` or a video given
#: by mistake is refused rather than read until memory runs out.
MAX_RECORD_BYTES = 64_000_000


def replay_file(path: str | Path) -> Replay:
    """Replay a record file; one longer than ``MAX_RECORD_BYTES`` is refused unread."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise CribError(
            _("longer than {limit} MB, so not a game record; nothing read").format(
                limit=MAX_RECORD_BYTES // 1_000_000
            )
        )
    return replay_lines(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
