"""Deck profiles: what a user's own deck looks like to the classifier.

``crib-pi learn-deck`` photographs the deck with known cards and keeps, for each card, the mean
embedding of its index patches. Recognition with a profile mixes the classifier's own card
probabilities with a nearest-prototype vote, so an unusual font or suit shape that the shipped
model half-knows becomes a confident read. The profile is an ``.npz`` file tied to the model
it was made with.
"""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from crib_pi.i18n import _
from crib_pi.vision.classifier import Scores, model_path
from crib_pi.vision.errors import DeckProfileError

#: Softmax temperature of the prototype vote (cosine similarities).
TEMPERATURE = 0.05
#: Weight of the prototype vote against the classifier (geometric mix).
PROFILE_WEIGHT = 0.5
#: A patch whose embedding is this close (cosine) to a learnt card's, and which the network
#: reads as that same card, is taken as an index: index-likeness rises from the classifier's
#: own at ``INDEX_SIM[0]`` to certain at ``INDEX_SIM[1]``. A deck the network never saw
#: prints indices it may not find index-like at all; the profile's own cards are what they
#: look like. (Table scenes of decks no network saw: their indices lie at 0.91 to 0.98 of
#: their card, most other patches below 0.88; 0.88 to 0.94 lifted a court's picture read as
#: KS at 0.943, and an 8D read 3D by the network and 8D by the vote, into two wrong cards.)
INDEX_SIM = (0.92, 0.97)


def model_digest(path: Path | None = None) -> str:
    """Short hash of the model file a profile belongs to."""
    return hashlib.sha256((path or model_path()).read_bytes()).hexdigest()[:16]


@dataclass(frozen=True)
class DeckProfile:
    """Per-card mean embeddings (52, k), unit length; rows of cards never seen are zero."""

    name: str
    prototypes: np.ndarray
    counts: np.ndarray  # (52,) patches behind each prototype
    model: str

    def adjust(self, scores: Scores) -> Scores:
        """Scores whose card probabilities include the prototype vote."""
        if len(scores.feat) == 0:
            return scores
        feat = scores.feat / np.maximum(np.linalg.norm(scores.feat, axis=1, keepdims=True), 1e-9)
        known = self.counts > 0
        sim = feat @ self.prototypes.T
        logits = np.where(known[None, :], sim / TEMPERATURE, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        vote = np.exp(logits)
        vote /= vote.sum(axis=1, keepdims=True)
        base = scores.card_probs()
        # cards the profile never saw keep the classifier's word
        vote = np.where(known[None, :], vote, base)
        # an undecided vote (two learnt cards alike) moves the read little: its weight is the
        # lead of its first card over its second
        top2 = np.sort(vote, axis=1)[:, -2:]
        weight = (PROFILE_WEIGHT * (top2[:, 1] - top2[:, 0]))[:, None]
        mixed = base ** (1 - weight) * vote**weight
        mixed /= np.maximum(mixed.sum(axis=1, keepdims=True), 1e-12)
        agree = np.argmax(np.where(known[None, :], sim, -np.inf), axis=1) == base.argmax(axis=1)
        return replace(scores, cards=mixed, rank=self._lifted(scores.rank, sim, known, agree))

    def _lifted(
        self, rank: np.ndarray, sim: np.ndarray, known: np.ndarray, agree: np.ndarray
    ) -> np.ndarray:
        """``rank`` (n, 14) with the not-an-index column lowered for patches like a learnt card
        that the network reads as that card (``agree``)."""
        if not known.any():
            return rank
        close = sim[:, known].max(axis=1)
        lo, hi = INDEX_SIM
        lift = np.where(agree, np.clip((close - lo) / (hi - lo), 0.0, 1.0), 0.0)
        p_index = np.maximum(1.0 - rank[:, 13], lift)
        ranks = rank[:, :13] / np.maximum(rank[:, :13].sum(axis=1, keepdims=True), 1e-9)
        out = np.concatenate([ranks * p_index[:, None], (1.0 - p_index)[:, None]], axis=1)
        return np.asarray(out, rank.dtype)

    def save(self, path: Path) -> None:
        with path.open("wb") as fh:
            np.savez_compressed(
                fh, name=self.name, prototypes=self.prototypes, counts=self.counts, model=self.model
            )

    @staticmethod
    def load(path: Path) -> DeckProfile:
        """Read a profile, checking that it was made with the shipped model."""
        if not path.is_file():
            raise DeckProfileError(_("no such deck profile: {path}").format(path=path))
        try:
            with np.load(path) as d:
                prof = DeckProfile(
                    str(d["name"]), d["prototypes"].astype(np.float32), d["counts"], str(d["model"])
                )
        except (ValueError, KeyError, zipfile.BadZipFile) as exc:  # some other file, or cut short
            raise DeckProfileError(
                _("{path} is not a deck profile (crib-pi learn-deck writes them)").format(path=path)
            ) from exc
        except OSError as exc:
            raise DeckProfileError(
                _("cannot read deck profile {path}: {exc}").format(path=path, exc=exc)
            ) from exc
        if prof.prototypes.shape[0] != 52 or prof.counts.shape != (52,):
            raise DeckProfileError(
                _("deck profile {path} is not a 52-card profile").format(path=path)
            )
        if prof.model != model_digest():
            raise DeckProfileError(
                _(
                    "deck profile {path} was made with another model; run crib-pi learn-deck again"
                ).format(path=path)
            )
        return prof


def build_profile(name: str, feats: list[np.ndarray], cards: list[int]) -> DeckProfile:
    """A profile from index embeddings and the card each one shows."""
    k = feats[0].shape[0] if feats else 96
    sums = np.zeros((52, k), np.float64)
    counts = np.zeros(52, np.int64)
    for f, c in zip(feats, cards, strict=True):
        sums[c] += f / max(float(np.linalg.norm(f)), 1e-9)
        counts[c] += 1
    norms = np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-9)
    protos = np.where(counts[:, None] > 0, sums / norms, 0.0).astype(np.float32)
    return DeckProfile(name, protos, counts, model_digest())
