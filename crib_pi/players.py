"""How a person reads or hears a player: the configured name, else "Player 1".."Player 4".

Records, JSON and the record format number players from 0; people never should. Every human
text names a player through ``player_name`` (and a partnership through ``side_name``), so one
scheme holds on the screen, in the voice and in the CLI, in every language.
"""

from __future__ import annotations

from collections.abc import Sequence

from crib_pi.i18n import _


def player_name(player: int, names: Sequence[str] = ()) -> str:
    """Player ``player`` (0-based, as in records) as a person says it: its configured name,
    else ``Player 1`` for player 0."""
    if 0 <= player < len(names) and names[player]:
        return names[player]
    return _("Player {number}").format(number=player + 1)


def side_name(side: int, players: int, names: Sequence[str] = ()) -> str:
    """A side as a person says it: the player's name, or both partners' when four play."""
    if players == 4:
        return _("{first} & {second}").format(
            first=player_name(side, names), second=player_name(side + 2, names)
        )
    return player_name(side, names)
