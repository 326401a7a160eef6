"""What the table says, in English or French: each score as it is pegged, each show's count
in spoken order, muggins calls, questions and the end of the game.

The ``Announcer`` watches a ``TableSession`` after each step of the main loop and returns the
new sentences: one per record that pegs points or says go, one per question (and per choice
the Go button moves to), one at the end of the game, and, while learn mode is on, each new
lesson of the learn panel (the step, the rule behind a score, a practice verdict, a caution),
with card codes said as cards. A record taken back by Undo withdraws its sentence if it has
not been said yet; a lesson gone from the panel is withdrawn the same way. Every word comes
from the translation layer (``crib_pi.i18n``) in the announcer's language, which may differ
from the screen's; numbers are said as words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from crib_pi.actions import Claim, Crib, Cut, Go, Muggins, Play, Show
from crib_pi.cards import Card
from crib_pi.game import Record
from crib_pi.i18n import LANGUAGES, N_, _, in_language, ngettext
from crib_pi.i18n import number as said_number
from crib_pi.learn.risks import RANK_WORDS
from crib_pi.numbers import NUMBER_WORDS, english_number, french_number
from crib_pi.players import player_name, side_name
from crib_pi.scoring import FLUSH_NAMES, PAIR_NAMES, RUN_NAMES, ScoreItem, spoken
from crib_pi.session.table import Question, TableSession
from crib_pi.snapshot import ScoreEvent
from crib_pi.voice.speech import Utterance

__all__ = ["LANGUAGES", "Announcer", "card_name", "english_number", "french_number", "number"]

#: Each rank as a card is named: "the seven of hearts" / "le sept de cœur" (the article goes
#: with the rank in French: "l'as", "la dame").
RANK_CARDS = (
    N_("the ace of {suit}"),
    N_("the two of {suit}"),
    N_("the three of {suit}"),
    N_("the four of {suit}"),
    N_("the five of {suit}"),
    N_("the six of {suit}"),
    N_("the seven of {suit}"),
    N_("the eight of {suit}"),
    N_("the nine of {suit}"),
    N_("the ten of {suit}"),
    N_("the jack of {suit}"),
    N_("the queen of {suit}"),
    N_("the king of {suit}"),
)
SUIT_WORDS = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")}
#: A card code in a sentence (``7H``, ``10C``), said as the card's name.
CARD_CODE = re.compile(r"(?<![\w-])(10|[2-9AJQK])([CDHS])(?![\w-])")


def number(n: int, language: str) -> str:
    """A number said as words in ``language``."""
    return NUMBER_WORDS[language](n)


def card_name(card: Card, language: str) -> str:
    """``the seven of hearts`` / ``le sept de cœur``."""
    with in_language(language):
        return _(RANK_CARDS[card.rank - 1]).format(suit=_(SUIT_WORDS[card.suit]))


def cards_said(text: str, language: str) -> str:
    """``text`` with each card code said as the card: ``lay 7H`` -> ``lay the seven of
    hearts``."""
    return CARD_CODE.sub(lambda m: card_name(Card.parse(m.group(0)), language), text)


def pegged(event: ScoreEvent, language: str) -> str:
    """One score as it is pegged: ``fifteen two``, ``thirty-one for two``, ``last card for
    one``, ``two for his heels`` (``quinze deux``, ``deux pour le valet retourné``...)."""
    with in_language(language):
        return _pegged(event)


def _pegged(event: ScoreEvent) -> str:
    said = said_number(event.points)
    reason = event.reason
    if reason == "fifteen":
        return _("fifteen {points}").format(points=said)
    if reason == "thirty_one":
        return _("thirty-one for {points}").format(points=said)
    if reason == "go":
        return _("{points} for the go").format(points=said)
    if reason == "last_card":
        return _("last card for {points}").format(points=said)
    if reason == "his_heels":
        return _("{points} for his heels").format(points=said)
    name = _(item_name(event.reason, event.points, len(event.cards)))
    return _("{item} for {points}").format(item=name, points=said)


def item_name(reason: str, points: int, cards: int) -> str:
    """The English name (a catalogue message) of what an event scored."""
    if reason == "pair":
        return PAIR_NAMES.get({2: 2, 6: 3, 12: 4}.get(points, 2), PAIR_NAMES[2])
    if reason == "run":
        return RUN_NAMES.get(cards, N_("a run"))
    if reason == "flush":
        return FLUSH_NAMES.get(points, N_("a flush"))
    if reason == "nobs":
        return N_("one for his nobs")
    if reason == "fifteen":
        return N_("fifteen")
    return N_("points")


def count(events: Sequence[ScoreEvent]) -> str:
    """A show's count in the current language, with running totals (as ``Score.spoken``)."""
    items = [
        ScoreItem(e.reason, e.points, e.cards, item_name(e.reason, e.points, len(e.cards)))
        for e in events
    ]
    return spoken(items) if items else _("nothing")


def voice_level(volume: float, language: str) -> str:
    """What the voice says when a hold of Go sets its volume: ``voice loud``, ``voix forte``."""
    with in_language(language):
        if volume < 0.5:
            return _("voice quiet")
        return _("voice normal") if volume < 0.9 else _("voice loud")


@dataclass(frozen=True, slots=True)
class Narration:
    """What to say after a step, and the keys of unsaid sentences that no longer hold."""

    say: tuple[Utterance, ...] = ()
    withdraw: frozenset[str] = frozenset()


@dataclass
class Announcer:
    """Finds what is new at the table since it last looked, as sentences in ``language``."""

    language: str = "en"
    seen: int = -1  # records already announced; -1: not looked yet (a resumed game is not re-said)
    _question: tuple[int, str, int] | None = field(default=None, repr=False)
    #: The learn panel's lessons at the last look (key and words, in ``language``).
    _lessons: frozenset[tuple[str, str]] = field(default=frozenset(), repr=False)

    def __post_init__(self) -> None:
        if self.language not in LANGUAGES:
            raise ValueError(
                _("voice language {language!r} is not one of {LANGUAGES}").format(
                    language=self.language, LANGUAGES=LANGUAGES
                )
            )

    def after(self, table: TableSession) -> Narration:
        with in_language(self.language):
            return self._after(table)

    def _after(self, table: TableSession) -> Narration:
        records = table.game.records
        lessons = table.learn.lessons(table.game) if table.learn is not None else ()
        if self.seen < 0:  # the first look (its words are dropped): the lessons wait for the next
            self.seen, lessons = len(records), ()
        say: list[Utterance] = []
        withdraw: set[str] = set()
        if len(records) < self.seen:  # undone: what was not said yet no longer holds
            withdraw = {f"record {i}" for i in range(len(records), self.seen)} | {"end"}
            self.seen = len(records)
        for index in range(self.seen, len(records)):
            say.extend(self._record(records[index], index, table))
        self.seen = len(records)
        q = table.question
        if q is None:
            self._question = None
        elif self._question != (id(q), q.stage, q.index):
            self._question = (id(q), q.stage, q.index)
            say.append(Utterance(self._ask(q), "question", "question"))
        said_before = self._lessons
        for key, text in lessons:
            if (key, text) not in said_before:
                say.append(Utterance(cards_said(text, self.language), "lesson", f"lesson {key}"))
        now = {key for key, _text in lessons}
        withdraw |= {f"lesson {key}" for key, _text in said_before if key not in now}
        self._lessons = frozenset(lessons)
        return Narration(tuple(say), frozenset(withdraw))

    def record(self, record: Record, index: int, table: TableSession) -> list[Utterance]:
        """The sentences for one record (none for a card that scores nothing)."""
        with in_language(self.language):
            return self._record(record, index, table)

    def _record(self, record: Record, index: int, table: TableSession) -> list[Utterance]:
        key = f"record {index}"
        action = record.action
        out: list[Utterance] = []
        if isinstance(action, Play | Cut | Go) and (record.events or isinstance(action, Go)):
            words = [_pegged(e) for e in record.events]
            if isinstance(action, Go):
                words.insert(0, _("go"))
            out.append(Utterance(_(", ").join(words), "score", key))
        elif isinstance(action, Show | Crib):
            out.append(Utterance(self._count(record, table), "count", key))
        elif isinstance(action, Claim):
            kind = "muggins" if record.missed is not None else "count"
            text = _("{player} claims {points}").format(
                player=player_name(action.player, table.options.names),
                points=said_number(action.points),
            )
            pegged_points = sum(e.points for e in record.events)
            if record.missed is not None:
                short = record.missed.shortfall
                forgot = ngettext(
                    "{text}, {points} missed: muggins!", "{text}, {points} missed: muggins!", short
                )
                text = forgot.format(text=text, points=said_number(short))
            elif pegged_points < action.points:
                over = _("{text}, too many: counted {points}")
                text = over.format(text=text, points=said_number(pegged_points))
            out.append(Utterance(text, kind, key))
        elif isinstance(action, Muggins):
            points = sum(e.points for e in record.events)
            text = _("muggins! {player} takes {points}").format(
                player=player_name(action.player, table.options.names), points=said_number(points)
            )
            out.append(Utterance(text, "muggins", key))
        if record.result is not None:
            out.append(Utterance(self._end(record, table), "end", "end"))
        return out

    def _count(self, record: Record, table: TableSession) -> str:
        action = record.action
        if isinstance(action, Crib):
            whose = _("the crib")
        else:
            assert isinstance(action, Show)
            whose = _("{owner}'s hand").format(
                owner=player_name(action.player, table.options.names)
            )
        if table.options.muggins and not record.events:
            return _("{whose} is shown: its player counts it").format(whose=whose)
        return _("{whose}: {count}").format(whose=whose, count=count(record.events))

    def question(self, q: Question) -> str:
        """``is that the seven of hearts?`` for the choice the question offers now."""
        with in_language(self.language):
            return self._ask(q)

    def _ask(self, q: Question) -> str:
        if not q.actions:
            return q.text
        action = q.actions[q.index]
        if q.stage == "rank" and isinstance(action, Play | Cut | Crib):
            rank = action.cards[0].rank if isinstance(action, Crib) else action.card.rank
            return _("is it a {rank}?").format(rank=_(RANK_WORDS[rank - 1]))
        if isinstance(action, Play | Cut):
            return _("is that {card}?").format(card=card_name(action.card, self.language))
        if isinstance(action, Crib):
            name = card_name(action.cards[0], self.language)
            return _("is {card} in the crib?").format(card=name)
        return q.text

    def end(self, record: Record, table: TableSession) -> str:
        """``Alice wins, sixty-one to forty, a skunk`` (``crib_pi.players``)."""
        with in_language(self.language):
            return self._end(record, table)

    def _end(self, record: Record, table: TableSession) -> str:
        result = record.result
        assert result is not None
        o = table.options
        scores = sorted(result.scores, reverse=True)
        said = _(" to ").join(said_number(s) for s in scores)
        who = side_name(result.winner, o.players, o.names)
        text = _("{who} wins, {scores}").format(who=who, scores=said)
        skunk = {
            "skunk": N_("a skunk"),
            "double": N_("a double skunk"),
            "triple": N_("a triple skunk"),
        }.get(result.skunk)
        if skunk:
            text = _("{text}, {skunk}").format(text=text, skunk=_(skunk))
        return text
