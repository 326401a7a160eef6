"""A deck's own corners, learnt: a found card read by what its corner looks like, not by a font.

The index networks read a rank in a font they never saw as best they can; a deck learnt at the
table needs no font at all. For each of its cards the profile keeps the card's top-left corner
as the camera saw it (upright, in colour, at ``PX_PER_MM``). A found card is warped upright and
both its index corners (the bottom-right one turned half round) are compared with every learnt
corner, shifted up to ``SEARCH_MM`` each way (the finder's outline is a few millimetres off);
each card's likeness is the best normalised correlation of the two. Colour matters: in grey a
queen of diamonds and one of spades differ only in a suit's outline.

This is a second look that needs no index network, so it witnesses the networks' read: a
corner clearly like one card's and unlike every other's (``LIKE``, ``MARGIN``) names the card
an unsure read leads with. It names a card alone, or contradicts a sure read of another card
(a question between the two), only more strictly, and only knowing every card involved: alone,
where every card of its rank and of its suit was learnt (a lesson that missed one card still
names the cards that cannot be it); against a read, where that read's card was learnt too.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.cards import Card, deck
from crib_pi.vision.corner import card_view
from crib_pi.vision.reads import CardRead, Point, Recognition, UncertainRead

Image = npt.NDArray[Any]

#: Scale of the learnt corners, and room round a card's outline when it is warped upright (mm).
PX_PER_MM = 3.0
MARGIN_MM = 6.0
#: The corner kept: across and down from the card's top-left (mm): the index and what is round it.
CORNER_MM = (1.0, 1.0, 15.0, 25.0)
#: How far a corner is looked for from where the outline puts it (mm).
SEARCH_MM = 4.0
#: The corners pick a card when its learnt corner is at least ``LIKE`` like the card's (normalised
#: correlation, 1 the same) and ``MARGIN`` more like it than any other learnt corner. Chosen on
#: decks drawn from seeds 7, 11, 23 and 31 in three languages (393 whole cards, corners learnt
#: with outlines 2 px off): every wrong pick, seven in all, each a suit's colour-mate or a 9 for
#: a 5, was under 0.95 like its card or under 0.01 ahead; 349 right picks passed 0.95 and 0.02.
#: Alone (no network read it, every card of its rank and suit learnt) or against a sure read (of a
#: card learnt too), they need ``ALONE_LIKE`` and ``ALONE_MARGIN``: at 0.95 and 0.02, corners the
#: filmed lesson learnt made 4 right, sure reads of 385 questions (``bench_learnt_corners.py
#: --lesson``), and a card never learnt is most like some other one, up to 0.1 ahead.
LIKE = 0.95
MARGIN = 0.02
ALONE_LIKE = 0.96
ALONE_MARGIN = 0.03
#: A learnt card is offered as a guess for a card no read named where its corner is at least
#: this like one of the card's (``likest``): a card under a hand or a card over it matches
#: nothing well.
GUESS_LIKE = 0.6
#: The sure read that the corners make of a card named alone.
ALONE_CONFIDENCE = 0.95
#: An index's box inside a corner (mm, from the corner's top-left): where a read named by the
#: corner is said to lie, so the finder's ``host`` takes it as an index of its card.
INDEX_BOX_MM = (1.0, 1.0, 9.0, 17.0)


def upright(
    frame: Image, quad: npt.ArrayLike, margin_mm: float = MARGIN_MM
) -> tuple[Image, npt.NDArray[np.float64]]:
    """The card warped upright at ``PX_PER_MM`` with ``margin_mm`` round it (BGR), and the
    homography from its pixels to the frame's."""
    to_frame, size = card_view(quad, PX_PER_MM, margin_mm)
    bgr = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    view = cv2.warpPerspective(
        bgr,
        to_frame,
        size,
        flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(view), to_frame


def _cut(view: Image, x0: float, y0: float, x1: float, y1: float) -> Image:
    def px(v: float) -> int:
        return round((v + MARGIN_MM) * PX_PER_MM)

    return view[px(y0) : px(y1), px(x0) : px(x1)]


def corner_shape() -> tuple[int, int, int]:
    """The shape of a learnt corner (rows, columns, BGR) at ``PX_PER_MM``."""
    x0, y0, x1, y1 = CORNER_MM
    return (
        round((y1 + MARGIN_MM) * PX_PER_MM) - round((y0 + MARGIN_MM) * PX_PER_MM),
        round((x1 + MARGIN_MM) * PX_PER_MM) - round((x0 + MARGIN_MM) * PX_PER_MM),
        3,
    )


def corner_of(view: Image) -> Image:
    """The learnt corner of an upright card view (``upright``)."""
    return np.ascontiguousarray(_cut(view, *CORNER_MM))


def aligned_corners(views: list[Image], rounds: int = 2) -> list[Image]:
    """The corners of a deck's upright card views, each cut where it best matches the mean of
    them all (in either index corner), so they lie alike: an outline a few millimetres off when
    a card was learnt would leave its index off-centre, and too near the search's edge."""
    cuts = [corner_of(v) for v in views]
    if len(cuts) < 2:
        return cuts
    h, w = cuts[0].shape[:2]
    for _ in range(rounds):
        mean = np.mean(cuts, axis=0).astype(np.uint8)
        out = []
        for view in views:
            best, cut = -2.0, None
            for region in _regions(view):
                region = np.ascontiguousarray(region)
                _, score, _, (x, y) = cv2.minMaxLoc(
                    cv2.matchTemplate(region, mean, cv2.TM_CCOEFF_NORMED)
                )
                if score > best:
                    best, cut = score, region[y : y + h, x : x + w]
            out.append(np.ascontiguousarray(cut))
        cuts = out
    return cuts


def corner_shift(
    frame: Image, quad: npt.ArrayLike, template: Image, reach_mm: float
) -> tuple[float, float, float]:
    """Where a corner like ``template`` (a learnt corner's shape) lies round the top-left
    corner of the card outlined ``quad`` (frame pixels), up to ``reach_mm`` along its top and
    ``SEARCH_MM`` down its side: the shift from the outline's place (mm, across and down the
    card) and how like the template it is there."""
    margin = MARGIN_MM + reach_mm
    view = upright(frame, quad, margin)[0]

    def px(v: float) -> int:
        return round((v + margin) * PX_PER_MM)

    x0, y0, x1, y1 = CORNER_MM
    region = view[px(y0 - SEARCH_MM) : px(y1 + SEARCH_MM), px(x0 - reach_mm) : px(x1 + reach_mm)]
    result = cv2.matchTemplate(np.ascontiguousarray(region), template, cv2.TM_CCOEFF_NORMED)
    _, best, _, (x, y) = cv2.minMaxLoc(result)
    return x / PX_PER_MM - reach_mm, y / PX_PER_MM - SEARCH_MM, float(best)


def _regions(view: Image) -> tuple[Image, Image]:
    """Where each index corner is looked for: the top-left, and the bottom-right turned half
    round (as the top-left of the card turned)."""
    x0, y0, x1, y1 = CORNER_MM
    s = SEARCH_MM
    box = (x0 - s, y0 - s, x1 + s, y1 + s)
    return _cut(view, *box), _cut(view[::-1, ::-1], *box)


def likeness(view: Image, corners: Image, known: npt.NDArray[np.bool_]) -> Image:
    """Each card's best likeness to an index corner of ``view`` and where it was best, as rows
    (likeness; corner: 0 top-left, 1 bottom-right; x, y in the search region), 52 x 4; the
    likeness is -1 where the card was never learnt."""
    out = np.full(52, -1.0, np.float32)
    where = np.zeros((52, 3), np.int32)
    for turned, region in enumerate(_regions(view)):
        region = np.ascontiguousarray(region)
        for c in np.flatnonzero(known):
            result = cv2.matchTemplate(region, corners[c], cv2.TM_CCOEFF_NORMED)
            _, best, _, at = cv2.minMaxLoc(result)
            if best > out[c]:
                out[c] = best
                where[c] = (turned, at[0], at[1])
    return np.concatenate([out[:, None], where.astype(np.float32)], axis=1)


def witness(
    found: Recognition,
    frame: Image,
    quad: npt.ArrayLike,
    corners: Image,
    known: npt.NDArray[np.bool_],
) -> Recognition:
    """``found`` (a card's reads at its corners) as the learnt corners see it: an unsure read
    whose lead the corners pick becomes a sure read; a sure read they contradict becomes a
    question between the two; with nothing sure, a clear pick of a card whose rank and suit
    were learnt whole is named."""
    if known.sum() < 2:
        return found
    view, to_frame = upright(frame, quad)
    like = likeness(view, corners, known)
    best, top, margin = _pick(like)
    if top < LIKE or margin < MARGIN:
        return found
    pick = Card.from_index(best)
    other = [r for r in found.cards if r.card != pick]
    if other:  # the networks are sure of another card: ask between the two, if sure enough
        r = other[0]
        if not (known[r.card.index] and sure_alone(top, margin)):
            return found
        return Recognition(
            tuple(x for x in found.cards if x is not r),
            (*found.uncertain, UncertainRead((r.card, pick), (0.5, 0.5), r.corners)),
        )
    if found.cards:  # the networks are sure of the card picked
        return found
    leads = any(u.candidates and u.candidates[0] == pick for u in found.uncertain)
    alone = rivals_learnt(pick, known) and sure_alone(top, margin)
    if not (leads or alone):
        return found
    return Recognition(
        (CardRead(pick, ALONE_CONFIDENCE, _index_box(view, like[best], to_frame)),), ()
    )


def vouches(
    card: Card, frame: Image, quad: npt.ArrayLike, corners: Image, known: npt.NDArray[np.bool_]
) -> bool:
    """Whether the learnt corners name ``card``, a card they learnt, as strictly as they name a
    card alone (``ALONE_LIKE``, ``ALONE_MARGIN``): a look of the deck's own print, which may
    outweigh a face whose pips the deck draws unlike a number card's (a queen's gown dotted with
    five like shapes)."""
    if known.sum() < 2 or not known[card.index]:
        return False
    best, top, margin = _pick(likeness(upright(frame, quad)[0], corners, known))
    return best == card.index and sure_alone(top, margin)


def likest(
    frame: Image, quad: npt.ArrayLike, corners: Image, known: npt.NDArray[np.bool_], most: int
) -> list[Card]:
    """Up to ``most`` learnt cards most like the corners of the card outlined ``quad`` (frame
    pixels), likest first, each at least ``GUESS_LIKE`` like them: guesses to offer for a
    card no read named, never a read."""
    if known.sum() < 2:
        return []
    like = likeness(upright(frame, quad)[0], corners, known)[:, 0]
    order = np.argsort(-like)[:most]
    return [Card.from_index(int(i)) for i in order if like[i] >= GUESS_LIKE]


def rivals_learnt(card: Card, known: npt.NDArray[np.bool_]) -> bool:
    """Whether every card sharing ``card``'s rank or suit was learnt: a card never learnt is
    likest one of those (its rank in another suit, its suit in another rank), up to 0.1 ahead,
    so a pick none of them can be is not a card the lesson missed."""
    return all(
        known[other.index] for other in deck() if other.rank == card.rank or other.suit == card.suit
    )


def sure_alone(top: float, margin: float) -> bool:
    """Whether a pick is as clear as naming a card alone takes: ``ALONE_LIKE`` like the
    corner, ``ALONE_MARGIN`` ahead of the next card."""
    return top >= ALONE_LIKE and margin >= ALONE_MARGIN


def _pick(like: Image) -> tuple[int, float, float]:
    """The card most like the corners (likeness rows), its likeness and lead over the next."""
    order = np.argsort(-like[:, 0])
    best, second = int(order[0]), int(order[1])
    return best, float(like[best, 0]), float(like[best, 0] - like[second, 0])


def _index_box(
    view: Image, where: npt.NDArray[np.float32], to_frame: npt.NDArray[np.float64]
) -> tuple[Point, ...]:
    """The index box of the corner matched at ``where`` (likeness row), in frame pixels, its
    corners in reading order (top-left, top-right, bottom-right, bottom-left) as the index
    stands."""
    turned, x, y = int(where[1]), float(where[2]), float(where[3])
    x0, y0 = CORNER_MM[:2]
    left = (x0 - SEARCH_MM + MARGIN_MM) * PX_PER_MM + x  # the corner's top-left in the region
    top = (y0 - SEARCH_MM + MARGIN_MM) * PX_PER_MM + y
    bx0, by0, bx1, by1 = (v * PX_PER_MM for v in INDEX_BOX_MM)
    pts = np.array(
        [
            [left + bx0, top + by0],
            [left + bx1, top + by0],
            [left + bx1, top + by1],
            [left + bx0, top + by1],
        ],
        np.float64,
    )
    if turned:
        h, w = view.shape[:2]
        pts = np.array([w - 1, h - 1], np.float64) - pts
    out = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), to_frame).reshape(-1, 2)
    return tuple((float(px), float(py)) for px, py in out)
