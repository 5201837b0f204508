"""Hand-aware decoding: the most probable reading of the tiles that a hand can be.

A hand holds at most four of a tile and one of each bonus tile, and a photo of
as many playing tiles as a hand holds in a rule set the app scores (14, or with
kongs up to 18; 17 once a 16-tile rule set is registered) shows a complete
winning shape. A count no rule set scores is no hand: two rows of a set's nine
bamboos are not read as a 17-tile hand while every rule set scores 14 tiles.
The alternatives of the least confident tiles are searched in order of joint
log-probability and the first valid reading wins.
A bonus tile's name bears on nothing but the other bonus tiles' (one of each):
the tiles read as bonus tiles are given their likeliest distinct names first,
so that the search spends its readings and open places on the playing tiles
(a bonus tile may still turn out a playing tile misread, below: each is tried
as its name or as one; the names are then given anew).
Decoding never swaps a bonus tile for a playing tile or back (that could dodge
the shape), except where the tiles as read are not a complete hand and one
reading makes them one that is at most CROSS_RATIO times less probable than the
best valid reading of the same kinds (a bird 1s read as a flower; three of them
read as one flower, which no hand holds thrice; a flower of an unfamiliar set
read as a playing tile, leaving 15 playing tiles and no kong). And no set holds
a bonus tile: a lone bonus tile read among the playing tiles of a run laid apart
as a set (a claimed tile lying sideways read as a flower) becomes the playing tile
that makes every such run a set, where the other tiles that changes are together
at most CROSS_RATIO times less probable.
Given the runs the tiles were found in, a reading where every run laid apart as
a set of three or four (an exposed meld) is a chow, pung or kong is preferred
(the complete readings above among them); when there is none, the plain rules
decide. Such a run is read as one of its likeliest sets as a whole, each at most
CROSS_RATIO times less probable than the run as read: its claimed tile, lying
sideways, is often read with little confidence and may rank its face low, or be
read as a bonus tile. Where the hand is then incomplete, such a run (or one read
mostly as bonus tiles, `_bonus_run`) may instead be bonus tiles of distinct
names: flowers laid apart together, those of an unfamiliar set read as playing
tiles, as likelier bonus tiles as a tile set aside is (`_as_flowers`). A run
laid apart whose tiles are read alike shows one face three or four times, so
no bonus tiles (`_alike_runs`: a pung of birds read as one flower).
Only a hand lays melds apart: where the playing tiles are more than one away
from a hand's count (a set laid out in rows), the runs are no melds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from heapq import heappop, heappush
from itertools import combinations, permutations
from math import exp, log, prod, sqrt
from typing import Callable, Hashable, Iterable, Sequence

from scoring.decompose import decompose, sets_in
from scoring.hand import Hand, HandError, Meld, SetKind, meld_of
from scoring.rulesets import RULESETS
from scoring.tiles import PLAYING_TILES, Tile, format_tiles

SURE = 0.95  # tiles read at least this confidently are never changed
DOUBT = 0.6  # a final reading less probable than this is marked doubtful
BONUS_DOUBT = 0.9  # ... and a bonus tile's less probable than this (their pictures differ from set to set: a
# flower of an unfamiliar set is often named wrong, yet not very doubtfully)
OPEN_TILES = 8  # at most this many of the least confident tiles are reconsidered
MAX_CHECKS = 400  # readings tested for validity before giving up
SET_READINGS = 8  # a run laid apart may be read as any of its this many likeliest sets
CROSS_RATIO = 160.0  # a reading that changes a tile's kind must complete the hand and be at most this much less
# probable than the best valid reading that changes none (20 until session 33, 40 until session 39)
BONUS_APART = 10.0  # a tile set aside (a run of one or two beside a row of more than four) is this much likelier
# a bonus tile: flowers and seasons are laid aside as they are drawn
ALIKE = 0.9  # tiles read at least this alike (`_look_alike`) show one face: a pung of birds read as flowers
# 0.92-0.99, unlike flowers laid together 0.6-0.75 (the held-out art's, development scenes)
LOOSE_TILES = 2  # a run of at most this many playing tiles may lie beyond the hand (`decode_apart`)
KEPT_LOOSE = 2  # at most this many such runs are taken as part of the hand where others are not
APART_TRIES = 4  # at most this many choices of them are decoded (each a search for a hand)
HAND_SIZES = {ruleset.tile_count: sets_in(ruleset.tile_count) for ruleset in RULESETS.values()}
# tile count (kongs as three) -> sets in a winning hand, for every rule set the app scores
NOT_FACES = frozenset({"back", "none"})
_PLAYING = {str(tile): tile for tile in PLAYING_TILES}  # a playing tile's code: the tile (a search's hot path)
KONG_BACKS = frozenset({(True, False, False, True), (False, True, True, False), (True,) * 4})  # a concealed kong's
# face-down tiles, as hands show one

Alternatives = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Reading:
    """The decoded codes, per tile whether decoding changed it or still doubts it, and the tiles no part
    of the hand (`decode_apart`)."""

    codes: tuple[str, ...]
    changed: tuple[bool, ...]
    doubtful: tuple[bool, ...]
    valid: bool
    apart: frozenset[int] = frozenset()


def decode(alternatives: Sequence[Alternatives], runs: Sequence[Hashable] | None = None) -> Reading:
    """The most probable valid reading given each tile's top alternatives (best first) and,
    optionally, the run (group of touching tiles) each tile was found in (a tile set aside is likelier
    a bonus tile: `_set_aside`; which tiles are sure, and how sure a final reading is, stay as read)."""
    read = alternatives
    alternatives = _alike_runs(_set_aside(read, runs or ()), runs or ())
    best = tuple(options[0][0] for options in alternatives)
    unsure = _unsure(read)
    open_tiles = unsure[:OPEN_TILES]
    melds = _meld_runs(best, runs or ()) if _hand_like(best) else ()
    bonus, doubted = _bonus_places(best), frozenset(unsure)
    named = _bonus_names(alternatives, bonus, doubted)
    naming, names = named or (0.0, {})
    start = tuple(names.get(i, code) for i, code in enumerate(best))
    found = named and _named_search(alternatives, start, [i for i in unsure if i not in names][:OPEN_TILES],
                                    melds, naming)
    # each open tile's readings, a bonus tile's name as given (it may still be a playing tile misread)
    options = [((names[i], dict(alternatives[i])[names[i]]), *_of_kind(alternatives[i], "playing"),
                *_of_kind(alternatives[i], "back")) if i in names else alternatives[i] for i in open_tiles]
    stray = _stray_bonus(best, melds)
    if stray:
        kinds = [_of_kind(option, "playing") if i in stray else _same_kind(option)
                 for i, option in zip(open_tiles, options)]
        found = _search(start, _singles(open_tiles, kinds), lambda codes: is_valid(codes) and _are_sets(codes, melds),
                        log(CROSS_RATIO), naming) or found
    if len(best) >= min(HAND_SIZES) and _incomplete(best, melds):  # fewer tiles show no hand however read
        spent = found[0] if found else 0.0  # a same-kind reading may cost too: two tiles read as one flower
        laid, loose = melds + _mixed_bonus_runs(best, runs or ()), dict(zip(open_tiles, options))
        found = _search(start, _meld_choices(alternatives, start, laid, open_tiles, loose, flowers=True),
                        lambda codes: _shows_complete(*_revealed(codes, melds)) and _are_sets(codes, melds),
                        spent + log(CROSS_RATIO), naming) or found
    chosen = found and (found[1] if _bonus_places(found[1]) == bonus else _renamed(found[1], alternatives, doubted))
    codes = chosen or best
    probability = [dict(options).get(code, 0.0) for options, code in zip(read, codes)]
    odd = odd_backs(codes)
    return Reading(
        codes,
        tuple(code != options[0][0] for code, options in zip(codes, read)),
        tuple(p < (BONUS_DOUBT if tile_kind(code) == "bonus" else DOUBT) or i in odd
              for i, (code, p) in enumerate(zip(codes, probability))),
        chosen is not None,
    )


def decode_apart(alternatives: Sequence[Alternatives], runs: Sequence[tuple[int, int]]) -> Reading:
    """`decode`, given each tile's run as (row, group), with the tiles that are no part of the hand set
    `apart`. Where the decoded tiles show no complete hand yet hold more tiles than a hand with one kong,
    some may lie beyond it: discards or a neighbour's tiles, in a row of their own (`_loose_groups`). The
    fewest of those loose groups (at most KEPT_LOOSE) are kept with the others that let them show a
    complete hand as `decode` reads them, trying at most APART_TRIES choices (`_keeps` orders them); of
    those keeping as few, the likeliest hand. The tiles left out are decoded on their own, as playing
    tiles: no one discards a bonus tile. A run of more than four tiles read face down (a wall) is no part
    of a hand either (a concealed kong shows at most four)."""
    wall = [i for group in _members(runs).values() if len(group) > 4
            and all(alternatives[i][0][0] == "back" for i in group) for i in group]
    if wall:
        rest = [i for i in range(len(runs)) if i not in wall]
        hand = decode_apart([alternatives[i] for i in rest], [runs[i] for i in rest])
        return _joined(hand, rest, decode([alternatives[i] for i in wall], [runs[i] for i in wall]), wall)
    reading = decode(alternatives, runs)
    loose = _loose_groups(reading.codes, runs)
    if not loose or complete(reading.codes, runs):
        return reading
    chosen: list[tuple[float, list[int], Reading]] = []
    fewest = KEPT_LOOSE  # groups kept by the first choice that shows a hand
    for kept, hand in _keeps(reading.codes, alternatives, loose, runs)[:APART_TRIES]:
        if kept > fewest:
            break
        found = decode([alternatives[i] for i in hand], [runs[i] for i in hand])
        if complete(found.codes, [runs[i] for i in hand]):
            chosen.append((sum(log(dict(alternatives[i])[code]) for i, code in zip(hand, found.codes)), hand, found))
            fewest = kept
    if not chosen:
        return reading
    _, hand, found = max(chosen, key=lambda choice: choice[0])
    out = [i for i in range(len(runs)) if i not in hand]
    beyond = decode([_of_kind(alternatives[i], "playing") or alternatives[i] for i in out], [runs[i] for i in out])
    changed = tuple(code != alternatives[i][0][0] for code, i in zip(beyond.codes, out))
    return _joined(found, hand, replace(beyond, changed=changed), out)


def _keeps(codes: Sequence[str], alternatives: Sequence[Alternatives], loose: list[tuple[int, ...]],
           runs: Sequence[tuple[int, int]]) -> list[tuple[int, list[int]]]:
    """The choices of loose groups to keep with the hand, each as how many it keeps and the positions of
    the hand's tiles then: fewest kept first, then those leaving as many tiles as a hand holds (not one
    more or less: a tile missed, found twice or of the wrong kind), then the surest; only those whose
    tiles could be a hand (`_hand_like`), a tile read as a bonus tile among playing tiles maybe one
    misread (an unfamiliar set's bird 1s read as a flower in the hand's row)."""
    misread = _bonus_among_playing(codes, runs)
    ranked = []
    for kept in range(min(KEPT_LOOSE, len(loose) - 1) + 1):
        for keep in combinations(loose, kept):
            left = {i for group in loose if group not in keep for i in group}
            hand = [i for i in range(len(codes)) if i not in left]
            shown = tuple(codes[i] for i in hand)
            if _hand_like(shown, sum(i in misread for i in hand)):
                sure = sum(log(alternatives[i][0][1]) for group in keep for i in group)
                ranked.append(((kept, not _whole(shown), -sure), hand))
    return [(key[0], hand) for key, hand in sorted(ranked, key=lambda item: item[0])]


def in_hand(items: Sequence, reading: Reading) -> list:
    """The items (one per tile of the reading) of the tiles of the hand, those `apart` left out."""
    return [item for i, item in enumerate(items) if i not in reading.apart]


def _loose_groups(codes: Sequence[str], runs: Sequence[tuple[int, int]]) -> list[tuple[int, ...]]:
    """Where the tiles are more than a hand holds with one kong, the runs that may lie beyond the hand: in
    a row of loose tiles (discards laid in a row: runs of at most LOOSE_TILES playing tiles, none showing a
    face-down tile or more than three tiles), those runs, and every other that is no set as read (discards
    touching; one read as a bonus tile: players lay their bonus tiles aside with their hands). A run in a
    row of the hand's (a winning tile laid just after it) is kept with it."""
    if len(codes) - len(_bonus_places(codes)) <= min(HAND_SIZES) + 1:
        return []
    groups = _members(runs)
    playing = {run: all(tile_kind(codes[i]) == "playing" for i in group) for run, group in groups.items()}
    small = {run for run, group in groups.items() if playing[run] and len(group) <= LOOSE_TILES}
    rows = {run[0] for run in small} - {run[0] for run, group in groups.items()
                                        if len(group) > 3 or any(codes[i] == "back" for i in group)}
    return [group for run, group in groups.items()
            if run[0] in rows and (run in small or _laid_meld(tuple(codes[i] for i in group)) is None)]


def _bonus_among_playing(codes: Sequence[str], runs: Sequence[tuple[int, int]]) -> frozenset[int]:
    """Positions of the tiles read as bonus tiles in runs of more than LOOSE_TILES tiles that are no
    bonus tiles laid apart together (`_bonus_run`): players lay their bonus tiles aside, not in the hand."""
    return frozenset(i for group in _members(runs).values() if len(group) > LOOSE_TILES
                     and not _bonus_run(codes, group) for i in group if tile_kind(codes[i]) == "bonus")


def _joined(hand: Reading, places: Sequence[int], apart: Reading, apart_places: Sequence[int]) -> Reading:
    """One reading of all the tiles from the hand's (at ``places``; those it sets apart too) and the other
    tiles' (``apart_places``)."""
    order: list[tuple[str, bool, bool]] = [("", False, False)] * (len(places) + len(apart_places))
    for part, at in ((hand, places), (apart, apart_places)):
        for k, i in enumerate(at):
            order[i] = (part.codes[k], part.changed[k], part.doubtful[k])
    codes, changed, doubtful = (tuple(column) for column in zip(*order))
    return Reading(codes, changed, doubtful, hand.valid, frozenset(apart_places) | {places[i] for i in hand.apart})


def _unsure(read: Sequence[Alternatives]) -> list[int]:
    """Positions of the tiles read less than SURE, least confident first."""
    return sorted((i for i, options in enumerate(read) if options[0][1] < SURE), key=lambda i: read[i][0][1])


def _named_search(alternatives: Sequence[Alternatives], start: tuple[str, ...], open_tiles: Sequence[int],
                  melds: tuple[tuple[int, ...], ...], naming: float) -> tuple[float, tuple[str, ...]] | None:
    """The likeliest valid reading from ``start`` (its bonus tiles named, at the cost ``naming``) that
    keeps every tile's kind, changing the open tiles (as sets where runs lie apart, `melds`)."""
    found = None
    if melds:
        found = _search(start, _meld_choices(alternatives, start, melds, open_tiles),
                        lambda codes: is_valid(codes) and _are_sets(codes, melds), spent=naming)
    return found or _search(start, _singles(open_tiles, [_same_kind(alternatives[i]) for i in open_tiles]),
                            is_valid, spent=naming)


def _bonus_places(codes: Sequence[str]) -> list[int]:
    """Positions of the bonus tiles among the codes."""
    return [i for i, code in enumerate(codes) if tile_kind(code) == "bonus"]


def _renamed(codes: tuple[str, ...], alternatives: Sequence[Alternatives], unsure: frozenset[int]) -> tuple[str, ...]:
    """A reading's bonus tiles named anew (`_bonus_names`): where it reads a tile named a bonus tile as a
    playing tile, that name is free for the others (where its bonus tiles are those read so, their names
    are already these)."""
    named = _bonus_names(alternatives, _bonus_places(codes), unsure)
    return tuple(named[1].get(i, code) for i, code in enumerate(codes)) if named else codes


def _bonus_names(alternatives: Sequence[Alternatives], bonus: Sequence[int],
                 unsure: frozenset[int]) -> tuple[float, dict[int, str]] | None:
    """The ``bonus`` tiles (position -> name) named one of each bonus tile, the likeliest way, all but
    the ``unsure`` as read; and how much less probable that is (log) than as read. None where no way is
    (two tiles surely of one name, or more tiles than names)."""
    names = {i: alternatives[i][0][0] for i in bonus if i not in unsure}
    if len(set(names.values())) < len(names):
        return None
    doubted = [i for i in bonus if i not in names]
    picked = _distinct(tuple(tuple(option for option in _of_kind(alternatives[i], "bonus")
                                   if option[0] not in names.values() and option[1] > 0) for i in doubted))
    if picked is None:
        return None
    names.update(zip(doubted, picked[1]))
    return sum(log(alternatives[i][0][1]) for i in doubted) - picked[0], names


def _distinct(choices: tuple[Alternatives, ...]) -> tuple[float, tuple[str, ...]] | None:
    """One option of each choice, no two alike, the likeliest way: (log-probability, codes), or None."""
    @lru_cache(maxsize=None)
    def best(k: int, used: frozenset[str]) -> tuple[float, tuple[str, ...]] | None:
        if k == len(choices):
            return 0.0, ()
        ways = [(log(p) + rest[0], (code,) + rest[1]) for code, p in choices[k] if code not in used
                for rest in [best(k + 1, used | {code})] if rest is not None]
        return max(ways, key=lambda way: way[0], default=None)  # the first of equals: options come likeliest first

    return best(0, frozenset())


def _set_aside(alternatives: Sequence[Alternatives], runs: Sequence[Hashable]) -> Sequence[Alternatives]:
    """The alternatives with the bonus faces of each tile set aside made BONUS_APART times likelier,
    renormalised, best first again. Set aside: in a run of one or two tiles beside a run of more than
    four, not next to another such run in its row (runs as (row, group): a set cut at its lying tile)."""
    sizes = Counter(runs)
    if not sizes or max(sizes.values()) <= 4:
        return alternatives
    small = {run for run, n in sizes.items() if n <= 2}
    aside = {run for run in small
             if not (isinstance(run, tuple) and {(run[0], run[1] - 1), (run[0], run[1] + 1)} & small)}
    weighed = []
    for options, run in zip(alternatives, runs):
        if run in aside:
            options = _renormalised((code, p * BONUS_APART if tile_kind(code) == "bonus" else p) for code, p in options)
        weighed.append(options)
    return weighed


def _renormalised(options: Iterable[tuple[str, float]]) -> Alternatives:
    """The options scaled to sum to one (as they are where they sum to nothing), likeliest first."""
    options = list(options)
    total = sum(p for _, p in options) or 1.0
    return tuple(sorted(((code, p / total) for code, p in options), key=lambda option: -option[1]))


def _alike_runs(alternatives: Sequence[Alternatives], runs: Sequence[Hashable]) -> Sequence[Alternatives]:
    """The alternatives with the bonus faces of each run laid apart (`_laid_runs`) whose tiles look alike
    (`_look_alike`) left out, renormalised: one face shown three or four times is no bonus tile (one of
    each), so a pung of an unfamiliar set's birds (1s) read as flowers is a pung."""
    alternatives = list(alternatives)
    for run in _laid_runs(runs):
        if _look_alike([alternatives[i] for i in run]):
            for i in run:
                alternatives[i] = _renormalised(option for option in alternatives[i] if tile_kind(option[0]) != "bonus")
    return alternatives


def _look_alike(tiles: Sequence[Alternatives]) -> bool:
    """Whether every two of the tiles are read alike: the Bhattacharyya coefficient of their readings
    (over every face, each summing to one) at least ALIKE, as the same face read twice is and unlike
    faces are not."""
    read = [dict(_renormalised(options)) for options in tiles]
    return all(sum(sqrt(p * b.get(code, 0.0)) for code, p in a.items()) >= ALIKE
               for a, b in combinations(read, 2))


def odd_backs(codes: Sequence[str]) -> frozenset[int]:
    """Positions of the backs in no four tiles in a row that show a concealed kong as hands do (back X
    X back, X back back X, four backs): a face-down tile anywhere else is doubtful, however surely read."""
    shown = set()
    for start in range(len(codes) - 3):
        window = codes[start:start + 4]
        if tuple(code == "back" for code in window) in KONG_BACKS and len(set(window) - {"back"}) <= 1:
            shown.update(range(start, start + 4))
    return frozenset(i for i, code in enumerate(codes) if code == "back" and i not in shown)


def tile_kind(code: str) -> str:
    """'back', 'none', 'bonus' or 'playing' (a class's kind): decoding never swaps one kind for another
    (that would dodge the shape)."""
    return code if code in NOT_FACES else "bonus" if code.endswith("f") else "playing"


def _of_kind(options: Alternatives, kind: str) -> Alternatives:
    return tuple(option for option in options if tile_kind(option[0]) == kind)


def _same_kind(options: Alternatives) -> Alternatives:
    return _of_kind(options, tile_kind(options[0][0]))


def _stray_bonus(codes: tuple[str, ...], melds: tuple[tuple[int, ...], ...]) -> frozenset[int]:
    """Positions of a lone bonus tile among the playing tiles (or backs) of a run laid apart as a set:
    no set holds a bonus tile, so it is likely a playing tile misread (a claimed tile lying sideways).
    Flowers laid apart together are a run of bonus tiles."""
    stray = set()
    for meld in melds:
        bonus = [i for i in meld if tile_kind(codes[i]) == "bonus"]
        if len(bonus) == 1 and all(tile_kind(codes[i]) in ("playing", "back") for i in meld if i not in bonus):
            stray.update(bonus)
    return frozenset(stray)


def _laid_runs(runs: Sequence[Hashable]) -> tuple[tuple[int, ...], ...]:
    """Positions of each run of three or four tiles when there are several runs (a lone run is the hand)."""
    members = _members(runs)
    return tuple(group for group in members.values() if len(group) in (3, 4)) if len(members) > 1 else ()


def _meld_runs(codes: Sequence[str], runs: Sequence[Hashable]) -> tuple[tuple[int, ...], ...]:
    """Positions of each run laid apart (`_laid_runs`) but for bonus tiles laid apart together
    (`_bonus_run`) and the concealed tiles (`_concealed_four`)."""
    melds = tuple(group for group in _laid_runs(runs) if not _bonus_run(codes, group))
    concealed = _concealed_four(codes, melds)
    return tuple(meld for meld in melds if meld != concealed)


def _mixed_bonus_runs(codes: Sequence[str], runs: Sequence[Hashable]) -> tuple[tuple[int, ...], ...]:
    """Positions of each run laid apart that reads as bonus tiles together (`_bonus_run`), not all of them."""
    return tuple(group for group in _laid_runs(runs)
                 if _bonus_run(codes, group) and any(tile_kind(codes[i]) != "bonus" for i in group))


def _bonus_run(codes: Sequence[str], run: tuple[int, ...]) -> bool:
    """Whether a run's tiles as read are bonus tiles laid apart together, no set: more than half of them
    read as bonus tiles, or half and the faces of the others unlike (two birds of a kong read as flowers
    leave two faces alike)."""
    bonus = sum(tile_kind(codes[i]) == "bonus" for i in run)
    return 2 * bonus > len(run) or (2 * bonus == len(run) and len(_playing_faces(codes, run)) > 1)


def _playing_faces(codes: Sequence[str], run: tuple[int, ...]) -> set[str]:
    """The playing tiles a run reads as (backs and bonus readings aside)."""
    return {codes[i] for i in run if tile_kind(codes[i]) == "playing"}


def _concealed_four(codes: Sequence[str], melds: tuple[tuple[int, ...], ...]) -> tuple[int, ...] | None:
    """The one run of four among the melds whose faces as read are not all alike (no kong), where the
    playing tiles outside the melds are none, or one more than sets: no pair stands outside them, so
    the run is the concealed tiles (sets and a pair), their winning tile laid apart beside three
    claimed sets."""
    inside = {i for meld in melds for i in meld}
    outside = sum(tile_kind(code) == "playing" for i, code in enumerate(codes) if i not in inside)
    fours = [meld for meld in melds if len(meld) == 4 and len({codes[i] for i in meld} - {"back"}) > 1]
    return fours[0] if (outside == 0 or outside % 3 == 1) and len(fours) == 1 else None


def _members(runs: Sequence[Hashable]) -> dict[Hashable, tuple[int, ...]]:
    """Each run's positions, in order."""
    members: dict[Hashable, list[int]] = {}
    for position, run in enumerate(runs):
        members.setdefault(run, []).append(position)
    return {run: tuple(group) for run, group in members.items()}


def _are_sets(codes: tuple[str, ...], melds: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the tiles at each meld's positions form a chow, pung or kong (backs hide a kong's faces), or
    are all bonus tiles: flowers laid apart together, some read as playing tiles."""
    return all(_laid_meld(tuple(codes[i] for i in meld)) or all(tile_kind(codes[i]) == "bonus" for i in meld)
               for meld in melds)


def _revealed(codes: tuple[str, ...], melds: tuple[tuple[int, ...], ...]) -> tuple[tuple[str, ...], tuple[Tile, ...]]:
    """The codes with the backs of each concealed kong laid apart (a run of four tiles: backs and
    one face) turned to that face, so that the hand's shape can be checked (other backs stay), and
    those kongs' tiles."""
    shown = list(codes)
    kongs = []
    for meld in melds:
        tiles = [codes[i] for i in meld]
        faces = set(tiles) - {"back"}
        if len(tiles) == 4 and "back" in tiles and len(faces) == 1 and not faces & NOT_FACES:
            for i in meld:
                shown[i] = min(faces)
            kongs.append(Tile.parse(min(faces)))
    return tuple(shown), tuple(kongs)


def complete(codes: Sequence[str], runs: Sequence[Hashable] | None = None) -> bool:
    """Whether the tiles show a complete winning hand (backs only in concealed kongs laid apart)."""
    shown, kongs = _revealed(tuple(codes), _meld_runs(codes, runs or ()))
    return "back" not in shown and _shows_complete(shown, kongs)


def incomplete(codes: Sequence[str], runs: Sequence[Hashable] | None = None) -> bool:
    """Whether the tiles show every face (backs only in concealed kongs laid apart) yet no complete
    winning hand: a tile was missed, or one found twice, or misread."""
    return _incomplete(tuple(codes), _meld_runs(codes, runs or ()))


def _incomplete(codes: tuple[str, ...], melds: tuple[tuple[int, ...], ...]) -> bool:
    shown, kongs = _revealed(codes, melds)
    return "back" not in shown and not _shows_complete(shown, kongs)


def _shows_complete(shown: tuple[str, ...], kongs: tuple[Tile, ...]) -> bool:
    """Whether the tiles as `_revealed` show a complete winning hand, each concealed kong laid apart
    counted as a kong (its four tiles are no two pairs)."""
    return _complete(shown) and (not kongs or complete_hand(_playing(shown), kongs) is not None)


@lru_cache(maxsize=4096)
def _laid_meld(codes: tuple[str, ...]) -> Meld | None:
    """A run laid apart as a meld (exposed; a kong showing two backs concealed), None if not a set."""
    faces = tuple(Tile.parse(code) for code in codes if code not in NOT_FACES)
    if "none" in codes or not faces:
        return None
    if len(faces) < len(codes):  # backs hide a concealed kong's other faces
        return meld_of(SetKind.KONG, faces[0], True) if len(codes) == 4 and len(set(faces)) == 1 else None
    try:
        meld = Meld.from_tiles(faces, concealed=False)
    except HandError:
        return None
    return None if meld.kind is SetKind.PAIR else meld


@dataclass(frozen=True)
class _Choice:
    """Tiles read together (one tile, or a run laid apart as a set): their readings (codes,
    probability), likeliest first, and the probability a reading's cost is measured from (the
    run as read; a tile's first option)."""

    positions: tuple[int, ...]
    readings: tuple[tuple[tuple[str, ...], float], ...]
    as_read: float

    @cached_property
    def costs(self) -> tuple[float, ...]:
        """How much less probable (log) each reading is than `as_read` (computed once: a search weighs
        each choice's readings many times)."""
        return tuple(log(max(self.as_read, 1e-9)) - log(max(p, 1e-9)) for _, p in self.readings)


def _singles(positions: Sequence[int], options: Sequence[Alternatives]) -> list[_Choice]:
    """One choice per tile, its first option costing nothing."""
    return [_Choice((i,), tuple(((code,), p) for code, p in tile), tile[0][1]) for i, tile in zip(positions, options)]


def _meld_choices(alternatives: Sequence[Alternatives], start: tuple[str, ...], melds: tuple[tuple[int, ...], ...],
                  open_tiles: Sequence[int], options: dict[int, Alternatives] | None = None,
                  flowers: bool = False) -> list[_Choice]:
    """A choice per run laid apart, among its likeliest readings as a set (`_set_readings`; or, with
    ``flowers``, as bonus tiles), and one per other open tile, among its ``options`` (of its kind if none):
    for a search from ``start``."""
    laid = {i for meld in melds for i in meld}
    others = [i for i in open_tiles if i not in laid]
    loose = options or {i: _same_kind(alternatives[i]) for i in others}
    return [*(_set_readings(alternatives, start, meld, flowers) for meld in melds),
            *_singles(others, [loose[i] for i in others])]


def _set_readings(alternatives: Sequence[Alternatives], start: tuple[str, ...], meld: tuple[int, ...],
                  flowers: bool = False) -> _Choice:
    """The run's SET_READINGS likeliest readings as a chow, pung or kong (any order; backs stay backs)
    at most CROSS_RATIO times less probable than as read, keeping every tile read at least SURE as
    read and each tile's kind, but for a bonus tile beside playing tiles or backs (no set holds one);
    with ``flowers`` also as bonus tiles of distinct names (`_as_flowers`). Their costs are measured from
    the run as the search starts (its bonus tiles named: that cost is spent already)."""
    read = [dict(alternatives[i]) for i in meld]
    first = [alternatives[i][0] for i in meld]
    as_read = prod(p for _, p in first)
    kinds = [tile_kind(was) for was, _ in first]
    mixed = any(kind != "bonus" for kind in kinds)  # no set holds a bonus tile: such a tile may be a playing one
    allowed = ["playing" if mixed and kind == "bonus" else kind for kind in kinds]
    scored = set()
    for faces in _sets(len(meld)):
        codes = tuple("back" if code == "back" else face for (code, _), face in zip(first, faces))
        if any(tile_kind(code) != kind or (p >= SURE and code != was)
               for code, kind, (was, p) in zip(codes, allowed, first)):
            continue
        probability = prod(options.get(code, 0.0) for options, code in zip(read, codes))
        if probability * CROSS_RATIO >= as_read and _laid_meld(codes):
            scored.add((probability, codes))
    readings = sorted(scored, reverse=True)[:SET_READINGS]
    apart = _as_flowers(alternatives, meld) if flowers else None
    if apart and apart[0] * CROSS_RATIO >= as_read:
        readings = sorted([*readings, apart], reverse=True)
    started = prod(options.get(start[i], 0.0) for options, i in zip(read, meld))
    return _Choice(meld, tuple((codes, p) for p, codes in readings), started)


def _as_flowers(alternatives: Sequence[Alternatives], meld: tuple[int, ...]) -> tuple[float, tuple[str, ...]] | None:
    """The run read as bonus tiles of distinct names, the likeliest way, and how probable that is: flowers
    laid apart together, those of an unfamiliar set read as playing tiles, BONUS_APART times likelier
    bonus tiles, as a tile set aside is. None where a tile is read at least SURE as another kind, or
    they are bonus tiles as read (no set: `_bonus_run`)."""
    first = [alternatives[i][0] for i in meld]
    if all(tile_kind(code) == "bonus" for code, _ in first) or any(
            p >= SURE and tile_kind(code) != "bonus" for code, p in first):
        return None
    picked = _distinct(tuple(_of_kind(alternatives[i], "bonus") for i in meld))
    return picked and (exp(picked[0]) * BONUS_APART, picked[1])


@lru_cache(maxsize=2)
def _sets(size: int) -> tuple[tuple[str, ...], ...]:
    """Every kong (four tiles) or pung and chow, in every order (three), as codes."""
    same = tuple((str(tile),) * size for tile in PLAYING_TILES)
    if size != 3:
        return same
    return same + tuple(order for suit in "mps" for rank in range(1, 8)
                        for order in permutations(f"{rank + k}{suit}" for k in range(3)))


def _search(best: tuple[str, ...], choices: list[_Choice], valid: Callable[[tuple[str, ...]], bool],
            limit: float = float("inf"), spent: float = 0.0) -> tuple[float, tuple[str, ...]] | None:
    """Readings of the choices in order of joint probability (at most e**limit times less probable
    than the tiles as first read, ``best`` being e**spent times less probable than that); the first
    `valid` one, with how much less probable it is (log).
    Each reading is queued once: it follows the reading with its last changed choice one pick back
    (picks are raised choice by choice, never at a choice before the one last raised)."""
    if any(not choice.readings for choice in choices):
        return None
    costs = [choice.costs for choice in choices]
    heap = [(spent + sum(cost[0] for cost in costs), (0,) * len(choices), 0)]
    for _ in range(MAX_CHECKS):
        if not heap or heap[0][0] > limit:
            return None
        cost, picks, raised = heappop(heap)
        codes = list(best)
        for choice, pick in zip(choices, picks):
            for position, code in zip(choice.positions, choice.readings[pick][0]):
                codes[position] = code
        if valid(tuple(codes)):
            return cost, tuple(codes)
        for k in range(raised, len(picks)):
            pick = picks[k]
            if pick + 1 < len(costs[k]):
                after = picks[:k] + (pick + 1,) + picks[k + 1:]
                heappush(heap, (cost + costs[k][pick + 1] - costs[k][pick], after, k))
    return None


def _playing(codes: tuple[str, ...]) -> tuple[Tile, ...]:
    """The playing tiles among the codes (the classifier's classes; no bonus tiles, backs or `none`)."""
    return tuple(tile for tile in map(_PLAYING.get, codes) if tile is not None)


def _hand_sized(playing: int) -> bool:
    """Whether this many playing tiles could be a whole hand (kongs counted as three)."""
    return any(playing - kongs in HAND_SIZES for kongs in range(5))


def _hand_like(codes: tuple[str, ...], misread: int = 0) -> bool:
    """Whether the tiles could be a hand with at most one tile missed, found twice or of the wrong kind,
    up to ``misread`` of those read as bonus tiles counted as playing tiles misread."""
    playing = len(_playing(codes))
    return "back" in codes or any(_hand_sized(playing + d) for d in range(-1, misread + 2))


def _whole(codes: tuple[str, ...]) -> bool:
    """Whether the tiles could be a whole hand by their count, or hide faces."""
    return "back" in codes or _hand_sized(len(_playing(codes)))


def _complete(codes: tuple[str, ...]) -> bool:
    """A valid reading whose faces show a complete winning hand."""
    return "back" not in codes and _whole(codes) and is_valid(codes)


@lru_cache(maxsize=4096)
def is_valid(codes: tuple[str, ...]) -> bool:
    """At most four of a tile, one of each bonus tile, and a winning shape when the count calls for one."""
    if "none" in codes:
        return False
    if any(n > (1 if tile_kind(code) == "bonus" else 4) for code, n in Counter(codes).items() if code not in NOT_FACES):
        return False
    if "back" in codes:
        return True  # hidden faces: the shape cannot be checked
    playing = _playing(codes)
    if not _hand_sized(len(playing)):
        return True  # not a whole hand: nothing more to require
    return complete_hand(playing, apart=_apart_fours(codes)) is not None


def _apart_fours(codes: tuple[str, ...]) -> frozenset[Tile]:
    """The tiles read four times whose four do not lie side by side: no kong (a kong's tiles do)."""
    fours = [code for code, n in Counter(codes).items() if n == 4 and code not in NOT_FACES]
    return frozenset(Tile.parse(code) for code in fours
                     if not any(codes[i:i + 4] == (code,) * 4 for i in range(len(codes) - 3)))


def complete_hand(playing: tuple[Tile, ...], kongs: tuple[Tile, ...] = (),
                  apart: frozenset[Tile] = frozenset(), laid: tuple[Meld, ...] = ()) -> Hand | None:
    """The playing tiles as a complete hand beside the melds `laid` apart (fours taken as kongs where
    the count needs it, but not those `apart`; `kongs` always), or None."""
    fours = [tile for tile, n in Counter(playing).items() if n == 4 and tile not in kongs and tile not in apart]
    for count in range(len(fours) + 1):
        sets = HAND_SIZES.get(len(playing) - len(kongs) - count + 3 * len(laid))
        if sets is None:
            continue
        for chosen in ((*kongs, *more) for more in combinations(fours, count)):
            hand = _hand(playing, chosen, laid)
            if hand is not None and decompose(hand, knitted=True, sets=sets):
                return hand
    return None


def _hand(playing: tuple[Tile, ...], kongs: tuple[Tile, ...], laid: tuple[Meld, ...] = ()) -> Hand | None:
    """The playing tiles standing but for the ``kongs`` (exposed), beside the melds ``laid`` apart; None if
    none stands or the copies are too many."""
    standing = [tile for tile in playing if tile not in kongs]
    melds = laid + tuple(meld_of(SetKind.KONG, tile, False) for tile in kongs)
    if not standing:
        return None
    try:
        return Hand(tuple(standing), melds, (), standing[0])
    except HandError:
        return None


def hand_text(codes: Sequence[str], runs: Sequence[Hashable] | None = None,
              rotated: Sequence[bool] | None = None) -> str:
    """A suggested hand string, '' if no faces. Given the runs the tiles were found in (and which lie
    sideways), runs laid apart that are sets (or cut, in order, into sets: claimed sets laid side by
    side) become melds where the rest completes the hand: exposed, a kong showing backs concealed.
    Which runs: where the concealed tiles stand apart from the rest (`_concealed_apart`; a winning
    tile laid just after them counts among them, `_with_winner`, also when telling them from claimed
    sets touching: ten concealed tiles may cut into sets, not with their winning tile), every set
    laid apart, its claimed tile turned sideways or not (MCR tables seldom turn it); otherwise, or
    failing that, only those showing a sideways tile or backs (a hand shown set by set is concealed).
    Failing both, every tile stands. Either way, four tiles of a kind side by side are a kong where
    the count calls for one. Where the tiles are one short of a hand (a tile missed), melds and kongs
    are taken so all the same where that makes the count one short (`_short_hand`), so that what
    completes it can be named. Bonus tiles last."""
    tiles = [Tile.parse(code) for code in codes if code not in NOT_FACES]
    bonus = format_tiles(tile for tile in tiles if tile.is_bonus)
    sideways = rotated or [False] * len(codes)
    runs = runs or ()
    joined = _with_winner(codes, runs)  # the runs, a winning tile laid apart joined to the concealed tiles
    touching = _touching_sets(codes, joined)
    apart = _meld_runs(codes, runs) + tuple(chunk for chunks in touching.values() for chunk in chunks)
    declared = tuple(meld for meld in apart if any(sideways[i] or codes[i] == "back" for i in meld))
    turned = any(sideways[i] for meld in apart for i in meld)
    concealed_apart = _concealed_apart(codes, joined, touching, turned)
    choices = tuple(dict.fromkeys((apart if concealed_apart else declared, declared)))
    hand = _first_hand(_with_laid_melds, codes, choices)
    if hand is None:
        playing = tuple(tile for tile in tiles if not tile.is_bonus)
        hand = complete_hand(playing, apart=_apart_fours(tuple(codes))) or _first_hand(_short_hand, codes, choices)
        groups = [format_tiles(playing, separator=" ")] if hand is None else []
    if hand is not None:
        groups = [format_tiles(hand.standing, separator=" ")] + [str(meld) for meld in hand.melds]
    return " ".join(group for group in (*groups, bonus) if group)


def _first_hand(build: Callable[[Sequence[str], tuple[tuple[int, ...], ...]], Hand | None], codes: Sequence[str],
                choices: Sequence[tuple[tuple[int, ...], ...]]) -> Hand | None:
    """The hand `build` makes of the codes with the first of the choices of runs laid apart that makes one."""
    for melds in choices:
        hand = build(codes, melds)
        if hand is not None:
            return hand
    return None


def _concealed_apart(codes: Sequence[str], runs: Sequence[Hashable],
                     touching: dict[Hashable, tuple[tuple[int, ...], ...]], turned: bool) -> bool:
    """Whether the concealed tiles stand apart from what was claimed (not a hand shown set by set): a
    run of more than four tiles but sets `touching`; of runs given as (row, group), playing tiles
    neither three nor four alone in a row of their own (a pair kept apart from the rows of sets); or,
    where a set laid apart shows a sideways tile (`turned`: a claim, so the hand is laid as at a table),
    the one run of playing tiles neither three nor four long (the pair, all else claimed or a kong)."""
    sizes = Counter(runs)
    rows = Counter(_row(run) for run in sizes)
    playing = {run for run, code in zip(runs, codes) if tile_kind(code) == "playing"}
    odd = [run for run, n in sizes.items() if n not in (3, 4) and run in playing]
    return (turned and len(odd) == 1) or any(
        (n > 4 and run not in touching) or (len(rows) > 1 and rows[_row(run)] == 1 and run in odd)
        for run, n in sizes.items())


def _with_winner(codes: Sequence[str], runs: Sequence[Hashable]) -> tuple[Hashable, ...]:
    """The runs, given as (row, group), with each lone playing tile that follows a run in its row taken
    into that run: the winning tile, laid apart just after the concealed tiles (no set is one tile)."""
    sizes = Counter(runs)
    return tuple((run[0], run[1] - 1) if _lone_after(run, code, sizes) else run for run, code in zip(runs, codes))


def _lone_after(run: Hashable, code: str, sizes: Counter) -> bool:
    """Whether a tile of that code in that run, given as (row, group), is a lone playing tile following
    another run in its row (``sizes``: each run's tile count)."""
    return isinstance(run, tuple) and sizes[run] == 1 and run[1] > 0 and tile_kind(code) == "playing"


def laid_winner(codes: Sequence[str], runs: Sequence[Hashable]) -> str | None:
    """The winning tile where the photo shows it laid apart just after the concealed tiles (as players
    often show it), given each tile's run as (row, group): the one lone playing tile whose run before
    it in its row holds one tile more than a multiple of three (the concealed tiles without it: sets of
    three and a pair), all playing tiles and not four of a kind (a kong laid face up), or one tile of its
    own face (the pair, every set claimed). None where no tile, or more than one, lies so. Tiles read
    as no tile (`none`: left out) do not count."""
    kept = [i for i, code in enumerate(codes) if code != "none"]
    faces, at = [codes[i] for i in kept], [runs[i] for i in kept]
    sizes, members = Counter(at), _members(at)
    laid = [code for code, run in zip(faces, at) if _lone_after(run, code, sizes)
            and _concealed_before([faces[j] for j in members.get((run[0], run[1] - 1), ())], code)]
    return laid[0] if len(laid) == 1 else None


def _concealed_before(concealed: list[str], code: str) -> bool:
    """Whether the codes of a run may be the concealed tiles before a winning tile of ``code``."""
    if len(concealed) == 1:
        return concealed[0] == code
    return (len(concealed) % 3 == 1 and len(set(concealed)) > 1
            and all(tile_kind(other) == "playing" for other in concealed))


def _touching_sets(codes: Sequence[str], runs: Sequence[Hashable]) -> dict[Hashable, tuple[tuple[int, ...], ...]]:
    """Runs of more than four tiles, when there are several runs, that cut in order into sets of three or
    four (claimed sets laid side by side; tiles read as bonus tiles at its ends left out: flowers laid
    touching a set): each such run's sets' positions."""
    members = _members(runs)
    if len(members) < 2:
        return {}
    playing = {run: _without_bonus_ends(codes, positions) for run, positions in members.items()}
    chunked = {run: _set_chunks(codes, positions) for run, positions in playing.items() if len(positions) > 4}
    return {run: chunks for run, chunks in chunked.items() if chunks}


def _without_bonus_ends(codes: Sequence[str], positions: tuple[int, ...]) -> tuple[int, ...]:
    """The positions less the tiles read as bonus tiles at either end (flowers laid touching a set)."""
    bonus = [tile_kind(codes[i]) == "bonus" for i in positions]
    start = next((k for k, is_bonus in enumerate(bonus) if not is_bonus), len(bonus))
    end = len(bonus) - next((k for k, is_bonus in enumerate(reversed(bonus)) if not is_bonus), len(bonus))
    return positions[start:end]


def _set_chunks(codes: Sequence[str], positions: tuple[int, ...]) -> tuple[tuple[int, ...], ...] | None:
    """The positions cut in order into sets of three or four tiles, or None if they do not cut so."""
    if not positions:
        return ()
    for size in (3, 4):
        head = positions[:size]
        if len(head) == size and _laid_meld(tuple(codes[i] for i in head)):
            rest = _set_chunks(codes, positions[size:])
            if rest is not None:
                return (head, *rest)
    return None


def _row(run: Hashable) -> Hashable:
    """The row of a run given as (row, group); a run given otherwise is in the one row."""
    return run[0] if isinstance(run, tuple) else 0


def _with_laid_melds(codes: Sequence[str], melds: tuple[tuple[int, ...], ...]) -> Hand | None:
    """The hand with each set-shaped run laid apart as a meld, if the standing rest completes it (with
    the kongs the count calls for among its fours side by side: a kong laid face up, none lying)."""
    laid, standing = _laid_apart(codes, melds)
    return complete_hand(standing, apart=_apart_fours(tuple(codes)), laid=laid) if laid else None


def _laid_apart(codes: Sequence[str], melds: tuple[tuple[int, ...], ...]) -> tuple[tuple[Meld, ...], tuple[Tile, ...]]:
    """The set-shaped runs laid apart as melds, and the playing tiles standing beside them."""
    found = ((positions, _laid_meld(tuple(codes[i] for i in positions))) for positions in melds)
    laid = {positions: meld for positions, meld in found if meld is not None}
    used = {i for positions in laid for i in positions}
    standing = tuple(Tile.parse(code) for i, code in enumerate(codes)
                     if i not in used and code not in NOT_FACES and not code.endswith("f"))
    return tuple(laid.values()), standing


def _short_hand(codes: Sequence[str], melds: tuple[tuple[int, ...], ...]) -> Hand | None:
    """The tiles as a hand one tile short of a winning hand's count (a tile missed): each set-shaped
    run laid apart as a meld, and as kongs the fewest of the fours of a kind side by side that make the
    count so; None when no choice does."""
    laid, standing = _laid_apart(codes, melds)
    fours = [tile for tile, n in Counter(standing).items() if n == 4 and tile not in _apart_fours(tuple(codes))]
    for count in range(len(fours) + 1):  # a kong counts one tile less than its four standing: the count alone decides
        if len(standing) - count + 3 * len(laid) + 1 in HAND_SIZES:
            return _hand(standing, tuple(fours[:count]), laid)
    return None
