"""Find the cards: pieces of card-sized paper lying on the mat, whatever is printed on them.

Step one of a frame's way through recognition (find the cards, read each card, decide). The
camera does not move and the mat's homography is known, so the mat is looked at in its own
millimetres, where every card has the same size. The finder keeps a picture of the mat as it
was when nothing was moving (``reference``). A card laid changes a card-shaped patch of that
picture: it lands on top of its row, so its whole face differs from what it covers. A patch
is a card once it has kept the same card-sized outline in ``CONFIRM`` frames in a row; a hand
passing is never card-shaped, and a card held still by a hand joins the hand's patch until
it is let go. A card whose stock is as white as the mat, with no border, changes only where
it is printed: its ink is then the card when it is card-sized, has indices at two opposite
corners and looks the same turned half round, as every card's face does (``_inked_box``).
A card is gone when what it covered shows again. Only then does the reference
change, so a hand, a shadow or glare never enters it. Something that lies on the mat from the
first frame and is no card (a deck's box) stays a change, larger than a card: the change is cut
round it, so that a card laid against it is a piece of its own (``_apart``).

Lighting changes from frame to frame (clouds, a lamp, people leaning over), so every frame is
divided by its own smooth estimate of the paper's brightness before it is compared: paper is
then near 1 and ink well below it, in any light.

What the finder gives the rest: each card's outline on the mat, in the order they lie (last
laid on top). Whether an index read belongs to one of them (``host``) is decided here too: an
index counts only at the corner of a card, at that card's scale and upright along its long
side, so a picture of a card (a card back's design, a box, a poster) is never a card.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.mat import HEIGHT, PX_PER_MM, WIDTH, Mat
from crib_pi.vision.glyphs import across_channels, ink_map

Image = npt.NDArray[Any]
Point = tuple[float, float]

SCALE = 2
"""Finder pixels a millimetre: a card is 126 x 176 of them, ink lines a few pixels wide."""
CARD_MM = (63.0, 88.0)
"""A poker card; bridge cards are 57 mm wide, and both are accepted (``SHORT_MM``)."""
SHORT_MM = (52.0, 69.0)
LONG_MM = (80.0, 96.0)
INKED_MM = (44.0, 66.0)
"""The least size of what changed on a borderless card as white as the mat: its ink alone,
from index to index, which lies up to a few millimetres inside the card's edge."""
INKED_ASPECT = (1.2, 1.65)
"""Long side over short of a card's ink: a card's (1.4, a bridge card's 1.54) or a little
longer, the margins being alike all round."""
APART = 2
"""Finder pixels wide, the band that keeps a card's change apart from a thing lying on the mat
since the first frame (``CardFinder._apart``)."""
THING_PX = round(CARD_MM[0] * CARD_MM[1] / 4) * SCALE**2
"""The least such thing, a quarter of a card: the camera and the print differ a little along
lines and in specks from the first frame on, which need no band."""
HAND_PX = THING_PX
"""What must go from one frame's change to the next, a quarter of a card, for where it was to
be read again (``CardFinder.cleared``): a hand that laid a card white on white and left."""
PALM_MM = 90.0
"""How far from a hand's tip a card it laid may lie: the palm holds the card's middle, a card
reaches 54 mm from its middle."""
SQUARE = 12
"""Degrees from the mat's edges a card's ink is looked for in when no piece of it shows which
way the card lies (an index split in two, pips only)."""
SYMMETRY_MM = 2
"""How far a card's ink turned half round may lie from where it is (a crooked cut, a blur)."""
SYMMETRIC = 0.7
"""The least share of a card's ink that its ink turned half round covers."""
TWIN_MM = 22.0
"""How far from a card's corner its index's ink reaches (``INDEX_EDGE_MM`` down and across,
a little more along the card)."""
INDEX_INK_MM2 = 20.0
"""The least ink at a corner, in mm², for it to hold an index (a rank over its suit, each 5 mm
or more); specks of a picture reaching a corner hold less."""
LEAST_BOXES = 3
"""How many of the least card-shaped boxes round a white card's ink (``SQUARE``) are judged
for its symmetry: the least box's middle may lie a pixel or two off the ink's own."""
FILL = 0.8
"""The least share of its outline a card's patch fills (a hand and a card together fill less)."""
PAPER = 200
"""Normalised brightness of paper: frames are kept as 8-bit, paper at 200 with room for glare."""
CHANGED = round(0.13 * PAPER)
"""A change in normalised brightness that counts: ink, an edge, a shadow."""
FAINT = round(0.045 * PAPER)
"""A change this small counts where it is smooth (seen after blurring ``BLUR`` pixels): a
card's stock is often a shade greyer or warmer than the mat's paper."""
BLUR = 2.0
BROAD = 5 * SCALE
"""A faint change counts where it covers squares this many pixels wide (5 mm)."""
INK = round(0.8 * PAPER)
"""Normalised brightness below which a pixel is ink."""
NOT_MAT = 0.04
"""The least share of a card's face that differs from the bare mat (its ink, its edge)."""
CONFIRM = 2
"""Frames a patch keeps the same outline before it is a card."""
ADOPT_EVERY = 4
"""Every how many frames places not yet seen bare are looked at again (a slow change)."""
KEEP = 1
"""Frames a landing card's outline may go unseen (glare, a hand's edge) and still land."""
LINGER = 1
"""Frames a landing outline that faded without becoming a card stays ``busy``: a card as white
as the mat may show its outline only while a hand's shadow lies round it, and is then read
where it came to rest rather than at the next read of the whole frame."""
SAME_MM = 4.0
"""Outlines whose centres are this close, with the same size and turn, are one card."""
OWN = 0.95
"""Share of a changed outline inside a card for it to be that card's own (a hand covering part
of it): a card laid over another reaches beyond it."""
SETTLE = 6
"""Frames after a card lands in which its look is taken again whenever it holds still: glare
or a shadow on the frame it landed in would otherwise stay a change on it."""
STEADY = 0.98
"""Share of a card's face unchanged since the frame before for it to be holding still."""
LEFT = 0.8
"""Share of a changed outline inside a card lifted this frame for it to be the place that card
leaves: where it differed from what it covered, give or take the light."""
GONE = 0.6
"""The share of a card's visible face that must show what it covered for the card to be gone."""
TELLING = 20
"""The fewest pixels where a card differs from what it covered that can tell it is gone."""
RIM = 3
"""Finder pixels around a found card's outline that the reference takes too: its edge and
shadow, which a fitted outline may leave just outside it."""
UNSETTLED = 0.1
"""The share of an index's box that differs from the settled mat for it to be changing."""
INDEX_EDGE_MM = 11.0
"""An index's nearest point lies this close to both edges at its card's corner."""
EDGE_MM = 4.0
"""How far a found outline may be from the card's true edge."""
ON_CARD_MM = 1.0
"""An index whose middle is this far inside a card's outline is on it, before any card it is
only near: a card spread 9 mm over the last (the crib) has the last card's index at its
edge, half under it."""
INDEX_MM = (9.0, 36.0)
"""An index (rank over suit) is this tall on any deck a table uses."""
INDEX_TURN = 30.0
"""Degrees an index's long side may lean from its card's long side."""
QUIET = 0.0002
"""The largest share of a picture's pixel channels that may change (by ``CHANGED``) for it to
be the same picture, give or take the camera's noise."""
UNSHIFTED = 0.5
"""The least share of a card-shaped change that stays with the reference a pixel off: a
picture shifted against the reference shows only lines along the edges it had (0.34 at most
in the filmed games), a card landing its own edge and ink (0.65 or more)."""

INDEX_AT_MM = (6.5, 12.0)
"""Where an index's middle lies from its card's corner (mm across and down), give or take a few
millimetres from deck to deck."""
NEW_INK = 0.5
"""The least share of a card's ink that the reference lacks for the reader's word that a card
lies there to be taken (``propose``): a card landing is new ink; one the reference took in
while it was missed is not, and nothing would tell when it went."""
PATCH_MM = 45.0
"""The tallest an index's read outline is: the reader's patch holds the index and what is round
it (a card's index is at most 36 mm, ``INDEX_MM``, its patch a little more)."""
ACROSS_MM = (38.0, 58.0)
ALONG_MM = (45.0, 82.0)
"""Where a card's bottom-right index lies from its top-left one (mm across and along the card,
the middles of the reader's outlines): cards found in the filmed games measure 42-57 across and
50-69 along (1st to 99th percentile; least 46 along), the ace pictured on a deck's box 36 x 46."""


@dataclass(frozen=True)
class FoundCard:
    """A card on the mat: ``quad`` is its outline in mat pixels (``crib_pi.mat``)."""

    id: int
    quad: tuple[Point, ...]
    landed: int

    @property
    def centre(self) -> Point:
        q = np.asarray(self.quad)
        return float(q[:, 0].mean()), float(q[:, 1].mean())

    @cached_property
    def outline_mm(self) -> npt.NDArray[np.float64]:
        """``quad`` in mm (4 x 2), worked out once: every read on every frame asks which
        card it lies on."""
        out = np.asarray(self.quad, np.float64) / PX_PER_MM
        out.flags.writeable = False
        return out

    @cached_property
    def outline_mm32(self) -> npt.NDArray[np.float32]:
        """``outline_mm`` as OpenCV's point tests take it."""
        out = self.outline_mm.astype(np.float32)
        out.flags.writeable = False
        return out


@dataclass(eq=False)
class _Patch:
    quad: Image  # finder pixels, 4 x 2
    frames: int = 1
    missed: int = 0  # frames since it was last seen (glare, a hand passing)


@dataclass
class _Card:
    found: FoundCard
    quad: Image  # finder pixels
    under: Image  # the reference inside the card's box before it landed
    box: tuple[int, int, int, int]
    gone_frames: int = 0
    on_print: bool = False  # found where the camera had not yet seen the bare mat
    landed_look: Image | None = None  # its box in the reference before ``_settle`` took again


@dataclass
class _Gone:
    """A card taken for gone, and the reference it had (its box) before what showed there was
    taken into it: a white card laid over most of it may have been taken for the mat."""

    card: _Card
    place: int  # its place in the pile
    reference: Image  # within its box
    taken: Image  # where what showed was taken into the reference (its visible face)
    frame: int


@dataclass
class CardFinder:
    """Feed it every frame with the frame-to-mat homography; ``cards`` are those on the mat."""

    mat: Mat
    frame: int = 0
    #: Nothing landed, left or is landing in the last frame: what lies on the mat is as before.
    still: bool = False
    reference: Image | None = None
    cards: list[FoundCard] = field(default_factory=list)
    #: Outlines (4 x 2 mat pixels) of what landed, is landing or left in the last frame:
    #: where reads may have changed.
    busy: list[npt.NDArray[np.float64]] = field(default_factory=list)
    #: Boxes (4 x 2 mat pixels) round the tip of each hand gone this frame where nothing was
    #: seen landing (``_cleared``): what a hand left may be a card in no card's shape.
    cleared: list[npt.NDArray[np.float64]] = field(default_factory=list)
    _cards: list[_Card] = field(default_factory=list)
    _patches: list[_Patch] = field(default_factory=list)
    _next_id: int = 0
    _unknown: Image | None = None  # where the first frame did not show the print
    _print: Image | None = None
    _empty: Image | None = None  # the mat with nothing on it, as the camera sees it
    _print_ink: Image | None = None
    _print_blurred: Image | None = None
    _change: Image | None = None  # where this frame differs from the reference
    _landing: list[FoundCard] = field(default_factory=list)  # patches not yet kept long enough
    _faded: list[tuple[Image, int]] = field(default_factory=list)  # patches gone, frames left
    _left: list[Image] = field(default_factory=list)  # outlines of cards gone this frame
    _soft_now: Image | None = None  # this frame blurred (BLUR), as the faint change sees it
    _soft_reference: Image | None = None  # the reference blurred (BLUR), while it is the same
    _reference_ink: Image | None = None  # the reference's ink map, made and kept with its blur
    _moved: Image | None = None  # the change before ink that went is taken out
    _in_view: tuple[Any, Image] | None = None  # 1 on the mat's pixels inside the picture
    _adopt_seen: Image | None = None  # what the places not yet seen bare showed when looked at
    _previous: Image | None = None  # the last frame, normalised
    _gone: list[_Gone] = field(default_factory=list)  # cards taken for gone lately
    _prior: Image | None = None  # the frame before it
    _standing: Image | None = None  # what the first frame did not show, where no card was found
    _apart_kept: tuple[tuple[int, int], Image | None] | None = None  # ``_apart``, and its key

    @property
    def size(self) -> tuple[int, int]:
        return WIDTH * SCALE // PX_PER_MM, HEIGHT * SCALE // PX_PER_MM

    def update(self, frame: Image, homography: npt.NDArray[np.float64]) -> list[FoundCard]:
        """Look at one frame; returns the cards that landed in it (also added to ``cards``)."""
        self.frame += 1
        now = self._normalised(frame, homography)
        if self.reference is None:
            self._start(now)
        self._adopt(now)
        before_change, self._change = self._change, self._changed(now)
        shapes = [q for q in card_shapes(self._change, self._apart()) if self._not_mat(q, now)]
        before = len(self._cards)
        self._left = []
        self._gone = [g for g in self._gone if self.frame - g.frame < SETTLE]
        self._remove_gone(now, shapes)
        gone = len(self._cards) < before
        before = len(self._cards)
        landed = self._land(now, shapes)
        self._settle(now)
        self._prior, self._previous = self._previous, now
        to_mat = PX_PER_MM / SCALE
        self._landing = [
            FoundCard(-1, tuple((float(x) * to_mat, float(y) * to_mat) for x, y in p.quad), 0)
            for p in self._patches
        ]
        for card in self._cards[len(self._cards) - len(landed) :]:
            for mask in (self._change, self._moved):
                if mask is not None:
                    cv2.fillConvexPoly(mask, np.round(card.quad).astype(np.int32), 0)
        self.cards = [c.found for c in self._cards]
        self.busy = [np.asarray(c.quad, np.float64) for c in [*self._landing, *landed]] + [
            np.asarray(q, np.float64) * to_mat for q in [*self._left, *(q for q, _ in self._faded)]
        ]
        boxes = [b * to_mat for b in _cleared(before_change, self._change)]
        self.cleared = [  # a hand that laid a card seen landing there left nothing unseen
            b for b in boxes if not any(_holds(b, q.mean(axis=0)) for q in self.busy)
        ]
        self.still = not (landed or gone or self._patches or self._faded or self.cleared)
        return landed

    def forget(self) -> None:
        """Everything on the mat now is the mat: after a restart nothing is known of it."""
        self.reference, self._cards, self._patches, self.cards = None, [], [], []
        self._faded = []
        self._soft_reference = self._previous = self._adopt_seen = None
        self._standing = self._apart_kept = None

    def _start(self, now: Image) -> None:
        """The first reference is the first frame where it shows the mat's print; where it
        does not (a hand, its shadow, cards left from before) the print stands in for it until
        the camera's view shows the print there too."""
        self._print = self._normalised_print()
        self._unknown = self._unlike_print(now)
        self._standing = self._unknown.copy()
        self.reference = np.where(self._unknown[:, :, None] > 0, self._print, now)
        self._empty = self.reference.copy()
        k = np.ones((2 * SCALE + 1, 2 * SCALE + 1), np.uint8)
        self._print_ink = _under(cv2.erode(ink_map(self._print), k), INK)

    def _adopt(self, now: Image) -> None:
        """Unknown places that now show the print join the reference as they look now."""
        assert self.reference is not None and self._unknown is not None
        if self.frame % ADOPT_EVERY or not self._unknown.any():
            return
        # only round the unknown places (a pack or a box lying there for the whole game)
        margin = 6 * SCALE  # the blur's reach and the dilation's
        x, y, w, h = cv2.boundingRect(self._unknown)
        x0, y0 = max(x - margin, 0), max(y - margin, 0)
        box = np.s_[y0 : y + h + margin, x0 : x + w + margin]
        seen = self._adopt_seen
        if seen is not None and seen.shape == now[box].shape and _alike(seen, now[box]):
            return  # as it was when last looked at: no more of the print shows
        self._adopt_seen = now[box].copy()
        showing = (self._unlike_print(now[box], box) == 0) & (self._unknown[box] > 0)
        showing = showing.astype(np.uint8)
        shift = np.array([x0, y0], np.float32)
        for card in self._cards:  # a card found there leaves as a card (``_remove_gone``):
            # the print showing where it lay is what tells that it is gone
            cv2.fillConvexPoly(showing, np.round(card.quad - shift).astype(np.int32), 0)
        if not cv2.countNonZero(showing):
            return  # the reference (and its blur) as it was
        assert self._empty is not None
        _paste(self.reference[box], now[box], showing)
        self._soft_reference = None
        _paste(self._empty[box], now[box], showing)
        unknown = self._unknown[box]
        unknown[...] = cv2.subtract(unknown, showing)  # showing lies within the unknown
        if self._standing is not None:
            self._standing[box] &= unknown

    def _unlike_print(self, now: Image, box: Any = np.s_[:, :]) -> Image:
        """Where ``now`` (the ``box`` of the mat) is not the mat's print: both blurred a
        little first, so lines that the printer and the camera draw a pixel apart do not
        count."""
        assert self._print is not None
        if self._print_blurred is None:
            self._print_blurred = cv2.GaussianBlur(self._print, (0, 0), SCALE)
        a = cv2.GaussianBlur(now, (0, 0), SCALE)
        unlike = (_channel_diff(a, self._print_blurred[box]) > CHANGED // 2).astype(np.uint8)
        return cv2.dilate(unlike, np.ones((2 * SCALE, 2 * SCALE), np.uint8))

    def _normalised_print(self) -> Image:
        art = cv2.resize(self.mat.render(), self.size, interpolation=cv2.INTER_AREA)
        art = cv2.GaussianBlur(art, (0, 0), 0.8)
        out: Image = cv2.convertScaleAbs(art, alpha=PAPER / 255.0)
        return out

    # -- what a frame shows ------------------------------------------------------------

    def _normalised(self, frame: Image, homography: npt.NDArray[np.float64]) -> Image:
        """The mat in finder pixels, each channel divided by the paper's brightness there."""
        to_finder = np.diag([SCALE / PX_PER_MM, SCALE / PX_PER_MM, 1.0]) @ homography
        warped = cv2.warpPerspective(frame, to_finder, self.size, flags=cv2.INTER_AREA)
        h, w = frame.shape[:2]  # the picture's corners on the mat, to a pixel
        corners = np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float64)
        key = tuple(np.round(cv2.perspectiveTransform(corners, to_finder)).astype(int).ravel())
        if self._in_view is None or self._in_view[0] != key:  # the mat outside the picture
            inside = np.full(frame.shape[:2], 255, np.uint8)
            seen = cv2.warpPerspective(inside, to_finder, self.size, flags=cv2.INTER_NEAREST)
            in_view = _over(cv2.erode(seen, np.ones((5, 5), np.uint8)), 0)
            in_view[:2], in_view[-2:], in_view[:, :2], in_view[:, -2:] = 0, 0, 0, 0
            self._in_view = (key, in_view)  # the paper's very edge, half table, is not seen
        if warped.ndim == 2:
            warped = cv2.cvtColor(warped, cv2.COLOR_GRAY2BGR)
        small = cv2.resize(warped, None, fx=1 / 16, fy=1 / 16, interpolation=cv2.INTER_AREA)
        # paper is the brightest thing within 36 mm: wider than half a card, so that a card a
        # shade greyer than the mat is not taken for the paper there
        paper = cv2.dilate(small, np.ones((9, 9), np.uint8))
        paper = cv2.GaussianBlur(paper, (0, 0), 2)
        paper = cv2.resize(paper, self.size, interpolation=cv2.INTER_LINEAR)
        out: Image = cv2.divide(warped, _at_least(paper, 16), scale=PAPER)
        return out

    def _changed(self, now: Image) -> Image:
        assert self.reference is not None
        changed = _over(_channel_diff(now, self.reference), CHANGED)
        # a card's stock a shade off the mat's paper: a faint change, over a card's width
        soft = (0, 0), BLUR
        self._soft_now = cv2.GaussianBlur(now, *soft)
        if self._soft_reference is None:
            self._soft_reference = cv2.GaussianBlur(self.reference, *soft)
            self._reference_ink = ink_map(self.reference)
        faint = _channel_diff(self._soft_now, self._soft_reference)
        broad = cv2.morphologyEx(  # broad only: lines drawn a pixel apart are no card
            _over(faint, FAINT), cv2.MORPH_OPEN, np.ones((BROAD, BROAD), np.uint8)
        )
        changed |= broad
        if self._in_view is not None:
            changed &= self._in_view[1]  # what the camera does not see does not change
        # ink that went (now paper where there was ink) is what a new card covers, not the
        # card: an edge of the card below, lying just beside the new card's, would make the
        # new card's patch wider than a card
        self._moved = changed.copy()
        least = ink_map(now)
        assert self._reference_ink is not None
        brighter = _over(cv2.subtract(least, self._reference_ink), CHANGED)
        changed = cv2.subtract(changed, brighter)  # 1 - 1 is 0, 0 - 1 stays 0
        if (
            self._unknown is not None and self._print_ink is not None and self._unknown.any()
        ):  # the print as reference there:
            # its lines, drawn a pixel apart by the camera, are no change where they show
            k = np.ones((2 * SCALE + 1, 2 * SCALE + 1), np.uint8)
            ink_now = _under(cv2.erode(least, k), INK)
            lines = cv2.bitwise_and(cv2.bitwise_and(self._unknown, self._print_ink), ink_now)
            changed = cv2.subtract(changed, lines)
        return changed

    def _apart(self) -> Image | None:
        """The band round things lying on the mat since the first frame where no card was
        ever found (a deck's box, a pouch: ``_standing``): the change is cut along it before
        card shapes are looked for, so that a card laid against such a thing is not one piece
        with it, larger than a card. None where there is none. A card found (the pack) has
        no band, even once it has gone: a card laid over its edge is one piece."""
        if self._standing is None or self._unknown is None or self.frame <= SETTLE:
            return None  # the cards lying there from the first frame are being found
        key = (cv2.countNonZero(self._standing), cv2.countNonZero(self._unknown))
        if self._apart_kept is not None and self._apart_kept[0] == key:
            return self._apart_kept[1]
        band: Image | None = None
        count, places, stats, _ = cv2.connectedComponentsWithStats(self._standing)
        things = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= THING_PX]
        if things:  # not the specks and lines where the camera and the print differ a little
            grown = cv2.dilate(
                np.isin(places, things).astype(np.uint8),
                np.ones((2 * APART + 1, 2 * APART + 1), np.uint8),
            )
            band = cv2.subtract(grown, self._unknown)
        self._apart_kept = (key, band)
        return band

    # -- cards that left ---------------------------------------------------------------

    def _remove_gone(self, now: Image, shapes: list[Image]) -> None:
        """A card whose visible face shows what it covered, or the bare mat (cards gathered
        up together), twice running, is gone. Only the places where the card and what it
        covered (or the bare mat) differ tell (white on white tells nothing); a hand over the
        card looks like neither, and removes nothing. A card landing over it covers it, also
        in the frames glare or a hand breaks that card's outline (kept patches, faded ones)."""
        assert self.reference is not None and self._empty is not None
        over = [*shapes, *(p.quad for p in self._patches), *(q for q, _ in self._faded)]
        for i in range(len(self._cards) - 1, -1, -1):
            card = self._cards[i]
            x0, y0, x1, y1 = card.box
            moved = self._moved
            if moved is not None and cv2.countNonZero(moved[y0:y1, x0:x1]) < GONE * TELLING:
                card.gone_frames = 0  # too little changed anywhere round it (no mask needed)
                continue
            visible = self._visible_mask(i, over) > 0
            if moved is not None and moved[y0:y1, x0:x1][visible].sum() < GONE * TELLING:
                card.gone_frames = 0  # too little changed there for it to be gone
                continue
            was, seen = self.reference[y0:y1, x0:x1], now[y0:y1, x0:x1]
            if not (
                any(
                    _shows(visible, was, seen, below)
                    for below in (card.under, self._empty[y0:y1, x0:x1])
                )
                or (card.on_print and self._shows_print(now, card, visible))
            ):
                card.gone_frames = 0
                continue
            card.gone_frames += 1
            if card.gone_frames >= CONFIRM:  # what it leaves is no card landing on it
                leaves = [q for q in shapes if not _own(q, card.quad, LEFT)]
                visible = self._visible_mask(i, leaves) > 0
                was = self.reference[y0:y1, x0:x1].copy()
                self._gone.append(_Gone(card, i, was, visible.copy(), self.frame))
                _paste(self.reference[y0:y1, x0:x1], now[y0:y1, x0:x1], visible)
                self._rederive(card.box)
                self._left.append(card.quad)
                del self._cards[i]

    def _shows_print(self, now: Image, card: _Card, visible: Image) -> bool:
        """For a card that lay on the mat before the camera ever saw the mat there: whether
        its visible face now shows the mat's print, where the card and the print differ (both
        blurred a little: the camera draws the print's lines a pixel off)."""
        assert self.reference is not None and self._print is not None
        if self._print_blurred is None:
            self._print_blurred = cv2.GaussianBlur(self._print, (0, 0), SCALE)
        x0, y0, x1, y1 = card.box
        soft = (0, 0), SCALE
        was = cv2.GaussianBlur(self.reference[y0:y1, x0:x1], *soft)
        seen = self._soft_now[y0:y1, x0:x1] if self._soft_now is not None else now[y0:y1, x0:x1]
        below = self._print_blurred[y0:y1, x0:x1]
        telling = visible & (_channel_diff(was, below) > CHANGED)
        told = int(telling.sum())
        like = telling & (_channel_diff(seen, below) <= CHANGED // 2)
        return told >= TELLING and int(like.sum()) >= GONE * told

    def _visible_mask(self, i: int, shapes: list[Image]) -> Image:
        """The part of card ``i``'s box that it shows: cards laid after it lie on top, and so
        may cards landing now (``shapes``), whose white would look like the mat."""
        card = self._cards[i]
        x0, y0, x1, y1 = card.box
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        shift = np.array([x0, y0], np.float32)
        cv2.fillConvexPoly(mask, np.round(card.quad - shift).astype(np.int32), 1)
        landing = [q for q in shapes if not _own(q, card.quad)]  # its own outline is no cover
        for above in [c.quad for c in self._cards[i + 1 :]] + landing:
            cv2.fillConvexPoly(mask, np.round(above - shift).astype(np.int32), 0)
        return mask

    # -- cards that landed -------------------------------------------------------------

    def _land(self, now: Image, shapes: list[Image]) -> list[FoundCard]:
        """Card-shaped changes; each becomes a card once it has kept its outline."""
        assert self.reference is not None
        known = [c.quad for c in self._cards]
        beyond = self._beyond_cards() if shapes else None
        patches: list[_Patch] = []
        kept = [p for p in self._patches if not any(_own(p.quad, q, LEFT) for q in self._left)]
        for quad in shapes:
            if any(_own(quad, k) for k in known) or any(_own(quad, q, LEFT) for q in self._left):
                continue  # a card already found (its patch differs where a hand was), or
                # the place a card lifted now leaves (where it differed from what it covered)
            if beyond is not None and not _reaches(quad, beyond):
                continue  # changes on cards found (the light on their print): no card
            if self._unshifted(quad, now) < UNSHIFTED:
                continue  # the picture shifted a pixel against the reference: no card

            before = next((p for p in kept if _same(quad, p.quad)), None)
            kept = [p for p in kept if p is not before]
            patches.append(_Patch(quad, before.frames + 1 if before else 1))
        self._patches = [  # glare or a hand may break a landing card's outline for a frame
            _Patch(p.quad, p.frames, p.missed + 1) for p in kept if p.missed < KEEP
        ]
        self._faded = [(q, n - 1) for q, n in self._faded if n > 1]
        self._faded += [(p.quad, LINGER) for p in kept if p.missed >= KEEP]
        landed: list[FoundCard] = []
        for patch in patches:
            if patch.frames < CONFIRM:
                self._patches.append(patch)
                continue
            landed.append(self._add(patch.quad, now))
        return landed

    def _rederive(self, box: tuple[int, int, int, int]) -> None:
        """The reference changed inside ``box``: what is derived from it (its blur, its ink
        map) is taken again round there only. Both are made together (``_changed``) and
        dropped together (``_soft_reference`` None)."""
        if self._soft_reference is None or self.reference is None:
            return
        assert self._reference_ink is not None
        x0, y0, x1, y1 = box
        self._reference_ink[y0:y1, x0:x1] = ink_map(self.reference[y0:y1, x0:x1])
        h, w = self.reference.shape[:2]
        reach = 4 * round(BLUR) + 1  # past the blur's kernel
        ax0, ay0 = max(x0 - 2 * reach, 0), max(y0 - 2 * reach, 0)
        ax1, ay1 = min(x1 + 2 * reach, w), min(y1 + 2 * reach, h)
        bx0, by0 = max(x0 - reach, 0), max(y0 - reach, 0)
        bx1, by1 = min(x1 + reach, w), min(y1 + reach, h)
        soft = cv2.GaussianBlur(self.reference[ay0:ay1, ax0:ax1], (0, 0), BLUR)
        self._soft_reference[by0:by1, bx0:bx1] = soft[by0 - ay0 : by1 - ay0, bx0 - ax0 : bx1 - ax0]

    def _beyond_cards(self) -> Image:
        """This frame's change outside every card found: a card landing reaches there."""
        assert self._change is not None
        out = self._change.copy()
        for card in self._cards:
            cv2.fillConvexPoly(out, np.round(card.quad).astype(np.int32), 0)
        return out

    def _settle(self, now: Image) -> None:
        """Take a young card's look again on a frame that shows it as the last one did, where
        what changed lies within the card (glare, a shadow on the frame it landed in): a
        change reaching beyond it is a card coming over it, or a hand. A white card laid over
        it at once may change only within it: its look as it landed is kept (``_unsettle``)."""
        assert self.reference is not None and self._moved is not None
        if self._previous is None:
            return
        h, w = self._moved.shape
        for i, card in enumerate(self._cards):
            if not 0 < self.frame - card.found.landed < SETTLE:
                continue
            x0, y0, x1, y1 = card.box
            visible = self._visible_mask(i, []) > 0
            was, seen = self._previous[y0:y1, x0:x1], now[y0:y1, x0:x1]
            steady = _channel_diff(seen, was) <= CHANGED
            if not steady[visible].size or steady[visible].mean() < STEADY:
                continue
            # the change round the card, a pixel wider than its box: pieces that reach out
            # of the card are not its own
            gx0, gy0, gx1, gy1 = max(x0 - 1, 0), max(y0 - 1, 0), min(x1 + 1, w), min(y1 + 1, h)
            inside: Image = cv2.dilate(
                _inside(card.quad, (gx0, gy0, gx1, gy1)).astype(np.uint8),
                np.ones((2 * RIM + 1, 2 * RIM + 1), np.uint8),
            )
            _, labels = cv2.connectedComponents(self._moved[gy0:gy1, gx0:gx1])
            reaching = np.unique(labels[(inside == 0) & (labels > 0)])
            own = ~np.isin(labels, reaching)[y0 - gy0 : y1 - gy0, x0 - gx0 : x1 - gx0]
            ref = self.reference[y0:y1, x0:x1]
            take = visible & steady & own & (seen != ref).any(axis=2)  # equal pixels: no work
            if take.any():
                if card.landed_look is None:
                    card.landed_look = ref.copy()
                _paste(self.reference[y0:y1, x0:x1], seen, take)
                self._rederive(card.box)

    def _add(self, quad: Image, now: Image) -> FoundCard:
        assert self.reference is not None
        h, w = self.reference.shape[:2]
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - RIM
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1 + RIM
        box = (max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h))
        bx0, by0, bx1, by1 = box
        under = self.reference[by0:by1, bx0:bx1].copy()
        mask = cv2.dilate(
            _inside(quad, box).astype(np.uint8), np.ones((2 * RIM + 1, 2 * RIM + 1), np.uint8)
        )
        _paste(self.reference[by0:by1, bx0:bx1], now[by0:by1, bx0:bx1], mask)
        self._rederive(box)
        to_mat = PX_PER_MM / SCALE
        found = FoundCard(
            self._next_id,
            tuple((float(x) * to_mat, float(y) * to_mat) for x, y in quad),
            self.frame,
        )
        self._next_id += 1
        unseen = self._unknown is not None and bool(self._unknown[by0:by1, bx0:bx1][mask > 0].any())
        if unseen and self._standing is not None and self._standing.any():
            # what it lies on is a card's place, with its shadow: none of it is standing
            _, places = cv2.connectedComponents(self._standing)
            under_it = np.unique(places[by0:by1, bx0:bx1][mask > 0])
            self._standing[np.isin(places, under_it[under_it > 0])] = 0
        self._cards.append(_Card(found, quad, under, box, on_print=unseen))
        return found

    def _unshifted(self, quad: Image, now: Image) -> float:
        """The share of the sharp change inside an outline that stays changed when the
        reference may lie a pixel off either way: a picture that shifted against the
        reference shows every edge it had as a thin line of change, which stays only where
        something new lies (1.0 where nothing sharp changed)."""
        assert self.reference is not None
        h, w = now.shape[:2]
        x0, y0, x1, y1 = box = _box_of(quad, now.shape)
        seen = now[y0:y1, x0:x1]
        sharp = (_channel_diff(seen, self.reference[y0:y1, x0:x1]) > CHANGED) & _inside(quad, box)
        count = int(sharp.sum())
        if count < TELLING:
            return 1.0
        px0, py0, px1, py1 = max(x0 - 1, 0), max(y0 - 1, 0), min(x1 + 1, w), min(y1 + 1, h)
        pad = (1 - (y0 - py0), 1 - (py1 - y1), 1 - (x0 - px0), 1 - (px1 - x1))
        ref = cv2.copyMakeBorder(  # a pixel round the box, the picture's edge repeated
            self.reference[py0:py1, px0:px1], *pad, cv2.BORDER_REPLICATE
        )
        still = sharp.copy()
        for dy in range(3):
            for dx in range(3):
                if dy == dx == 1:
                    continue
                shifted = ref[dy : dy + y1 - y0, dx : dx + x1 - x0]
                still &= _channel_diff(seen, shifted) > CHANGED
        return int(still.sum()) / count

    def _not_mat(self, quad: Image, now: Image) -> bool:
        """Whether a card-shaped change holds something other than the bare mat: where cards
        were gathered up, the mat shows again in card-shaped pieces."""
        assert self._empty is not None
        x0, y0, x1, y1 = _box_of(quad, now.shape)
        inside = _inside(quad, (x0, y0, x1, y1))
        differs = _channel_diff(now[y0:y1, x0:x1], self._empty[y0:y1, x0:x1]) > CHANGED
        return bool((differs & inside).sum() >= NOT_MAT * max(int(inside.sum()), 1))

    def propose(self, quad: Any) -> FoundCard | None:
        """A card the reader found whole (both its corner indices, agreeing, where one card's
        lie: ``card_between``; ``quad`` its outline in mat pixels) where no card was found: a
        card as white as the mat laid over part of another, whose change is neither card-shaped
        nor its ink alone. It is a card when it is still (the last two frames alike there), not
        the bare mat, and new (most of its ink unlike the reference: what it covers is known,
        so that its going is seen: a card below taken for gone, or its look taken again with
        this card in it, is put back first); it is then found, on top, as if it had landed
        now. None otherwise, and where a card found already lies there."""
        now, prior = self._previous, self._prior
        if now is None or prior is None or self.reference is None:
            return None
        q = np.asarray(quad, np.float32).reshape(4, 2) * (SCALE / PX_PER_MM)
        if any(_same(q, c.quad) for c in self._cards):
            return None
        if any(_own(p.quad, q, LEFT) or _own(q, p.quad, LEFT) for p in self._patches):
            return None  # landing now: the finder will know it in a frame or two
        x0, y0, x1, y1 = box = _box_of(q, now.shape)
        inside = _inside(q, box)
        if inside.sum() < OWN * cv2.contourArea(q):
            return None  # partly off the mat
        steady = _channel_diff(now[y0:y1, x0:x1], prior[y0:y1, x0:x1]) <= CHANGED
        if steady[inside].mean() < STEADY or not self._not_mat(q, now):
            return None
        ink = inside & (_under(ink_map(now[y0:y1, x0:x1]), INK) > 0)
        if ink.sum() < TELLING:
            return None
        if not self._new_ink(ink, box):
            self._restore_under(q)  # the card below it was taken for gone: it was not
            if not self._new_ink(ink, box) and not self._unsettle(q, ink, box):
                return None  # the reference has it: what it covers is not known, so
                # nothing would tell when it is gone
        found = self._add(q, now)
        self.cards = [c.found for c in self._cards]
        self.still = False
        return found

    def _new_ink(
        self, ink: Image, box: tuple[int, int, int, int], reference: Image | None = None
    ) -> bool:
        """Whether most of a card's ``ink`` (within ``box``) is unlike the reference there
        (or ``reference``, that part of it as it would be)."""
        assert self._previous is not None and self.reference is not None
        x0, y0, x1, y1 = box
        was = self.reference[y0:y1, x0:x1] if reference is None else reference
        new = _channel_diff(self._previous[y0:y1, x0:x1], was)
        return bool(((new > CHANGED) & ink).sum() >= NEW_INK * ink.sum())

    def _unsettle(self, quad: Image, ink: Image, box: tuple[int, int, int, int]) -> bool:
        """Whether the card found on top under a card read whole at ``quad`` (``ink`` its ink
        within ``box``) had its look taken again by ``_settle`` with that card in it (a white
        card laid over a young one changes only within it), and, put back as it landed under
        ``quad``, the reference lacks most of that ink: it is then put back there."""
        assert self.reference is not None
        below = [c for c in self._cards if cv2.intersectConvexConvex(c.quad, quad)[0] > 0]
        if not below or below[-1].landed_look is None:
            return False
        card, look = below[-1], below[-1].landed_look
        x0, y0, x1, y1 = box
        cx0, cy0, cx1, cy1 = card.box
        ix0, iy0, ix1, iy1 = max(cx0, x0), max(cy0, y0), min(cx1, x1), min(cy1, y1)
        if ix0 >= ix1 or iy0 >= iy1:
            return False
        trial = self.reference[y0:y1, x0:x1].copy()
        _paste(
            trial[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0],
            look[iy0 - cy0 : iy1 - cy0, ix0 - cx0 : ix1 - cx0],
            _inside(quad, (ix0, iy0, ix1, iy1)),
        )
        if not self._new_ink(ink, box, trial):
            return False
        self.reference[y0:y1, x0:x1] = trial
        self._rederive(box)
        return True

    def _restore_under(self, quad: Image) -> None:
        """Put back, below a card read whole at ``quad``, the cards taken for gone in the last
        ``SETTLE`` frames under it, and the reference they had: a white card laid over most
        of the last one shows the mat's white where that card lay."""
        assert self.reference is not None
        for gone in sorted(self._gone, key=lambda g: -g.frame):  # the last taken, first
            inside, _ = cv2.intersectConvexConvex(gone.card.quad.astype(np.float32), quad)
            if inside <= 0:
                continue
            x0, y0, x1, y1 = gone.card.box
            _paste(self.reference[y0:y1, x0:x1], gone.reference, gone.taken)
            self._rederive(gone.card.box)
            gone.card.gone_frames = 0
            self._cards.insert(min(gone.place, len(self._cards)), gone.card)
            self._gone.remove(gone)
        self.cards = [c.found for c in self._cards]

    # -- which card an index belongs to ------------------------------------------------

    def host(self, index: Any) -> FoundCard | None:
        """The card whose corner ``index`` (4 x 2 mat pixels: an index's outline) sits in, at
        the card's scale and along its long side. A card still landing (card-shaped, not yet
        kept for ``CONFIRM`` frames) hosts too, with id -1. None for an index on no card, and
        for one
        where the mat is changing (a card landing on top of another is not yet found: its
        index, near the corner of the card below, is not that card's)."""
        on_landing = host(self._landing, index)  # lying on top of everything found
        if on_landing is not None:
            return on_landing
        if self._unsettled(index):
            return None
        return host(self.cards, index)

    def cornered(self, index: Any) -> FoundCard | None:
        """The card found whose corner ``index`` (mat pixels) sits in, as ``host`` has it but
        where the mat is changing too: an index read there may be that card's (its outline
        found a little off its edge) or one landing over it, so it only links the two."""
        return host(self.cards, index)

    def unaccounted(self, index: Any) -> bool:
        """Whether no card found accounts for an index (4 x 2 mat pixels) that no card hosts:
        it lies on no card found or landing (nor just off one), or on one where the mat has
        changed since (a card laid over it that the finder has not found). A picture on a card
        found (a pack's back, a box) is accounted for: the card it is printed on."""
        if self._unsettled(index):
            return True
        pts = np.asarray(index, np.float64).reshape(-1, 2) / PX_PER_MM
        x, y = (float(v) for v in pts.mean(axis=0))
        for card in [*self._landing, *self.cards]:
            if cv2.pointPolygonTest(card.outline_mm32, (x, y), True) >= -EDGE_MM:
                return False
        return True

    def _unsettled(self, index: Any) -> bool:
        """Whether the mat is changing under an index (the next card coming down over it)."""
        if self._moved is None:
            return False
        pts = np.asarray(index, np.float64).reshape(-1, 2) * (SCALE / PX_PER_MM)
        x0, y0, x1, y1 = _box_of(pts, self._moved.shape)
        part = self._moved[y0:y1, x0:x1]  # 0 or 1: its share of 1s, as its mean
        return bool(cv2.countNonZero(part) / part.size > UNSETTLED)


def card_shapes(changed: Image, apart: Image | None = None) -> list[Image]:
    """The card-shaped patches of a change mask (finder pixels), as outlines (4 x 2); the
    pieces are cut along ``apart`` (1 where they are kept apart), if given.

    A white card on a white mat changes little inside: its edge, its index and its pips, in
    pieces where its edge lies along a printed line. Pieces are gathered, nearest first,
    while together they still fit in a card; a card is convex, so their hull is the card.
    Whatever would make the gathering larger than a card (a hand, a neighbour) stays out."""
    k = 3 * SCALE
    closed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    if apart is not None:
        closed = cv2.subtract(closed, apart)
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    pieces = [c.reshape(-1, 2).astype(np.float32) for c in contours if len(c) >= 3]
    pieces.sort(key=lambda c: -cv2.contourArea(c))
    reach = LONG_MM[1] * SCALE
    centres = np.array([p.mean(axis=0) for p in pieces]).reshape(-1, 2)
    used = [False] * len(pieces)
    failed: set[frozenset[int]] = set()  # pieces gathered before that made no card
    out = []
    for i, seed in enumerate(pieces):
        if used[i] or not _fits(seed):
            continue
        points: Image = seed
        members = [i]
        far = np.hypot(*(centres - centres[i]).T)
        for j in (int(j) for j in np.argsort(far, kind="stable")):
            if far[j] > reach:
                break
            if used[j] or j == i:
                continue
            joined: Image = cv2.convexHull(np.concatenate([points, pieces[j]])).reshape(-1, 2)
            if _fits(joined):
                points, members = joined, [*members, j]
        if frozenset(members) in failed:
            continue  # gathered from another seed before: no card then, none now
        quad = _card_quad(points, [pieces[j] for j in members], changed)
        if quad is None:
            failed.add(frozenset(members))
        else:
            out.append(quad)
            for j in members:
                used[j] = True
    return out


def _shows(visible: Image, was: Image, seen: Image, below: Image) -> bool:
    """Whether ``seen`` shows ``below`` rather than the card (``was``) on most of the
    visible places where the two differ."""
    telling = visible & (_channel_diff(was, below) > CHANGED)
    told = int(telling.sum())
    if told < TELLING:
        return False
    like_below = telling & (_channel_diff(seen, below) <= CHANGED)
    return int(like_below.sum()) >= GONE * told


def _channel_diff(a: Image, b: Image) -> Image:
    """The largest of the channels' absolute differences (numpy's reduction over a last axis
    of three is many times slower than this)."""
    return across_channels(cv2.max, cv2.absdiff(a, b))


def _alike(a: Image, b: Image) -> bool:
    """Whether two pictures of one place differ (by ``CHANGED``) in at most a ``QUIET``
    share of their pixel channels: the same picture, give or take the camera's noise."""
    differs = cv2.threshold(cv2.absdiff(a, b), CHANGED, 1, cv2.THRESH_BINARY)[1]
    return cv2.countNonZero(differs.reshape(a.shape[0], -1)) <= QUIET * differs.size


def _cleared(before: Image | None, now: Image) -> list[npt.NDArray[np.float64]]:
    """Boxes (finder pixels) round the tip of each hand that went: where the last frame
    changed and this one no longer does, in one piece of ``HAND_PX`` or more reaching in
    across the mat's edge. What a hand left under its palm (a card white on white, in no
    card's shape) is looked at again; its tip is what it covered farthest from the edge.
    Looked for at a quarter of the finder's scale: a hand is large, its box larger."""
    if before is None or cv2.countNonZero(before) - cv2.countNonZero(now) < HAND_PX:
        return []
    step = 4
    left = cv2.subtract(before, now)[::step, ::step].copy()
    count, labels, stats, _ = cv2.connectedComponentsWithStats(left, connectivity=8)
    h, w = left.shape
    size, reach = (before.shape[1] - 1, before.shape[0] - 1), PALM_MM * SCALE
    out = []
    for label in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[label])
        if area * step**2 < HAND_PX or (x > 1 and y > 1 and x + bw < w - 1 and y + bh < h - 1):
            continue  # small, or no hand's: not reaching in from the mat's edge
        ys, xs = np.nonzero(labels[y : y + bh, x : x + bw] == label)
        xs, ys = xs + x, ys + y
        edge = (xs <= 1) | (ys <= 1) | (xs >= w - 2) | (ys >= h - 2)
        entry = np.array([xs[edge].mean(), ys[edge].mean()])
        far = int(np.argmax((xs - entry[0]) ** 2 + (ys - entry[1]) ** 2))
        tip = np.array([xs[far], ys[far]], np.float64) * step
        lo, hi = np.maximum(tip - reach, 0), np.minimum(tip + reach, size)
        out.append(np.array([lo, (hi[0], lo[1]), hi, (lo[0], hi[1])], np.float64))
    return out


def _holds(box: npt.NDArray[np.float64], point: npt.NDArray[np.float64]) -> bool:
    """Whether an upright box (4 x 2) holds a point."""
    return bool((box.min(axis=0) <= point).all() and (point <= box.max(axis=0)).all())


def _over(a: Image, level: int) -> Image:
    """1 where a uint8 picture is over ``level``, else 0 (``(a > level).astype(np.uint8)``
    at a tenth of the time)."""
    out: Image = cv2.threshold(a, level, 1, cv2.THRESH_BINARY)[1]
    return out


def _under(a: Image, level: int) -> Image:
    """1 where a uint8 picture is under ``level``, else 0."""
    out: Image = cv2.threshold(a, level - 1, 1, cv2.THRESH_BINARY_INV)[1]
    return out


def _at_least(a: Image, level: int) -> Image:
    """``np.maximum(a, level)`` for a uint8 picture, at a fraction of the time: OpenCV takes
    it as one channel (it would take a number for a three-channel picture's first only)."""
    out: Image = cv2.max(a.reshape(a.shape[0], -1), float(level)).reshape(a.shape)
    return out


def _paste(dst: Image, src: Image, where: Image) -> None:
    """Copy ``src`` into ``dst`` (a view of a larger picture) where ``where`` is non-zero
    (``dst[where] = src[where]`` at a fraction of the time)."""
    mask = where.view(np.uint8) if where.dtype == np.bool_ else where
    out = cv2.copyTo(src, mask, dst)
    if out is not dst:  # the bindings wrote into a copy of a view they could not take as is
        dst[...] = out


def _fits(points: Image) -> bool:
    """Whether ``points`` (finder pixels) fit inside one card, however it is turned. The least
    box may not show it (ink from corner to corner fits best along the diagonal), so other
    turns are tried too."""
    hull = cv2.convexHull(points)
    _, (w, h), _ = cv2.minAreaRect(hull)
    if _card_fits(w, h):
        return True
    pts = hull.reshape(-1, 2).astype(np.float64)
    if _across(pts) > np.hypot(SHORT_MM[1], LONG_MM[1]) * SCALE:
        return False  # wider than a card from corner to corner
    short, long_ = _sides_turned(pts, _EVERY_5)
    return bool(np.any((short <= SHORT_MM[1]) & (long_ <= LONG_MM[1])))


_EVERY_5 = np.arange(0.0, 90.0, 5.0)


def _sides_turned(
    pts: npt.NDArray[np.float64], angles: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The short and long sides (mm) of the box around ``pts`` turned by each of ``angles``
    (degrees), as ``_box_at`` turns it."""
    a = np.radians(angles)
    x = pts[:, :1] * np.cos(a) + pts[:, 1:] * np.sin(a)
    y = -pts[:, :1] * np.sin(a) + pts[:, 1:] * np.cos(a)
    w, h = np.ptp(x, axis=0) / SCALE, np.ptp(y, axis=0) / SCALE
    return np.minimum(w, h), np.maximum(w, h)


def _across(pts: npt.NDArray[np.float64]) -> float:
    """The greatest distance between two of ``pts``."""
    return float(np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2).max()))


def _card_fits(w: float, h: float) -> bool:
    short, long_ = sorted((w / SCALE, h / SCALE))
    return short <= SHORT_MM[1] and long_ <= LONG_MM[1]


def _card_quad(points: Image, pieces: list[Image], changed: Image) -> Image | None:
    """The card outline of gathered pieces, or None where they do not make a card.

    Pieces that fill their outline are a card's body. Pieces that do not may still be a card
    as white as the mat, seen by its ink alone (``INKED_MM``): indices at two opposite
    corners and pips between, which a card's face prints the same when turned half round
    (``_symmetric``, on the ``changed`` pixels the pieces outline). Its outline is then at
    least a poker card's, about the same middle."""
    hull = cv2.convexHull(points)
    (cx, cy), (w, h), angle = cv2.minAreaRect(hull)
    short, long_ = sorted((w / SCALE, h / SCALE))
    card_sized = SHORT_MM[0] <= short <= SHORT_MM[1] and LONG_MM[0] <= long_ <= LONG_MM[1]
    if card_sized and cv2.contourArea(hull) >= FILL * w * h:
        return cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
    inked = _inked_box(hull, pieces, changed)
    if inked is None:
        return None
    (cx, cy), (w, h), angle = inked
    card_w, card_h = (CARD_MM[0], CARD_MM[1]) if w <= h else (CARD_MM[1], CARD_MM[0])
    size = (max(w, card_w * SCALE), max(h, card_h * SCALE))
    return cv2.boxPoints(((cx, cy), size, angle)).astype(np.float32)


def _inked_box(
    hull: Image, pieces: list[Image], changed: Image
) -> tuple[Point, Point, float] | None:
    """The box around a card's ink, turned as the card lies; None where there is none that
    is card-shaped (``INKED_MM`` up to a card, ``INKED_ASPECT``), with ink at two opposite
    corners (its indices) and the same turned half round about its middle (``_symmetric``).

    Ink from corner to corner fits a smaller box along the diagonal, so the turns tried first
    are those of the pieces longer than wide (an index, rank over suit; a court card's frame
    lie along the card), the most agreed first; then, as a card is laid about square to the
    mat's edge, the turns up to ``SQUARE`` degrees from it, the least box first. As
    ``cv2.minAreaRect`` gives it."""
    pts = hull.reshape(-1, 2).astype(np.float64)
    if _across(pts) < np.hypot(*INKED_MM) * SCALE:
        return None  # too small from corner to corner to be a card's ink
    turns: list[tuple[float, float]] = []  # degrees modulo 90, weight
    for piece in pieces:
        (_, _), (w, h), angle = cv2.minAreaRect(piece)
        if min(w, h) > 0 and max(w, h) / min(w, h) >= 1.5:
            turns.append((float(angle) % 90, float(w * h)))

    def agreed(turn: float) -> float:
        return sum(w for t, w in turns if min(abs(t - turn), 90 - abs(t - turn)) <= 6)

    ink = np.concatenate(pieces).astype(np.float64)
    inked = None  # the ink's mask, made when a box first needs it
    by_pieces = sorted((t for t, _ in turns), key=agreed, reverse=True)[:3]
    every = [float(a) % 90 for a in np.arange(-SQUARE, SQUARE + 1, 2.0)]
    for angles in (by_pieces, every):
        shaped = _card_shaped(pts, angles)
        if angles is every:  # the least few: their middles are the others' too, give or
            # take the pixel or two that the symmetry is judged to
            shaped.sort(key=lambda turn: turn[1])  # a stable sort, as the angles came
            shaped = shaped[:LEAST_BOXES]
        for box in (_box_at(pts, ink, a) for a, _area in shaped):
            if box is None:
                continue
            inked = inked or _ink_mask(pieces, changed)
            if _symmetric(inked, box[0]) or _twin_corners(inked, box):
                return box
    return None


def _card_shaped(pts: npt.NDArray[np.float64], angles: list[float]) -> list[tuple[float, float]]:
    """Those of ``angles`` (degrees) at which the box around ``pts`` is card-shaped, each with
    the box's area (mm²)."""
    if not angles:
        return []
    short, long_ = _sides_turned(pts, np.asarray(angles))
    ok = (INKED_MM[0] <= short) & (short <= SHORT_MM[1])
    ok &= (INKED_MM[1] <= long_) & (long_ <= LONG_MM[1])
    ok &= (INKED_ASPECT[0] * short <= long_) & (long_ <= INKED_ASPECT[1] * short)
    area = short * long_
    return [(angle, float(area[i])) for i, angle in enumerate(angles) if ok[i]]


def _box_at(
    pts: npt.NDArray[np.float64], ink: npt.NDArray[np.float64], angle: float
) -> tuple[Point, Point, float] | None:
    """The box around ``pts`` turned ``angle`` degrees (one ``_card_shaped`` gave), if it has
    ``ink`` at two opposite corners (as ``cv2.minAreaRect`` gives it)."""
    a = np.radians(angle)
    rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    turned = pts @ rot.T
    lo, hi = turned.min(axis=0), turned.max(axis=0)
    w, h = hi - lo
    near = INDEX_EDGE_MM * SCALE
    at = (ink @ rot.T - lo) / (w, h)  # 0..1 across the box
    reach = near / np.array([w, h])
    corners = [
        bool(np.any((abs(at[:, 0] - u) <= reach[0]) & (abs(at[:, 1] - v) <= reach[1])))
        for u, v in ((0, 0), (1, 1), (1, 0), (0, 1))
    ]
    if not ((corners[0] and corners[1]) or (corners[2] and corners[3])):
        return None
    cx, cy = rot.T @ ((lo + hi) / 2)
    return (float(cx), float(cy)), (float(w), float(h)), angle


def _ink_mask(pieces: list[Image], changed: Image) -> tuple[Image, int, int]:
    """The ``changed`` pixels inside pieces (finder pixels), in a box round them with room to
    turn, and the box's top-left corner."""
    allowed = SYMMETRY_MM * SCALE
    pts = np.concatenate(pieces)
    x0, y0 = np.floor(pts.min(axis=0) - allowed).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0) + allowed).astype(int) + 1
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round(p - [x0, y0]).astype(np.int32) for p in pieces], 1)
    h, w = changed.shape[:2]
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    inked = np.zeros_like(mask)
    inked[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0] = changed[cy0:cy1, cx0:cx1] > 0
    mask &= inked
    return mask, int(x0), int(y0)


def _symmetric(inked: tuple[Image, int, int], centre: Point) -> bool:
    """Whether a card's ink (``_ink_mask``) looks the same turned half round about
    ``centre``, as the ink of a card's face does (and a hand, a shadow or a line of the print
    does not). The pixels, not the pieces filled: where a white card's edge covers a printed
    line, the change is the line's thin outline, which filled is a band with no twin."""
    allowed = SYMMETRY_MM * SCALE
    mask, x0, y0 = inked
    cx, cy = centre[0] - x0, centre[1] - y0
    turn = np.array([[-1.0, 0.0, 2 * cx], [0.0, -1.0, 2 * cy]])
    turned = cv2.warpAffine(mask, turn, mask.shape[::-1], flags=cv2.INTER_NEAREST)
    near = cv2.dilate(turned, np.ones((2 * allowed + 1, 2 * allowed + 1), np.uint8))
    return int((mask & near).sum()) >= SYMMETRIC * max(int(mask.sum()), 1)


def _twin_corners(inked: tuple[Image, int, int], box: tuple[Point, Point, float]) -> bool:
    """Whether the ink at the corners of ``box`` (within ``TWIN_MM``) looks the same turned
    half round: a card's two indices do, whatever its middle holds (a seven's odd pip, pips
    laid in columns of three and two, a picture)."""
    mask, x0, y0 = inked
    inked_at = []
    for x, y in cv2.boxPoints(box) - np.array([x0, y0], np.float32):
        near = np.zeros_like(mask)
        cv2.circle(near, (round(float(x)), round(float(y))), round(TWIN_MM * SCALE), 1, -1)
        inked_at.append(mask & near)
    least = INDEX_INK_MM2 * SCALE * SCALE
    if not any(
        int(inked_at[i].sum()) >= least and int(inked_at[i + 2].sum()) >= least for i in (0, 1)
    ):
        return False  # no index's worth of ink at two opposite corners
    corners = inked_at[0] | inked_at[1] | inked_at[2] | inked_at[3]
    return _symmetric((corners, x0, y0), box[0])


def _same(a: Image, b: Image) -> bool:
    ca, cb = a.mean(axis=0), b.mean(axis=0)
    if float(np.hypot(*(ca - cb))) > SAME_MM * SCALE:
        return False
    sa, sb = _sides(a), _sides(b)
    return all(abs(x - y) <= SAME_MM * SCALE for x, y in zip(sa, sb, strict=True))


def _reaches(quad: Image, beyond: Image) -> bool:
    """Whether an outline holds ``TELLING`` changed pixels of ``beyond``."""
    x0, y0, x1, y1 = box = _box_of(quad, beyond.shape)
    return int(beyond[y0:y1, x0:x1][_inside(quad, box)].sum()) >= TELLING


def _box_of(pts: Image, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The pixel box (x0, y0, x1, y1) round points, cut to an image of ``shape``; never
    empty."""
    h, w = shape[:2]
    xs, ys = (v.tolist() for v in np.asarray(pts).reshape(-1, 2).T)  # floats: numpy is slow
    x0, y0 = _clip(math.floor(min(xs)), 0, w - 1), _clip(math.floor(min(ys)), 0, h - 1)
    x1, y1 = _clip(math.ceil(max(xs)) + 1, 1, w), _clip(math.ceil(max(ys)) + 1, 1, h)
    return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)


def _clip(v: int, lo: int, hi: int) -> int:
    return min(max(v, lo), hi)


def _inside(quad: Image, box: tuple[int, int, int, int]) -> npt.NDArray[np.bool_]:
    """Which pixels of ``box`` (from ``_box_of``) lie inside the outline ``quad``."""
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - np.array([x0, y0])).astype(np.int32), 1)
    return mask > 0


def _own(a: Image, b: Image, share: float = OWN) -> bool:
    """Whether outline ``a`` is ``b``'s, or lies within it but for ``1 - share`` of its area."""
    if _same(a, b):
        return True
    area = cv2.contourArea(a.astype(np.float32))
    inside, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return area > 0 and inside >= share * area


def _sides(q: Image) -> tuple[float, float]:
    a = float(np.hypot(*(q[1] - q[0])))
    b = float(np.hypot(*(q[2] - q[1])))
    return (min(a, b), max(a, b))


def _down(outline: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The unit "down" of an index's outline (4 x 2, top-left first as the index stands)."""
    d: npt.NDArray[np.float64] = (outline[3] - outline[0]) + (outline[2] - outline[1])
    return d / max(float(np.hypot(*d)), 1e-9)


def card_at(index: Any) -> npt.NDArray[np.float64]:
    """The outline (4 x 2 mat pixels) of the poker-sized card whose top-left index (as it
    stands) is ``index`` (4 x 2 mat pixels), its centre ``INDEX_AT_MM`` from the card's corner:
    where to look for its other index."""
    a = np.asarray(index, np.float64).reshape(4, 2) / PX_PER_MM
    along = _down(a)
    across = np.array([along[1], -along[0]])
    corner = a.mean(axis=0) - INDEX_AT_MM[0] * across - INDEX_AT_MM[1] * along
    w, h = across * CARD_MM[0], along * CARD_MM[1]
    out: npt.NDArray[np.float64] = np.array([corner, corner + w, corner + w + h, corner + h])
    return out * PX_PER_MM


def card_between(index: Any, opposite: Any) -> npt.NDArray[np.float64] | None:
    """The outline (4 x 2 mat pixels, round the card) of the poker-sized card whose corner
    indices are ``index`` and ``opposite`` (4 x 2 mat pixels each, top-left first as the index
    stands), where they lie as one card's do: turned half round to each other, alike in size
    and each an index's (up to ``PATCH_MM``), the one ``ACROSS_MM`` and ``ALONG_MM`` from the
    other. None otherwise: a picture of a card (on a pack's back, a box) prints its indices
    nearer together."""
    a = np.asarray(index, np.float64).reshape(4, 2) / PX_PER_MM
    b = np.asarray(opposite, np.float64).reshape(4, 2) / PX_PER_MM
    sides = [float(np.hypot(*(q[3] - q[0]))) for q in (a, b)]
    if not INDEX_MM[0] <= min(sides) <= max(sides) <= min(PATCH_MM, 1.4 * min(sides)):
        return None  # not an index's size, or not alike
    da, db = _down(a), _down(b)
    if float(da @ db) > -math.cos(math.radians(INDEX_TURN)):
        return None  # not turned half round to each other
    along = (da - db) / max(float(np.hypot(*(da - db))), 1e-9)
    across = np.array([along[1], -along[0]])  # the card's right, as its top-left index stands
    off = b.mean(axis=0) - a.mean(axis=0)
    x, y = float(off @ across), float(off @ along)
    if not (ACROSS_MM[0] <= x <= ACROSS_MM[1] and ALONG_MM[0] <= y <= ALONG_MM[1]):
        return None
    centre = (a.mean(axis=0) + b.mean(axis=0)) / 2
    half_x, half_y = across * CARD_MM[0] / 2, along * CARD_MM[1] / 2
    corners = [centre - half_x - half_y, centre + half_x - half_y]
    corners += [centre + half_x + half_y, centre - half_x + half_y]
    return np.array(corners) * PX_PER_MM


def host(cards: list[FoundCard], index: Any) -> FoundCard | None:
    """The topmost card with ``index`` (mat pixels) at one of its corners, upright along the
    card's long side and of an index's size; None where no card has it so."""
    pts = np.asarray(index, np.float64).reshape(-1, 2) / PX_PER_MM  # mm
    centre = pts.mean(axis=0)
    point = (float(centre[0]), float(centre[1]))
    depths: dict[int, float] = {}  # by place in ``cards``, each tested once
    for least in (ON_CARD_MM, -EDGE_MM):  # well on a card first; then just off its outline
        for i in range(len(cards) - 1, -1, -1):
            card = cards[i]
            if i not in depths:
                depths[i] = cv2.pointPolygonTest(card.outline_mm32, point, True)
            depth = depths[i]
            if depth < least:
                continue
            if _at_corner(card.outline_mm, pts):
                return card
            if depth > EDGE_MM:
                return None  # deep inside a card, and not at its corner: a picture, or covered
    return None


def _at_corner(quad: npt.NDArray[np.float64], pts: npt.NDArray[np.float64]) -> bool:
    """Whether an index outline (mm) lies at a corner of the card ``quad`` (mm)."""
    a = quad[0]
    e1, e2 = quad[1] - a, quad[3] - a
    if np.hypot(*e1) > np.hypot(*e2):
        e1, e2 = e2, e1  # e1 across the card (its short side), e2 along it
    w, h = float(np.hypot(*e1)), float(np.hypot(*e2))
    u1, u2 = e1 / w, e2 / h
    rel = pts - a
    us, vs = rel @ u1, rel @ u2  # across, along the card
    near_u = min(us.min(), w - us.max())
    near_v = min(vs.min(), h - vs.max())
    if near_u > INDEX_EDGE_MM or near_v > INDEX_EDGE_MM:
        return False
    if us.max() - us.min() > w / 2 or vs.max() - vs.min() > h / 2:
        return False
    sides = [pts[(i + 1) % len(pts)] - pts[i] for i in range(len(pts))]
    longest = max(sides, key=lambda s: float(np.hypot(*s)))
    length = float(np.hypot(*longest))
    if not INDEX_MM[0] <= length <= INDEX_MM[1]:
        return False
    lean = np.degrees(np.arccos(min(1.0, abs(float(longest @ u2)) / max(length, 1e-9))))
    return bool(lean <= INDEX_TURN)
