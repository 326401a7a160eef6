"""What a person did with a button, worked out from raw line changes and a clock.

Pure logic, no hardware: the GPIO, keyboard and mock adapters feed edges in, the main loop
polls gestures out. Timers (hold, repeat, the double-press window) are processed in time order
however rarely the loop polls, so a slow frame never reorders or loses a gesture.

Rules, per button:
- debounce: a level counts once it has been stable for ``debounce_s``; shorter blips and
  contact bounce are ignored.
- ``press``: released before ``hold_s``. For a button with ``double``, the press is sent only
  when ``double_s`` has passed after the release without a second press.
- ``double``: a second press starts within ``double_s`` of the first release (sent at once).
- ``hold``: still down after ``hold_s`` (sent once), then ``repeat`` every ``repeat_s`` for a
  button with ``repeat``.
- stuck: down for ``stuck_s``, or down when the program starts. It is reported once and sends
  nothing more until it is released, so a shorted line cannot undo a whole game.
"""

from __future__ import annotations

from dataclasses import dataclass

from crib_pi.devices.config import ButtonsConfig, ButtonSpec

GESTURES = ("press", "double", "hold", "repeat")


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A gesture on a named button at a clock time."""

    button: str
    gesture: str
    at: float


class ButtonLogic:
    """The state machine of one button."""

    def __init__(self, spec: ButtonSpec, timing: ButtonsConfig, *, now: float = 0.0) -> None:
        self.spec = spec
        self.timing = timing
        self._raw = False
        self._raw_since = now
        self._down = False
        self._down_since = now
        self._held = False
        self._next_repeat = 0.0
        self._pending: float | None = None
        self._second = False
        self._stuck = False
        self._now = now

    @property
    def stuck(self) -> bool:
        """True from the moment the button is found stuck until it is released."""
        return self._stuck

    @property
    def is_down(self) -> bool:
        return self._down

    def start_down(self, at: float) -> None:
        """The line already reads pressed when the program starts: treat it as stuck."""
        self._raw = self._down = True
        self._raw_since = self._down_since = at
        self._stuck = True

    def edge(self, pressed: bool, at: float) -> list[ButtonEvent]:
        """The raw line changed to ``pressed`` at ``at``; returns gestures completed before it."""
        events = self.advance(at)
        if pressed != self._raw:
            self._raw = pressed
            self._raw_since = max(at, self._now)
        return events

    def advance(self, now: float) -> list[ButtonEvent]:
        """Run every timer due up to ``now`` in time order; return the gestures they finish."""
        events: list[ButtonEvent] = []
        while True:
            due = self._next_due()
            if due is None or due[0] > now:
                break
            self._now = max(self._now, due[0])
            self._fire(due[1], due[0], events)
        self._now = max(self._now, now)
        return events

    def _next_due(self) -> tuple[float, str] | None:
        """The earliest timer: (when, which)."""
        t = self.timing
        timers: list[tuple[float, str]] = []
        if self._raw != self._down:
            timers.append((self._raw_since + t.debounce_s, "settle"))
        if self._down and not self._stuck:
            if not self._held and not self._second:
                timers.append((self._down_since + t.hold_s, "hold"))
            elif self._held and self.spec.repeat:
                timers.append((self._next_repeat, "repeat"))
            timers.append((self._down_since + t.stuck_s, "stuck"))
        if self._pending is not None and not self._down:
            closes = self._pending + t.double_s
            # A second press that started inside the window still counts while it settles.
            if not (self._raw and self._raw_since < closes):
                timers.append((closes, "single"))
        return min(timers) if timers else None

    def _fire(self, which: str, at: float, events: list[ButtonEvent]) -> None:
        name = self.spec.name
        if which == "settle":
            self._accept(self._raw, at, events)
        elif which == "single":
            self._pending = None
            events.append(ButtonEvent(name, "press", at))
        elif which == "stuck":
            self._stuck = True
        elif which == "hold":
            self._held = True
            self._next_repeat = at + self.timing.repeat_s
            events.append(ButtonEvent(name, "hold", at))
        else:
            self._next_repeat = at + self.timing.repeat_s
            events.append(ButtonEvent(name, "repeat", at))

    def _accept(self, pressed: bool, at: float, events: list[ButtonEvent]) -> None:
        name = self.spec.name
        self._down = pressed
        if pressed:
            self._down_since = self._raw_since
            self._held = False
            if self._pending is not None:
                self._pending = None
                self._second = True
                events.append(ButtonEvent(name, "double", at))
            return
        if self._stuck:
            self._stuck = self._held = self._second = False
            return
        if self._second:
            self._second = False
        elif self._held:
            self._held = False
        elif self.spec.double:
            self._pending = at
        else:
            events.append(ButtonEvent(name, "press", at))
