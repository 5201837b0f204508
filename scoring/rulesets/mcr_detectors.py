"""MCR detectors: each looks at one arrangement and writes counts into one table.

Detectors never read each other's results; what one fan implies about
another is settled afterwards by the single exclusion pass in ``mcr.py``
(``EXCLUDES``). ``Facts`` holds what all arrangements of a hand share (its
HAND_DETECTORS run once per hand), ``View`` what one arrangement adds (its
DETECTORS run once per arrangement).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from itertools import compress, pairwise
from types import SimpleNamespace
from typing import NamedTuple

from scoring.breakdown import Exclusion
from scoring.decompose import Arrangement, Shape, Wait
from scoring.hand import Hand, Meld, SetKind, meld_of
from scoring.rulesets.mcr_combos import best_combination
from scoring.rulesets.mcr_patterns import Pattern
from scoring.situation import Situation
from scoring.tiles import PLAYING_TILES, SUITED, Tile, Wind

P = SimpleNamespace(**Pattern.__members__)  # the fans as plain attributes: Enum class reads are slow in 3.11
Table = defaultdict  # defaultdict(int): Pattern -> count (missing fans read as 0)


def _mask(predicate: Callable[[Tile], bool]) -> int:
    """Bit mask (bit = Tile.index) of the playing tiles that satisfy ``predicate``."""
    return sum(1 << tile.index for tile in PLAYING_TILES if predicate(tile))


def _ranked(low: int, high: int) -> int:
    return _mask(lambda t: t.is_suited and low <= t.rank <= high)


def _codes(*codes: str) -> int:
    return _mask(lambda t: t.code in codes)


GREEN = _codes("2s", "3s", "4s", "6s", "8s", "6z")
REVERSIBLE = _codes("1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "5z")
CHARACTERS, DOTS, BAMBOO = (_mask(lambda t, suit=suit: t.suit is suit) for suit in SUITED)
HONORS, WINDS, DRAGONS = _mask(lambda t: t.is_honor), _mask(lambda t: t.is_wind), _mask(lambda t: t.is_dragon)
TERMINALS, SUITED_TILES = _mask(lambda t: t.is_terminal), _mask(lambda t: t.is_suited)
BITS = tuple(1 << tile.index for tile in PLAYING_TILES)  # Tile.index -> its bit
WIND_BITS = {wind: BITS[wind.tile.index] for wind in Wind}  # the bit of each wind's tile
# for the hot loops: Enum class attributes are slow to read
_CHOW, _PAIR, _KONG = SetKind.CHOW, SetKind.PAIR, SetKind.KONG

#: Fans of tile faces only: every tile of the hand lies in the given faces (bit masks).
ALL_WITHIN: dict[Pattern, int] = {
    P.ALL_GREEN: GREEN,
    P.ALL_TERMINALS: TERMINALS,
    P.ALL_HONORS: HONORS,
    P.ALL_TERMINALS_AND_HONORS: _mask(lambda t: t.is_terminal_or_honor),
    P.UPPER_TILES: _ranked(7, 9),
    P.MIDDLE_TILES: _ranked(4, 6),
    P.LOWER_TILES: _ranked(1, 3),
    P.UPPER_FOUR: _ranked(6, 9),
    P.LOWER_FOUR: _ranked(1, 4),
    P.REVERSIBLE_TILES: REVERSIBLE,
    P.ALL_SIMPLES: _mask(lambda t: t.is_simple),
    P.NO_HONORS: SUITED_TILES,
}


_SUIT_BITS = ((0, 9), (9, 9), (18, 9), (27, 7))  # (first bit, bits) of each suit's faces in a mask


def _within_by_suit() -> tuple[tuple[int, ...], ...]:
    """For each suit, by the mask of its faces held (shifted down): the ALL_WITHIN fans (bit j =
    j-th fan) whose faces include them. A hand's fans are the four suits' entries ANDed."""
    return tuple(
        tuple(sum(1 << j for j, allowed in enumerate(ALL_WITHIN.values()) if not held << first & ~allowed)
              for held in range(1 << bits))
        for first, bits in _SUIT_BITS
    )


WITHIN_BY_SUIT = _within_by_suit()
#: The ALL_WITHIN fans of each combination of their bits (as WITHIN_BY_SUIT sets them).
WITHIN_FANS = tuple(tuple(compress(ALL_WITHIN, map(int, f"{bits:012b}"[::-1]))) for bits in range(1 << len(ALL_WITHIN)))


class Facts(NamedTuple):
    """What every arrangement of one hand shares: the hand, the situation, the checked flags.

    Derived once by ``Facts.of``: ``counts`` (copies of each playing tile by
    Tile.index, kongs with four), ``mask`` (bit mask of the faces, bit =
    Tile.index), ``kongs`` (the ``concealed`` flag of each declared kong),
    ``seat`` / ``prevalent`` (the bit of the seat / prevalent wind's tile)
    and ``fans`` (HAND_DETECTORS' table, no zero counts). A named tuple:
    immutable and quick to build.
    """

    hand: Hand
    situation: Situation
    flags: frozenset[str]  # situation flags that apply, after the rule set's checks
    counts: tuple[int, ...]
    mask: int
    kongs: tuple[bool, ...]
    seat: int
    prevalent: int
    fans: Table

    @classmethod
    def of(cls, hand: Hand, situation: Situation, flags: frozenset[str] = frozenset()) -> Facts:
        """The facts of a hand, HAND_DETECTORS' table filled in."""
        counts = hand.counts[:len(PLAYING_TILES)]
        melds = hand.melds
        kongs = tuple(meld.concealed for meld in melds if meld.kind is _KONG) if melds else ()
        facts = cls(hand, situation, flags, counts, sum(compress(BITS, counts)), kongs,
                    WIND_BITS[situation.seat_wind], WIND_BITS[situation.prevalent_wind], defaultdict(int))
        for detector in HAND_DETECTORS:
            detector(facts, facts.fans)
        return facts


class View(NamedTuple):
    """One arrangement of a hand, as the arrangement detectors see it.

    Derived once by ``View.of``: the arrangement's ``shape``, ``pungs`` (and
    kongs; one completed by a discard counted as exposed), ``pung_mask`` (bit
    mask of their tiles, bit = Tile.index), ``chows``, ``pair`` (its tile or
    None) and the chosen chow and suited-pung combinations (``mcr_combos``).
    A named tuple: immutable and quick to build.
    """

    facts: Facts
    arrangement: Arrangement
    shape: Shape
    pungs: tuple[Meld, ...]
    pung_mask: int
    chows: tuple[Meld, ...]
    pair: Tile | None
    chow_fans: tuple[Counter, tuple[Exclusion, ...]]
    pung_fans: tuple[Counter, tuple[Exclusion, ...]]

    @classmethod
    def of(cls, facts: Facts, arrangement: Arrangement) -> View:
        """The view of one arrangement of the hand ``facts`` describe."""
        pungs: list[Meld] = []
        chows: list[Meld] = []
        pung_keys: list[int] = []  # a set's key: the Tile.index of its lowest tile
        chow_keys: list[int] = []
        for meld in arrangement.effective_sets(facts.situation.self_drawn):
            kind = meld.kind
            if kind is _CHOW:
                chows.append(meld)
                chow_keys.append(meld.tiles[0].index)
            elif kind is not _PAIR:
                pungs.append(meld)
                pung_keys.append(meld.tiles[0].index)
        pung_keys.sort()
        chow_keys.sort()
        pair = arrangement.pair
        return cls(
            facts, arrangement, arrangement.shape, tuple(pungs), sum(map(BITS.__getitem__, pung_keys)),
            tuple(chows), None if pair is None else pair.first, best_combination(tuple(chow_keys), True),
            best_combination(tuple([key for key in pung_keys if 1 << key & SUITED_TILES]), False),
        )

    @property
    def hand(self) -> Hand:
        return self.facts.hand

    @property
    def situation(self) -> Situation:
        return self.facts.situation


# ---- whole-hand tile fans -------------------------------------------------------------

def tile_fans(v: Facts, table: Table) -> None:
    """All Green, All Terminals, ... No Honors: every tile within a set of faces."""
    mask = v.mask
    m, p, s, z = WITHIN_BY_SUIT
    for pattern in WITHIN_FANS[m[mask & 511] & p[mask >> 9 & 511] & s[mask >> 18 & 511] & z[mask >> 27]]:
        table[pattern] += 1


def suit_fans(v: Facts, table: Table) -> None:
    """Full Flush, Half Flush, One Voided Suit, All Types."""
    mask = v.mask
    suits = (mask & CHARACTERS != 0) + (mask & DOTS != 0) + (mask & BAMBOO != 0)
    if suits == 1:
        table[P.HALF_FLUSH if mask & HONORS else P.FULL_FLUSH] += 1
    elif suits == 2:
        table[P.ONE_VOIDED_SUIT] += 1
    elif suits == 3 and mask & WINDS and mask & DRAGONS:
        table[P.ALL_TYPES] += 1


def tile_hog(v: Facts, table: Table) -> None:
    """Four of a tile used without being a kong."""
    hogs = v.counts.count(4) - len(v.kongs)
    if hogs:
        table[P.TILE_HOG] += hogs


# ---- shapes ---------------------------------------------------------------------------

def pairs_shape(v: View, table: Table) -> None:
    """Seven Pairs, or Seven Shifted Pairs (seven consecutive pairs of one suit)."""
    tiles = sorted(meld.first for meld in v.arrangement.sets)
    shifted = len({t.suit for t in tiles}) == 1 and tiles[0].is_suited and all(
        b.rank - a.rank == 1 for a, b in pairwise(tiles))
    table[P.SEVEN_SHIFTED_PAIRS if shifted else P.SEVEN_PAIRS] += 1


def knitted_shapes(v: View, table: Table) -> None:
    """Thirteen Orphans, Greater/Lesser Honors and Knitted Tiles, Knitted Straight."""
    if v.shape is Shape.THIRTEEN_ORPHANS:
        table[P.THIRTEEN_ORPHANS] += 1
    elif v.shape is Shape.HONORS_AND_KNITTED:
        mask = v.facts.mask
        honors = (mask & HONORS).bit_count()
        table[P.GREATER_HONORS_AND_KNITTED_TILES if honors == 7 else P.LESSER_HONORS_AND_KNITTED_TILES] += 1
        if mask.bit_count() - honors == 9:
            table[P.KNITTED_STRAIGHT] += 1
    elif v.shape is Shape.KNITTED_STRAIGHT:
        table[P.KNITTED_STRAIGHT] += 1


NINE_GATES_COUNTS = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def nine_gates(v: Facts, table: Table) -> None:
    """1112345678999 of one suit, concealed, plus any tile of that suit."""
    hand = v.hand
    start = hand.win.index - hand.win.rank + 1  # the winning tile's suit: every tile must be of it
    if hand.melds or v.counts[start] < 3:
        return
    rest = list(v.counts[start:start + 9])
    rest[hand.win.rank - 1] -= 1
    if tuple(rest) == NINE_GATES_COUNTS:
        table[P.NINE_GATES] += 1


# ---- sets -----------------------------------------------------------------------------

def _even_pung(meld: Meld) -> bool:
    return meld.kind is not SetKind.CHOW and meld.first.is_suited and meld.first.rank % 2 == 0


_STANDARD = frozenset({Shape.STANDARD})
#: Fans where every set of the arrangement, the pair included, passes a test (and the shapes they apply to).
EVERY_SET: dict[Pattern, tuple[Callable[[Meld], bool], frozenset[Shape]]] = {
    P.ALL_PUNGS: (lambda m: m.kind is not SetKind.CHOW, _STANDARD),
    P.ALL_EVEN_PUNGS: (_even_pung, _STANDARD),
    P.OUTSIDE_HAND: (lambda m: any(t.is_terminal_or_honor for t in m.tiles), _STANDARD),
    P.ALL_FIVES: (lambda m: any(t.is_suited and t.rank == 5 for t in m.tiles), _STANDARD),
    P.ALL_CHOWS: (lambda m: m.kind is SetKind.CHOW or (m.kind is SetKind.PAIR and m.first.is_suited),
                  frozenset({Shape.STANDARD, Shape.KNITTED_STRAIGHT})),
}


def _every_set_traits() -> dict[SetKind, list[int]]:
    """The EVERY_SET fans whose test each possible set passes (bit j: the j-th fan), by its kind, then by
    the Tile.index of its lowest tile (0 where no such set exists)."""
    traits = {kind: [0] * len(PLAYING_TILES) for kind in SetKind}
    for kind in SetKind:
        for tile in PLAYING_TILES:
            if kind is not SetKind.CHOW or (tile.is_suited and tile.rank <= 7):
                meld = meld_of(kind, tile, True)
                traits[kind][tile.index] = sum(1 << j for j, (test, _) in enumerate(EVERY_SET.values()) if test(meld))
    return traits


SET_TRAITS = _every_set_traits()
ALL_SET_TRAITS = (1 << len(EVERY_SET)) - 1


def every_set_fans(v: View, table: Table) -> None:
    """All Pungs, All Even Pungs, Outside Hand, All Fives, All Chows."""
    common = ALL_SET_TRAITS
    for meld in v.arrangement.sets:
        common &= SET_TRAITS[meld.kind][meld.tiles[0].index]
        if not common:  # the common case, after a set or two
            return
    for bit, (pattern, (_, shapes)) in enumerate(EVERY_SET.items()):
        if common >> bit & 1 and v.shape in shapes:
            table[pattern] += 1


def combination_fans(v: View, table: Table) -> None:
    """Chow and suited-pung combinations (Pure Straight ... Double Pung), see mcr_combos."""
    for pattern, count in v.chow_fans[0].items():
        table[pattern] += count
    for pattern, count in v.pung_fans[0].items():
        table[pattern] += count


def terminal_chows(v: View, table: Table) -> None:
    """Pure Terminal Chows / Three-Suited Terminal Chows: 123 and 789 chows with a pair of 5s."""
    pair = v.pair
    if pair is None or pair.rank != 5 or len(v.chows) != 4:
        return
    chows = Counter((meld.suit, meld.first.rank) for meld in v.chows)
    others = [suit for suit in SUITED if suit is not pair.suit]
    if chows == Counter({(pair.suit, 1): 2, (pair.suit, 7): 2}):
        table[P.PURE_TERMINAL_CHOWS] += 1
    elif chows == Counter((suit, rank) for suit in others for rank in (1, 7)):
        table[P.THREE_SUITED_TERMINAL_CHOWS] += 1


CONCEALED_PUNGS = {2: P.TWO_CONCEALED_PUNGS, 3: P.THREE_CONCEALED_PUNGS, 4: P.FOUR_CONCEALED_PUNGS}


def concealed_pungs(v: View, table: Table) -> None:
    """Two/Three/Four Concealed Pungs (kongs included; a pung completed by a discard is exposed)."""
    if len(v.pungs) < 2:
        return
    pattern = CONCEALED_PUNGS.get(sum(meld.concealed for meld in v.pungs))
    if pattern:
        table[pattern] += 1


def kongs(v: Facts, table: Table) -> None:
    """Melded/Concealed Kong, Two Melded/Concealed Kongs, Three Kongs, Four Kongs."""
    if not v.kongs:
        return
    concealed = sum(v.kongs)
    melded = len(v.kongs) - concealed
    for pattern, count in ((P.MELDED_KONG, melded), (P.CONCEALED_KONG, concealed),
                           (P.TWO_MELDED_KONGS, melded >= 2), (P.TWO_CONCEALED_KONGS, concealed >= 2),
                           (P.THREE_KONGS, melded + concealed >= 3), (P.FOUR_KONGS, melded + concealed == 4)):
        if count:
            table[pattern] += count


def dragons(v: View, table: Table) -> None:
    """Dragon Pung (each), Two Dragon Pungs, Big/Little Three Dragons."""
    found = (v.pung_mask & DRAGONS).bit_count()
    if not found:
        return
    table[P.DRAGON_PUNG] += found
    if found >= 2:
        table[P.TWO_DRAGON_PUNGS] += 1
    if found == 3:
        table[P.BIG_THREE_DRAGONS] += 1
    elif found == 2 and v.pair is not None and v.pair.is_dragon:
        table[P.LITTLE_THREE_DRAGONS] += 1


def winds(v: View, table: Table) -> None:
    """Seat/Prevalent Wind, Big Three Winds, Little/Big Four Winds."""
    found = v.pung_mask & WINDS
    if not found:
        return
    count = found.bit_count()
    facts = v.facts
    if found & facts.seat:
        table[P.SEAT_WIND] += 1
    if found & facts.prevalent:
        table[P.PREVALENT_WIND] += 1
    if count >= 3:
        table[P.BIG_THREE_WINDS] += 1
    if count == 3 and v.pair is not None and v.pair.is_wind:
        table[P.LITTLE_FOUR_WINDS] += 1
    elif count == 4:
        table[P.BIG_FOUR_WINDS] += 1


def terminal_pungs(v: View, table: Table) -> None:
    """Pung of Terminals or Honors: 1s, 9s, and winds that are neither seat nor prevalent wind.

    Dragon pungs score Dragon Pung instead; the wind pungs of Big Three Winds
    (and of the four-wind fans) are part of that fan (non-repeat principle).
    """
    if not v.pung_mask & (TERMINALS | WINDS):
        return
    valued = v.facts.seat | v.facts.prevalent
    found = v.pung_mask & WINDS
    plain_winds = (found & ~valued).bit_count() if found.bit_count() < 3 else 0
    count = (v.pung_mask & TERMINALS).bit_count() + plain_winds
    if count:
        table[P.PUNG_OF_TERMINALS_OR_HONORS] += count


# ---- how the hand was won -------------------------------------------------------------

#: Situation flag -> fan (self-drawn, discard) it scores.
WIN_FLAGS: dict[str, tuple[Pattern | None, Pattern | None]] = {
    "self_drawn": (P.SELF_DRAWN, None),
    "last_tile": (P.LAST_TILE_DRAW, P.LAST_TILE_CLAIM),
    "kong_replacement": (P.OUT_WITH_REPLACEMENT_TILE, None),
    "robbing_kong": (None, P.ROBBING_THE_KONG),
    "fourth_tile": (P.LAST_TILE, P.LAST_TILE),
}


def win_fans(v: Facts, table: Table) -> None:
    """Self-Drawn, Last Tile Draw/Claim, Out with Replacement Tile, Robbing the Kong, Last Tile."""
    for flag in v.flags:
        pattern = WIN_FLAGS[flag][0 if v.situation.self_drawn else 1]
        if pattern is not None:
            table[pattern] += 1


def concealment(v: Facts, table: Table) -> None:
    """Fully Concealed Hand / Concealed Hand (no exposed sets), Melded Hand (four exposed sets)."""
    melds = v.hand.melds
    self_drawn = v.situation.self_drawn
    if not melds or all(meld.concealed for meld in melds):
        table[P.FULLY_CONCEALED_HAND if self_drawn else P.CONCEALED_HAND] += 1
    elif len(melds) == 4 and not any(meld.concealed for meld in melds) and not self_drawn:
        table[P.MELDED_HAND] += 1


WAIT_FANS = {Wait.EDGE: P.EDGE_WAIT, Wait.CLOSED: P.CLOSED_WAIT, Wait.SINGLE: P.SINGLE_WAIT}


def wait_fans(v: View, table: Table) -> None:
    """Edge/Closed/Single Wait: only when the hand waited on exactly one tile."""
    pattern = WAIT_FANS.get(v.arrangement.wait)
    if pattern is not None and len(v.arrangement.waits) == 1:  # waits worked out only when they matter
        table[pattern] += 1


def flowers(v: Facts, table: Table) -> None:
    """Flower Tiles: one per flower or season."""
    if v.hand.bonus:
        table[P.FLOWER_TILES] += len(v.hand.bonus)


#: Detectors of the hand and situation alone, run once per hand.
HAND_DETECTORS: tuple[Callable[[Facts, Table], None], ...] = (
    tile_fans, suit_fans, tile_hog, nine_gates, kongs, win_fans, concealment, flowers,
)
_SET_DETECTORS = (every_set_fans, combination_fans, wait_fans)
#: Detectors of one arrangement, by its shape: the others find nothing in that shape.
DETECTORS: dict[Shape, tuple[Callable[[View, Table], None], ...]] = {
    Shape.STANDARD: (terminal_chows, *_SET_DETECTORS),
    Shape.KNITTED_STRAIGHT: (knitted_shapes, *_SET_DETECTORS),
    Shape.SEVEN_PAIRS: (pairs_shape,),
    Shape.THIRTEEN_ORPHANS: (knitted_shapes,),
    Shape.HONORS_AND_KNITTED: (knitted_shapes,),
}
#: Detectors of pungs and kongs: they find nothing in an arrangement without any.
PUNG_DETECTORS: tuple[Callable[[View, Table], None], ...] = (concealed_pungs, dragons, winds, terminal_pungs)


def detect(view: View) -> Table:
    """Every fan found in one arrangement, before exclusions (a new table, no zero counts)."""
    table = view.facts.fans.copy()
    for detector in DETECTORS[view.shape]:
        detector(view, table)
    if view.pungs:  # only standard and knitted-straight arrangements have pungs
        for detector in PUNG_DETECTORS:
            detector(view, table)
    return table
