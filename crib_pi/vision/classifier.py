"""The shipped index classifier: a small CNN in ONNX, run with ``cv2.dnn`` (no torch needed).

Outputs per patch: rank probabilities (ace..king, then "no index"), suit probabilities
(clubs, diamonds, hearts, spades, as in ``Card.index``) and a 96-value embedding that deck
profiles compare against.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from crib_pi.vision.errors import ModelError
from crib_pi.vision.patches import normalise

MODEL_NAME = "index_net.onnx"
#: Patches per forward pass; bounds memory on a Pi.
BATCH = 256


@dataclass(frozen=True)
class Scores:
    """Per-patch classifier outputs."""

    rank: np.ndarray  # (n, 14)
    suit: np.ndarray  # (n, 4)
    feat: np.ndarray  # (n, k)
    cards: np.ndarray | None = None  # (n, 52) replaces rank x suit when a profile is used

    def card_probs(self) -> np.ndarray:
        """(n, 52) probability of each card given that the patch is an index."""
        if self.cards is not None:
            return self.cards
        r = self.rank[:, :13]
        r = r / np.maximum(r.sum(axis=1, keepdims=True), 1e-9)
        # Card.index = suit * 13 + rank - 1
        return np.asarray((self.suit[:, :, None] * r[:, None, :]).reshape(-1, 52), np.float32)

    def index_prob(self) -> np.ndarray:
        """(n,) probability that the patch is a card index at all."""
        return 1.0 - self.rank[:, 13]


def model_path() -> Path:
    return Path(str(resources.files("crib_pi") / "data" / MODEL_NAME))


class Classifier:
    """Loads the network once and scores batches of patches."""

    def __init__(self, path: Path | None = None) -> None:
        path = path or model_path()
        if not path.is_file():
            raise ModelError(f"recognition model missing: {path}")
        try:
            self._net = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as exc:
            raise ModelError(f"recognition model does not load: {path}: {exc}") from exc

    def score(self, patches: np.ndarray) -> Scores:
        """Scores for (n, P, P, 3) uint8 patches."""
        outs: list[list[np.ndarray]] = [[], [], []]
        for i in range(0, len(patches), BATCH):
            self._net.setInput(normalise(patches[i : i + BATCH]))
            got = self._net.forward(["rank", "suit", "feat"])
            for lst, arr in zip(outs, got, strict=True):
                lst.append(np.asarray(arr, np.float32).reshape(len(patches[i : i + BATCH]), -1))
        if not outs[0]:
            return Scores(
                np.zeros((0, 14), np.float32),
                np.zeros((0, 4), np.float32),
                np.zeros((0, 96), np.float32),
            )
        return Scores(*(np.concatenate(o) for o in outs))
