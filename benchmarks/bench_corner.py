"""Reading a found card at its own corners, against reading the whole frame: by deck language.

Issue 32, item 2: with the card's outline known, its corner is read upright at the card's own
scale (``crib_pi.vision.corner``), and French (R, D, V) and German (K, D, B) court letters
must read as K, Q, J there as the English do. Each deck is drawn (``crib_pi.vision.synth.drawn``)
from a seed the training never used, once in each language (the same font, inks and layout, only
the letters differ); with ``CRIB_PI_FONT_DIR=build/unseen-fonts`` (``tools/unseen_fonts.sh``)
in fonts no network saw. Its 52 cards are laid four at a time on the printed mat in a 1280x720
frame, 125 to 135 px wide, as the held-out scenes lay them. Every card lying whole and uncovered
is read twice: by ``Recognizer.read`` of the whole frame (the reads whose index lies on the
card), and by ``Recognizer.read_card`` with its true outline moved up to ``--jitter`` pixels at
each corner (the card finder's error). Each read is right (a sure read of the card), wrong (a
sure read of another), unsure (only unsure reads) or none. Prints a line per language and kind
of rank (numbers, aces, courts), then the totals; then the corners as the frame's witness (a
sure frame read the corners contradict, sure or leading an unsure read, is asked about: wrong
reads caught, right ones asked), and the corner read's median time.

    CRIB_PI_FONT_DIR=build/unseen-fonts python benchmarks/bench_corner.py --seeds 7 11 23
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from crib_pi.cards import Card
from crib_pi.vision.reads import Recognition
from crib_pi.vision.recognizer import Recognizer
from crib_pi.vision.synth.drawn import LETTERS, drawn_deck, font_paths, random_style
from crib_pi.vision.synth.scenes import Scene, make_scene

OUTCOMES = ("right", "wrong", "unsure", "none")


def kind(card: Card) -> str:
    """How a rank is printed: a number, an ace, or a court's letter."""
    return "ace" if card.rank == 1 else "court" if card.rank > 10 else "number"


def outline(scene: Scene, k: int) -> np.ndarray:
    """The k-th card's outline in frame pixels (4 x 2), round from the face's top-left."""
    fw, fh = scene.face_sizes[k]
    face = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(face, scene.homographies[k]), np.float64).reshape(
        4, 2
    )


def whole(scene: Scene, k: int) -> bool:
    """Whether the k-th card lies uncovered: all but a sliver of its face on top."""
    quad = outline(scene, k)
    return int((scene.top == k).sum()) >= 0.98 * cv2.contourArea(quad.astype(np.float32))


def on_card(corners: object, quad: np.ndarray) -> bool:
    """Whether a read's index centre lies on the card whose outline is ``quad``."""
    x, y = np.asarray(corners, np.float64).mean(axis=0)
    return cv2.pointPolygonTest(quad.astype(np.float32), (float(x), float(y)), False) >= 0


def named(found: Recognition, quad: np.ndarray) -> set[Card]:
    """The cards read for sure on a card."""
    return {r.card for r in found.cards if on_card(r.corners, quad)}


def outcome(found: Recognition, card: Card, quad: np.ndarray) -> str:
    """A card's outcome from the reads whose index centre lies on it."""
    sure = named(found, quad)
    if sure - {card}:
        return "wrong"
    if card in sure:
        return "right"
    return "unsure" if any(on_card(u.corners, quad) for u in found.uncertain) else "none"


def drawn_args(parser: argparse.ArgumentParser) -> tuple[argparse.Namespace, list[Path]]:
    """The arguments, checked (no seed of the training's drawn decks), and the fonts to draw
    decks in; OpenCV kept to one thread, as on one core of a Pi."""
    args = parser.parse_args()
    if any(100 <= s <= 115 for s in args.seeds):
        parser.error("--seeds: 100 to 115 made the training's drawn decks; choose others")
    fonts = font_paths()
    if not fonts:
        parser.error("no fonts found (CRIB_PI_FONT_DIR, or install fonts-dejavu)")
    cv2.setNumThreads(1)
    return args, fonts


def decks(seeds: list[int], fonts: list[Path]) -> Iterator[tuple[int, str, str, Any]]:
    """Each seed's deck drawn in each language: (seed, language, name, deck)."""
    for seed in seeds:
        style = random_style(np.random.default_rng(seed), fonts)
        for language in LETTERS:
            name = f"{seed}-{language}"
            yield (
                seed,
                language,
                name,
                drawn_deck(dataclasses.replace(style, language=language), name),
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 11, 23, 31, 47, 2024, 13, 29])
    parser.add_argument("--jitter", type=float, default=2.0, help="outline error (px)")
    parser.add_argument("--misses", action="store_true", help="list every card not read right")
    args, fonts = drawn_args(parser)
    recognizer = Recognizer()
    counts: dict[tuple[str, str, str], dict[str, int]] = defaultdict(
        lambda: dict.fromkeys(OUTCOMES, 0)
    )
    times: list[float] = []
    # the corners as a witness of the frame's sure reads (``FramePipeline._corners_say``):
    # a frame read is asked about where the corners name another card (sure, or where none is
    # sure, leading an unsure read)
    witness = {"wrong caught": 0, "wrong missed": 0, "right asked": 0, "right kept": 0}
    wrong: list[str] = []
    for seed, language, _name, deck in decks(args.seeds, fonts):
        rng = np.random.default_rng([seed, len(language), ord(language[0])])
        order = [int(i) for i in rng.permutation(52)]
        for start in range(0, 52, 4):
            scene = make_scene(
                rng, [deck], size=(1280, 720), card_width=(125.0, 135.0),
                layout="scatter", tilt=0.0, degrade=0.3, clutter_count=(0, 0),
                cards=order[start : start + 4], on_mat=True,
            )  # fmt: skip
            frame_read = recognizer.read(scene.image)
            grey = False
            for k, index in enumerate(scene.cards):
                if not whole(scene, k):
                    continue
                card = Card.from_index(index)
                quad = outline(scene, k)
                moved = quad + rng.uniform(-args.jitter, args.jitter, quad.shape)
                t0 = time.perf_counter()
                corner_read = recognizer.read_card(scene.image, moved, grey)
                times.append(time.perf_counter() - t0)
                corners_name = named(corner_read, quad) or {
                    u.candidates[0] for u in corner_read.uncertain if u.candidates
                }
                for read in named(frame_read, quad):
                    asked = bool(corners_name) and read not in corners_name
                    key = (
                        ("right" if read == card else "wrong")
                        + " "
                        + (
                            ("caught" if asked else "missed")
                            if read != card
                            else ("asked" if asked else "kept")
                        )
                    )
                    witness[key] += 1
                for reader, found in (("frame", frame_read), ("corner", corner_read)):
                    result = outcome(found, card, quad)
                    counts[(reader, language, kind(card))][result] += 1
                    if result == "wrong" or (result != "right" and args.misses):
                        wrong.append(f"{result}: {reader} {seed}-{language} {card}")
    for reader in ("frame", "corner"):
        for language in LETTERS:
            for rank_kind in ("number", "ace", "court"):
                c = counts[(reader, language, rank_kind)]
                print(f"{reader:6} {language} {rank_kind:6} " + _line(c))
        total = dict.fromkeys(OUTCOMES, 0)
        for (r, _, _), c in counts.items():
            if r == reader:
                for o in OUTCOMES:
                    total[o] += c[o]
        print(f"{reader:6} all          " + _line(total))
    print(
        "the corners as the frame's witness: " + ", ".join(f"{k} {v}" for k, v in witness.items())
    )
    print(f"corner read: median {1000 * float(np.median(times)):.1f} ms over {len(times)} cards")
    for line in wrong:
        print(line)


def _line(c: dict[str, int]) -> str:
    n = sum(c.values())
    share = 100 * c["right"] / n if n else 0.0
    return f"{c['right']}/{n} right ({share:.1f}%), {c['wrong']} wrong, " + (
        f"{c['unsure']} unsure, {c['none']} none"
    )


if __name__ == "__main__":
    main()
