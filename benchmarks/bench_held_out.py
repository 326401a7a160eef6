"""Decks the networks never saw: drawn decks of new seeds read by the shipped networks, and
the naming thresholds swept on them and on the leave-out folds.

Scenes are those of ``bench_vision.py --leave-out`` (flat: 4-8 cards apart; table: 8 cards in
rows, fans and piles, half on the mat; cards 125-135 px wide at 1280x720). The drawn decks
(``synth.drawn``, seed 999) are designs no network was trained on; drawn in the fonts
installed here, they share those fonts with the training's drawn decks (seeds 100 to 115),
so ``CRIB_PI_FONT_DIR`` should point at fonts no network saw (``tools/unseen_fonts.sh``
fetches eleven families from Debian). ``--folds DIR`` adds the eight gnome families, each read
by networks trained without it (``tools/train_vision_gpu.sh``). Each line: recall and wrong
cards per kind, and which cards were named wrong; ``-v`` adds a line per deck.

    CRIB_PI_FONT_DIR=build/unseen-fonts python benchmarks/bench_held_out.py [--drawn 24]
    python benchmarks/bench_held_out.py --folds build/gpumodels [--sweep]
    python benchmarks/bench_held_out.py --models FIRST.onnx SECOND.onnx WIDE.onnx  (candidates)
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from crib_pi.cards import Card
from crib_pi.vision import classifier, decide
from crib_pi.vision.errors import ModelError
from crib_pi.vision.recognizer import Recognizer

Scene = tuple[str, np.ndarray, set[Card], set[Card]]  # kind, image, readable, present


def scenes(decks: list, seed: int, count: int) -> list[Scene]:  # type: ignore[type-arg]
    from crib_pi.vision.synth.labels import readable_cards
    from crib_pi.vision.synth.scenes import held_out_scenes

    out: list[Scene] = []
    for kind, s in held_out_scenes(seed, decks, count):
        readable = {Card.from_index(c) for c in readable_cards(s)}
        out.append((kind, s.image, readable, {Card.from_index(c) for c in s.cards}))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--drawn", type=int, default=12, help="drawn decks (6 scenes a kind each)")
    p.add_argument("--folds", type=Path, help="networks each trained without one gnome family")
    p.add_argument("--scenes", type=int, default=12, help="scenes a kind per fold family")
    p.add_argument("--sweep", action="store_true", help="NAME_AT and GREY_DOUBT_BELOW grid")
    p.add_argument("-v", "--verbose", action="store_true", help="a line per deck")
    p.add_argument(
        "--models",
        type=Path,
        nargs=3,
        metavar=("FIRST", "SECOND", "WIDE"),
        help="candidate networks for the drawn decks, with the shipped grey one (default: shipped)",
    )
    a = p.parse_args()
    cv2.setNumThreads(1)
    from crib_pi.vision.synth.decks import FAMILIES, available, deck_names, load_deck
    from crib_pi.vision.synth.drawn import drawn_decks

    sets: list[tuple[str, Callable[[], Recognizer], list[Scene]]] = []
    grey = classifier.model_path(classifier.GREY_NAME)  # custom models get no grey by default
    recognizer: Callable[[], Recognizer] = Recognizer
    if a.models:
        recognizer = lambda: Recognizer(models=a.models, grey=grey)  # noqa: E731
        try:  # before minutes of scenes are drawn
            recognizer()
        except ModelError as exc:
            p.error(str(exc))
    rng = np.random.default_rng(999)
    for k, deck in enumerate(drawn_decks(rng, a.drawn)):
        sets.append((f"drawn{k} {deck.name}", recognizer, scenes([deck], 1000 + k, 6)))
    if not sets:
        print("no fonts for drawn decks (fonts-dejavu-core, fonts-liberation2): skipped")
    if a.folds and available():
        for fam, names in FAMILIES.items():
            colour, grey = a.folds / f"colour-no-{fam}.onnx", a.folds / f"grey-no-{fam}.onnx"
            if colour.is_file() and grey.is_file():
                decks = [load_deck(n) for n in names if n in deck_names()]
                make = lambda c=colour, g=grey: Recognizer(models=[c], grey=g)  # noqa: E731
                sets.append((f"fold-{fam}", make, scenes(decks, 90213, a.scenes)))
    grid = [(decide.NAME_AT, classifier.GREY_DOUBT_BELOW)]
    if a.sweep:
        grid = list(itertools.product((0.9, 0.95, 0.98), (0.5, 0.7, 0.85)))
    nets = " + ".join(m.name for m in a.models) if a.models else "shipped networks"
    print(f"HELD-OUT DECKS: {a.drawn} drawn decks ({nets}), folds: {a.folds or 'none'}")
    for name_at, grey_doubt in grid:
        decide.NAME_AT, classifier.GREY_DOUBT_BELOW = name_at, grey_doubt
        tot: dict[str, list[int]] = {}
        wrong: list[str] = []
        for name, make, found in sets:
            rec = make()
            group = "drawn" if name.startswith("drawn") else "folds"
            mine = [0, 0, 0]
            for kind, image, readable, present in found:
                named = {r.card for r in rec.read(image).cards}
                acc = tot.setdefault(f"{group} {kind}", [0, 0, 0])
                for a_ in (acc, mine):
                    a_[0] += len(named & readable)
                    a_[1] += len(named - present)
                    a_[2] += len(readable)
                wrong += [f"{name.split()[0]}/{kind}:{c}" for c in sorted(named - present, key=str)]
            if a.verbose:
                share = mine[0] / max(mine[2], 1)
                print(f"    {name:36s} {share:6.1%} wrong {mine[1]} of {mine[2]}")
        figures = "  ".join(
            f"{k}: {r / max(t, 1):5.1%} wrong {w} of {t}" for k, (r, w, t) in sorted(tot.items())
        )
        print(f"  NAME_AT {name_at:.2f} GREY_DOUBT_BELOW {grey_doubt:.2f}  {figures}")
        if wrong:
            print(f"    named wrong: {' '.join(wrong)}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
