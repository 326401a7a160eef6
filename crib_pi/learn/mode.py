"""Learn mode at the table: what comes next, the rule behind each score, a caution in time.

The table session keeps one ``LearnMode`` while learn mode is on and asks it for the screen's
learn panel after every change. It also runs open-hand practice: before the starter is cut a
player lays all their cards face up in their zone, the coach ranks every discard, and the
cards then laid face up on the crib spot are the discard chosen, compared with the best. A
guided hand (``crib_pi.learn.guided``) replaces the step words with the script's.

Pure: it reads the game and returns words; the table decides what is laid, logged and shown.
The words are made when asked for, in the language then in force, so the screen and the voice
(which may speak another) each get the panel in theirs: ``lines`` for the screen, ``lessons``
for the voice (the same lessons, keyed, without the coach's list of numbers).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crib_pi.cards import Card, cards_text, deck
from crib_pi.coach import HAND_SIZE, DiscardChoice, DiscardVerdict, compare_discard, rank_discards
from crib_pi.errors import IllegalActionError
from crib_pi.game import Game, Record
from crib_pi.i18n import _
from crib_pi.learn.guided import Guide
from crib_pi.learn.risks import RANK_WORDS, ranks_said, risks, unseen_cards, warning
from crib_pi.learn.rules import explain, step_of, step_text
from crib_pi.players import player_name
from crib_pi.snapshot import ScoreEvent

BEST_SHOWN = 3
"""How many of the coach's discards the screen lists in practice."""

Lesson = tuple[str, str]
"""One line of the learn panel with its key (``step``, ``score 12``, ``caution``...): the voice
says a lesson when its key or its words are new."""


@dataclass
class Practice:
    """One player's open hand: the cards laid face up, the coach's ranking, the discard."""

    player: int
    dealer: bool
    players: int
    cards: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    choices: tuple[DiscardChoice, ...] = ()
    verdict: DiscardVerdict | None = None

    @property
    def complete(self) -> bool:
        return len(self.cards) == HAND_SIZE[self.players]

    def note(self) -> dict[str, Any]:
        """The practice as kept in the record (a ``practice`` line, which replay skips)."""
        assert self.verdict is not None
        return {
            "player": self.player,
            "dealer": self.dealer,
            "hand": [str(c) for c in self.cards],
            "top": [c.as_json() for c in self.choices[:BEST_SHOWN]],
            **self.verdict.as_json(),
        }


def choice_line(n: int, choice: DiscardChoice) -> str:
    """``1. 7C 9H: hand 16.65 (14-29), crib 4.26, net +20.91`` for the coach's list."""
    return _("{n}. {away}: hand {hand:.2f} ({low}-{high}), crib {crib:.2f}, net {net:+.2f}").format(
        n=n,
        away=cards_text(choice.discard),
        hand=choice.hand,
        low=choice.hand_min,
        high=choice.hand_max,
        crib=choice.crib,
        net=choice.net,
    )


def verdict_line(verdict: DiscardVerdict) -> str:
    """How the discard chosen compares with the coach's best, in points a deal."""
    away = cards_text(verdict.chosen.discard)
    if verdict.is_best:
        return _("{away} is the best of {n} discards ({net:+.2f} a deal).").format(
            away=away, n=verdict.choices, net=verdict.chosen.net
        )
    return _("{away} is number {place} of {n}: {lost:.2f} points a deal below {best}.").format(
        away=away,
        place=verdict.place,
        n=verdict.choices,
        lost=verdict.lost,
        best=cards_text(verdict.best.discard),
    )


@dataclass
class LearnMode:
    """What the learn panel says, built from the game and the practice under way."""

    players: int
    guide: Guide | None = None
    #: The scores the panel explains, each with its serial number (a key for the voice).
    scores: list[tuple[int, ScoreEvent]] = field(default_factory=list)
    scored_count: int = 0
    practice: dict[int, Practice] = field(default_factory=dict)
    #: Hands known from practice (the four kept), for cautions in the play.
    kept: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    #: The table's configured names (``crib_pi.players``).
    names: tuple[str, ...] = ()

    # -- scores ------------------------------------------------------------------------

    def scored(self, records: list[Record], *, more: bool = False) -> None:
        """The rule behind each score of ``records`` (added to the last ones with ``more``)."""
        events = [e for r in records for e in r.events]
        serials = range(self.scored_count, self.scored_count + len(events))
        self.scored_count += len(events)
        new = list(zip(serials, events, strict=True))
        self.scores = [*self.scores, *new] if more else new

    @property
    def explained(self) -> list[str]:
        """The rule behind each score explained, in the current language."""
        return [explain(event) for _serial, event in self.scores]

    # -- open-hand practice ------------------------------------------------------------

    def lay(self, game: Game, player: int, card: Card) -> str:
        """A card laid face up in ``player``'s zone before the starter: part of the practice."""
        dealer = game.dealer == player
        hand = self.practice.setdefault(player, Practice(player, dealer, self.players))
        size = HAND_SIZE[self.players]
        if hand.verdict is not None or hand.complete:
            return _(
                "{player}: all {size} cards are down; lay your discard face up on the crib spot"
            ).format(player=player_name(player, self.names), size=size)
        if card not in hand.cards:
            hand.cards.append(card)
        if not hand.complete:
            return _("practice: {player} has {n} of {size} cards face up").format(
                player=player_name(player, self.names), n=len(hand.cards), size=size
            )
        hand.choices = rank_discards(hand.cards, players=self.players, dealer=dealer)
        if size == 6:
            return _("practice: lay the two cards you choose face up on the crib spot")
        return _("practice: lay the card you choose face up on the crib spot")

    def discard(self, card: Card) -> Practice | None:
        """A card laid face up on the crib spot before the starter: the practice's discard.

        Returns the practice when its discard is complete (its verdict made), else None; a
        card that is not in a complete practice hand raises ``IllegalActionError``.
        """
        owner = next((p for p in self.practice.values() if p.complete and card in p.cards), None)
        if owner is None:
            raise IllegalActionError(
                _("{card} is not in a practice hand laid face up").format(card=card)
            )
        if card not in owner.discard and owner.verdict is None:
            owner.discard.append(card)
        if len(owner.discard) < len(owner.cards) - 4 or owner.verdict is not None:
            return None
        owner.verdict = compare_discard(owner.choices, owner.discard)
        self.kept[owner.player] = owner.verdict.chosen.keep
        return owner

    def practice_cards(self) -> list[Card]:
        return [c for p in self.practice.values() for c in p.cards]

    def new_deal(self) -> None:
        """The starter is cut (or the deal starts again): practice is over for this deal."""
        self.practice = {}

    def next_deal(self) -> None:
        self.kept = {}

    # -- the panel ---------------------------------------------------------------------

    def lines(self, game: Game) -> tuple[str, ...]:
        """The learn panel, most important first: guide or step, practice, scores, caution."""
        return tuple(text for _key, text in self._panel(game, spoken=False))

    def lessons(self, game: Game) -> tuple[Lesson, ...]:
        """The panel as the voice says it, each line keyed: the steps, the rule behind each
        score (without its cards, which the voice has just said), the verdict on a practice
        discard and the caution; the coach's list of numbers is for reading."""
        return tuple(self._panel(game, spoken=True))

    def _panel(self, game: Game, *, spoken: bool) -> list[Lesson]:
        out: list[Lesson] = []
        coaching = any(p.complete for p in self.practice.values())
        if self.guide is not None:
            out += [(f"guide {i}", line) for i, line in enumerate(self.guide.lines(game))]
        elif not coaching:
            step = step_of(game)
            out.append(("step", step_text(step, self.players, game.dealer, self.names)))
            if step in ("deal", "discard"):
                out.append(("discard", step_text("discard", self.players, game.dealer, self.names)))
                size = HAND_SIZE[self.players]
                practice = _(
                    "Practice: lay all {size} cards face up in your zone to see the best discards."
                )
                out.append(("practice", practice.format(size=size)))
        for hand in self.practice.values():
            out += self._practice_lines(hand, spoken)
        out += [(f"score {n}", explain(e, cards=not spoken)) for n, e in self.scores]
        said = self.caution(game)
        if said:
            out.append(("caution", said))
        return out

    def _practice_lines(self, hand: Practice, spoken: bool = False) -> list[Lesson]:
        if not hand.complete:
            return []
        out: list[Lesson] = []
        if not spoken:
            if hand.dealer:
                head = _("Coach for {player} (dealer), best discards of {n}:")
            else:
                head = _("Coach for {player} (not dealing), best discards of {n}:")
            name = player_name(hand.player, self.names)
            out.append(("coach", head.format(player=name, n=len(hand.choices))))
            best = enumerate(hand.choices[:BEST_SHOWN], start=1)
            out += [(f"coach {n}", choice_line(n, c)) for n, c in best]
        if hand.verdict is not None:
            out.append((f"verdict {hand.player}", verdict_line(hand.verdict)))
        return out

    # -- cautions ----------------------------------------------------------------------

    def caution(self, game: Game) -> str | None:
        """Before the next card of the play: what would hand the next player points."""
        player = game.turn
        if game.phase != "play" or player is None:
            return None
        pile = game.pile
        played = [c for p in range(self.players) for c in game.played(p)]
        known = [*played, *([game.starter] if game.starter else [])]
        hand = self.kept.get(player)
        if hand is not None:
            left = [c for c in hand if c not in played]
            playable = [c for c in left if game.count + c.value <= 31]
            for card in sorted(playable, key=lambda c: -_weight(pile, c, [*left, *known])):
                said = warning(pile, card, playable, [c for c in known if c not in pile])
                if said:
                    return _("Careful: {said}").format(said=said)
            return None
        return general_caution(pile, known)


def _weight(pile: tuple[Card, ...], card: Card, seen: list[Card]) -> float:
    out = unseen_cards([*pile, *seen])
    return sum(r.weight for r in risks(pile, card, out))


def general_caution(pile: tuple[Card, ...], known: list[Card]) -> str | None:
    """With the hand unknown: the ranks that would let any ten-card make fifteen or
    thirty-one, and a pair laid on the last card that invites a pair royal."""
    count = sum(c.value for c in pile)
    leaves: dict[tuple[int, int], list[int]] = {}
    pairs: list[int] = []
    for rank in range(1, 14):
        card = next((c for c in deck() if c.rank == rank and c not in known), None)
        if card is None or count + card.value > 31:
            continue
        for risk in risks(pile, card, unseen_cards([*known, card])):
            if risk.kind in ("fifteen", "thirty_one") and len(risk.ranks) == 4:
                total = 15 if risk.kind == "fifteen" else 31
                leaves.setdefault((count + card.value, total), []).append(rank)
            elif risk.kind == "pair_royal":
                pairs.append(rank)
    said = [
        _("{ranks} leaves {left}: any ten-card makes {total}").format(
            ranks=ranks_said(ranks), left=left, total=total
        )
        for (left, total), ranks in leaves.items()
    ]
    said += [
        _("another {rank} pairs for two but invites a pair royal for six").format(
            rank=_(RANK_WORDS[rank - 1])
        )
        for rank in pairs
    ]
    if not said:
        return None
    return _("Careful: {said}.").format(said=_("; ").join(said))
