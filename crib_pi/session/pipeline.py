"""One camera frame through the session: find the mat, find the cards, read them, track.

The recognizer is anything with ``read(bgr) -> Recognition`` (``crib_pi.vision.Recognizer``);
reads are placed on the mat by the centre of their index corner. With a card finder
(``crib_pi.vision.finder``; ``find=True``) what is on the mat is decided by presence, not by
reads: a read counts only at the corner of a card found on the mat (a picture of a card, on a
card back, a box or a poster, is no card), and a card found and not read is reported as an
unsure sighting, so that the table asks about it rather than miss it; before that, in its
first second, it is read at its own corners (``crib_pi.vision.corner``), where an index the
frame's reader misses is often read (and an unsure read there gives the question its first
choices). A sure read made on a card while it lands or in its first second must agree with
the pips on its face (``crib_pi.vision.pips``) and with its corners read upright, else it is
asked about. A card the finder missed (white, laid over most of a white card on a white mat)
but read whole, both its corner indices agreeing a card's size apart, is found by them
(``CardFinder.propose``). A card found and named that is picked up before it could be laid
(a player looks at the card just put down) is still a card laid unread, asked about.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.cards import Card
from crib_pi.mat import PX_PER_MM, Mat
from crib_pi.session.locate import MatLocator, mat_to_frame
from crib_pi.session.tracker import Sighting, Tracker, TrackEvent
from crib_pi.vision.finder import CardFinder, FoundCard, card_at, card_between
from crib_pi.vision.patches import colourless
from crib_pi.vision.pips import agrees, count_pips, upright

Point = tuple[float, float]
REREAD = 10
"""Most frames between reads of the whole frame (1 s at 10 fps): between them the reads of a
still mat are kept, and only the parts where cards land or leave are read; a card the finder
missed is read at the latest then."""
READ_AROUND_MM = 20
"""Where a card landed, is landing or left, the reads this far round it are taken again (the
index of the card below, just beside the new one, may be covered now); the others stand."""
CROP_MM = 15
"""The picture read reaches this much further, so that every index kept lies whole in it."""
CORNER_FRAMES = 10
"""A card found and not read is read at its own corners (``crib_pi.vision.corner``) in this
many frames after it landed, while nothing lies over it; after them a card still unread is
face down, or its question has been asked."""
WHOLE_FRAMES = 10
WHOLE_EVERY = 10
WHOLE_AGAIN = 30
"""A card read on no card found, by one index only, is read at the corners of the card it
would be, for its other index (``_find_by_indices``): on every frame for ``WHOLE_FRAMES``
from the first (it lies whole as it lands, before the next card covers its far corner), then
once every ``WHOLE_EVERY`` frames; not read so for ``WHOLE_AGAIN`` frames, it is laid again
(the next deal), and read every frame again."""

GUESS_EVERY = 10
GUESS_TRIES = 3
"""A card found and not named, with no guess, is looked at for candidates to offer first
(``_guess``) this many times, this many frames apart: offered, never laid."""

PIP_LOOKS = 3
"""Looks at a found card's pips while it lies uncovered; the most pips seen stand (a hand
over the card hides some, never adds one)."""
PIP_FRAMES = 10
"""The pips are looked at in this many frames after their card landed, and witness the cards
read on it then: a card first read at its corner later may be one laid over it that the
finder missed."""


class Read(Protocol):
    @property
    def corners(self) -> Sequence[Point]: ...


class SureRead(Read, Protocol):
    @property
    def card(self) -> Card: ...


class UnsureRead(Read, Protocol):
    @property
    def candidates(self) -> tuple[Card, ...]: ...


class Reading(Protocol):
    @property
    def cards(self) -> Sequence[SureRead]: ...

    @property
    def uncertain(self) -> Sequence[UnsureRead]: ...


class Recognizer(Protocol):
    def read(self, bgr: npt.NDArray[Any]) -> Reading: ...


@dataclass(frozen=True, slots=True)
class EmptyReading:
    cards: tuple[SureRead, ...] = ()
    uncertain: tuple[UnsureRead, ...] = ()


class NoRecognizer:
    """Reads nothing: the game goes on with cards typed in when recognition is missing."""

    def read(self, bgr: npt.NDArray[Any]) -> EmptyReading:
        return EmptyReading()


class FramePipeline:
    """Mat locator + card finder + recognizer + tracker, one frame at a time.

    ``find=False`` (for now the default: ``[session] find_cards`` turns it on) trusts every
    read, as before the finder: a card is on the mat when its index is read."""

    def __init__(
        self, mat: Mat, recognizer: Recognizer, tracker: Tracker, *, find: bool = False
    ) -> None:
        self.mat = mat
        self.locator = MatLocator(mat)
        self.recognizer = recognizer
        self.tracker = tracker
        self.finder = CardFinder(mat) if find else None
        self.frames = 0
        self.frames_without_mat = 0
        self.read_frames: Counter[int] = Counter()  # found card -> frames an index was read on it
        self.named_frames: Counter[int] = Counter()  # ... and frames it was named
        self.dropped = 0  # reads on no found card's corner (pictures of cards, hands, ...)
        self.reads = 0  # frames read by the recognizer (the others kept the last frame's)
        self.part_reads = 0  # of those, frames read only round what landed or left
        self.corner_reads = 0  # found cards read at their own corners
        self.found_by_indices = 0  # cards the finder missed, found by their two indices
        self._whole_tried: dict[Card, tuple[int, int]] = {}  # card -> first, last frame read
        # whole (``_both_indices``)
        self._reading: Reading | None = None
        self._since_whole = 0  # frames since the whole frame was read
        self._spots: dict[int, Point] = {}  # found card -> where its first unsure read was
        self._names: dict[int, Card] = {}  # found card -> the card it was last named
        self._corners: dict[int, Reading] = {}  # found card -> its corners' read that named it
        self._guesses: dict[int, tuple[Card, ...]] = {}  # ... unsure there: its candidates
        self._pips: dict[int, list[int | None]] = {}  # found card -> pips counted on it
        self._pip_reads: dict[int, set[Card]] = {}  # found card -> cards read on it in time
        self._looks: dict[int, Reading] = {}  # found card -> its corners read, as it landed
        self._landing_looks: dict[tuple[float, ...], Reading] = {}  # this frame's, landing
        self._disputed: dict[int, tuple[Card, ...]] = {}  # found card -> what two looks saw
        self._vouches: dict[int, set[Card]] = {}  # found card -> cards its learnt corners name
        self._guess_tried: dict[int, tuple[int, int]] = {}  # found card -> last frame, tries
        self._grey: bool | None = None  # this frame's greyness, judged once if needed
        self._hosts: dict[tuple[Point, ...], tuple[Any, FoundCard | None]] = {}  # ``_placed``
        # found card -> it, its zone, its name, the finder's frame it left (``_note_lifted``)
        self._lifted: dict[int, tuple[FoundCard, str, Card, int]] = {}

    def sightings(self, frame: npt.NDArray[Any]) -> list[Sighting]:
        """What is on the mat in this frame (nothing before the mat has been found)."""
        self.frames += 1
        homography = self.locator.update(frame)
        if homography is None:
            self.frames_without_mat += 1
            return []
        before: list[FoundCard] = []
        if self.finder is not None:
            before = list(self.finder.cards)
            self.finder.update(frame, homography)
        fresh = self._reading is None or not self._still()
        if self._reading is None or fresh:
            self._reading = self._read(frame, homography)
            self.reads += 1
        # else nothing came or went: the last frame's reads stand
        self._since_whole += 1
        self._grey, self._landing_looks, self._hosts = None, {}, {}
        if self.finder is not None:
            self._find_by_indices(self.finder, self._reading, frame, homography, fresh)
        seen = [self._sight(*read, None, frame, homography) for read in _listed(self._reading)]
        for found in self._to_read_at_corner(_named(seen)):  # not named: read where it lies
            read = self._corners.get(found.id) or self._corner_read(frame, homography, found)
            # only a card named counts: an unsure read there leaves the card unread, asked
            # about as such, as where it is not read at all
            looks = [
                self._sight(r.card, (), r.corners, found, frame, homography) for r in read.cards
            ]
            sure = [(s, h) for s, h in looks if s is not None and s.card is not None]
            if sure:  # kept while it lies uncovered, as a still mat's reads are
                self._corners[found.id] = read
            # else offered first if asked about as unread: sure reads the pips or the other
            # look doubted (each with what doubted it), then unsure ones
            elif guesses := _guessed((c for s, _ in looks if s for c in s.candidates), read):
                self._guesses[found.id] = guesses
            seen += sure
        self._names.update(_named(seen))
        seen = [(self._as_named(sighting, h), h) for sighting, h in seen]
        out = [sighting for sighting, _ in seen if sighting is not None]
        self.read_frames.update({h for _, h in seen if h is not None})
        named = _named(seen)
        self.named_frames.update(named.keys())
        if self.finder is not None:
            on_mat = {c.id for c in self.finder.cards}
            self._note_lifted([c for c in before if c.id not in on_mat], self.finder.frame)
            self._spots = {i: p for i, p in self._spots.items() if i in on_mat}
            self._names = {i: c for i, c in self._names.items() if i in on_mat}
            self._corners = {i: r for i, r in self._corners.items() if i in on_mat}
            self._guesses = {i: g for i, g in self._guesses.items() if i in on_mat}
            self._pips = {i: p for i, p in self._pips.items() if i in on_mat}
            self._pip_reads = {i: r for i, r in self._pip_reads.items() if i in on_mat}
            self._looks = {i: r for i, r in self._looks.items() if i in on_mat}
            self._vouches = {i: v for i, v in self._vouches.items() if i in on_mat}
            self._disputed = {i: d for i, d in self._disputed.items() if i in on_mat}
            self._guess_tried = {i: f for i, f in self._guess_tried.items() if i in on_mat}
        unread = self._unread(named, frame, homography) + self._covered_unlaid(named)
        return out + unread + self._lifted_unnamed()

    def _sight(
        self,
        card: Card | None,
        candidates: tuple[Card, ...],
        corners: Sequence[Point],
        host: FoundCard | None,
        frame: npt.NDArray[Any],
        homography: npt.NDArray[np.float64],
    ) -> tuple[Sighting | None, int | None]:
        """One read as a sighting, placed on the mat by its index, and the found card that
        hosts it (``host``, or the one the finder finds there; -1: one still landing),
        witnessed by its pips. A read no found card hosts is hosted by None: asked about
        where no card found accounts for it, else dropped (no sighting)."""
        if host is None:
            index, host = self._placed(corners)
        else:
            index = self.locator.to_mat(np.asarray(corners, np.float64))
        x, y = (float(v) for v in index.mean(axis=0))
        zone = self.mat.zone_at(x, y)
        if self.finder is None:
            return Sighting(card, zone.name if zone else None, (x, y), candidates), None
        if host is None:
            self.dropped += 1
            if zone is None or not self.finder.unaccounted(index):
                return None, None
            # no card found accounts for it: the finder missed it (or a phone shows one):
            # asked about, the read first, never laid; at a found card's corner, where the
            # mat is still changing, its question may be that card's (``Tracker``)
            guess = (card,) if card is not None else candidates
            under = self.finder.cornered(index)
            found = -1 if under is None else under.id
            return Sighting(None, zone.name, (x, y), guess, found=found), None
        if card is not None and host.id in self._disputed:  # two looks disagreed: ask
            candidates, card = self._disputed[host.id], None
        if card is not None and _alone(index, self.finder.cards, host):
            pips = self._pips_on(host, card, frame, homography)
            if not agrees(card.rank, pips) and not self._vouched(host, card, frame, homography):
                # the face says otherwise, and the deck's own corners do not outweigh it: ask
                candidates, card = _witnessed(card, pips), None
            elif other := self._corners_say(host, card, frame, homography):
                candidates, card = (other, card), None  # its corners, read upright, differ
                if host.id >= 0:
                    self._disputed[host.id] = candidates
        found = -1
        if card is None and host.id >= 0:  # either index of it: one question
            x, y = self._spots.setdefault(host.id, (x, y))
            found = host.id  # its question is the card's, were the card also unread
        where = zone.name if zone else None
        return Sighting(card, where, (x, y), candidates, found=found), host.id

    def _find_by_indices(
        self,
        finder: CardFinder,
        reading: Reading,
        frame: npt.NDArray[Any],
        homography: npt.NDArray[np.float64],
        fresh: bool,
    ) -> None:
        """Cards read whole (both corner indices agreeing, where one card's lie) where no card
        was found, in a zone, are found so (``CardFinder.propose``): a card as white as the
        mat laid over part of another changes the mat in no card's shape. Where the frame's
        reader read one index only, the card it would be is read at its corners (every
        ``WHOLE_FRAMES``, ``WHOLE_EVERY``; on frames read afresh, ``fresh``), for the other,
        where no card found accounts for it. A read whole inside a card found (a picture on
        it, or a white card the finder took into its picture of the mat) is judged by its two
        indices' spacing and by ``propose``."""
        for read in reading.cards:
            index, host = self._placed(read.corners)
            if host is not None:
                continue  # a card found hosts it
            x, y = (float(v) for v in index.mean(axis=0))
            if self.mat.zone_at(x, y) is None:
                continue
            opposite = getattr(read, "opposite", ())
            if opposite:
                pair = (index, self.locator.to_mat(np.asarray(opposite, np.float64)))
            elif not fresh or not finder.unaccounted(index):
                continue  # on a card found, the mat unchanged since: not looked for
            elif both := self._both_indices(read.card, card_at(index), frame, homography):
                pair = both
            else:
                continue
            quad = card_between(*pair)
            if quad is None:
                continue
            before = [c.id for c in finder.cards]
            if finder.propose(quad) is not None:
                self.found_by_indices += 1
            if [c.id for c in finder.cards] != before:  # found, or put back: hosts now
                self._hosts = {}

    def _placed(self, corners: Sequence[Point]) -> tuple[Any, FoundCard | None]:
        """A read's index on the mat (mat pixels) and the found card hosting it, worked out
        once a frame: ``_find_by_indices`` and ``_sight`` both ask, of every read."""
        key = tuple(corners)
        if key not in self._hosts:
            index = self.locator.to_mat(np.asarray(corners, np.float64))
            host = None if self.finder is None else self.finder.host(index)
            self._hosts[key] = (index, host)
        return self._hosts[key]

    def _both_indices(
        self,
        card: Card,
        quad: npt.NDArray[np.float64],
        frame: npt.NDArray[Any],
        homography: npt.NDArray[np.float64],
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None:
        """``card``'s two corner indices (mat pixels), read at the corners of the card
        outlined ``quad`` (mat pixels) where they agree; None where they do not, and where
        ``card`` is not to be looked for so in this frame (``WHOLE_FRAMES``)."""
        if getattr(self.recognizer, "read_card", None) is None:
            return None
        first, last = self._whole_tried.get(card, (self.frames, -WHOLE_EVERY))
        if self.frames - last > WHOLE_AGAIN:  # not read so lately: laid again (a new deal)
            first = self.frames
        if self.frames - first > WHOLE_FRAMES and self.frames - last < WHOLE_EVERY:
            return None
        self._whole_tried[card] = (first, self.frames)
        for r in self._read_at(frame, mat_to_frame(quad, homography)).cards:
            opposite = getattr(r, "opposite", ())
            if r.card == card and opposite:
                to_mat = self.locator.to_mat
                return to_mat(np.asarray(r.corners, np.float64)), to_mat(np.asarray(opposite))
        return None

    def _as_named(self, sighting: Sighting | None, host: int | None) -> Sighting | None:
        """An unsure read on a found card named for sure before, leading with that card, is
        its other index: that card (two looks agree; no card not read for sure comes of it).
        So is one at the corner of such a card where the mat still changes or the card's
        outline lies a few mm off it (``CardFinder.cornered``): a deck holds each card once."""
        if sighting is not None and host is None and sighting.found >= 0:
            host = sighting.found
        name = None if host is None else self._names.get(host)
        if sighting is None or sighting.card is not None or name is None:
            return sighting
        if not sighting.candidates or sighting.candidates[0] != name:
            return sighting
        return Sighting(name, sighting.zone, sighting.centre)

    def _to_read_at_corner(self, named: Collection[int]) -> list[FoundCard]:
        """Found cards to read at their own corners this frame: not ``named`` by this frame's
        reads, nor in as many frames as laying a card takes, landed within ``CORNER_FRAMES``,
        with nothing over them."""
        finder = self.finder
        if finder is None or getattr(self.recognizer, "read_card", None) is None:
            return []
        return [
            c
            for c in finder.cards
            if c.id not in named
            and self.named_frames[c.id] < self.tracker.stable
            and finder.frame - c.landed <= CORNER_FRAMES
            and not _covered(c, finder.cards, finder.busy)
        ]

    def _corner_read(
        self, frame: npt.NDArray[Any], homography: npt.NDArray[np.float64], found: FoundCard
    ) -> Reading:
        """The indices read at a found card's corners, the card warped upright first."""
        self.corner_reads += 1
        return self._read_at(frame, _in_frame(found, homography))

    def _read_at(self, frame: npt.NDArray[Any], quad: npt.NDArray[np.float64]) -> Reading:
        """The indices read at the corners of the card outlined ``quad`` (frame pixels)."""
        read_card = getattr(self.recognizer, "read_card")  # noqa: B009 (not in the protocol)
        read: Reading = read_card(frame, quad, self._grey_frame(frame))
        return read

    def _grey_frame(self, frame: npt.NDArray[Any]) -> bool:
        """Whether this frame has no colour, judged once a frame where it is needed."""
        if self._grey is None:
            self._grey = colourless(frame)
        return self._grey

    def _corners_say(
        self,
        found: FoundCard,
        card: Card,
        frame: npt.NDArray[Any],
        homography: npt.NDArray[np.float64],
    ) -> Card | None:
        """Another card that a read at a found card's own corners names (sure, or where none
        is sure, the lead of an unsure one), where the frame's reader named it ``card``
        before it was ever named; None where they agree or the corners read nothing. The
        corners are read once, the first time nothing lies over the card in the
        ``PIP_FRAMES`` after it landed (a card still landing: once a frame), so a misread in
        the frame (a club's three lobes read as a spade's) is asked about rather than laid."""
        finder = self.finder
        assert finder is not None
        if getattr(self.recognizer, "read_card", None) is None or found.id in self._names:
            return None
        if found.id < 0:
            key = tuple(v for point in found.quad for v in point)
            look = self._landing_looks.get(key)
            if look is None:
                look = self._landing_looks[key] = self._corner_read(frame, homography, found)
        else:
            look = self._looks.get(found.id)
            if look is None:
                if finder.frame - found.landed > PIP_FRAMES:
                    return None
                if _covered(found, finder.cards, finder.busy):
                    return None
                look = self._looks[found.id] = self._corner_read(frame, homography, found)
        named = [r.card for r in look.cards]
        named = named or [u.candidates[0] for u in look.uncertain if u.candidates]
        return None if not named or card in named else named[0]

    def _pips_on(
        self,
        found: FoundCard,
        card: Card,
        frame: npt.NDArray[Any],
        homography: npt.NDArray[np.float64],
    ) -> int | None:
        """The most pips counted on a found card (``crib_pi.vision.pips``) in its first
        ``PIP_LOOKS`` looks while no card found later lies over it, nor anything landing or
        passing, in the ``PIP_FRAMES`` after it landed; None where none were, and for a read
        of ``card`` first made on it after those frames. A card still landing gets one look
        a frame."""
        assert self.finder is not None
        if found.id < 0:  # still landing: one look now (the tracker may lay it before found)
            return count_pips(upright(frame, _in_frame(found, homography)))
        looks = self._pips.setdefault(found.id, [])
        read = self._pip_reads.setdefault(found.id, set())
        if self.finder.frame - found.landed > PIP_FRAMES:
            if card not in read:
                return None
        else:
            read.add(card)
            if len(looks) < PIP_LOOKS and not _covered(found, self.finder.cards, self.finder.busy):
                looks.append(count_pips(upright(frame, _in_frame(found, homography))))
        return max((n for n in looks if n is not None), default=None)

    def _vouched(
        self,
        found: FoundCard,
        card: Card,
        frame: npt.NDArray[Any],
        homography: npt.NDArray[np.float64],
    ) -> bool:
        """Whether the deck's learnt corners (a profile's) name ``card``, read on a found card
        whose pips disagree: the index and the deck's own print against a face the deck draws
        unlike a number card's. Looked at while the pips are (``PIP_FRAMES``, nothing over
        the card); a card they once named stays named."""
        vouches = getattr(self.recognizer, "vouches", None)
        assert self.finder is not None
        if vouches is None or card in self._vouches.get(found.id, ()):
            return vouches is not None
        if found.id >= 0 and (
            self.finder.frame - found.landed > PIP_FRAMES
            or _covered(found, self.finder.cards, self.finder.busy)
        ):
            return False
        said = bool(vouches(frame, _in_frame(found, homography), card, self._grey_frame(frame)))
        if said and found.id >= 0:
            self._vouches.setdefault(found.id, set()).add(card)
        return said

    def _read(self, frame: npt.NDArray[Any], homography: npt.NDArray[np.float64]) -> Reading:
        """The whole frame's reads; or, where the finder saw cards land or leave, the reads
        round them taken again and the last frame's kept elsewhere: a card landing costs a
        read of its own part of the picture, not of the whole table."""
        read_region = getattr(self.recognizer, "read_region", None)
        last, finder, box = self._reading, self.finder, None
        around, crop = READ_AROUND_MM * PX_PER_MM, (READ_AROUND_MM + CROP_MM) * PX_PER_MM
        if finder is not None and (finder.busy or finder.cleared) and self._since_whole < REREAD:
            pts = np.concatenate(finder.busy + finder.cleared)
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            box = _image_box(lo - crop, hi + crop, homography, frame.shape)
        if box is None or last is None or read_region is None:
            self._since_whole = 0
            return self.recognizer.read(frame)
        fresh: Reading = read_region(frame, box)
        self.part_reads += 1

        def near(read: Read) -> bool:
            x, y = self.locator.to_mat(np.asarray(read.corners, np.float64)).mean(axis=0)
            return bool(
                lo[0] - around <= x <= hi[0] + around and lo[1] - around <= y <= hi[1] + around
            )

        cards = [r for r in fresh.cards if near(r)]
        named = {r.card for r in cards}
        kept = [r for r in last.cards if not near(r) and r.card not in named]

        def other(u: UnsureRead) -> bool:  # not an index of a card named (decide's rule)
            return not (u.candidates and u.candidates[0] in named)

        unsure = [u for u in fresh.uncertain if near(u) and other(u)]
        unsure += [u for u in last.uncertain if not near(u) and other(u)]
        return Reads(tuple(kept + cards), tuple(unsure))

    def _still(self) -> bool:
        """Whether this frame may keep the last one's reads: a finder saw nothing come, go or
        land, for a recognizer that reads a frame at a time (``every_frame``: a film's truth),
        and the whole frame was read within ``REREAD`` frames."""
        if self.finder is None or getattr(self.recognizer, "every_frame", False):
            return False
        return self.finder.still and self._since_whole < REREAD

    def _unread(
        self,
        named: Collection[int],
        frame: npt.NDArray[Any],
        homography: npt.NDArray[np.float64],
    ) -> list[Sighting]:
        """Cards found on the mat that no index has been read on in as many frames as the
        tracker needs to lay a card (one read in passing, of the card below or of a hand, does
        not make a card read), but for those ``named`` in this frame: unsure, guessed as its
        corners were read (``_guessed``, ``_guess``; else no guess)."""
        if self.finder is None:
            return []
        out = []
        for found in self.finder.cards:
            read = self.read_frames[found.id]
            if read >= self.tracker.stable or found.id in named:
                continue
            zone = self.mat.zone_at(*found.centre, margin_mm=0)
            if zone is not None:
                guess = self._guesses.get(found.id) or self._guess(found, frame, homography)
                out.append(Sighting(None, zone.name, found.centre, guess, True, found.id))
        return out

    def _covered_unlaid(self, named: Collection[int]) -> list[Sighting]:
        """Cards found and named in fewer frames than laying takes, not named now, but read on
        (unsure) in as many, that a card found later lies over before the tracker laid them
        (a crib spread quickly): each is a card laid in its zone, unread, its name offered
        first, so that it is asked about, as a card lifted before it was laid is."""
        if self.finder is None:
            return []
        cards, stable, out = self.finder.cards, self.tracker.stable, []
        for found in cards:
            card = self._names.get(found.id)
            if card is None or found.id in named:
                continue
            if self.named_frames[found.id] >= stable or self.read_frames[found.id] < stable:
                continue  # named enough to be laid; or read too little, unread (``_unread``)
            zone = self.mat.zone_at(*found.centre, margin_mm=0)
            if zone is None or self.tracker.laid.get(card) == zone.name:
                continue
            if _covered(found, cards, ()):
                out.append(Sighting(None, zone.name, found.centre, (card,), True, found.id))
        return out

    def _note_lifted(self, gone: list[FoundCard], frame: int) -> None:
        """Cards found and named by a read, that left (in the finder's ``frame``) before the
        tracker could lay them (a player picks a card up to look at it as soon as it is down):
        each stays a card laid in its zone, unread, for ``stable`` frames, so that it is asked
        about (``Tracker``) and no later card of that zone is taken for it."""
        for found in gone:
            card = self._names.get(found.id)
            zone = self.mat.zone_at(*found.centre, margin_mm=0)
            if card is None or zone is None or self.tracker.laid.get(card) == zone.name:
                continue  # never read (a pack face down), or laid already
            if self.named_frames[found.id] < self.tracker.stable:
                self._lifted[found.id] = (found, zone.name, card, frame)

    def _lifted_unnamed(self) -> list[Sighting]:
        """The cards ``_note_lifted`` keeps, as unread sightings; none where a card has come
        back over its place since (put back, or slid there: its own reads tell)."""
        if self.finder is None or not self._lifted:
            return []
        out = []
        for i, (found, zone, card, left) in list(self._lifted.items()):
            back = any(_overlap(found, c) > 0.5 for c in self.finder.cards if c.landed > left)
            if back or self.finder.frame - left >= self.tracker.stable:
                del self._lifted[i]
            else:
                out.append(Sighting(None, zone, found.centre, (card,), True, found.id))
        return out

    def _guess(
        self, found: FoundCard, frame: npt.NDArray[Any], homography: npt.NDArray[np.float64]
    ) -> tuple[Card, ...]:
        """Candidates for a found card with none, not named since it landed: its corners read
        (where they were not this frame: something lies over it), else the networks asked
        where indices are printed (``guess_card``: a font the glyph finder cuts no index out
        of). Only offered: a card over it may show its own index in its corner. Tried
        ``GUESS_TRIES`` times, ``GUESS_EVERY`` frames apart (a card face down has none)."""
        if getattr(self.recognizer, "read_card", None) is None or self.finder is None:
            return ()
        age = self.finder.frame - found.landed
        last, tries = self._guess_tried.get(found.id, (-GUESS_EVERY, 0))
        if age < 1 or tries >= GUESS_TRIES or self.frames - last < GUESS_EVERY:
            return ()
        self._guess_tried[found.id] = (self.frames, tries + 1)
        guesses: tuple[Card, ...] = ()
        if age > CORNER_FRAMES or _covered(found, self.finder.cards, self.finder.busy):
            read = self._corner_read(frame, homography, found)  # not read this frame yet
            guesses = _guessed((r.card for r in read.cards), read)
        guess_card = getattr(self.recognizer, "guess_card", None)
        if not guesses and guess_card is not None:
            guesses = guess_card(frame, _in_frame(found, homography), self._grey_frame(frame))
        if guesses:
            self._guesses[found.id] = guesses
        return guesses

    @property
    def reading(self) -> Reading | None:
        """The reads in force: the last frame read, or put together from two (``_read``)."""
        return self._reading

    @property
    def found(self) -> list[FoundCard]:
        return [] if self.finder is None else list(self.finder.cards)

    def process(self, frame: npt.NDArray[Any]) -> list[TrackEvent]:
        return self.tracker.update(self.sightings(frame))


@dataclass(frozen=True)
class Reads:
    """A frame's reads put together from two reads (``FramePipeline._read``)."""

    cards: tuple[SureRead, ...]
    uncertain: tuple[UnsureRead, ...]


def _overlap(a: FoundCard, b: FoundCard) -> float:
    """The share of card ``a``'s outline that card ``b``'s covers."""
    area, _ = cv2.intersectConvexConvex(a.outline_mm32, b.outline_mm32)
    return float(area) / max(float(cv2.contourArea(a.outline_mm32)), 1e-6)


def _named(seen: Sequence[tuple[Sighting | None, int | None]]) -> dict[int, Card]:
    """The found cards named by sightings (``FramePipeline._sight``), and the card each."""
    return {
        h: sighting.card
        for sighting, h in seen
        if sighting is not None and sighting.card is not None and h is not None and h >= 0
    }


def _guessed(first: Iterable[Card], read: Reading) -> tuple[Card, ...]:
    """A found card's guesses where its corners named it not: ``first`` (its sure reads, or
    those its pips or its other look doubted, each with what doubted it), then its unsure
    reads' candidates, each once."""
    return tuple(dict.fromkeys([*first, *_candidates(read.uncertain)]))


def _candidates(reads: Sequence[UnsureRead]) -> tuple[Card, ...]:
    """The candidates of unsure reads of one card (its two corners), each once, in order."""
    return tuple(dict.fromkeys(c for read in reads for c in read.candidates))


def _listed(reading: Reading) -> list[tuple[Card | None, tuple[Card, ...], Sequence[Point]]]:
    """A reading's reads as (card or None, candidates, index corners), the sure ones first."""
    return [(r.card, (), r.corners) for r in reading.cards] + [
        (None, u.candidates, u.corners) for u in reading.uncertain
    ]


def _image_box(
    lo: npt.NDArray[np.float64],
    hi: npt.NDArray[np.float64],
    homography: npt.NDArray[np.float64],
    shape: tuple[int, ...],
) -> tuple[int, int, int, int] | None:
    """The frame's pixel box (x0, y0, x1, y1) round the mat's box ``lo``-``hi`` (mat pixels);
    None where it is not in the picture."""
    corners = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]])
    seen = mat_to_frame(corners, homography)
    h, w = shape[:2]
    x0, y0 = np.clip(np.floor(seen.min(axis=0)).astype(int), 0, [w, h])
    x1, y1 = np.clip(np.ceil(seen.max(axis=0)).astype(int) + 1, 0, [w, h])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    return int(x0), int(y0), int(x1), int(y1)


def _alone(index: npt.NDArray[np.float64], cards: Sequence[FoundCard], host: FoundCard) -> bool:
    """Whether ``host`` alone lies under an index (mat pixels): where a card found under it
    lies there too (a card in a row and the next laid over it a little off), the index may be
    either's, and the pips of the one that hosts it witness nothing."""
    x, y = (float(v) for v in index.mean(axis=0))
    under = int(host.id < 0)  # a card still landing is not among those found
    for card in cards:
        quad = np.asarray(card.quad, np.float32)
        under += cv2.pointPolygonTest(quad, (x, y), True) >= -2 * PX_PER_MM
    return under == 1


def _in_frame(found: FoundCard, homography: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """A found card's outline in frame pixels (4 x 2)."""
    return mat_to_frame(found.quad, homography)


def _covered(
    found: FoundCard, cards: Sequence[FoundCard], busy: Sequence[npt.NDArray[np.float64]]
) -> bool:
    """Whether a card found after ``found``, or something landing or passing (``busy``, but
    for ``found`` itself), lies over part of it (3% of it or more)."""
    quad = np.asarray(found.quad, np.float32)
    ids = [c.id for c in cards]
    later = cards[ids.index(found.id) + 1 :] if found.id in ids else []  # found later: on top
    area = cv2.contourArea(quad)
    others = [np.asarray(c.quad, np.float32) for c in later] + [
        np.asarray(b, np.float32)
        for b in busy
        if np.shape(b) != quad.shape or np.abs(np.asarray(b) - quad).max() > 4 * PX_PER_MM
    ]
    for other in others:
        common, _ = cv2.intersectConvexConvex(quad, other)
        if common > 0.03 * area:
            return True
    return False


def _witnessed(card: Card, pips: int | None) -> tuple[Card, ...]:
    """A question's candidates where a read and the pips disagree: the read, then the card
    of as many pips in its suit."""
    if pips is None or not 2 <= pips <= 10:
        return (card,)
    return (card, Card(pips, card.suit))
