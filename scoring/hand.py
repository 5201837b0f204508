"""Sets (melds) and hands, with the hand notation and its validation.

A hand string is groups separated by spaces: a bare group holds concealed
standing tiles (the winning tile included) and/or bonus tiles, ``[...]`` is an
exposed chow, pung or kong and ``(...)`` a concealed kong::

    Hand.parse("123m 456p 789s 11z 55z [777p] (5555s) 15f", win="1z")
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, cached_property

from scoring.tiles import (
    ALL_TILES, PLAYING_TILES, NotationError, SingletonEnum, Suit, Tile, format_packed, format_run, format_tiles, pack,
    parse_tiles, tile_order,
)


class HandError(ValueError):
    """A hand that cannot be scored; the message names the bad input."""


class UnknownTokenError(HandError, NotationError):
    """A group that is not tile notation."""


class NotASetError(HandError):
    """A bracketed group that is not a chow, pung or kong."""


class TooManyCopiesError(HandError):
    """More than four copies of one tile."""


class WrongTileCountError(HandError):
    """Not the number of tiles the rule set's winning hand has."""


class WinningTileError(HandError):
    """The winning tile is not one of the concealed standing tiles."""


class DuplicateBonusError(HandError):
    """The same flower or season given twice."""


class IncompleteHandError(HandError):
    """Not a winning shape; ``waiting`` is what it waits on (may be empty)."""

    def __init__(self, message: str, waiting: frozenset[Tile] = frozenset()) -> None:
        super().__init__(message)
        self.waiting = waiting


class SetKind(SingletonEnum):
    """The kind of a set."""

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"


_BRACKETS = {"[": "]", "(": ")"}


@dataclass(frozen=True)
class Meld:
    """A set of tiles: ``[234m]`` exposed, ``(5555s)`` concealed kong, ``234m`` concealed set."""

    kind: SetKind
    tiles: tuple[Tile, ...]
    concealed: bool

    @classmethod
    def from_tiles(cls, tiles, *, concealed: bool) -> Meld:
        """Classify tiles as a chow, pung, kong or pair; NotASetError otherwise."""
        ordered = tuple(sorted(tiles, key=tile_order))
        kind = _classify(ordered)
        if kind is None:
            raise NotASetError(_not_a_set(format_tiles(ordered)))
        return cls(kind, ordered, concealed)

    @classmethod
    def parse(cls, text: str) -> Meld:
        """``"[234m]"`` exposed, ``"(5555s)"`` concealed kong, ``"234m"`` concealed set."""
        return _parse_meld(text)

    @property
    def first(self) -> Tile:
        """The lowest tile."""
        return self.tiles[0]

    @property
    def suit(self) -> Suit:
        return self.tiles[0].suit

    @property
    def is_kong(self) -> bool:
        return self.kind is SetKind.KONG

    @property
    def is_pung_or_kong(self) -> bool:
        return self.kind in (SetKind.PUNG, SetKind.KONG)

    @cached_property
    def text(self) -> str:
        """The printed form (cached: sets are printed often)."""
        body = format_tiles(self.tiles)
        if not self.concealed:
            return f"[{body}]"
        return f"({body})" if self.kind is SetKind.KONG else body

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"


@cache
def _parse_meld(text: str) -> Meld:
    """Meld.parse (cached: the same few sets are parsed again and again)."""
    body = text.strip()
    opener = body[:1] if body[:1] in _BRACKETS else ""
    if opener:
        if not body.endswith(_BRACKETS[opener]):
            raise UnknownTokenError(f"unknown token {text!r}: {opener!r} is never closed")
        body = body[1:-1]
    try:
        meld = Meld.from_tiles(_group_tiles(text, body), concealed=opener != "[")
    except NotASetError:
        raise NotASetError(_not_a_set(text)) from None
    if opener and meld.kind is SetKind.PAIR:
        raise NotASetError(_not_a_set(text))
    if opener == "(" and meld.kind is not SetKind.KONG:
        raise NotASetError(
            f"{text!r}: parentheses mark a concealed kong (four identical tiles, e.g. "
            "(5555s)); write other sets as bare tiles or [...] when exposed"
        )
    return meld


def _not_a_set(text: str) -> str:
    return (
        f"{text!r} is not a set: a set is a chow (three in sequence in one suit, "
        "e.g. 234m), a pung (777p) or a kong (1111z)"
    )


def _classify(tiles: tuple[Tile, ...]) -> SetKind | None:
    """The kind of sorted tiles, or None when they are not a set."""
    if not tiles or tiles[0].is_bonus:
        return None
    if len(set(tiles)) == 1:
        return {2: SetKind.PAIR, 3: SetKind.PUNG, 4: SetKind.KONG}.get(len(tiles))
    if len(tiles) == 3 and tiles[0].is_suited and len({tile.suit for tile in tiles}) == 1:
        ranks = [tile.rank for tile in tiles]
        if ranks == list(range(ranks[0], ranks[0] + 3)):
            return SetKind.CHOW
    return None


def _group_tiles(group: str, body: str) -> tuple[Tile, ...]:
    """Tiles of one group, re-raising notation errors as UnknownTokenError."""
    try:
        return parse_tiles(body)
    except NotationError as error:
        context = "" if group == body else f" in {group!r}"
        raise UnknownTokenError(f"unknown token{context}: {error}") from None


@cache
def _bare_group(group: str) -> tuple[tuple[Tile, ...], tuple[Tile, ...], int]:
    """(standing tiles, bonus tiles, place) of a group without brackets (cached).

    ``place`` is where the group stands in a hand's canonical text when it is
    one suit's tiles written as that text writes them (``_PLACES``), else
    NOT_CANONICAL.
    """
    tiles = _group_tiles(group, group)
    digits = group[:-1]
    canonical = digits.isdigit() and "".join(sorted(digits)) == digits  # one suit, ranks in order
    place = _PLACES.get(group[-1], NOT_CANONICAL) if canonical else NOT_CANONICAL
    if not _MAY_HOLD_BONUS.search(group):
        return tiles, (), place
    return tuple(t for t in tiles if not t.is_bonus), tuple(t for t in tiles if t.is_bonus), place


# Where each group stands in a hand's canonical text: the standing tiles suit by suit, the melds, the bonus tiles.
_PLACES = {"m": 0, "p": 1, "s": 2, "z": 3, "f": 5}
MELD_PLACE, NOT_CANONICAL = 4, -1


_MAY_HOLD_BONUS = re.compile("[fF\U0001F022-\U0001F029]")  # bonus tiles are written with f or as these characters


def meld_of(kind: SetKind, first: Tile, concealed: bool) -> Meld:
    """The Meld of a kind starting at ``first``."""
    if kind is SetKind.CHOW:
        if not first.is_suited or first.rank > 7:
            raise NotASetError(f"no chow starts at {first}: a chow runs from 1-7 to 3-9 of one suit")
        tiles = ALL_TILES[first.index: first.index + 3]
    else:
        tiles = (first,) * {SetKind.PAIR: 2, SetKind.PUNG: 3, SetKind.KONG: 4}[kind]
    return Meld(kind, tiles, concealed)


@dataclass(frozen=True, init=False)
class Hand:
    """Standing tiles (sorted, winning tile included), declared melds, bonus tiles, winning tile.

    Counted once: ``standing_counts`` (copies of each playing tile standing,
    by Tile.index; ``standing_packed`` the same as packed counts, see
    ``tiles.pack``), ``counts`` (copies of each face in the whole hand,
    melds and bonus tiles included, by Tile.index) and ``tile_count``
    (standing tiles plus three per declared meld, a kong counting as three).
    """

    standing: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    bonus: tuple[Tile, ...]
    win: Tile
    standing_counts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    counts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    standing_packed: int = field(init=False, repr=False, compare=False)
    tile_count: int = field(init=False, repr=False, compare=False)

    def __init__(self, standing: tuple[Tile, ...], melds: tuple[Meld, ...], bonus: tuple[Tile, ...], win: Tile) -> None:
        standing = tuple(sorted(standing, key=tile_order))
        bonus = tuple(sorted(bonus, key=tile_order)) if bonus else ()
        melds = tuple(melds)
        standing_counts, counts = _count(standing, melds, bonus)
        # one update of the instance dict: a frozen dataclass's own __init__ sets each field separately (slower)
        self.__dict__.update(standing=standing, melds=melds, bonus=bonus, win=win, standing_counts=standing_counts,
                             counts=counts, tile_count=len(standing) + 3 * len(melds))
        self._check_copies()
        self.__dict__["standing_packed"] = pack(standing_counts)  # at most 4 copies: checked above

    @classmethod
    def parse(cls, text: str, *, win: str | Tile) -> Hand:
        """Parse the hand notation; ``win`` is the winning tile (``"1z"``)."""
        if not isinstance(text, str) or not text.strip():
            raise UnknownTokenError(f"{text!r} is not a hand: write groups like '123m 456p [777p]'")
        standing: list[Tile] = []
        melds: list[Meld] = []
        bonus: list[Tile] = []
        groups = text.split()
        last: int | None = NOT_CANONICAL  # the place of the group before; None once the text is not canonical
        for group in groups:
            if group[0] in _BRACKETS:
                meld = _parse_meld(group)
                melds.append(meld)
                place = MELD_PLACE if meld.text == group else NOT_CANONICAL
            else:
                tiles, extra, place = _bare_group(group)
                standing += tiles
                bonus += extra
            if last is not None:  # canonical: places rise, only melds share one
                last = place if place > last or place == last == MELD_PLACE else None
        hand = cls(tuple(standing), tuple(melds), tuple(bonus), _winning_tile(win))
        if last is not None:  # the text as given is the canonical text: no need to print it again
            hand.__dict__["text"] = " ".join(groups)
        return hand

    def _check_copies(self) -> None:
        counts = self.counts
        most = max(counts)
        if most > 4:
            tile = ALL_TILES[counts.index(most)]
            raise TooManyCopiesError(f"{most} copies of {tile}: there are only four of each tile")
        for tile in self.bonus:
            if counts[tile.index] > 1:
                raise DuplicateBonusError(f"bonus tile {tile} is given twice: each exists once")

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile: standing, in melds and bonus."""
        return self.standing + tuple(t for meld in self.melds for t in meld.tiles) + self.bonus

    @property
    def concealed(self) -> bool:
        """No exposed melds (concealed kongs allowed)."""
        return all(meld.concealed for meld in self.melds)

    def validate(self, tile_count: int = 14) -> None:
        """Check the tile count and that the winning tile is standing."""
        if self.tile_count != tile_count:
            raise WrongTileCountError(
                f"{self} has {self.tile_count} tiles (each kong counting as 3); "
                f"a winning hand in this rule set has {tile_count}{self._kong_hint()}"
            )
        if self.win.is_bonus or not self.standing_counts[self.win.index]:
            raise WinningTileError(
                f"the winning tile {self.win} is not among the concealed standing tiles "
                f"{format_tiles(self.standing)!r}: include it there"
            )

    def _kong_hint(self) -> str:
        """A hint when four identical standing tiles were probably meant as a kong."""
        fours = sorted({tile for tile in self.standing if self.standing.count(tile) == 4}, key=tile_order)
        if not fours:
            return ""
        kong = format_tiles((fours[0],) * 4)
        return f" (four {fours[0]} standing: write a kong as [{kong}] if exposed or ({kong}) if concealed)"

    def without_win(self) -> tuple[Tile, ...]:
        """The standing tiles with one copy of the winning tile removed."""
        position = self.standing.index(self.win)
        return self.standing[:position] + self.standing[position + 1:]

    def __str__(self) -> str:
        return self.text

    @cached_property
    def text(self) -> str:
        """The canonical printed form (cached; Hand.parse fills it in when the text given was canonical)."""
        groups = [format_packed(self.standing_packed)] + [meld.text for meld in self.melds]
        if self.bonus:  # sorted, all of the bonus suit: one run
            groups.append(format_run(self.bonus))
        return " ".join(filter(None, groups))

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r}, win={self.win.code!r})"


def _count(standing: tuple[Tile, ...], melds: tuple[Meld, ...],
           bonus: tuple[Tile, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(copies of each playing tile standing, copies of each face in the whole hand), by Tile.index."""
    counts = [0] * len(ALL_TILES)
    for tile in standing:
        counts[tile.index] += 1
    standing_counts = tuple(counts[:len(PLAYING_TILES)])
    for meld in melds:
        for tile in meld.tiles:
            counts[tile.index] += 1
    for tile in bonus:
        counts[tile.index] += 1
    return standing_counts, tuple(counts)


def _winning_tile(win: str | Tile) -> Tile:
    if isinstance(win, Tile):
        return win
    try:
        tile = Tile.parse(win)
    except NotationError as error:
        raise UnknownTokenError(f"winning tile: {error}") from None
    if tile.is_bonus:
        raise WinningTileError(f"the winning tile {tile} is a bonus tile: name the tile that completed the hand")
    return tile
