"""Speakers make the sound of one sentence and return when it has been said.

``EspeakSpeaker`` runs Debian's ``espeak-ng`` (on Pi OS too) in a subprocess, with its
English or French voice; ``MockSpeaker`` says nothing and records what it was asked, with
when it started and finished, so tests can check that nothing overlapped or was lost.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from crib_pi.i18n import _

#: espeak-ng's voice for each language the table speaks.
ESPEAK_VOICES = {"en": "en-gb", "fr": "fr-fr"}
ASOUND_CARDS = Path("/proc/asound/cards")


class Speaker(Protocol):
    """Says one sentence, returning once it is said (the voice's worker thread waits)."""

    def speak(self, text: str, language: str, volume: float) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Said:
    """One sentence a mock speaker was asked to say, and when (``time.monotonic``)."""

    text: str
    language: str
    volume: float
    start: float
    end: float


class MockSpeaker:
    """Records each sentence; ``seconds`` (per sentence) stands for the time speech takes."""

    def __init__(self, seconds: float = 0.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self.said: list[Said] = []
        self.closed = 0
        self._lock = threading.Lock()
        self._busy = False

    def speak(self, text: str, language: str, volume: float) -> None:
        with self._lock:
            if self._busy:  # pragma: no cover - would mean two threads speak at once
                raise RuntimeError(_("the mock speaker was asked to talk over itself"))
            self._busy = True
        start = self.clock()
        if self.seconds:
            time.sleep(self.seconds)
        self.said.append(Said(text, language, volume, start, self.clock()))
        with self._lock:
            self._busy = False

    @property
    def texts(self) -> list[str]:
        return [s.text for s in self.said]

    def close(self) -> None:
        self.closed += 1


class EspeakSpeaker:
    """espeak-ng through ``subprocess``: amplitude from the volume (0 to 1 -> 0 to 200)."""

    def __init__(self, *, speed: int = 160, voices: dict[str, str] | None = None) -> None:
        from crib_pi.devices.errors import DeviceUnavailableError

        found = shutil.which("espeak-ng")
        if found is None:
            reason = _("espeak-ng is not installed (apt install espeak-ng)")
            raise DeviceUnavailableError("voice", reason)
        self.program = found
        self.speed = speed
        self.voices = voices or ESPEAK_VOICES
        self._process: subprocess.Popen[bytes] | None = None

    def command(
        self, text: str, language: str, volume: float, wav: Path | None = None
    ) -> list[str]:
        """The espeak-ng command line that says ``text`` (or writes it to ``wav``)."""
        voice = self.voices.get(language, language)
        amplitude = str(round(max(0.0, min(1.0, volume)) * 200))
        out = ["-w", str(wav)] if wav is not None else []
        return [self.program, "-v", voice, "-a", amplitude, "-s", str(self.speed), *out, "--", text]

    def speak(self, text: str, language: str, volume: float) -> None:
        self._run(self.command(text, language, volume))

    def write_wav(self, text: str, language: str, volume: float, wav: Path) -> None:
        """Say ``text`` into a WAV file instead of the speaker (tests, benchmarks)."""
        self._run(self.command(text, language, volume, wav))

    def _run(self, command: list[str]) -> None:
        self._process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        _out, err = self._process.communicate()
        code, self._process = self._process.returncode, None
        if code != 0:
            said = err.decode(errors="replace").strip().splitlines()[-1:]
            reason = said or [_("exit {code}").format(code=code)]
            raise OSError(_("espeak-ng failed: {reason}").format(reason=reason[0]))

    def close(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            process.terminate()


def has_audio_output() -> bool:
    """False when Linux lists no sound card (``/proc/asound/cards``); True elsewhere."""
    try:
        cards = ASOUND_CARDS.read_text(errors="replace")
    except OSError:
        return not sys.platform.startswith("linux")
    return "no soundcards" not in cards.lower() and bool(cards.strip())
