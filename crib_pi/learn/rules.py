"""The rule behind every score, and what comes next at each step: learn mode's words.

Learn mode shows a score with the rule that made it, so a new player learns the rules from
their own cards; between scores it says what the table does next. Everything here is text made
from the core's records; nothing is drawn or spoken here.

>>> from crib_pi.cards import parse_cards
>>> from crib_pi.scoring import score_hand, score_play
>>> run = score_play(parse_cards("3H 5C 4D".split())).items[0]
>>> print(explain(run, phase="play"))  # doctest: +NORMALIZE_WHITESPACE
a run of three for 3 (3H 5C 4D): the last three cards laid are in sequence,
in any order, and score one each
>>> print(explain(score_hand(parse_cards("5H 5D 5C JS".split()), "5S").items[-1]))
one for his nobs (JS): the jack of the starter's suit in a hand or the crib scores one
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from crib_pi.actions import Deal, Discard
from crib_pi.errors import CribError
from crib_pi.game import Game
from crib_pi.players import player_name
from crib_pi.scoring import ScoreItem, number_word
from crib_pi.snapshot import ScoreEvent

SHOW_PHASES = ("hand", "crib", "show")
"""Event phases of a count at the show (the engine says ``hand`` or ``crib``)."""


def rule(reason: str, points: int, cards: int, phase: str = "hand") -> str:
    """The rule that scores ``points`` for ``reason`` with ``cards`` cards, in ``phase``.

    ``phase`` is ``play`` for pegging, ``cut`` for the starter, and ``hand`` or ``crib`` (or
    ``show``) for a count; the same reason reads differently in play and in a count.
    """
    in_play = phase == "play"
    if reason == "fifteen":
        if in_play:
            return "bringing the count to exactly fifteen scores two"
        return (
            "every different set of cards that adds up to fifteen scores two "
            "(court cards count ten, an ace one)"
        )
    if reason == "thirty_one":
        return "bringing the count to exactly thirty-one scores two, and the count starts again"
    if reason == "pair":
        return _pair_rule(points, in_play)
    if reason == "run":
        length = number_word(cards)
        if in_play:
            return f"the last {length} cards laid are in sequence, in any order, and score one each"
        return (
            f"{length} cards in sequence, in any order, score one each; "
            "each different set of cards that makes the run counts again"
        )
    if reason == "flush":
        if points == 5:
            return "all four cards and the starter of one suit score five"
        return (
            "the four cards of a hand in one suit score four "
            "(the crib scores a flush only with the starter too)"
        )
    if reason == "nobs":
        return "the jack of the starter's suit in a hand or the crib scores one"
    if reason == "his_heels":
        return "when the starter cut is a jack, the dealer pegs two at once"
    if reason == "go":
        return (
            "when no one can lay a card without passing thirty-one, "
            "the last player to lay one pegs one, and the count starts again"
        )
    if reason == "last_card":
        return "whoever lays the last card of the play pegs one (not as well as thirty-one)"
    if reason == "hand":
        return "the points the player claimed for the count (muggins is on)"
    if reason == "muggins":
        return "points missed in a player's own count are taken by the opponent who calls muggins"
    return f"{points} for {reason.replace('_', ' ')}"


def _pair_rule(points: int, in_play: bool) -> str:
    where = "laid one after another" if in_play else "in a count"
    if points >= 12:
        return f"four cards of one rank {where} make six pairs: a double pair royal scores twelve"
    if points >= 6:
        return f"three cards of one rank {where} make three pairs: a pair royal scores six"
    return f"two cards of one rank {where} score two"


def explain(item: ScoreItem | ScoreEvent, phase: str | None = None) -> str:
    """``a run of three for 3 (4H 6C 5D): the last three cards laid are in sequence, ...``.

    An event carries its phase; for a bare score item give ``phase`` (``hand`` by default).
    """
    if isinstance(item, ScoreEvent):
        name, when = item.text, phase or item.phase
    else:
        name, when = item.name, phase or "hand"
    cards = " ".join(str(c) for c in item.cards)
    said = name if " for " in name else f"{name} for {item.points}"  # "one for his nobs"
    said += f" ({cards})" if cards else ""
    return f"{said}: {rule(item.reason, item.points, len(item.cards), when)}"


def explain_events(events: Iterable[ScoreEvent]) -> list[str]:
    """One line per event, in the order they were pegged."""
    return [explain(event) for event in events]


STEPS = ("cut_for_deal", "deal", "discard", "starter", "play", "show", "crib", "over")
"""The steps of a game in learn mode's order; ``step_text`` says each one."""


def step_text(
    step: str, players: int = 2, dealer: int | None = None, names: Sequence[str] = ()
) -> str:
    """What the table does at ``step`` (one of ``STEPS``), said to a new player."""
    who = "the dealer" if dealer is None else f"the dealer ({player_name(dealer, names)})"
    if step == "cut_for_deal":
        return (
            "Cut for deal: each player cuts the pack and turns up a card; "
            "the lowest card deals, and an ace is low."
        )
    if step == "deal":
        if players == 2:
            return f"Deal: {who} deals six cards to each player, one at a time."
        extra = ", and one card face down to the crib" if players == 3 else ""
        return f"Deal: {who} deals five cards to each player, one at a time{extra}."
    if step == "discard":
        lay = "two cards" if players == 2 else "one card"
        return (
            f"Lay away: each player lays {lay} face down in the crib. "
            "The crib is the dealer's: the dealer gives it good cards, the others keep them back."
        )
    if step == "starter":
        return (
            f"Cut the starter: the player left of the dealer cuts the pack and {who} turns up "
            "the top card. A jack gives the dealer two for his heels."
        )
    if step == "play":
        return (
            "The play: from the left of the dealer, lay one card at a time and say the count. "
            "Fifteen and thirty-one score two, pairs and runs score as they are laid; "
            "when you cannot play without passing thirty-one, say go."
        )
    if step == "show":
        return (
            "The show: from the left of the dealer, each player counts their four cards with "
            "the starter: fifteens, pairs, runs, flush and nobs. The dealer counts last."
        )
    if step == "crib":
        return (
            f"The crib: {who} turns the crib over and counts it with the starter; "
            "a flush in the crib needs all five cards. Then the deal passes to the left."
        )
    if step == "over":
        return (
            "The game is over. To play again, deal: the next player to the left of the dealer "
            "who is not on the winning side deals (with two players, the loser)."
        )
    raise CribError(f"step {step!r} is not one of {', '.join(STEPS)}")


def step_of(game: Game) -> str:
    """The step the game waits for, from its phase and (while dealing) the actions since."""
    phase = game.phase
    if phase in ("cut_for_deal", "play", "over"):
        return phase
    if phase in ("show", "claim"):
        return "crib" if game.crib_next else "show"
    dealt = discards = 0
    for record in reversed(game.records):
        if isinstance(record.action, Deal):
            dealt += 1
        elif isinstance(record.action, Discard):
            discards += 1
        else:
            break
    if discards >= game.options.players:
        return "starter"
    return "discard" if dealt or discards else "deal"
