"""Benchmark: the main loop's time per frame with the voice on and off.

    python benchmarks/bench_voice.py [--seed 5] [--rounds 2]

Plays a filmed two-player game (cards read from the film's ground truth) through the table,
drawing the board on the desktop screen (SDL's dummy driver) after each frame, as the main
loop does, and hands the voice what is new. "on" is real espeak-ng synthesising every
sentence (into WAV files, since a test machine has no sound card) on the voice's worker
thread; "off" is the null voice. The rounds alternate off and on so a busy machine weighs on
both alike. Prints the median and 95th percentile per frame and the sentences said.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import cv2

from crib_pi.actions import GameOptions
from crib_pi.commands.session import read_presses
from crib_pi.devices import make_devices
from crib_pi.mat import Mat
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import TruthReader, film
from crib_pi.session.pipeline import FramePipeline
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog
from crib_pi.voice.speakers import EspeakSpeaker
from crib_pi.voice.speech import NullVoice, Voice, VoiceLike
from crib_pi.voice.words import Announcer


class WavSpeaker(EspeakSpeaker):
    """espeak-ng doing all its work, into a WAV file instead of a sound card."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.count = 0

    def speak(self, text: str, language: str, volume: float) -> None:
        self.count += 1
        self.write_wav(text, language, volume, self.folder / f"{self.count:04d}.wav")


def one_game(out: Path, options: GameOptions, voice: VoiceLike) -> list[float]:
    devices = make_devices(backend="desktop")
    table = TableSession(options, GameLog(None), Tracker(stable=3))
    pipeline = FramePipeline(Mat(2), TruthReader(out / "truth.jsonl"), table.tracker)
    presses = read_presses(out / "buttons.jsonl")
    announcer = Announcer("en")
    times = []
    for number, path in enumerate(sorted((out / "frames").iterdir())):
        image = cv2.imread(str(path))
        start = time.perf_counter()
        for event in pipeline.process(image):
            table.on_track(event)
        table.on_lines(presses.get(number, []))
        devices.show(table.snapshot())
        narration = announcer.after(table)
        voice.withdraw(set(narration.withdraw))
        for utterance in narration.say:
            voice.say(utterance)
        times.append(time.perf_counter() - start)
        time.sleep(max(0.0, 0.1 - times[-1]))  # the camera's 10 frames a second
    voice.wait_idle(60)
    devices.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if shutil.which("espeak-ng") is None:
        print("espeak-ng is not installed (apt install espeak-ng)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    options = GameOptions(players=2, target=61, dealer=0)
    _, actions = random_game(options, seed=args.seed, known=False)
    timings: dict[str, list[float]] = {"off": [], "on": []}
    said = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "film"
        film(options, actions, plain_face, out, seed=args.seed)
        for _ in range(args.rounds):
            timings["off"] += one_game(out, options, NullVoice())
            speaker = WavSpeaker(Path(tmp))
            voice = Voice(speaker)
            timings["on"] += one_game(out, options, voice)
            voice.close()
            said = speaker.count
    frames = len(timings["off"]) // args.rounds
    print(f"{frames} frames a game at 10 fps, {args.rounds} rounds; {said} sentences said a game")
    for name, times in timings.items():
        ms = sorted(t * 1000 for t in times)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        print(
            f"voice {name:3}: per frame median {statistics.median(ms):.2f} ms, "
            f"95th percentile {p95:.2f} ms, max {ms[-1]:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
