"""Learn mode out loud: the voice says the learn panel's lessons (the step, the rule behind each
score, the practice verdict, the caution) in its own language, each once, cards said as cards,
and nothing of the kind when learn mode is off."""

from __future__ import annotations

from crib_pi.actions import GameOptions
from crib_pi.cards import Card
from crib_pi.i18n import in_language, use_language
from crib_pi.learn.rules import step_text
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import CardLaid
from crib_pi.store import GameLog
from crib_pi.voice.words import Announcer, cards_said


def lay(table: TableSession, zone: str, cards: str) -> None:
    for card in cards.split():
        table.on_track(CardLaid(Card.parse(card), zone, (0, 0)))


def lessons(announcer: Announcer, table: TableSession) -> list[str]:
    return [u.text for u in announcer.after(table).say if u.kind == "lesson"]


def test_the_voice_says_each_new_lesson_once_in_both_languages() -> None:
    table = TableSession(GameOptions(dealer=0), GameLog(None))
    english, french = Announcer("en"), Announcer("fr")
    assert english.after(table).say == () and french.after(table).say == ()  # the first look
    assert lessons(english, table) == []  # learn mode off: no lesson
    table.set_learn(True)
    said = lessons(english, table)
    assert said[0] == step_text("deal", 2, 0) and len(said) == 3  # deal, lay away, practice
    assert said[0].startswith("Deal: the dealer (Player 1) deals six cards")
    en_fr = lessons(french, table)
    assert en_fr[0].startswith("Donne : le donneur (Joueur 1) distribue six cartes")
    assert lessons(english, table) == []  # said once, while the panel says the same
    # open-hand practice: the verdict is said, the coach's list of numbers is for the screen
    lay(table, "player 1", "7C 9H 5H 5C 5D JS")
    assert not any("Coach" in s or "net" in s for s in lessons(english, table))
    lay(table, "crib", "7C 9H")
    verdict = lessons(english, table)
    assert len(verdict) == 1
    assert verdict[0].startswith("the seven of clubs the nine of hearts is the best of 15 discards")
    assert lessons(french, table)[-1].startswith("le sept de trèfle le neuf de cœur est")
    # the play: the rule behind a score, said without the cards the score has just named
    lay(table, "starter", "2D")
    lay(table, "player 1", "10C")
    lay(table, "player 0", "5S")
    said = lessons(english, table)
    assert "fifteen for two: bringing the count to exactly fifteen scores two" in said
    assert not any("10C" in s or "5S" in s for s in said)
    assert "quinze pour deux : amener le compte à quinze tout juste rapporte deux" in lessons(
        french, table
    )
    table.set_learn(False)
    assert lessons(english, table) == []


def test_the_screen_and_the_voice_each_get_the_panel_in_their_language() -> None:
    """The screen speaks French, the voice English: the rules are made when asked for."""
    table = TableSession(GameOptions(dealer=0), GameLog(None))
    table.set_learn(True)
    voice = Announcer("en")
    voice.after(table)
    lay(table, "starter", "JD")  # his heels, before anything was dealt in view
    use_language("fr")
    try:
        panel = table.snapshot().learn
        said = lessons(voice, table)
    finally:
        use_language("en")
    assert any(line.startswith("deux pour le valet retourné") for line in panel)
    assert any(line.startswith("two for his heels") for line in said)
    assert not any("valet" in s for s in said)


def test_card_codes_are_said_as_cards() -> None:
    assert cards_said("lay 7H and 10C, not 5S-2D", "en") == (
        "lay the seven of hearts and the ten of clubs, not 5S-2D"
    )
    with in_language("fr"):
        assert cards_said("posez QD", "fr") == "posez la dame de carreau"
