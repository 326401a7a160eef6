"""One camera frame through the session: find the mat, find the cards, read them, track.

The recognizer is anything with ``read(bgr) -> Recognition`` (``crib_pi.vision.Recognizer``);
reads are placed on the mat by the centre of their index corner. With a card finder
(``crib_pi.vision.finder``; ``find=True``) what is on the mat is decided by presence, not by
reads: a read counts only at the corner of a card found on the mat (a picture of a card, on a
card back, a box or a poster, is no card), and a card found and not read is reported as an
unsure sighting with no candidates, so that the table asks about it rather than miss it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from crib_pi.cards import Card
from crib_pi.mat import Mat
from crib_pi.session.locate import MatLocator
from crib_pi.session.tracker import Sighting, Tracker, TrackEvent
from crib_pi.vision.finder import CardFinder, FoundCard

Point = tuple[float, float]
REREAD = 20
"""Frames the reads of a still mat are kept before they are read again (2 s at 10 fps)."""


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
        self.dropped = 0  # reads on no found card's corner (pictures of cards, hands, ...)
        self.reads = 0  # frames read by the recognizer (the others kept the last frame's)
        self._reading: Reading | None = None
        self._since_read = 0

    def sightings(self, frame: npt.NDArray[Any]) -> list[Sighting]:
        """What is on the mat in this frame (nothing before the mat has been found)."""
        self.frames += 1
        homography = self.locator.update(frame)
        if homography is None:
            self.frames_without_mat += 1
            return []
        if self.finder is not None:
            self.finder.update(frame, homography)
        if self._reading is None or not self._still():
            self._reading = self.recognizer.read(frame)
            self.reads += 1
            self._since_read = 0
        else:  # nothing came or went: the last frame's reads stand
            self._since_read += 1
        reading = self._reading
        reads: list[tuple[Card | None, tuple[Card, ...], Sequence[Point]]] = [
            (r.card, (), r.corners) for r in reading.cards
        ] + [(None, u.candidates, u.corners) for u in reading.uncertain]
        out, hosted = [], set()
        for card, candidates, corners in reads:
            index = self.locator.to_mat(np.asarray(corners, np.float64))
            x, y = (float(v) for v in index.mean(axis=0))
            zone = self.mat.zone_at(x, y)
            if self.finder is not None:
                host = self.finder.host(index)
                if host is None:
                    self.dropped += 1
                    if self.finder.unaccounted(index) and zone is not None:
                        # no card found accounts for it: the finder missed it (or a phone
                        # shows one): asked about, the read first, never laid
                        guess = (card,) if card is not None else candidates
                        out.append(Sighting(None, zone.name, (x, y), guess))
                    continue
                hosted.add(host.id)  # -1: a card still landing
            out.append(Sighting(card, zone.name if zone else None, (x, y), candidates))
        self.read_frames.update(hosted)
        return out + self._unread()

    def _still(self) -> bool:
        """Whether this frame may keep the last one's reads: a finder saw nothing come, go or
        land, for a recognizer that reads a frame at a time (``every_frame``: a film's truth),
        and the reads are not older than ``REREAD`` frames."""
        if self.finder is None or getattr(self.recognizer, "every_frame", False):
            return False
        return self.finder.still and self._since_read < REREAD

    def _unread(self) -> list[Sighting]:
        """Cards found on the mat that no index has been read on in as many frames as the
        tracker needs to lay a card (one read in passing, of the card below or of a hand, does
        not make a card read): unsure, with no guess."""
        if self.finder is None:
            return []
        out = []
        for found in self.finder.cards:
            if self.read_frames[found.id] >= self.tracker.stable:
                continue
            zone = self.mat.zone_at(*found.centre, margin_mm=0)
            if zone is not None:
                out.append(Sighting(None, zone.name, found.centre, (), True, found.id))
        return out

    @property
    def found(self) -> list[FoundCard]:
        return [] if self.finder is None else list(self.finder.cards)

    def process(self, frame: npt.NDArray[Any]) -> list[TrackEvent]:
        return self.tracker.update(self.sightings(frame))
