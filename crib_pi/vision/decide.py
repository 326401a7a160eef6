"""From scored candidate frames to reads: merge duplicates, name only what is certain.

Several frames fall on one index (each glyph pair, each pyramid level); they are grouped by
place and their probabilities averaged, weighted by how index-like each looks. A group is named
only when one card clearly wins; otherwise it is returned as uncertain with its candidates.
A deck holds each card once, so reads of the same card are one physical card.
"""

from __future__ import annotations

import numpy as np

from crib_pi.cards import Card
from crib_pi.vision.classifier import Scores
from crib_pi.vision.pairs import Frames
from crib_pi.vision.reads import CardRead, Recognition, UncertainRead

#: A frame takes part only if it is at least this likely to be an index.
MIN_INDEX = 0.5
#: A group is reported (read or uncertain) only if its best frame is at least this index-like.
REPORT_INDEX = 0.85
#: A card is named when its probability (index-likeness times card share) reaches this.
NAME_AT = 0.9
#: Candidates of an uncertain read: the best ones down to this probability, at most MAX_CANDIDATES.
CANDIDATE_MIN = 0.05
MAX_CANDIDATES = 4
#: Frames whose centres are closer than this share of their patch side are the same index.
SAME_PLACE = 0.6


def decide(frames: Frames, scores: Scores, card_bias: np.ndarray | None = None) -> Recognition:
    """Reads for one image. ``card_bias`` (52,) multiplies card probabilities (a deck profile)."""
    p_index = scores.index_prob()
    live = np.flatnonzero(p_index >= MIN_INDEX)
    if live.size == 0:
        return Recognition((), ())
    probs = scores.card_probs()
    if card_bias is not None:
        probs = probs * card_bias[None, :]
        probs = probs / np.maximum(probs.sum(axis=1, keepdims=True), 1e-9)
    order = live[np.argsort(-p_index[live])]
    used = np.zeros(len(frames), bool)
    reads: dict[Card, CardRead] = {}
    unsure: list[UncertainRead] = []
    corners = frames.corners()
    for i in order:
        if used[i]:
            continue
        near = order[
            ~used[order]
            & (
                np.hypot(*(frames.centers[order] - frames.centers[i]).T)
                < SAME_PLACE * frames.sides[i]
            )
        ]
        used[near] = True
        if p_index[i] < REPORT_INDEX:
            continue
        wts = p_index[near]
        mixed = (probs[near] * wts[:, None]).sum(axis=0) / wts.sum()
        best = int(np.argmax(mixed))
        conf = float(mixed[best] * p_index[near].max())
        box = tuple((float(x), float(y)) for x, y in corners[i])
        if conf >= NAME_AT:
            card = Card.from_index(best)
            old = reads.get(card)
            if old is None or old.confidence < conf:
                reads[card] = CardRead(card, conf, box)
        else:
            top = np.argsort(-mixed)[:MAX_CANDIDATES]
            top = top[mixed[top] >= CANDIDATE_MIN]
            unsure.append(
                UncertainRead(
                    tuple(Card.from_index(int(t)) for t in top),
                    tuple(float(mixed[t]) for t in top),
                    box,
                )
            )
    # An uncertain index whose leading candidate was named elsewhere is that card's other index.
    named = set(reads)
    unsure = [u for u in unsure if not u.candidates or u.candidates[0] not in named]
    cards = tuple(sorted(reads.values(), key=lambda r: (r.corners[0][1], r.corners[0][0])))
    return Recognition(cards, tuple(unsure))
