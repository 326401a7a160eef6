"""Benchmark: a filmed two-player game through the session, end to end.

    python benchmarks/bench_session.py [--vision]

Prints the median time to process a frame (mat, reads, tracking, rules, board drawn) and the
latency from the frame in which each played card is first fully visible to the board update,
at the default frame rate. With ``--vision`` the cards are read by ``crib_pi.vision`` (the
real recognizer) and scripted players sit at the table to put right what the camera misses
(``crib_pi.session.players``): the benchmark then also says how many cards the camera read
by itself. Without it, by the film's ground truth (the session's own cost alone).
Target (issue 5): at most 0.5 s latency.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import cv2

from crib_pi.actions import Crib, GameOptions, NewGame
from crib_pi.commands.session import read_presses
from crib_pi.devices import make_devices
from crib_pi.mat import Mat
from crib_pi.records import format_line
from crib_pi.session.faces import plain_face
from crib_pi.session.filmstrip import TruthReader, film, read_settled
from crib_pi.session.pipeline import FramePipeline
from crib_pi.session.players import ScriptedPlayers, same_game
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import CardLaid, Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog

FPS = 10  # the session's default camera frame rate
STABLE = 3


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--vision", action="store_true", help="read cards with crib_pi.vision")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument(
        "--faces",
        default="plain",
        help="plain (the project's own), a gnome-cards-data deck, or drawn:SEED (a deck drawn "
        "in Debian's fonts, crib_pi.vision.synth.drawn, that no network was trained on)",
    )
    parser.add_argument(
        "--zoom", type=float, default=1.0, help="mat size in the frame (0.85: cards 125-135 px)"
    )
    parser.add_argument("--deals", type=int, help="film only this many deals")
    parser.add_argument("--keep", type=Path, help="keep the film and the record here")
    parser.add_argument(
        "--profile",
        type=Path,
        help="with --vision, read with this deck profile (bench_learn_deck.py --save-profiles)",
    )
    args = parser.parse_args()
    if args.profile and not args.vision:
        parser.error("--profile: only with --vision (the cards are read by the film's truth)")
    cv2.setNumThreads(1)
    options = GameOptions(players=2, target=61, dealer=0)
    _, actions = random_game(options, seed=args.seed, known=False)
    if args.deals:  # a deal ends with its crib
        ends = [i for i, a in enumerate(actions) if isinstance(a, Crib)]
        actions = actions[: ends[args.deals - 1] + 1] if len(ends) >= args.deals else actions
    profile = None
    if args.profile:  # before minutes of filming
        from crib_pi.vision.errors import DeckProfileError
        from crib_pi.vision.profile import DeckProfile

        try:
            profile = DeckProfile.load(args.profile)
        except DeckProfileError as exc:
            parser.error(f"--profile: {exc}")
    faces = plain_face
    if args.faces.startswith("drawn:"):
        import numpy as np

        from crib_pi.vision.synth.drawn import drawn_decks

        if not args.faces[6:].isdigit():
            parser.error(f"--faces {args.faces}: give drawn:SEED, a whole number")
        (deck,) = drawn_decks(np.random.default_rng(int(args.faces[6:])), 1)
        print(f"drawn deck: {deck.name}")
        faces = lambda card: deck.faces[card.index]  # noqa: E731
    elif args.faces != "plain":
        from crib_pi.vision.synth.decks import load_deck

        deck = load_deck(args.faces)
        faces = lambda card: deck.faces[card.index]  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp)
        film(options, actions, faces, out, seed=args.seed, stable=STABLE, zoom=args.zoom)
        if args.vision:
            from crib_pi.vision.recognizer import Recognizer

            reader = Recognizer(profile)
            players = ScriptedPlayers.from_film(actions, read_settled(out))
        else:
            reader = TruthReader(out / "truth.jsonl")
        devices = make_devices(backend="desktop")
        table = TableSession(options, GameLog(None), Tracker(stable=STABLE))
        pipeline = FramePipeline(Mat(2), reader, table.tracker)
        presses = read_presses(out / "buttons.jsonl")
        settled = read_settled(out)
        laid: list[tuple[int, str, float]] = []  # frame, card, time of that frame
        times = []
        for number, path in enumerate(sorted((out / "frames").iterdir())):
            image = cv2.imread(str(path))
            start = time.perf_counter()
            events = pipeline.process(image)
            for event in events:
                table.on_track(event)
            devices.show(table.snapshot())
            took = time.perf_counter() - start
            times.append(took)
            laid += [(number, str(e.card), took) for e in events if isinstance(e, CardLaid)]
            if args.vision:
                players.after_frame(table, number, presses.get(number, []))
            else:
                table.on_lines(presses.get(number, []))
        if args.vision:
            players.finish(table)
        devices.close()
    latencies = []
    for item in settled:
        if item["again"]:
            continue  # lifted and put back: rightly not laid again
        later = [(f, t) for f, card, t in laid if card == item["card"] and f >= item["frame"] - 1]
        if later and later[0][0] - item["frame"] < 3 * STABLE:
            frame, took = later[0]
            latencies.append((frame - item["frame"]) / FPS + took)
    expected = [format_line(NewGame(options))] + [format_line(a) for a in actions]
    same = table.log.memory == expected
    if args.keep:
        (args.keep / "session.jsonl").write_text("\n".join(table.log.memory) + "\n")
        (args.keep / "script.jsonl").write_text("\n".join(expected) + "\n")
    agree = next(
        (i for i, (a, b) in enumerate(zip(table.log.memory, expected, strict=False)) if a != b),
        min(len(expected), len(table.log.memory)),
    )
    reader_name = "crib_pi.vision" if args.vision else "ground truth"
    print(f"cards read by {reader_name}; {len(times)} frames at {FPS} fps, stable over {STABLE}")
    median_ms = statistics.median(times) * 1000
    print(f"per frame (mat, reads, tracking, rules, board drawn): median {median_ms:.1f} ms")
    print(
        "latency, first fully visible -> board updated: "
        f"median {statistics.median(latencies or [0]):.3f} s, max {max(latencies or [0]):.3f} s "
        f"over {len(latencies)} cards laid"
    )
    print(f"record equals the script: {same} ({agree} of {len(expected)} lines agree first)")
    if args.vision:
        same = same_game([r.action for r in table.game.records], list(actions))
        print(f"with the players' corrections the game is the script's (crib in any order): {same}")
        print(players.report())
    print(f"faces: {args.faces}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
