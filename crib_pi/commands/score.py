"""``crib-pi score`` (count a hand or crib) and ``crib-pi peg`` (score a pegging series)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from crib_pi.cards import SUIT_SYMBOLS, SUITS, Card, parse_cards
from crib_pi.cli import clip
from crib_pi.errors import CardNotationError, IllegalActionError
from crib_pi.i18n import _
from crib_pi.scoring import Score, ScoreItem, score_hand, score_play


def add_parser(sub: Any) -> None:
    score = sub.add_parser(
        "score",
        help=_("count a hand: four cards then the starter"),
        description=_(
            "Count a hand (or with --crib the crib) item by item. "
            "The last card is the starter: crib-pi score 5H 5D 5S JC 5C"
        ),
    )
    score.add_argument("cards", nargs="+", metavar="CARD", help=_("5H, 10H or TH, 10♥ ..."))
    score.add_argument("--crib", action="store_true", help=_("count as the crib (flush needs 5)"))
    score.add_argument("--json", action="store_true", help=_("print one JSON object"))
    score.set_defaults(func=run_score)
    peg = sub.add_parser(
        "peg",
        help=_("score a pegging series card by card"),
        description=_(
            "Score cards laid in turn: crib-pi peg 5H 7C 6D. At 31 the count starts again."
        ),
    )
    peg.add_argument("cards", nargs="+", metavar="CARD", help=_("5H, 10H or TH, 10♥ ..."))
    peg.add_argument("--json", action="store_true", help=_("print one JSON object"))
    peg.set_defaults(func=run_peg)


#: Longest word read as a card: "10♥" with a variation selector is 4 characters.
MAX_CARD_CHARS = 8
RANK_WORDS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K"}


def read_cards(words: list[str]) -> tuple[Card, ...]:
    """The cards typed on the command line, or one line saying what is wrong with the first
    bad word: a rank and its suit typed apart (``10 H``), a rank with no suit, or a word far
    too long to be a card (echoed clipped, with its own length)."""
    for i, word in enumerate(words):
        if len(word) > MAX_CARD_CHARS:
            raise CardNotationError(
                _("card {word!r}: too long for a card like 5H or 10♥").format(word=clip(word, 40))
            )
        if word.strip().upper() in RANK_WORDS:
            following = words[i + 1].strip() if i + 1 < len(words) else ""
            if (len(following) == 1 and following.upper() in SUITS) or following in SUIT_SYMBOLS:
                raise CardNotationError(
                    _("{rank} {suit}: write a card's rank and suit together, like {card}").format(
                        rank=word, suit=following, card=f"{word.strip()}{following}"
                    )
                )
            raise CardNotationError(
                _("card {word!r} has no suit: write rank and suit together, like {card}").format(
                    word=word, card=f"{word.strip()}H"
                )
            )
    return parse_cards(words)


def _items_json(items: tuple[ScoreItem, ...]) -> list[dict[str, Any]]:
    return [
        {"reason": i.reason, "points": i.points, "cards": [str(c) for c in i.cards], "name": i.name}
        for i in items
    ]


def run_score(args: argparse.Namespace) -> int:
    cards = read_cards(args.cards)
    if len(cards) != 5:
        raise IllegalActionError(
            _("score needs 5 cards (4 in hand, then the starter), not {count}").format(
                count=len(cards)
            )
        )
    hand, starter = cards[:4], cards[4]
    score: Score = score_hand(hand, starter, crib=args.crib)
    if args.json:
        print(
            json.dumps(
                {
                    "hand": [str(c) for c in hand],
                    "starter": str(starter),
                    "crib": args.crib,
                    "total": score.total,
                    "items": _items_json(score.items),
                    "spoken": score.spoken(),
                },
                ensure_ascii=False,
            )
        )
        return 0
    head = (
        _("crib {cards}, starter {starter}: {total}")
        if args.crib
        else _("hand {cards}, starter {starter}: {total}")
    )
    print(head.format(cards=" ".join(map(str, hand)), starter=starter, total=score.total))
    for item in score.items:
        cards_said = " ".join(map(str, item.cards))
        print(f"  {item.points:>2}  {_(item.name):<24} {cards_said}")
    print(f"  {score.spoken()}")
    return 0


def run_peg(args: argparse.Namespace) -> int:
    cards = read_cards(args.cards)
    pile: list[Card] = []
    plays: list[tuple[Card, int, Score]] = []
    for card in cards:
        count = sum(c.value for c in pile) + card.value
        if count > 31:
            raise IllegalActionError(
                _("{card} would make the count {count}").format(card=card, count=count)
            )
        pile.append(card)
        plays.append((card, count, score_play(pile)))
        if count == 31:
            pile = []
    total = sum(score.total for _, _, score in plays)
    if args.json:
        out = [
            {"card": str(card), "count": count, "points": score.total}
            | {"items": _items_json(score.items)}
            for card, count, score in plays
        ]
        print(json.dumps({"plays": out, "total": total}, ensure_ascii=False))
        return 0
    for card, count, score in plays:
        said = _(", ").join(
            _("{name} for {points}").format(name=_(i.name), points=i.points) for i in score.items
        )
        print(f"{card!s:>3}  {count:>2}  {score.total:>2}  {said}")
    print(_("total {total}").format(total=total))
    return 0
