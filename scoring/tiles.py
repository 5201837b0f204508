"""Tile faces, winds and the compact tile notation (``123m55z``).

Suits: ``m`` characters, ``p`` dots, ``s`` bamboo, ``z`` honours (1-4 winds
East South West North, 5 White, 6 Green, 7 Red), ``f`` bonus tiles (1-4
flowers plum orchid chrysanthemum bamboo, 5-8 seasons spring summer autumn
winter). The Unicode mahjong characters U+1F000-U+1F029 are accepted too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from functools import cache, lru_cache
from itertools import groupby
from operator import attrgetter
from typing import NoReturn


class NotationError(ValueError):
    """Text that is not valid tile notation; the message quotes it."""


class SingletonEnum(Enum):
    """An Enum hashed by identity (members are singletons): cheap in hot loops."""

    __hash__ = object.__hash__


class Suit(SingletonEnum):
    """A suit letter; members are ordered m < p < s < z < f (canonical order)."""

    CHARACTERS = "m"
    DOTS = "p"
    BAMBOO = "s"
    HONORS = "z"
    BONUS = "f"

    @property
    def order(self) -> int:
        """Position in the canonical order m, p, s, z, f."""
        return _SUIT_ORDER[self]

    @property
    def size(self) -> int:
        """Number of ranks in this suit (9, 7 or 8)."""
        return _SUIT_SIZE[self]

    @property
    def is_suited(self) -> bool:
        """True for characters, dots and bamboo."""
        return self in SUITED

    def __lt__(self, other: Suit) -> bool:
        return self.order < other.order

    def __le__(self, other: Suit) -> bool:
        return self.order <= other.order

    def __gt__(self, other: Suit) -> bool:
        return self.order > other.order

    def __ge__(self, other: Suit) -> bool:
        return self.order >= other.order


_SUIT_ORDER = {suit: index for index, suit in enumerate(Suit)}
_SUIT_SIZE = {Suit.CHARACTERS: 9, Suit.DOTS: 9, Suit.BAMBOO: 9, Suit.HONORS: 7, Suit.BONUS: 8}
SUITED = (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)
_HONORS, _BONUS = Suit.HONORS, Suit.BONUS  # for hot properties: Enum class attributes are slow to read in 3.11


class Wind(SingletonEnum):
    """A seat or round wind."""

    EAST = "E"
    SOUTH = "S"
    WEST = "W"
    NORTH = "N"

    @classmethod
    def parse(cls, text: str | Wind) -> Wind:
        """``"E"``, ``"east"``, ``"1z"`` (any case) or a Wind -> Wind."""
        if isinstance(text, Wind):
            return text
        wind = _WIND_NAMES.get(str(text).strip().upper())
        if wind is not None:
            return wind
        raise NotationError(f"unknown wind {text!r}: use one of E, S, W, N")

    @property
    def tile(self) -> Tile:
        """The wind's honour tile, 1z (East) to 4z (North)."""
        return _WIND_TILES[self]

    @property
    def next(self) -> Wind:
        """The next wind in turn order E -> S -> W -> N -> E."""
        winds = list(Wind)
        return winds[(winds.index(self) + 1) % 4]

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Wind.parse({self.value!r})"


_HONOR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
_BONUS_NAMES = ("Plum", "Orchid", "Chrysanthemum", "Bamboo", "Spring", "Summer", "Autumn", "Winter")
_SUIT_NAMES = {Suit.CHARACTERS: "Characters", Suit.DOTS: "Dots", Suit.BAMBOO: "Bamboo"}


_SUIT_OFFSET = {Suit.CHARACTERS: 0, Suit.DOTS: 9, Suit.BAMBOO: 18, Suit.HONORS: 27, Suit.BONUS: 34}


@dataclass(frozen=True)
class Tile:
    """One tile face, e.g. ``Tile.parse("5m")``; ordered m, p, s, z, f then by rank."""

    suit: Suit
    rank: int
    index: int = field(init=False, repr=False, compare=False)  # position in ALL_TILES (0-41)

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit):
            raise NotationError(f"unknown suit {self.suit!r}: use one of m p s z f")
        if not isinstance(self.rank, int) or not 1 <= self.rank <= self.suit.size:
            raise NotationError(
                f"no tile {self.rank}{self.suit.value}: "
                f"{self.suit.value} ranks go from 1 to {self.suit.size}"
            )
        object.__setattr__(self, "index", _SUIT_OFFSET[self.suit] + self.rank - 1)

    # Equality, hashing and order go through the index: tiles are hashed in hot loops.
    def __eq__(self, other: object) -> bool:
        return other.__class__ is Tile and self.index == other.index

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __le__(self, other: Tile) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Tile) -> bool:
        return self.index > other.index

    def __ge__(self, other: Tile) -> bool:
        return self.index >= other.index

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse exactly one tile: ``"5m"`` or a Unicode tile character."""
        tile = _CODES.get(text)  # the common case: a plain code
        if tile is not None:
            return tile
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise NotationError(f"{text!r} is not a single tile (write one tile, e.g. '5m')")
        return tiles[0]

    @property
    def code(self) -> str:
        """Compact notation, ``"5m"``."""
        return _CODE_AT[self.index]

    @property
    def name(self) -> str:
        """English name, e.g. ``"5 Characters"``, ``"Red"``, ``"Plum"``."""
        if self.suit is Suit.HONORS:
            return _HONOR_NAMES[self.rank - 1]
        if self.suit is Suit.BONUS:
            return _BONUS_NAMES[self.rank - 1]
        return f"{self.rank} {_SUIT_NAMES[self.suit]}"

    @property
    def is_suited(self) -> bool:
        return self.suit.is_suited

    @property
    def is_honor(self) -> bool:
        return self.suit is _HONORS

    @property
    def is_wind(self) -> bool:
        return self.is_honor and self.rank <= 4

    @property
    def is_dragon(self) -> bool:
        return self.is_honor and self.rank >= 5

    @property
    def is_bonus(self) -> bool:
        return self.suit is _BONUS

    @property
    def is_flower(self) -> bool:
        return self.is_bonus and self.rank <= 4

    @property
    def is_season(self) -> bool:
        return self.is_bonus and self.rank >= 5

    @property
    def number(self) -> int | None:
        """The number a set prints on the tile: a suit tile's rank, a flower's or season's 1-4 (the
        seat it belongs to); None for an honour."""
        if self.is_bonus:
            return (self.rank - 1) % 4 + 1
        return None if self.is_honor else self.rank

    @property
    def is_terminal(self) -> bool:
        """1 or 9 of a suit."""
        return self.is_suited and self.rank in (1, 9)

    @property
    def is_terminal_or_honor(self) -> bool:
        return self.is_terminal or self.is_honor

    @property
    def is_simple(self) -> bool:
        """2-8 of a suit."""
        return self.is_suited and 2 <= self.rank <= 8

    @property
    def wind(self) -> Wind | None:
        """The Wind of a wind tile, else None."""
        return list(Wind)[self.rank - 1] if self.is_wind else None

    @property
    def unicode(self) -> str:
        """The Unicode mahjong tile character."""
        return _TO_UNICODE[self]

    @classmethod
    def from_unicode(cls, char: str) -> Tile:
        """Tile for one Unicode mahjong tile character (U+1F000-U+1F029)."""
        tile = _FROM_UNICODE.get(char)
        if tile is None:
            raise NotationError(_unicode_problem(char))
        return tile

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile.parse({self.code!r})"


def _unicode_problem(char: str) -> str:
    """Why a character is not an accepted tile."""
    if char == "\U0001F02A":
        return f"{char!r} (U+1F02A, joker) is not supported: name the tile it stands for"
    if char == "\U0001F02B":
        return f"{char!r} (U+1F02B, tile back) is not a tile face: name the tile instead"
    return f"{char!r} is not a mahjong tile character"


ALL_TILES: tuple[Tile, ...] = tuple(
    Tile(suit, rank) for suit in Suit for rank in range(1, suit.size + 1)
)
PLAYING_TILES: tuple[Tile, ...] = tuple(tile for tile in ALL_TILES if not tile.is_bonus)
_CODE_AT = tuple(f"{tile.rank}{tile.suit.value}" for tile in ALL_TILES)  # ALL_TILES position -> code


def _unicode_table() -> dict[Tile, str]:
    """Tile -> Unicode character, following the Unicode Mahjong Tiles block."""
    def tile(suit: Suit, rank: int) -> Tile:
        return ALL_TILES[Tile(suit, rank).index]

    order = [tile(Suit.HONORS, rank) for rank in (1, 2, 3, 4, 7, 6, 5)]
    for suit in (Suit.CHARACTERS, Suit.BAMBOO, Suit.DOTS):
        order += [tile(suit, rank) for rank in range(1, 10)]
    order += [tile(Suit.BONUS, rank) for rank in (1, 2, 4, 3, 5, 6, 7, 8)]
    return {tile: chr(0x1F000 + offset) for offset, tile in enumerate(order)}


_WIND_TILES = {wind: ALL_TILES[27 + position] for position, wind in enumerate(Wind)}
_WIND_NAMES = {
    name: wind for wind in Wind for name in (wind.value, wind.name, _WIND_TILES[wind].code.upper())
}
_TO_UNICODE = _unicode_table()
_FROM_UNICODE = {char: tile for tile, char in _TO_UNICODE.items()}
_VARIATION_SELECTORS = "\ufe0e\ufe0f"


@cache
def _parse_cached(text: str) -> tuple[Tile, ...]:
    if _PLAIN.fullmatch(text):  # the common case: digits and lower-case suit letters only
        tiles: list[Tile | None] = []
        for digits, letter in _RUNS.findall(text):
            tiles += map(_BY_DIGIT[letter].get, digits)
        if all(tiles):  # else a rank the suit lacks: the general parse names it
            return tuple(tiles)
    return _parse_general(text)


_PLAIN = re.compile(r"(?:[0-9]+[mpszf])+")
_RUNS = re.compile(r"([0-9]+)([mpszf])")


def _parse_general(text: str) -> tuple[Tile, ...]:
    """Any tile notation: upper-case suit letters, spaces, Unicode tiles; errors say what is wrong."""
    tiles: list[Tile] = []
    digits = ""
    for char in text:
        if char.isdigit() and char.isascii():
            digits += char
        elif char in _VARIATION_SELECTORS or char.isspace():
            continue
        elif char.lower() in _SUIT_LETTERS:
            if not digits:
                raise NotationError(f"{text!r}: suit letter {char!r} has no digits before it")
            letter = char.lower()
            tiles += [_CODES.get(digit + letter) or _tile_error(text, digit, letter) for digit in digits]
            digits = ""
        elif digits:
            raise NotationError(f"{text!r}: digits {digits!r} need a suit letter (m p s z f)")
        else:
            tiles.append(_unicode_or_error(text, char))
    if digits:
        raise NotationError(f"{text!r}: digits {digits!r} need a suit letter (m p s z f)")
    return tuple(tiles)


_SUIT_LETTERS = {suit.value: suit for suit in Suit}
_CODES = {tile.code: tile for tile in ALL_TILES}  # "5m" -> the shared instance
_BY_DIGIT = {  # suit letter -> rank digit -> the shared instance
    letter: {str(tile.rank): tile for tile in ALL_TILES if tile.suit is suit} for letter, suit in _SUIT_LETTERS.items()
}


def _tile_error(text: str, digit: str, letter: str) -> NoReturn:
    """Raise the NotationError for a digit that is not a rank of the suit."""
    try:
        Tile(_SUIT_LETTERS[letter], int(digit))  # raises: the rank is out of range
    except NotationError as error:
        raise NotationError(f"{text!r}: {error}") from None
    raise NotationError(f"{text!r}: no tile {digit}{letter}")


def _unicode_or_error(text: str, char: str) -> Tile:
    try:
        return Tile.from_unicode(char)
    except NotationError as error:
        raise NotationError(str(error) if text == char else f"{text!r}: {error}") from None


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """``"123m55z"`` (or Unicode tiles; spaces ignored) -> tiles in the order written."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not tile notation (expected a string like '123m55z')")
    return _parse_cached(text.strip())


def format_tiles(tiles, *, sort: bool = True, separator: str = "") -> str:
    """Tiles -> compact notation, one suit letter per run: ``"123m55z"``.

    Sorted into the canonical order (m, p, s, z, f; ranks ascending) unless
    ``sort=False``, which keeps the given order; ``separator`` goes between
    the runs (``" "``: ``"123m 55z"``).
    """
    indices = [tile.index for tile in tiles]
    if sort:
        indices.sort()
    # a run ends where the suit changes
    return separator.join([_run_text(tuple(run)) for _, run in groupby(indices, _SUIT_AT.__getitem__)])


# ---- packed counts: copies of each playing tile in one int ----------------------------
#
# One byte per Tile.index (int.from_bytes: quick to build), so adding or removing a tile is
# adding or subtracting PACK_UNIT[index], and each suit's counts are one int that cached
# per-suit work is keyed by.

PACK_UNIT = tuple(1 << 8 * index for index in range(34))  # Tile.index -> one copy of it, packed
_SUIT_PACK_MASK = (1 << 72) - 1  # one suit's nine bytes
#: (suit letter, ranks, whether chows exist) of the suits in packed order: m, p, s, z.
PACKED_SUITS = (("m", 9, True), ("p", 9, True), ("s", 9, True), ("z", 7, False))


def pack(counts: tuple[int, ...]) -> int:
    """Copies of each playing tile by Tile.index (0-255 each; extra entries ignored) -> packed counts."""
    return int.from_bytes(bytes(counts[:34]), "little")


def suit_packs(packed: int) -> tuple[int, int, int, int]:
    """Packed counts -> each suit's packed counts (m, p, s, z), rank 1 in the lowest byte."""
    return packed & _SUIT_PACK_MASK, packed >> 72 & _SUIT_PACK_MASK, packed >> 144 & _SUIT_PACK_MASK, packed >> 216


def unpack(suit_packed: int, ranks: int) -> tuple[int, ...]:
    """One suit's packed counts -> its copies of each rank."""
    return tuple(suit_packed.to_bytes(ranks, "little"))


def format_packed(packed: int, *, separator: str = " ") -> str:
    """Packed counts -> canonical notation, ``"123m 55z"``, without touching each tile."""
    return separator.join(filter(None, map(_suit_text, suit_packs(packed), range(4))))


@cache
def _suit_text(suit_packed: int, suit: int) -> str:
    """One suit's copies of each rank (packed) as ``"1123m"``, ``""`` when there are none (cached)."""
    letter, ranks, _ = PACKED_SUITS[suit]
    digits = "".join(map(str.__mul__, "123456789", unpack(suit_packed, ranks)))  # each rank's digit, once per copy
    return digits + letter if digits else ""


def format_run(tiles) -> str:
    """Tiles of one suit, already in canonical order (at least one) -> ``"15f"``: format_tiles without the
    sorting and grouping."""
    return _run_text(tuple(map(tile_order, tiles)))


@lru_cache(maxsize=1 << 12)
def _run_text(indices: tuple[int, ...]) -> str:
    """One suit's run of tiles (ALL_TILES positions, in order) as ``"123m"`` (cached)."""
    return "".join(str(ALL_TILES[index].rank) for index in indices) + _SUIT_AT[indices[0]].value


tile_order = attrgetter("index")  # sort key: canonical tile order, faster than comparing tiles
_SUIT_AT = [tile.suit for tile in ALL_TILES]  # ALL_TILES position -> suit
