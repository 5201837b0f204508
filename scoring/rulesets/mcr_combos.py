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
from itertools import combinations, combinations_with_replacement, pairwise, permutations
from operator import itemgetter

from scoring.breakdown import Exclusion
from scoring.rulesets.mcr_patterns import ORDER, Pattern, ranking

Key = int  # Tile.index of the lowest tile: 9 * suit + rank - 1
Ranks = tuple[int, ...]  # the sorted ranks of a group of sets
Rule = tuple[Pattern, int, bool, Callable[[Ranks], bool]]  # fan, sets, one suit (else each a suit), test


def _same(ranks: Ranks) -> bool:
    return ranks[0] == ranks[-1]


def _stepped(*steps: int) -> Callable[[Ranks], bool]:
    """Ranks rise by one common step taken from ``steps``."""
    return lambda ranks: any(all(b - a == step for a, b in pairwise(ranks)) for step in steps)


def _exactly(*wanted: int) -> Callable[[Ranks], bool]:
    return lambda ranks: ranks == wanted


P = Pattern
CHOW_RULES: tuple[Rule, ...] = (
    (P.QUADRUPLE_CHOW, 4, True, _same),
    (P.FOUR_PURE_SHIFTED_CHOWS, 4, True, _stepped(1, 2)),
    (P.PURE_TRIPLE_CHOW, 3, True, _same),
    (P.PURE_STRAIGHT, 3, True, _exactly(1, 4, 7)),
    (P.PURE_SHIFTED_CHOWS, 3, True, _stepped(1, 2)),
    (P.MIXED_STRAIGHT, 3, False, _exactly(1, 4, 7)),
    (P.MIXED_TRIPLE_CHOW, 3, False, _same),
    (P.MIXED_SHIFTED_CHOWS, 3, False, _stepped(1)),
    (P.PURE_DOUBLE_CHOW, 2, True, _same),
    (P.MIXED_DOUBLE_CHOW, 2, False, _same),
    (P.SHORT_STRAIGHT, 2, True, _stepped(3)),
    (P.TWO_TERMINAL_CHOWS, 2, True, _exactly(1, 7)),
)
PUNG_RULES: tuple[Rule, ...] = (
    (P.FOUR_PURE_SHIFTED_PUNGS, 4, True, _stepped(1)),
    (P.PURE_SHIFTED_PUNGS, 3, True, _stepped(1)),
    (P.TRIPLE_PUNG, 3, False, _same),
    (P.MIXED_SHIFTED_PUNGS, 3, False, _stepped(1)),
    (P.DOUBLE_PUNG, 2, False, _same),
)

Candidate = tuple[Pattern, frozenset[int]]
MAX_SETS = 4
Groups = dict[tuple[Key, ...], tuple[Pattern, ...]]


def _groups(rules: tuple[Rule, ...]) -> Groups:
    """The fans (in rule order) each group of sets makes, by the group's sorted keys; groups
    making none are left out. The rules' tests run once here, for every possible group."""
    table: Groups = {}
    for size in range(2, MAX_SETS + 1):
        for ranks in combinations_with_replacement(range(1, 10), size):
            for one_suit in (True, False):
                found = tuple(pattern for pattern, wanted, same_suit, test in rules
                              if wanted == size and same_suit == one_suit and test(ranks))
                # the suits of the sets: one suit for all, or a different suit each
                suitings = [(suit,) * size for suit in range(3)] if one_suit else permutations(range(3), size)
                for suits in suitings if found else ():
                    table[tuple(sorted(9 * suit + rank - 1 for suit, rank in zip(suits, ranks)))] = found
    return table


GROUPS = {True: _groups(CHOW_RULES), False: _groups(PUNG_RULES)}


#: For each number of sets, every group of two or more set positions, largest groups first: (the
#: positions, a reader of their keys from the sets' keys).
POSITION_GROUPS = tuple(
    tuple((frozenset(group), itemgetter(*group)) for size in range(MAX_SETS, 1, -1)
          for group in combinations(range(count), size))
    for count in range(MAX_SETS + 1)
)


def _candidates(keys: tuple[Key, ...], chows: bool) -> list[Candidate]:
    """Every (fan, group of set positions) the rules find among the sets."""
    groups = GROUPS[chows]
    found = []
    for group, members in POSITION_GROUPS[len(keys)]:
        for pattern in groups.get(members(keys), ()):  # most groups make none
            found.append((pattern, group))
    return found


Components = tuple[int, ...]  # for each set position, the lowest position it is connected to
SEPARATE: Components = tuple(range(MAX_SETS))
ACCOUNT_ONCE = "account-once: its sets were already combined with each other"


@cache
def _joined(components: Components, group: frozenset[int]) -> Components | None:
    """The connections once ``group`` is combined; None when it joins sets already connected."""
    roots = {components[member] for member in group}
    if len(roots) < len(group):
        return None
    merged = min(roots)
    return tuple(merged if root in roots else root for root in components)


def _connections(chosen: list[Candidate]) -> Components:
    """How the chosen groups (a forest, as ``_search`` builds it) connect the sets."""
    components = SEPARATE
    for _, group in chosen:
        components = _joined(components, group)
    return components


#: The principles' reasons, by the fan they name (written once).
NON_SEPARATION = {pattern: f"non-separation: its sets already make {pattern}" for pattern in Pattern}
NON_IDENTICAL = {pattern: f"non-identical: a set already makes {pattern}" for pattern in Pattern}


def _repeats(candidate: Candidate, chosen: list[Candidate]) -> str | None:
    """The non-separation or non-identical reason ``candidate`` cannot join ``chosen`` (None when neither)."""
    pattern, sets = candidate
    for other, other_sets in chosen:
        if sets <= other_sets:
            return NON_SEPARATION[other]
        if other is pattern and sets & other_sets:
            return NON_IDENTICAL[pattern]
    return None


def _conflict(candidate: Candidate, chosen: list[Candidate], components: Components) -> str | None:
    """Why ``candidate`` cannot join ``chosen`` (connecting the sets as ``components``); None when it can."""
    if reason := _repeats(candidate, chosen):
        return reason
    return ACCOUNT_ONCE if _joined(components, candidate[1]) is None else None


def _search(candidates: tuple[Candidate, ...], start: int, chosen: list[Candidate],
            components: Components = SEPARATE) -> tuple[tuple, list[Candidate]]:
    """(ranking, selection): the best legal selection extending ``chosen`` with later candidates."""
    best = ranking(tuple(pattern for pattern, _ in chosen)), chosen
    for index in range(start, len(candidates)):
        candidate = candidates[index]
        joined = _joined(components, candidate[1])
        if joined is not None and _repeats(candidate, chosen) is None:
            found = _search(candidates, index + 1, chosen + [candidate], joined)
            if found[0] > best[0]:
                best = found
    return best


NO_COMBINATION: tuple[Counter, tuple[Exclusion, ...]] = (Counter(), ())  # shared: never modified


@cache
def best_combination(keys: tuple[Key, ...], chows: bool) -> tuple[Counter, tuple[Exclusion, ...]]:
    """(fans counted, combinations left out with the principle) for sorted set keys (cached; sets
    that differ only in their suits share the work: the rules treat the suits alike)."""
    return _best_in_suit_order(_suits_renumbered(keys), chows)


def _suits_renumbered(keys: tuple[Key, ...]) -> tuple[Key, ...]:
    """Sorted keys with their suits renumbered 0, 1, 2 in order (still sorted)."""
    numbers: dict[int, int] = {}
    return tuple([9 * numbers.setdefault(key // 9, len(numbers)) + key % 9 for key in keys])


@cache
def _best_in_suit_order(keys: tuple[Key, ...], chows: bool) -> tuple[Counter, tuple[Exclusion, ...]]:
    """best_combination of keys whose suits are numbered in order."""
    candidates = _candidates(keys, chows)
    # the common case: the sets make no fan together
    return _best_selection(tuple(candidates)) if candidates else NO_COMBINATION


@cache
def _best_selection(candidates: tuple[Candidate, ...]) -> tuple[Counter, tuple[Exclusion, ...]]:
    """best_combination of the candidates some sets make (cached: many different sets make the same)."""
    _, chosen = _search(candidates, 0, [])
    components = _connections(chosen)
    dropped = {
        (pattern, _conflict((pattern, sets), chosen, components) or "account-once")
        for pattern, sets in candidates if (pattern, sets) not in chosen
    }
    counted = Counter(pattern for pattern, _ in chosen)
    return counted, tuple(
        Exclusion(pattern.value, reason)
        for pattern, reason in sorted(dropped, key=lambda entry: (ORDER[entry[0]], entry[1]))
    )
