"""From scored candidate frames to reads: merge duplicates, name only what is certain.

Several frames fall on one index (each glyph pair, each pyramid level); they are grouped by
place and shared glyphs, and the surest frame speaks for the group unless another frame leads
surely with a different card, when their probabilities are averaged. The two corner indices of
one card (opposite corners, turned half round to each other) are two looks at the same card:
when both are found and agree on their leading card, each is the surer for the other's
index-likeness, but not for its card (the same font misleads both corners alike, so their card
probabilities are averaged, geometrically); when they disagree (a 10S at one corner, a 10D at
the other), the card is one uncertain read, never two cards. A group is named only when one
card clearly wins; otherwise it is returned as uncertain with its candidates. A deck holds each
card once, so reads of the same card are one physical card.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crib_pi.cards import Card
from crib_pi.vision.classifier import Scores
from crib_pi.vision.pairs import Frames
from crib_pi.vision.paper import PaperRegions
from crib_pi.vision.reads import CardRead, Recognition, UncertainRead

#: A frame takes part only if it is at least this likely to be an index.
MIN_INDEX = 0.5
#: A group is reported (read or uncertain) only if its best frame is at least this index-like,
#: or, from MIN_INDEX, once the card's other corner index, agreeing, has made it so.
REPORT_INDEX = 0.85
#: A card is named when its probability (index-likeness times card share) reaches this.
NAME_AT = 0.9
#: Candidates of an uncertain read: the best ones down to this probability, at most MAX_CANDIDATES.
CANDIDATE_MIN = 0.05
MAX_CANDIDATES = 4
#: A frame on one index that leads with another card at least this surely makes the read a question.
DISAGREE_AT = 0.75
#: ... and so does any frame on it at least MIN_INDEX index-like that leads with the same rank
#: in another suit by this share: at 125 px a card a suit is 8 px, and a club seen from its
#: rank's 1 can pass for a spade while the frame from its 0 still sees a club.
DOUBT_SHARE = 0.5
#: Frames whose centres are closer than this share of their patch side are the same index when
#: they share a glyph; when they do not, only closer than TIGHT_PLACE (a fanned neighbour's
#: index can sit just over half a patch away).
SAME_PLACE = 0.6
TIGHT_PLACE = 0.3
#: A frame this many times the side of a sure read of another card it covers is dropped.
OVERSIZE = 1.5
#: Opposite indices of one card: offset of the second from the first in the first's own frame
#: (right, down), in patch sides; and the least share a card's leading card must have to pair.
OPPOSITE_RIGHT = (1.2, 8.0)
OPPOSITE_DOWN = (1.4, 11.0)
PAIR_MIN_SHARE = 0.3
#: ... and their "down" directions at least this near opposite (cosine; 143 degrees apart).
OPPOSITE_COS = -0.8


@dataclass
class _Index:
    """One index seen in the image: its card probabilities and where it is."""

    probs: np.ndarray  # (52,) given that it is an index
    p_index: float
    center: np.ndarray
    down: np.ndarray
    side: float
    corners: tuple[tuple[float, float], ...]
    #: Set when the card's other corner reads another card: asked about, never named.
    doubt: bool = False
    #: The card's other corner index, where it agreed (``_combine_opposites``), or where both
    #: were named, turned half round to each other (``decide``).
    opposite: tuple[tuple[float, float], ...] = ()

    @property
    def lead(self) -> int:
        """``Card.index`` of the leading card."""
        return int(np.argmax(self.probs))

    @property
    def confidence(self) -> float:
        """The leading card's probability times index-likeness: what naming is judged on."""
        return float(self.probs[self.lead] * self.p_index)


def decide(frames: Frames, scores: Scores, paper: PaperRegions | None = None) -> Recognition:
    """Reads for one image; ``paper`` (the image's card regions) tells two cards turned half
    round to each other from one card whose corners disagree."""
    groups = _combine_opposites(_drop_oversized(_group(frames, scores)), paper)
    groups = [g for g in groups if g.p_index >= REPORT_INDEX]
    named: dict[Card, _Index] = {}
    unsure: list[UncertainRead] = []
    for g in groups:
        conf = g.confidence
        if conf >= NAME_AT and not g.doubt:
            card = Card.from_index(g.lead)
            old = named.get(card)
            keep, other = (g, old) if old is None or old.confidence < conf else (old, g)
            named[card] = keep
            if other is not None and not keep.opposite and keep.down @ other.down <= OPPOSITE_COS:
                keep.opposite = other.corners  # one card (a deck holds it once), turned round
        else:
            top = np.argsort(-g.probs)[:MAX_CANDIDATES]
            top = top[g.probs[top] >= CANDIDATE_MIN]
            unsure.append(
                UncertainRead(
                    tuple(Card.from_index(int(t)) for t in top),
                    tuple(float(g.probs[t]) for t in top),
                    g.corners,
                )
            )
    reads = [CardRead(c, g.confidence, g.corners, g.opposite) for c, g in named.items()]
    # An uncertain index whose leading candidate was named elsewhere is that card's other index.
    unsure = [u for u in unsure if not u.candidates or u.candidates[0] not in named]
    cards = tuple(sorted(reads, key=lambda r: (r.corners[0][1], r.corners[0][0])))
    return Recognition(cards, tuple(unsure))


def _group(frames: Frames, scores: Scores) -> list[_Index]:
    """Index-like frames grouped by place, best first (from ``MIN_INDEX``: a group under
    ``REPORT_INDEX`` counts only if the card's other corner agrees with it)."""
    p_index = scores.index_prob()
    live = np.flatnonzero(p_index >= MIN_INDEX)
    if live.size == 0:
        return []
    probs = scores.card_probs()
    order = live[np.argsort(-p_index[live])]
    used = np.zeros(len(frames), bool)
    corners = frames.corners()
    out = []
    for i in order:
        if used[i]:
            continue
        dist = np.hypot(*(frames.centers[order] - frames.centers[i]).T)
        shares = np.isin(frames.glyphs[order], frames.glyphs[i]).any(axis=1)
        close = dist < np.where(shares, SAME_PLACE, TIGHT_PLACE) * frames.sides[i]
        near = order[~used[order] & close]
        used[near] = True
        out.append(
            _Index(
                _look(probs[near], p_index[near]),
                float(p_index[near].max()),
                frames.centers[i].astype(np.float64),
                frames.downs[i].astype(np.float64),
                float(frames.sides[i]),
                tuple((float(x), float(y)) for x, y in corners[i]),
            )
        )
    return out


def _look(probs: np.ndarray, p_index: np.ndarray) -> np.ndarray:
    """One index's card probabilities from the frames that fall on it.

    The surest frame speaks unless another frame index-like enough to be reported leads with a
    different card at least ``DISAGREE_AT`` surely: a wider frame that also takes in the picture
    beside the index is often less sure, or half-guesses another card, and need not drag a
    clear read down. A frame that reads the same rank in another suit is heard even when it is
    less index-like: the suit is the small glyph, and where looks at it differ it is in doubt.
    When frames do disagree, they are averaged, weighted by index-likeness, so the disagreement
    shows.
    """
    conf = probs.max(axis=1) * p_index
    strong = p_index >= REPORT_INDEX
    surest = int(np.argmax(np.where(strong, conf, -1.0)))
    leads = np.argmax(probs, axis=1)
    share = probs.max(axis=1)
    other = leads != leads[surest]
    same_rank = leads % 13 == leads[surest] % 13
    weak_doubt = other & same_rank & (p_index >= MIN_INDEX) & (share >= DOUBT_SHARE)
    if not ((strong & other & (conf >= DISAGREE_AT)) | weak_doubt).any():
        return np.asarray(probs[surest])
    return np.asarray((probs * p_index[:, None]).sum(axis=0) / p_index.sum())


def _drop_oversized(groups: list[_Index]) -> list[_Index]:
    """Drop a frame much bigger than a sure index of another card that it covers.

    All cards on the table are one size, so two indices in one place are one size too; a frame
    half again as big as a sure read beneath it spans that index and the pips beside it (two
    hearts stacked can pass for an 8), and is not an index of its own.
    """
    sure = [g for g in groups if g.confidence >= NAME_AT]
    out = []
    for g in groups:
        covers = any(
            h is not g
            and h.lead != g.lead
            and g.side > OVERSIZE * h.side
            and float(np.hypot(*(g.center - h.center))) < 0.5 * g.side
            for h in sure
        )
        if not covers:
            out.append(g)
    return out


def _combine_opposites(groups: list[_Index], paper: PaperRegions | None) -> list[_Index]:
    """One card's two corner indices as one look: agreeing, each is an index unless neither is
    (their index-likeness combines, so two half-believed corners can make a card) and their card
    probabilities are averaged geometrically, not multiplied: a font no network saw misleads
    both corners alike (a thin 8 read as a 2 at both). Groups under ``REPORT_INDEX`` take part
    in this only. Disagreeing,
    both fairly sure (``DISAGREE_AT``) of one rank in two suits, or neither sure enough to be
    named, the two become one read in doubt, with their probabilities averaged; one named and
    the other barely read, the named one speaks for the card. Two sure reads of two ranks stay
    two cards: on a mat or in a row, two cards turned half round to each other can sit just
    where one card's corners would.

    Two corners disagree when their leading cards share a rank or a suit, or each gives the
    other's card some weight, and no gap between card faces (``paper``) parts them: two cards
    lying apart, turned half round to each other, are two cards. Returns the groups left.
    """
    paired: set[int] = set()
    dropped: set[int] = set()
    # Agreeing corners first: a corner must not be spent on a disagreement with another card
    # before it meets its own card's other corner.
    for a, ga in enumerate(groups):
        if a in paired:
            continue
        for b, gb in enumerate(groups):
            same = gb.lead == ga.lead and _pairs(ga, gb) and _opposite(ga, gb)
            if b != a and b not in paired and same:
                both = np.sqrt(ga.probs * gb.probs)
                both /= max(float(both.sum()), 1e-12)
                ga.probs = gb.probs = both
                ga.p_index = gb.p_index = 1.0 - (1.0 - ga.p_index) * (1.0 - gb.p_index)
                paired.update((a, b))
                dropped.add(b)  # one card, one read
                ga.opposite = gb.corners
                break
    # A half-believed index whose other corner did not agree with it is no read.
    weak = {i for i, g in enumerate(groups) if i not in paired and g.p_index < REPORT_INDEX}
    for a, ga in enumerate(groups):
        if a in paired or a in weak:
            continue
        differ = [
            b
            for b, gb in enumerate(groups)
            if b != a
            and b not in paired
            and b not in weak
            and gb.lead != ga.lead
            and _opposite(ga, gb)
            and _related(ga, gb)
            and (paper is None or _on_one_face(ga, gb, paper))
        ]
        if not differ:
            continue
        b = differ[0]
        gb = groups[b]
        sure, unsure = sorted((ga.confidence, gb.confidence), reverse=True)
        if (unsure >= DISAGREE_AT and _same_rank(ga, gb)) or sure < NAME_AT:  # one question
            ga.probs = (ga.probs + gb.probs) / 2.0
            ga.p_index = min(ga.p_index, gb.p_index)
            ga.doubt = True
            dropped.add(b)
        elif unsure < DISAGREE_AT:  # the other corner, half read: the named one speaks
            dropped.add(b if ga.confidence >= gb.confidence else a)
        else:  # two sure reads of two ranks: two cards, turned to each other
            continue
        paired.update((a, b))
    return [g for i, g in enumerate(groups) if i not in dropped]


def _opposite(ga: _Index, gb: _Index) -> bool:
    """True when ``gb`` lies where the card of index ``ga`` prints its other corner index.

    That index is turned half round, about the same size, and to the right of and below ``ga``
    in the card's frame by a card's width and height less the margins. An index's frame leans
    by which of its glyphs made it (a 10's "1" or its "0" over the suit: some 15 degrees
    either way), and the other corner's leans back the mirror way, so the card's "down" is
    taken from both: ``ga``'s down and ``gb``'s turned round.
    """
    if float(ga.down @ gb.down) > OPPOSITE_COS or not 0.7 <= gb.side / ga.side <= 1.4:
        return False
    down = (ga.down - gb.down) / max(float(np.linalg.norm(ga.down - gb.down)), 1e-9)
    right = np.array([down[1], -down[0]])
    off = gb.center - ga.center
    x, y = float(off @ right) / ga.side, float(off @ down) / ga.side
    return OPPOSITE_RIGHT[0] <= x <= OPPOSITE_RIGHT[1] and OPPOSITE_DOWN[0] <= y <= OPPOSITE_DOWN[1]


def _on_one_face(ga: _Index, gb: _Index, paper: PaperRegions) -> bool:
    """True unless the card ground beside each index, towards the other, is two regions."""

    def inside(g: _Index) -> tuple[float, float]:
        right = np.array([g.down[1], -g.down[0]])
        x, y = g.center + 0.8 * g.side * (right + g.down)
        return float(x), float(y)

    return paper.joined(inside(ga), inside(gb), 0.4 * ga.side)


def _same_rank(ga: _Index, gb: _Index) -> bool:
    return Card.from_index(ga.lead).rank == Card.from_index(gb.lead).rank


def _pairs(ga: _Index, gb: _Index) -> bool:
    """Both corners give their common leading card a real share."""
    return min(float(ga.probs[ga.lead]), float(gb.probs[ga.lead])) >= PAIR_MIN_SHARE


def _related(ga: _Index, gb: _Index) -> bool:
    """Two different leading cards that one misread corner could explain."""
    a, b = Card.from_index(ga.lead), Card.from_index(gb.lead)
    return (
        a.rank == b.rank
        or a.suit == b.suit
        or min(float(ga.probs[gb.lead]), float(gb.probs[ga.lead])) >= CANDIDATE_MIN
    )
