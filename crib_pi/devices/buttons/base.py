"""Buttons as the main loop sees them: named gestures out of ``poll()``.

``ButtonSet`` owns one ``ButtonLogic`` per button. Adapters (GPIO, keyboard, mock) only call
``edge()``, from any thread; edges wait in a queue until the main loop's ``poll()``, so the
thread that owns the game is the only one that runs the logic.
"""

from __future__ import annotations

import queue
from collections.abc import Iterable
from typing import Protocol

from crib_pi.devices.buttons.logic import ButtonEvent, ButtonLogic
from crib_pi.devices.clock import Clock
from crib_pi.devices.config import ButtonsConfig
from crib_pi.devices.errors import DeviceConfigError
from crib_pi.devices.report import Reporter
from crib_pi.i18n import _


class Buttons(Protocol):
    """What every button device offers."""

    @property
    def names(self) -> tuple[str, ...]: ...

    def poll(self) -> list[ButtonEvent]: ...

    def close(self) -> None: ...


class ButtonSet:
    """Gesture logic for a set of named buttons, fed by edges from any thread."""

    def __init__(
        self,
        config: ButtonsConfig,
        names: Iterable[str],
        clock: Clock,
        reporter: Reporter,
        labels: dict[str, str] | None = None,
    ) -> None:
        self.config = config
        self.clock = clock
        self.reporter = reporter
        now = clock.now()
        self._logic = {name: ButtonLogic(config.spec(name), config, now=now) for name in names}
        self._labels = labels or {}
        self._edges: queue.SimpleQueue[tuple[str, bool, float]] = queue.SimpleQueue()
        self._stuck_told: set[str] = set()
        self.closed = False

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._logic)

    def label(self, name: str) -> str:
        """How a person finds the button: ``go (GPIO 17)`` or ``go (key space)``."""
        where = self._labels.get(name)
        return f"{name} ({where})" if where else name

    def edge(self, name: str, pressed: bool, at: float | None = None) -> None:
        """The raw line of ``name`` changed; safe to call from a callback thread."""
        if name not in self._logic:
            raise DeviceConfigError(_("no button named {name!r}").format(name=name))
        self._edges.put((name, pressed, self.clock.now() if at is None else at))

    def start_pressed(self, name: str) -> None:
        """``name`` reads pressed at start: stuck or held. Ignored until released."""
        self._logic[name].start_down(self.clock.now())
        self._tell_stuck(name, _("reads pressed at start (line stuck low, or held down)"))

    def poll(self) -> list[ButtonEvent]:
        """Every gesture finished up to now, oldest first."""
        events: list[ButtonEvent] = []
        pending: list[tuple[str, bool, float]] = []
        while True:
            try:
                pending.append(self._edges.get_nowait())
            except queue.Empty:
                break
        for name, pressed, at in sorted(pending, key=lambda e: e[2]):
            events += self._logic[name].edge(pressed, at)
        now = self.clock.now()
        for name, logic in self._logic.items():
            events += logic.advance(now)
            if logic.stuck and name not in self._stuck_told:
                held = _("held for {seconds} s (line stuck low?)")
                self._tell_stuck(name, held.format(seconds=f"{self.config.stuck_s:g}"))
            elif not logic.stuck:
                self._stuck_told.discard(name)
        events.sort(key=lambda e: e.at)
        return events

    def _tell_stuck(self, name: str, why: str) -> None:
        self._stuck_told.add(name)
        self.reporter.problem(
            f"button {name}",
            _("{button} {why}; ignored until it is released").format(
                button=self.label(name), why=why
            ),
        )

    def close(self) -> None:
        self.closed = True


class MockButtons(ButtonSet):
    """Buttons pressed by tests; keeps every edge it was given and every gesture it sent."""

    def __init__(
        self, config: ButtonsConfig, names: Iterable[str], clock: Clock, reporter: Reporter
    ) -> None:
        super().__init__(config, names, clock, reporter)
        self.edges: list[tuple[str, bool, float]] = []
        self.sent: list[ButtonEvent] = []

    def edge(self, name: str, pressed: bool, at: float | None = None) -> None:
        when = self.clock.now() if at is None else at
        self.edges.append((name, pressed, when))
        super().edge(name, pressed, when)

    def press(self, name: str) -> None:
        self.edge(name, True)

    def release(self, name: str) -> None:
        self.edge(name, False)

    def poll(self) -> list[ButtonEvent]:
        events = super().poll()
        self.sent += events
        return events
