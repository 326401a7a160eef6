"""Real espeak-ng: a count said in English and in French comes out as a WAV that is not
silent and lasts as long as speech of that length should (skipped without espeak-ng)."""

from __future__ import annotations

import array
import shutil
import wave
from pathlib import Path

import pytest

from crib_pi.voice.speakers import EspeakSpeaker

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (apt install espeak-ng)"
)

COUNTS = {
    "en": "Player 2's hand: fifteen two, fifteen four, and a pair is six",
    "fr": "la main de Joueur 2: quinze deux, quinze quatre, et une paire font six",
}


def measure(path: Path) -> tuple[float, float]:
    """Seconds and root-mean-square level (0 to 1) of a 16-bit mono WAV."""
    with wave.open(str(path)) as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / wav.getframerate()
    samples = array.array("h", frames)
    rms = (sum(s * s for s in samples) / max(1, len(samples))) ** 0.5 / 32768
    return seconds, rms


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_count_is_written_as_plausible_non_silent_speech(tmp_path: Path, language: str) -> None:
    speaker = EspeakSpeaker(speed=160)
    wav = tmp_path / f"{language}.wav"
    speaker.write_wav(COUNTS[language], language, 0.7, wav)
    seconds, rms = measure(wav)
    words = len(COUNTS[language].split())
    assert words / 160 * 60 * 0.5 < seconds < words / 160 * 60 * 2.5  # about 160 words a minute
    assert rms > 0.01  # speech, not silence


def test_volume_sets_espeak_s_amplitude(tmp_path: Path) -> None:
    speaker = EspeakSpeaker()
    quiet, loud = tmp_path / "quiet.wav", tmp_path / "loud.wav"
    speaker.write_wav("fifteen two", "en", 0.2, quiet)
    speaker.write_wav("fifteen two", "en", 1.0, loud)
    assert measure(loud)[1] > 2 * measure(quiet)[1]
    assert speaker.command("go", "fr", 0.5)[1:5] == ["-v", "fr-fr", "-a", "100"]


def test_a_failing_espeak_is_a_clear_error(tmp_path: Path) -> None:
    speaker = EspeakSpeaker()
    speaker.program = shutil.which("false") or "/bin/false"
    with pytest.raises(OSError, match="espeak-ng failed: exit 1"):
        speaker.write_wav("go", "en", 0.5, tmp_path / "x.wav")
