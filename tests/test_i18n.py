"""The translation layer: the language chosen, the catalogue complete and compiled, numbers as
words in both languages, every CLI output and error in French with --lang fr, JSON language-free.
"""

from __future__ import annotations

import ast
import gettext
import json
import re
import runpy
import string
import threading
from io import BytesIO
from pathlib import Path

import pytest

from crib_pi import i18n
from crib_pi.catalogue import (
    LOCALE,
    CatalogueError,
    compile_all,
    compile_entries,
    extract,
    po_path,
    read_po,
)
from crib_pi.cli import main
from crib_pi.i18n import _, in_language, ngettext, number, use_language
from crib_pi.numbers import english_number, french_number
from crib_pi.scoring import score_hand

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"

#: Words of English messages that a French output must not hold (card codes like "5H" and the
#: words French players use too, "go", "muggins", "skunk", "total", are not in it).
ENGLISH = re.compile(
    r"\b(the|player|players|hand|crib|starter|fifteen|pair|run|flush|wins|deals|missed|"
    r"claims|and|for|is|not|of|to|nothing|card|cards|line|game|give|must)\b"
)
#: Words of the French messages that an English output must not hold.
FRENCH = re.compile(r"\b(le|la|les|joueur|crèche|retourne|quinze|paire|suite|gagne|pour|et)\b")


@pytest.fixture(autouse=True)
def english_after() -> object:
    """Each test leaves the process speaking English, as the other tests expect."""
    yield
    use_language("en")


def _fields(text: str) -> set[str]:
    return {f[1] for f in string.Formatter().parse(text) if f[1] is not None}


# -- the catalogue ---------------------------------------------------------------------------


def test_every_marked_message_has_a_french_translation_with_the_same_placeholders() -> None:
    entries = {e.msgid: e for e in read_po(po_path("fr"))}
    marked = extract()
    assert len(marked) > 300  # the engine, table, screen, voice and CLI are all marked
    missing = [m.msgid for m in marked.values() if m.msgid not in entries]
    assert missing == [], f"not in the French catalogue: {missing[:5]}"
    for m in marked.values():
        e = entries[m.msgid]
        assert e.translated, f"{m.where}: {m.msgid!r} is untranslated or fuzzy"
        assert (e.plural is None) == (m.plural is None), m.msgid
        for form in e.strings.values():
            assert _fields(form) == _fields(m.msgid), f"{m.msgid!r} -> {form!r}"


def test_the_catalogue_holds_no_message_the_code_no_longer_has() -> None:
    marked = extract()
    stale = [e.msgid for e in read_po(po_path("fr")) if e.msgid and e.msgid not in marked]
    assert stale == []


def test_a_message_missing_from_the_catalogue_is_found(tmp_path: Path) -> None:
    """The completeness check sees a new ``_()`` message (so it can fail)."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "m.py").write_text(
        'from crib_pi.i18n import _, ngettext\nx = _("a new message")\n'
        'y = ngettext("{n} peg", "{n} pegs", 2)\nz = print("not marked")\n'
    )
    found = extract(package)
    assert set(found) == {"a new message", "{n} peg"}
    assert found["{n} peg"].plural == "{n} pegs"


def test_a_fuzzy_or_empty_entry_is_not_compiled_and_a_bad_po_is_named(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, fuzzy\nmsgid "a"\nmsgstr "A"\n\nmsgid "b"\nmsgstr ""\n\n'
        'msgid "c"\n"d"\nmsgstr "C"\n"D"\n'
    )
    entries = read_po(po)
    assert [(e.msgid, e.translated) for e in entries[1:]] == [
        ("a", False),
        ("b", False),
        ("cd", True),
    ]
    compiled = gettext.GNUTranslations(BytesIO(compile_entries(entries)))
    assert (compiled.gettext("a"), compiled.gettext("b"), compiled.gettext("cd")) == (
        "a",
        "b",
        "CD",
    )
    po.write_text('msgid "a"\nmsgstr A\n')
    with pytest.raises(CatalogueError, match=r"x.po:2: expected a quoted string"):
        read_po(po)


def test_no_message_is_in_the_catalogue_twice() -> None:
    """Branches merged with git's union driver can each add one message: a copy is an error
    (GNU msgfmt refuses it, and our compiler would keep only the last)."""
    ids = [e.msgid for e in read_po(po_path("fr"))]
    assert sorted({m for m in ids if ids.count(m) > 1}) == []


def test_one_english_word_can_have_two_french_ones_by_context(tmp_path: Path) -> None:
    with in_language("fr"):
        assert i18n.pgettext("a row of one suit", "spades") == "piques"  # lay the spades
        assert _("spades") == "pique"  # the seven of spades
    po = tmp_path / "ctx.po"
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "a "\n"row"\nmsgid "clubs"\nmsgstr "trèfles"\n\n'
        'msgid "clubs"\nmsgstr "trèfle"\n',
        encoding="utf-8",
    )
    mo = gettext.GNUTranslations(BytesIO(compile_entries(read_po(po))))
    assert (mo.pgettext("a row", "clubs"), mo.gettext("clubs")) == ("trèfles", "trèfle")


def test_the_compiled_catalogue_gives_every_translation(tmp_path: Path) -> None:
    (written,) = compile_all(LOCALE, tmp_path)
    assert written == tmp_path / "fr" / "LC_MESSAGES" / "crib_pi.mo"
    with written.open("rb") as handle:
        mo = gettext.GNUTranslations(handle)
    for e in read_po(po_path("fr")):
        if e.msgid and e.plural is None:
            assert mo.gettext(e.msgid) == e.strings[0]
        elif e.msgid:
            assert mo.ngettext(e.msgid, e.plural or "", 1) == e.strings[0]
            assert mo.ngettext(e.msgid, e.plural or "", 5) == e.strings[1]


def test_the_build_compiles_the_catalogue_into_the_wheel(tmp_path: Path) -> None:
    """setup.py's build_py writes the .mo into the build folder the wheel is made from."""
    from setuptools import Distribution

    build = runpy.run_path(str(ROOT / "setup.py"), run_name="crib_pi_setup")
    command = build["BuildWithCatalogues"](Distribution())
    command.initialize_options()
    command.build_lib = str(tmp_path)
    (mo,) = command.compile_catalogues()
    assert mo == tmp_path / "crib_pi" / "locale" / "fr" / "LC_MESSAGES" / "crib_pi.mo"
    with mo.open("rb") as handle:
        assert gettext.GNUTranslations(handle).gettext("the crib") == "la crèche"
    package_data = (ROOT / "pyproject.toml").read_text()
    assert '"locale/*/LC_MESSAGES/*.mo"' in package_data  # and the wheel takes it


# -- choosing the language -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "fr_CA.UTF-8"}, "fr"),
        ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),  # LC_ALL is set: it decides
        ({"LANGUAGE": "de:fr", "LANG": "en_US.UTF-8"}, "fr"),
        ({"LANGUAGE": "de", "LANG": "fr_FR.UTF-8"}, "fr"),
    ],
)
def test_the_environment_chooses_as_gettext_does(environ: dict[str, str], language: str) -> None:
    assert i18n.from_environment(environ) == language


def test_use_language_and_in_language() -> None:
    assert use_language("fr") == "fr"
    assert (_("the crib"), number(21)) == ("la crèche", "vingt et un")
    with in_language("en"):
        assert (_("the crib"), number(21)) == ("the crib", "twenty-one")
    assert _("the starter") == "la retourne"
    assert ngettext("{count} pair is {total}", "{count} pairs is {total}", 1).startswith(
        "{count} paire fait"
    )
    assert ngettext("{count} pair is {total}", "{count} pairs is {total}", 2).startswith(
        "{count} paires font"
    )
    with pytest.raises(i18n.LanguageError, match="language 'de' is not one of en, fr"):
        use_language("de")


def test_a_language_lent_to_one_thread_is_not_seen_by_another() -> None:
    """The voice's language (lent by ``in_language``) never leaks into the screen's thread."""
    inside, seen = threading.Event(), []

    def other() -> None:
        inside.wait(5)
        seen.append(_("the crib"))

    worker = threading.Thread(target=other)
    worker.start()
    with in_language("fr"):
        inside.set()
        worker.join(5)
        assert _("the crib") == "la crèche"
    assert seen == ["the crib"] and _("the crib") == "the crib"


@pytest.mark.parametrize(
    ("n", "en", "fr"),
    [
        (0, "zero", "zéro"),
        (17, "seventeen", "dix-sept"),
        (29, "twenty-nine", "vingt-neuf"),
        (70, "seventy", "soixante-dix"),
        (91, "ninety-one", "quatre-vingt-onze"),
        (200, "two hundred", "deux cents"),
        (201, "two hundred and one", "deux cent un"),
    ],
)
def test_numbers_as_words(n: int, en: str, fr: str) -> None:
    assert (english_number(n), french_number(n)) == (en, fr)


def test_a_count_is_said_in_french_with_its_plurals() -> None:
    use_language("fr")
    assert score_hand("5H 5D 2S 3C".split(), "AD").spoken() == (
        "quinze deux, une paire font quatre, et une suite de trois font sept"
    )
    assert score_hand("AS AH 2S 2H".split(), "3C").spoken() == (
        "deux paires font quatre, et quatre suites de trois font seize"
    )
    assert score_hand("2S 4H 6D 8C".split(), "KH").spoken() == "dix-neuf (aucun point)"
    assert score_hand("2S 4H 9D JC".split(), "5C").spoken() == (
        "quinze deux, quinze quatre, et un pour le valet de même couleur font cinq"
    )


# -- the CLI ---------------------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    use_language("en")
    return status, out, err


def test_score_prints_the_count_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = run_cli(capsys, "score", "5H", "5D", "5S", "JC", "5C", "--lang", "fr")
    assert status == 0
    assert out.splitlines()[0] == "main 5H 5D 5S JC, retourne 5C : 29"
    assert "un carré" in out and "un pour le valet de même couleur" in out
    assert (
        out.splitlines()[-1].strip().endswith("et un pour le valet de même couleur font vingt-neuf")
    )
    assert ENGLISH.findall(out) == []
    status, out, _err = run_cli(capsys, "--lang", "en", "score", "5H", "5D", "5S", "JC", "5C")
    assert "and one for his nobs is twenty-nine" in out and FRENCH.findall(out) == []


def test_the_config_and_lang_choose_and_json_stays_english(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('language = "fr"\n')
    monkeypatch.setenv("CRIB_PI_CONFIG", str(config))
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    _s, out, _e = run_cli(capsys, "peg", "5H", "10C", "5D")
    assert "quinze pour 2" in out and "total 2" in out
    _s, out, _e = run_cli(capsys, "peg", "5H", "10C", "5D", "--lang", "en")  # --lang wins
    assert "fifteen for 2" in out
    _s, out, _e = run_cli(capsys, "score", "5H", "5D", "5S", "JC", "5C", "--json")
    data = json.loads(out)  # language-free: the English names, whatever the config says
    assert data["spoken"].endswith("and one for his nobs is twenty-nine")
    assert {i["name"] for i in data["items"]} >= {"fifteen", "a double pair royal"}
    config.write_text("")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    _s, out, _e = run_cli(capsys, "peg", "5H", "10C")
    assert "quinze pour 2" in out


def test_a_bad_language_is_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["score", "5H", "5D", "5S", "JC", "5C", "--lang", "de"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].endswith("argument --lang: --lang 'de' is not one of en, fr")
    config = tmp_path / "config.toml"
    config.write_text('language = "es"\n')
    status, _out, err = run_cli(capsys, "config", "--file", str(config))
    assert status == 2 and len(err.splitlines()) == 1
    assert "language = 'es' is not one of en, fr" in err


FRENCH_COMMANDS = [
    ["score", "5H", "5D", "5S", "JC", "5C"],
    ["score", "2S", "4H", "6D", "8C", "KH", "--crib"],
    ["peg", "5H", "10C", "5D", "6S", "5C"],
    ["replay", "{data}/one-deal.jsonl"],  # {data}: a copy in a folder named crib-pi
    ["replay", "{data}/muggins-deal.jsonl"],
    ["score", "5H", "5D", "1X", "JC", "5C"],  # errors too
    ["score", "5H", "5D", "5S", "JC"],
    ["peg", "10H", "10C", "10D", "5S"],
    ["board", "--pegs", "45:50"],
    ["board", "--scene", "nowhere"],
    ["discard", "5H", "5D", "5S", "JC", "5C", "4D", "--players", "5"],
    ["discard", "5H", "5D", "6S", "JC", "9C", "4D"],
    ["recognize", "/nowhere/table.png"],  # the vision errors
    ["recognize", "{data}/one-deal.jsonl"],
    ["learn-deck", "/nowhere/deck.npz", "/nowhere/clubs.png", "--expect", "AC"],
]


def _in_a_clone_named_crib_pi(tmp_path: Path) -> Path:
    """The test data copied into a folder named as the README clones the repository
    (``/opt/crib-pi``): the words checked must not depend on where the clone lives."""
    data = tmp_path / "crib-pi" / "tests" / "data"
    data.mkdir(parents=True)
    for record in DATA.glob("*.jsonl"):
        (data / record.name).write_bytes(record.read_bytes())
    assert ENGLISH.search(str(data))  # the path alone would count as English words
    return data


def _without_paths(text: str, *folders: Path) -> str:
    """``text`` with the folders it names taken out: a path is the user's, not our words."""
    for folder in folders:
        for form in sorted({str(folder), str(folder.resolve())}, key=len, reverse=True):
            text = text.replace(form, " ")
    return text


@pytest.mark.parametrize("argv", FRENCH_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_no_english_is_left_in_a_french_output(
    capsys: pytest.CaptureFixture[str], argv: list[str], tmp_path: Path
) -> None:
    data = _in_a_clone_named_crib_pi(tmp_path)
    argv = [arg.replace("{data}", str(data)) for arg in argv]
    _status, out, err = run_cli(capsys, *argv, "--lang", "fr")
    words = _without_paths(out + err, data)
    words = re.sub(r"crib-pi [a-z-]+:|--[a-z-]+", " ", words)  # command and option names
    assert out + err
    assert ENGLISH.findall(words) == [], out + err


#: Every command's ``--help`` (and the top level's) in French: argparse's words and ours.
HELP_COMMANDS = [
    [],
    *(
        [c]
        for c in (
            "score",
            "peg",
            "replay",
            "run",
            "board",
            "history",
            "export",
            "install-service",
            "mat",
            "session",
            "config",
            "recognize",
            "learn-deck",
            "discard",
        )
    ),
]


@pytest.mark.parametrize("command", HELP_COMMANDS, ids=lambda c: " ".join(c) or "crib-pi")
def test_the_help_is_french_with_lang_fr(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """``--lang`` is read before the parser is built, so the help is in its language."""
    with pytest.raises(SystemExit) as stop:
        main(["--lang", "fr", *command, "--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0
    assert out.startswith("utilisation : crib-pi") and "options:" in out
    assert "affiche cette aide et quitte" in out
    names = r"crib-pi( [a-z-]+)?|--[a-z-]+|[a-z_]+\.(jsonl|png|pdf|npz)|^ {4}[a-z-]+(?= |$)"
    words = re.sub(names, " ", out, flags=re.M)  # command, option and file names
    assert ENGLISH.findall(words) == [], out
    with pytest.raises(SystemExit):
        main([*command, "--help", "--lang=en"])
    english = capsys.readouterr().out
    assert english.startswith("usage: crib-pi") and "show this help message and exit" in english


def test_an_argparse_usage_error_is_french_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--lang", "fr", "score"])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert err.startswith("utilisation : crib-pi score")
    errors = [line for line in err.splitlines() if "erreur" in line]
    assert errors == ["crib-pi score : erreur : ces arguments sont obligatoires : CARD"]
    with pytest.raises(SystemExit) as stop:
        main(["board", "--scene", "start", "--nope", "--lang", "fr"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "crib-pi : erreur : arguments inconnus : --nope"
    )
    with pytest.raises(SystemExit):
        main(["--lang", "fr", "mat", "--players", "9"])
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith("crib-pi mat : erreur : argument --players : choix invalide : ")
    with pytest.raises(SystemExit):
        main(["score"])  # and English without --lang
    assert capsys.readouterr().err.splitlines()[-1] == (
        "crib-pi score: error: the following arguments are required: CARD"
    )


def test_an_image_that_cannot_be_read_is_said_in_french(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "table.png"
    bad.write_bytes(b"not an image")
    status, _out, err = run_cli(capsys, "recognize", str(bad), "--lang", "fr")
    assert status == 2
    assert err == (
        f"crib-pi recognize: image illisible : {bad} n'est pas une image PNG, JPEG, BMP ou WebP\n"
    )
    status, _out, err = run_cli(capsys, "recognize", "--deck", str(bad), str(bad), "--lang", "en")
    assert err.startswith("crib-pi recognize: ") and "cannot" in err and FRENCH.findall(err) == []


def test_a_muggins_problem_names_the_player_as_people_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The over-claim's owner is said "Player 1" / "Joueur 1", never the record's index 0."""
    _s, english, _e = run_cli(capsys, "replay", str(DATA / "muggins-deal.jsonl"))
    _s, french, _e = run_cli(capsys, "replay", str(DATA / "muggins-deal.jsonl"), "--lang", "fr")
    problems = [line.split("problem: ")[1] for line in english.splitlines() if "problem:" in line]
    assert "Player 1 claimed 6 but the hand is worth 4" in problems
    assert "Joueur 1 a annoncé 6 mais la main vaut 4" in french
    index = re.compile(r"(^|: )\d+ (claimed|a annoncé)")
    assert [p for p in problems + french.splitlines() if index.search(p)] == []


def test_the_replay_json_is_language_free(capsys: pytest.CaptureFixture[str]) -> None:
    _s, english, _e = run_cli(capsys, "replay", str(DATA / "muggins-deal.jsonl"), "--json")
    _s, french, _e = run_cli(
        capsys, "replay", str(DATA / "muggins-deal.jsonl"), "--json", "--lang", "fr"
    )
    assert english == french and FRENCH.findall(english) == []


# -- strings that bypass the catalogue -------------------------------------------------------

#: The modules whose words reach players; a message written straight into a print, an
#: exception or the screen's text, not through ``_``, is caught here.
CHECKED = [
    "cards.py",
    "scoring.py",
    "pegging.py",
    "game.py",
    "actions.py",
    "errors.py",
    "config.py",
    "cli.py",
    "session/table.py",
    "voice/words.py",
    "devices/screen/panels.py",
    "devices/scenes.py",
    "commands/score.py",
    "commands/replay.py",
    "commands/config.py",
    "commands/board.py",
    "commands/mat.py",
    "commands/session.py",
    "commands/history.py",
    "commands/discard.py",
    "store.py",
    "devices/config.py",
    "coach.py",
    "learn/rules.py",
    "learn/risks.py",
    "learn/guided.py",
    "learn/mode.py",
    "commands/recognize.py",
    "commands/learn_deck.py",
    "commands/run.py",
    "commands/install_service.py",
    "devices/report.py",
    "devices/buttons/base.py",
    "devices/buttons/gpio.py",
    "devices/buttons/keys.py",
    "devices/cameras/cv.py",
    "devices/cameras/pi.py",
    "devices/leds/board.py",
    "devices/leds/layout.py",
    "devices/leds/pi5neo.py",
    "devices/leds/ws281x.py",
    "devices/screen/pygame_ce.py",
    "devices/factory.py",
    "voice/speakers.py",
    "voice/speech.py",
    "vision/image_file.py",
    "vision/classifier.py",
    "vision/profile.py",
    "vision/learn.py",
]


def _bare_words(node: ast.expr) -> str:
    """The literal words of a string expression that is not wrapped in ``_``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    if isinstance(node, ast.BinOp):
        return _bare_words(node.left) + " " + _bare_words(node.right)
    return ""


def _unmarked(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        shown = name == "print" or name.endswith("Error")
        args = node.args[1:2] if name == "text" else node.args if shown else []  # st.text's words
        if name == "DeviceUnavailableError":
            args = node.args[1:]  # its first is the device's key ("camera"), named by the report
        for arg in args:
            words = re.sub(r"^crib-pi( [a-z-]+)?: ", "", _bare_words(arg))
            if re.search(r"[A-Za-z]{3,}", words):
                found.append(f"{path.name}:{node.lineno}: {words!r}")
    return found


def test_no_message_in_the_checked_modules_bypasses_the_catalogue() -> None:
    package = ROOT / "crib_pi"
    found = [line for name in CHECKED for line in _unmarked(package / name)]
    assert found == []


def test_the_bypass_check_finds_an_unmarked_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        'raise CribError(f"player {p} cannot play")\nprint(_("fine"))\n'
        'st.text(surface, "COUNT", 12, "center")\n'
    )
    assert _unmarked(bad) == ["bad.py:1: 'player   cannot play'", "bad.py:3: 'COUNT'"]


# -- the glossary ----------------------------------------------------------------------------

#: Words a person types or reads as names, left out of the glossary check: placeholders,
#: options, commands, quoted words, config sections and keys, metavars (``RECORD``).
_NAMES = re.compile(
    r"\{[^}]*\}|--[\w-]+|crib-pi( (" + "|".join(c for (c,) in HELP_COMMANDS[1:]) + r"))?\b"
    r"|(?<!\w)'[^']*'(?!\w)|\"[^\"]*\"|«[^»]*»|\[[^\]]*\]|\w+\.\w+|\b[A-Z]{2,}\b"
)
#: Messages where a glossary word is a name a person types, not the thing.
_GLOSSARY_EXEMPT = {
    "an example state: start, skunk-threat, pegging, muggins, win, learn, coach",  # scenes
}


def _glossary() -> list[tuple[list[str], list[str], list[str]]]:
    """The checked table of docs/language.md: (English, French, French only where English)."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    table = text.split("### One word for one thing (checked)")[1].split("\n#")[0]
    rows = []
    for line in table.splitlines():
        cells = [re.findall(r"`([^`]+)`", c) for c in line.strip("|").split("|")]
        if len(cells) == 3 and all(cells):
            rows.append((cells[0], cells[1], cells[2]))
    return rows


def _says(text: str, words: list[str]) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text, re.I) for w in words)


def _glossary_slips(entries: list[object]) -> list[str]:
    """Each message that says a glossary word in English but not in French, or a French
    glossary word where the English does not call for it."""
    slips = []
    for e in entries:
        msgid, strings = getattr(e, "msgid", ""), getattr(e, "strings", {})
        if not msgid or msgid in _GLOSSARY_EXEMPT or not getattr(e, "translated", False):
            continue
        english = _NAMES.sub(" ", re.sub(r"\bgame (records?)\b", r"\1", msgid))
        for french in (_NAMES.sub(" ", s) for s in strings.values()):
            for words, french_words, only_for in _glossary():
                if _says(english, words) and not _says(french, french_words):
                    slips.append(f"{msgid!r}: says {words[0]!r}, not {french_words[0]!r}")
                if _says(french, french_words) and not _says(english, only_for):
                    slips.append(f"{msgid!r}: {french_words[0]!r} without {only_for[0]!r}")
    return slips


def test_the_catalogue_keeps_to_the_glossary() -> None:
    """One word for one thing: a game is "partie", a record "match", pegging "le jeu"
    (docs/language.md), in history, stats, replay, the help and the errors alike."""
    assert len(_glossary()) >= 3
    assert _glossary_slips(read_po(po_path("fr"))) == []


def test_the_glossary_check_finds_a_slip(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "record {record} game {game}"\nmsgstr "partie {record} jeu {game}"\n\n'
        'msgid "--record FILE: no games"\nmsgstr "--record FILE : aucune partie"\n',
        encoding="utf-8",
    )
    assert _glossary_slips(read_po(po)) == [
        "'record {record} game {game}': says 'record', not 'match'",
        "'record {record} game {game}': 'jeu' without 'pegging'",
    ]


def test_the_demo_report_and_the_printed_mat_are_french() -> None:
    """The demo's last line and the mat's zone names follow the language, as its players do."""
    from crib_pi.cards import Card
    from crib_pi.mat import Mat, pdf_bytes
    from crib_pi.session.players import ScriptedPlayers

    players = ScriptedPlayers([], [(i, Card.parse(c)) for i, c in enumerate("5H 6D 7C".split())])
    players.typed, players.typed_cards = [Card.parse("7C")], {(0, Card.parse("7C"))}
    players.answered = 1
    english = players.report()
    assert english == (
        "the camera gave the board 2 of the 3 cards laid; the players typed 1 (1 entry: 7C), "
        "answered 1 question and took back 0 misread actions"
    )
    with in_language("fr"):
        french = players.report()
        labels = [z.label for z in Mat(2).zones]
        pdf = pdf_bytes(Mat(2)).decode("cp1252")
    assert french == (
        "la caméra a donné au tablier 2 des 3 cartes posées ; les joueurs en ont tapé 1 "
        "(1 saisie : 7C), ont répondu à 1 question et ont repris 0 action mal lue"
    )
    assert labels == ["JOUEUR 1", "JOUEUR 2", "RETOURNE", "CRÈCHE"]
    assert "(CRÈCHE) Tj" in pdf and "/WinAnsiEncoding" in pdf and "(CRIB)" not in pdf
    assert [z.label for z in Mat(2).zones] == ["PLAYER 1", "PLAYER 2", "STARTER", "CRIB"]
