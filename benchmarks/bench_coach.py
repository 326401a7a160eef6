"""Benchmark: the discard coach on random two-player hands, all 15 choices, the crib exact.

    python benchmarks/bench_coach.py [--hands 100] [--seed 1]

Each hand's ranking covers 15 discards x 46 starters for the hand and 15 x 1,035 x 44 =
683,100 cribs. Prints the median and spread over the hands. Target (issue 22): median under
50 ms on the 2-core development machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from crib_pi.cards import deck
from crib_pi.coach import rank_discards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cards = deck()
    start = time.perf_counter()
    rank_discards(rng.sample(cards, 6))  # first call: builds the rank table and multisets
    first = time.perf_counter() - start
    times = []
    for _ in range(args.hands):
        hand = rng.sample(cards, 6)
        dealer = rng.random() < 0.5
        start = time.perf_counter()
        choices = rank_discards(hand, players=2, dealer=dealer)
        times.append(time.perf_counter() - start)
        assert len(choices) == 15
    times.sort()
    ms = [t * 1000 for t in times]
    print(f"discard coach, {args.hands} random two-player hands, 15 choices each, crib exact:")
    print(
        f"  median {statistics.median(ms):.2f} ms, fastest {ms[0]:.2f} ms, "
        f"slowest {ms[-1]:.2f} ms (target: median under 50 ms)"
    )
    print(f"  first call, building the tables once: {first * 1000:.0f} ms")
    for players in (3, 4):
        hand = rng.sample(cards, 5)
        start = time.perf_counter()
        rank_discards(hand, players=players)
        print(
            f"  {players} players (5 choices, 5 x 16,215 x 44 cribs): "
            f"{(time.perf_counter() - start) * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
