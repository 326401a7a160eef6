"""Benchmark: score all 12,994,800 shows as hands and as cribs, check them, print the time.

    python benchmarks/bench_scoring.py

Target (issue 2): both tables in under 2 s on the 2-core development machine.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from crib_pi.actions import GameOptions
from crib_pi.scoring import _rank_table, all_shows, score_hand, score_hands
from crib_pi.simulate import random_game

ORACLE = Path(__file__).resolve().parents[1] / "tests/data/oracles/show_score_counts.json"


def main() -> None:
    t0 = time.perf_counter()
    hands, starters = all_shows()
    t1 = time.perf_counter()
    _rank_table()
    t2 = time.perf_counter()
    oracle = json.loads(ORACLE.read_text()) if ORACLE.exists() else None
    total_time = 0.0
    for kind in ("hand", "crib"):
        start = time.perf_counter()
        totals = score_hands(hands, starters, crib=kind == "crib")
        took = time.perf_counter() - start
        total_time += took
        counts = np.bincount(totals, minlength=30)
        ok = "not checked (no oracle)"
        if oracle:
            expected = [oracle[kind]["counts"][str(k)] for k in range(30)]
            ok = "matches the oracle" if counts.tolist() == expected else "MISMATCH"
        print(f"{kind:>4} table: {len(totals):,} shows in {took:.3f} s, {ok}")
    print(f"both tables: {total_time:.3f} s (plus {t2 - t1:.3f} s building the rank table once,")
    print(f"             {t1 - t0:.3f} s enumerating the shows)")
    sample = [(hands[i], starters[i]) for i in range(0, len(hands), 130_000)]
    from crib_pi.cards import Card

    start = time.perf_counter()
    for h, s in sample:
        score_hand([Card.from_index(int(i)) for i in h], Card.from_index(int(s)))
    per = (time.perf_counter() - start) / len(sample)
    print(f"score_hand (itemised, one show): {per * 1e6:.0f} us")
    start = time.perf_counter()
    games = 20
    actions = 0
    for seed in range(games):
        _, done = random_game(GameOptions(players=2), seed)
        actions += len(done)
    took = time.perf_counter() - start
    print(f"game engine: {actions / took:,.0f} actions/s ({took / games * 1000:.0f} ms a game)")


if __name__ == "__main__":
    main()
