"""The discard coach: every way to lay cards away to the crib, with exact expectations.

For six cards (two players) or five (three or four players), each choice gets the kept hand's
expected show over every starter the player cannot see (the unseen cards, all equally likely)
with its least and most, the crib's expected show over every way its other cards and the
starter can fall, and the net: hand + crib for the dealer, hand - crib for a non-dealer.
Nothing is sampled.

The crib's unknown cards are the starter and, with two players, the other player's two
discards; with three, the other two players' cards and the pack's; with four, the other three
players' cards. From where the player sits these are a set of 3 (two players) or 4 unseen cards,
all sets equally likely, one of them (any, equally likely) the starter.

Why it is fast: a show's fifteens, pairs and runs depend only on its five ranks, so the unseen
sets are grouped by rank (455 multisets of three ranks, 1,820 of four), each weighted by how
many sets of unseen cards have those ranks; the crib's flush and nobs are small counts by suit.

>>> choices = rank_discards(parse_cards("5H 5D 5C JS 7C 9H".split()), dealer=True)
>>> best = choices[0]
>>> cards_text(best.discard), cards_text(best.keep), best.hand_min, best.hand_max
('7C 9H', '5H 5D 5C JS', 14, 29)
>>> round(best.hand, 3), round(best.crib, 3), round(best.net, 3)
(16.652, 4.256, 20.908)
>>> compare_discard(choices, parse_cards(["5H", "5D"])).text()
'5H 5D is 10th of 15: 7.28 points a deal below 7C 9H'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
import numpy.typing as npt

from crib_pi.cards import SUITS, Card, cards_text, parse_cards
from crib_pi.errors import IllegalActionError
from crib_pi.i18n import _
from crib_pi.scoring import rank_points_table, score_hands

HAND_SIZE = {2: 6, 3: 5, 4: 5}
"""Cards dealt to each player, by the number of players."""


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """One way to lay cards away, with its expectations (points per deal)."""

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    hand: float
    hand_min: int
    hand_max: int
    crib: float
    net: float

    def as_json(self) -> dict[str, object]:
        return {
            "discard": [str(c) for c in self.discard],
            "keep": [str(c) for c in self.keep],
            "hand": self.hand,
            "hand_min": self.hand_min,
            "hand_max": self.hand_max,
            "crib": self.crib,
            "net": self.net,
        }


@dataclass(frozen=True, slots=True)
class DiscardVerdict:
    """How a chosen discard compares with the coach's best: ``lost`` is net points per deal."""

    chosen: DiscardChoice
    best: DiscardChoice
    place: int
    choices: int

    @property
    def lost(self) -> float:
        return self.best.net - self.chosen.net

    @property
    def is_best(self) -> bool:
        return self.lost <= 1e-9

    def as_json(self) -> dict[str, object]:
        """For a practice record: the choice made, the best, the place and the points lost."""
        return {
            "chosen": self.chosen.as_json(),
            "best": self.best.as_json(),
            "place": self.place,
            "choices": self.choices,
            "lost": self.lost,
        }

    def text(self) -> str:
        """``5H 5D is 3rd of 15: 1.24 points a deal below 7C 9H``: for the screen, in the
        current language."""
        if self.is_best:
            return _("{away} is the best of {n} ({net:+.2f} a deal)").format(
                away=cards_text(self.chosen.discard), n=self.choices, net=self.chosen.net
            )
        return _("{away} is {place} of {n}: {lost:.2f} points a deal below {best}").format(
            away=cards_text(self.chosen.discard),
            place=ordinal(self.place),
            n=self.choices,
            lost=self.lost,
            best=cards_text(self.best.discard),
        )


def ordinal(n: int) -> str:
    """``3rd`` / ``3e``: ``n`` as a place, in the current language."""
    if 10 <= n % 100 <= 20:
        return _("{n}th").format(n=n)
    if n % 10 == 1:
        return _("{n}st").format(n=n)
    if n % 10 == 2:
        return _("{n}nd").format(n=n)
    if n % 10 == 3:
        return _("{n}rd").format(n=n)
    return _("{n}th").format(n=n)


def _check(cards: Iterable[Card | str], players: int) -> tuple[Card, ...]:
    if isinstance(players, bool) or players not in HAND_SIZE:
        raise IllegalActionError(_("players {players!r} is not 2, 3 or 4").format(players=players))
    held = parse_cards(cards)
    want = HAND_SIZE[players]
    if len(held) != want:
        raise IllegalActionError(
            _("{players} players hold {want} cards each, not {count}: {cards}").format(
                players=players, want=want, count=len(held), cards=cards_text(held)
            )
        )
    return held


@cache
def _rank_multisets(size: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every multiset of ``size`` ranks: its part of a rank-table key, and its rank counts."""
    sets = np.array(list(combinations_with_replacement(range(13), size)), dtype=np.int64)
    keys = np.zeros(len(sets), dtype=np.int64)
    for pos in range(size):
        keys += sets[:, pos] * 13 ** (size - 1 - pos)
    counts = np.stack([(sets == r).sum(axis=1) for r in range(13)], axis=1)
    return keys, counts


_COMB = np.array([[comb(n, k) for k in range(5)] for n in range(5)], dtype=np.float64)


def rank_discards(
    cards: Iterable[Card | str], *, players: int = 2, dealer: bool = True
) -> tuple[DiscardChoice, ...]:
    """Every way to lay away ``cards`` (6 for two players, 5 for three or four), best first.

    ``net`` is hand + crib for the dealer and hand - crib otherwise; ties keep the order in
    which the discards come from the cards as given.
    """
    held = _check(cards, players)
    lay = len(held) - 4
    unknown = 5 - lay  # the crib's other cards and the starter, all unseen
    seen = {c.index for c in held}
    unseen = np.array([i for i in range(52) if i not in seen], dtype=np.int64)
    n_unseen = len(unseen)
    discards = list(combinations(range(len(held)), lay))
    keeps = [tuple(i for i in range(len(held)) if i not in d) for d in discards]

    # The hand: four kept cards with each unseen starter, scored by the batch scorer.
    index = np.array([c.index for c in held], dtype=np.int64)
    kept = index[np.array(keeps)]
    hands = np.repeat(kept, n_unseen, axis=0)
    starters = np.tile(unseen, len(keeps))
    shows = score_hands(hands, starters).reshape(len(keeps), n_unseen)
    hand_mean = shows.mean(axis=1)

    # The crib's fifteens, pairs and runs: the discard's ranks with each multiset of unseen
    # ranks, weighted by the number of unseen sets with those ranks.
    set_keys, set_counts = _rank_multisets(unknown)
    per_rank = np.bincount(unseen % 13, minlength=13)
    weights = _COMB[per_rank[None, :], set_counts].prod(axis=1)
    ranks = index % 13
    lead = np.zeros(len(discards), dtype=np.int64)
    for pos in range(lay):
        lead += ranks[np.array([d[pos] for d in discards])] * 13 ** (4 - pos)
    table = rank_points_table()
    rank_part = table[lead[:, None] + set_keys[None, :]].astype(np.float64) @ weights
    crib_mean = rank_part / comb(n_unseen, unknown)

    # Flush (all five of one suit) and nobs (the crib holds the jack of the starter's suit).
    per_suit = np.bincount(unseen // 13, minlength=4)
    for k, d in enumerate(discards):
        suits = {held[i].suit for i in d}
        if len(suits) == 1:
            u = int(per_suit[SUITS.index(next(iter(suits)))])
            crib_mean[k] += 5 * comb(u, unknown) / comb(n_unseen, unknown)
        laid = {held[i] for i in d}
        for s, suit in enumerate(SUITS):
            jack = Card(Card.JACK, suit)
            u = int(per_suit[s])
            if jack in laid:
                crib_mean[k] += u / n_unseen
            elif jack.index not in seen:
                crib_mean[k] += (u - 1) / n_unseen * (unknown - 1) / (n_unseen - 1)

    sign = 1.0 if dealer else -1.0
    choices = [
        DiscardChoice(
            discard=tuple(held[i] for i in d),
            keep=tuple(held[i] for i in keeps[k]),
            hand=float(hand_mean[k]),
            hand_min=int(shows[k].min()),
            hand_max=int(shows[k].max()),
            crib=float(crib_mean[k]),
            net=float(hand_mean[k] + sign * crib_mean[k]),
        )
        for k, d in enumerate(discards)
    ]
    order = sorted(range(len(choices)), key=lambda k: -choices[k].net)
    return tuple(choices[k] for k in order)


def compare_discard(
    choices: Sequence[DiscardChoice], discard: Iterable[Card | str]
) -> DiscardVerdict:
    """Where ``discard`` stands among ``choices`` (as ``rank_discards`` ranked them)."""
    if not choices:
        raise IllegalActionError(_("no discards to compare with"))
    laid = frozenset(parse_cards(discard))
    for choice in choices:
        if frozenset(choice.discard) == laid:
            place = 1 + sum(1 for c in choices if c.net > choice.net + 1e-9)
            return DiscardVerdict(choice, choices[0], place, len(choices))
    held = cards_text(choices[0].discard + choices[0].keep)
    raise IllegalActionError(
        _("{away} is not a discard from {held}").format(away=cards_text(sorted(laid)), held=held)
    )
