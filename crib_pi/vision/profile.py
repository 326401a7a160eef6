"""Deck profiles: what a user's own deck looks like to the classifier.

``crib-pi learn-deck`` photographs the deck with known cards and keeps, for each card, the mean
signature of its index patches (``classifier.signature``: what each network made of it), and
the mean embedding, which reading no longer uses (profiles before signatures read by it). A
deck the networks never saw is misread in its own, repeatable way: its jack half read as a
queen, its nine a little like a two. Where the networks lead with a card and the patch's
signature is close to that card's learnt one, and nearer it than any other card's by a clear
margin, the patch is that card's index, however little index-like the networks found it. A
profile may also keep each card's corner as the camera saw it (``learnt_corners``): a found
card is then read by its likeness to them as well, which needs no network. The profile is an
``.npz`` file tied to the models it was made with.
"""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from crib_pi.cards import Card
from crib_pi.i18n import _
from crib_pi.vision.classifier import GREY_NAME, MODEL_NAME, SECOND_NAME, Scores, model_path
from crib_pi.vision.errors import DeckProfileError
from crib_pi.vision.reads import Recognition

#: A patch the networks read as a card whose learnt signature is the patch's nearest, at least
#: ``MARGIN`` nearer (root mean square, in log-probability) than any other card's and within
#: ``CLOSE`` of it, is an index: its index-likeness is raised to ``INDEX`` (a deck the networks
#: never saw prints indices they may not find index-like). The card's probability stays the
#: networks': making it sure as well named 2 wrong cards in 2,207 on decks drawn from
#: seeds 231 to 246 (a 7D's rank beside a 6S's spade read 7S; a German B jack read 8C, whose
#: learnt signature lay nearer than the jack's). Margin and closeness chosen on decks drawn
#: from seeds 41 to 177 that no benchmark reports.
MARGIN = 0.5
CLOSE = 2.0
INDEX = 0.95
#: A learnt corner whose grey varies less than this shows no index (a lesson's card cut from
#: its row where it did not lie: bare paper); indices in ink vary by 25 and more.
BLANK_STD = 12.0


@dataclass(frozen=True)
class Look:
    """What the networks made of one index patch: embedding and signature (None with a
    single network, which gives no signature)."""

    feat: np.ndarray
    sig: np.ndarray | None


def model_digest() -> str:
    """Short hash of the model files a profile belongs to: the first network (embeddings) and
    the three whose outputs make the signatures."""
    digest = hashlib.sha256()
    for name in (MODEL_NAME, SECOND_NAME, GREY_NAME):
        digest.update(model_path(name).read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class DeckProfile:
    """Per-card mean embeddings (52, k), unit length, and mean signatures (52, m); rows of
    cards never seen are zero (embeddings) and NaN (signatures)."""

    name: str
    prototypes: np.ndarray
    counts: np.ndarray  # (52,) patches behind each prototype
    model: str
    signatures: np.ndarray
    #: Each card's learnt corner (52 x h x w x 3, BGR; ``learnt_corners``), zero where never
    #: learnt, and which were learnt; None in a profile made without them.
    corners: np.ndarray | None = None
    cornered: np.ndarray | None = None

    def witness(self, found: Recognition, frame: np.ndarray, quad: np.ndarray) -> Recognition:
        """A found card's reads at its corners as its learnt corners see them, if any."""
        if self.corners is None or self.cornered is None:
            return found
        from crib_pi.vision.learnt_corners import witness

        return witness(found, frame, quad, self.corners, self.cornered)

    def vouches(self, card: Card, frame: np.ndarray, quad: np.ndarray) -> bool:
        """Whether the learnt corners, if any, name ``card`` at the card outlined ``quad``
        as strictly as they name a card alone (``learnt_corners.vouches``)."""
        if self.corners is None or self.cornered is None:
            return False
        from crib_pi.vision.learnt_corners import vouches

        return vouches(card, frame, quad, self.corners, self.cornered)

    def likest(self, frame: np.ndarray, quad: np.ndarray, most: int) -> list[Card]:
        """The learnt cards, if any, most like the corners of the card outlined ``quad``
        (``learnt_corners.likest``): guesses, never reads."""
        if self.corners is None or self.cornered is None:
            return []
        from crib_pi.vision.learnt_corners import likest

        return likest(frame, quad, self.corners, self.cornered, most)

    def adjust(self, scores: Scores) -> Scores:
        """Scores with the indices the profile vouches for believed (``MARGIN``, ``CLOSE``)."""
        known = np.flatnonzero(~np.isnan(self.signatures).any(axis=1))
        if scores.sig is None or known.size < 2 or scores.sig.shape[1] != self.signatures.shape[1]:
            return scores
        rows = np.flatnonzero(~np.isnan(scores.sig).any(axis=1))
        if rows.size == 0:
            return scores
        diff = scores.sig[rows, None, :] - self.signatures[None, known, :]
        dist = np.sqrt(np.mean(diff**2, axis=2))
        order = np.argsort(dist, axis=1)[:, :2]
        nearest, second = np.take_along_axis(dist, order, axis=1).T
        rank = scores.rank.copy()
        lead = scores.card_probs()[rows].argmax(axis=1)
        vouched = (known[order[:, 0]] == lead) & (second - nearest >= MARGIN) & (nearest <= CLOSE)
        low = rows[vouched]
        low = low[1.0 - rank[low, 13] < INDEX]
        rank[low, :13] *= (INDEX / np.maximum(1.0 - rank[low, 13], 1e-9))[:, None]
        rank[low, 13] = 1.0 - INDEX
        return replace(scores, rank=rank)

    def save(self, path: Path) -> None:
        extra: dict[str, Any] = {}
        if self.corners is not None and self.cornered is not None:
            extra = {"corners": self.corners, "cornered": self.cornered}
        with path.open("wb") as fh:
            np.savez_compressed(
                fh,
                name=self.name,
                prototypes=self.prototypes,
                counts=self.counts,
                model=self.model,
                signatures=self.signatures,
                **extra,
            )

    @staticmethod
    def load(path: Path) -> DeckProfile:
        """Read a profile, checking that it was made with the shipped models."""
        if not path.is_file():
            raise DeckProfileError(_("no such deck profile: {path}").format(path=path))
        try:
            with np.load(path) as d:
                sigs = d["signatures"].astype(np.float32) if "signatures" in d.files else None
                cornered = d["cornered"].astype(bool) if "cornered" in d.files else None
                prof = DeckProfile(
                    str(d["name"]),
                    d["prototypes"].astype(np.float32),
                    d["counts"],
                    str(d["model"]),
                    np.zeros((52, 0), np.float32) if sigs is None else sigs,
                    d["corners"].astype(np.uint8) if cornered is not None else None,
                    cornered,
                )
        except (ValueError, KeyError, zipfile.BadZipFile) as exc:  # some other file, or cut short
            raise DeckProfileError(
                _("{path} is not a deck profile (crib-pi learn-deck writes them)").format(path=path)
            ) from exc
        except OSError as exc:
            raise DeckProfileError(
                _("cannot read deck profile {path}: {exc}").format(path=path, exc=exc)
            ) from exc
        if sigs is None:  # profiles from before signatures: they would change no read
            raise DeckProfileError(
                _(
                    "deck profile {path} was made by an older crib-pi; run crib-pi learn-deck again"
                ).format(path=path)
            )
        if (
            prof.prototypes.shape[0] != 52
            or prof.counts.shape != (52,)
            or prof.signatures.shape[0] != 52
            or not _corners_fit(prof.corners, prof.cornered)
        ):
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


def _corners_fit(corners: np.ndarray | None, cornered: np.ndarray | None) -> bool:
    """Whether a profile's learnt corners, if any, are one BGR picture of each of 52 cards, at
    the size this crib-pi reads them."""
    from crib_pi.vision.learnt_corners import corner_shape

    if corners is None or cornered is None:
        return True
    return cornered.shape == (52,) and corners.shape == (52, *corner_shape())


def learnt_corner_set(views: dict[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The corners array and its learnt flags from upright views of cards (``learnt_corners.
    upright``) by card number, the corners cut alike (``aligned_corners``)."""
    from crib_pi.vision.learnt_corners import aligned_corners, corner_shape

    corners = np.zeros((52, *corner_shape()), np.uint8)
    cornered = np.zeros(52, bool)
    cards = sorted(views)
    for card, corner in zip(cards, aligned_corners([views[c] for c in cards]), strict=True):
        grey = corner.mean(axis=2) if corner.ndim == 3 else corner
        if float(grey.std()) < BLANK_STD:
            continue  # no index in it: paper, cut where the card was not
        corners[card] = corner
        cornered[card] = True
    return corners, cornered


def build_profile(
    name: str,
    looks: list[Look],
    cards: list[int],
    views: dict[int, np.ndarray] | None = None,
) -> DeckProfile:
    """A profile from the looks at index patches and the card each one shows, and, where
    given, each card's upright view (its learnt corner)."""
    k = looks[0].feat.shape[0] if looks else 96
    m = next((len(look.sig) for look in looks if look.sig is not None), 0)
    sums = np.zeros((52, k), np.float64)
    sigs = np.zeros((52, m), np.float64)
    counts = np.zeros(52, np.int64)
    heard = np.zeros(52, np.int64)
    for look, c in zip(looks, cards, strict=True):
        sums[c] += look.feat / max(float(np.linalg.norm(look.feat)), 1e-9)
        counts[c] += 1
        if look.sig is not None:
            sigs[c] += look.sig
            heard[c] += 1
    norms = np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-9)
    protos = np.where(counts[:, None] > 0, sums / norms, 0.0).astype(np.float32)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(heard[:, None] > 0, sigs / heard[:, None], np.nan).astype(np.float32)
    corners, cornered = learnt_corner_set(views) if views else (None, None)
    return DeckProfile(name, protos, counts, model_digest(), means, corners, cornered)
