"""Referee for the MCR scorer: random legal winning hands scored by this
project and by the independent C++ calculator `pymahjonggb` (module
`MahjongGB`), compared fan by fan after normalising only the documented
differences (see docs/rules/mcr-referee.md). The generator builds hands on
its own small tile model (ints 0-33) and talks to the project only through
its public notation and `scoring.score`, so it shares no code with what it
checks.

    python -m benchmarks.mcr_referee [--hands 1000000] [--seed 1] [--examples 3]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from itertools import islice

# --------------------------------------------------------------------------
# Tiles as small ints: 0-8 characters, 9-17 dots, 18-26 bamboo, 27-33 honours
# (East South West North White Green Red), the project's order.

SUITS = "mpsz"
WINDS = "ESWN"
TERMINALS_HONORS = frozenset([0, 8, 9, 17, 18, 26, *range(27, 34)])
GREEN = frozenset([19, 20, 21, 23, 25, 32])
REVERSIBLE = frozenset([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31])

#: pymahjonggb's spelling of each project tile (its "B" is dots, "T" bamboo;
#: J1 J2 J3 are Red, Green, White).
REFEREE_TILE = tuple(
    [f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)] + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)


def tile_code(tile: int) -> str:
    """Project code of a tile index, e.g. 0 -> '1m', 31 -> '5z'."""
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


def format_group(tiles: list[int] | tuple[int, ...]) -> str:
    """Project notation of some tiles, per suit: [0, 1, 2, 27, 27] -> '123m11z'."""
    out = []
    for s, letter in enumerate(SUITS):
        ranks = sorted(t % 9 + 1 for t in tiles if t // 9 == s)
        if ranks:
            out.append("".join(map(str, ranks)) + letter)
    return "".join(out)


class Kind(Enum):
    """Kind of set in a generated hand."""

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"

    def tiles(self, first: int) -> tuple[int, ...]:
        """The tiles of a set of this kind starting at `first`."""
        if self is Kind.CHOW:
            return (first, first + 1, first + 2)
        return (first,) * {Kind.PUNG: 3, Kind.KONG: 4, Kind.PAIR: 2}[self]


@dataclass(frozen=True)
class Meld:
    """A declared set: exposed chow/pung/kong or a concealed kong."""

    kind: Kind
    first: int
    exposed: bool

    def __str__(self) -> str:
        body = format_group(self.kind.tiles(self.first))
        return f"[{body}]" if self.exposed else f"({body})"


@dataclass(frozen=True)
class Situation:
    """How the hand was won (the project's situation keywords)."""

    self_drawn: bool = False
    seat_wind: str = "E"
    prevalent_wind: str = "E"
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    fourth_tile: bool = False
    discarder: str | None = None  # payments only: pymahjonggb has no such input

    def kwargs(self) -> dict[str, object]:
        """Keyword arguments for `scoring.score`."""
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class Deal:
    """One generated winning hand, printable in the project's notation."""

    standing: tuple[int, ...]  # concealed standing tiles, winning tile included
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]  # 1..8 (1f..8f)
    win: int
    situation: Situation
    shape: str = "standard"

    @property
    def hand(self) -> str:
        """The hand in the project's notation, e.g. '123m 11z [789s] (5555z) 15f'."""
        groups = [format_group([t for t in self.standing if t // 9 == s]) for s in range(4)]
        groups += [str(m) for m in self.melds]
        if self.flowers:
            groups.append("".join(str(f) for f in sorted(self.flowers)) + "f")
        return " ".join(g for g in groups if g)

    @property
    def win_code(self) -> str:
        return tile_code(self.win)

    def all_tiles(self) -> list[int]:
        """Every playing tile of the hand (kongs count 4)."""
        return list(self.standing) + [t for m in self.melds for t in m.kind.tiles(m.first)]

    @classmethod
    def parse(cls, hand: str, win: str, situation: Situation = Situation()) -> Deal:
        """Inverse of `.hand` (the project's notation, ASCII only)."""
        standing: list[int] = []
        melds: list[Meld] = []
        flowers: list[int] = []
        for group in hand.split():
            body, letter = group.strip("[]()")[:-1], group.strip("[]()")[-1]
            if letter == "f":
                flowers += [int(d) for d in body]
                continue
            tiles = [9 * SUITS.index(letter) + int(d) - 1 for d in body]
            if group[0] in "[(":
                kind = Kind.KONG if len(tiles) == 4 else Kind.PUNG if tiles[0] == tiles[1] else Kind.CHOW
                melds.append(Meld(kind, min(tiles), group[0] == "["))
            else:
                standing += tiles
        win_tile = 9 * SUITS.index(win[-1]) + int(win[0]) - 1
        return cls(tuple(sorted(standing)), tuple(melds), tuple(sorted(flowers)), win_tile, situation)

    def __repr__(self) -> str:
        return f"Deal.parse({self.hand!r}, {self.win_code!r}, {self.situation!r})"

    def __str__(self) -> str:
        flags = {k: v for k, v in self.situation.kwargs().items() if v and k not in ("seat_wind", "prevalent_wind")}
        winds = f"seat_wind={self.situation.seat_wind} prevalent_wind={self.situation.prevalent_wind}"
        extra = " ".join(f"{k}={v}" for k, v in flags.items())
        return f'"{self.hand}" win={self.win_code} {winds} {extra}'.rstrip()


# --------------------------------------------------------------------------
# Generator


class _Retry(Exception):
    """Internal: a draw broke the four-copies limit; draw the hand again."""


@dataclass
class _Builder:
    """Accumulates sets for one hand while enforcing four copies per tile."""

    counts: Counter = field(default_factory=Counter)
    concealed: list[int] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)

    def fits(self, kind: Kind, first: int) -> bool:
        need = Counter(kind.tiles(first))
        return all(self.counts[t] + n <= 4 for t, n in need.items())

    def add(self, kind: Kind, first: int, exposed: bool = False) -> None:
        """Add a set; kongs always become melds (exposed or concealed)."""
        if not self.fits(kind, first):
            raise _Retry
        tiles = kind.tiles(first)
        self.counts.update(tiles)
        if kind is Kind.KONG or exposed:
            self.melds.append(Meld(kind, first, exposed))
        else:
            self.concealed.extend(tiles)


def _chow_starts(pool: frozenset[int]) -> list[int]:
    return sorted(t for t in pool if t < 27 and t % 9 <= 6 and t + 1 in pool and t + 2 in pool)


def _suit(s: int) -> frozenset[int]:
    return frozenset(range(9 * s, 9 * s + 9))


HONORS = frozenset(range(27, 34))
ALL = frozenset(range(34))


def _ranks(ranks: str) -> frozenset[int]:
    return frozenset(9 * s + int(r) - 1 for s in range(3) for r in ranks)


#: Tile pools a "theme" restricts a hand to (bias toward rare fans): name, pool, weight.
POOLS: tuple[tuple[str, Callable[[random.Random], frozenset[int]], float], ...] = (
    ("any", lambda r: ALL, 30),
    ("full flush", lambda r: _suit(r.randrange(3)), 10),
    ("half flush", lambda r: _suit(r.randrange(3)) | HONORS, 10),
    ("two suits", lambda r: frozenset().union(*(_suit(s) for s in r.sample(range(3), 2))), 5),
    ("honours", lambda r: HONORS | (_suit(r.randrange(3)) if r.random() < 0.5 else frozenset()), 6),
    ("winds", lambda r: frozenset(range(27, 31)) | (_suit(r.randrange(3)) if r.random() < 0.5 else HONORS), 3),
    ("terminals", lambda r: _ranks("19"), 2),
    ("dragons", lambda r: frozenset(range(31, 34)) | _suit(r.randrange(3)), 3),
    ("terminals/honours", lambda r: TERMINALS_HONORS | _ranks("1237789"), 6),
    ("upper", lambda r: _ranks("789") if r.random() < 0.5 else _ranks("6789"), 3),
    ("middle", lambda r: _ranks("456"), 2),
    ("lower", lambda r: _ranks("123") if r.random() < 0.5 else _ranks("1234"), 3),
    ("simples", lambda r: _ranks("2345678"), 5),
    ("green", lambda r: GREEN, 2),
    ("reversible", lambda r: REVERSIBLE, 2),
    ("evens", lambda r: _ranks("2468"), 2),
    ("chicken", lambda r: _ranks("2345678"), 3),  # with an honour pair: few fans at all
)

#: Set patterns seeded into standard hands: (name, kind, anchored, members).
#: Members are (suit slot, rank offset); suit slots 0-2 are permuted at
#: random, slot 3 is the honours;
#: offsets are 0-based ranks when anchored, else added to a random base rank.
PATTERNS: tuple[tuple[str, Kind, bool, tuple[tuple[int, int], ...]], ...] = (
    ("pure double chow", Kind.CHOW, False, ((0, 0), (0, 0))),
    ("pure triple chow", Kind.CHOW, False, ((0, 0), (0, 0), (0, 0))),
    ("quadruple chow", Kind.CHOW, False, ((0, 0), (0, 0), (0, 0), (0, 0))),
    ("shifted chows 1", Kind.CHOW, False, ((0, 0), (0, 1), (0, 2))),
    ("shifted chows 2", Kind.CHOW, False, ((0, 0), (0, 2), (0, 4))),
    ("four shifted chows 1", Kind.CHOW, False, ((0, 0), (0, 1), (0, 2), (0, 3))),
    ("four shifted chows 2", Kind.CHOW, True, ((0, 0), (0, 2), (0, 4), (0, 6))),
    ("pure straight", Kind.CHOW, True, ((0, 0), (0, 3), (0, 6))),
    ("mixed straight", Kind.CHOW, True, ((0, 0), (1, 3), (2, 6))),
    ("mixed triple chow", Kind.CHOW, False, ((0, 0), (1, 0), (2, 0))),
    ("mixed shifted chows", Kind.CHOW, False, ((0, 0), (1, 1), (2, 2))),
    ("mixed double chow", Kind.CHOW, False, ((0, 0), (1, 0))),
    ("short straight", Kind.CHOW, False, ((0, 0), (0, 3))),
    ("two terminal chows", Kind.CHOW, True, ((0, 0), (0, 6))),
    ("three-suited terminal chows", Kind.CHOW, True, ((0, 0), (0, 6), (1, 0), (1, 6), (2, 4))),
    ("pure terminal chows", Kind.CHOW, True, ((0, 0), (0, 0), (0, 6), (0, 6), (0, 4))),
    ("pure shifted pungs", Kind.PUNG, False, ((0, 0), (0, 1), (0, 2))),
    ("four shifted pungs", Kind.PUNG, False, ((0, 0), (0, 1), (0, 2), (0, 3))),
    ("mixed shifted pungs", Kind.PUNG, False, ((0, 0), (1, 1), (2, 2))),
    ("triple pung", Kind.PUNG, False, ((0, 0), (1, 0), (2, 0))),
    ("double pung", Kind.PUNG, False, ((0, 0), (1, 0))),
    ("four winds", Kind.PUNG, True, ((3, 0), (3, 1), (3, 2), (3, 3))),
    ("three winds", Kind.PUNG, True, ((3, 1), (3, 2), (3, 3))),
    ("three dragons", Kind.PUNG, True, ((3, 4), (3, 5), (3, 6))),
)


def _weighted(rng: random.Random, table):
    return rng.choices(table, weights=[row[-1] for row in table])[0]


def _pattern_sets(rng: random.Random) -> list[tuple[Kind, int]]:
    """The sets of a random pattern; a fifth member is the pair."""
    _, kind, anchored, members = rng.choice(PATTERNS)
    suits = rng.sample(range(3), 3) + [3]
    top = 9 - (3 if kind is Kind.CHOW else 1) - max(r for _, r in members)
    base = 0 if anchored else rng.randint(0, top)
    sets = [(kind, 9 * suits[s] + base + r) for s, r in members]
    return sets[:4] + [(Kind.PAIR, sets[4][1])] if len(sets) == 5 else sets


def _random_set(rng: random.Random, pool: frozenset[int], kinds: Mapping[Kind, float]) -> tuple[Kind, int]:
    kind = rng.choices(list(kinds), weights=list(kinds.values()))[0]
    starts = _chow_starts(pool)
    if kind is Kind.CHOW and not starts:
        kind = Kind.PUNG
    return kind, rng.choice(starts if kind is Kind.CHOW else sorted(pool))


def _standard(rng: random.Random) -> tuple[list[int], list[Meld]]:
    """Four sets and a pair: chows, pungs, kongs, exposed or concealed."""
    theme, pool_of, _ = _weighted(rng, POOLS)
    pool = pool_of(rng)
    chow_weight = rng.choice([0.0, 1.0, 3.0, 10.0])
    kinds = {Kind.CHOW: chow_weight, Kind.PUNG: 3.0, Kind.KONG: rng.choice([0.0, 0.5, 1.5])}
    wanted: list[tuple[Kind, int]] = _pattern_sets(rng) if rng.random() < 0.35 else []
    pair = next((s for s in wanted if s[0] is Kind.PAIR), None)
    sets = [s for s in wanted if s[0] is not Kind.PAIR]
    while len(sets) < 4:
        sets.append(_random_set(rng, pool, kinds))
    if rng.random() < 0.15:  # upgrade some pungs to kongs (pattern pungs included)
        sets = [(Kind.KONG, f) if k is Kind.PUNG and rng.random() < 0.5 else (k, f) for k, f in sets]
    build = _Builder()
    exposure = rng.choice([0.0, 0.0, 0.25, 0.5, 0.75, 1.0])
    for kind, first in sets:
        chance = 0.5 if kind is Kind.KONG else exposure
        build.add(kind, first, exposed=rng.random() < chance)
    pair_pool = HONORS if theme == "chicken" else pool
    build.add(Kind.PAIR, pair[1] if pair else rng.choice(sorted(pair_pool)))
    return build.concealed, build.melds


def _nine_gates(rng: random.Random) -> tuple[list[int], list[Meld]]:
    s = 9 * rng.randrange(3)
    return [s, s, s, *range(s + 1, s + 8), s + 8, s + 8, s + 8, s + rng.randrange(9)], []


def _seven_pairs(rng: random.Random) -> tuple[list[int], list[Meld]]:
    _, pool_of, _ = _weighted(rng, POOLS)
    pool = sorted(pool_of(rng))
    if rng.random() < 0.12:  # seven shifted pairs
        s = 9 * rng.randrange(3) + rng.randrange(3)
        pairs = list(range(s, s + 7))
    else:
        pairs = [rng.choice(pool) for _ in range(7)]
    if Counter(pairs).most_common(1)[0][1] > 2:
        raise _Retry
    return [t for p in pairs for t in (p, p)], []


def _thirteen_orphans(rng: random.Random) -> tuple[list[int], list[Meld]]:
    tiles = sorted(TERMINALS_HONORS)
    return tiles + [rng.choice(tiles)], []


def _knitted(rng: random.Random) -> list[int]:
    suits = rng.sample(range(3), 3)
    return [9 * suits[k] + k + 3 * i for k in range(3) for i in range(3)]


def _honors_and_knitted(rng: random.Random) -> tuple[list[int], list[Meld]]:
    tiles = _knitted(rng) + sorted(HONORS)
    drop = set(rng.sample(range(16), 2))
    return [t for i, t in enumerate(tiles) if i not in drop], []


def _knitted_straight(rng: random.Random) -> tuple[list[int], list[Meld]]:
    build = _Builder()
    for t in _knitted(rng):
        build.counts[t] += 1
        build.concealed.append(t)
    kind, first = _random_set(rng, ALL, {Kind.CHOW: 2.0, Kind.PUNG: 2.0, Kind.KONG: 0.5})
    build.add(kind, first, exposed=rng.random() < 0.5)
    build.add(Kind.PAIR, rng.randrange(34))
    return build.concealed, build.melds


SHAPES: tuple[tuple[str, Callable, float], ...] = (
    ("standard", _standard, 70),
    ("nine gates", _nine_gates, 1),
    ("seven pairs", _seven_pairs, 12),
    ("thirteen orphans", _thirteen_orphans, 3),
    ("honours and knitted", _honors_and_knitted, 6),
    ("knitted straight", _knitted_straight, 8),
)


def _situation(rng: random.Random, standing: list[int], melds: list[Meld], win: int) -> Situation:
    """Random situation flags, each consistent with the hand (so that
    pymahjonggb's own flag corrections never fire)."""
    in_melds = sum(m.kind.tiles(m.first).count(win) for m in melds)
    alone = standing.count(win) == 1  # no other copy among the concealed tiles
    self_drawn = rng.random() < 0.4
    has_kong = any(m.kind is Kind.KONG for m in melds)
    special = rng.random()
    kong_replacement = self_drawn and has_kong and special < 0.3
    robbing_kong = not self_drawn and alone and in_melds == 0 and special < 0.15
    last_tile = not (kong_replacement or robbing_kong) and rng.random() < 0.1
    fourth_tile = alone and (in_melds == 3 or rng.random() < 0.25)
    seat = rng.choice(WINDS)
    others = [w for w in WINDS if w != seat]
    return Situation(
        self_drawn=self_drawn,
        seat_wind=seat,
        prevalent_wind=rng.choice(WINDS),
        last_tile=last_tile,
        kong_replacement=kong_replacement,
        robbing_kong=robbing_kong,
        fourth_tile=fourth_tile,
        discarder=None if self_drawn or rng.random() < 0.5 else rng.choice(others),
    )


def random_deal(rng: random.Random) -> Deal:
    """One random legal winning hand with random (consistent) situation flags."""
    while True:
        name, make, _ = _weighted(rng, SHAPES)
        try:
            standing, melds = make(rng)
            break
        except _Retry:
            continue
    win = rng.choice(standing)
    n_flowers = 0 if rng.random() < 0.5 else rng.randint(1, 8)
    flowers = tuple(sorted(rng.sample(range(1, 9), n_flowers)))
    rng.shuffle(melds)
    return Deal(tuple(sorted(standing)), tuple(melds), flowers, win,
                _situation(rng, standing, melds, win), name)


def deals(n: int, seed: int) -> Iterator[Deal]:
    """`n` reproducible random deals."""
    rng = random.Random(seed)
    for _ in range(n):
        yield random_deal(rng)


def _suit_counts(total: int, ranks: int = 9) -> Iterator[tuple[int, ...]]:
    """Every way to hold `total` tiles of one suit, at most four of a rank."""
    if ranks == 1:
        if total <= 4:
            yield (total,)
        return
    for count in range(min(4, total) + 1):
        for rest in _suit_counts(total - count, ranks - 1):
            yield (count, *rest)


def one_suit_deals(stride: int = 1) -> Iterator[Deal]:
    """Every concealed winning hand of 14 characters (every `stride`-th way to
    hold them), with each possible winning tile, won on a discard and
    self-drawn (pymahjonggb decides what wins; the project must score all)."""
    import MahjongGB

    for counts in islice(_suit_counts(14), 0, None, stride):
        tiles = tuple(rank for rank, count in enumerate(counts) for _ in range(count))
        for win in sorted(set(tiles)):
            rest = list(tiles)
            rest.remove(win)
            if MahjongGB.MahjongShanten((), tuple(REFEREE_TILE[t] for t in rest)) != 0:
                continue
            try:
                MahjongGB.MahjongFanCalculator((), tuple(REFEREE_TILE[t] for t in rest), REFEREE_TILE[win],
                                               0, False, False, False, False, 0, 0)
            except TypeError:  # ready, but not on this tile
                continue
            for self_drawn in (False, True):
                yield Deal(tiles, (), (), win, Situation(self_drawn=self_drawn), "one suit")


# --------------------------------------------------------------------------
# pymahjonggb adapter

#: pymahjonggb's English fan names -> the card's names (docs/rules/mcr-referee.md).
REFEREE_NAMES: dict[str, str] = {
    "All Five": "All Fives",
    "Robbing The Kong": "Robbing the Kong",
    "Two Dragons Pungs": "Two Dragon Pungs",
}

#: pymahjonggb's values that differ from the card (value on the card).
CARD_VALUES: dict[str, int] = {"Two Concealed Kongs": 8}

#: pymahjonggb's extra fan, split into the card's fans it replaces
#: (name, card value, count).
REFEREE_SPLITS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "Concealed Kong and Melded Kong": (("Concealed Kong", 2, 1), ("Melded Kong", 1, 1)),
}

FLOWERS = "Flower Tiles"


def referee_args(deal: Deal) -> tuple:
    """Positional arguments of `MahjongGB.MahjongFanCalculator` for a deal.

    Exposed sets get offer 1 (any non-zero offer means "claimed"; for a chow
    it says which tile was claimed, for a pung/kong which seat gave it);
    a concealed kong gets offer 0."""
    names = {Kind.CHOW: "CHI", Kind.PUNG: "PENG", Kind.KONG: "GANG"}
    packs = tuple(
        (names[m.kind], REFEREE_TILE[m.first + 1 if m.kind is Kind.CHOW else m.first], 1 if m.exposed else 0)
        for m in deal.melds
    )
    rest = list(deal.standing)
    rest.remove(deal.win)
    s = deal.situation
    return (
        packs, tuple(REFEREE_TILE[t] for t in rest), REFEREE_TILE[deal.win], len(deal.flowers),
        s.self_drawn, s.fourth_tile, s.kong_replacement or s.robbing_kong, s.last_tile,
        WINDS.index(s.seat_wind), WINDS.index(s.prevalent_wind),
    )


Fans = dict[str, tuple[int, int]]  # card name -> (value per occurrence, count)


def referee_fans(deal: Deal) -> Fans:
    """pymahjonggb's fans for a deal, normalised to the card's names and
    values; flower points are kept as an item (its total includes them)."""
    import MahjongGB

    raw = MahjongGB.MahjongFanCalculator(*referee_args(deal), verbose=True)
    out: dict[str, tuple[int, int]] = {}
    for value, count, _, name in raw:
        card = REFEREE_NAMES.get(name, name)
        parts = REFEREE_SPLITS.get(name, ((card, CARD_VALUES.get(card, value), 1),))
        for part, per, n in parts:
            out[part] = (per, out.get(part, (per, 0))[1] + n * count)
    return out


def _fans(items) -> Fans:
    out: dict[str, tuple[int, int]] = {}
    for item in items:
        value, count = out.get(item.name, (item.value, 0))
        out[item.name] = (value, count + item.count)
    return out


def project_result(deal: Deal, runners_up: int = 0) -> tuple[Fans, tuple[Fans, ...]]:
    """This project's fans for a deal, and those of up to `runners_up`
    next-best arrangements."""
    from scoring import score

    breakdown = score(deal.hand, ruleset="mcr", win=deal.win_code, runners_up=runners_up,
                      **deal.situation.kwargs())
    return _fans(breakdown.items), tuple(_fans(r.items) for r in breakdown.runners_up)


def points(fans: Fans) -> int:
    """Fan total without flowers."""
    return sum(value * count for name, (value, count) in fans.items() if name != FLOWERS)


@dataclass(frozen=True)
class Disagreement:
    """Fans only one side counted (name x count), with a value mismatch list."""

    project_only: tuple[str, ...]
    referee_only: tuple[str, ...]
    values: tuple[str, ...] = ()

    @property
    def category(self) -> str:
        parts = [f"+{n}" for n in self.project_only] + [f"-{n}" for n in self.referee_only]
        return " ".join(parts + list(self.values)) or "(none)"


def _expand(fans: Fans) -> Counter:
    return Counter({name: count for name, (_, count) in fans.items() if count})


def compare(project: Fans, referee: Fans) -> Disagreement | None:
    """None when both sides list the same fans with the same counts and
    values; otherwise what differs (+ = only the project, - = only pymahjonggb)."""
    p, r = _expand(project), _expand(referee)
    plus = tuple(sorted(f"{n} x{c}" if c > 1 else n for n, c in (p - r).items()))
    minus = tuple(sorted(f"{n} x{c}" if c > 1 else n for n, c in (r - p).items()))
    values = tuple(sorted(
        f"{n}={project[n][0]}vs{referee[n][0]}" for n in p.keys() & r.keys() if project[n][0] != referee[n][0]
    ))
    if plus or minus or values:
        return Disagreement(plus, minus, values)
    return None


# --------------------------------------------------------------------------
# pymahjonggb's divergences from the card: each investigated, documented in
# docs/rules/mcr-referee.md, applied only when its condition holds.

#: Hands where pymahjonggb drops Fully Concealed Hand together with Concealed Hand.
NO_FULLY_CONCEALED = frozenset({
    "Seven Pairs", "Seven Shifted Pairs", "Thirteen Orphans", "Greater Honors and Knitted Tiles",
    "Lesser Honors and Knitted Tiles", "Four Concealed Pungs", "Nine Gates",
})


def _without(fans: Fans, *names: str) -> dict[str, tuple[int, int]]:
    return {name: vc for name, vc in fans.items() if name not in names}


def _fully_concealed_applies(deal: Deal, fans: Fans) -> bool:
    return (deal.situation.self_drawn and not any(m.exposed for m in deal.melds)
            and "Fully Concealed Hand" not in fans and bool(NO_FULLY_CONCEALED & fans.keys()))


def _fully_concealed(fans: Fans, project: Fans) -> Fans:
    return {**_without(fans, "Self-Drawn"), "Fully Concealed Hand": (4, 1)}


def _nine_gates_applies(deal: Deal, fans: Fans) -> bool:
    return "Nine Gates" in fans and "Pung of Terminals or Honors" in fans


def _nine_gates(fans: Fans, project: Fans) -> Fans:
    return _without(fans, "Pung of Terminals or Honors")


WAIT_FANS = ("Edge Wait", "Closed Wait", "Single Wait")


def formal_waits(deal: Deal) -> frozenset[int]:
    """The tiles pymahjonggb's wait test sees the hand waiting on (four sets
    and a pair, plus seven pairs when nothing is declared): shape only."""
    import MahjongGB

    packs, standing = referee_args(deal)[:2]
    tests = [MahjongGB.RegularShanten] + ([MahjongGB.SevenPairsShanten] if not packs else [])
    found = set()
    for test in tests:
        shanten, useful = test(standing)
        if shanten == 0:
            found.update(REFEREE_TILE.index(code) for code in useful)
    return frozenset(found)


def _held_four_applies(deal: Deal, fans: Fans) -> bool:
    tiles = deal.all_tiles()
    tiles.remove(deal.win)
    waits = formal_waits(deal)
    real = {t for t in waits if tiles.count(t) < 4}
    return len(waits) > 1 and real == {deal.win}


def _held_four(fans: Fans, project: Fans) -> Fans:
    missing = [name for name in WAIT_FANS if name in project and name not in fans]
    return {**fans, **{name: project[name] for name in missing[:1]}} if len(missing) == 1 else fans


@dataclass(frozen=True)
class Divergence:
    """A documented pymahjonggb divergence: when it applies (to the deal and
    pymahjonggb's fans) and the card's fans it corrects them to."""

    name: str
    reason: str
    applies: Callable[[Deal, Fans], bool]
    correct: Callable[[Fans, Fans], Fans]  # (pymahjonggb's fans, project's fans) -> corrected


DIVERGENCES: tuple[Divergence, ...] = (
    Divergence(
        "fully concealed special hand",
        "a self-drawn concealed Seven Pairs / Seven Shifted Pairs / Thirteen Orphans / Honors and "
        "Knitted / Four Concealed Pungs / Nine Gates gets Fully Concealed Hand (card: only Concealed "
        "Hand is excluded); pymahjonggb gives Self-Drawn instead",
        _fully_concealed_applies, _fully_concealed,
    ),
    Divergence(
        "nine gates pungs",
        "Nine Gates excludes Pung of Terminals or Honors (card); pymahjonggb removes only one of two",
        _nine_gates_applies, _nine_gates,
    ),
    Divergence(
        "waits on a tile held four times",
        "a tile the hand already holds all four of cannot be the winning tile, so the hand waits "
        "solely on the other one (Edge/Closed/Single Wait count, card); pymahjonggb's wait test "
        "is by shape only and also counts such a tile (a fifth copy, or one whose four copies "
        "are in the hand's own kong)",
        _held_four_applies, _held_four,
    ),
)
ARRANGEMENT_CHOICE = "arrangement choice"


def _undervalued(deal: Deal, best: Fans) -> int:
    """At most how much pymahjonggb's divergences undervalue the project's
    chosen arrangement (Fully Concealed Hand 4 instead of Self-Drawn 1 or
    nothing; a wait fan it misses by counting a tile held four times)."""
    special = "Fully Concealed Hand" in best and bool(NO_FULLY_CONCEALED & best.keys())
    wait = any(name in best for name in WAIT_FANS) and _held_four_applies(deal, best)
    return 4 * special + wait


def _choice_explained(deal: Deal, best: Fans, runner_up: Fans, referee: Fans) -> bool:
    """pymahjonggb chose another arrangement, scored exactly like the project's
    runner-up: a tie, or pymahjonggb undervaluing the project's choice by the
    divergences above."""
    readings = [runner_up]
    if _held_four_applies(deal, runner_up):  # pymahjonggb misses this reading's wait fan too
        readings.append(_without(runner_up, *WAIT_FANS))
    if all(compare(reading, referee) is not None for reading in readings):
        return False
    return 0 <= points(best) - points(runner_up) <= _undervalued(deal, best)


@dataclass(frozen=True)
class Verdict:
    """One deal compared: the raw disagreement (documented normalisations
    only), the divergences applied, and what remains unexplained."""

    raw: Disagreement | None
    divergences: tuple[str, ...]
    remaining: Disagreement | None
    fans: frozenset[str] = frozenset()  # the project's fans (for coverage counts)


def referee(deal: Deal) -> Verdict:
    """Compare one deal."""
    project = project_result(deal)[0]
    fans = referee_fans(deal)
    raw = compare(project, fans)
    applied, stages = [], [fans]
    for divergence in DIVERGENCES:
        if raw and divergence.applies(deal, fans):
            corrected = divergence.correct(fans, project)
            if corrected != fans:
                fans = corrected
                applied.append(divergence.name)
                stages.append(fans)
    remaining = raw and compare(project, fans)
    runners_up = project_result(deal, runners_up=1000)[1] if remaining else ()  # all of them
    if remaining and any(_choice_explained(deal, project, r, f) for r in runners_up for f in stages):
        applied.append(ARRANGEMENT_CHOICE)
        remaining = None
    return Verdict(raw, tuple(applied), remaining, frozenset(project))


@dataclass
class Tally:
    """Counts over many deals, with example deals per category."""

    hands: int = 0
    raw_agree: int = 0
    agree: int = 0
    divergences: Counter = field(default_factory=Counter)
    categories: Counter = field(default_factory=Counter)
    examples: dict[str, list[Deal]] = field(default_factory=dict)
    coverage: Counter = field(default_factory=Counter)

    def add(self, deal: Deal, verdict: Verdict, keep: int) -> None:
        self.hands += 1
        self.coverage.update(verdict.fans)
        self.raw_agree += verdict.raw is None
        self.agree += verdict.remaining is None
        self.divergences.update(verdict.divergences)
        key = verdict.remaining.category if verdict.remaining else None
        if key:
            self.categories[key] += 1
        for name in ([key] if key else []) + [f"[{d}]" for d in verdict.divergences]:
            bucket = self.examples.setdefault(name, [])
            if len(bucket) < keep:
                bucket.append(deal)


def run(sample: Iterable[Deal], keep: int = 3) -> Tally:
    """Compare deals."""
    tally = Tally()
    for deal in sample:
        try:
            verdict = referee(deal)
        except ValueError as exc:  # the project refused the hand
            failure = Disagreement((f"error {type(exc).__name__}: {exc}",), ())
            verdict = Verdict(failure, (), failure)
        tally.add(deal, verdict, keep)
    return tally


def _percent(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / max(whole, 1):.4f} %)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Compare this project's MCR fans with pymahjonggb's on random legal winning hands.")
    parser.add_argument("--hands", type=int, default=1_000_000, help="how many random hands (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--examples", type=int, default=2, help="example hands printed per category")
    parser.add_argument("--one-suit", action="store_true",
                        help="instead: every concealed one-suit winning hand, each winning tile, discard and self-drawn")
    args = parser.parse_args(argv)
    sample = one_suit_deals() if args.one_suit else deals(args.hands, args.seed)
    tally = run(sample, args.examples)
    source = "every concealed one-suit hand" if args.one_suit else f"seed {args.seed}"
    print(f"{source}: identical fan lists after the documented normalisations: "
          f"{_percent(tally.raw_agree, tally.hands)}")
    print(f"agreeing once pymahjonggb's investigated divergences are corrected: {_percent(tally.agree, tally.hands)}")
    for name, count in tally.divergences.most_common():
        print(f"{count:8d}  [{name}]")
        for deal in tally.examples[f"[{name}]"][: args.examples]:
            print(f"          {deal}")
    rarest = ", ".join(f"{name} {count}" for name, count in sorted(tally.coverage.items(), key=lambda e: e[1])[:8])
    print(f"fans seen: {len(tally.coverage)}; rarest: {rarest}")
    print("unexplained disagreements:" if tally.categories else "unexplained disagreements: none")
    for category, count in tally.categories.most_common():
        print(f"{count:8d}  {category}")
        for deal in tally.examples[category][: args.examples]:
            print(f"          {deal}")
    return 0 if tally.agree == tally.hands else 1


if __name__ == "__main__":
    sys.exit(main())
