"""Warnings before a card hands the next player points in the play: learn mode's caution.

Two mistakes cost new players the most: leaving the count where one card makes fifteen or
thirty-one (leading a five: any ten-card answers it), and pairing a card when a third of that
rank is still out (the pair scores two, the pair royal that answers it six). ``risks`` lists
what a card would invite, counting the unseen cards that could answer it; ``warning`` speaks up
only when another card in the hand invites less.

>>> from crib_pi.cards import parse_cards
>>> hand = parse_cards("5H 9C KD 2S".split())
>>> print(warning([], Card.parse("5H"), hand))  # doctest: +NORMALIZE_WHITESPACE
5H leaves the count at 5: a ten, jack, queen or king makes fifteen for 2
(15 of 48 unseen cards). 2S invites less.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from crib_pi.cards import Card, cards_text, deck
from crib_pi.errors import IllegalActionError
from crib_pi.i18n import N_, _
from crib_pi.scoring import FIFTEEN, PAIR_NAMES, THIRTY_ONE

RANK_WORDS = (
    N_("ace"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"),
    N_("eight"), N_("nine"), N_("ten"), N_("jack"), N_("queen"), N_("king"),
)  # fmt: skip
"""The ranks' names, ace to king (each marked for the catalogue, translated where said)."""
_WHAT = {
    "fifteen": FIFTEEN,
    "thirty_one": THIRTY_ONE,
    "pair_royal": PAIR_NAMES[3],
    "double_pair_royal": PAIR_NAMES[4],
}


def ranks_said(ranks: Sequence[int]) -> str:
    """``a ten, jack, queen or king`` / ``un dix, valet, dame ou roi``: any of ``ranks``."""
    words = [_(RANK_WORDS[r - 1]) for r in ranks]
    said = words[0]
    if len(words) > 1:
        said = _("{some} or {last}").format(some=", ".join(words[:-1]), last=words[-1])
    if ranks[0] == 12:  # French: une dame (its own message, so its article can agree)
        return _("a {queen}").format(queen=said)
    article = _("an {ranks}") if RANK_WORDS[ranks[0] - 1][0] in "ae" else _("a {ranks}")
    return article.format(ranks=said)


@dataclass(frozen=True, slots=True)
class Risk:
    """Points the next player could peg at once after a card: ``answers`` of ``unseen`` do it."""

    kind: str  # "fifteen", "thirty_one", "pair_royal" or "double_pair_royal"
    points: int
    ranks: tuple[int, ...]
    answers: int
    unseen: int

    @property
    def weight(self) -> float:
        """Points at stake times the share of unseen cards that take them."""
        return self.points * self.answers / self.unseen if self.unseen else 0.0

    def text(self) -> str:
        """``a five makes fifteen for 2 (4 of 46 unseen cards)``, in the current language."""
        return _("{ranks} makes {what} for {points} ({answers} of {unseen} unseen cards)").format(
            ranks=ranks_said(self.ranks),
            what=_(_WHAT[self.kind]),
            points=self.points,
            answers=self.answers,
            unseen=self.unseen,
        )


def unseen_cards(known: Iterable[Card]) -> tuple[Card, ...]:
    """Every card not in ``known`` (the player's hand, cards played, the starter)."""
    seen = set(known)
    return tuple(c for c in deck() if c not in seen)


def risks(
    pile: Sequence[Card], card: Card, unseen: Iterable[Card] | None = None
) -> tuple[Risk, ...]:
    """What laying ``card`` on ``pile`` (this count's cards, in order) invites at once.

    ``unseen`` are the cards the next player might hold; by default every card not in the pile
    or the card itself (the caller knows better: its own hand and the starter are not unseen).
    """
    count = sum(c.value for c in pile) + card.value
    if count > 31:
        raise IllegalActionError(
            _("{card} would make the count {count}").format(card=card, count=count)
        )
    if card in pile:
        raise IllegalActionError(
            _("{card} is already in the count: {cards}").format(card=card, cards=cards_text(pile))
        )
    out = tuple(unseen) if unseen is not None else unseen_cards([*pile, card])
    found: list[Risk] = []
    for target, kind in ((15, "fifteen"), (31, "thirty_one")):
        need = target - count
        if 1 <= need <= 10:
            ranks = tuple(range(10, 14)) if need == 10 else (need,)
            answers = sum(1 for c in out if c.rank in ranks)
            if answers:
                found.append(Risk(kind, 2, ranks, answers, len(out)))
    same = 1
    laid = [*pile, card]
    while same < len(laid) and laid[-1 - same].rank == card.rank:
        same += 1
    if 2 <= same < 4 and count + card.value <= 31:
        answers = sum(1 for c in out if c.rank == card.rank)
        if answers:
            kind = "pair_royal" if same == 2 else "double_pair_royal"
            points = (same + 1) * same
            found.append(Risk(kind, points, (card.rank,), answers, len(out)))
    return tuple(found)


def warning(
    pile: Sequence[Card],
    card: Card,
    hand: Sequence[Card],
    known: Iterable[Card] = (),
) -> str | None:
    """One line before a costly card, naming the card in ``hand`` that invites less; else None.

    ``hand`` is what the player holds now (``card`` among it); ``known`` are other cards the
    player has seen (the starter, cards played in earlier counts), which cannot answer.
    """
    if card not in hand:
        raise IllegalActionError(
            _("{card} is not in the hand {cards}").format(card=card, cards=cards_text(hand))
        )
    unseen = unseen_cards([*pile, *hand, *known])
    mine = risks(pile, card, unseen)
    if not mine:
        return None
    count = sum(c.value for c in pile)
    others = [c for c in hand if c != card and count + c.value <= 31]
    weight = sum(r.weight for r in mine)
    better = sorted(
        ((sum(r.weight for r in risks(pile, c, unseen)), c) for c in others),
        key=lambda pair: pair[0],
    )
    if not better or better[0][0] >= weight - 1e-12:
        return None
    said = _("; ").join(r.text() for r in mine)
    if any(r.kind.endswith("pair_royal") for r in mine):
        text = _("{card} makes a pair at {count}: {said}. {better} invites less.")
    else:
        text = _("{card} leaves the count at {count}: {said}. {better} invites less.")
    return text.format(card=card, count=count + card.value, said=said, better=better[0][1])
