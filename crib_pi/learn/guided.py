"""Three guided hands: scripted deals the table walks a new player through, card by card.

The learn-to-play pages teach with three guided hands; here they are dealt from a real pack and
played on the mat. Each hand says what to lay where, and before each card what it will score
and why; the table scores what is really laid, so a hand played as scripted ends as the script
says, and a card off the script is noticed. What each step scores is worked out by the engine
from the script (never written by hand), so the words cannot drift from the rules.

The hands are for two players, player 0 dealing. Plays are written ``"1 7C"`` (player 1 lays
7C) or ``"0 go"``; the shows and the crib follow the play as in any deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from crib_pi.actions import Action, Crib, Cut, Deal, Discard, GameOptions, Go, Play, Show
from crib_pi.cards import Card, cards_text, parse_cards
from crib_pi.errors import CribError
from crib_pi.game import Game, Record
from crib_pi.i18n import N_, _
from crib_pi.learn.rules import explain
from crib_pi.players import player_name
from crib_pi.scoring import score_hand


@dataclass(frozen=True)
class GuidedHand:
    """One scripted deal: the cards each player is dealt, what they lay away, the starter and
    the play, with the lesson it teaches."""

    title: str
    lesson: str
    hands: tuple[str, str]
    discards: tuple[str, str]
    starter: str
    plays: tuple[str, ...]

    @property
    def options(self) -> GameOptions:
        return GameOptions(players=2, target=121, dealer=0)

    @cached_property
    def full_script(self) -> tuple[Action, ...]:
        """Every action of the deal, hands known: deal, discards, cut, play, shows, crib."""
        hands = tuple(parse_cards(h.split()) for h in self.hands)
        discards = tuple(parse_cards(d.split()) for d in self.discards)
        actions: list[Action] = [Deal(hands)]
        actions += [Discard(p, discards[p]) for p in (1, 0)]
        actions.append(Cut(Card.parse(self.starter)))
        for step in self.plays:
            who, what = step.split()
            player = int(who)
            actions.append(Go(player) if what == "go" else Play(player, Card.parse(what)))
        game = Game(self.options)
        for action in actions:
            game.apply(action)
        while game.phase == "show" and not game.crib_next:
            turn = game.turn
            assert turn is not None
            show = Show(turn, tuple(c for c in hands[turn] if c not in discards[turn]))
            actions.append(show)
            game.apply(show)
        actions.append(Crib(discards[1] + discards[0]))
        game.apply(actions[-1])
        if game.phase != "deal":
            raise CribError(
                _("guided hand {title!r} does not end its deal").format(title=self.title)
            )
        return tuple(actions)

    @property
    def script(self) -> tuple[Action, ...]:
        """What the table sees of the deal (the cards laid and the buttons), as it logs it."""
        return tuple(a for a in self.full_script if not isinstance(a, Deal | Discard | Show))

    @property
    def table_record(self) -> tuple[Action, ...]:
        """The deal as the table logs it: ``script`` with the shows it counts by itself."""
        return tuple(a for a in self.full_script if not isinstance(a, Deal | Discard))

    @cached_property
    def records(self) -> tuple[Record, ...]:
        """The engine's record of each action of ``full_script``, in order."""
        game = Game(self.options)
        return tuple(game.apply(a) for a in self.full_script)

    @cached_property
    def final_scores(self) -> tuple[int, ...]:
        game = Game(self.options)
        for action in self.full_script:
            game.apply(action)
        return game.scores


def _hand(title: str, lesson: str, hands: tuple[str, str], discards: tuple[str, str],
          starter: str, plays: str) -> GuidedHand:  # fmt: skip
    return GuidedHand(title, lesson, hands, discards, starter, tuple(plays.split(", ")))


GUIDED_HANDS = (
    _hand(
        N_("Fifteens and pairs"),
        N_(
            "In the play, bring the count to fifteen for two, and pair the card just laid for "
            "two; at the show, every set of cards that adds up to fifteen scores two."
        ),
        ("7H 8S 5C JD 4H QC", "7C 7D 6H 9D KH 2S"),
        ("4H QC", "KH 2S"),
        "3D",
        "1 7C, 0 8S, 1 7D, 0 7H, 1 go, 0 go, 1 6H, 0 5C, 1 9D, 0 JD",
    ),
    _hand(
        N_("Runs and the go"),
        N_(
            "Three or more cards in sequence score one each, in the play and in a hand; when no "
            "one can lay a card without passing thirty-one, the last to lay pegs one for the go."
        ),
        ("4C 6D 9S 9H KC QS", "3S 5H 6C 8D JC AD"),
        ("KC QS", "JC AD"),
        "7H",
        "1 5H, 0 4C, 1 3S, 0 6D, 1 6C, 0 go, 1 go, 0 9S, 1 8D, 0 9H",
    ),
    _hand(
        N_("The crib, the flush and his nobs"),
        N_(
            "The dealer's crib is a second hand made of the cards laid away; four cards of one "
            "suit are a flush, and the jack of the starter's suit scores one for his nobs."
        ),
        ("2H 4H 8H JH 5S 5D", "10C KD 3C 9C 5C QS"),
        ("5S 5D", "KD QS"),
        "6H",
        "1 10C, 0 4H, 1 3C, 0 2H, 1 9C, 0 go, 1 go, 0 8H, 1 5C, 0 JH",
    ),
)
"""The three guided hands, in the order the learn-to-play pages teach them."""


@dataclass
class Guide:
    """Follows the table through one guided hand: what to do next, and whether it is on script."""

    number: int  # 1, 2 or 3
    #: The table's configured names, for what the guide tells each player.
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.number, bool) or self.number not in range(1, len(GUIDED_HANDS) + 1):
            raise CribError(_("guided hand {n!r} is not 1, 2 or 3").format(n=self.number))

    @property
    def hand(self) -> GuidedHand:
        return GUIDED_HANDS[self.number - 1]

    def done(self, game: Game) -> int:
        """How many of the script's table actions the game has; -1 when it left the script."""
        script = self.hand.script
        seen = [r.action for r in game.records if not isinstance(r.action, Show)]
        if seen[: len(script)] != list(script[: len(seen)]):
            return -1
        return min(len(seen), len(script))  # after the hand, the game may go on

    def finished(self, game: Game) -> bool:
        return self.done(game) == len(self.hand.script)

    def lines(self, game: Game) -> list[str]:
        """The screen's words for the step the hand has reached."""
        hand = self.hand
        done = self.done(game)
        title = _("Guided hand {n} of {of}: {title}").format(
            n=self.number, of=len(GUIDED_HANDS), title=_(hand.title)
        )
        if done < 0:
            return [title, _("That was not the script's card or button: Undo takes it back.")]
        if done == len(hand.script):
            scores = " - ".join(str(s) for s in game.scores)
            return [title, _("The hand ended as scripted: {scores}.").format(scores=scores)]
        action = hand.script[done]
        if isinstance(action, Cut):
            return [title, _(hand.lesson), *self._deal_words(), self._what(action)]
        return [title, self._what(action)]

    def _deal_words(self) -> list[str]:
        hand = self.hand
        out = []
        for player in (1, 0):
            out.append(
                _("Deal {player} {cards}; they lay away {away}.").format(
                    player=player_name(player, self.names),
                    cards=hand.hands[player],
                    away=hand.discards[player],
                )
            )
        return out

    def _what(self, action: Action) -> str:
        """What to do for ``action``, with what it scores and why."""
        hand = self.hand
        index = hand.full_script.index(action)
        record = hand.records[index]
        if isinstance(action, Cut):
            said = _("Turn up {card} on the starter spot").format(card=action.card)
        elif isinstance(action, Play):
            said = _("{player}: lay {card} in your zone").format(
                player=player_name(action.player, self.names), card=action.card
            )
        elif isinstance(action, Go):
            said = _("{player} cannot lay a card without passing 31: press Go").format(
                player=player_name(action.player, self.names)
            )
        elif isinstance(action, Crib):
            shown = _crib_words(hand)
            said = _("Turn the crib face up on its spot ({cards}){shown}").format(
                cards=cards_text(action.cards), shown=shown
            )
            return said + "."
        else:
            said = str(action)
        if not record.events:
            return said + _(": it scores nothing.")
        why = _("; ").join(explain(e) for e in record.events)
        return _("{said}: {why}.").format(said=said, why=why)


def _crib_words(hand: GuidedHand) -> str:
    crib = next(a for a in hand.full_script if isinstance(a, Crib))
    score = score_hand(crib.cards, Card.parse(hand.starter), crib=True)
    return _(", the dealer's, worth {points}").format(points=score.total)
