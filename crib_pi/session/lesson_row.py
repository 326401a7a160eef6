"""Reading one lesson row on the mat: thirteen cards of a suit, ace to king, left to right.

A deck the network never saw is exactly the one whose indices it may misname (a six read as a
queen, surely), so the names of the row's cards are not taken from the classifier: the player
laid them in order, and the order names them. The classifier only says where the row's
indices are (the few it finds index-like anchor the row: their size, their direction and the
line they lie on), and every candidate index of that size and direction on that line is
grouped by its place along the row. Thirteen places give the thirteen cards.

What can be checked against what was expected is checked: a place the camera finds no index
at is a missing card; a card that the camera reads surely as a suit of the other colour, or
as another suit in a row whose other cards it reads as the right suit, is a wrong card; two
places read surely as each other's card are two cards swapped. Each is refused with the cards
named. A card misread within the suit is not refused (that is what a new deck does, and what
the profile is for).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from crib_pi.cards import Card
from crib_pi.mat import HEIGHT, PX_PER_MM, WIDTH
from crib_pi.vision.candidates import candidates
from crib_pi.vision.classifier import Classifier
from crib_pi.vision.profile import Look

#: A candidate this index-like anchors the row.
ANCHOR_INDEX = 0.5
#: Row members: patch side within this share of the anchors', direction within this cosine,
#: centre within this many mat pixels of the anchors' line (across the row).
SIDE_TOLERANCE = 0.2
DOWN_COSINE = 0.8
ACROSS_MM = 8
#: Indices of neighbouring cards are at least this far apart along the row (cards are laid
#: about 15 to 30 mm apart so that each index shows).
GAP_MM = 8
#: A group this far (in steps) from a place of the row is not one of its indices.
UNEVEN = 0.25
#: Steps between neighbouring cards looked for: each index showing, 13 cards on the mat.
STEP_MM = (12.0, 32.0)
#: Where a row missing its ends starts is taken from the ranks' votes only when the best
#: placing leads the next by this much (about one card read surely).
CLEAR_VOTE = 0.9
#: A read counts as the camera's word when the card's probability reaches this.
SURE = 0.9
RED = ("H", "D")
#: The row's suit counts as known to the camera when this share of its sure reads name it.
SUIT_KNOWN = 0.75
#: Go keeps a row with at most this many cards read as another suit of its colour.
MAX_KEPT_WRONG = 3


@dataclass
class RowReading:
    """The row as read: the networks' looks at each expected card, and what is wrong with it."""

    expected: tuple[Card, ...]
    looks: dict[Card, list[Look]] = field(default_factory=dict)
    missing: tuple[Card, ...] = ()
    wrong: tuple[tuple[Card, Card], ...] = ()  # (expected here, what was read)
    swapped: tuple[tuple[Card, Card], ...] = ()
    places: int = 0
    where: dict[Card, float] = field(default_factory=dict)  # along the row, mat pixels
    across: float = 0.0  # the row's indices' line (mat pixels down the mat)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.wrong or self.swapped)

    @property
    def keepable(self) -> bool:
        """Whether Go may keep the row without its doubtful cards: nothing swapped, and at
        most ``MAX_KEPT_WRONG`` cards read as another suit of the row's own colour. At 125 px
        a card a club's index can read as a spade's, where a player sees it is right; a card
        of the other colour, or more, is the player's mistake to put right."""
        same_colour = all((e.suit in RED) == (r.suit in RED) for e, r in self.wrong)
        return not self.swapped and len(self.wrong) <= MAX_KEPT_WRONG and same_colour


def read_row(
    bgr: npt.NDArray[np.uint8],
    to_mat: npt.NDArray[np.float64],
    expected: tuple[Card, ...],
    classifier: Classifier,
) -> RowReading:
    """The lesson row in one frame; ``to_mat`` is the frame-to-mat homography."""
    import cv2

    out = RowReading(expected)
    frames, patches = candidates(bgr)
    if len(frames) == 0:
        out.missing = expected
        return out
    scores = classifier.score(patches)
    p_index = scores.index_prob()
    probs = scores.card_probs()
    pts = cv2.perspectiveTransform(frames.centers.reshape(-1, 1, 2).astype(np.float64), to_mat)
    mat = np.asarray(pts, np.float64).reshape(-1, 2)
    on_mat = (mat[:, 0] >= 0) & (mat[:, 0] <= WIDTH) & (mat[:, 1] >= 0) & (mat[:, 1] <= HEIGHT)
    anchors = np.flatnonzero(on_mat & (p_index >= ANCHOR_INDEX))
    if anchors.size == 0:
        out.missing = expected
        return out
    down = np.median(frames.downs[anchors], axis=0)
    down /= max(float(np.linalg.norm(down)), 1e-9)
    side = float(np.median(frames.sides[anchors]))
    across = float(np.median(mat[anchors, 1]))
    out.across = across
    member = (
        on_mat
        & (frames.downs @ down >= DOWN_COSINE)
        & (np.abs(frames.sides / side - 1) <= SIDE_TOLERANCE)
        & (np.abs(mat[:, 1] - across) <= ACROSS_MM * PX_PER_MM)
    )
    idx = np.flatnonzero(member)
    idx = idx[np.argsort(mat[idx, 0], kind="stable")]
    groups: list[list[int]] = []
    for i in idx:
        if groups and mat[i, 0] - mat[groups[-1][-1], 0] <= GAP_MM * PX_PER_MM:
            groups[-1].append(int(i))
        else:
            groups.append([int(i)])
    out.places = len(groups)
    slots = _slots(
        [float(np.mean(mat[g, 0])) for g in groups], len(expected), groups, probs, p_index
    )
    best = [g[int(np.argmax(p_index[g]))] for g in groups]
    sigs = classifier.signature(patches[best])
    said: dict[int, Card] = {}  # slot -> the card the camera reads surely there
    for slot, k, sig in zip(slots, best, sigs, strict=True):
        if slot is None:
            continue
        card = expected[slot]
        out.looks.setdefault(card, []).append(Look(scores.feat[k], sig))
        out.where[card] = float(mat[k, 0])
        top = int(np.argmax(probs[k]))
        if p_index[k] >= ANCHOR_INDEX and probs[k, top] * p_index[k] >= SURE:
            said[slot] = Card.from_index(top)
    out.missing = tuple(c for c in expected if c not in out.looks)
    suit = expected[0].suit
    sure_suits = [c.suit == suit for c in said.values()]
    known = bool(sure_suits) and float(np.mean(sure_suits)) >= SUIT_KNOWN
    out.wrong = tuple(
        (expected[s], c)
        for s, c in sorted(said.items())
        if c.suit != suit and (known or (c.suit in RED) != (suit in RED))
    )
    swaps = []
    for s, c in sorted(said.items()):
        j = expected.index(c) if c in expected else -1
        if j > s and said.get(j) == expected[s]:
            swaps.append((expected[s], c))
    out.swapped = tuple(swaps)
    return out


def _slots(
    xs: list[float],
    count: int,
    groups: list[list[int]],
    probs: npt.NDArray[np.float32],
    p_index: npt.NDArray[np.float32],
) -> list[int | None]:
    """Each group's place in the row (0 = ace), from the spacing of their positions.

    The row is fitted with evenly spaced places (a first place and a step, tried from every
    pair of groups): the fit that puts the most groups within ``UNEVEN`` of a step of a place,
    over at most ``count`` places, wins. Groups off the places (a pip, a picture's corner) are
    left out, and a card whose index was not found leaves its place empty rather than shifting
    the rest. A row spanning fewer places than ``count`` is put in the row by the classifier's
    rank votes, only when they clearly favour one placing: a card is never learnt under
    another's name.
    """
    n = len(xs)
    if n < 2:
        return [None] * n
    x = np.asarray(xs, np.float64)
    best: tuple[int, float, float, float] | None = None  # inliers, -residual, x0, step
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(1, count):
                step = (x[j] - x[i]) / k
                if not STEP_MM[0] * PX_PER_MM <= step <= STEP_MM[1] * PX_PER_MM:
                    continue
                inl, _, off = _on_places(x, float(x[i]), step, count)
                key = (int(inl.sum()), -float(off[inl].sum()), float(x[i]), step)
                if best is None or key[:2] > best[:2]:
                    best = key
    if best is None or best[0] < 2:
        return [None] * n
    _, _, x0, step = best
    for _ in range(2):  # refit the places to the groups on them (least squares)
        inl, places, _ = _on_places(x, x0, step, count)
        if np.unique(places[inl]).size < 2:
            break
        slope, x0 = np.polyfit(places[inl], x[inl], 1)
        step = float(slope)
    inl, places, _ = _on_places(x, x0, step, count)
    if not inl.any():
        return [None] * n
    first = int(places[inl].min())
    rel: list[int | None] = [
        int(p) - first if ok else None for p, ok in zip(places, inl, strict=True)
    ]
    for r in {r for r in rel if r is not None}:  # two groups on one place: the likelier index
        on = [g for g in range(n) if rel[g] == r]
        keep = max(on, key=lambda g: float(p_index[groups[g]].max()))
        rel = [None if g in on and g != keep else rel[g] for g in range(n)]
    span = max(r for r in rel if r is not None) + 1
    if span == count:
        return rel
    ranks = probs.reshape(-1, 4, 13).sum(axis=1)
    votes = [
        sum(
            float(ranks[g, r + off].max())
            for g, r in zip(groups, rel, strict=True)
            if r is not None
        )
        for off in range(count - span + 1)
    ]
    order = np.argsort(votes)[::-1]
    if votes[order[0]] - votes[order[1]] < CLEAR_VOTE:
        return [None] * n
    return [None if r is None else r + int(order[0]) for r in rel]


def _on_places(
    x: npt.NDArray[np.float64], x0: float, step: float, count: int
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Which positions lie on the places ``x0 + k * step`` (within ``UNEVEN``), keeping the
    ``count`` consecutive places that hold the most; their place numbers and offsets."""
    pos = (x - x0) / step
    places = np.round(pos)
    off = np.abs(pos - places)
    near = off <= UNEVEN
    if not near.any():
        return near, places, off
    starts = np.unique(places[near])
    held = [int((near & (places >= s) & (places < s + count)).sum()) for s in starts]
    lo = float(starts[int(np.argmax(held))])
    return near & (places >= lo) & (places < lo + count), places, off
