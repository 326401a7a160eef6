"""The LED board: turns snapshots into frames on a strip, animated, limited and fail-safe.

``show(snapshot)`` queues the frames (a move animation, or the win loop) and ``tick()`` from
the main loop sends whichever is due; nothing here sleeps, so the game never waits on LEDs.
Every frame passes ``PowerLimit`` before the strip sees it. A strip that raises is reported
once and then left alone: the game goes on without LEDs.
"""

from __future__ import annotations

import dataclasses

from crib_pi.devices.clock import Clock
from crib_pi.devices.config import LedConfig
from crib_pi.devices.errors import DeviceConfigError
from crib_pi.devices.leds.base import LedStrip
from crib_pi.devices.leds.frame import OFF, Frame, LedStyle, move_frames, render_frame, win_frames
from crib_pi.devices.leds.layout import LedLayout
from crib_pi.devices.leds.power import PowerLimit
from crib_pi.devices.report import Reporter
from crib_pi.devices.snapshot_view import winning_side
from crib_pi.i18n import _
from crib_pi.snapshot import BoardSnapshot


class LedBoard:
    """A strip showing the board."""

    def __init__(self, strip: LedStrip, config: LedConfig, clock: Clock, reporter: Reporter):
        self.strip = strip
        self.config = config
        self.clock = clock
        self.reporter = reporter
        self.style = LedStyle.from_config(config)
        self.power = PowerLimit.from_config(config)
        if strip.count * config.idle_ma_per_led >= config.max_amps * 1000:
            raise DeviceConfigError(
                _("devices.leds: {count} idle LEDs alone draw more than max_amps").format(
                    count=strip.count
                )
            )
        self.last_frame: Frame = ()
        self._queue: list[tuple[float, Frame]] = []
        self._loop: list[Frame] = []
        self._before: BoardSnapshot | None = None
        self._failed = False
        self._closed = False

    def layout(self, snapshot: BoardSnapshot) -> LedLayout:
        """The layout for this game's sides on this strip."""
        config = dataclasses.replace(self.config, count=self.strip.count)
        return LedLayout.from_config(config, len(snapshot.sides))

    def frame(self, snapshot: BoardSnapshot) -> Frame:
        """The still frame for ``snapshot`` as the strip would get it (limited)."""
        return self.power.apply(render_frame(snapshot, self.layout(snapshot), self.style))

    def show(self, snapshot: BoardSnapshot) -> None:
        """Show a new board state: animate a moved peg, loop the win display after a win."""
        if self._closed or self._failed:
            return
        try:
            layout = self.layout(snapshot)
        except DeviceConfigError as exc:
            self._fail(_("cannot show this game: {exc}").format(exc=exc))
            return
        before, self._before = self._before, snapshot
        same_game = before is not None and len(before.sides) == len(snapshot.sides)
        if before is not None and same_game:
            frames = move_frames(before, snapshot, layout, self.style)
        else:
            frames = [render_frame(snapshot, layout, self.style)]
        won = winning_side(snapshot) is not None
        self._loop = win_frames(snapshot, layout, self.style) if won else []
        now = self.clock.now()
        self._queue = [(now + i * self.config.frame_s, f) for i, f in enumerate(frames)]
        self.tick()

    def tick(self) -> None:
        """Send the frame that is due now, if any; the main loop calls this often."""
        if self._closed or self._failed:
            return
        now = self.clock.now()
        due = [f for t, f in self._queue if t <= now]
        self._queue = [(t, f) for t, f in self._queue if t > now]
        if not self._queue and self._loop and not due:
            step = self.config.frame_s * 2
            self._queue = [(now + i * step, f) for i, f in enumerate(self._loop)]
            due = [self._queue.pop(0)[1]]
        if due:
            self._send(due[-1])

    @property
    def busy(self) -> bool:
        """True while an animation still has frames to send."""
        return bool(self._queue)

    def _send(self, frame: Frame) -> None:
        limited = self.power.apply(frame)
        try:
            self.strip.show(limited)
        except Exception as exc:  # any driver failure: the game must go on
            self._fail(
                _("the strip stopped answering ({exc}); the game goes on without LEDs").format(
                    exc=exc
                )
            )
            return
        self.last_frame = limited

    def _fail(self, message: str) -> None:
        self._failed = True
        self.reporter.problem("leds", message)

    def close(self) -> None:
        """Turn every LED off and release the strip; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            if not self._failed:
                self.strip.show((OFF,) * self.strip.count)
        except Exception as exc:
            off = _("could not turn the strip off ({exc})").format(exc=exc)
            self.reporter.problem("leds", off)
        finally:
            self.strip.close()
