"""Where each hole of the 121-hole board is on the LED strip.

A strip is laid as ``tracks`` tracks of ``leds_per_track`` LEDs, chained, after
``start_offset`` unused LEDs and with ``track_gap`` unused LEDs between tracks. A track holds
``holes`` holes in rows of ``row_length`` (0: one straight row); with ``serpentine`` every
second row runs backwards, and rows listed in ``reversed_rows`` are flipped as well (for a
row soldered the other way round). Scores past ``holes`` go round again (a 61-hole board
played to 121). Hole 0 is off the board: no LED.

The default: one straight track of 121 LEDs per side, so side ``p``'s hole ``h`` is LED
``p * 121 + h - 1``.
"""

from __future__ import annotations

from dataclasses import dataclass

from crib_pi.devices.config import LedConfig
from crib_pi.devices.errors import DeviceConfigError
from crib_pi.i18n import _


@dataclass(frozen=True, slots=True)
class LedLayout:
    """The mapping from (track, hole) to LED index; checked to fit and not to overlap."""

    tracks: int
    holes: int = 121
    leds_per_track: int = 121
    row_length: int = 0
    serpentine: bool = False
    reversed_rows: tuple[int, ...] = ()
    start_offset: int = 0
    track_gap: int = 0
    shared_track: bool = False
    count: int = 0

    def __post_init__(self) -> None:
        if self.tracks < 1:
            raise DeviceConfigError(
                _("an LED board needs at least one track, not {tracks}").format(tracks=self.tracks)
            )
        if self.holes < 1 or self.leds_per_track < self.holes:
            raise DeviceConfigError(
                _("devices.leds: {holes} holes do not fit {leds} LEDs a track").format(
                    holes=self.holes, leds=self.leds_per_track
                )
            )
        if self.row_length < 0 or self.start_offset < 0 or self.track_gap < 0:
            raise DeviceConfigError(_("devices.leds: row_length, start_offset, track_gap are >= 0"))
        if self.count and self.count < self.needed:
            raise DeviceConfigError(
                _(
                    "devices.leds.count {count} is fewer than the {needed} LEDs the layout needs"
                ).format(count=self.count, needed=self.needed)
            )

    @classmethod
    def from_config(cls, config: LedConfig, sides: int) -> LedLayout:
        """The layout for a game of ``sides`` sides on the configured strip."""
        tracks = 1 if config.shared_track else config.tracks or sides
        if not config.shared_track and tracks < sides:
            raise DeviceConfigError(
                _("the LED board has {tracks} tracks and the game has {sides} sides").format(
                    tracks=tracks, sides=sides
                )
            )
        return cls(
            tracks=tracks,
            holes=config.holes,
            leds_per_track=config.leds_per_track,
            row_length=config.row_length,
            serpentine=config.serpentine,
            reversed_rows=config.reversed_rows,
            start_offset=config.start_offset,
            track_gap=config.track_gap,
            shared_track=config.shared_track,
            count=config.count,
        )

    @property
    def needed(self) -> int:
        """LEDs from the strip's start to the end of the last track."""
        return (
            self.start_offset
            + self.tracks * self.leds_per_track
            + (self.tracks - 1) * (self.track_gap)
        )

    @property
    def size(self) -> int:
        """LEDs on the strip: ``count`` if set, else what the layout needs."""
        return self.count or self.needed

    def track_of(self, side: int) -> int:
        return 0 if self.shared_track else side

    def index(self, side: int, score: int) -> int | None:
        """The LED of ``side``'s peg at ``score`` (None for 0: not on the board yet)."""
        if score <= 0:
            return None
        track = self.track_of(side)
        if not 0 <= track < self.tracks:
            raise DeviceConfigError(
                _("side {side} has no track on a {tracks}-track board").format(
                    side=side, tracks=self.tracks
                )
            )
        pos = (score - 1) % self.holes
        row_len = self.row_length or self.holes
        row, col = divmod(pos, row_len)
        in_row = min(row_len, self.holes - row * row_len)
        if (self.serpentine and row % 2 == 1) != (row in self.reversed_rows):
            col = in_row - 1 - col
        base = self.start_offset + track * (self.leds_per_track + self.track_gap)
        return base + row * row_len + col

    def track_leds(self, side: int) -> list[int]:
        """Every hole's LED of a side's track, hole 1 first."""
        return [i for h in range(1, self.holes + 1) if (i := self.index(side, h)) is not None]
