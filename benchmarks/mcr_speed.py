"""MCR scoring speed: this project vs pymahjonggb on the same random hands
(the referee's seeded generator), in microseconds per hand, plus the
worst case 1112345678999m + each characters tile.

    nice -n 10 python -m benchmarks.mcr_speed [--hands 20000] [--seed 1]

Targets (issue 2): median <= 100 us per hand; worst hand < 5 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchmarks.mcr_referee import Deal, Situation, deals, referee_args

NINE_GATES_BASE = "1112345678999"


@dataclass(frozen=True)
class Timing:
    """Per-hand times of one scorer, in microseconds."""

    name: str
    micros: tuple[float, ...]

    def quantile(self, q: float) -> float:
        ordered = sorted(self.micros)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def median(self) -> float:
        return statistics.median(self.micros)

    def row(self) -> str:
        return (f"{self.name:<12} median {self.median:9.1f}  p90 {self.quantile(0.9):9.1f}  "
                f"max {max(self.micros):9.1f}  mean {statistics.fmean(self.micros):9.1f}")


def _time_each(calls: Sequence[Callable[[], object]]) -> tuple[float, ...]:
    clock = time.perf_counter_ns
    out = []
    for call in calls:
        start = clock()
        call()
        out.append((clock() - start) / 1000)
    return tuple(out)


def project_call(deal: Deal) -> Callable[[], object]:
    """A closure scoring the deal with this project (parsing included)."""
    from scoring import score

    hand, win, kwargs = deal.hand, deal.win_code, deal.situation.kwargs()
    return lambda: score(hand, ruleset="mcr", win=win, **kwargs)


def referee_call(deal: Deal) -> Callable[[], object]:
    """A closure scoring the deal with pymahjonggb."""
    from MahjongGB import MahjongFanCalculator

    args = referee_args(deal)
    return lambda: MahjongFanCalculator(*args, verbose=True)


def compare_speed(sample: Sequence[Deal]) -> tuple[Timing, Timing]:
    """Time both scorers on the same hands (after a short warm-up)."""
    for deal in sample[:100]:
        project_call(deal)()
        referee_call(deal)()
    project = Timing("mahjong-lens", _time_each([project_call(d) for d in sample]))
    referee = Timing("pymahjonggb", _time_each([referee_call(d) for d in sample]))
    return project, referee


def slowest_retimed(sample: Sequence[Deal], timing: Timing, top: int = 20, repeats: int = 5) -> tuple[float, Deal]:
    """The slowest random hands timed again (median of `repeats`): a single
    slow call on a shared 2-core machine is often another process, not the hand."""
    ranked = sorted(range(len(sample)), key=timing.micros.__getitem__, reverse=True)[:top]
    retimed = [(statistics.median(_time_each([project_call(sample[i])] * repeats)), sample[i]) for i in ranked]
    return max(retimed, key=lambda entry: entry[0])


def worst_case(repeats: int = 20) -> list[tuple[str, float, float]]:
    """(winning tile, first-call us, median us) for 1112345678999m + each m tile."""
    rows = []
    for rank in range(1, 10):
        hand = "".join(sorted(NINE_GATES_BASE + str(rank))) + "m"
        deal = Deal.parse(hand, f"{rank}m", Situation())
        call = project_call(deal)
        first = _time_each([call])[0]
        rows.append((f"{rank}m", first, statistics.median(_time_each([call] * repeats))))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Microseconds per MCR hand: this project against pymahjonggb on the same random hands.")
    parser.add_argument("--hands", type=int, default=20_000, help="how many random hands (default 20,000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args(argv)
    sample = list(deals(args.hands, args.seed))
    project, referee = compare_speed(sample)
    print(f"{args.hands} random hands, seed {args.seed}, microseconds per hand")
    print(project.row())
    print(referee.row())
    print(f"ratio (mahjong-lens / pymahjonggb): median {project.median / referee.median:.1f}x, "
          f"p90 {project.quantile(0.9) / referee.quantile(0.9):.1f}x")
    slow, slow_deal = slowest_retimed(sample, project)
    print(f"slowest random hand re-timed (median of 5): {slow:.1f} us  {slow_deal}")
    print("worst case 1112345678999m + tile (us): first call, median of 20")
    rows = worst_case()
    for tile, first, median in rows:
        print(f"  +{tile}: {first:9.1f} {median:9.1f}")
    worst = max(median for _, _, median in rows)
    print(f"worst case: {worst:.1f} us median, slowest single call {max(f for _, f, _ in rows):.1f} us "
          f"(target < 5000); median target <= 100: {'met' if project.median <= 100 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
