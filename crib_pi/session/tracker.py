"""From per-frame reads to cards laid: only what is read the same way, frame after frame.

Hands pass over the mat, shadows move and cards are slid in crooked, so a single frame is not
to be believed. A card is *laid* when it has been read as the same card in the same zone in
``stable`` consecutive frames. A laid card that vanishes (a hand over it) and comes back is
not laid again. A card the session has set aside (rejected, undone, or left from the last
deal) is ignored until it has been gone from the mat for ``stable`` frames. A spot that keeps
reading as *uncertain* for ``stable`` frames, as long as a card takes to be laid, becomes one
question at once, never a guess (as does a card found with no index ever read on it); a spot
where a laid card lies, read uncertain with that card first (it is now partly under the next
card), is that card and asks nothing. A card found unread whose corner held an uncertain read
from before it was found (read as it landed) is that read's question, asked once.

One index shows one card. A card about to be laid at a place where another card was read for
sure in the last ``2 * stable`` frames, or where a laid card lies (the reads flip: 10C, then
10S), is not laid: the place becomes one ``CardUnsure`` naming both, and what is read there
afterwards, or either card read elsewhere in the zone (the card's other index), lays nothing
until the place has been empty for ``stable`` frames. A laid card read for sure in another
zone is reported once (the table decides: a card cannot be in two places) and stays laid
where it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crib_pi.cards import Card

Point = tuple[float, float]
NEAR = 60.0  # mat pixels (15 mm): uncertain reads this close are the same spot
SAME = 25.0  # mat pixels (6 mm): reads this close are one index (two visible indices are not)
ASKED_ON_FRAMES = 30  # a read asked about at a found card's corner is remembered this long
# after its question (the card is found unread within a few frames), and while it is unread


@dataclass(frozen=True, slots=True)
class Sighting:
    """One card-shaped thing in one frame, in mat coordinates; ``card`` None if unsure.
    ``unread``: a card found on the mat with no index read on it (``centre`` is its middle).
    ``found``: the finder's id of that card, or of the card an unsure read lies on."""

    card: Card | None
    zone: str | None
    centre: Point
    candidates: tuple[Card, ...] = ()
    unread: bool = False
    found: int = -1  # the finder's id of the card (-1: none found, or no finder)


@dataclass(frozen=True, slots=True)
class CardLaid:
    card: Card
    zone: str
    centre: Point


@dataclass(frozen=True, slots=True)
class CardUnsure:
    """A spot read as uncertain in ``stable`` frames, or (``flipped``) read for sure as two
    different cards, or (``unread``) found as a card and not read at all: ask the players which
    card it is."""

    candidates: tuple[Card, ...]
    zone: str
    centre: Point
    flipped: bool = False
    unread: bool = False


@dataclass(frozen=True, slots=True)
class MatCleared:
    """Nothing has been seen in any zone for ``stable`` frames."""


TrackEvent = CardLaid | CardUnsure | MatCleared


@dataclass
class _Unsure:
    zone: str
    centre: Point
    candidates: tuple[Card, ...]
    frames: int = 1
    asked: bool = False
    seen_now: bool = True
    missing: int = 0
    unread: bool = False
    found: int = -1
    first: int = 0  # the tracker's frame it was first seen in


@dataclass
class _Contested:
    """A place read as two different cards: asked about once, nothing laid there."""

    zone: str
    centre: Point
    cards: tuple[Card, ...]
    missing: int = 0


@dataclass
class Tracker:
    """Feed it each frame's sightings with ``update``; it returns what became certain."""

    stable: int = 3
    laid: dict[Card, str] = field(default_factory=dict)
    _streak: dict[tuple[Card, str], int] = field(default_factory=dict)
    _ignored: dict[Card, int] = field(default_factory=dict)  # card -> frames gone
    _unsure: list[_Unsure] = field(default_factory=list)
    _empty_frames: int = 0
    _cleared: bool = True
    _frame: int = 0
    _last_seen: dict[Card, int] = field(default_factory=dict)
    _laid_at: dict[Card, list[Point]] = field(default_factory=dict)  # where read for sure
    _recent: list[tuple[int, Card, str, Point]] = field(default_factory=list)  # sure reads
    _aside: dict[tuple[Card, str], int] = field(default_factory=dict)  # -> frames gone there
    _contested: list[_Contested] = field(default_factory=list)
    _asked_on: dict[int, tuple[int, int]] = field(default_factory=dict)  # found card ->
    # first and asked frames of the unsure read at its corner that was asked about
    _answered_at: dict[Card, Point] = field(default_factory=dict)  # where a card asked
    # about and named by the players was seen (``answered``)

    def to_json(self) -> dict[str, Any]:
        """Everything the tracker knows, so a restarted session carries on exactly."""
        return {
            "stable": self.stable,
            "laid": {str(c): z for c, z in self.laid.items()},
            "streak": [[str(c), z, n] for (c, z), n in self._streak.items()],
            "ignored": {str(c): n for c, n in self._ignored.items()},
            "unsure": [
                {
                    "zone": u.zone,
                    "centre": list(u.centre),
                    "candidates": [str(c) for c in u.candidates],
                    "frames": u.frames,
                    "asked": u.asked,
                    "seen_now": u.seen_now,
                    "missing": u.missing,
                    "unread": u.unread,
                    "found": u.found,
                    "first": u.first,
                }
                for u in self._unsure
            ],
            "empty_frames": self._empty_frames,
            "cleared": self._cleared,
            "frame": self._frame,
            "last_seen": {str(c): n for c, n in self._last_seen.items()},
            "laid_at": {str(c): [list(p) for p in ps] for c, ps in self._laid_at.items()},
            "recent": [[f, str(c), z, list(p)] for f, c, z, p in self._recent],
            "aside": [[str(c), z, n] for (c, z), n in self._aside.items()],
            "contested": [
                [s.zone, list(s.centre), [str(c) for c in s.cards], s.missing]
                for s in self._contested
            ],
            "asked_on": [[f, first, asked] for f, (first, asked) in self._asked_on.items()],
            "answered_at": [[str(c), list(p)] for c, p in self._answered_at.items()],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tracker:
        t = cls(stable=int(data["stable"]))
        t.laid = {Card.parse(c): z for c, z in data["laid"].items()}
        t._streak = {(Card.parse(c), z): int(n) for c, z, n in data["streak"]}
        t._ignored = {Card.parse(c): int(n) for c, n in data["ignored"].items()}
        t._unsure = [
            _Unsure(
                u["zone"],
                (float(u["centre"][0]), float(u["centre"][1])),
                tuple(Card.parse(c) for c in u["candidates"]),
                int(u["frames"]),
                bool(u["asked"]),
                bool(u["seen_now"]),
                int(u["missing"]),
                bool(u.get("unread", False)),
                int(u.get("found", -1)),
                int(u.get("first", 0)),
            )
            for u in data["unsure"]
        ]
        t._empty_frames = int(data["empty_frames"])
        t._cleared = bool(data["cleared"])
        t._frame = int(data["frame"])
        t._last_seen = {Card.parse(c): int(n) for c, n in data["last_seen"].items()}
        t._laid_at = {
            Card.parse(c): [(float(p[0]), float(p[1])) for p in ps]
            for c, ps in data.get("laid_at", {}).items()
        }
        t._recent = [
            (int(f), Card.parse(c), z, (float(p[0]), float(p[1])))
            for f, c, z, p in data.get("recent", [])
        ]
        t._aside = {(Card.parse(c), z): int(n) for c, z, n in data.get("aside", [])}
        t._contested = [
            _Contested(z, (float(p[0]), float(p[1])), tuple(map(Card.parse, cs)), int(n))
            for z, p, cs, n in data.get("contested", [])
        ]
        t._asked_on = {int(f): (int(a), int(b)) for f, a, b in data.get("asked_on", [])}
        t._answered_at = {
            Card.parse(c): (float(p[0]), float(p[1])) for c, p in data.get("answered_at", [])
        }
        return t

    def ignore(self, card: Card) -> None:
        """Set a card aside until it has left the mat (rejected, undone, or last deal's)."""
        self.laid.pop(card, None)
        self._laid_at.pop(card, None)
        self._answered_at.pop(card, None)
        gone = self._frame - self._last_seen.get(card, -self.stable)
        if gone < self.stable:
            self._ignored[card] = gone
        for key in [k for k in self._streak if k[0] == card]:
            del self._streak[key]
        self._recent = [r for r in self._recent if r[1] != card]  # its reads are no evidence

    def answered(self, card: Card, zone: str, centre: Point | None) -> None:
        """The players named ``card`` as the one asked about in ``zone``, seen at ``centre``
        (where known): it lies there, and a card read for sure at that very place later is
        that card misread (an index that reads two ways), asked about, not laid."""
        self.laid[card] = zone
        if centre is not None:
            self._answered_at[card] = centre

    def set_aside(self, card: Card, zone: str) -> None:
        """Lay nothing for ``card`` read in ``zone`` until it has left that zone (a read the
        table doubts); where it is laid, if anywhere, it stays laid."""
        self._aside[(card, zone)] = 0
        self._streak.pop((card, zone), None)

    def ignore_everything(self) -> None:
        """Everything on the mat now is stale: the next deal starts from a clear mat."""
        stale = [c for spot in self._contested for c in spot.cards]
        for card in list(self.laid) + [card for card, _ in self._streak] + stale:
            self.ignore(card)
        for spot in self._unsure:
            spot.asked = True

    def update(self, sightings: list[Sighting]) -> list[TrackEvent]:
        events: list[TrackEvent] = []
        in_zones = [s for s in sightings if s.zone is not None]
        sure: dict[tuple[Card, str], Sighting] = {
            (s.card, s.zone): s for s in in_zones if s.card is not None and s.zone is not None
        }
        seen_cards = {card for card, _ in sure}
        self._frame += 1
        for card in seen_cards:
            self._last_seen[card] = self._frame
        for card in list(self._ignored):
            self._ignored[card] = 0 if card in seen_cards else self._ignored[card] + 1
            if self._ignored[card] >= self.stable:
                del self._ignored[card]
        for key in list(self._aside):
            self._aside[key] = 0 if key in sure else self._aside[key] + 1
            if self._aside[key] >= self.stable:
                del self._aside[key]
        self._age_contested(sightings)
        horizon = self._frame - 2 * self.stable
        self._recent = [r for r in self._recent if r[0] > horizon]
        self._recent += [
            (self._frame, card, zone, s.centre)
            for (card, zone), s in sure.items()
            if card not in self._ignored and (card, zone) not in self._aside
        ]
        streak: dict[tuple[Card, str], int] = {}
        for (card, zone), sighting in sure.items():
            if self.laid.get(card) == zone:  # remember each place it is read (both indices)
                places = self._laid_at.setdefault(card, [])
                if len(places) < 4 and all(_distance(p, sighting.centre) >= NEAR for p in places):
                    places.append(sighting.centre)
            if card in self._ignored or self.laid.get(card) == zone or (card, zone) in self._aside:
                continue
            if self._contested_at(zone, sighting.centre) is not None:
                continue  # a question is out on this place
            if any(spot.zone == zone and card in spot.cards for spot in self._contested):
                continue  # nor laid elsewhere in the zone (the same card's other index?)
            count = self._streak.get((card, zone), 0) + 1
            streak[(card, zone)] = count
            if count < self.stable:
                continue
            del streak[(card, zone)]
            rivals = self._rivals(card, zone, sighting.centre)
            if rivals:
                cards = (card, *rivals)
                self._contested.append(_Contested(zone, sighting.centre, cards))
                events.append(CardUnsure(cards, zone, sighting.centre, flipped=True))
            elif card in self.laid:  # laid elsewhere: report it once, leave it laid there
                self._aside[(card, zone)] = 0
                events.append(CardLaid(card, zone, sighting.centre))
            else:
                self.laid[card] = zone
                self._laid_at[card] = [sighting.centre]
                events.append(CardLaid(card, zone, sighting.centre))
        self._streak = streak
        # a question first: it takes 2 * stable frames to raise and a card stable frames to
        # lay, so the card asked about came to the mat first and is settled first
        events[:0] = self._track_unsure([s for s in in_zones if s.card is None], sure)
        if in_zones:
            self._empty_frames, self._cleared = 0, False
        else:
            self._empty_frames += 1
            if self._empty_frames >= self.stable and not self._cleared:
                self._cleared = True
                events.append(MatCleared())
        return events

    def _rivals(self, card: Card, zone: str, centre: Point) -> tuple[Card, ...]:
        """Other cards read for sure at this very place lately, or laid there (or named there
        by the players, asked about: ``answered``): newest first. A laid card counts where it
        came to rest (read in passing while lifted or slid in elsewhere, it proves nothing
        about those places)."""
        rivals: list[Card] = []
        for _, other, z, place in reversed(self._recent):
            near = z == zone and _distance(place, centre) < SAME
            if near and other != card and other not in rivals:
                rivals.append(other)
        laid = [(c, ps[0]) for c, ps in self._laid_at.items() if ps]
        for other, place in laid + list(self._answered_at.items()):
            near = _distance(place, centre) < SAME
            if near and other != card and other not in rivals and self.laid.get(other) == zone:
                rivals.append(other)
        return tuple(rivals)

    def _contested_at(self, zone: str, centre: Point) -> _Contested | None:
        return next(
            (s for s in self._contested if s.zone == zone and _distance(s.centre, centre) < SAME),
            None,
        )

    def _age_contested(self, sightings: list[Sighting]) -> None:
        """A contested place stays so while anything is read there; then it is forgotten."""
        for spot in self._contested:
            spot.missing += 1
        for s in sightings:
            here = self._contested_at(s.zone, s.centre) if s.zone is not None else None
            if here is not None:
                here.missing = 0
        self._contested = [s for s in self._contested if s.missing < self.stable]

    def _is_laid_card(self, spot: _Unsure) -> bool:
        """An uncertain spot led by a card laid right there in its zone is that card (but
        not a card found as a card, its own guesses notwithstanding: it is a new card)."""
        if not spot.candidates or spot.unread:
            return False
        lead = spot.candidates[0]
        places = self._laid_at.get(lead, [])
        return self.laid.get(lead) == spot.zone and any(
            _distance(p, spot.centre) < NEAR for p in places
        )

    def _track_unsure(
        self, unsure: list[Sighting], sure: dict[tuple[Card, str], Sighting]
    ) -> list[TrackEvent]:
        for old in self._unsure:
            old.seen_now = False
        for sighting in unsure:
            assert sighting.zone is not None
            if self._contested_at(sighting.zone, sighting.centre) is not None:
                continue  # already asked about as a place read two ways
            spot = next(
                (
                    u
                    for u in self._unsure
                    if u.zone == sighting.zone
                    and u.unread == sighting.unread
                    and self._same_card(u, sighting)
                    and _distance(u.centre, sighting.centre) < NEAR
                ),
                None,
            )
            if spot is None:
                self._unsure.append(
                    _Unsure(
                        sighting.zone,
                        sighting.centre,
                        sighting.candidates,
                        unread=sighting.unread,
                        found=sighting.found,
                        first=self._frame,
                    )
                )
            elif not spot.seen_now:
                spot.frames += 1
                spot.seen_now, spot.missing = True, 0
                spot.centre = sighting.centre
                spot.candidates = sighting.candidates or spot.candidates
                spot.found = sighting.found if sighting.found >= 0 else spot.found
        # a spot now read for sure (that very index: a card beside it, as in the spread crib,
        # answers nothing), or gone for a while, stops being a question
        sure_spots = [(s.zone, s.centre) for s in sure.values()]
        for spot in self._unsure:
            spot.missing = 0 if spot.seen_now else spot.missing + 1
        self._unsure = [
            u
            for u in self._unsure
            if u.missing < self.stable
            and not any(z == u.zone and _distance(c, u.centre) < SAME for z, c in sure_spots)
            and not self._is_laid_card(u)
        ]
        events: list[TrackEvent] = []
        for spot in self._unsure:
            if spot.unread and self._read_on(spot):
                continue  # its index, read unsure as it landed, is its question
            # asked as soon as a card would be laid there (issue 31: "asked about at once")
            if spot.frames >= self.stable and not spot.asked:
                spot.asked = True
                events.append(
                    CardUnsure(spot.candidates, spot.zone, spot.centre, unread=spot.unread)
                )
            if spot.asked and not spot.unread and spot.found >= 0:
                self._asked_on.setdefault(spot.found, (spot.first, self._frame))
        horizon, live = self._frame - ASKED_ON_FRAMES, {u.found for u in self._unsure}
        self._asked_on = {f: v for f, v in self._asked_on.items() if f in live or v[1] > horizon}
        return events

    def _same_card(self, spot: _Unsure, sighting: Sighting) -> bool:
        """Whether a sighting at a spot's place may be the spot's card: not where either is a
        card found and the other another card found (a card laid over it, in a pile, shows
        its index at the same place), nor where a read on no card found for longer than a
        card takes to land (``2 * stable`` frames) is now read on a card found: that card is
        one laid over it since."""
        if spot.found == sighting.found or sighting.found < 0:
            return True
        if spot.found >= 0:
            return False
        return not spot.unread and self._frame - spot.first <= 2 * self.stable

    def _read_on(self, unread: _Unsure) -> bool:
        """Whether a card found unread is asked about already as an unsure read at its corner,
        seen from before the card was found (read as it landed, found only once it lay
        still), or will be: one card, one question. A read first seen after it was found is
        no link (a card landing over it, in a pile, shows its index at the same corner)."""
        for spot in self._unsure:
            if not spot.unread and spot.found == unread.found and spot.first <= unread.first:
                return True
        first, _ = self._asked_on.get(unread.found, (unread.first + 1, 0))
        return first <= unread.first


def _distance(a: Point, b: Point) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)
