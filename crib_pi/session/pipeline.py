"""One camera frame through the session: find the mat, read the cards, track, say what changed.

The recognizer is anything with ``read(bgr) -> Recognition`` (``crib_pi.vision.Recognizer``);
reads are placed on the mat by the centre of their index corner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from crib_pi.cards import Card
from crib_pi.mat import Mat
from crib_pi.session.locate import MatLocator
from crib_pi.session.tracker import Sighting, Tracker, TrackEvent

Point = tuple[float, float]


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
    """Mat locator + recognizer + tracker, one frame at a time."""

    def __init__(self, mat: Mat, recognizer: Recognizer, tracker: Tracker) -> None:
        self.mat = mat
        self.locator = MatLocator(mat)
        self.recognizer = recognizer
        self.tracker = tracker
        self.frames = 0
        self.frames_without_mat = 0

    def sightings(self, frame: npt.NDArray[Any]) -> list[Sighting]:
        """What is on the mat in this frame (nothing before the mat has been found)."""
        self.frames += 1
        if self.locator.update(frame) is None:
            self.frames_without_mat += 1
            return []
        reading = self.recognizer.read(frame)
        reads: list[tuple[Card | None, tuple[Card, ...], Sequence[Point]]] = [
            (r.card, (), r.corners) for r in reading.cards
        ] + [(None, u.candidates, u.corners) for u in reading.uncertain]
        if not reads:
            return []
        centres = np.array([np.mean(np.asarray(c, np.float64), axis=0) for _, _, c in reads])
        on_mat = self.locator.to_mat(centres)
        out = []
        for (card, candidates, _), (x, y) in zip(reads, on_mat, strict=True):
            zone = self.mat.zone_at(float(x), float(y))
            out.append(
                Sighting(card, zone.name if zone else None, (float(x), float(y)), candidates)
            )
        return out

    def process(self, frame: npt.NDArray[Any]) -> list[TrackEvent]:
        return self.tracker.update(self.sightings(frame))
