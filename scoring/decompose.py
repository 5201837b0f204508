"""Every arrangement of a complete hand into sets, with the wait of each.

Shapes: four sets and a pair (five for 16-tile rule sets), seven pairs,
thirteen orphans and, for MCR (``knitted=True``), honours-and-knitted tiles
and knitted straight plus a set and a pair. Suits are split independently
and each suit's splits are cached, so even 1112345678999m + 1 tile is fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import chain, permutations, product
from operator import getitem
from typing import NamedTuple

from scoring.hand import Hand, IncompleteHandError, Meld, SetKind, meld_of
from scoring.tiles import (
    ALL_TILES, PACK_UNIT, PACKED_SUITS, PLAYING_TILES, SUITED, SingletonEnum, Tile, format_tiles, pack, suit_packs,
    unpack,
)


class Shape(SingletonEnum):
    """The overall shape of an arrangement."""

    STANDARD = "standard"
    SEVEN_PAIRS = "seven pairs"
    THIRTEEN_ORPHANS = "thirteen orphans"
    HONORS_AND_KNITTED = "honors and knitted"
    KNITTED_STRAIGHT = "knitted straight"


class Wait(SingletonEnum):
    """The wait the winning tile completed in one arrangement."""

    EDGE = "edge"
    CLOSED = "closed"
    SINGLE = "single"
    BOTH_SIDED = "both-sided"
    PUNG = "pung"
    KNITTED = "knitted"


_WITH_PAIR = frozenset({Shape.STANDARD, Shape.KNITTED_STRAIGHT})  # shapes whose last set is the pair
_STANDARD, _PAIR_KIND = Shape.STANDARD, SetKind.PAIR  # for the hot path: Enum class attributes are slow to read


class HandWaits:
    """What a hand without its winning tile waited on: worked out on first use, once per hand.

    Every arrangement of the hand holds the same instance, so rule sets that
    never ask (or ask only for some arrangements) pay nothing or pay once.
    """

    __slots__ = ("hand", "knitted", "sets", "_tiles")

    def __init__(self, hand: Hand, knitted: bool, sets: int) -> None:
        self.hand, self.knitted, self.sets = hand, knitted, sets
        self._tiles: frozenset[Tile] | None = None

    @property
    def tiles(self) -> frozenset[Tile]:
        """The waiting tiles (as ``waiting_tiles``)."""
        if self._tiles is None:
            hand = self.hand
            win = PACK_UNIT[hand.win.index]
            held = pack(hand.counts) - win if hand.melds else hand.standing_packed - win
            self._tiles = _waits(hand.standing_packed - win, held, hand.melds, self.knitted, self.sets)
        return self._tiles

    def __repr__(self) -> str:
        return f"HandWaits({self.hand!r}, knitted={self.knitted}, sets={self.sets})"

    def __eq__(self, other: object) -> bool:  # a value: the same question about the same hand
        if not isinstance(other, HandWaits):
            return NotImplemented
        return (self.hand, self.knitted, self.sets) == (other.hand, other.knitted, other.sets)

    def __hash__(self) -> int:
        return hash((self.hand, self.knitted, self.sets))


@dataclass(frozen=True, init=False)
class Arrangement:
    """One way to read a complete hand, and where the winning tile went.

    ``sets`` lists the concealed standing sets in tile order, then the
    declared melds as given, then the pair (seven pairs: the seven pairs in
    tile order; thirteen orphans and honours-and-knitted: no sets, every tile
    in ``loose``; knitted straight: its nine tiles in ``loose``). Concealed
    standing sets are shared instances, so comparing them is cheap.
    """

    shape: Shape
    sets: tuple[Meld, ...]
    loose: tuple[Tile, ...]
    winning_set: int | None
    wait: Wait
    hand_waits: HandWaits = field(repr=False)

    def __init__(self, shape: Shape, sets: tuple[Meld, ...], loose: tuple[Tile, ...], winning_set: int | None,
                 wait: Wait, hand_waits: HandWaits) -> None:
        # one update of the instance dict: a frozen dataclass's own __init__ sets each field separately (slower)
        self.__dict__.update(
            shape=shape, sets=sets, loose=loose, winning_set=winning_set, wait=wait, hand_waits=hand_waits,
        )

    @property
    def waits(self) -> frozenset[Tile]:
        """Every tile the whole hand (minus the winning tile) waited on; the same for every arrangement."""
        return self.hand_waits.tiles

    @property
    def winning_meld(self) -> Meld | None:
        """The set the winning tile completed (None when it is loose)."""
        return None if self.winning_set is None else self.sets[self.winning_set]

    @property
    def pair(self) -> Meld | None:
        """The pair of a standard or knitted-straight arrangement (its last set)."""
        return self.sets[-1] if self.shape in _WITH_PAIR else None

    def completed_by_discard(self, self_drawn: bool) -> bool:
        """True when a discarded winning tile completed a set of this arrangement."""
        return not self_drawn and self.winning_set is not None

    def effective_sets(self, self_drawn: bool) -> tuple[Meld, ...]:
        """The sets, with a chow or pung completed by a discard counted as exposed."""
        if self_drawn or self.winning_set is None:  # not completed by a discard
            return self.sets
        meld = self.sets[self.winning_set]
        if meld.kind is _PAIR_KIND:
            return self.sets
        exposed = _EXPOSED[meld.kind, meld.tiles[0].index]
        return self.sets[: self.winning_set] + (exposed,) + self.sets[self.winning_set + 1:]

    def __str__(self) -> str:
        return self.text

    @property
    def text(self) -> str:
        """The sets as printed, knitted or orphan tiles first."""
        groups = [format_tiles(self.loose)] if self.loose else []
        return " ".join(groups + [meld.text for meld in self.sets])


# ---- per-suit splitting -------------------------------------------------------------

_CHOW, _PUNG, _PAIR = 0, 1, 2
_KINDS = (SetKind.CHOW, SetKind.PUNG, SetKind.PAIR)
Part = tuple[int, int]  # (rank index within the suit, kind code)
_SUITS = range(4)  # suit numbers in packed order (tiles.PACKED_SUITS); a suit's tiles start at index 9 * number
_CHOWS = tuple(chows for _, _, chows in PACKED_SUITS)  # whether each suit has chows


def _take(counts: tuple[int, ...], start: int, amounts: tuple[int, ...]) -> tuple[int, ...]:
    """Counts with ``amounts`` removed from position ``start`` on."""
    taken = list(counts)
    for offset, amount in enumerate(amounts):
        taken[start + offset] -= amount
    return tuple(taken)


@cache
def _split(counts: tuple[int, ...], chows: bool, pair: bool) -> tuple[tuple[Part, ...], ...]:
    """Every way to split one suit into sets (and one pair when ``pair``), as sorted parts.

    The tiles of the lowest held rank all start parts there: a pair or not,
    a pung or not, and chows for the rest; each choice is a different split,
    so none is found twice.
    """
    first = next((rank for rank, count in enumerate(counts) if count), None)
    if first is None:
        return () if pair else ((),)
    found: list[tuple[Part, ...]] = []
    for pairs in (0, 1) if pair else (0,):
        for pungs in (0, 1):
            runs = counts[first] - 2 * pairs - 3 * pungs  # chows starting at the lowest rank
            if runs < 0 or runs and not (
                    chows and first + 2 < len(counts) and min(counts[first + 1], counts[first + 2]) >= runs):
                continue
            used = runs + 2 * pairs + 3 * pungs  # every tile of the lowest rank
            rest = _take(counts, first, (used, runs, runs) if runs else (used,))
            head = ((first, _CHOW),) * runs + ((first, _PUNG),) * pungs + ((first, _PAIR),) * pairs
            found += [head + tail for tail in _split(rest, chows, pair and not pairs)]
    return tuple(found)


@cache
def _partitions(counts: tuple[int, ...], chows: bool) -> tuple[tuple[Part, ...], ...]:
    """Splits of one suit; a pair is used exactly when the suit has 3k+2 tiles.

    Asked for the counts without the zeros around them (``_segment`` places
    the parts), so 123m and 789p share the work.
    """
    remainder = sum(counts) % 3
    if remainder == 1:
        return ()
    return tuple(sorted(_split(counts, chows, remainder == 2)))


def _lowest(suit_packed: int) -> int:
    """One suit's packed counts shifted down so that its lowest held rank is in the lowest byte."""
    return suit_packed >> ((suit_packed & -suit_packed).bit_length() - 1) // 8 * 8 if suit_packed else 0


_CHOW_UNITS = 0x010101  # packed: one tile of each of the three lowest ranks


@cache
def _splits(shape: int, chows: bool, pair: bool) -> bool:
    """True when one suit's tiles split into sets and, when ``pair``, one pair (cached; stops at the first
    split). ``shape``: its packed counts as ``_lowest`` gives them, so shifted shapes share the work."""
    if not shape:
        return not pair
    first = shape & 255  # the lowest rank's tiles: a pair, a pung or chows
    if pair and first >= 2 and _splits(_lowest(shape - 2), chows, False):
        return True
    if first >= 3 and _splits(_lowest(shape - 3), chows, pair):
        return True
    return bool(
        chows and shape >> 8 & 255 and shape >> 16 & 255 and _splits(_lowest(shape - _CHOW_UNITS), chows, pair)
    )


@cache
def _completions(suit_packed: int, chows: bool) -> tuple[int, ...]:
    """Ranks (from 0) whose addition lets one suit (packed counts) split completely (cached; the
    three suits with chows share the work)."""
    counts = unpack(suit_packed, 9 if chows else 7)
    remainder = (sum(counts) + 1) % 3  # as _partitions: 1 never splits, 2 needs the pair
    if remainder == 1:
        return ()
    return tuple(
        rank for rank in range(len(counts))
        if _may_join(counts, rank, chows) and _splits(_lowest(suit_packed + PACK_UNIT[rank]), chows, remainder == 2)
    )


def _may_join(counts: tuple[int, ...], rank: int, chows: bool) -> bool:
    """False when a tile added at ``rank`` cannot be in any set: four held already, or none of it
    held and (chows allowed) none of either neighbour, which every chow through it needs."""
    if counts[rank]:
        return counts[rank] < 4
    return chows and bool(rank and counts[rank - 1] or rank + 1 < len(counts) and counts[rank + 1])


class _Segment(NamedTuple):
    """What splitting one suit's standing tiles gives."""

    has_pair: bool  # 3k+2 tiles
    splits: tuple[tuple[tuple[Meld, ...], tuple[Meld, ...]], ...]  # each partition as (sets, pair); () if none


@cache
def _segment(suit_packed: int, suit: int) -> _Segment:
    """The splits of one suit's standing tiles (packed counts), as shared sets (cached)."""
    _, ranks, chows = PACKED_SUITS[suit]
    counts = unpack(suit_packed, ranks)
    held = [rank for rank, count in enumerate(counts) if count]
    first = held[0] if held else 0
    shape = counts[first:held[-1] + 1] if held else ()
    placed = [_placed(parts, 9 * suit + first) for parts in _partitions(shape, chows)]
    return _Segment(sum(counts) % 3 == 2, tuple(placed))


def _placed(parts: tuple[Part, ...], base: int) -> tuple[tuple[Meld, ...], tuple[Meld, ...]]:
    """A partition's shared concealed sets, its ranks counted from tile index ``base``: (sets, pair)."""
    sets: list[Meld] = []
    pair: list[Meld] = []
    for rank, kind in parts:
        (pair if kind == _PAIR else sets).append(_CONCEALED[kind, base + rank])
    return tuple(sets), tuple(pair)


@cache
def _suit_state(suit_packed: int, chows: bool) -> tuple[int, bool]:
    """(tiles modulo 3, whether they split into sets and, for 3k+2 tiles, a pair) of one suit
    (cached; the three suits with chows share the work)."""
    counts = unpack(suit_packed, 9 if chows else 7)
    remainder = sum(counts) % 3
    return remainder, remainder != 1 and _splits(_lowest(suit_packed), chows, remainder == 2)


def _is_standard(packed: int) -> bool:
    """True when the packed counts split into sets and exactly one pair."""
    states = list(map(_suit_state, suit_packs(packed), _CHOWS))
    return [remainder for remainder, _ in states].count(2) == 1 and all([whole for _, whole in states])


@cache
def _waiting_suits(states: tuple[tuple[int, bool], ...]) -> tuple[int, ...]:
    """The suits (numbers) where one more tile could make 3k+1 tiles sets and one pair, given each
    suit's ``_suit_state`` (cached: few combinations occur)."""
    broken = [whole for _, whole in states].count(False)
    if broken > 1:
        return ()
    pairs = [remainder for remainder, _ in states].count(2)
    # only a broken suit can take the tile; one more tile makes a pair when it makes 3k+2
    return tuple(suit for suit, (remainder, whole) in enumerate(states)
                 if not (broken and whole) and pairs - (remainder == 2) + (remainder == 1) == 1)


@cache
def _suit_waits(suit_packed: int, suit: int) -> tuple[int, ...]:
    """``_completions`` of one suit as tile indices (cached)."""
    offset = 9 * suit
    return tuple([offset + rank for rank in _completions(suit_packed, suit < 3)])


def _standard_waits(packed: int) -> set[int]:
    """Tile indices that would make the packed counts (3k+1 tiles) sets and one pair."""
    parts = suit_packs(packed)
    waits: set[int] = set()
    for suit in _waiting_suits(tuple(map(_suit_state, parts, _CHOWS))):
        waits.update(_suit_waits(parts[suit], suit))
    return waits


# ---- tile counts and knitted patterns -----------------------------------------------

def _counts(tiles) -> tuple[int, ...]:
    counts = [0] * 34
    for tile in tiles:
        counts[tile.index] += 1
    return tuple(counts)


_LOW_BITS = sum(PACK_UNIT)  # the lowest bit of each tile's byte in packed counts
_HIGH_BITS = 0xFC * _LOW_BITS  # the bits of each byte above its lowest two (4 copies or more)
_SUITED_LOW_BITS = sum(PACK_UNIT[:27])  # the same for the suited tiles (they come first in tile order)


def _held(packed: int) -> int:
    """Packed counts -> the lowest bit of each held tile's byte (as packed counts of one copy of each)."""
    folded = packed | packed >> 4  # each byte's bits ORed down into its lowest bit
    folded |= folded >> 2
    return (folded | folded >> 1) & _LOW_BITS


def _suited_faces(held: int) -> int:
    """How many different suited tiles are held (``_held``; a knitted straight has nine)."""
    return (held & _SUITED_LOW_BITS).bit_count()


def _indices(lanes: int) -> list[int]:
    """The tile indices of the set lowest bits of packed counts (``_held`` and the like)."""
    found = []
    while lanes:
        low = lanes & -lanes
        found.append(low.bit_length() // 8)  # bit 8 * index
        lanes ^= low
    return found


def _lanes(indices) -> int:
    """Tile indices -> one copy of each, packed."""
    return sum(PACK_UNIT[index] for index in indices)


ORPHANS = frozenset(tile for tile in PLAYING_TILES if tile.is_terminal_or_honor)
HONORS = frozenset(tile for tile in PLAYING_TILES if tile.is_honor)
KNITTED_PATTERNS: tuple[frozenset[Tile], ...] = tuple(
    frozenset(Tile(suit, offset + 3 * step) for suit, offset in zip(order, (1, 2, 3)) for step in range(3))
    for order in permutations(SUITED)
)
_ORPHANS = _lanes(tile.index for tile in ORPHANS)
_PATTERNS = tuple(tuple(sorted(tile.index for tile in pattern)) for pattern in KNITTED_PATTERNS)
_PATTERN_PACKS = tuple(map(_lanes, _PATTERNS))  # one of each pattern tile, packed
# the tiles honours-and-knitted may use (one of each, packed), one entry per knitted pattern
_KNITTED_OR_HONOR = tuple(pattern | _lanes(tile.index for tile in HONORS) for pattern in _PATTERN_PACKS)
_CHOW_STARTS = [tile for tile in PLAYING_TILES if tile.is_suited and tile.rank <= 7]
# concealed sets by (kind code, tile index), shared by every arrangement
_CONCEALED = {
    (code, tile.index): meld_of(kind, tile, True)
    for code, kind in enumerate(_KINDS) for tile in (_CHOW_STARTS if kind is SetKind.CHOW else PLAYING_TILES)
}
# the pairs of each tile (by Tile.index) that 0-4 copies of it make, e.g. (pair, pair) for four
_PAIRS_HELD = [
    tuple((_CONCEALED[_PAIR, tile.index],) * (copies // 2) for copies in range(5)) for tile in PLAYING_TILES
]
# the exposed chows, pungs and kongs by (kind, tile index): a concealed set completed by a discard
_EXPOSED = {
    (kind, tile.index): meld_of(kind, tile, False)
    for kind in (SetKind.CHOW, SetKind.PUNG, SetKind.KONG)
    for tile in (_CHOW_STARTS if kind is SetKind.CHOW else PLAYING_TILES)
}


# ---- waits ---------------------------------------------------------------------------

def waiting_tiles(tiles_without_win, melds=(), *, knitted: bool = False, sets: int = 4) -> frozenset[Tile]:
    """Every tile that completes these standing tiles (one short of a winning hand)."""
    tiles = tuple(tiles_without_win)
    if len(tiles) + 3 * len(melds) != 3 * sets + 1:
        return frozenset()
    counts = _counts(tiles)
    if max(counts) > 255:  # not packable (and no real hand: four copies at most)
        return frozenset()
    packed = pack(counts)
    melds = tuple(melds)
    return _waits(packed, packed + _lanes(tile.index for meld in melds for tile in meld.tiles), melds, knitted, sets)


def _waits(packed: int, held: int, melds: tuple[Meld, ...], knitted: bool, sets: int) -> frozenset[Tile]:
    """waiting_tiles() on the standing tiles' packed counts; ``held`` counts the melds' tiles too."""
    found = _standard_waits(packed)
    if not melds and sets == 4:
        found |= _special_waits(packed, knitted)
    if knitted and sets - len(melds) >= 3:
        faces = _held(packed)
        if _suited_faces(faces) >= 8:  # one may be the wait
            found |= _knitted_straight_waits(packed, faces)
    return frozenset([PLAYING_TILES[index] for index in found if held >> 8 * index & 255 < 4])


def _special_waits(packed: int, knitted: bool) -> set[int]:
    """Waits for seven pairs, thirteen orphans and honours-and-knitted (13 concealed tiles, packed)."""
    found: set[int] = set()
    single = packed & _LOW_BITS & ~_held(packed & _HIGH_BITS)  # the tiles held once or three times
    if single and not single & (single - 1):  # exactly one: six pairs and it
        found.update(_indices(packed & _LOW_BITS))  # (its odd count is the only one in a real hand)
    present = _held(packed)
    distinct = present.bit_count()
    if distinct < 12:
        return found
    if not present & ~_ORPHANS:
        found.update(_indices(_ORPHANS & ~present if distinct == 12 else _ORPHANS))
    if knitted and distinct == 13:
        for allowed in _KNITTED_OR_HONOR:
            if not present & ~allowed:
                found.update(_indices(allowed & ~present))
    return found


def _knitted_straight_waits(packed: int, held: int) -> set[int]:
    """Waits that complete a knitted straight plus sets and a pair (``held``: ``_held(packed)``)."""
    found: set[int] = set()
    for pattern_packed in _PATTERN_PACKS:
        missing = pattern_packed & ~held  # one copy of each pattern tile not held, packed
        if not missing:
            found |= _standard_waits(packed - pattern_packed)
        elif not missing & (missing - 1) and _is_standard(packed + missing - pattern_packed):  # one missing
            found.add((missing.bit_length() - 1) // 8)
    return found


# ---- layouts: an arrangement before the winning tile is placed ------------------------

Layout = tuple[Shape, tuple[Meld, ...], tuple[Tile, ...]]  # shape, sets, loose


def _standard_sets(packed: int, melds: tuple[Meld, ...]) -> list[tuple[Meld, ...]]:
    """Every (sets incl. melds, pair last) split of the standing tiles (packed counts)."""
    m, p, s, z = map(_segment, suit_packs(packed), _SUITS)
    if m.has_pair + p.has_pair + s.has_pair + z.has_pair != 1:
        return []
    return [
        m_sets + p_sets + s_sets + z_sets + melds + m_pair + p_pair + s_pair + z_pair
        for (m_sets, m_pair), (p_sets, p_pair), (s_sets, s_pair), (z_sets, z_pair)
        in product(m.splits, p.splits, s.splits, z.splits)
    ]


def _layouts(hand: Hand, knitted: bool, sets: int) -> list[Layout]:
    """Every layout of a complete hand."""
    packed = hand.standing_packed
    layouts = [(_STANDARD, found, ()) for found in _standard_sets(packed, hand.melds)]
    if not hand.melds and sets == 4:
        layouts += _special_layouts(hand, knitted)
    if knitted and sets - len(hand.melds) >= 3:
        held = _held(packed)
        if _suited_faces(held) >= 9:
            layouts += _knitted_straight_layouts(packed, held, hand.melds)
    return layouts


def _knitted_straight_layouts(packed: int, held: int, melds: tuple[Meld, ...]) -> list[Layout]:
    """Knitted straight layouts: the nine knitted tiles loose, the rest sets and a pair
    (``held``: ``_held(packed)``)."""
    layouts = []
    for pattern, pattern_packed in zip(_PATTERNS, _PATTERN_PACKS):
        if not pattern_packed & ~held:
            loose = tuple(PLAYING_TILES[index] for index in pattern)
            rest = _standard_sets(packed - pattern_packed, melds)
            layouts += [(Shape.KNITTED_STRAIGHT, found, loose) for found in rest]
    return layouts


def _special_layouts(hand: Hand, knitted: bool) -> list[Layout]:
    """Seven pairs, thirteen orphans and honours-and-knitted layouts of 14 concealed tiles."""
    layouts: list[Layout] = []
    packed = hand.standing_packed
    if not packed & _LOW_BITS:  # no tile held once or three times
        pairs = tuple(chain.from_iterable(map(getitem, _PAIRS_HELD, hand.standing_counts)))
        layouts.append((Shape.SEVEN_PAIRS, pairs, ()))
    present = _held(packed)
    distinct = present.bit_count()
    if distinct < 13:
        return layouts
    standing = hand.standing
    if present == _ORPHANS:
        layouts.append((Shape.THIRTEEN_ORPHANS, (), standing))
    if knitted and distinct == 14 and any(not present & ~allowed for allowed in _KNITTED_OR_HONOR):
        layouts.append((Shape.HONORS_AND_KNITTED, (), standing))
    return layouts


_SET_WAITS = {SetKind.PAIR: Wait.SINGLE, SetKind.PUNG: Wait.PUNG}  # the wait a completed pair or pung shows


def _chow_wait(first: Tile, win: Tile) -> Wait:
    """The wait a winning tile completed in the chow starting at ``first``."""
    position = win.rank - first.rank
    if position == 1:
        return Wait.CLOSED
    edge = (first.rank == 7) if position == 0 else (first.rank == 1)
    return Wait.EDGE if edge else Wait.BOTH_SIDED


# (Tile.index of a chow's lowest tile, of the winning tile in it) -> the wait it completed
_CHOW_WAITS = {
    (first.index, win.index): _chow_wait(first, win)
    for first in _CHOW_STARTS for win in ALL_TILES[first.index:first.index + 3]
}
_CHOW_KIND, _SEVEN_PAIRS, _KNITTED = SetKind.CHOW, Shape.SEVEN_PAIRS, Wait.KNITTED  # hot path: Enum reads are slow


def _wait_of(meld: Meld, win: Tile) -> Wait:
    """The wait a winning tile completed in one set."""
    if meld.kind is not _CHOW_KIND:
        return _SET_WAITS[meld.kind]
    return _CHOW_WAITS[meld.tiles[0].index, win.index]


def _placements(layout: Layout, win: Tile, waits: HandWaits) -> list[Arrangement]:
    """One Arrangement per distinct place the winning tile can take in the layout."""
    shape, sets, loose = layout
    target = win.index
    placed = []
    if loose and any(tile.index == target for tile in loose):
        placed.append(Arrangement(shape, sets, loose, None, _KNITTED, waits))
    seen: set[tuple[SetKind, int]] = set()
    for index, meld in enumerate(sets):
        tiles = meld.tiles
        if not meld.concealed or not tiles[0].index <= target <= tiles[-1].index:
            continue
        key = (meld.kind, tiles[0].index)
        if key not in seen:
            seen.add(key)
            wait = _KNITTED if shape is _SEVEN_PAIRS else _wait_of(meld, win)
            placed.append(Arrangement(shape, sets, loose, index, wait, waits))
    return placed


def decompose(hand: Hand, *, knitted: bool = False, sets: int = 4) -> tuple[Arrangement, ...]:
    """Every arrangement of a complete hand; () when it is not complete."""
    if hand.tile_count != 3 * sets + 2 or not hand.standing_counts[hand.win.index]:
        return ()
    layouts = _layouts(hand, knitted, sets)
    if not layouts:
        return ()
    waits = HandWaits(hand, knitted, sets)
    return tuple([arrangement for layout in layouts for arrangement in _placements(layout, hand.win, waits)])


def sets_in(tile_count: int) -> int:
    """How many sets a winning hand of ``tile_count`` tiles (kongs counting three) holds beside its pair."""
    return (tile_count - 2) // 3


def arrange(hand: Hand, *, tile_count: int = 14, knitted: bool = False) -> tuple[Arrangement, ...]:
    """Validate and decompose; IncompleteHandError (with its waits) when not a winning hand."""
    sets = sets_in(tile_count)
    if hand.tile_count == tile_count - 1:
        waiting = waiting_tiles(hand.standing, hand.melds, knitted=knitted, sets=sets)
        raise IncompleteHandError(
            f"{hand} is not complete: it has {hand.tile_count} tiles, one short of {tile_count}; "
            + _describe_waits(waiting),
            waiting,
        )
    hand.validate(tile_count)
    arrangements = decompose(hand, knitted=knitted, sets=sets)
    if not arrangements:
        waiting = waiting_tiles(hand.without_win(), hand.melds, knitted=knitted, sets=sets)
        raise IncompleteHandError(
            f"{hand} is not a complete winning hand; without the winning tile {hand.win} "
            + _describe_waits(waiting),
            waiting,
        )
    return arrangements


def _describe_waits(waiting: frozenset[Tile]) -> str:
    if not waiting:
        return "it is not one tile from winning"
    return "it waits on " + " ".join(tile.code for tile in sorted(waiting))
