"""``crib-pi discard``: the discard coach's ranking of every way to lay cards away."""

from __future__ import annotations

import argparse
import json
from typing import Any

from crib_pi.cards import cards_text
from crib_pi.commands.score import read_cards
from crib_pi.errors import IllegalActionError
from crib_pi.i18n import _


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "discard",
        help=_("rank every way to lay cards away to the crib (the discard coach)"),
        description=_(
            "Rank every discard by expected points, exactly, over every unseen starter "
            "and crib: crib-pi discard 7C 9H 5H 5C 5D JS --pone. Six cards for two players, "
            "five for three or four. The dealer adds the crib, a non-dealer subtracts it."
        ),
    )
    parser.add_argument("cards", nargs="+", metavar="CARD", help=_("5H, 10H or TH, 10♥ ..."))
    side = parser.add_mutually_exclusive_group()
    side.add_argument(
        "--dealer", dest="dealer", action="store_true", default=True, help=_("the crib is yours")
    )
    side.add_argument(
        "--pone", dest="dealer", action="store_false", help=_("the crib is the dealer's")
    )
    parser.add_argument("--players", default="2", help=_("2 (default), 3 or 4"))
    parser.add_argument(
        "--json",
        action="store_true",
        help=_("print one JSON array: an object per choice, best first"),
    )
    parser.set_defaults(func=run_discard)


def run_discard(args: argparse.Namespace) -> int:
    from crib_pi.coach import rank_discards

    if args.players not in ("2", "3", "4"):
        raise IllegalActionError(
            _("--players {players!r} is not 2, 3 or 4").format(players=args.players)
        )
    held = read_cards(args.cards)
    choices = rank_discards(held, players=int(args.players), dealer=args.dealer)
    if args.json:
        print(json.dumps([c.as_json() for c in choices], ensure_ascii=False))
        return 0
    who = _("dealer") if args.dealer else _("pone")
    sign = "+" if args.dealer else "-"
    print(
        _("{held}: {players} players, {who} (net = hand {sign} crib)").format(
            held=cards_text(held), players=args.players, who=who, sign=sign
        )
    )
    width = max(3 * len(choices[0].discard) + 2, 8)
    away, keep, hand, spread, crib, net = (
        _("lay away"), _("keep"), _("hand"), _("min-max"), _("crib"), _("net")
    )  # fmt: skip
    print(f"{away:<{width}} {keep:<15} {hand:>6} {spread:>7} {crib:>6} {net:>7}")
    for c in choices:
        span = f"{c.hand_min}-{c.hand_max}"
        print(
            f"{cards_text(c.discard):<{width}} {cards_text(c.keep):<15} "
            f"{c.hand:6.2f} {span:>7} {c.crib:6.2f} {c.net:7.2f}"
        )
    return 0
