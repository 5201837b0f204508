"""Fans made by combining chows (or suited pungs), under the Green Book's principles.

A set is a key: the ``Tile.index`` of its lowest tile (suit = key // 9,
rank = key % 9 + 1). ``CHOW_RULES`` / ``PUNG_RULES`` say which
groups of two, three or four sets make which fan; ``best_combination``
chooses the highest-scoring legal selection of those groups:

- non-repeat / non-separation: once sets are combined into a fan, no smaller
  fan is made from those same sets alone (a pair inside a Pure Straight);
- non-identical: a set makes a given fan at most once (234s with two 234p
  is one Mixed Double Chow);
- account-once: every new combination must bring in a set not yet connected
  to the others, i.e. the combinations form a forest (234567s 234567p counts
  three of the four chow-pair fans, not four).

Ties keep the selection whose fans come first on the card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import combinations, pairwise

from scoring.breakdown import Exclusion
from scoring.rulesets.mcr_patterns import ORDER, Pattern, preference

Key = int  # Tile.index of the lowest tile: 9 * suit + rank - 1
Rule = tuple[Pattern, int, Callable[[tuple[Key, ...]], bool]]


def _one_suit(keys: tuple[Key, ...]) -> bool:
    return len({key // 9 for key in keys}) == 1


def _each_suit(keys: tuple[Key, ...]) -> bool:
    return len({key // 9 for key in keys}) == len(keys)


def _ranks(keys: tuple[Key, ...]) -> list[int]:
    return sorted(key % 9 + 1 for key in keys)


def _stepped(keys: tuple[Key, ...], steps: tuple[int, ...]) -> bool:
    """Ranks rise by one common step taken from ``steps``."""
    ranks = _ranks(keys)
    return any(all(b - a == step for a, b in pairwise(ranks)) for step in steps)


def _same(keys: tuple[Key, ...]) -> bool:
    return len({key % 9 for key in keys}) == 1


def _ranks_are(*ranks: int) -> Callable[[tuple[Key, ...]], bool]:
    return lambda keys: _ranks(keys) == list(ranks)


def _all(*tests: Callable[[tuple[Key, ...]], bool]) -> Callable[[tuple[Key, ...]], bool]:
    return lambda keys: all(test(keys) for test in tests)


P = Pattern
CHOW_RULES: tuple[Rule, ...] = (
    (P.QUADRUPLE_CHOW, 4, _all(_one_suit, _same)),
    (P.FOUR_PURE_SHIFTED_CHOWS, 4, _all(_one_suit, lambda k: _stepped(k, (1, 2)))),
    (P.PURE_TRIPLE_CHOW, 3, _all(_one_suit, _same)),
    (P.PURE_STRAIGHT, 3, _all(_one_suit, _ranks_are(1, 4, 7))),
    (P.PURE_SHIFTED_CHOWS, 3, _all(_one_suit, lambda k: _stepped(k, (1, 2)))),
    (P.MIXED_STRAIGHT, 3, _all(_each_suit, _ranks_are(1, 4, 7))),
    (P.MIXED_TRIPLE_CHOW, 3, _all(_each_suit, _same)),
    (P.MIXED_SHIFTED_CHOWS, 3, _all(_each_suit, lambda k: _stepped(k, (1,)))),
    (P.PURE_DOUBLE_CHOW, 2, _all(_one_suit, _same)),
    (P.MIXED_DOUBLE_CHOW, 2, _all(_each_suit, _same)),
    (P.SHORT_STRAIGHT, 2, _all(_one_suit, lambda k: _stepped(k, (3,)))),
    (P.TWO_TERMINAL_CHOWS, 2, _all(_one_suit, _ranks_are(1, 7))),
)
PUNG_RULES: tuple[Rule, ...] = (
    (P.FOUR_PURE_SHIFTED_PUNGS, 4, _all(_one_suit, lambda k: _stepped(k, (1,)))),
    (P.PURE_SHIFTED_PUNGS, 3, _all(_one_suit, lambda k: _stepped(k, (1,)))),
    (P.TRIPLE_PUNG, 3, _all(_each_suit, _same)),
    (P.MIXED_SHIFTED_PUNGS, 3, _all(_each_suit, lambda k: _stepped(k, (1,)))),
    (P.DOUBLE_PUNG, 2, _all(_each_suit, _same)),
)

Candidate = tuple[Pattern, frozenset[int]]


def _candidates(keys: tuple[Key, ...], rules: tuple[Rule, ...]) -> list[Candidate]:
    found = []
    for pattern, size, test in rules:
        for group in combinations(range(len(keys)), size):
            if test(tuple(keys[i] for i in group)):
                found.append((pattern, frozenset(group)))
    return found


def _is_forest(groups: list[frozenset[int]]) -> bool:
    """True when each group joins sets not yet connected by the groups before it."""
    component: dict[int, int] = {}
    for group in groups:
        roots = {component.get(member, member) for member in group}
        if len(roots) < len(group):
            return False
        merged = min(roots)
        component = {m: merged if c in roots else c for m, c in component.items()}
        component.update(dict.fromkeys(group, merged))
    return True


def _conflict(candidate: Candidate, chosen: list[Candidate]) -> str | None:
    """Why ``candidate`` cannot join ``chosen`` (None when it can)."""
    pattern, sets = candidate
    for other, other_sets in chosen:
        if sets <= other_sets:
            return f"non-separation: its sets already make {other}"
        if other is pattern and sets & other_sets:
            return f"non-identical: a set already makes {pattern}"
    if not _is_forest([members for _, members in chosen] + [sets]):
        return "account-once: its sets were already combined with each other"
    return None


def _search(candidates: list[Candidate], start: int, chosen: list[Candidate]) -> list[Candidate]:
    best = list(chosen)
    for index in range(start, len(candidates)):
        if _conflict(candidates[index], chosen) is None:
            found = _search(candidates, index + 1, chosen + [candidates[index]])
            if preference(Counter(p for p, _ in found)) > preference(Counter(p for p, _ in best)):
                best = found
    return best


@cache
def best_combination(keys: tuple[Key, ...], chows: bool) -> tuple[Counter, tuple[Exclusion, ...]]:
    """(fans counted, combinations left out with the principle) for sorted set keys."""
    candidates = _candidates(keys, CHOW_RULES if chows else PUNG_RULES)
    chosen = _search(candidates, 0, [])
    dropped = {
        Exclusion(pattern.value, _conflict((pattern, sets), chosen) or "account-once")
        for pattern, sets in candidates if (pattern, sets) not in chosen
    }
    counted = Counter(pattern for pattern, _ in chosen)
    return counted, tuple(sorted(dropped, key=lambda e: (ORDER[Pattern(e.name)], e.reason)))
