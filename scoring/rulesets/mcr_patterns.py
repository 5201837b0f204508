"""MCR data tables: the 81 fans (card names and values) and what each excludes.

Names and values follow the user's card (``mcr-fans.md``); the exclusions
follow the card's "exclude" clauses and the 2006 Green Book (see
``docs/rules/mcr.md`` for each decision).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from functools import cache


class Pattern(Enum):
    """The 81 MCR fans, in card order (highest value first); values are card names."""

    BIG_FOUR_WINDS = "Big Four Winds"
    BIG_THREE_DRAGONS = "Big Three Dragons"
    ALL_GREEN = "All Green"
    NINE_GATES = "Nine Gates"
    FOUR_KONGS = "Four Kongs"
    SEVEN_SHIFTED_PAIRS = "Seven Shifted Pairs"
    THIRTEEN_ORPHANS = "Thirteen Orphans"
    ALL_TERMINALS = "All Terminals"
    LITTLE_FOUR_WINDS = "Little Four Winds"
    LITTLE_THREE_DRAGONS = "Little Three Dragons"
    ALL_HONORS = "All Honors"
    FOUR_CONCEALED_PUNGS = "Four Concealed Pungs"
    PURE_TERMINAL_CHOWS = "Pure Terminal Chows"
    QUADRUPLE_CHOW = "Quadruple Chow"
    FOUR_PURE_SHIFTED_PUNGS = "Four Pure Shifted Pungs"
    FOUR_PURE_SHIFTED_CHOWS = "Four Pure Shifted Chows"
    THREE_KONGS = "Three Kongs"
    ALL_TERMINALS_AND_HONORS = "All Terminals and Honors"
    SEVEN_PAIRS = "Seven Pairs"
    GREATER_HONORS_AND_KNITTED_TILES = "Greater Honors and Knitted Tiles"
    ALL_EVEN_PUNGS = "All Even Pungs"
    FULL_FLUSH = "Full Flush"
    PURE_TRIPLE_CHOW = "Pure Triple Chow"
    PURE_SHIFTED_PUNGS = "Pure Shifted Pungs"
    UPPER_TILES = "Upper Tiles"
    MIDDLE_TILES = "Middle Tiles"
    LOWER_TILES = "Lower Tiles"
    PURE_STRAIGHT = "Pure Straight"
    THREE_SUITED_TERMINAL_CHOWS = "Three-Suited Terminal Chows"
    PURE_SHIFTED_CHOWS = "Pure Shifted Chows"
    ALL_FIVES = "All Fives"
    TRIPLE_PUNG = "Triple Pung"
    THREE_CONCEALED_PUNGS = "Three Concealed Pungs"
    LESSER_HONORS_AND_KNITTED_TILES = "Lesser Honors and Knitted Tiles"
    KNITTED_STRAIGHT = "Knitted Straight"
    UPPER_FOUR = "Upper Four"
    LOWER_FOUR = "Lower Four"
    BIG_THREE_WINDS = "Big Three Winds"
    MIXED_STRAIGHT = "Mixed Straight"
    REVERSIBLE_TILES = "Reversible Tiles"
    MIXED_TRIPLE_CHOW = "Mixed Triple Chow"
    MIXED_SHIFTED_PUNGS = "Mixed Shifted Pungs"
    CHICKEN_HAND = "Chicken Hand"
    LAST_TILE_DRAW = "Last Tile Draw"
    LAST_TILE_CLAIM = "Last Tile Claim"
    OUT_WITH_REPLACEMENT_TILE = "Out with Replacement Tile"
    ROBBING_THE_KONG = "Robbing the Kong"
    TWO_CONCEALED_KONGS = "Two Concealed Kongs"
    ALL_PUNGS = "All Pungs"
    HALF_FLUSH = "Half Flush"
    MIXED_SHIFTED_CHOWS = "Mixed Shifted Chows"
    ALL_TYPES = "All Types"
    MELDED_HAND = "Melded Hand"
    TWO_DRAGON_PUNGS = "Two Dragon Pungs"
    OUTSIDE_HAND = "Outside Hand"
    FULLY_CONCEALED_HAND = "Fully Concealed Hand"
    TWO_MELDED_KONGS = "Two Melded Kongs"
    LAST_TILE = "Last Tile"
    DRAGON_PUNG = "Dragon Pung"
    PREVALENT_WIND = "Prevalent Wind"
    SEAT_WIND = "Seat Wind"
    CONCEALED_HAND = "Concealed Hand"
    ALL_CHOWS = "All Chows"
    TILE_HOG = "Tile Hog"
    DOUBLE_PUNG = "Double Pung"
    TWO_CONCEALED_PUNGS = "Two Concealed Pungs"
    CONCEALED_KONG = "Concealed Kong"
    ALL_SIMPLES = "All Simples"
    PURE_DOUBLE_CHOW = "Pure Double Chow"
    MIXED_DOUBLE_CHOW = "Mixed Double Chow"
    SHORT_STRAIGHT = "Short Straight"
    TWO_TERMINAL_CHOWS = "Two Terminal Chows"
    PUNG_OF_TERMINALS_OR_HONORS = "Pung of Terminals or Honors"
    MELDED_KONG = "Melded Kong"
    ONE_VOIDED_SUIT = "One Voided Suit"
    NO_HONORS = "No Honors"
    EDGE_WAIT = "Edge Wait"
    CLOSED_WAIT = "Closed Wait"
    SINGLE_WAIT = "Single Wait"
    SELF_DRAWN = "Self-Drawn"
    FLOWER_TILES = "Flower Tiles"

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow Python

    @property
    def number(self) -> int:
        """The fan's number on the card (1-81)."""
        return ORDER[self] + 1

    def __str__(self) -> str:
        return self.value


ORDER: dict[Pattern, int] = {pattern: index for index, pattern in enumerate(Pattern)}

_VALUE_RUNS = (  # (value, how many consecutive fans in card order have it)
    (88, 7), (64, 6), (48, 2), (32, 3), (24, 9), (16, 6), (12, 5), (8, 10), (6, 6), (4, 4),
    (2, 10), (1, 13),
)
VALUES: dict[Pattern, int] = dict(
    zip(Pattern, (value for value, run in _VALUE_RUNS for _ in range(run)), strict=True)
)



def preference(counts: Mapping[Pattern, int]) -> tuple[int, tuple[int, ...]]:
    """Ordering key, higher is better: total fan, then fans that come earlier on the card."""
    return ranking(tuple(pattern for pattern, count in counts.items() for _ in range(count)))


@cache
def ranking(patterns: tuple[Pattern, ...]) -> tuple[int, tuple[int, ...]]:
    """``preference`` of fans given one entry per occurrence (cached: few different lists occur)."""
    orders = sorted((-ORDER[pattern] for pattern in patterns), reverse=True)
    return sum(VALUES[pattern] for pattern in patterns), tuple(orders)


P = Pattern
_KONG_FANS = (P.TWO_MELDED_KONGS, P.TWO_CONCEALED_KONGS, P.MELDED_KONG, P.CONCEALED_KONG)
_NO_SETS = (P.CONCEALED_HAND, P.SINGLE_WAIT)  # shapes that are always concealed single-tile waits

#: "X excludes Y": Y is not counted while X counts (card "exclude" clauses and Green Book).
EXCLUDES: dict[Pattern, frozenset[Pattern]] = {
    pattern: frozenset(excluded) for pattern, excluded in {
        P.BIG_FOUR_WINDS: (P.BIG_THREE_WINDS, P.ALL_PUNGS, P.SEAT_WIND, P.PREVALENT_WIND,
                           P.PUNG_OF_TERMINALS_OR_HONORS),
        P.BIG_THREE_DRAGONS: (P.TWO_DRAGON_PUNGS, P.DRAGON_PUNG),
        P.ALL_GREEN: (P.HALF_FLUSH,),
        P.NINE_GATES: (P.FULL_FLUSH, P.CONCEALED_HAND, P.PUNG_OF_TERMINALS_OR_HONORS, P.NO_HONORS),
        P.FOUR_KONGS: (P.THREE_KONGS, *_KONG_FANS, P.SINGLE_WAIT, P.ALL_PUNGS),
        P.SEVEN_SHIFTED_PAIRS: (P.SEVEN_PAIRS, P.FULL_FLUSH, *_NO_SETS, P.NO_HONORS),
        P.THIRTEEN_ORPHANS: (P.ALL_TERMINALS_AND_HONORS, P.ALL_TYPES, *_NO_SETS),
        P.ALL_TERMINALS: (P.ALL_TERMINALS_AND_HONORS, P.ALL_PUNGS, P.OUTSIDE_HAND,
                          P.PUNG_OF_TERMINALS_OR_HONORS, P.DOUBLE_PUNG, P.NO_HONORS),
        P.LITTLE_FOUR_WINDS: (P.BIG_THREE_WINDS, P.PUNG_OF_TERMINALS_OR_HONORS),
        P.LITTLE_THREE_DRAGONS: (P.TWO_DRAGON_PUNGS, P.DRAGON_PUNG),
        P.ALL_HONORS: (P.ALL_TERMINALS_AND_HONORS, P.ALL_PUNGS, P.OUTSIDE_HAND,
                       P.PUNG_OF_TERMINALS_OR_HONORS),
        P.FOUR_CONCEALED_PUNGS: (P.ALL_PUNGS, P.THREE_CONCEALED_PUNGS, P.TWO_CONCEALED_PUNGS,
                                 P.CONCEALED_HAND),
        P.PURE_TERMINAL_CHOWS: (P.FULL_FLUSH, P.ALL_CHOWS, P.PURE_DOUBLE_CHOW, P.TWO_TERMINAL_CHOWS,
                                P.NO_HONORS),
        P.QUADRUPLE_CHOW: (P.PURE_TRIPLE_CHOW, P.PURE_DOUBLE_CHOW, P.TILE_HOG),
        P.FOUR_PURE_SHIFTED_PUNGS: (P.PURE_SHIFTED_PUNGS, P.ALL_PUNGS),
        P.FOUR_PURE_SHIFTED_CHOWS: (P.PURE_SHIFTED_CHOWS, P.SHORT_STRAIGHT, P.TWO_TERMINAL_CHOWS),
        P.THREE_KONGS: _KONG_FANS,
        P.ALL_TERMINALS_AND_HONORS: (P.ALL_PUNGS, P.OUTSIDE_HAND, P.PUNG_OF_TERMINALS_OR_HONORS),
        P.SEVEN_PAIRS: _NO_SETS,
        P.GREATER_HONORS_AND_KNITTED_TILES: (P.ALL_TYPES, *_NO_SETS),
        P.ALL_EVEN_PUNGS: (P.ALL_PUNGS, P.ALL_SIMPLES, P.NO_HONORS),
        P.FULL_FLUSH: (P.NO_HONORS,),
        P.PURE_TRIPLE_CHOW: (P.PURE_DOUBLE_CHOW,),
        P.UPPER_TILES: (P.UPPER_FOUR, P.NO_HONORS),
        P.MIDDLE_TILES: (P.ALL_SIMPLES, P.NO_HONORS),
        P.LOWER_TILES: (P.LOWER_FOUR, P.NO_HONORS),
        P.THREE_SUITED_TERMINAL_CHOWS: (P.ALL_CHOWS, P.MIXED_DOUBLE_CHOW, P.TWO_TERMINAL_CHOWS,
                                        P.NO_HONORS),
        P.ALL_FIVES: (P.ALL_SIMPLES, P.NO_HONORS),
        P.TRIPLE_PUNG: (P.DOUBLE_PUNG,),
        P.THREE_CONCEALED_PUNGS: (P.TWO_CONCEALED_PUNGS,),
        P.LESSER_HONORS_AND_KNITTED_TILES: (P.ALL_TYPES, *_NO_SETS),
        P.UPPER_FOUR: (P.NO_HONORS,),
        P.LOWER_FOUR: (P.NO_HONORS,),
        P.REVERSIBLE_TILES: (P.ONE_VOIDED_SUIT,),
        P.MIXED_TRIPLE_CHOW: (P.MIXED_DOUBLE_CHOW,),
        P.LAST_TILE_DRAW: (P.SELF_DRAWN,),
        P.OUT_WITH_REPLACEMENT_TILE: (P.SELF_DRAWN,),
        P.ROBBING_THE_KONG: (P.LAST_TILE,),
        P.TWO_CONCEALED_KONGS: (P.CONCEALED_KONG, P.TWO_CONCEALED_PUNGS),
        P.MELDED_HAND: (P.SINGLE_WAIT,),
        P.TWO_DRAGON_PUNGS: (P.DRAGON_PUNG,),
        P.FULLY_CONCEALED_HAND: (P.SELF_DRAWN,),
        P.TWO_MELDED_KONGS: (P.MELDED_KONG,),
        P.ALL_CHOWS: (P.NO_HONORS,),
        P.ALL_SIMPLES: (P.NO_HONORS,),
    }.items()
}
