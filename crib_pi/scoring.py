"""Scoring, pure and itemised: the show (hand and crib) and each pegging play.

Every function returns the items a player would say aloud, in the order they say them
(fifteens, pairs, runs, flush, nobs), so a count can be checked item by item.

>>> score_hand(parse_cards("5H 5D 5C JS".split()), Card.parse("5S")).total
29
>>> score_hand(parse_cards("AS AH 2S 2H".split()), Card.parse("3C")).spoken()
'two pairs is four, and four runs of three are sixteen'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

import numpy as np
import numpy.typing as npt

from crib_pi.cards import Card, cards_text, parse_cards
from crib_pi.errors import DuplicateCardError, IllegalActionError
from crib_pi.i18n import N_, _, ngettext, number

#: How each item is said. A ``ScoreItem.name`` is one of these English words (the records and
#: the JSON outputs keep them, language-free); ``_(item.name)`` says it in the table's language.
PAIR_NAMES = {2: N_("a pair"), 3: N_("a pair royal"), 4: N_("a double pair royal")}
RUN_NAMES = {
    3: N_("a run of three"),
    4: N_("a run of four"),
    5: N_("a run of five"),
    6: N_("a run of six"),
    7: N_("a run of seven"),
}
FLUSH_NAMES = {4: N_("a flush of four"), 5: N_("a flush of five")}
FIFTEEN, THIRTY_ONE, NOBS = N_("fifteen"), N_("thirty-one"), N_("one for his nobs")


def number_word(n: int) -> str:
    """``n`` said as words in the current language (``fifteen``, ``quinze``)."""
    return number(n)


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One thing that scores: ``reason`` is a fixed word, ``name`` is how it is said."""

    reason: str
    points: int
    cards: tuple[Card, ...]
    name: str

    def __str__(self) -> str:
        return _("{name} for {points} ({cards})").format(
            name=_(self.name), points=self.points, cards=cards_text(self.cards)
        )


@dataclass(frozen=True, slots=True)
class Score:
    """A total with its items; ``spoken()`` counts it the way players do."""

    items: tuple[ScoreItem, ...]

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def by_reason(self) -> dict[str, int]:
        """Points per reason, e.g. ``{"fifteen": 4, "pair": 2}``."""
        out: dict[str, int] = {}
        for item in self.items:
            out[item.reason] = out.get(item.reason, 0) + item.points
        return out

    def spoken(self) -> str:
        """``fifteen two, fifteen four, and a pair is six``; ``nineteen`` for nothing."""
        return spoken(self.items)


def spoken(items: Sequence[ScoreItem]) -> str:
    """Say a list of items with running totals, grouping repeats (double runs), in the current
    language: ``fifteen two, and a pair is four`` / ``quinze deux, et une paire font quatre``."""
    if not items:
        return _("nineteen (no points)")
    phrases: list[str] = []
    running = 0
    i = 0
    while i < len(items):
        item = items[i]
        if item.reason == "fifteen":
            running += item.points
            phrases.append(_("fifteen {total}").format(total=number(running)))
            i += 1
            continue
        same = 1
        while (
            i + same < len(items)
            and items[i + same].reason == item.reason
            and items[i + same].name == item.name
        ):
            same += 1
        running += item.points * same
        total = number(running)
        if same == 1:
            said = ngettext("{item} is {total}", "{item} is {total}", running)
            phrases.append(said.format(item=_(item.name), total=total))
        elif item.reason == "run":
            said = ngettext(
                "{count} run of {length} is {total}", "{count} runs of {length} are {total}", same
            )
            phrases.append(
                said.format(count=number(same), length=number(len(item.cards)), total=total)
            )
        else:
            said = ngettext("{count} pair is {total}", "{count} pairs is {total}", same)
            phrases.append(said.format(count=number(same), total=total))
        i += same
    if len(phrases) > 1:
        phrases[-1] = _("and {phrase}").format(phrase=phrases[-1])
    return _(", ").join(phrases)


def _as_cards(cards: Iterable[Card | str]) -> tuple[Card, ...]:
    return parse_cards(cards, unique=True)


def _fifteens(cards: Sequence[Card]) -> list[ScoreItem]:
    items = []
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            if sum(c.value for c in combo) == 15:
                items.append(ScoreItem("fifteen", 2, combo, FIFTEEN))
    return items


def _pairs(cards: Sequence[Card]) -> list[ScoreItem]:
    items = []
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    for group in by_rank.values():
        if len(group) >= 2:
            items.append(
                ScoreItem(
                    "pair", len(group) * (len(group) - 1), tuple(group), PAIR_NAMES[len(group)]
                )
            )
    return items


def _runs(cards: Sequence[Card]) -> list[ScoreItem]:
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards, key=lambda c: (c.rank, c.suit)):
        by_rank.setdefault(card.rank, []).append(card)
    ranks = sorted(by_rank)
    best: list[int] = []
    current: list[int] = []
    for rank in ranks:
        current = [*current, rank] if current and rank == current[-1] + 1 else [rank]
        if len(current) > len(best):
            best = current
    if len(best) < 3:
        return []
    name = RUN_NAMES[len(best)]
    return [
        ScoreItem("run", len(best), tuple(combo), name)
        for combo in product(*(by_rank[r] for r in best))
    ]


def score_hand(hand: Iterable[Card | str], starter: Card | str, *, crib: bool = False) -> Score:
    """Score four cards with the starter, as a hand or (``crib=True``) as the crib.

    A hand flush is four cards of one suit (five with the starter); the crib needs all five.
    Nobs is the jack of the starter's suit in the hand. His heels (a starter jack) belongs to
    the dealer at the cut, not to the show.
    """
    cards = _as_cards(hand)
    cut = starter if isinstance(starter, Card) else Card.parse(starter)
    if len(cards) != 4:
        raise IllegalActionError(
            _("a hand has 4 cards, not {count}: {cards}").format(
                count=len(cards), cards=cards_text(cards)
            )
        )
    if cut in cards:
        raise DuplicateCardError(
            _("the starter {cut} is also in the hand {cards}").format(
                cut=cut, cards=cards_text(cards)
            )
        )
    five = (*cards, cut)
    items = _fifteens(five) + _pairs(five) + _runs(five)
    suits = {c.suit for c in cards}
    if len(suits) == 1:
        if cut.suit in suits:
            items.append(ScoreItem("flush", 5, five, FLUSH_NAMES[5]))
        elif not crib:
            items.append(ScoreItem("flush", 4, cards, FLUSH_NAMES[4]))
    for card in cards:
        if card.is_jack and card.suit == cut.suit:
            items.append(ScoreItem("nobs", 1, (card,), NOBS))
    return Score(tuple(items))


def score_play(pile: Iterable[Card | str]) -> Score:
    """Points for the last card laid on ``pile`` (the cards of the current series, in order).

    15 and 31 score 2; the last cards of one rank score 2, 6 or 12; the longest run of the
    most recent cards, in any order, scores its length. Go and last card are the game's.
    """
    cards = _as_cards(pile)
    if not cards:
        return Score(())
    count = sum(c.value for c in cards)
    if count > 31:
        raise IllegalActionError(
            _("the count of {cards} is {count}, past 31").format(
                cards=cards_text(cards), count=count
            )
        )
    last = cards[-1]
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem("fifteen", 2, cards, FIFTEEN))
    elif count == 31:
        items.append(ScoreItem("thirty_one", 2, cards, THIRTY_ONE))
    same = 1
    while same < len(cards) and cards[-1 - same].rank == last.rank:
        same += 1
    if same >= 2:
        group = cards[-same:]
        items.append(ScoreItem("pair", same * (same - 1), group, PAIR_NAMES[same]))
    for length in range(len(cards), 2, -1):
        ranks = [c.rank for c in cards[-length:]]
        if len(set(ranks)) == length and max(ranks) - min(ranks) == length - 1:
            items.append(ScoreItem("run", length, cards[-length:], RUN_NAMES[length]))
            break
    return Score(tuple(items))


# ---------------------------------------------------------------------------------------
# The batch scorer: all of a hand's rank-only points (fifteens, pairs, runs) come from one
# table of 13**5 entries indexed by the five ranks; suits add flush and nobs.


@cache
def _rank_table() -> npt.NDArray[np.int8]:
    """Fifteens + pairs + runs for every ordered 5-tuple of ranks (0 = ace .. 12 = king)."""
    ranks = np.indices((13,) * 5, dtype=np.int16).reshape(5, -1)
    values = np.minimum(ranks + 1, 10)
    points = np.zeros(ranks.shape[1], dtype=np.int16)
    for size in range(2, 6):
        for combo in combinations(range(5), size):
            points += 2 * (values[list(combo)].sum(axis=0) == 15)
    for i, j in combinations(range(5), 2):
        points += 2 * (ranks[i] == ranks[j])
    counts = np.stack([(ranks == r).sum(axis=0) for r in range(13)])
    runs = np.zeros_like(points)
    for length in (5, 4, 3):
        level = np.zeros_like(points)
        for start in range(0, 14 - length):
            window = counts[start : start + length]
            present = (window > 0).all(axis=0)
            level += np.where(present, length * window.prod(axis=0), 0).astype(np.int16)
        runs = np.where(runs > 0, runs, level)
    table: npt.NDArray[np.int8] = (points + runs).astype(np.int8)
    return table


def rank_points_table() -> npt.NDArray[np.int8]:
    """Fifteens + pairs + runs of five ranks (0 = ace .. 12 = king), at ``sum(r * 13**(4-i))``.

    The same for every order of the five ranks; flush and nobs, which need suits, are not in it.
    """
    return _rank_table()


# Each card packs, per position, its rank digit (base 13, bits 0..18) and a one-hot count of
# its suit (3 bits per suit, bits 19..30), so five table look-ups and four additions give
# both the rank key and the suit counts of a show.
_SUIT_SHIFT = 19
_PACKED = [
    (
        (np.arange(52) % 13) * 13 ** (4 - pos) + (1 << (_SUIT_SHIFT + 3 * (np.arange(52) // 13)))
    ).astype(np.int32)
    for pos in range(5)
]
_FIELDS = np.arange(1 << 12)
_HAS_4 = np.zeros(1 << 12, dtype=np.int16)
_HAS_5 = np.zeros(1 << 12, dtype=np.int16)
for _j in range(4):
    _HAS_4 |= ((_FIELDS >> (3 * _j)) & 7) == 4
    _HAS_5 |= ((_FIELDS >> (3 * _j)) & 7) == 5


def score_hands(
    hands: npt.ArrayLike, starters: npt.ArrayLike, *, crib: bool = False
) -> npt.NDArray[np.int16]:
    """Totals for many shows at once: ``hands`` is N x 4 and ``starters`` N ``Card.index``.

    Gives the same totals as ``score_hand`` (checked over all 12,994,800 shows in the tests)
    without a Python loop. Cards within a show are assumed distinct.
    """
    h = np.asarray(hands)
    s = np.asarray(starters)
    if h.ndim != 2 or h.shape[1] != 4 or s.shape != (h.shape[0],):
        raise IllegalActionError(
            _("score_hands wants hands N x 4 and starters N, got {hands} and {starters}").format(
                hands=h.shape, starters=s.shape
            )
        )
    if h.size and (h.min() < 0 or h.max() > 51 or s.min() < 0 or s.max() > 51):
        raise IllegalActionError(_("score_hands: card indexes must be 0..51"))
    packed = np.take(_PACKED[0], h[:, 0])
    for pos in range(1, 4):
        packed += np.take(_PACKED[pos], h[:, pos])
    hand_suits = packed >> _SUIT_SHIFT
    packed += np.take(_PACKED[4], s)
    total = np.take(_rank_table(), packed & ((1 << _SUIT_SHIFT) - 1)).astype(np.int16)
    flush5 = np.take(_HAS_5, packed >> _SUIT_SHIFT)
    if crib:
        total += 5 * flush5
    else:
        total += flush5
        total += 4 * np.take(_HAS_4, hand_suits)
    nobs_card = (s // 13).astype(np.int8) * 13 + 10
    nobs = h[:, 0] == nobs_card
    for pos in range(1, 4):
        nobs |= h[:, pos] == nobs_card
    total += nobs
    return total


def all_shows() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """Every show: each of the 270,725 four-card hands with each of its 48 starters."""
    hands = np.array(list(combinations(range(52), 4)), dtype=np.int8)
    free = np.ones((len(hands), 52), dtype=bool)
    free[np.arange(len(hands))[:, None], hands] = False
    rows, starters = np.nonzero(free)
    return hands[rows], starters.astype(np.int8)
