"""Ink and stock variants of a rendered deck: brown-black ink on warm card, a grey camera.

A rendered deck prints pure black on pure white; real decks print brown-black or dark grey
on cream, and a monochrome camera sees no red at all. A network that learned "black ink,
so a spade or a club" reads a brown spade as a diamond. These variants teach ink by shape.
"""

from __future__ import annotations

import cv2
import numpy as np

from crib_pi.vision.synth.decks import Deck

#: Card stocks and "black" inks as BGR.
STOCKS = ((228, 240, 245), (210, 232, 240), (238, 246, 250))
INKS = ((32, 44, 62), (35, 50, 75), (45, 45, 40), (60, 25, 20))


def tinted(deck: Deck, rng: np.random.Generator) -> Deck:
    """The deck printed in a random brown-black or dark ink on a warm stock."""
    stock = np.array(STOCKS[int(rng.integers(len(STOCKS)))], np.float32)
    ink = np.array(INKS[int(rng.integers(len(INKS)))], np.float32)
    faces = tuple(_retint(f, stock, ink) for f in deck.faces)
    return Deck(f"{deck.name}+tint", faces, deck.back, deck.boxes)


def _retint(face: np.ndarray, stock: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """Paper takes the stock's colour; dark, colourless ink takes the ink's."""
    bgr = face[:, :, :3].astype(np.float32)
    out = bgr * (stock / 255.0)
    hi, lo = bgr.max(axis=2), bgr.min(axis=2)
    dark = np.clip((140.0 - hi) / 140.0, 0.0, 1.0) * (hi - lo < 45)
    out = (
        out * (1 - dark[..., None]) + (ink * (0.6 + 0.4 * lo[..., None] / 140.0)) * dark[..., None]
    )
    return np.dstack([np.clip(out, 0, 255).astype(np.uint8), face[:, :, 3]])


def grey(bgr: np.ndarray) -> np.ndarray:
    """What a monochrome camera gives: the same luminance in all three channels."""
    return cv2.cvtColor(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
