"""One translation layer: every word a player sees or hears goes through ``_`` here.

English is the source language; the French words are in ``locale/fr/LC_MESSAGES/crib_pi.po``,
compiled to ``crib_pi.mo`` at build and install time (``crib_pi.catalogue``). The language is
chosen once at start (``use_language``: the config's ``language``, ``--lang``, else
``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` as gettext reads them); ``in_language`` lends
another for a moment (the voice may speak its own, the JSON outputs stay English).
"""

from __future__ import annotations

import gettext
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path

from crib_pi.numbers import NUMBER_WORDS

DOMAIN = "crib_pi"
LOCALE = Path(__file__).resolve().parent / "locale"
#: The languages the table speaks; English is the source, so it needs no catalogue.
LANGUAGES = ("en", "fr")
SOURCE = "en"

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE
_loaded: dict[str, gettext.NullTranslations] = {}
_lent = threading.local()  # in_language's language, for this thread only


def _active() -> tuple[gettext.NullTranslations, str]:
    lent: tuple[gettext.NullTranslations, str] | None = getattr(_lent, "pair", None)
    return lent if lent is not None else (_current, _language)


class LanguageError(ValueError):
    """A language the table does not speak; the message names it and the ones it does."""


def _(message: str) -> str:
    """``message`` in the current language (English is the source language)."""
    return _active()[0].gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message for ``n``, in the current language."""
    return _active()[0].ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, as meant in ``context``: one English word can need
    two French ones ("spades": "pique" in "sept de pique", "piques" for a row of them)."""
    return _active()[0].pgettext(context, message)


def NC_(context: str, message: str) -> str:
    """Marks a message with its context for the catalogue; translated with ``pgettext``."""
    return message


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is defined; translated where it is shown."""
    return message


def number(n: int) -> str:
    """``n`` said as words in the current language: ``twenty-one`` / ``vingt et un``."""
    return NUMBER_WORDS[_active()[1]](n)


def current_language() -> str:
    return _active()[1]


def check_language(language: str, where: str = "language") -> str:
    """``language`` if the table speaks it, else a ``LanguageError`` naming it."""
    if language not in LANGUAGES:
        raise LanguageError(f"{where} {language!r} is not one of {', '.join(LANGUAGES)}")
    return language


def from_environment(environ: dict[str, str] | None = None) -> str:
    """The language gettext would pick: the first of ``LANGUAGE`` (a ``:`` list), ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` that is set, its first known language; English otherwise."""
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        if variable != "LANGUAGE":  # the first set of the others decides, as in gettext
            return SOURCE
    return SOURCE


def translations(language: str) -> gettext.NullTranslations:
    """The catalogue of ``language``: its compiled ``.mo``, or (not yet compiled, or older
    than the ``.po`` being edited) the ``.po`` compiled in memory."""
    check_language(language)
    if language == SOURCE:
        return gettext.NullTranslations()
    if language not in _loaded:
        folder = LOCALE / language / "LC_MESSAGES"
        mo, po = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
        if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
            with mo.open("rb") as handle:
                _loaded[language] = gettext.GNUTranslations(handle)
        else:
            from crib_pi.catalogue import compile_entries, read_po

            data = compile_entries(read_po(po))
            _loaded[language] = gettext.GNUTranslations(BytesIO(data))
    return _loaded[language]


def use_language(language: str | None = None) -> str:
    """Speak ``language`` from now on (``None`` or ``""``: the environment's); returns it."""
    global _current, _language
    chosen = check_language(language) if language else from_environment()
    _current, _language = translations(chosen), chosen
    return chosen


@contextmanager
def in_language(language: str) -> Iterator[None]:
    """Speak ``language`` inside the block, in this thread only, then as before."""
    before = getattr(_lent, "pair", None)
    _lent.pair = (translations(language), language)
    try:
        yield
    finally:
        _lent.pair = before
