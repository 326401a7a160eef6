"""The voice: a queue of sentences said one at a time on a worker thread.

``say`` never waits: it puts the sentence on the queue and returns, so the main loop keeps its
pace whatever the speaker does. One worker says one sentence at a time, so the table never
talks over itself. Each sentence has a ``key``: a new sentence with the key of one still
waiting replaces it (a count taken back and pegged again is said once, as it now stands; a
question's new choice replaces the old one), and ``withdraw`` drops waiting sentences that no
longer hold (an undone score). A sentence already being said is finished.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crib_pi.i18n import _

if TYPE_CHECKING:
    from crib_pi.devices.report import Reporter
    from crib_pi.voice.speakers import Speaker

#: Volume steps that a hold of the Go button goes through (0 is off).
LEVELS = (0.0, 0.4, 0.7, 1.0)


@dataclass(frozen=True, slots=True)
class Utterance:
    """One sentence to say: ``kind`` is ``score``, ``count``, ``muggins``, ``question``,
    ``end``, ``voice`` or ``lesson`` (learn mode); sentences with the same ``key`` replace each
    other while unsaid."""

    text: str
    kind: str
    key: str


class VoiceLike:
    """What the main loop asks of a voice (``Voice`` and ``NullVoice`` both do it)."""

    enabled: bool = False
    volume: float = 0.0
    language: str = "en"

    def say(self, utterance: Utterance) -> None:
        return None

    def withdraw(self, keys: set[str]) -> None:
        return None

    def next_level(self) -> float:
        return 0.0

    def wait_idle(self, timeout: float = 10.0) -> bool:
        return True

    def close(self) -> None:
        return None


class NullVoice(VoiceLike):
    """No audio output or no espeak-ng: nothing is said and nothing waits."""


class Voice(VoiceLike):
    """A speaker behind a queue and one worker thread (started on the first sentence)."""

    def __init__(
        self,
        speaker: Speaker,
        *,
        language: str = "en",
        volume: float = 0.7,
        enabled: bool = True,
        reporter: Reporter | None = None,
    ) -> None:
        self.speaker = speaker
        self.language = language
        self.volume = volume
        self.enabled = enabled
        if reporter is None:
            from crib_pi.devices.report import Reporter

            reporter = Reporter()
        self.reporter = reporter
        self.replaced = 0  # sentences replaced or withdrawn before they were said
        self._pending: list[Utterance] = []
        self._speaking = False
        self._closed = False
        self._failed = False
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    # -- the main loop's side ------------------------------------------------------------

    def say(self, utterance: Utterance) -> None:
        """Queue ``utterance`` (replacing a waiting one with its key); returns at once."""
        if not self.enabled or self._closed:
            return
        with self._wake:
            kept = [u for u in self._pending if u.key != utterance.key]
            self.replaced += len(self._pending) - len(kept)
            self._pending = [*kept, utterance]
            self._wake.notify()
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="voice", daemon=True)
            self._thread.start()

    def withdraw(self, keys: set[str]) -> None:
        """Drop waiting sentences with these keys (what they said has been undone)."""
        with self._wake:
            kept = [u for u in self._pending if u.key not in keys]
            self.replaced += len(self._pending) - len(kept)
            self._pending = kept

    def next_level(self) -> float:
        """Go to the next volume step (off, quiet, normal, loud, off...); the new volume."""
        current = self.volume if self.enabled else 0.0
        higher = [v for v in LEVELS if v > current + 1e-6]
        level = higher[0] if higher else 0.0
        self.enabled = level > 0
        if self.enabled:
            self.volume = level
        else:
            with self._wake:
                self.replaced += len(self._pending)
                self._pending = []
        return level

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until everything queued has been said (tests, shutting down)."""
        with self._wake:
            return self._wake.wait_for(lambda: not self._pending and not self._speaking, timeout)

    def close(self) -> None:
        """Stop after the sentence being said; what waits is dropped. Safe to call twice."""
        with self._wake:
            self._closed = True
            self._pending = []
            self._wake.notify_all()
        self.speaker.close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # -- the worker ----------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: bool(self._pending) or self._closed)
                if self._closed:
                    return
                utterance = self._pending.pop(0)
                self._speaking = True
                language, volume = self.language, self.volume
            try:
                self.speaker.speak(utterance.text, language, volume)
            except Exception as exc:  # a voice that fails must not stop the table
                if not self._failed:
                    self._failed = True
                    trying = _("could not speak ({exc}); still trying").format(exc=exc)
                    self.reporter.problem("voice", trying)
            finally:
                with self._wake:
                    self._speaking = False
                    self._wake.notify_all()
