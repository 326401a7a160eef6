"""Card recognition for one image: candidates, classifier, decision, optional deck profile."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from crib_pi.vision.candidates import front_end
from crib_pi.vision.classifier import Classifier
from crib_pi.vision.decide import decide
from crib_pi.vision.image_file import load_image
from crib_pi.vision.patches import extract_wide
from crib_pi.vision.profile import DeckProfile
from crib_pi.vision.reads import Recognition

__all__ = ["Recognizer", "load_image"]  # load_image: bounded memory (image_file)


class Recognizer:
    """Holds the loaded models (and a deck profile, if any); call ``read`` once per frame."""

    def __init__(self, profile: DeckProfile | None = None, models: Sequence[Path] = ()) -> None:
        self.classifier = Classifier(models)
        self.profile = profile

    def read(self, bgr: np.ndarray) -> Recognition:
        """Every card readable in a BGR image (uint8, H x W x 3)."""
        if bgr.ndim == 2:
            bgr = cv2.cvtColor(bgr, cv2.COLOR_GRAY2BGR)
        elif bgr.shape[2] == 4:
            bgr = cv2.cvtColor(bgr, cv2.COLOR_BGRA2BGR)
        frames, patches, pyr = front_end(bgr)
        scores = self.classifier.score(patches, lambda idx: extract_wide(pyr, frames.take(idx)))
        if self.profile is not None:
            scores = self.profile.adjust(scores)
        return decide(frames, scores)
