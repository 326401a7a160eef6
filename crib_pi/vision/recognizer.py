"""Card recognition for one image: candidates, classifier, decision, optional deck profile."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.cards import Card
from crib_pi.vision.candidates import front_end
from crib_pi.vision.classifier import Classifier
from crib_pi.vision.corner import index_frames, to_frame, upright_card
from crib_pi.vision.decide import decide
from crib_pi.vision.image_file import load_image
from crib_pi.vision.paper import PaperRegions
from crib_pi.vision.patches import color_pyramid, colourless, extract, extract_wide
from crib_pi.vision.profile import DeckProfile
from crib_pi.vision.reads import CardRead, Point, Recognition, UncertainRead

#: A frame whose long side is under this many pixels is read at twice its size: a card about
#: 75 px wide in a small photo prints its index in glyphs of 5 to 8 px, too few pixels for
#: their shape, and doubling them costs less than reading a 1280x720 frame.
ENLARGE_BELOW = 1000
#: A card is a guess at a found card's corners (``guess_card``) where the networks, asked
#: where an index is printed, call it an index and that card this surely (the product), and
#: at least half as surely as the best; at most this many.
GUESS_MIN = 0.3
GUESSES = 3

__all__ = ["Recognizer", "load_image"]  # load_image: bounded memory (image_file)


class Recognizer:
    """Holds the loaded models (and a deck profile, if any); call ``read`` once per frame."""

    def __init__(
        self,
        profile: DeckProfile | None = None,
        models: Sequence[Path] = (),
        grey: Path | str | None = "shipped",
    ) -> None:
        self.classifier = Classifier(models, grey)
        self.profile = profile

    def read(self, bgr: np.ndarray) -> Recognition:
        """Every card readable in a BGR image (uint8, H x W x 3)."""
        return self.read_region(bgr, None)

    def read_region(self, bgr: np.ndarray, box: tuple[int, int, int, int] | None) -> Recognition:
        """The cards readable inside ``box`` (x0, y0, x1, y1 pixels; None: all) of an image,
        their corners in the whole image's pixels. Whether to enlarge, and whether the camera
        is grey, are judged on the whole image, so a box is read as it would be in it."""
        if bgr.ndim == 2:
            bgr = cv2.cvtColor(bgr, cv2.COLOR_GRAY2BGR)
        elif bgr.shape[2] == 4:
            bgr = cv2.cvtColor(bgr, cv2.COLOR_BGRA2BGR)
        enlarge = 2 if max(bgr.shape[:2]) < ENLARGE_BELOW else 1
        grey = colourless(bgr)
        x0, y0 = 0, 0
        if box is not None:
            x0, y0, x1, y1 = box
            bgr = bgr[y0:y1, x0:x1]
        if enlarge > 1:
            bgr = cv2.resize(bgr, None, fx=enlarge, fy=enlarge, interpolation=cv2.INTER_CUBIC)
        found = self._read_image(bgr, grey)
        if enlarge == 1 and (x0, y0) == (0, 0):
            return found
        return _moved(found, enlarge, (x0, y0))

    def read_card(self, bgr: np.ndarray, quad: npt.ArrayLike, grey: bool) -> Recognition:
        """The indices read at the corners of the card whose outline is ``quad`` (frame
        pixels), the card warped upright first (``corner``); their corners in frame pixels.
        ``grey``: the frame has no colour (``patches.colourless`` of the whole frame). With a
        profile that learnt the deck's corners, they witness the reads (``learnt_corners``)."""
        found = to_frame(self._read_image(upright_card(bgr, quad), grey), quad)
        if self.profile is None or grey:  # in grey a red and a black suit look alike
            return found
        return self.profile.witness(found, bgr, np.asarray(quad, np.float64))

    def vouches(self, bgr: np.ndarray, quad: npt.ArrayLike, card: Card, grey: bool) -> bool:
        """Whether the deck's learnt corners (a profile's) name ``card`` at the card outlined
        ``quad`` (frame pixels): never in grey, nor without a profile that learnt them."""
        if self.profile is None or grey:
            return False
        return self.profile.vouches(card, bgr, np.asarray(quad, np.float64))

    def guess_card(self, bgr: np.ndarray, quad: npt.ArrayLike, grey: bool) -> tuple[Card, ...]:
        """Cards the corners of the card outlined ``quad`` (frame pixels) may show, best
        first, where ``read_card`` read nothing there: the networks asked straight where
        indices are printed (``corner.index_frames``), so a font the glyph finder cuts no
        index out of is still guessed at; with a profile that learnt the deck's corners, the
        cards likest them first. Only ever offered in a question, never a read."""
        view = upright_card(bgr, quad)
        frames = index_frames()
        pyr = color_pyramid(view, 2)
        scores = self.classifier.score(
            extract(pyr, frames), lambda idx: extract_wide(pyr, frames.take(idx)), grey
        )
        if self.profile is not None:
            scores = self.profile.adjust(scores)
        best = (scores.card_probs() * scores.index_prob()[:, None]).max(axis=0)
        floor = max(GUESS_MIN, float(best.max()) / 2)
        order = [int(i) for i in np.argsort(-best)[:GUESSES] if best[i] >= floor]
        guesses = [Card.from_index(i) for i in order]
        if self.profile is not None and not grey:
            learnt = self.profile.likest(bgr, np.asarray(quad, np.float64), GUESSES)
            guesses = list(dict.fromkeys([*learnt, *guesses]))[:GUESSES]
        return tuple(guesses)

    def _read_image(self, bgr: np.ndarray, grey: bool) -> Recognition:
        """The cards read in a BGR image as it is: candidates, networks, profile, decision."""
        frames, patches, pyr = front_end(bgr)
        scores = self.classifier.score(
            patches, lambda idx: extract_wide(pyr, frames.take(idx)), grey
        )
        if self.profile is not None:
            scores = self.profile.adjust(scores)
        return decide(frames, scores, PaperRegions(bgr))


def _moved(found: Recognition, factor: float, origin: tuple[int, int]) -> Recognition:
    """``found`` with its corners in the pixels of an image ``factor`` times smaller, in
    which the image read starts at ``origin``."""
    ox, oy = origin

    def back(corners: tuple[Point, ...]) -> tuple[Point, ...]:
        return tuple((x / factor + ox, y / factor + oy) for x, y in corners)

    return Recognition(
        tuple(
            CardRead(r.card, r.confidence, back(r.corners), back(r.opposite) if r.opposite else ())
            for r in found.cards
        ),
        tuple(
            UncertainRead(u.candidates, u.probabilities, back(u.corners)) for u in found.uncertain
        ),
    )
