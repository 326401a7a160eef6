"""History and statistics, folded from stored game records.

Everything here is derived by replaying records, so it can never disagree with the log.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from crib_pi.actions import Crib, GameOptions, Show
from crib_pi.game import Game
from crib_pi.players import player_name, side_name
from crib_pi.records import Replay
from crib_pi.scoring import score_hand
from crib_pi.store import StoredRecord


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    wins: int = 0
    skunks: int = 0  # games won by a skunk or worse
    skunked: int = 0  # games lost by a skunk or worse
    hands: int = 0
    hand_points: int = 0
    cribs: int = 0
    crib_points: int = 0
    pegging_points: int = 0
    best_hand: int = 0
    best_hand_cards: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["average_hand"] = round(self.hand_points / self.hands, 2) if self.hands else None
        out["average_crib"] = round(self.crib_points / self.cribs, 2) if self.cribs else None
        out["average_pegging"] = round(self.pegging_points / self.hands, 2) if self.hands else None
        return out


def json_side_names(o: GameOptions) -> list[str]:
    """The sides as the JSON outputs name them, language-free: the configured names, else
    ``player 0`` (0-based, as in records); people read ``crib_pi.players.side_name``."""
    if o.players == 4:
        if not o.names:
            return ["players 0 & 2", "players 1 & 3"]
        return [f"{o.names[0]} & {o.names[2]}", f"{o.names[1]} & {o.names[3]}"]
    return [o.name(p) for p in range(o.players)]


def history_rows(
    stored: StoredRecord, replay: Replay, *, human: bool = False
) -> list[dict[str, Any]]:
    """One row per game of a record: finished games, then the one in progress; ``human``
    names the sides as people read them, else as the JSON does."""
    game = replay.game
    o = game.options
    if human:
        names = [side_name(side, o.players, o.names) for side in range(o.sides)]
    else:
        names = json_side_names(o)
    date = time.strftime("%Y-%m-%d %H:%M", time.localtime(stored.started))
    rows = []
    for number, result in enumerate(game.results, start=1):
        rows.append(
            {
                "record": stored.id,
                "game": number,
                "date": date,
                "players": o.players,
                "sides": names,
                "scores": list(result.scores),
                "winner": names[result.winner],
                "skunk": result.skunk,
            }
        )
    if game.winner is None and len(replay.lines) > 0:
        rows.append(
            {
                "record": stored.id,
                "game": len(game.results) + 1,
                "date": date,
                "players": o.players,
                "sides": names,
                "scores": list(game.scores),
                "winner": None,
                "skunk": "in progress",
            }
        )
    return rows


def add_stats(stats: dict[str, PlayerStats], replay: Replay, *, human: bool = False) -> None:
    """Fold one record into per-player statistics (true counts, whatever was claimed); players
    are keyed as people read them with ``human``, else as the JSON names them."""
    o = replay.game.options
    names = [player_name(p, o.names) if human else o.name(p) for p in range(o.players)]
    for name in names:
        stats.setdefault(name, PlayerStats(name))
    game = Game(o)
    for record in replay.game.records:
        action = record.action
        dealer, starter = game.dealer, game.starter  # as they were when it was shown
        game.apply(action)
        for event in record.events:
            if event.phase == "play":
                stats[names[event.player]].pegging_points += event.points
        if isinstance(action, Show) and starter is not None:
            s = stats[names[action.player]]
            total = score_hand(action.cards, starter).total
            s.hands += 1
            s.hand_points += total
            if total > s.best_hand or not s.best_hand_cards:
                s.best_hand = total
                s.best_hand_cards = [str(c) for c in (*action.cards, starter)]
        if isinstance(action, Crib) and starter is not None and dealer is not None:
            s = stats[names[dealer]]
            s.cribs += 1
            s.crib_points += score_hand(action.cards, starter, crib=True).total
    for result in replay.game.results:
        for player, name in enumerate(names):
            s = stats[name]
            s.games += 1
            bad = result.skunk in ("skunk", "double", "triple")
            if o.side_of(player) == result.winner:
                s.wins += 1
                s.skunks += bad
            else:
                s.skunked += bad
