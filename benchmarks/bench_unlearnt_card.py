"""A card its deck's lesson never learnt, shown to the learnt corners: is it named as another?

The learnt corners name a card no network read only where every card of its rank and of its
suit was learnt (``learnt_corners.witness``): a card never learnt is likest one of those. This
checks that rule on every card of decks drawn in three languages from seeds the training never
used (``CRIB_PI_FONT_DIR=build/unseen-fonts``, ``tools/unseen_fonts.sh``, for fonts no network
saw): each deck's corners are learnt from each card alone on the printed mat, as
``bench_learnt_corners.py`` learns them, then each card is laid alone again (another light,
another place) and matched with every learnt corner but its own. Prints each card that would
be named as another by the likeness alone (``ALONE_LIKE``, ``ALONE_MARGIN``) and whether the
rule lets it be; the totals last.

    CRIB_PI_FONT_DIR=build/unseen-fonts python benchmarks/bench_unlearnt_card.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from crib_pi.cards import Card
from crib_pi.vision.learnt_corners import likeness, rivals_learnt, sure_alone, upright
from crib_pi.vision.profile import build_profile
from crib_pi.vision.synth.scenes import make_scene

sys.path.insert(0, str(Path(__file__).parent))
from bench_corner import decks, drawn_args, outline, whole
from bench_learnt_corners import SCENE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 11, 23, 31, 13, 29, 47, 2024])
    parser.add_argument("--jitter", type=float, default=2.0, help="outline error (px)")
    args, fonts = drawn_args(parser)
    shown = alike = named = 0
    for seed, language, name, deck in decks(args.seeds, fonts):
        rng = np.random.default_rng([seed, 99, ord(language[0])])
        looks = {card: _view(rng, deck, card, args.jitter) for card in range(52)}
        views = {card: v for card, v in looks.items() if v is not None}
        profile = build_profile(name, [], [], views)
        assert profile.corners is not None and profile.cornered is not None
        for card in np.flatnonzero(profile.cornered):
            again = _view(rng, deck, int(card), args.jitter)
            if again is None:
                continue
            known = profile.cornered.copy()
            known[card] = False  # this card never learnt
            like = likeness(again, profile.corners, known)[:, 0]
            order = np.argsort(-like)
            best, top = int(order[0]), float(like[order[0]])
            margin = top - float(like[order[1]])
            shown += 1
            if not sure_alone(top, margin):
                continue
            alike += 1
            lets = rivals_learnt(Card.from_index(best), known)
            named += lets
            print(
                f"  {name:9s} {Card.from_index(int(card))} likest {Card.from_index(best)} "
                f"{top:.3f} ({margin:+.3f}): {'NAMED' if lets else 'not named (a rival)'}",
                flush=True,
            )
    print(f"cards shown never learnt: {shown}")
    print(f"as like another as naming a card alone takes: {alike}")
    print(f"named as another (wrong): {named}")


def _view(rng: np.random.Generator, deck: Any, card: int, jitter: float) -> np.ndarray | None:
    """``card`` alone on the mat, upright as the finder would outline it, if it lies whole."""
    scene = make_scene(rng, [deck], cards=[card], **SCENE)  # type: ignore[arg-type]
    if not whole(scene, 0):
        return None
    quad = outline(scene, 0) + rng.uniform(-jitter, jitter, (4, 2))
    return upright(scene.image, quad)[0]


if __name__ == "__main__":
    main()
