"""Photo to tiles: `recognize(image) -> Recognition`, the pipeline's one entry point.

Three pure steps: `preprocess` (load, find runs, propose splits, rectify every
candidate face), `infer` (one batched face-network call; the corner-index reader
on the crops in doubt of the splits that may be chosen), `postprocess` (keep the
split of each run whose crops look most like tiles, then decode the hand).
The model is loaded once, on first use.
"""

from __future__ import annotations

from dataclasses import asdict, astuple, dataclass, replace
from enum import Enum
from functools import cache
from time import perf_counter

import cv2
import numpy as np

from vision.classify import TileClassifier
from vision.index import in_doubt
from vision.decode import complete, decode_apart, hand_text, in_hand, incomplete, laid_winner, odd_backs, tile_kind
from vision.io import WORK_SIDE, Photo, Source, load
from vision.backs import FLAT_SHARE, Place, backs_possible, end_caps, flat_share
from vision.sharpness import BLURRED, face_size, photo_sharpness, spread
from vision.segment import Quad, Run, Split, find_runs, photo_tile_aspect, photo_tile_height, rectify, splits
from vision.surface import on_table
from vision.way_up import WayUpReader

TOP_K = 3  # alternatives reported per tile
BACK_SURE = 0.85  # a place beside a run holds a face-down tile when this sure of it (0.75 until session 33)
NO_FACE = 0.9  # ... or when `back` and `none` together are this sure, `back` at least BACK_LEAST,
BACK_LEAST = 0.05  # ... and the place is one flat colour (`flat_share` at least FLAT_SHARE)
LONE_LENGTH = 1.4  # a run less long than this many times its height is one tile (lying: 1.33; two standing: 1.5)
PAIR_LENGTH = 2.5  # a run at most this many times as long as high may be the two faces of a concealed kong
LYING_PRIOR = 0.1  # log-probability a reading with a sideways tile gives up (they are rarer)
FLAT_TOP = 0.5  # ... and this much more when the table does not show above its lying tile (`Split.step` 0),
STEP_CLEAR = 0.15  # ... nothing more from this step on, a share of it in between
SEAM_WEIGHT = 0.5  # how much a clear seam counts beside the classifier when choosing a split
MISFIT_WEIGHT = 1.0  # log-probability a split gives up per unit of its tiles' `Split.misfit` (shaped unlike the photo's)
INNER_NONE = 4.0  # log-probability a split gives up per share of its crops that lie inside the run and read
# as no tile (between touching tiles there is no gap: such a crop straddles two tiles, as when a tile lying
# sideways is cut as standing ones)
SHIFTS = ((0.0, 0.0, 0.05, 0.0), (0.0, 0.0, 0.0, 0.05), (0.08, 0.0, 0.0, 0.0))  # `classify.Cut`s: a doubtful crop is
# read again less 5% of its width at the left, then at the right, and less 8% of its height at the top (since session
# 58: a run's top edge a little above its faces, as a patterned cloth's light squares or glare make it)
RECOUNT = 0.5  # a run's split of another tile count is tried when at most this much less likely (log) than its best
# (1.0 until session 59: a set's row read surely as nine tiles, cut as eight, completed a hand by chance)
RECOUNTS = 6  # ... and at most this many such splits are tried, when the tiles as read show no complete hand
NONE_ALONE = 0.8  # a tile alone, or inside a run, is dropped as no tile only when `none` is this sure (a tile of a
# set the classifier knows badly, such as a flower set apart, is kept, marked doubtful, for the user to check)
NONE_END = 0.35  # ... and a tile ending a longer run when `none` is this sure (a tile of a set the classifier knows
# badly may read `none` first, barely: kept, it is marked doubtful, while a missed tile is one the user must add)
TWIN_SHARE = 0.5  # two tiles' boxes sharing this much of the smaller one are one tile cut out twice
TURN_BELOW = 0.8  # a photo is read turned (a quarter, then as AXIS_MARGIN and UPRIGHT_ODDS say half round or a
# quarter the other way) where its tiles are on average (geometric mean) less sure than this, or more than a third
# read lying (`_sideways`); of the readings whose boxes cover at least TURN_AREA of the most any reading's cover,
# the likeliest (`_likelihood`) and the one half round from it are compared:
TURN_LYING = 0.5  # ... each by its mean log confidence, less this per share of tiles read lying,
TURN_COMPLETE = 0.25  # ... plus this where they show a complete hand,
WAY_UP = 0.3  # ... less this times how much likelier its standing tiles are turned than upright (log odds, each
# tile's capped at `way_up.ODDS_CAP`; until session 42 a half turn had instead to be 0.1 likelier).
TURN_AREA = 0.5
# On the five development seeds (960 scenes): as taken 577 errors -> 568 (session 41) -> 577 (42), upside down
# 1,154 -> 658 -> 599, sideways 587 either way -> 580 (958 listed their tiles' way up); light cloths 157 -> 163 -> 159
AXIS_MARGIN = 0.5  # the photo as it is and turned a quarter are read first; where one is this much likelier
# (`_likelihood`) than the other, its rows run that way and only its own half turn is read besides (until session
# 46 both: on 869 unsure development scenes, upright or turned a quarter, and tuned photos seen turned, sideways or
# from across the table, any margin from 0.2 to 1.2 chose as all four readings did),
UPRIGHT_ODDS = 1.0  # ... and not even that where its standing tiles are this much likelier upright (`_turned_odds`,
# log): on 403 such scenes and views, upright or upside down, bars from 0.5 to 1.5 chose as all four readings did
CUT_TRUST = 0.25  # a photo showing bands of another surface (`vision.surface`) is read without them and as it is:
# the first reading is kept unless the second is this much likelier (a mean log confidence: it may miss tiles; a
# complete hand's TURN_COMPLETE). Tuned photos on felt with such bands (`benchmarks.recognition --surround`), exactly
# right in its five parts: 69/100/69/69/0% read as they are; 100/100/92/92/100% (with session 44's first
# `vision.surface`, the cut reading kept whenever likelier: 92/100/85/85% in the first four)
SMALL_FACE = 32  # a photo whose faces are under this many pixels long where tiles are looked for (`Photo.work`)
ZOOM_MARGIN = 2.0  # ... is read again at full resolution, where a part holds the tiles and this many faces' sides
ZOOM_GAIN = 2  # ... around them: the largest part whose own reduced image shows them at least this many times larger,
ZOOM_TRUST = 0.0  # ... and that reading kept unless the first is this much likelier (`_likelihood`)


@dataclass(frozen=True)
class RecognizedTile:
    """One tile read from the photo; ``box`` corners are in the upright photo's pixels."""

    tile: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    box: Quad
    row: int
    group: int
    rotated: bool
    changed: bool
    doubtful: bool
    in_hand: bool = True  # False: a tile beyond the hand (a discard), left out of the suggested hand

    def to_dict(self) -> dict:
        """The JSON contract's form of one tile."""
        data = asdict(self)
        data["confidence"] = round(self.confidence, 4)
        data["alternatives"] = [[code, round(p, 4)] for code, p in self.alternatives]
        data["box"] = [[round(x, 1), round(y, 1)] for x, y in self.box]
        return data


@dataclass(frozen=True)
class Timings:
    """Milliseconds spent in each step."""

    preprocess: float
    infer: float
    postprocess: float

    @property
    def total(self) -> float:
        return self.preprocess + self.infer + self.postprocess

    def __add__(self, other: Timings) -> Timings:
        """The time two readings took, step by step."""
        return Timings(*(a + b for a, b in zip(astuple(self), astuple(other))))


@dataclass(frozen=True)
class Recognition:
    """The tiles in reading order (top row first, left to right), the suggested hand string, how
    sharp the standing tiles' faces are (`vision.sharpness`; None when no tile stands) and the winning
    tile where the photo shows it laid apart after the concealed tiles (`vision.decode.laid_winner`)."""

    tiles: tuple[RecognizedTile, ...]
    hand: str
    width: int
    height: int
    timings: Timings
    sharpness: float | None = None
    winning: str | None = None

    @property
    def blurred(self) -> bool:
        """Whether the photo looks smeared by camera shake or out of focus (its tiles are then often
        misread: the page asks for another photo)."""
        return self.sharpness is not None and self.sharpness < BLURRED

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(tile.tile for tile in self.tiles)

    def to_dict(self) -> dict:
        """The JSON contract."""
        return {
            "tiles": [tile.to_dict() for tile in self.tiles],
            "hand": self.hand,
            "winning_tile": self.winning,
            "image": {"width": self.width, "height": self.height},
            "sharpness": None if self.sharpness is None else round(self.sharpness, 3),
            "blurred": self.blurred,
            "timings_ms": {**{k: round(v, 1) for k, v in asdict(self.timings).items()},
                           "total": round(self.timings.total, 1)},
        }


class CapCheck(Enum):
    """What a place just beside a run is read for."""

    SKIP = "skip"  # nothing: no face-down tile can stand there (the table's own colour, or bare table)
    BACK = "back"  # a face-down tile, by `_back`
    KONG_SHADE = "kong shade"  # a face-down tile only as an end of a concealed kong whose two faces show between
    # two backs, where the place is apart from the table yet of its colours (a dark back passes for the table's
    # shadow; a back the table's colour shows its lower edge), by `_back`: the place and the kong's shape are the evidence


@dataclass(frozen=True)
class Candidates:
    """What preprocessing proposes: every split of every run, and a crop of each distinct tile quad
    (hypotheses often share a tile: it is rectified and classified once)."""

    photo: Photo
    splits: tuple[tuple[Split, ...], ...]  # per run: the hypotheses, then the end caps where a back may stand
    crops: tuple[np.ndarray, ...]  # one per distinct quad
    slots: tuple[int, ...]  # per quad of every split, in order: the index of its crop
    scale: float
    caps: tuple[tuple[CapCheck, CapCheck], ...]  # per run: what each end cap is checked for


@cache
def classifier() -> TileClassifier:
    """The committed model, loaded once."""
    return TileClassifier.load()


@cache
def way_up_reader() -> WayUpReader:
    """The committed way-up reader, loaded once."""
    return WayUpReader.load()


def preprocess(image: Source) -> Candidates:
    """Load the photo, find runs of tiles at reduced size, rectify each candidate face at full size."""
    photo = load(image)
    small, scale = photo.work
    grey = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    runs = find_runs(small)
    caps = [end_caps(run) for run in runs]
    looked = [i for i, run in enumerate(runs) if not _lone(run)]  # `_cap_checks` looks beside no lone tile
    places = dict(zip(looked, backs_possible(small, [caps[i] for i in looked])))
    checks = tuple(_cap_checks(run, places.get(i, (Place.BARE, Place.BARE))) for i, run in enumerate(runs))
    height, aspect = photo_tile_height([run.corners for run in runs]), photo_tile_aspect(grey, runs)
    per_run = tuple(splits(grey, run, height, aspect)
                    + tuple(cap for cap, check in zip(pair, run_checks) if check is not CapCheck.SKIP)
                    for run, pair, run_checks in zip(runs, caps, checks))
    quads = [quad for hypotheses in per_run for split in hypotheses for quad in split.quads(scale)]
    distinct = {quad: index for index, quad in enumerate(dict.fromkeys(quads))}
    crops = tuple(rectify(photo.pixels, quad) for quad in distinct)
    return Candidates(photo, per_run, crops, tuple(distinct[quad] for quad in quads), scale, checks)


def _cap_checks(run: Run, places: tuple[Place, Place]) -> tuple[CapCheck, CapCheck]:
    """Each end cap: BACK where a face-down tile may stand (`backs_possible`), else, beside a run short
    enough to be two tiles, KONG_SHADE where the place is the table's shade; SKIP where it is bare (the
    classifier may be sure of a back on bare felt of a back's colour: two bonus tiles laid apart, read as
    two faces alike, were taken for a concealed kong), and beside a lone tile (a concealed kong shows its
    two faces together; between discards, the table with a turned neighbour's corner in it was read as a
    back, until session 56)."""
    if _lone(run):
        return CapCheck.SKIP, CapCheck.SKIP
    short = run.length <= PAIR_LENGTH * run.height
    return tuple(CapCheck.BACK if place is Place.BACK
                 else CapCheck.KONG_SHADE if short and place is Place.SHADE else CapCheck.SKIP for place in places)


def _lone(run: Run) -> bool:
    """Whether a run is one tile, standing or lying (less long than LONE_LENGTH heights)."""
    return run.length < LONE_LENGTH * run.height


def infer(candidates: Candidates) -> np.ndarray:
    """Class probabilities of every quad of every split: each distinct crop read by the face network once,
    in one batch; where that leaves it unsettled (read again shifted by SHIFTS where doubtful: cuts fall a
    little off the seams; then moved by its printed corner index where in doubt, `vision.index`), settled
    only where it lies in a split that may be chosen (`_contenders`): the same reading as settling every
    crop, for fewer reads."""
    crops, model = list(candidates.crops), classifier()
    first = model.face_probabilities(crops)
    reader = model.index_reader
    probabilities = first.copy()
    settled = ~(model.doubtful(first) | (in_doubt(first, model.classes) if reader else False))
    while (wanted := np.flatnonzero(_contenders(candidates, probabilities, settled, model.classes) & ~settled)).size:
        chosen = [crops[i] for i in wanted]
        rows = model.reshifted(first[wanted], chosen, SHIFTS)
        probabilities[wanted] = reader.applied(rows, chosen, model.classes) if reader else rows
        settled[wanted] = True
    return probabilities[list(candidates.slots)]


def _contenders(candidates: Candidates, probabilities: np.ndarray, settled: np.ndarray,
                classes: tuple[str, ...]) -> np.ndarray:
    """Per distinct crop: whether it lies in a split that may yet be read (given each crop's
    `probabilities`, final where `settled`): the likeliest of its tile count in its run, within RECOUNT of
    the run's best (`_recounts`). Where no split of a run has every crop settled, that is its likeliest as
    read so far; else each split whose `_split_score` could reach (`_best_case`) both the best settled
    split of its count and the run's best settled split less RECOUNT (of a count with no settled split,
    the likeliest of those as read so far)."""
    slots = np.asarray(candidates.slots, dtype=int)
    read, final = probabilities[slots], settled[slots]  # per quad of every split
    wanted = np.zeros(len(settled), bool)
    for placed, checks in zip(_placed_rows(candidates, read, classes), candidates.caps):
        splits = []  # (count, score, the most it may become or None where settled, place)
        for split, place, rows, _ in placed[:len(placed) - sum(check is not CapCheck.SKIP for check in checks)]:
            score, open_ = _split_score(split, rows, classes), ~final[place]
            best = _best_case(score, rows, open_, read[place], classes) if open_.any() else None
            splits.append((split.count, score, best, place))
        for *_, place in _to_settle(splits):
            wanted[slots[place]] = True
    return wanted


def _to_settle(splits: list[tuple[int, float, float | None, slice]]) -> list[tuple[int, float, float | None, slice]]:
    """Of a run's splits (count, score, the most it may become or None where settled, place), those
    `_contenders` names."""
    unsettled = [split for split in splits if split[2] is not None]
    exact = [split for split in splits if split[2] is None]
    if not unsettled or not exact:
        return [max(unsettled, key=lambda split: split[1])] if unsettled else []
    floor = max(score for _, score, _, _ in exact) - RECOUNT
    chosen = []
    for count in dict.fromkeys(split[0] for split in unsettled):
        settled = [score for n, score, _, _ in exact if n == count]
        able = [split for split in unsettled if split[0] == count and split[2] >= max([floor, *settled])]
        chosen += able if settled or not able else [max(able, key=lambda split: split[1])]
    return chosen


def _best_case(score: float, rows: np.ndarray, open_: np.ndarray, read: np.ndarray, classes: tuple[str, ...]) -> float:
    """The most a split's `_split_score` can become once its ``open_`` crops are settled: each of them,
    and each end crop read as no tile (`_backs_at_ends` may take it for a face-down tile), as sure as can
    be of a face (an unsettled crop reads a face first, and settling it may leave it likelier no tile, never
    the other way: the straddling crops only grow)."""
    bound = open_.copy()
    if "none" in classes:
        ends = [0, len(rows) - 1]
        bound[ends] |= read[ends].argmax(axis=1) == classes.index("none")
    return score + float(np.sum(np.log(1 + 1e-6) - _face_terms(rows[bound], classes))) / len(rows)


Scored = tuple[float, Split, np.ndarray]  # a split's score, the split, its rows


@dataclass(frozen=True)
class RunReading:
    """One run's splits, best first, and its end caps (split, rows, crop; None where not checked)."""

    splits: tuple[Scored, ...]
    caps: tuple[tuple[Split, np.ndarray, np.ndarray] | None, tuple[Split, np.ndarray, np.ndarray] | None]
    checks: tuple[CapCheck, CapCheck]


def postprocess(candidates: Candidates, probabilities: np.ndarray, classes: tuple[str, ...]) -> tuple[RecognizedTile, ...]:
    """Choose each run's split, keep the face-down tiles at its ends, drop non-tiles, decode the hand. Where
    the tiles then show no complete hand, the first of these that does is taken instead: the same splits
    keeping the end crops `none` is not NONE_ALONE sure of, then one run's likeliest split of another tile
    count (`_recounts`)."""
    return _read(_run_readings(candidates, probabilities, classes), classes, candidates.scale / candidates.photo.zoom)


def _read(runs: list[RunReading], classes: tuple[str, ...], scale: float) -> tuple[RecognizedTile, ...]:
    """The tiles of the runs' best splits, or the first of the readings `postprocess` names that shows
    a complete hand where they do not."""
    best = (0,) * len(runs)
    first = None
    for picks, keep_ends in ((best, False), (best, True), *((picks, False) for picks in _recounts(runs))):
        tiles = _tiles(_chosen(runs, picks, classes), classes, scale, keep_ends)
        if not _incomplete(tiles) and not _bonus_recount(runs, picks, tiles):
            return tiles
        first = tiles if first is None else first
    return first


def _bonus_recount(runs: list[RunReading], picks: tuple[int, ...], tiles: tuple[RecognizedTile, ...]) -> bool:
    """Whether the picks recount a run whose tiles then read as bonus tiles only: how many bonus tiles
    there are bears on no hand's shape, so a hand complete so says nothing for that count (a run of
    four flowers cut in three, where the four read as no hand)."""
    recounted = [run.splits[pick][1].run for run, pick in zip(runs, picks) if pick]
    kinds = [{tile_kind(tile.tile) for tile in tiles if (tile.row, tile.group) == (run.row, run.group)}
             for run in recounted]
    return {"bonus"} in kinds


def _run_readings(candidates: Candidates, probabilities: np.ndarray, classes: tuple[str, ...]) -> list[RunReading]:
    """Each run's splits scored (`_split_score`; face-down tiles at their ends, `_backs_at_ends`), best
    first, and its end caps."""
    runs = []
    for placed, checks in zip(_placed_rows(candidates, probabilities, classes), candidates.caps):
        read = [(split, rows, crop) for split, _, rows, crop in placed]
        trailing = read.pop() if checks[1] is not CapCheck.SKIP else None
        leading = read.pop() if checks[0] is not CapCheck.SKIP else None
        scored = ((_split_score(split, rows, classes), split, rows) for split, rows, _ in read)
        runs.append(RunReading(tuple(sorted(scored, key=lambda item: -item[0])), (leading, trailing), checks))
    return runs


def _placed_rows(candidates: Candidates, probabilities: np.ndarray,
                 classes: tuple[str, ...]) -> list[list[tuple[Split, slice, np.ndarray, np.ndarray]]]:
    """Per run: each of its splits, then its checked end caps, with the place of its quads in `slots`,
    their rows of ``probabilities`` (one per quad) with face-down tiles at their ends (`_backs_at_ends`),
    and its first crop."""
    runs, start = [], 0
    for hypotheses in candidates.splits:
        placed = []
        for split in hypotheses:
            place = slice(start, start + split.count)
            crops = [candidates.crops[i] for i in candidates.slots[place]]
            placed.append((split, place, _backs_at_ends(probabilities[place], crops, classes), crops[0]))
            start += split.count
        runs.append(placed)
    return runs


def _chosen(runs: list[RunReading], picks: tuple[int, ...], classes: tuple[str, ...]) -> list[tuple[Split, np.ndarray]]:
    """The picked split of each run (an index into its splits), with the face-down tiles at its ends; a
    back between two runs belongs to the later one when that shows two faces (a concealed kong's middle)."""
    chosen: list[tuple[Split, np.ndarray]] = []
    for run, pick in zip(runs, picks):
        _, split, rows = run.splits[pick]
        before, after = _ends(run.caps, run.checks, rows, classes)
        if before and chosen and _overlaps(chosen[-1][0], before[0]):
            chosen[-1] = before if split.count == 2 else chosen[-1]
        elif before:
            chosen.append(before)
        chosen.append((split, rows))
        if after:
            chosen.append(after)
    return chosen


def _recounts(runs: list[RunReading]) -> list[tuple[int, ...]]:
    """Picks that change one run to its likeliest split of another tile count, at most RECOUNT less
    likely than its best, least loss first, at most RECOUNTS of them."""
    tried = []
    for r, run in enumerate(runs):
        best = run.splits[0]
        seen = {best[1].count}
        for k, (score, split, _) in enumerate(run.splits):
            if split.count not in seen and best[0] - score <= RECOUNT:
                seen.add(split.count)
                tried.append((best[0] - score, tuple(k if i == r else 0 for i in range(len(runs)))))
    return [picks for _, picks in sorted(tried)[:RECOUNTS]]


def _incomplete(tiles: tuple[RecognizedTile, ...]) -> bool:
    return incomplete(*_hand(tiles))


def _hand(tiles: tuple[RecognizedTile, ...]) -> tuple[list[str], list[tuple[int, int]]]:
    """The codes and runs (row, group) of the tiles of the hand: all but those beyond it
    (`RecognizedTile.in_hand`)."""
    held = [tile for tile in tiles if tile.in_hand]
    return [tile.tile for tile in held], [(tile.row, tile.group) for tile in held]


def _overlaps(earlier: Split, cap: Split) -> bool:
    """Whether a run's leading cap is the previous run's trailing cap (one back between two runs)."""
    return earlier.cuts[0] >= 1.0 and bool(
        np.linalg.norm(np.mean(earlier.quads(1.0)[0], axis=0) - np.mean(cap.quads(1.0)[0], axis=0))
        < 0.5 * cap.run.height
    )


def _ends(caps: tuple[tuple[Split, np.ndarray, np.ndarray] | None, ...], checks: tuple[CapCheck, CapCheck],
          faces: np.ndarray, classes: tuple[str, ...]) -> list[tuple[Split, np.ndarray] | None]:
    """A run's two end caps (split, rows, crop; None where SKIP) as face-down tiles or None, each by its
    check; KONG_SHADE backs count only beside two faces alike (`_alike_pair`) and at both
    ends (a kong shows backs at both; a pair laid apart on a flat table has table at one). ``faces``:
    the run's chosen split's rows."""
    pair = _alike_pair(faces, classes)
    readers = {CapCheck.BACK: _back, CapCheck.KONG_SHADE: _back if pair else None}
    ends = [None if cap is None or readers[check] is None else readers[check](*cap, classes)
            for cap, check in zip(caps, checks)]
    if None in ends:
        return [None if check is not CapCheck.BACK else end for end, check in zip(ends, checks)]
    return ends


def _alike_pair(faces: np.ndarray, classes: tuple[str, ...]) -> bool:
    """Whether a split reads as two playing tiles (each one's best class) that may be the same face (a
    playing tile among both one's top TOP_K): the middle of a concealed kong."""
    if len(faces) != 2:
        return False
    tops = [[classes[i] for i in np.argsort(row)[::-1][:TOP_K]] for row in faces]
    common = [code for code in tops[0] if code in tops[1] and tile_kind(code) == "playing"]
    return bool(common) and all(tile_kind(top[0]) == "playing" for top in tops)


def _back(cap: Split, rows: np.ndarray, crop: np.ndarray, classes: tuple[str, ...]) -> tuple[Split, np.ndarray] | None:
    """An end cap as a face-down tile (`_as_back`), or None."""
    first = rows[0]
    row = _as_back(first, crop, classes)
    return None if row is None else (cap, rows if row is first else row[None, :])


def _as_back(row: np.ndarray, crop: np.ndarray, classes: tuple[str, ...]) -> np.ndarray | None:
    """A crop's class probabilities as a face-down tile's, or None: the classifier is BACK_SURE of it,
    or it is no face (`back` and `none` together NO_FACE, `back` at least BACK_LEAST) and one flat
    colour (backs of a colour the classifier never saw read as `none` about as often as `back`); then
    it reads `back` (`none` dropped)."""
    if "back" not in classes or "none" not in classes:
        return None
    back, none = classes.index("back"), classes.index("none")
    if row[back] >= BACK_SURE:
        return row
    if row[back] < BACK_LEAST or row[back] + row[none] < NO_FACE or flat_share(crop) < FLAT_SHARE:
        return None
    tile = row.copy()
    tile[none] = 0.0
    return tile / tile.sum()


def _backs_at_ends(rows: np.ndarray, crops: list[np.ndarray], classes: tuple[str, ...]) -> np.ndarray:
    """A split's rows, each end crop read as no tile taken for a face-down tile where `_as_back` takes
    it for one and faces lie between the ends (a concealed kong whose backs the face mask joined to
    its faces: backs of a colour the classifier never saw read as `none`, and were dropped)."""
    if "back" not in classes or "none" not in classes:
        return rows
    best = rows.argmax(axis=1)
    none = classes.index("none")
    inner = best[1:-1]
    if ((inner == none) | (inner == classes.index("back"))).all():  # no face between them: no kong's middle
        return rows
    read = rows.copy()
    for k in {0, len(rows) - 1} & set(np.flatnonzero(best == none)):
        back = _as_back(rows[k], crops[k], classes)
        read[k] = rows[k] if back is None else back
    return read


def _split_score(split: Split, rows: np.ndarray, classes: tuple[str, ...]) -> float:
    """Mean log-probability that each crop is some tile face (not `none`), plus the seam clarity,
    less INNER_NONE per share of crops inside the run read as no tile, less the sideways prior (more
    where the table does not show above the lying tile), less MISFIT_WEIGHT per unit of `Split.misfit`
    (standing tiles shaped unlike the photo's: three tiles cut as two wider ones)."""
    flat = FLAT_TOP * min(max(1 - split.step / STEP_CLEAR, 0.0), 1.0) if split.count > 1 else 0.0
    prior = -(LYING_PRIOR + flat) if split.lying is not None else 0.0
    inner = rows[1:-1].argmax(axis=1) == classes.index("none") if "none" in classes else np.zeros(0, bool)
    straddling = INNER_NONE * float(inner.sum()) / len(rows)
    return (float(np.mean(_face_terms(rows, classes))) + SEAM_WEIGHT * split.seam + prior - straddling
            - MISFIT_WEIGHT * split.misfit)


def _face_terms(rows: np.ndarray, classes: tuple[str, ...]) -> np.ndarray:
    """Per crop: the log-probability that it is some tile face (its likeliest class but `none`)."""
    faces = np.delete(rows, classes.index("none"), axis=1) if "none" in classes else rows
    return np.log(faces.max(axis=1) + 1e-6)


def _tiles(chosen: list[tuple[Split, np.ndarray]], classes: tuple[str, ...], scale: float,
           keep_ends: bool = False) -> tuple[RecognizedTile, ...]:
    """The kept tiles (`_no_tile`, `_twins`; a back in no concealed kong's shape where the faces without
    it show a hand as read) with their boxes (reduced-image corners / ``scale``), decoded."""
    placed, alternatives = [], []
    faces = np.array([i for i, code in enumerate(classes) if code != "none"])
    for split, rows in chosen:
        for index, (quad, row) in enumerate(zip(split.quads(scale), rows)):
            if _no_tile(split, index, row, classes, keep_ends):
                continue
            placed.append((quad, split.run, index == split.lying))
            # every face, likeliest first: decoding may need one ranked low (a claimed tile lying sideways)
            order = faces[np.argsort(row[faces])[::-1]]
            alternatives.append(tuple(zip([classes[i] for i in order], row[order].tolist())))
    twins = _twins([quad for quad, _, _ in placed], [options[0][1] for options in alternatives])
    placed = [tile for index, tile in enumerate(placed) if index not in twins]
    alternatives = [options for index, options in enumerate(alternatives) if index not in twins]
    runs = [(run.row, run.group) for _, run, _ in placed]  # end caps belong to their run
    reading = decode_apart(alternatives, runs)
    odd = odd_backs(reading.codes)
    if odd:  # a face-down tile where no hand shows one: table or shadow, unless the faces need it
        kept = [i for i in range(len(placed)) if i not in odd]
        kept_runs = [runs[i] for i in kept]
        fewer = decode_apart([alternatives[i] for i in kept], kept_runs)
        if not any(fewer.changed) and complete(in_hand(fewer.codes, fewer), in_hand(kept_runs, fewer)):
            placed, alternatives, reading = [placed[i] for i in kept], [alternatives[i] for i in kept], fewer
    return tuple(
        RecognizedTile(code, dict(options)[code], options[:TOP_K], quad, run.row, run.group, lying, changed, doubtful,
                       index not in reading.apart)
        for index, ((quad, run, lying), options, code, changed, doubtful) in enumerate(zip(
            placed, alternatives, reading.codes, reading.changed, reading.doubtful
        ))
    )


def _twins(quads: list[Quad], confidences: list[float]) -> set[int]:
    """The less sure of each two tiles whose boxes share TWIN_SHARE of the smaller one at least: one
    tile cut out twice (a row's blob cut at seams seen slanted gives runs whose boxes overlap)."""
    if len(quads) < 2:
        return set()
    boxes = np.float32(quads)
    low, high = boxes.min(axis=1), boxes.max(axis=1)
    meet = np.clip(np.minimum(high[:, None], high[None]) - np.maximum(low[:, None], low[None]), 0, None).prod(axis=2)
    (dx, dy), (ex, ey) = (boxes[:, 2] - boxes[:, 0]).T, (boxes[:, 3] - boxes[:, 1]).T
    areas = np.abs(dx * ey - dy * ex) / 2  # a quad's area: half the cross product of its diagonals
    near = np.triu(meet >= TWIN_SHARE * np.minimum(areas[:, None], areas[None]), 1)  # bounding boxes sharing enough
    return {min((i, j), key=lambda k: confidences[k]) for i, j in zip(*np.nonzero(near))
            if _shared(boxes[i], boxes[j]) >= TWIN_SHARE}


def _shared(a: np.ndarray, b: np.ndarray) -> float:
    """The share of the smaller of two convex quads that the other covers, drawn on a pixel grid
    (cv2.intersectConvexConvex takes quads that only touch for nested ones). `_twins` asks only of
    quads whose bounding boxes meet."""
    low, high = np.floor(np.minimum(a.min(axis=0), b.min(axis=0))), np.maximum(a.max(axis=0), b.max(axis=0))
    size = tuple(np.ceil(high - low).astype(int)[::-1] + 1)
    masks = [cv2.fillConvexPoly(np.zeros(size, np.uint8), np.int32(np.round(quad - low)), 1) for quad in (a, b)]
    return np.count_nonzero(masks[0] & masks[1]) / max(1, min(np.count_nonzero(mask) for mask in masks))


def _no_tile(split: Split, index: int, row: np.ndarray, classes: tuple[str, ...], keep_ends: bool) -> bool:
    """Whether a crop is dropped: `none` is its best class, and NONE_ALONE sure of it, or NONE_END
    sure where it ends a longer run (it may be that run's end cut too wide) and ends are not kept."""
    if classes[int(np.argmax(row))] != "none":
        return False
    at_end = not keep_ends and split.count > 1 and index in (0, split.count - 1)
    return bool(row[classes.index("none")] >= (NONE_END if at_end else NONE_ALONE))


def recognize(image: Source) -> Recognition:
    """Read the tiles in a photo (path, bytes, PIL image or RGB array).

    A photo that shows bands of another surface along its edges (the floor, a table's rim: `on_table`)
    is read without them, and as it is; the first reading is kept unless the second is CUT_TRUST
    likelier (`_likelihood`, at most TURN_COMPLETE: every tile sure, a complete hand; a first reading
    within CUT_TRUST of that is kept unread against). Each is read as `_read_upright` says: turned where
    it looks unsure. Last, how sharp the faces of the tiles read are (`vision.sharpness`): a blurred photo
    is worth taking again.
    """
    started = perf_counter()
    photo = load(image)
    table, offset = on_table(photo)
    loaded = 1000 * (perf_counter() - started)
    tiles, timings = _read_upright(table)
    bar = _likelihood(tiles) + CUT_TRUST if offset is not None else np.inf
    if bar < TURN_COMPLETE:  # else no reading of the whole photo could be likelier
        whole, more = _read_upright(photo)
        timings += more
        if _likelihood(whole) > bar:
            tiles = whole
        else:
            tiles = _shifted(tiles, offset)
    width, height = photo.original or (photo.width, photo.height)
    codes, runs = _hand(tiles)
    hand = hand_text(codes, runs, [t.rotated for t in tiles if t.in_hand])
    measuring = perf_counter()
    sharpness = _sharpness(photo, tiles)
    timings = replace(timings, preprocess=timings.preprocess + loaded,
                      postprocess=timings.postprocess + 1000 * (perf_counter() - measuring))
    return Recognition(tiles, hand, width, height, timings, sharpness, laid_winner(codes, runs))


def _closer(photo: Photo, tiles: tuple[RecognizedTile, ...]) -> tuple[Photo | None, tuple[float, float]]:
    """Where a reading's faces are small in `Photo.work` (the median of their boxes' longer sides under
    SMALL_FACE pixels: a hand far from the camera), the largest part of the photo, at full resolution,
    that its own `work` shows ZOOM_GAIN times closer, centred on the tiles (when they fit in it with
    ZOOM_MARGIN faces' sides around them), and where its top-left corner lies in the photo (original
    pixels); else None. (The longer side: a photo taken sideways is first read with its faces lying.)"""
    if not tiles:
        return None, (0.0, 0.0)
    side = float(np.median([_longer_side(np.float32(tile.box)) for tile in tiles]))  # original pixels
    seen = photo.work[1] / photo.zoom  # work pixels per original pixel
    if side * seen >= SMALL_FACE:
        return None, (0.0, 0.0)
    fine = photo.finest_zoom  # original pixels per pixel of the photo at full resolution
    reach = WORK_SIDE * int(fine / (ZOOM_GAIN * seen))  # finest pixels a part may span
    corners = np.float32([tile.box for tile in tiles]).reshape(-1, 2) / fine
    margin = ZOOM_MARGIN * side / fine
    low, high = corners.min(axis=0) - margin, corners.max(axis=0) + margin
    if max(high - low) > reach:  # (before decoding the photo in full: that takes about 100 ms for 12 MP)
        return None, (0.0, 0.0)
    finest = photo.finest()
    size = np.array([finest.width, finest.height])
    span = np.minimum(size, reach)
    left, top = np.clip(np.round((low + high - span) / 2), 0, size - span).astype(int)
    return finest.part(left, top, left + span[0], top + span[1]), (left * fine, top * fine)


def _shifted(tiles: tuple[RecognizedTile, ...], shift: tuple[float, float]) -> tuple[RecognizedTile, ...]:
    """The tiles read from a part of a photo, their boxes moved by where that part lies in it."""
    return tuple(replace(tile, box=tuple((x + shift[0], y + shift[1]) for x, y in tile.box)) for tile in tiles)


Turned = tuple[tuple[RecognizedTile, ...], int, Photo]  # a photo's tiles read turned so many quarters, and that view


def _read_upright(photo: Photo) -> tuple[tuple[RecognizedTile, ...], Timings]:
    """The tiles of a photo, and the time each step took.

    Where the reading looks unsure or sideways (`_sideways`), the photo is read again turned a quarter,
    then half round and a quarter the other way, but for what the first two make needless (`_needless`).
    The likeliest of these readings (`_likelihood`) says which way the rows
    run; of it and the reading half round from it, the likelier less WAY_UP times its tiles' odds of
    standing upside down (`_turned_odds`) is kept (the way-up reader knows faces upright and turned half
    round, not sideways), listed as the photo shows the tiles (`_as_taken`). A photo taken sideways
    without an EXIF turn has its rows running up the picture, and one taken from across the table shows
    the hand upside down, which an unfamiliar set reads worse. A hand far from the camera is first read
    again from the part of the photo around it (`_closer`), kept unless the first reading is ZOOM_TRUST
    likelier (`_likelihood`): only that part is then read turned.
    """
    tiles, timings = _read_photo(photo)
    view, shift = _closer(photo, tiles)
    if view is not None:
        closer, more = _read_photo(view)
        timings += more
        if _likelihood(closer) + ZOOM_TRUST >= _likelihood(tiles):
            closer, more = _turned_if_sideways(view, closer)
            return _shifted(closer, shift), timings + more
    tiles, more = _turned_if_sideways(photo, tiles)
    return tiles, timings + more


def _turned_if_sideways(photo: Photo, tiles: tuple[RecognizedTile, ...]) -> tuple[tuple[RecognizedTile, ...], Timings]:
    """The reading ``tiles`` of ``photo``, read again turned as `_read_upright` says where it looks
    sideways (`_sideways`), and the time that took."""
    timings = Timings(0.0, 0.0, 0.0)
    if not _sideways(tiles):
        return tiles, timings
    readings = [(tiles, 0, photo)]
    likelihood = {0: _likelihood(tiles)}  # each reading's `_likelihood`, by its quarters, taken once
    odds: dict[int, float] = {}  # `_turned_odds` of the readings, by their quarters: the way-up reader reads each once
    for quarters in (1, 2, 3):
        if quarters > 1 and _needless(readings, likelihood, quarters, odds):
            continue
        view = photo.turned(quarters)
        turned, more = _read_photo(view)
        timings += more
        readings.append((turned, quarters, view))
        likelihood[quarters] = _likelihood(turned)
    areas = [_area(turned) for turned, _, _ in readings]
    covering = [r for r, area in zip(readings, areas) if area >= TURN_AREA * max(areas)]  # fewer: tiles missed
    likeliest = max(covering, key=lambda r: likelihood[r[1]])  # its rows run across the turned photo
    across = [r for r in covering if (r[1] - likeliest[1]) % 2 == 0]  # ... as they do half round from it
    tiles, quarters, _ = max(across, key=lambda r: likelihood[r[1]] - WAY_UP * _odds(r, odds))
    return _as_taken(photo, tiles, quarters), timings


def _needless(readings: list[Turned], likelihood: dict[int, float], quarters: int, odds: dict[int, float]) -> bool:
    """Whether the photo need not be read turned ``quarters`` (2 or 3), given its readings as it is and
    turned a quarter (the first two) and their ``likelihood``: where one is AXIS_MARGIN likelier than the
    other, the rows run its way, so the other's half turn is needless, and so is its own where its standing
    tiles are UPRIGHT_ODDS likelier upright than turned."""
    gap = likelihood[0] - likelihood[1]
    if not abs(gap) >= AXIS_MARGIN:  # (nan where neither reads a tile)
        return False
    likelier = readings[0] if gap > 0 else readings[1]
    return likelier[1] + 2 != quarters or _odds(likelier, odds) <= -UPRIGHT_ODDS


def _odds(reading: Turned, odds: dict[int, float]) -> float:
    """The reading's `_turned_odds`, kept in ``odds`` by its quarters."""
    tiles, quarters, view = reading
    if quarters not in odds:
        odds[quarters] = _turned_odds(view, tiles)
    return odds[quarters]


def _as_taken(photo: Photo, tiles: tuple[RecognizedTile, ...], quarters: int) -> tuple[RecognizedTile, ...]:
    """The tiles of ``photo.turned(quarters)`` with their boxes in the photo's pixels; read half round,
    in the photo's own reading order (reversed, rows and each row's groups numbered back). A quarter
    turn keeps the turned reading's order: the photo's rows run up it."""
    if quarters == 0:
        return tiles
    tiles = tuple(replace(tile, box=tuple(photo.unturned(point, quarters) for point in tile.box)) for tile in tiles)
    if quarters != 2 or not tiles:
        return tiles
    last_row = max(tile.row for tile in tiles)
    last_group = {row: max(t.group for t in tiles if t.row == row) for row in {t.row for t in tiles}}
    return tuple(replace(tile, row=last_row - tile.row, group=last_group[tile.row] - tile.group)
                 for tile in tiles[::-1])


def _read_photo(photo: Photo) -> tuple[tuple[RecognizedTile, ...], Timings]:
    """The tiles of a loaded photo, in its own orientation, and the time each step took."""
    started = perf_counter()
    candidates = preprocess(photo)
    prepared = perf_counter()
    probabilities = infer(candidates)
    inferred = perf_counter()
    tiles = postprocess(candidates, probabilities, classifier().classes)
    finished = perf_counter()
    steps = ((started, prepared), (prepared, inferred), (inferred, finished))
    return tiles, Timings(*(1000 * (b - a) for a, b in steps))


def _turned_odds(photo: Photo, tiles: tuple[RecognizedTile, ...]) -> float:
    """How much likelier a reading's standing tiles are turned half round than upright, as the way-up
    reader reads their faces (mean log odds; a tile lying sideways may lie either way round)."""
    standing = [tile for tile in tiles if not tile.rotated]
    return way_up_reader().turned_odds([rectify(photo.pixels, _quad(photo, tile)) for tile in standing])


def _sharpness(photo: Photo, tiles: tuple[RecognizedTile, ...]) -> float | None:
    """`photo_sharpness` of some of a reading's standing faces (`vision.sharpness.spread`; a face-down
    tile shows no strokes), each rectified at its `face_size`."""
    standing = [tile for tile in tiles if not tile.rotated and tile.tile != "back"]
    quads = [_quad(photo, standing[i]) for i in spread(len(standing))]
    return photo_sharpness([rectify(photo.pixels, quad, face_size(_height(quad))) for quad in quads])


def _quad(photo: Photo, tile: RecognizedTile) -> np.ndarray:
    """A tile's box in the photo's working pixels (boxes are in its original pixels)."""
    return np.float32(tile.box) / photo.zoom


def _height(quad: np.ndarray) -> float:
    """How tall a face's quad stands: its left and right sides' mean length."""
    top_left, top_right, bottom_right, bottom_left = quad
    return float(np.linalg.norm(bottom_left - top_left) + np.linalg.norm(bottom_right - top_right)) / 2


def _longer_side(quad: np.ndarray) -> float:
    """The longer of a quad's mean height (`_height`) and mean width."""
    top_left, top_right, bottom_right, bottom_left = quad
    width = float(np.linalg.norm(top_right - top_left) + np.linalg.norm(bottom_right - bottom_left)) / 2
    return max(_height(quad), width)


def _sideways(tiles: tuple[RecognizedTile, ...]) -> bool:
    """Whether a reading may be of a photo taken sideways: its tiles on average (geometric mean) less
    than TURN_BELOW sure, or more than a third of them read lying (each tile of a row running up the
    picture can pass for a lone tile lying sideways, and its turned crop may read surely)."""
    return _sureness(tiles) < np.log(TURN_BELOW) or 3 * sum(tile.rotated for tile in tiles) > len(tiles)


def _likelihood(tiles: tuple[RecognizedTile, ...]) -> float:
    """How likely a reading is the photo's way up: its mean log confidence (`_sureness`), less
    TURN_LYING per share of tiles read lying, plus TURN_COMPLETE where they show a complete hand."""
    if not tiles:
        return -np.inf
    lying = sum(tile.rotated for tile in tiles) / len(tiles)
    whole = complete(*_hand(tiles))
    return _sureness(tiles) - TURN_LYING * lying + TURN_COMPLETE * whole


def _area(tiles: tuple[RecognizedTile, ...]) -> float:
    """The pixels the tiles' boxes cover (the same whichever way the photo is turned)."""
    return float(sum(abs(cv2.contourArea(np.float32(tile.box))) for tile in tiles))


def _sureness(tiles: tuple[RecognizedTile, ...]) -> float:
    """The mean log confidence of a reading's tiles (-inf for none; a tile decoding made of a face the
    classifier gave no chance counts as 1e-9 sure)."""
    return float(np.mean(np.log(np.maximum([tile.confidence for tile in tiles], 1e-9)))) if tiles else -np.inf
