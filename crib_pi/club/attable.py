"""A club's table that plays through ``crib-pi run``: the table's link to its club runs in a
thread of its own beside the game, and each pairing it is sent is handed on, to be shown on
the table's screen and its board's page, and played.

The thread makes its own SQLite connections (the game database, which the link reads as its
outbox, and the link's state file) and has its own stop event, so nothing the link does can
hold up or stop the game: a broker out of reach, or one that refuses the table, is said once
and the link keeps trying.

A table counts a game for a round only when the game's record began after the round's pairing
came (``TableLink.round_of``), so a pairing needs a game of its own: ``waits`` says when the
table's game is not yet the pairing's.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from crib_pi.club.config import ClubConfig
from crib_pi.club.link import Waiting, to_stderr
from crib_pi.club.table import TableLink
from crib_pi.errors import CribError
from crib_pi.i18n import _
from crib_pi.store import GameStore

log = logging.getLogger("crib_pi.club")


@dataclass(frozen=True, slots=True)
class Pairing:
    """What the link last heard: the caption to show and this table's game in the round."""

    caption: str
    round: int = 0  # 0: no pairing yet
    players: tuple[str, ...] = ()  # empty: no game at this table this round
    since: int = 0  # the first game record that can be this round's


def waits(pairing: Pairing, record: int | None, names: tuple[str, ...]) -> bool:
    """True when ``pairing`` names two players and the table's game (its ``record`` and the
    ``names`` it was set up with) is not theirs: it began before the pairing came, or under
    other names (the director refuses a record that names others)."""
    if len(pairing.players) != 2:
        return False
    began_after = record is None or record >= pairing.since
    return not (began_after and set(names) == set(pairing.players))


def state_file(db: Path) -> Path:
    """The link's own file, beside the game database (as ``crib-pi club table`` keeps it)."""
    return db.with_name(db.name + ".club")


class LinkThread:
    """``TableLink`` in a daemon thread; ``on_pairing`` is called in that thread with the first
    caption and again with each new pairing."""

    def __init__(
        self,
        config: ClubConfig,
        db: Path,
        on_pairing: Callable[[Pairing], None],
        *,
        say: Callable[[str], None] = to_stderr,
        every: float = 0.1,
        patience: float = 3.0,
    ) -> None:
        self.config = config
        self.db = db
        self.on_pairing = on_pairing
        self.say = say
        self.every = every
        self.patience = patience
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="club", daemon=True)

    def start(self) -> LinkThread:
        self.thread.start()
        return self

    def close(self) -> None:
        """Stop the link and wait for it (a second or so: it disconnects from the broker)."""
        self.stop.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        try:
            games = GameStore(self.db)
        except CribError as exc:
            self.say(self._failed(exc))
            return
        link: TableLink | None = None
        try:
            link = TableLink(self.config, games, state_file(self.db), say=self.say)
            link.connect()
            self._loop(link)
        except (CribError, OSError) as exc:  # OSError: no socket (a service off the network)
            self.say(self._failed(exc))
        except Exception as exc:  # a bug in the link must not stop the game
            log.exception("the club's link failed")
            self.say(self._failed(exc))
        finally:
            if link is not None:
                link.close()
            games.close()

    def _failed(self, exc: Exception) -> str:
        return _("the club's link stopped ({exc}); the game goes on without it").format(exc=exc)

    def _loop(self, link: TableLink) -> None:
        waiting = Waiting(self.config, self.patience, self.say)
        refused = False
        self._tell(link)
        while not self.stop.is_set():
            link.step()
            if link.changed.is_set():
                link.changed.clear()
                self._tell(link)
            mqtt = link.link
            if mqtt is not None and mqtt.refused and not refused:
                refused = True  # a wrong password or ACL: said once, the link keeps trying
                self.say(_("the broker refused this table: {why}").format(why=mqtt.refused[-1]))
            elif mqtt is not None and not refused:
                waiting.check(mqtt.connected)
            self.stop.wait(self.every)

    def _tell(self, link: TableLink) -> None:
        pairing = link.pairing
        if pairing is None:
            told = Pairing(link.caption())
        else:
            number, players = pairing
            told = Pairing(link.caption(), number, tuple(players), link.rounds[number][1])
        self.on_pairing(told)
