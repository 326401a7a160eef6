"""Card faces rendered from Debian's ``gnome-cards-data`` SVG decks with ``rsvg-convert``.

Each deck is one sheet of 13 columns by 5 rows: clubs, diamonds, hearts, spades (ace to king),
then jokers and the back. Sheets are rendered once into a cache folder, never into the project,
because the decks are GPL and this project is MIT.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from crib_pi.vision.synth.faces import Box, index_boxes

#: Where Debian installs the SVG decks (``CRIB_PI_DECK_DIR`` elsewhere, e.g. a training machine).
DECK_DIR = Path(os.environ.get("CRIB_PI_DECK_DIR") or "/usr/share/aisleriot/cards")
#: Decks whose suits are not French or whose index is not a rank above a suit.
EXCLUDED = frozenset({"swiss-xvii", "tango_nuevo", "Атласные"})
#: Deck families: decks of one design tradition, held out of training together to measure how
#: recognition does on a design it never saw (``benchmarks/bench_vision.py --leave-out``).
FAMILIES = {
    "anglo": ("anglo", "anglo_bitmap", "anglo_modern", "anglo_modern_4_color", "anglo_poker"),
    "gnomangelo": ("gnomangelo", "gnomangelo_bitmap"),
    "neoclassical": ("neoclassical", "neoclassical_4_color"),
    "french": ("ancient_french", "bellot", "guyenne-classic", "paris"),
    "german": ("berlin", "dondorf", "lattmann", "rheinland"),
    "russian": ("atlasnye", "atlasnye_skat", "slavic_costumes"),
    "italian": ("tarocco", "tigullio", "tango", "ornamental"),
    "modern": ("plastic", "simplistic", "orell"),
}
#: Card width in pixels of the cached renders.
FACE_WIDTH = 240


@dataclass(frozen=True)
class Deck:
    """One rendered deck: 52 RGBA faces in ``Card.index`` order, plus its back."""

    name: str
    faces: tuple[np.ndarray, ...]
    back: np.ndarray
    #: Rank and suit boxes of each face's top-left index (face pixels), None where not measured.
    boxes: tuple[tuple[Box, Box] | None, ...]


def available() -> bool:
    """True when the SVG decks and ``rsvg-convert`` are installed."""
    return DECK_DIR.is_dir() and shutil.which("rsvg-convert") is not None


def deck_names() -> list[str]:
    """Usable deck names, sorted, or none when the package is missing."""
    if not DECK_DIR.is_dir():
        return []
    names = sorted(p.name.removesuffix(".svgz") for p in DECK_DIR.glob("*.svgz"))
    return [n for n in names if n not in EXCLUDED]


def family_of(name: str) -> str:
    """A deck's family: its ``FAMILIES`` key, ``plain``, or ``drawn-<font>`` for drawn decks
    (named ``drawn-<font>-<n>``); a variant (``anglo+tint``) belongs to its deck's family."""
    base = name.split("+")[0]
    if base.startswith("drawn-"):
        return base.rsplit("-", 1)[0]
    for fam, names in FAMILIES.items():
        if base in names:
            return fam
    return base


def cache_dir() -> Path:
    """Where rendered sheets are kept (``CRIB_PI_CACHE`` or ``~/.cache/crib-pi``)."""
    base = os.environ.get("CRIB_PI_CACHE") or str(Path.home() / ".cache" / "crib-pi")
    path = Path(base) / "decks"
    path.mkdir(parents=True, exist_ok=True)
    return path


def load_deck(name: str) -> Deck:
    """Render (once) and slice one deck."""
    sheet_path = cache_dir() / f"{name}-{FACE_WIDTH}.png"
    if not sheet_path.exists():
        # one temporary name per process: training runs several at once on a cold cache
        tmp = sheet_path.with_suffix(f".{os.getpid()}.tmp.png")
        with tmp.open("wb") as out:
            subprocess.run(
                ["rsvg-convert", "-w", str(FACE_WIDTH * 13), str(DECK_DIR / f"{name}.svgz")],
                check=True,
                stdout=out,
            )
        tmp.replace(sheet_path)
    sheet = cv2.imread(str(sheet_path), cv2.IMREAD_UNCHANGED)
    if sheet is None or sheet.ndim != 3 or sheet.shape[2] != 4:
        raise RuntimeError(f"cannot read rendered deck {sheet_path}")
    cw, ch = sheet.shape[1] / 13.0, sheet.shape[0] / 5.0

    def cell(row: int, col: int) -> np.ndarray:
        y0, y1 = round(row * ch), round((row + 1) * ch)
        x0, x1 = round(col * cw), round((col + 1) * cw)
        return np.ascontiguousarray(_trim(sheet[y0:y1, x0:x1]))

    faces = tuple(cell(i // 13, i % 13) for i in range(52))
    return Deck(name, faces, cell(4, 2), tuple(index_boxes(f) for f in faces))


def plain_deck() -> Deck:
    """The project's own plain faces (``crib_pi.session.faces``), the demo's deck, as a Deck.

    They are drawn by code (MIT), so this deck needs no package and can be trained on anywhere.
    """
    from crib_pi.cards import Card
    from crib_pi.session.faces import plain_face

    faces = tuple(plain_face(Card.from_index(i)) for i in range(52))
    back = faces[0].copy()
    back[:, :, :3] = (150, 60, 40)  # a plain dark-blue back, same outline
    cv2.rectangle(back, (14, 14), (back.shape[1] - 15, back.shape[0] - 15), (235, 235, 235), 3)
    return Deck("plain", faces, back, tuple(index_boxes(f) for f in faces))


def _trim(face: np.ndarray) -> np.ndarray:
    """Cut a cell down to the card's own box (the alpha channel's extent)."""
    ys, xs = np.nonzero(face[:, :, 3] > 128)
    if ys.size == 0:
        return face
    return face[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
