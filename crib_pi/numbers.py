"""Numbers said as words, in English and in French: a count is said, never read as digits.

Words for numbers follow rules (French ``soixante et onze``, ``quatre-vingts``) that a catalogue
of fixed messages cannot hold, so each language has its function here and the translation
layer (``crib_pi.i18n.number``) picks the one of the current language.
"""

from __future__ import annotations

_EN_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_EN_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_FR_UNITS = (
    "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze "
    "seize dix-sept dix-huit dix-neuf"
).split()
_FR_TENS = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}


def english_number(n: int) -> str:
    """``31`` -> ``thirty-one``, ``121`` -> ``one hundred and twenty-one``."""
    if n < 0:
        return f"minus {english_number(-n)}"
    if n < 20:
        return _EN_UNITS[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return f"{_EN_TENS[tens]}-{_EN_UNITS[unit]}" if unit else _EN_TENS[tens]
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = f"{_EN_UNITS[hundreds]} hundred"
        return f"{head} and {english_number(rest)}" if rest else head
    return str(n)


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


#: The number words of each language the table speaks.
NUMBER_WORDS = {"en": english_number, "fr": french_number}
