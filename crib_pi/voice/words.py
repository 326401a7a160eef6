"""What the table says, in English or French: each score as it is pegged, each show's count
in spoken order, muggins calls, questions and the end of the game.

The ``Announcer`` watches a ``TableSession`` after each step of the main loop and returns the
new sentences: one per record that pegs points or says go, one per question (and per choice
the Go button moves to), one at the end of the game. A record taken back by Undo withdraws its
sentence if it has not been said yet. English reuses the engine's own spoken count
(``Score.spoken``); the French words are this module's small vocabulary (the full French
catalogue belongs to the translation layer still to come).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crib_pi.actions import Claim, Crib, Cut, Go, Muggins, Play, Show
from crib_pi.cards import Card
from crib_pi.game import Record
from crib_pi.scoring import number_word
from crib_pi.session.table import Question, TableSession
from crib_pi.snapshot import ScoreEvent
from crib_pi.voice.speech import Utterance

LANGUAGES = ("en", "fr")

_EN_RANKS = "ace two three four five six seven eight nine ten jack queen king".split()
_EN_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_FR_RANKS = "as deux trois quatre cinq six sept huit neuf dix valet dame roi".split()
_FR_SUITS = {"C": "trèfle", "D": "carreau", "H": "cœur", "S": "pique"}
_FR_UNITS = (
    "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze "
    "seize dix-sept dix-huit dix-neuf"
).split()
_FR_TENS = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}


def french_number(n: int) -> str:
    """``21`` -> ``vingt et un``, ``80`` -> ``quatre-vingts``, ``121`` -> ``cent vingt et un``."""
    if n < 0:
        return f"moins {french_number(-n)}"
    if n < 20:
        return _FR_UNITS[n]
    if n < 70:
        tens, unit = divmod(n, 10)
        if unit == 0:
            return _FR_TENS[tens]
        joiner = " et " if unit == 1 else "-"
        return f"{_FR_TENS[tens]}{joiner}{_FR_UNITS[unit]}"
    if n < 80:
        return "soixante et onze" if n == 71 else f"soixante-{_FR_UNITS[n - 60]}"
    if n < 100:
        return "quatre-vingts" if n == 80 else f"quatre-vingt-{_FR_UNITS[n - 80]}"
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = "cent" if hundreds == 1 else f"{_FR_UNITS[hundreds]} cent"
        if rest == 0:
            return head if hundreds == 1 else head + "s"
        return f"{head} {french_number(rest)}"
    return str(n)


def english_number(n: int) -> str:
    """``31`` -> ``thirty-one``, ``121`` -> ``one hundred and twenty-one``."""
    if 0 <= n <= 31:
        return number_word(n)
    if not 0 < n < 1000:
        return str(n)
    hundreds, rest = divmod(n, 100)
    if hundreds:
        head = f"{number_word(hundreds)} hundred"
        return f"{head} and {english_number(rest)}" if rest else head
    tens = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
    word = tens[n // 10]
    return f"{word}-{number_word(n % 10)}" if n % 10 else word


def number(n: int, language: str) -> str:
    """A number said as words in ``language``."""
    return french_number(n) if language == "fr" else english_number(n)


def card_name(card: Card, language: str) -> str:
    """``the seven of hearts`` / ``le sept de cœur``."""
    if language == "fr":
        rank = _FR_RANKS[card.rank - 1]
        article = "l'" if rank == "as" else "la " if rank == "dame" else "le "
        return f"{article}{rank} de {_FR_SUITS[card.suit]}"
    return f"the {_EN_RANKS[card.rank - 1]} of {_EN_SUITS[card.suit]}"


def pegged(event: ScoreEvent, language: str) -> str:
    """One score as it is pegged: ``fifteen two``, ``thirty-one for two``, ``last card for
    one``, ``two for his heels`` (``quinze deux``, ``deux pour le valet retourné``...)."""
    n, fr = event.points, language == "fr"
    said = number(n, language)
    reason = event.reason
    if reason == "fifteen":
        return f"quinze {said}" if fr else f"fifteen {said}"
    if reason == "thirty_one":
        return f"trente et un pour {said}" if fr else f"thirty-one for {said}"
    if reason == "go":
        return f"{said} pour le go" if fr else f"{said} for the go"
    if reason == "last_card":
        return f"dernière carte pour {said}" if fr else f"last card for {said}"
    if reason == "his_heels":
        return f"{said} pour le valet retourné" if fr else f"{said} for his heels"
    return (
        f"{_item_name(reason, n, len(event.cards), language)} pour {said}"
        if fr
        else (f"{_item_name(reason, n, len(event.cards), language)} for {said}")
    )


def _item_name(reason: str, points: int, cards: int, language: str) -> str:
    if language == "fr":
        if reason == "pair":
            return {2: "une paire", 6: "un brelan", 12: "un carré"}.get(points, "une paire")
        if reason == "run":
            return f"une suite de {french_number(cards)}"
        if reason == "flush":
            return f"une couleur de {french_number(points)}"
        if reason == "nobs":
            return "le valet"
        return "des points"
    if reason == "pair":
        return {2: "a pair", 6: "a pair royal", 12: "a double pair royal"}.get(points, "a pair")
    if reason == "run":
        return f"a run of {number_word(cards)}"
    if reason == "flush":
        return f"a flush of {number_word(points)}"
    if reason == "nobs":
        return "his nobs"
    return "points"


def french_count(events: tuple[ScoreEvent, ...]) -> str:
    """A show's count in French, with running totals: ``quinze deux, et une paire font quatre``."""
    if not events:
        return "rien"
    phrases, running = [], 0
    for e in events:
        running += e.points
        if e.reason == "fifteen":
            phrases.append(f"quinze {french_number(running)}")
        else:
            name = _item_name(e.reason, e.points, len(e.cards), "fr")
            phrases.append(f"{name} font {french_number(running)}")
    if len(phrases) > 1:
        phrases[-1] = "et " + phrases[-1]
    return ", ".join(phrases)


def voice_level(volume: float, language: str) -> str:
    """What the voice says when a hold of Go sets its volume: ``voice loud``, ``voix forte``."""
    if language == "fr":
        return "voix " + ("douce" if volume < 0.5 else "normale" if volume < 0.9 else "forte")
    return "voice " + ("quiet" if volume < 0.5 else "normal" if volume < 0.9 else "loud")


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
    _question: tuple[int, int] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.language not in LANGUAGES:
            raise ValueError(f"voice language {self.language!r} is not one of {LANGUAGES}")

    def after(self, table: TableSession) -> Narration:
        records = table.game.records
        if self.seen < 0:
            self.seen = len(records)
        say: list[Utterance] = []
        withdraw: set[str] = set()
        if len(records) < self.seen:  # undone: what was not said yet no longer holds
            withdraw = {f"record {i}" for i in range(len(records), self.seen)} | {"end"}
            self.seen = len(records)
        for index in range(self.seen, len(records)):
            say.extend(self.record(records[index], index, table))
        self.seen = len(records)
        q = table.question
        if q is None:
            self._question = None
        elif self._question != (id(q), q.index):
            self._question = (id(q), q.index)
            say.append(Utterance(self.question(q), "question", "question"))
        return Narration(tuple(say), frozenset(withdraw))

    def record(self, record: Record, index: int, table: TableSession) -> list[Utterance]:
        """The sentences for one record (none for a card that scores nothing)."""
        fr, key = self.language == "fr", f"record {index}"
        action = record.action
        out: list[Utterance] = []
        if isinstance(action, Play | Cut | Go) and (record.events or isinstance(action, Go)):
            words = [pegged(e, self.language) for e in record.events]
            if isinstance(action, Go):
                words.insert(0, "go")
            out.append(Utterance(", ".join(words), "score", key))
        elif isinstance(action, Show | Crib):
            out.append(Utterance(self._count(record, table) if fr else record.text, "count", key))
        elif isinstance(action, Claim):
            kind = "muggins" if record.missed is not None else "count"
            text = record.text
            if fr:
                text = f"le joueur {action.player} annonce {french_number(action.points)}"
                pegged_points = sum(e.points for e in record.events)
                if record.missed is not None:
                    short = record.missed.shortfall
                    forgot = "oublié" if short == 1 else "oubliés"
                    text += f", {french_number(short)} {forgot}: muggins!"
                elif pegged_points < action.points:
                    text += f", trop: compté {french_number(pegged_points)}"
            out.append(Utterance(text, kind, key))
        elif isinstance(action, Muggins):
            text = record.text
            if fr and record.events:
                points = french_number(sum(e.points for e in record.events))
                text = f"muggins! le joueur {action.player} prend {points}"
            out.append(Utterance(text, "muggins", key))
        if record.result is not None:
            out.append(Utterance(self.end(record, table), "end", "end"))
        return out

    def _count(self, record: Record, table: TableSession) -> str:
        action = record.action
        if isinstance(action, Crib):
            whose = "la crèche"
        else:
            assert isinstance(action, Show)
            whose = f"la main du joueur {action.player}"
        if table.options.muggins and not record.events:
            return f"{whose} est montrée: à son joueur de compter"
        return f"{whose}: {french_count(record.events)}"

    def question(self, q: Question) -> str:
        """``is that the seven of hearts?`` for the choice the question offers now."""
        fr = self.language == "fr"
        if not q.actions:
            return q.text
        action = q.actions[q.index]
        if isinstance(action, Play | Cut):
            name = card_name(action.card, self.language)
            return f"est-ce {name} ?" if fr else f"is that {name}?"
        if isinstance(action, Crib):
            name = card_name(action.cards[0], self.language)
            return f"{name} est-il dans la crèche ?" if fr else f"is {name} in the crib?"
        return q.text

    def end(self, record: Record, table: TableSession) -> str:
        """``player 0 wins, sixty-one to forty, a skunk``."""
        result = record.result
        assert result is not None
        o = table.options
        fr = self.language == "fr"
        if o.players == 4:
            who = f"l'équipe {result.winner}" if fr else f"side {result.winner}"
        else:
            who = (
                o.names[result.winner]
                if o.names
                else (f"le joueur {result.winner}" if fr else f"player {result.winner}")
            )
        scores = sorted(result.scores, reverse=True)
        said = (" à " if fr else " to ").join(number(s, self.language) for s in scores)
        text = f"{who} gagne, {said}" if fr else f"{who} wins, {said}"
        skunk = {
            "skunk": ("un skunk", "a skunk"),
            "double": ("un double skunk", "a double skunk"),
            "triple": ("un triple skunk", "a triple skunk"),
        }.get(result.skunk)
        if skunk:
            text += f", {skunk[0] if fr else skunk[1]}"
        return text
