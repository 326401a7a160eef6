"""Card recognition benchmark: real development photos, synthetic scenes, empty scenes, speed.

    python benchmarks/bench_vision.py [--synthetic 200] [--mat 100] [--empty 100] [--model F ...]

Real: every photo in PHOTOS/labels.csv (``--photos``, default $CRIB_PI_SHARED/cards or
../shared/cards: the photos are under other people's licences and not in the repository);
card-level recall and precision by scene type (a named card counts as right when the photo holds
that card). Synthetic (labelled so): top-down 1280x720 scenes at the product's geometry (cards
150-250 px wide, 8 per scene, overlapping in rows, fans and piles) from the gnome-cards-data
decks, on seeds the training never used; the truth is every card with one whole index (its
measured rank and suit boxes) in view and uncovered; courts that print no index on bare card are
counted apart. On the mat: the same, on the printed play mat (``crib-pi mat``) under a tilt,
half the scenes with the demo's plain deck. Empty: synthetic tables with clutter (paper with
print, phones, coasters, hands, face-down cards) and no face-up card. Speed: median time per
1280x720 frame with 8 cards, on one core.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from crib_pi.cards import Card
from crib_pi.vision.recognizer import Recognizer, load_image

SHARED = (
    Path(os.environ["CRIB_PI_SHARED"]) / "cards"
    if os.environ.get("CRIB_PI_SHARED")
    else Path(__file__).resolve().parents[1].parent / "shared" / "cards"
)


def score(truth: list[Card], named: list[Card]) -> tuple[int, int, int]:
    """(right, named, true) for one image, counting each card as often as it appears."""
    t, n = Counter(truth), Counter(named)
    return sum(min(t[c], n[c]) for c in n), sum(n.values()), sum(t.values())


def line(label: str, right: int, named: int, true: int, extra: str = "") -> str:
    rec = right / true if true else float("nan")
    prec = right / named if named else float("nan")
    return (
        f"{label:28s} images-cards {true:4d}  named {named:4d}  right {right:4d}  "
        f"recall {rec:6.1%}  precision {prec:6.1%}{extra}"
    )


def bench_real(rec: Recognizer, verbose: bool, photos: Path) -> None:
    path = photos / "labels.csv"
    if not path.exists():
        print(f"real photos: {path} missing, skipped")
        return
    by: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    times = []
    with path.open() as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        img = load_image(photos / row["file"])
        t0 = time.perf_counter()
        res = rec.read(img)
        times.append(time.perf_counter() - t0)
        truth = [Card.parse(c) for c in row["cards"].split()]
        named = [r.card for r in res.cards]
        r, n, t = score(truth, named)
        for key in (row["scene"], "all"):
            acc = by[key]
            acc[0] += r
            acc[1] += n
            acc[2] += t
            acc[3] += len(res.uncertain)
        if verbose:
            wrong = sorted(set(map(str, named)) - set(map(str, truth)))
            print(
                f"  {row['file']}: truth {row['cards']} | named {' '.join(map(str, named))}"
                f" | uncertain {len(res.uncertain)}" + (f" | WRONG {wrong}" if wrong else "")
            )
    print(f"Real development photos ({len(rows)} images, {photos}):")
    for key in ("single", "multi-separate", "multi-overlap", "all"):
        if key in by:
            r, n, t, u = by[key]
            print("  " + line(key, r, n, t, f"  uncertain {u}"))
    print(f"  median time per image {statistics.median(times) * 1000:.0f} ms")


def bench_synthetic(rec: Recognizer, count: int, seed: int, on_mat: bool = False) -> list[float]:
    from crib_pi.vision.synth.decks import available, deck_names, load_deck, plain_deck
    from crib_pi.vision.synth.labels import readable_cards, unindexed_cards
    from crib_pi.vision.synth.scenes import LAYOUTS, product_scene

    if not available():
        print("synthetic: gnome-cards-data or rsvg-convert missing, skipped")
        return []
    decks = [load_deck(n) for n in deck_names()]
    rng = np.random.default_rng(seed)
    by: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    times = []
    courts = [0, 0]  # faces without an index on bare card: shown, named
    for i in range(count):
        layout = LAYOUTS[i % len(LAYOUTS)]
        plain = on_mat and i % 2 == 1  # on the mat, every other scene uses the demo's deck
        scene = product_scene(rng, [plain_deck()] if plain else decks, layout, on_mat)
        t0 = time.perf_counter()
        res = rec.read(scene.image)
        times.append(time.perf_counter() - t0)
        truth = [Card.from_index(c) for c in readable_cards(scene)]
        named = [r.card for r in res.cards]
        r, n, t = score(truth, named)
        # a named card that is in the scene but hidden is not wrong, only unexpected
        present = {Card.from_index(c) for c in scene.cards}
        wrong = sum(1 for c in named if c not in present)
        unindexed = {Card.from_index(c) for c in unindexed_cards(scene)}
        courts[0] += len(unindexed)
        courts[1] += len(unindexed & set(named))
        keys = (layout, "all") + (("plain deck" if plain else "gnome decks",) if on_mat else ())
        for key in keys:
            acc = by[key]
            acc[0] += r
            acc[1] += n
            acc[2] += t
            acc[3] += wrong
    where = "on the printed mat" if on_mat else "on varied tables"
    print(f"SYNTHETIC top-down scenes {where}, 1280x720, 8 cards 150-250 px wide ({count} scenes):")
    for key in (*LAYOUTS, "gnome decks", "plain deck", "all"):
        if key in by:
            r, n, t, w = by[key]
            rec_ = r / t if t else float("nan")
            print(
                f"  {key:8s} readable cards {t:4d}  named {n:4d}  recall {rec_:6.1%}  "
                f"wrong cards {w}"
            )
    print(
        f"  not counted above: {courts[0]} cards whose face has no index on bare card (courts "
        f"without one, or with it drawn into the picture); {courts[1]} of them named anyway"
    )
    return times


def bench_empty(rec: Recognizer, count: int, seed: int) -> None:
    from crib_pi.vision.synth.decks import available, deck_names, load_deck
    from crib_pi.vision.synth.scenes import make_scene

    if not available():
        return
    decks = [load_deck(n) for n in deck_names()]
    rng = np.random.default_rng(seed)
    named = uncertain = 0
    for _ in range(count):
        scene = make_scene(rng, decks, size=(1280, 720), n_cards=(0, 0), clutter_count=(2, 10))
        res = rec.read(scene.image)
        named += len(res.cards)
        uncertain += len(res.uncertain)
    print(
        f"SYNTHETIC no-card scenes ({count}: tables, printed paper, phones, coasters, hands, "
        f"face-down cards): cards named {named}, uncertain {uncertain}"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--synthetic", type=int, default=200)
    p.add_argument("--empty", type=int, default=100)
    p.add_argument("--seed", type=int, default=90210)
    p.add_argument("--mat", type=int, default=100, help="synthetic scenes on the printed mat")
    p.add_argument(
        "--model",
        type=Path,
        nargs="+",
        default=[],
        help="one model; a first and a second; or those and a wide one (default: shipped)",
    )
    p.add_argument("--photos", type=Path, default=SHARED, help="folder with labels.csv")
    p.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args()
    cv2.setNumThreads(1)
    rec = Recognizer(models=a.model)
    bench_real(rec, a.verbose, a.photos)
    times = bench_synthetic(rec, a.synthetic, a.seed)
    bench_synthetic(rec, a.mat, a.seed + 2, on_mat=True)
    bench_empty(rec, a.empty, a.seed + 1)
    if times:
        print(
            f"Speed: median {statistics.median(times) * 1000:.0f} ms per 1280x720 frame with "
            f"8 cards, one core (cv2.setNumThreads(1)); 90th percentile "
            f"{np.percentile(times, 90) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
