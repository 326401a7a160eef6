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
from crib_pi.vision import engine
from crib_pi.vision.recognizer import Recognizer, load_image
from crib_pi.vision.synth.inks import grey as grey_image

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


def bench_real(rec: Recognizer, verbose: bool, photos: Path, grey: bool = False) -> None:
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
        if grey:  # as a monochrome camera would see it
            img = grey_image(img)
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
    what = "in grey " if grey else ""
    print(f"Real development photos {what}({len(rows)} images, {photos}):")
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


def bench_leave_out(models: Path, count: int, seed: int) -> None:
    """Each deck family read by networks trained without it, against the shipped networks.

    ``models`` holds ``colour-no-<family>.onnx`` and ``grey-no-<family>.onnx`` for each family
    (``tools/train_vision_gpu.sh``); the held-out recognizer is that colour network alone with
    that grey network. Flat: 4 to 8 cards lying apart, upright-ish, no tilt; table: 8 cards in
    rows, fans and piles, half of them on the printed mat. Cards 125 to 135 px wide at
    1280x720, the A3 mat filling a 16:9 frame.
    """
    from crib_pi.vision.synth.decks import FAMILIES, available, deck_names, load_deck
    from crib_pi.vision.synth.labels import readable_cards
    from crib_pi.vision.synth.scenes import HELD_OUT_KINDS, held_out_scene

    if not available():
        print("leave-out: gnome-cards-data or rsvg-convert missing, skipped")
        return
    shipped = Recognizer()
    print(f"LEAVE DECK FAMILIES OUT: cards 125-135 px wide at 1280x720, {count} scenes a kind")
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for fam, names in FAMILIES.items():
        colour, grey = models / f"colour-no-{fam}.onnx", models / f"grey-no-{fam}.onnx"
        if not (colour.is_file() and grey.is_file()):
            print(f"  {fam}: no networks trained without it in {models}, skipped")
            continue
        held_out = Recognizer(models=[colour], grey=grey)
        decks = [load_deck(n) for n in names if n in deck_names()]
        for kind in HELD_OUT_KINDS:
            rng = np.random.default_rng(seed)
            acc = {"held out": [0, 0, 0], "shipped": [0, 0, 0]}  # right, wrong, readable
            for i in range(count):
                scene = held_out_scene(rng, decks, kind, i)
                truth = {Card.from_index(c) for c in readable_cards(scene)}
                present = {Card.from_index(c) for c in scene.cards}
                for who, rec in (("held out", held_out), ("shipped", shipped)):
                    named = {r.card for r in rec.read(scene.image).cards}
                    a = acc[who]
                    a[0] += len(named & truth)
                    a[1] += len(named - present)
                    a[2] += len(truth)
            for who, (right, wrong, true) in acc.items():
                t = totals[f"{kind} {who}"]
                t[0], t[1], t[2] = t[0] + right, t[1] + wrong, t[2] + true
            h, sh = acc["held out"], acc["shipped"]
            print(
                f"  {fam:13s} {kind:5s} readable {h[2]:4d}  held out: recall "
                f"{h[0] / max(h[2], 1):6.1%} wrong {h[1]}   (shipped, which saw it: recall "
                f"{sh[0] / max(sh[2], 1):6.1%} wrong {sh[1]})"
            )
    for key, (right, wrong, true) in sorted(totals.items()):
        print(f"  all families, {key:16s} recall {right / max(true, 1):6.1%}  wrong {wrong}")


MODES = ((1280, 720), (1920, 1080), (2304, 1296))
"""Main-stream sizes of Camera Module 3 at its full field of view (binned 2304x1296 mode)."""


def bench_camera_modes(rec: Recognizer, count: int, seed: int) -> None:
    """Recall and cost per frame at each Pi camera main-stream size, for two camera heights.

    Scenes are drawn at 2304x1296, the Camera Module 3's full-view mode, and scaled down as the
    ISP would to the smaller sizes: the A3 mat filling the frame (cards 225-240 px wide there,
    125-135 px at 1280x720) and a camera placed higher (cards 100-110 px at 1280x720).
    """
    from crib_pi.vision.synth.decks import available, deck_names, load_deck
    from crib_pi.vision.synth.labels import readable_cards
    from crib_pi.vision.synth.scenes import LAYOUTS, make_scene

    if not available():
        print("camera modes: gnome-cards-data or rsvg-convert missing, skipped")
        return
    decks = [load_deck(n) for n in deck_names()]
    print(
        f"PI CAMERA MODES: 8 cards on the mat, {count} scenes a geometry, one core, "
        f"networks run by {engine.describe()}"
    )
    for label, width_at_720 in (
        ("mat fills the frame", (125.0, 135.0)),
        ("camera higher", (100.0, 110.0)),
    ):
        rng = np.random.default_rng(seed)
        scale = MODES[-1][0] / MODES[0][0]
        acc = {m: [0, 0, 0, []] for m in MODES}  # right, wrong, readable, seconds
        for i in range(count):
            scene = make_scene(
                rng, decks, size=MODES[-1], n_cards=(8, 8), layout=LAYOUTS[i % len(LAYOUTS)],
                card_width=(width_at_720[0] * scale, width_at_720[1] * scale), tilt=0.05,
                degrade=0.5, clutter_count=(0, 2), on_mat=True,
            )  # fmt: skip
            truth = {Card.from_index(c) for c in readable_cards(scene)}
            present = {Card.from_index(c) for c in scene.cards}
            for mode in MODES:
                image = scene.image
                if mode != MODES[-1]:
                    image = cv2.resize(image, mode, interpolation=cv2.INTER_AREA)
                t0 = time.perf_counter()
                named = {r.card for r in rec.read(image).cards}
                a = acc[mode]
                a[3].append(time.perf_counter() - t0)
                a[0] += len(named & truth)
                a[1] += len(named - present)
                a[2] += len(truth)
        for (w, h), (right, wrong, true, secs) in acc.items():
            cards = f"{width_at_720[0] * w / 1280:.0f}-{width_at_720[1] * w / 1280:.0f} px"
            print(
                f"  {label:19s} {w}x{h} cards {cards:11s} recall {right / max(true, 1):6.1%}"
                f"  wrong {wrong}  median {statistics.median(secs) * 1000:4.0f} ms a frame"
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
    p.add_argument(
        "--leave-out",
        type=Path,
        help="folder of networks each trained without one deck family (train_vision_gpu.sh)",
    )
    p.add_argument("--leave-out-scenes", type=int, default=20, help="scenes per family and kind")
    p.add_argument("--camera-modes", type=int, default=0, help="scenes a geometry (0: skip)")
    p.add_argument("--grey-photos", action="store_true", help="the real photos in grey too")
    p.add_argument("--photos", type=Path, default=SHARED, help="folder with labels.csv")
    p.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args()
    cv2.setNumThreads(1)
    if a.leave_out:
        bench_leave_out(a.leave_out, a.leave_out_scenes, a.seed + 3)
    rec = Recognizer(models=a.model)
    if a.camera_modes:
        bench_camera_modes(rec, a.camera_modes, a.seed + 5)
    bench_real(rec, a.verbose, a.photos)
    if a.grey_photos:
        bench_real(rec, a.verbose, a.photos, grey=True)
    times = bench_synthetic(rec, a.synthetic, a.seed)
    bench_synthetic(rec, a.mat, a.seed + 2, on_mat=True)
    bench_empty(rec, a.empty, a.seed + 1)
    if times:
        print(
            f"Speed: median {statistics.median(times) * 1000:.0f} ms per 1280x720 frame with "
            f"8 cards, one core (cv2.setNumThreads(1)); 90th percentile "
            f"{np.percentile(times, 90) * 1000:.0f} ms; networks run by {engine.describe()}"
        )


if __name__ == "__main__":
    main()
