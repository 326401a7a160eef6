"""The voice's queue: never blocks the caller, never talks over itself, a new sentence with
the key of an unsaid one replaces it, and an undone score is withdrawn before it is said."""

from __future__ import annotations

import threading

import pytest

from crib_pi.actions import GameOptions
from crib_pi.app import Assistant
from crib_pi.devices import make_devices
from crib_pi.devices.config import DeviceConfig
from crib_pi.devices.errors import DeviceConfigError
from crib_pi.session.pipeline import NoRecognizer
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.store import GameLog
from crib_pi.voice.speakers import MockSpeaker
from crib_pi.voice.speech import NullVoice, Utterance, Voice


class GatedSpeaker(MockSpeaker):
    """Holds each sentence until the test opens the gate, to see what waits meanwhile."""

    def __init__(self, seconds: float = 0.0) -> None:
        super().__init__(seconds=seconds)
        self.gate = threading.Event()
        self.started = threading.Event()

    def speak(self, text: str, language: str, volume: float) -> None:
        self.started.set()
        self.gate.wait(5)
        super().speak(text, language, volume)


def u(text: str, key: str, kind: str = "score") -> Utterance:
    return Utterance(text, kind, key)


def test_say_returns_at_once_and_sentences_never_overlap() -> None:
    speaker = GatedSpeaker(seconds=0.02)
    voice = Voice(speaker)
    for i in range(5):
        voice.say(u(f"sentence {i}", f"record {i}"))
    # every say returned while the speaker was still held on the first sentence
    assert speaker.said == []
    speaker.gate.set()
    assert voice.wait_idle(5)
    assert speaker.texts == [f"sentence {i}" for i in range(5)]
    for before, after in zip(speaker.said, speaker.said[1:], strict=False):
        assert before.end <= after.start
    voice.close()


def test_a_new_sentence_replaces_an_unsaid_one_with_its_key() -> None:
    speaker = GatedSpeaker()
    voice = Voice(speaker, language="fr", volume=0.4)
    voice.say(u("being said", "record 0"))
    assert speaker.started.wait(5)
    voice.say(u("player 1's hand: fifteen two is two", "record 1", "count"))
    voice.say(u("is that the seven of hearts?", "question", "question"))
    voice.say(u("player 1's hand: fifteen two, and a pair is four", "record 1", "count"))
    voice.say(u("is that the seven of diamonds?", "question", "question"))
    voice.say(u("player 0 wins", "end", "end"))
    voice.withdraw({"end"})
    speaker.gate.set()
    assert voice.wait_idle(5)
    assert speaker.texts == [
        "being said",
        "player 1's hand: fifteen two, and a pair is four",
        "is that the seven of diamonds?",
    ]
    assert voice.replaced == 3
    assert {(s.language, s.volume) for s in speaker.said} == {("fr", 0.4)}
    voice.close()


def test_volume_steps_off_quiet_normal_loud_and_off_says_nothing() -> None:
    speaker = MockSpeaker()
    voice = Voice(speaker, volume=0.7)
    assert [voice.next_level() for _ in range(4)] == [1.0, 0.0, 0.4, 0.7]
    voice.next_level()
    voice.next_level()
    assert not voice.enabled
    voice.say(u("unheard", "record 0"))
    assert voice.wait_idle(1) and speaker.texts == []
    voice.close()
    voice.close()
    assert speaker.closed == 2


def test_a_failing_speaker_is_reported_once_and_the_voice_goes_on() -> None:
    class Broken(MockSpeaker):
        def speak(self, text: str, language: str, volume: float) -> None:
            raise OSError("no audio device")

    voice = Voice(Broken())
    voice.say(u("one", "a"))
    voice.say(u("two", "b"))
    assert voice.wait_idle(5)
    assert [p.message for p in voice.reporter.about("voice")] == [
        "could not speak (no audio device); still trying"
    ]
    voice.close()


def test_the_mock_factory_has_a_recording_voice_with_the_config_s_settings() -> None:
    config = DeviceConfig.from_mapping({"voice": {"volume": 0.5, "language": "fr"}})
    devices = make_devices(config, backend="mock")
    assert isinstance(devices.voice, Voice) and isinstance(devices.voice.speaker, MockSpeaker)
    assert (devices.voice.volume, devices.voice.language) == (0.5, "fr")
    devices.close()


def test_no_espeak_ng_gives_the_null_voice_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    devices = make_devices(backend="desktop")
    assert isinstance(devices.voice, NullVoice)
    assert [p.message for p in devices.reporter.about("voice")] in (
        ["espeak-ng is not installed (apt install espeak-ng); carrying on without it"],
        ["no sound card (see hardware/speaker.md); carrying on without it"],
    )
    devices.close()


@pytest.mark.parametrize(
    ("voice", "message"),
    [
        ({"volume": 1.5}, "devices.voice.volume = 1.5 must be 0 to 1"),
        ({"language": "de"}, "devices.voice.language 'de' is not one of ('en', 'fr')"),
        ({"speed": 20}, "devices.voice.speed = 20 must be 80 to 450 words a minute"),
        ({"enabled": "yes"}, "devices.voice.enabled = 'yes' is not true or false"),
        ({"loud": True}, "unknown setting devices.voice.loud (known: enabled, language,"),
    ],
)
def test_bad_voice_settings_are_refused_by_name(voice: dict[str, object], message: str) -> None:
    with pytest.raises(DeviceConfigError) as caught:
        DeviceConfig.from_mapping({"voice": voice})
    assert str(caught.value).startswith(message)


def test_a_hold_of_go_steps_the_voice_and_says_its_level() -> None:
    devices = make_devices(backend="mock")
    table = TableSession(GameOptions(), GameLog(None), Tracker())
    assistant = Assistant(devices, table, NoRecognizer())
    buttons = devices.buttons
    clock = devices.clock
    buttons.press("go")  # type: ignore[attr-defined]
    clock.advance(1.0)  # type: ignore[attr-defined]
    buttons.release("go")  # type: ignore[attr-defined]
    clock.advance(0.1)  # type: ignore[attr-defined]
    assert assistant._step() is False  # a hold of Go is not a game action
    voice = devices.voice
    assert isinstance(voice, Voice) and voice.volume == 1.0
    assert voice.wait_idle(5)
    assert voice.speaker.texts == ["voice loud"]  # type: ignore[attr-defined]
    devices.close()
