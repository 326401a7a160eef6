"""One translation layer: every word a player sees or hears goes through ``_`` here.

A skeleton so that new code wraps its words from the start; the catalogues, the language choice
(config, ``--lang``, ``LANG``/``LC_MESSAGES``) and the checks are built on it (issue 21).
"""

from __future__ import annotations

import gettext

DOMAIN = "crib_pi"
_current: gettext.NullTranslations = gettext.NullTranslations()


def _(message: str) -> str:
    """``message`` in the current language (English is the source language)."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message for ``n``, in the current language."""
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is defined; translated where it is shown."""
    return message
