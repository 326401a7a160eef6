"""The guided learn-deck on decks no network saw: recall and wrong cards with and without it.

For each held-out deck (drawn in Debian's fonts from a seed the training never used: the
networks' data used seeds 100 to 115; with ``CRIB_PI_FONT_DIR=build/unseen-fonts``, from
``tools/unseen_fonts.sh``, in fonts no network saw), the four lesson rows are filmed on the
mat at cards about 130 px wide (``--zoom 0.85``), played through ``crib_pi.session.lesson``
with Confirm pressed (and Go after a row refused only for cards the camera cannot find, as a
player would), and the profile it makes reads flat and table scenes of that deck at 125-135
px card width at 1280x720, against the shipped recognizer without the profile. Prints one
line per deck and kind, then the totals. Target (issue 18, item 5): with a profile, no wrong
card and recall at least 99.5%.

    python benchmarks/bench_learn_deck.py --seeds 7 11 23 2024 --scenes 12
    python benchmarks/bench_learn_deck.py --seeds 7 --scenes 0 --save-profiles build/profiles
    python benchmarks/bench_session.py --vision --faces drawn:7 --zoom 0.85 --deals 2 \
        --profile build/profiles/drawn-7.npz   (a filmed game read with the learnt profile)
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from crib_pi.cards import Card
from crib_pi.session.lesson import ROW_SUITS, DeckLesson
from crib_pi.session.lesson_film import teach_filmed
from crib_pi.vision.recognizer import Recognizer
from crib_pi.vision.synth.drawn import drawn_decks
from crib_pi.vision.synth.labels import readable_cards
from crib_pi.vision.synth.scenes import HELD_OUT_KINDS, held_out_scene


def lesson_for(deck_faces: tuple[np.ndarray, ...], name: str, seed: int, zoom: float) -> DeckLesson:
    rows = [[Card(r, s) for r in range(1, 14)] for s in ROW_SUITS]
    lesson = DeckLesson(Recognizer().classifier, name=name)
    teach_filmed(lesson, rows, lambda c: deck_faces[c.index], seed=seed, zoom=zoom)
    return lesson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 11, 23, 2024])
    parser.add_argument("--scenes", type=int, default=12, help="scenes of each kind a deck")
    parser.add_argument("--zoom", type=float, default=0.85)
    parser.add_argument(
        "--save-profiles",
        type=Path,
        metavar="DIR",
        help="keep each deck's profile as DIR/drawn-SEED.npz (bench_session.py --profile)",
    )
    args = parser.parse_args()
    if any(100 <= s <= 115 for s in args.seeds):
        parser.error("--seeds: 100 to 115 made the training's drawn decks; choose others")
    cv2.setNumThreads(1)
    shipped = Recognizer()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    print(f"LEARN A DECK AT THE TABLE: cards 125-135 px at 1280x720, {args.scenes} scenes a kind")
    for seed in args.seeds:
        found = drawn_decks(np.random.default_rng(seed), 1)
        if not found:
            print("no fonts found (CRIB_PI_FONT_DIR): skipped")
            return
        deck = found[0]
        lesson = lesson_for(deck.faces, deck.name, seed, args.zoom)
        if not lesson.done:
            print(f"  drawn:{seed} {deck.name}: the lesson did not finish ({lesson.message})")
            continue
        profile = lesson.profile()
        if args.save_profiles:
            args.save_profiles.mkdir(parents=True, exist_ok=True)
            profile.save(args.save_profiles / f"drawn-{seed}.npz")
        learnt = int((profile.counts > 0).sum())
        print(
            f"  drawn:{seed} {deck.name}: lesson {learnt}/52 cards learnt, "
            f"{lesson.refusals} rows refused"
        )
        if args.scenes == 0:  # the profile was all that was wanted
            continue
        taught = Recognizer(profile)
        for kind in HELD_OUT_KINDS:
            rng = np.random.default_rng(seed * 1000 + (kind == "table"))
            acc = {"without": [0, 0, 0], "with profile": [0, 0, 0]}  # right, wrong, readable
            for i in range(args.scenes):
                scene = held_out_scene(rng, [deck], kind, i)
                truth = {Card.from_index(c) for c in readable_cards(scene)}
                present = {Card.from_index(c) for c in scene.cards}
                for who, rec in (("without", shipped), ("with profile", taught)):
                    named = {r.card for r in rec.read(scene.image).cards}
                    a = acc[who]
                    a[0] += len(named & truth)
                    a[1] += len(named - present)
                    a[2] += len(truth)
            for who, (right, wrong, true) in acc.items():
                t = totals[f"{kind} {who}"]
                t[0], t[1], t[2] = t[0] + right, t[1] + wrong, t[2] + true
            w, p = acc["without"], acc["with profile"]
            print(
                f"    {kind:5s} readable {w[2]:4d}  without: recall {w[0] / max(w[2], 1):6.1%} "
                f"wrong {w[1]}   with profile: recall {p[0] / max(p[2], 1):6.1%} wrong {p[1]}"
            )
    for key, (right, wrong, true) in sorted(totals.items()):  # none with --scenes 0
        print(f"  all decks, {key:18s} recall {right / max(true, 1):6.1%}  wrong {wrong}")


if __name__ == "__main__":
    main()
