"""Benchmark: what the translation layer costs, in English and in French.

    python benchmarks/bench_i18n.py [--games 20] [--seed 1]

Prints the time to load the French catalogue (the compiled .mo, and the .po compiled in
memory when no .mo is there), one itemised count said (``Score.spoken``) and the engine
playing random games (every record's text built through the catalogue) in each language, and
the voice's sentences for those games (``Announcer``), per game. Medians of several rounds,
the languages alternated so a busy machine weighs on both alike.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from io import BytesIO

from crib_pi import i18n
from crib_pi.actions import GameOptions
from crib_pi.catalogue import compile_entries, po_path, read_po
from crib_pi.game import Game
from crib_pi.scoring import score_hand
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog
from crib_pi.voice.words import Announcer


def timed(work: Callable[[], object], rounds: int) -> float:
    """Median seconds of ``work`` over ``rounds`` runs."""
    times = []
    for _round in range(rounds):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    po = po_path("fr")
    mo = po.with_suffix(".mo")
    if mo.exists():
        load_mo = timed(lambda: i18n.gettext.GNUTranslations(BytesIO(mo.read_bytes())), 20)
        print(f"load the compiled catalogue (.mo): {load_mo * 1000:.2f} ms")
    else:
        print("no compiled catalogue: run python -m crib_pi.catalogue first")
    load_po = timed(lambda: compile_entries(read_po(po)), 5)
    print(f"compile the .po in memory instead: {load_po * 1000:.1f} ms")

    options = GameOptions(players=2, target=121, dealer=0)
    games = [random_game(options, seed=args.seed + i, known=True)[1] for i in range(args.games)]
    hand, starter = "5H 5D 5S JC".split(), "5C"

    def play() -> None:
        for actions in games:
            game = Game(options)
            for action in actions:
                game.apply(action)

    def announce() -> None:
        for actions in games:
            table = TableSession(options, GameLog(None), Tracker())
            announcer = Announcer(i18n.current_language(), seen=0)
            for action in actions:
                table.game.apply(action)
                announcer.after(table)

    results: dict[str, list[float]] = {"spoken": [], "play": [], "announce": []}
    figures = {lang: {k: [] for k in results} for lang in i18n.LANGUAGES}
    for _round in range(5):
        for lang in i18n.LANGUAGES:
            i18n.use_language(lang)
            score = score_hand(hand, starter)
            figures[lang]["spoken"].append(timed(score.spoken, 200))
            figures[lang]["play"].append(timed(play, 1) / len(games))
            figures[lang]["announce"].append(timed(announce, 1) / len(games))
    i18n.use_language("en")
    for lang in i18n.LANGUAGES:
        f = {k: statistics.median(v) for k, v in figures[lang].items()}
        print(
            f"{lang}: a 29-hand said {f['spoken'] * 1e6:.0f} µs; a game played (records' words)"
            f" {f['play'] * 1000:.1f} ms; its sentences made {f['announce'] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
