"""The assistant's main loop: one thread owns the game, the devices and the log.

The camera thread only finds the mat and reads cards in each frame and queues the sightings;
the main loop tracks them, polls the buttons, applies what follows to the game (which commits
each change to the database with the table's state), draws the board, and pings systemd's
watchdog. SIGTERM, Ctrl-C or the window's close button stops it cleanly, with nothing lost.
Other threads (a club's link) hand the main loop work through ``chores``, never touching the
game themselves.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType

import cv2

from crib_pi.devices import Devices
from crib_pi.devices.buttons.logic import ButtonEvent
from crib_pi.mat import Mat
from crib_pi.notify import notify, watchdog_interval
from crib_pi.session.locate import camera_advice
from crib_pi.session.pipeline import FramePipeline, Recognizer
from crib_pi.session.table import Press, TableSession
from crib_pi.session.tracker import Sighting
from crib_pi.snapshot import BoardSnapshot
from crib_pi.voice.speech import Utterance
from crib_pi.voice.words import Announcer, voice_level

log = logging.getLogger("crib_pi.app")
LIVE = "live"  # the session source of games played at the table
PLAYER_GO = {"go1": 0, "go2": 1, "go3": 2, "go4": 3}


def press_from(event: ButtonEvent) -> Press | None:
    """What a button gesture means to the table (a hold of Confirm turns learn mode on or off,
    a hold of Go steps the voice: ``Assistant`` handles both)."""
    if event.button in PLAYER_GO:
        return Press("go", PLAYER_GO[event.button]) if event.gesture == "press" else None
    if event.button not in ("go", "confirm", "undo"):
        return None
    if event.gesture in ("press", "double") or (
        event.button == "undo" and event.gesture in ("hold", "repeat")
    ):
        return Press(event.button)
    return None


@dataclass
class Assistant:
    devices: Devices
    table: TableSession
    recognizer: Recognizer
    fps: float = 10.0
    find_cards: bool = False  # the card finder before reading ([session] find_cards)
    stop: threading.Event = field(default_factory=threading.Event)
    _sightings: queue.Queue[list[Sighting]] = field(default_factory=lambda: queue.Queue(8))
    announcer: Announcer = field(init=False)
    _signalled: int | None = field(default=None, init=False)
    #: Called with each snapshot the screen is shown (the board's web page, crib_pi.web).
    listeners: list[Callable[[BoardSnapshot], None]] = field(default_factory=list)
    #: The line above the board (a club's pairing), asked at each drawing; redrawn when it
    #: changes. Called on the main loop only.
    caption: Callable[[], str] | None = None
    #: Work other threads hand the main loop (a club's pairing has come), done there in order;
    #: each returns whether the board changed.
    chores: queue.Queue[Callable[[], bool]] = field(default_factory=queue.Queue)
    #: Sees each press before the table and returns True when it took it (a club's next game
    #: starts on Confirm once the game is over).
    before_press: Callable[[Press], bool] | None = None
    _caption_shown: str = field(default="", init=False)

    def __post_init__(self) -> None:
        self.announcer = Announcer(self.devices.config.voice.spoken_language())
        self.announcer.after(self.table)  # a resumed game is not said again

    def _camera_loop(self) -> None:
        mat = Mat(self.table.options.players)
        pipeline = FramePipeline(mat, self.recognizer, self.table.tracker, find=self.find_cards)
        period = 1.0 / self.fps
        sized = False
        while not self.stop.is_set():
            started = time.monotonic()
            frame = self.devices.camera.read()
            if frame is not None:
                try:
                    bgr = cv2.cvtColor(frame.image, cv2.COLOR_RGB2BGR)
                    sightings = pipeline.sightings(bgr)
                    if not sized:
                        sized = self._check_card_size(pipeline, bgr.shape)
                    self._sightings.put(sightings, timeout=1)
                except queue.Full:
                    pass  # the main loop is behind: drop a frame rather than lag
                except Exception:
                    log.exception("a camera frame could not be read")
            self.stop.wait(max(0.0, period - (time.monotonic() - started)))

    def _check_card_size(self, pipeline: FramePipeline, shape: tuple[int, ...]) -> bool:
        """Once the mat is found, say (once) if cards come out too small to be read well."""
        card_px = pipeline.locator.card_width_px()
        if card_px is None:
            return False
        advice = camera_advice(card_px, (shape[1], shape[0]))
        if advice:
            self.devices.reporter.problem("camera", advice)
        return True

    def run(self, *, service: bool = False) -> None:
        """Run until ``stop`` is set, SIGTERM or SIGINT comes, or the window is closed."""
        self._handle_signals()
        camera = threading.Thread(target=self._camera_loop, name="camera", daemon=True)
        camera.start()
        self.show()
        if service:
            notify("READY=1\nSTATUS=keeping score")
        ping = watchdog_interval() if service else None
        last_ping = 0.0
        try:
            while not self.stop.is_set() and self._signalled is None:
                if self.devices.screen.pump():  # the window's close button
                    break
                changed = self._chores()
                changed = self._step() or changed
                if changed:
                    self.table.log.commit((LIVE, 0, self.table.state()))
                    self.show()
                    self.speak()
                elif self.caption is not None and self.caption() != self._caption_shown:
                    self.show()
                if ping is not None and time.monotonic() - last_ping >= ping:
                    notify("WATCHDOG=1")
                    last_ping = time.monotonic()
                self.stop.wait(0.02)
        finally:
            if service:
                notify("STOPPING=1")
            self.stop.set()
            camera.join(timeout=2)
            self.table.log.commit((LIVE, 0, self.table.state()))

    def show(self) -> None:
        """The board on the screen, and the same snapshot to each listener; a listener that
        fails is logged, never stops the game."""
        snapshot = self.table.snapshot()
        if self.caption is not None:
            self._caption_shown = self.caption()
            snapshot = dataclasses.replace(snapshot, caption=self._caption_shown)
        self.devices.show(snapshot)
        for listener in self.listeners:
            try:
                listener(snapshot)
            except Exception:
                log.exception("a board listener failed")

    def _chores(self) -> bool:
        """Do what other threads handed in; one that fails is logged, never stops the game."""
        changed = False
        while True:
            try:
                chore = self.chores.get_nowait()
            except queue.Empty:
                return changed
            try:
                changed = bool(chore()) or changed
            except Exception:
                log.exception("a chore from another thread failed")

    def new_table(self, table: TableSession) -> None:
        """Play ``table``'s game from now on (a club's next pairing): the old game's log is
        committed as it stands, and the voice starts afresh. ``table`` must share the old one's
        tracker, which the camera thread's pipeline holds."""
        if table.tracker is not self.table.tracker:
            raise ValueError("the new table must keep the camera's tracker")
        self.table.log.commit((LIVE, 0, self.table.state()))
        self.table = table
        self.announcer = Announcer(self.devices.config.voice.spoken_language())
        self.announcer.after(table)

    def _step(self) -> bool:
        changed = False
        while True:
            try:
                sightings = self._sightings.get_nowait()
            except queue.Empty:
                break
            for event in self.table.tracker.update(sightings):
                self.table.on_track(event)
                changed = True
        for gesture in self.devices.buttons.poll():
            if gesture.button == "go" and gesture.gesture == "hold":
                self.next_voice_level()
                continue
            if gesture.button == "confirm" and gesture.gesture == "hold":
                self.table.toggle_learn()
                changed = True
                continue
            press = press_from(gesture)
            if press is not None:
                if self.before_press is None or not self.before_press(press):
                    self.table.on_press(press)
                changed = True
        return changed

    def speak(self) -> None:
        """Hand the voice what is new at the table (it queues it and returns at once)."""
        narration = self.announcer.after(self.table)
        voice = self.devices.voice
        if narration.withdraw:
            voice.withdraw(set(narration.withdraw))
        for utterance in narration.say:
            voice.say(utterance)

    def next_voice_level(self) -> None:
        """A hold of Go: the voice goes off, quiet, normal, loud, off... and says its level."""
        level = self.devices.voice.next_level()
        if level > 0:
            text = voice_level(level, self.announcer.language)
            self.devices.voice.say(Utterance(text, "voice", "voice"))

    @property
    def signalled(self) -> int | None:
        """The signal that stopped the loop (SIGTERM, SIGINT), or None."""
        return self._signalled

    def _handle_signals(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return

        def stop(signum: int, frame: FrameType | None) -> None:
            # Only a plain assignment here: the handler runs on the main thread between two
            # bytecodes, possibly inside ``self.stop.wait()`` holding the Event's lock, and
            # ``Event.set()`` would then wait for that lock forever. The loop sets the Event.
            self._signalled = signum

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)


def describe(devices: Devices) -> list[str]:
    """One line per device problem, for the start-up message."""
    return [str(p) for p in devices.problems]
