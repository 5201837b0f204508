"""Profile MCR scoring on the speed benchmark's random hands (cProfile).

    nice -n 10 python -m benchmarks.profile_scoring [--hands 5000] [--seed 1] [--top 30] [--sort tottime]

Prints the top functions; use it to find where ``scoring.score`` spends its time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys

from benchmarks.mcr_referee import deals
from benchmarks.mcr_speed import project_call


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sort", default="tottime", help="pstats sort key (tottime, cumulative, ...)")
    args = parser.parse_args(argv)
    calls = [project_call(deal) for deal in deals(args.hands, args.seed)]
    for call in calls[:100]:  # warm the caches as the benchmark does
        call()
    profiler = cProfile.Profile()
    profiler.enable()
    for call in calls:
        call()
    profiler.disable()
    pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
