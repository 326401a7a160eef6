"""A found card read with its deck's learnt corners (issue 32, item 3): against the networks alone.

Each deck is drawn (``crib_pi.vision.synth.drawn``) from a seed the training never used, once in
each language (English A J Q K, French A V D R, German A B D K); with
``CRIB_PI_FONT_DIR=build/unseen-fonts`` (``tools/unseen_fonts.sh``) in fonts no network saw.
Its corners are learnt from each card lying alone on the printed mat (another light, another
place), its outline moved up to ``--jitter`` pixels at each corner as the card finder may have
it; ``--forget N`` leaves N cards unlearnt (a lesson that missed them). Then, as
``bench_corner.py`` does, its 52 cards are laid four at a time, 125 to 135 px wide in a 1280x720
frame, and every card lying whole is read by ``Recognizer.read_card`` (its outline moved as
well) without the profile and with it. Each read is right, wrong (a sure read of another card),
unsure or none. Prints a line per deck and the totals, and the corner read's median time.

With ``--lesson`` the corners are instead learnt as a player teaches the deck: the four lesson
rows filmed on the mat at cards about 130 px wide (``--zoom 0.85``), played through
``crib_pi.session.lesson`` with Confirm (and Go after a row refused only for cards not found),
each card's corner taken as the card finder saw it land.

    CRIB_PI_FONT_DIR=build/unseen-fonts python benchmarks/bench_learnt_corners.py --lesson
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from crib_pi.cards import Card
from crib_pi.vision.learnt_corners import upright
from crib_pi.vision.profile import build_profile
from crib_pi.vision.recognizer import Recognizer
from crib_pi.vision.synth.scenes import make_scene

sys.path.insert(0, str(Path(__file__).parent))
from bench_corner import OUTCOMES, decks, drawn_args, outcome, outline, whole
from bench_learn_deck import lesson_for

SCENE = {
    "size": (1280, 720),
    "card_width": (125.0, 135.0),
    "layout": "scatter",
    "tilt": 0.0,
    "degrade": 0.3,
    "clutter_count": (0, 0),
    "on_mat": True,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[13, 29, 47, 2024])
    parser.add_argument("--jitter", type=float, default=2.0, help="outline error (px)")
    parser.add_argument("--forget", type=int, default=0, help="cards left unlearnt a deck")
    parser.add_argument("--lesson", action="store_true", help="learn from a filmed lesson")
    args, fonts = drawn_args(parser)
    plain = Recognizer()
    totals = {who: dict.fromkeys(OUTCOMES, 0) for who in ("networks", "learnt")}
    times: list[float] = []
    wrong: list[str] = []
    for seed, language, name, deck in decks(args.seeds, fonts):
        rng = np.random.default_rng([seed, 7, ord(language[0])])
        forgotten = {int(c) for c in rng.permutation(52)[: args.forget]}
        if args.lesson:
            profile = lesson_for(deck.faces, name, seed, 0.85).profile()
            views = (
                {}
                if profile.cornered is None
                else dict.fromkeys(np.flatnonzero(profile.cornered).tolist())
            )
        else:
            views = {}
            for card in range(52):
                scene = make_scene(rng, [deck], cards=[card], **SCENE)  # type: ignore[arg-type]
                if card in forgotten or not whole(scene, 0):
                    continue
                quad = outline(scene, 0) + rng.uniform(-args.jitter, args.jitter, (4, 2))
                views[card] = upright(scene.image, quad)[0]
            profile = build_profile(name, [], [], views)
        taught = Recognizer(profile)
        rng = np.random.default_rng([seed, len(language), ord(language[0])])
        order = [int(i) for i in rng.permutation(52)]
        counts = {who: dict.fromkeys(OUTCOMES, 0) for who in totals}
        for start in range(0, 52, 4):
            scene = make_scene(rng, [deck], cards=order[start : start + 4], **SCENE)  # type: ignore[arg-type]
            for k, index in enumerate(scene.cards):
                if not whole(scene, k):
                    continue
                quad = outline(scene, k)
                moved = quad + rng.uniform(-args.jitter, args.jitter, quad.shape)
                card = Card.from_index(index)
                for who, rec in (("networks", plain), ("learnt", taught)):
                    t0 = time.perf_counter()
                    found = rec.read_card(scene.image, moved, False)
                    if who == "learnt":
                        times.append(time.perf_counter() - t0)
                    result = outcome(found, card, quad)
                    counts[who][result] += 1
                    if result == "wrong":
                        wrong.append(f"{who} {name} {card}: {[str(r.card) for r in found.cards]}")
        for who, c in counts.items():
            for o in OUTCOMES:
                totals[who][o] += c[o]
        print(
            f"  {name:9s} learnt {len(views)}/52   "
            + "   ".join(f"{who}: {_line(c)}" for who, c in counts.items()),
            flush=True,
        )
    for who, c in totals.items():
        print(f"all decks, {who:8s} {_line(c)}")
    print(f"a card read with its learnt corners: median {1000 * float(np.median(times)):.1f} ms")
    for line in wrong:
        print("wrong:", line)


def _line(c: dict[str, int]) -> str:
    n = max(sum(c.values()), 1)
    return (
        f"right {c['right']}/{n} ({c['right'] / n:.1%}) wrong {c['wrong']} "
        f"unsure {c['unsure']} none {c['none']}"
    )


if __name__ == "__main__":
    main()
