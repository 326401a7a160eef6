"""The rule behind every score, and what comes next at each step: learn mode's words.

Learn mode shows a score with the rule that made it, so a new player learns the rules from
their own cards; between scores it says what the table does next. Everything here is text made
from the core's records, in the current language (``crib_pi.i18n``); nothing is drawn or
spoken here.

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
from crib_pi.cards import cards_text
from crib_pi.errors import CribError
from crib_pi.game import Game
from crib_pi.i18n import _
from crib_pi.players import player_name
from crib_pi.scoring import ScoreItem, number_word
from crib_pi.snapshot import ScoreEvent

SHOW_PHASES = ("hand", "crib", "show")
"""Event phases of a count at the show (the engine says ``hand`` or ``crib``)."""


def rule(reason: str, points: int, cards: int, phase: str = "hand") -> str:
    """The rule that scores ``points`` for ``reason`` with ``cards`` cards, in ``phase``.

    ``phase`` is ``play`` for pegging, ``cut`` for the starter, and ``hand`` or ``crib`` (or
    ``show``) for a count; the same reason reads differently in play and in a count. Said in
    the current language.
    """
    in_play = phase == "play"
    if reason == "fifteen":
        if in_play:
            return _("bringing the count to exactly fifteen scores two")
        return _(
            "every different set of cards that adds up to fifteen scores two "
            "(court cards count ten, an ace one)"
        )
    if reason == "thirty_one":
        return _("bringing the count to exactly thirty-one scores two, and the count starts again")
    if reason == "pair":
        return _pair_rule(points, in_play)
    if reason == "run":
        length = number_word(cards)
        if in_play:
            return _(
                "the last {length} cards laid are in sequence, in any order, and score one each"
            ).format(length=length)
        return _(
            "{length} cards in sequence, in any order, score one each; "
            "each different set of cards that makes the run counts again"
        ).format(length=length)
    if reason == "flush":
        if points == 5:
            return _("all four cards and the starter of one suit score five")
        return _(
            "the four cards of a hand in one suit score four "
            "(the crib scores a flush only with the starter too)"
        )
    if reason == "nobs":
        return _("the jack of the starter's suit in a hand or the crib scores one")
    if reason == "his_heels":
        return _("when the starter cut is a jack, the dealer pegs two at once")
    if reason == "go":
        return _(
            "when no one can lay a card without passing thirty-one, "
            "the last player to lay one pegs one, and the count starts again"
        )
    if reason == "last_card":
        return _("whoever lays the last card of the play pegs one (not as well as thirty-one)")
    if reason == "hand":
        return _("the points the player claimed for the count (muggins is on)")
    if reason == "muggins":
        return _(
            "points missed in a player's own count are taken by the opponent who calls muggins"
        )
    return _("{points} for {reason}").format(points=points, reason=reason.replace("_", " "))


def _pair_rule(points: int, in_play: bool) -> str:
    if points >= 12:
        if in_play:
            return _(
                "four cards of one rank laid one after another make six pairs: "
                "a double pair royal scores twelve"
            )
        return _(
            "four cards of one rank in a count make six pairs: a double pair royal scores twelve"
        )
    if points >= 6:
        if in_play:
            return _(
                "three cards of one rank laid one after another make three pairs: "
                "a pair royal scores six"
            )
        return _("three cards of one rank in a count make three pairs: a pair royal scores six")
    if in_play:
        return _("two cards of one rank laid one after another score two")
    return _("two cards of one rank in a count score two")


def explain(item: ScoreItem | ScoreEvent, phase: str | None = None, *, cards: bool = True) -> str:
    """``a run of three for 3 (4H 6C 5D): the last three cards laid are in sequence, ...``.

    An event carries its phase; for a bare score item give ``phase`` (``hand`` by default).
    Said in the current language (the item's English name decides the form); ``cards=False``
    leaves the cards out, for the voice, which has just named them.
    """
    if isinstance(item, ScoreEvent):
        name, when, named = item.text, phase or item.phase, item.said()
    else:
        name, when, named = item.name, phase or "hand", _(item.name)
    said = named  # "one for his nobs" already says its points
    if " for " not in name:
        said = _("{name} for {points}").format(name=named, points=item.points)
    if item.cards and cards:
        said += f" ({cards_text(item.cards)})"
    why = rule(item.reason, item.points, len(item.cards), when)
    return _("{said}: {rule}").format(said=said, rule=why)


def explain_events(events: Iterable[ScoreEvent]) -> list[str]:
    """One line per event, in the order they were pegged."""
    return [explain(event) for event in events]


STEPS = ("cut_for_deal", "deal", "discard", "starter", "play", "show", "crib", "over")
"""The steps of a game in learn mode's order; ``step_text`` says each one."""


def step_text(
    step: str, players: int = 2, dealer: int | None = None, names: Sequence[str] = ()
) -> str:
    """What the table does at ``step`` (one of ``STEPS``), said to a new player."""
    if dealer is None:
        who = _("the dealer")
    else:
        who = _("the dealer ({dealer})").format(dealer=player_name(dealer, names))
    if step == "cut_for_deal":
        return _(
            "Cut for deal: each player cuts the pack and turns up a card; "
            "the lowest card deals, and an ace is low."
        )
    if step == "deal":
        if players == 2:
            text = _("Deal: {who} deals six cards to each player, one at a time.")
        elif players == 3:
            text = _(
                "Deal: {who} deals five cards to each player, one at a time, "
                "and one card face down to the crib."
            )
        else:
            text = _("Deal: {who} deals five cards to each player, one at a time.")
        return text.format(who=who)
    if step == "discard":
        if players == 2:
            lay = _("Lay away: each player lays two cards face down in the crib.")
        else:
            lay = _("Lay away: each player lays one card face down in the crib.")
        whose = _(
            "The crib is the dealer's: the dealer gives it good cards, the others keep them back."
        )
        return f"{lay} {whose}"
    if step == "starter":
        return _(
            "Cut the starter: the player left of the dealer cuts the pack and {who} turns up "
            "the top card. A jack gives the dealer two for his heels."
        ).format(who=who)
    if step == "play":
        return _(
            "The play: from the left of the dealer, lay one card at a time and say the count. "
            "Fifteen and thirty-one score two, pairs and runs score as they are laid; "
            "when you cannot play without passing thirty-one, say go."
        )
    if step == "show":
        return _(
            "The show: from the left of the dealer, each player counts their four cards with "
            "the starter: fifteens, pairs, runs, flush and nobs. The dealer counts last."
        )
    if step == "crib":
        return _(
            "The crib: {who} turns the crib over and counts it with the starter; "
            "a flush in the crib needs all five cards. Then the deal passes to the left."
        ).format(who=who)
    if step == "over":
        return _(
            "The game is over. To play again, deal: the next player to the left of the dealer "
            "who is not on the winning side deals (with two players, the loser)."
        )
    raise CribError(
        _("step {step!r} is not one of {steps}").format(step=step, steps=", ".join(STEPS))
    )


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
