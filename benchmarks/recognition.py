"""Recognition benchmark: our reader vs the PyPI `mahjong-detector`, same images, same run.

Parts: the synthetic evaluation scenes (`benchmarks/data/scenes.json`, rendered
into ~/.cache/mahjong-lens/scenes), the real photos labelled by eye
(`benchmarks/data/real_photos.json`, images from ../shared; seen while the
reader was tuned) and `real-fresh` (`real_photos_fresh.json`: other photos and
crops, labelled later and never looked at while tuning). Per part: per-tile
accuracy after an edit-distance alignment against the labels (a missed or an
extra tile is an error; `?` labels are free), the share of images read exactly
right, raw (top-1 of each tile) and after hand-aware decoding, the decoded
errors split into wrong / missed / extra tiles, the share of the wrong and
extra ones the reader flags for the user to check, how many tiles it flags
per image and the share of images right once those are checked (and, of the
others, those whose one error left is a missed tile the page then offers to
add: `added_on_the_page`), and the median /
p90 time per image (file to tile list). Then the median time on a 12-megapixel
JPEG, the readers taking turns (15 reads each). mahjong-detector knows only the
34 riichi classes: bonus tiles and backs count as `?` for it. Its detections
are put in reading order (rows by y, then x) before scoring.

    .venv/bin/pip install -e '.[bench]'   # once: mahjong-detector, the side-by-side reader
    nice -n 10 .venv/bin/python -m benchmarks.recognition [--scenes N] [--model CANDIDATE.onnx]
        [--mistakes] [--dev [--table white-cloth]] [--sets] [--flowers] [--win-apart] [--discards] [--camera] [--light]
        [--surround] [--blur] [--far] [--speed]   (--dev: development scenes from another seed, ours only; tune there; --table
        puts them all on one light table; --sets: development scenes of tile sets laid out in rows, not hands
        (as the real photos show), ours only, where decoding should change next to nothing; --flowers:
        development hands with three or four bonus tiles laid apart together, ours only; --win-apart:
        development hands with the winning tile laid apart, ours only; --discards: development hands with a
        row of discards beyond them (no part of the hand: the suggested hand shows whether they were left
        out), ours only; --camera:
        the tuned photos laid on felt and seen anew, turned up to 30 degrees, from an angle, sideways
        (a quarter turn without EXIF) or from across the table (upside down), ours only; --light: the tuned
        photos in other light (benchmarks/lighting.py), ours only; --surround: the tuned photos laid on felt
        with another surface along an edge (benchmarks/surround.py), ours only; --blur: development scenes
        smeared by camera shake over 0.5% and 1% of the photo's long side, or out of focus, ours only; --far:
        development scenes seen from two and a half times as far in a 12-megapixel frame, ours only;
        --speed: only the 12-MP timing)
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import astuple, dataclass, replace
from itertools import zip_longest
from pathlib import Path
from typing import Callable, Iterator, Sequence

import cv2
import numpy as np
from PIL import Image

from benchmarks.lighting import LIGHTS
from benchmarks.surround import SURROUNDS, with_band
from datasets.real_photos import LABELS, RAW_IMAGES, UNKNOWN, load_photos
from datasets.scenes import (FAR, FRAME, LIGHT_TABLES, Frame, SceneSpec, cached, discarded_hand, flowered_hand,
                             load_boxes, load_specs, make_specs, random_set, tile_boxes, winner_apart_hand)
from datasets.synth import motion_kernel
from scoring import IncompleteHandError, check
from scoring.hand import Hand

TARGET_TILE, TARGET_EXACT, TARGET_12MP_MS = 0.98, 0.85, 150.0
BIG_PHOTO = ("1-1.jpg", (4000, 3000))
SPEED_REPEATS = 15  # reads of the 12-megapixel photo per reader (their median is reported)
FRESH_LABELS = LABELS.with_name("real_photos_fresh.json")  # labelled later, never looked at while tuning
DEV_SEED = 3026  # development scenes (`--dev`); the evaluation scenes use make_specs' default 2026
SETS_SEED, SETS_COUNT = 9026, 160  # `--sets`: development scenes of tile sets laid out in rows, not hands
FLOWERS_SEED, FLOWERS_COUNT = 11026, 120  # `--flowers`: development hands with three or four bonus tiles together
WIN_APART_SEED, WIN_APART_COUNT = 12026, 120  # `--win-apart`: development hands with the winning tile laid apart
DISCARDS_SEED, DISCARDS_COUNT = 13026, 60  # `--discards`: development hands with a row of discards beyond them
BLURS = {  # --blur parts: a camera shake's smear, or an out-of-focus blur's sigma, this share of the long side
    "shake 0.5%": ("shake", 0.005), "shake 1%": ("shake", 0.01), "out of focus 0.2%": ("focus", 0.002)}
FELT = (40, 110, 60)  # --camera: the tuned photos are laid on this table, a half photo's width of it around them
CAMERA_VIEWS = {  # --camera parts: (far side narrower by this share, turn in degrees) per view of each photo
    "turned": ((0.0, -20.0), (0.0, -8.0), (0.0, 8.0), (0.0, 20.0)),
    "tilted": ((0.1, 0.0), (0.2, 10.0), (0.3, -10.0), (0.3, 0.0)),
    "steep": ((0.4, 0.0), (0.4, -20.0), (0.3, 30.0), (0.2, -30.0)),
    "sideways": ((0.0, 90.0), (0.2, 90.0), (0.0, -90.0), (0.2, -80.0)),  # taken sideways, no EXIF turn
    "across": ((0.0, 180.0), (0.2, 180.0), (0.1, 170.0), (0.3, -170.0)),  # from across the table: upside down
}
DETECTOR_NAMES = {"tou": "1z", "nan": "2z", "sha": "3z", "pe": "4z",
                  "haku": "5z", "hatsu": "6z", "chun": "7z"}


@dataclass(frozen=True)
class Errors:
    """Alignment errors of one reading (or a sum of them)."""

    total: int = 0
    wrong: int = 0
    missed: int = 0
    extra: int = 0
    unflagged: int = 0  # wrong or extra tiles the reader did not flag for the user to check

    def __add__(self, other: "Errors") -> "Errors":
        return Errors(*(a + b for a, b in zip(astuple(self), astuple(other))))

    def __str__(self) -> str:
        return f"{self.wrong}/{self.missed}/{self.extra}"


MISSED = Errors(1, missed=1)


def _fewest_missed(errors: Errors) -> tuple[int, ...]:
    return errors.total, errors.missed, errors.extra, errors.unflagged


def align(truth: Sequence[str], predicted: Sequence[str], flagged: Sequence[bool] = ()) -> Errors:
    """Edit-distance alignment: a wrong, missed or extra tile costs 1; a `?` label costs nothing.
    A wrong or extra tile not ``flagged`` (per predicted tile; none when empty) also counts as unflagged.
    Of alignments that cost alike, the one with the fewest missed, then extra, tiles counts (two tiles
    found and each misread as the other's neighbour, 5f 7f read 7f 4f, are two wrong tiles, not one
    missed and one extra)."""
    none = Errors()
    flags = list(flagged) or [False] * len(predicted)
    wrong = [Errors(1, wrong=1, unflagged=int(not flag)) for flag in flags]
    extra = [Errors(1, extra=1, unflagged=int(not flag)) for flag in flags]
    previous = [none]
    for cost in extra:
        previous.append(previous[-1] + cost)
    for label in truth:
        free = label == UNKNOWN
        current = [previous[0] + (none if free else MISSED)]
        for j, code in enumerate(predicted, 1):
            current.append(min((previous[j - 1] + (none if free or label == code else wrong[j - 1]),
                                previous[j] + (none if free else MISSED),
                                current[j - 1] + extra[j - 1]), key=_fewest_missed))
        previous = current
    return previous[-1]


@dataclass(frozen=True)
class Sample:
    """One benchmark image: a name, a file and its labels in reading order."""

    name: str
    path: Path
    truth: tuple[str, ...]
    boxes: tuple[tuple[tuple[int, int], ...], ...] | None = None  # each tile's corners, when known
    hand: str | None = None  # the hand laid out, in the scoring notation (claimed sets bracketed), when known
    either_way: bool = False  # a photo taken sideways: its way up is the reader's guess, the labels count reversed too
    winning: str | None = None  # the winning tile, where the scene lays it apart after the concealed ones


@dataclass(frozen=True)
class Reading:
    """A reader's output for one image: raw top-1 codes, decoded codes, box centres, seconds taken,
    which decoded tiles it flags for the user to check (none when empty), and each tile's run (row,
    group) and whether it lies sideways (what the suggested hand is built from; empty when not known)."""

    raw: tuple[str, ...]
    decoded: tuple[str, ...]
    centres: tuple[tuple[float, float], ...]
    seconds: float = 0.0
    flagged: tuple[bool, ...] = ()
    runs: tuple[tuple[int, int], ...] = ()
    rotated: tuple[bool, ...] = ()
    blurred: bool = False  # the reader calls the photo blurred (the page then asks for another)
    beyond: tuple[bool, ...] = ()  # per decoded tile: whether the reader leaves it out of the hand (a discard)
    winning: str | None = None  # the winning tile the reader names, laid apart after the concealed ones


def right_but_bonus_names(truth: Sequence[str], codes: Sequence[str]) -> bool:
    """Whether every tile is read right but for bonus tiles named as other bonus tiles (MCR scores
    only how many bonus tiles a hand has; their pictures differ most from set to set)."""
    return len(truth) == len(codes) and all(
        label in (code, UNKNOWN) or (label.endswith("f") and code.endswith("f")) for label, code in zip(truth, codes))


def added_on_the_page(truth: Sequence[str], reading: Reading, errors: Errors) -> bool:
    """Whether the one error left once the flagged tiles are checked is a missed tile the page offers
    to add: with the flagged tiles corrected, the suggested hand (`hand_text`) is one tile short
    (`scoring.check`) and that tile completes it (a bonus tile or a back never does)."""
    from vision.decode import hand_text

    if errors.missed != 1 or errors.extra or errors.unflagged or UNKNOWN in truth or not reading.runs:
        return False
    gap = min(range(len(truth)), key=lambda i: sum(a != b for a, b in zip(truth[:i] + truth[i + 1:], reading.decoded)))
    try:
        check(hand_text(truth[:gap] + truth[gap + 1:], reading.runs, reading.rotated), ruleset="mcr")
    except IncompleteHandError as error:
        return truth[gap] in {tile.code for tile in error.waiting}
    except ValueError:
        return False
    return False


def suggested_hand_right(hand: str, reading: Reading, bonus_names: bool = True) -> bool:
    """Whether the hand the page starts from (`hand_text` of the decoded tiles but those the reader leaves
    out of the hand, their runs and which lie sideways) is `hand`: the same concealed tiles, claimed sets,
    concealed kongs and bonus tiles (without `bonus_names`, as many bonus tiles, whichever: all MCR scores of
    them)."""
    from vision.decode import hand_text

    held = tuple("none" if beyond else code for code, beyond in zip_longest(reading.decoded, reading.beyond))
    suggested, laid_out = _hand_parts(hand_text(held, reading.runs, reading.rotated)), _hand_parts(hand)
    if suggested is None or laid_out is None:
        return False
    return suggested == laid_out if bonus_names else (suggested[:2] == laid_out[:2]
                                                      and len(suggested[2]) == len(laid_out[2]))


def _hand_parts(text: str) -> tuple | None:
    """A hand string's standing tiles, melds (in any order) and bonus tiles; None if it is no hand."""
    try:
        hand = Hand.parse(text, win="1m")  # the winning tile is not compared (nor checked by parse)
    except ValueError:
        return None
    return hand.standing, sorted(meld.text for meld in hand.melds), hand.bonus


def located(truth: Sequence[str], boxes: Sequence, reading: Reading) -> int:
    """How many labelled (not `?`) tiles have at least one read tile's centre inside their box."""
    polygons = [np.array(box, dtype=np.float32) for code, box in zip(truth, boxes) if code != UNKNOWN]
    return sum(any(cv2.pointPolygonTest(polygon, centre, False) >= 0 for centre in reading.centres)
               for polygon in polygons)


@dataclass(frozen=True)
class Tally:
    """Scores of one reader on one part."""

    tiles: int
    errors: tuple[Errors, Errors]  # raw, decoded
    exact: tuple[int, int]  # images read exactly right: raw, decoded
    seconds: tuple[float, ...]
    found: int | None = None  # labelled tiles located by a read tile's box (when boxes are known)
    flagged: int = 0  # decoded tiles flagged for the user to check
    settled: int = 0  # images whose decoded errors are all flagged tiles (none missed): right once the user checks them
    added: int = 0  # other images whose one error left is a missed tile the page offers to add (`added_on_the_page`)
    but_bonus_names: int = 0  # images read right after decoding but for bonus tiles named as other bonus tiles

    @property
    def errors_flagged(self) -> float | None:
        """The share of wrong and extra decoded tiles flagged for the user (missed ones cannot be); None if none."""
        decoded = self.errors[1]
        misread = decoded.wrong + decoded.extra
        return (misread - decoded.unflagged) / misread if misread else None

    @classmethod
    def of(cls, results: Sequence[tuple[Sequence[str], Reading]], found: int | None = None) -> "Tally":
        """Align every (labels, reading) pair and add up."""
        raw = [align(truth, reading.raw) for truth, reading in results]
        decoded = [align(truth, reading.decoded, reading.flagged) for truth, reading in results]
        return cls(sum(code != UNKNOWN for truth, _ in results for code in truth),
                   (sum(raw, Errors()), sum(decoded, Errors())),
                   (sum(e.total == 0 for e in raw), sum(e.total == 0 for e in decoded)),
                   tuple(reading.seconds for _, reading in results), found,
                   sum(sum(reading.flagged) for _, reading in results),
                   sum(e.missed == 0 and e.unflagged == 0 for e in decoded),
                   sum(added_on_the_page(truth, reading, e) for (truth, reading), e in zip(results, decoded)),
                   sum(right_but_bonus_names(truth, reading.decoded) for truth, reading in results))

    def row(self) -> list[str]:
        n, ms = len(self.seconds), sorted(s * 1000 for s in self.seconds)
        share = self.errors_flagged
        return [*(f"{1 - e.total / max(1, self.tiles):.1%}" for e in self.errors),
                *(f"{x / n:.1%}" for x in self.exact), str(self.errors[1]),
                "-" if share is None else f"{share:.0%}", f"{self.flagged / n:.1f}", f"{self.settled / n:.1%}",
                f"{(self.settled + self.added) / n:.1%}",
                "-" if self.found is None else f"{self.found / max(1, self.tiles):.1%}",
                f"{statistics.median(ms):.0f}", f"{ms[min(n - 1, int(0.9 * n))]:.0f}"]


def timed(function: Callable[[Path], Reading], path: Path) -> Reading:
    start = time.perf_counter()
    reading = function(path)
    return replace(reading, seconds=time.perf_counter() - start)


def read_ours(path: Path) -> Reading:
    """Our reader through the JSON contract: raw top-1 = alternatives[0][0], decoded = tile."""
    from vision.pipeline import recognize

    result = recognize(path).to_dict()
    tiles = result["tiles"]
    return Reading(tuple(t["alternatives"][0][0] for t in tiles), tuple(t["tile"] for t in tiles),
                   tuple(tuple(np.mean(t["box"], axis=0).tolist()) for t in tiles),
                   flagged=tuple(t["changed"] or t["doubtful"] for t in tiles),
                   runs=tuple((t["row"], t["group"]) for t in tiles), rotated=tuple(t["rotated"] for t in tiles),
                   blurred=result["blurred"], beyond=tuple(not t["in_hand"] for t in tiles),
                   winning=result["winning_tile"])


def read_detector(path: Path) -> Reading:
    """mahjong-detector's detections in reading order (no decoding: raw = decoded)."""
    from mahjong_detector.predict import CLASS_NAMES, predict
    from mahjong_detector.preprocess import preprocess_image

    with Image.open(path) as image:
        detections = predict(*preprocess_image(image))
    if not detections:
        return Reading((), (), ())
    height = statistics.median(d.y2 - d.y1 for d in detections)
    rows: list[list] = []
    for d in sorted(detections, key=lambda d: (d.y1 + d.y2) / 2):
        if rows and (d.y1 + d.y2) / 2 - (rows[-1][0].y1 + rows[-1][0].y2) / 2 < height / 2:
            rows[-1].append(d)
        else:
            rows.append([d])
    ordered = [d for row in rows for d in sorted(row, key=lambda d: d.x1)]
    codes = tuple(DETECTOR_NAMES.get(CLASS_NAMES[d.class_id], CLASS_NAMES[d.class_id]) for d in ordered)
    return Reading(codes, codes, tuple(((d.x1 + d.x2) / 2, (d.y1 + d.y2) / 2) for d in ordered))


def detector_truth(truth: Sequence[str]) -> tuple[str, ...]:
    """Labels as mahjong-detector can know them: bonus tiles and backs become `?`."""
    return tuple(UNKNOWN if code == "back" or code.endswith("f") else code for code in truth)


@dataclass(frozen=True)
class Layout:
    """Development scenes laid out otherwise than the evaluation scenes: the master seed, how many by
    default, the layout, and whether they show a hand."""

    seed: int
    count: int
    draw: Callable[[np.random.Generator], tuple]
    hands: bool


LAYOUTS = {"sets": Layout(SETS_SEED, SETS_COUNT, random_set, False),
           "flowers": Layout(FLOWERS_SEED, FLOWERS_COUNT, flowered_hand, True),
           "win_apart": Layout(WIN_APART_SEED, WIN_APART_COUNT, winner_apart_hand, True),
           "discards": Layout(DISCARDS_SEED, DISCARDS_COUNT, discarded_hand, True)}


def scene_specs(count: int | None, dev: bool = False, table: str | None = None, layout: str | None = None,
                frame: Frame = FRAME) -> tuple[list[SceneSpec], dict[int, list[list[list[int]]]]]:
    """(specs, each seed's tile corners) of the committed evaluation scenes (the first `count`), or
    with `dev` of `count` development scenes drawn the same way from another master seed (all on
    `table`, if given; rendered in `frame`), or of `count` development scenes of one of the LAYOUTS (tile
    sets laid out in rows, `random_set`; hands with three or four bonus tiles, `flowered_hand`; hands with
    the winning tile laid apart, `winner_apart_hand`; hands with discards beyond them, `discarded_hand`):
    for tuning, never reported."""
    if layout:
        drawn = LAYOUTS[layout]
        specs = make_specs(count or drawn.count, drawn.seed, drawn.draw)
    elif dev:
        specs = [replace(spec, background=table or spec.background) for spec in make_specs(count or 60, DEV_SEED)]
    else:
        return load_specs()[:count], load_boxes()
    return specs, {spec.seed: tile_boxes(spec, frame) for spec in specs}


def scene_samples(count: int | None, dev: bool = False, table: str | None = None,
                  layout: str | None = None, frame: Frame = FRAME) -> list[Sample]:
    """The scenes of `scene_specs` as samples (a set's scenes show no hand)."""
    specs, boxes = scene_specs(count, dev, table, layout, frame)
    hands = not layout or LAYOUTS[layout].hands
    return [Sample(f"scene-{s.seed}", cached(s, frame), tuple(c for row in s.labels for c in row),
                   tuple(tuple(map(tuple, box)) for box in boxes[s.seed]), s.hand if hands else None,
                   winning=s.laid_winner if hands else None)
            for s in specs]


def photo_samples(workdir: Path, labels: Path = LABELS) -> list[Sample]:
    """Real photos; a cropped one is written to `workdir` as a JPEG so every reader gets a file."""
    samples = []
    for index, photo in enumerate(load_photos(labels)):
        path, name = photo.path(), photo.file
        if photo.crop:
            name = f"{photo.file}@{','.join(map(str, photo.crop))}"
            path = workdir / f"crop-{labels.stem}-{index}.jpg"
            photo.image().save(path, quality=95)
        samples.append(Sample(name, path, photo.tiles))
    return samples


def on_felt(pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo laid on a grainy felt table half its longer side wide all round."""
    height, width = pixels.shape[:2]
    margin = max(height, width) // 2
    felt = np.array(FELT) + rng.normal(0, 4, (height + 2 * margin, width + 2 * margin, 3))
    table = np.clip(felt, 0, 255).astype(np.uint8)
    table[margin:margin + height, margin:margin + width] = pixels
    return table


def viewed(pixels: np.ndarray, narrowing: float, turn: float) -> np.ndarray:
    """The image seen anew: its far (top) side ``narrowing`` shorter and nearer its near side by that
    share of the height (a camera tilted towards it: what is near keeps its shape, what is far is
    smaller and flatter), then turned ``turn`` degrees about its centre; what comes into view is plain
    table (FELT)."""
    height, width = pixels.shape[:2]
    inset, drop = narrowing * width / 2, narrowing * height
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    tilt = cv2.getPerspectiveTransform(corners, corners + np.float32([[inset, drop], [-inset, drop], [0, 0], [0, 0]]))
    turned = np.vstack([cv2.getRotationMatrix2D((width / 2, height / 2), turn, 1.0), [0, 0, 1]])
    return cv2.warpPerspective(pixels, turned @ tilt, (width, height), borderMode=cv2.BORDER_CONSTANT, borderValue=FELT)


def tuned_on_felt(workdir: Path, seed: int) -> Iterator[tuple[int, Sample, np.ndarray]]:
    """Each tuned photo, numbered, laid on felt (`on_felt`, its grain drawn from `seed`)."""
    rng = np.random.default_rng(seed)
    for index, sample in enumerate(photo_samples(workdir)):
        with Image.open(sample.path) as image:
            yield index, sample, on_felt(np.asarray(image.convert("RGB")), rng)


def camera_samples(workdir: Path) -> dict[str, list[Sample]]:
    """Per CAMERA_VIEWS part, the tuned photos laid on felt and seen in each of its views (JPEG files
    in `workdir`): a development check of the camera's freedom, on photos seen while tuning."""
    parts: dict[str, list[Sample]] = {part: [] for part in CAMERA_VIEWS}
    for index, sample, table in tuned_on_felt(workdir, 3):
        for part, views in CAMERA_VIEWS.items():
            for narrowing, turn in views:
                path = workdir / f"{part}-{index}-{narrowing}-{turn}.jpg"
                Image.fromarray(viewed(table, narrowing, turn)).save(path, quality=95)
                parts[part].append(as_turned(replace(sample, name=f"{sample.name}@{narrowing},{turn:g}", path=path),
                                             turn))
    return parts


def as_turned(sample: Sample, turn: float) -> Sample:
    """A sample whose photo is turned ``turn`` degrees: upside down, its reading order runs from the
    far end of its labels; sideways, the labels count in either order (its way up is the reader's guess)."""
    if abs(turn) > 135:
        return replace(sample, truth=sample.truth[::-1])
    return replace(sample, either_way=abs(turn) > 45)


def light_samples(workdir: Path) -> dict[str, list[Sample]]:
    """Per LIGHTS part, the tuned photos seen in that light (JPEG files in `workdir`): a development
    check of the lighting's freedom, on photos seen while tuning."""
    parts: dict[str, list[Sample]] = {part: [] for part in LIGHTS}
    for index, sample in enumerate(photo_samples(workdir)):
        with Image.open(sample.path) as image:
            pixels = np.asarray(image.convert("RGB"))
        for part, light in LIGHTS.items():
            path = workdir / f"light-{index}-{part.replace(' ', '-')}.jpg"
            Image.fromarray(light(pixels)).save(path, quality=92)
            parts[part].append(replace(sample, path=path))
    return parts


def surround_samples(workdir: Path) -> dict[str, list[Sample]]:
    """Per SURROUNDS part, the tuned photos laid on felt with bands of another surface along one edge
    or all round (JPEG files in `workdir`): a development check of photos that show more than the table."""
    parts: dict[str, list[Sample]] = {part: [] for part in SURROUNDS}
    for index, sample, table in tuned_on_felt(workdir, 4):
        for part, surround in SURROUNDS.items():
            photo = table
            for colour, side, depth, tilt in surround:
                photo = with_band(photo, colour, side, depth, tilt, seed=index)
            path = workdir / f"surround-{index}-{part.replace(' ', '-')}.jpg"
            Image.fromarray(photo).save(path, quality=92)
            parts[part].append(replace(sample, path=path))
    return parts


def blur_samples(count: int | None, workdir: Path) -> dict[str, list[Sample]]:
    """Per BLURS part, the development scenes smeared as by a camera moving while the shutter is open
    (each scene along its own seeded direction) or out of focus (JPEG files in `workdir`): a development
    check of blurred photos."""
    scenes = scene_samples(count, dev=True)
    angles = np.random.default_rng(5).uniform(0, 180, len(scenes))
    parts: dict[str, list[Sample]] = {part: [] for part in BLURS}
    for sample, angle in zip(scenes, angles):
        pixels = cv2.imread(str(sample.path))
        for part, (kind, share) in BLURS.items():
            path = workdir / f"{part.replace(' ', '-')}-{sample.name}.jpg"
            reach = share * max(pixels.shape[:2])
            blurred = (cv2.filter2D(pixels, -1, motion_kernel(reach, angle)) if kind == "shake"
                       else cv2.GaussianBlur(pixels, (0, 0), reach))
            cv2.imwrite(str(path), blurred, [cv2.IMWRITE_JPEG_QUALITY, 92])
            parts[part].append(replace(sample, path=path))
    return parts


def big_photo(workdir: Path) -> Path:
    """A real photo cropped to 4:3 and upscaled to 12 megapixels (4000x3000 JPEG)."""
    with Image.open(RAW_IMAGES / BIG_PHOTO[0]) as image:
        w, h = image.size
        side = min(w, h * 4 // 3)
        image = image.convert("RGB").crop(((w - side) // 2, 0, (w - side) // 2 + side, side * 3 // 4))
        path = workdir / "twelve-megapixels.jpg"
        image.resize(BIG_PHOTO[1], Image.LANCZOS).save(path, quality=92)
    return path


Reader = Callable[[Path], Reading]
Readers = dict[str, tuple[Reader, Callable[[Sequence[str]], tuple[str, ...]]]]  # name: (reader, its truth)
READERS: Readers = {
    "ours": (read_ours, tuple),
    "mahjong-detector": (read_detector, detector_truth),
}
HEADER = ["part", "reader", "images", "tiles", "tile raw", "tile decoded",
          "exact raw", "exact decoded", "wrong/missed/extra", "misreads flagged", "flagged/image",
          "right after checks", "+ a missed tile added", "found", "median ms", "p90 ms"]


def use_model(path: Path) -> None:
    """Benchmark a candidate model (e.g. one still training) in place of the committed one."""
    import vision.pipeline
    from vision.classify import TileClassifier

    model = TileClassifier.load(path)
    vision.pipeline.classifier = lambda: model


def unavailable(read: Reader, path: Path) -> str | None:
    """None when the reader works (this call also warms it up), else why not."""
    try:
        read(path)
    except Exception as error:  # a missing model or package: report it, keep benchmarking the rest
        return f"{type(error).__name__}: {error}"
    return None


Results = dict[str, list[tuple[tuple[str, ...], Reading]]]  # reader -> (labels, reading) per sample


def run_part(samples: list[Sample], readers: Readers) -> Results:
    results: Results = {name: [] for name in readers}
    for sample in samples:
        for name, (read, truth_for) in readers.items():
            reading = timed(read, sample.path)
            truth = sample.truth
            if sample.either_way and align(truth[::-1], reading.decoded).total < align(truth, reading.decoded).total:
                truth = truth[::-1]
            results[name].append((truth_for(truth), reading))
    return results


def found(samples: list[Sample], pairs: list[tuple[tuple[str, ...], Reading]]) -> int | None:
    """Labelled tiles located by the reader's boxes over a part, None when the part has no boxes."""
    if any(sample.boxes is None for sample in samples):
        return None
    return sum(located(truth, sample.boxes, reading) for sample, (truth, reading) in zip(samples, pairs))


def print_mistakes(part: str, samples: list[Sample], results: Results) -> None:
    """Every image a reader got wrong after decoding: labels above the reading."""
    for name, pairs in results.items():
        for sample, (truth, reading) in zip(samples, pairs):
            errors = align(truth, reading.decoded)
            if errors.total:
                print(f"{part} {name} {sample.name}: {errors} wrong/missed/extra\n"
                      f"  labels {' '.join(truth)}\n  read   {' '.join(reading.decoded)}")


def medians_ms(readers: dict[str, Reader], path: Path, repeats: int = SPEED_REPEATS) -> dict[str, float]:
    """Each reader's median time on one photo, the readers taking turns (one read each per round),
    so a slow spell of the machine falls on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in readers}
    for _ in range(repeats):
        for name, read in readers.items():
            times[name].append(timed(read, path).seconds * 1000)
    return {name: statistics.median(ms) for name, ms in times.items()}


def print_table(rows: list[list[str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)))


SCORING_NOTE = ("\nScoring: edit-distance alignment in reading order (missed/extra tiles are errors; a photo "
                "taken sideways, whose way up the reader guesses, in either order); "
                "'?' labels are free; mahjong-detector is scored with bonus tiles and backs as '?'; "
                "wrong/missed/extra counts tiles after decoding; misreads flagged = the share of wrong and "
                "extra tiles (after decoding) that the reader marks changed or doubtful, so the page asks "
                "the user about them (a missed tile cannot be flagged); flagged/image = tiles marked per "
                "image, right or wrong; right after checks = images whose every error is a flagged tile (none "
                "missed), so checking the flagged tiles gives the right hand; + a missed tile added = those "
                "and the images whose one error left is a missed tile the page then offers to add (the hand "
                "one tile short, that tile completing it); found = labelled tiles whose box "
                "holds the centre of a read tile (synthetic scenes only).")


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=None, help="only the first N scenes")
    parser.add_argument("--model", type=Path, help="a candidate ONNX model instead of the committed one")
    parser.add_argument("--mistakes", action="store_true", help="list every image read wrong (after decoding)")
    parser.add_argument("--dev", action="store_true",
                        help="only our reader on development scenes (another seed; --scenes N, default 60): "
                             "for tuning without touching the reported sets")
    parser.add_argument("--table", choices=sorted(LIGHT_TABLES), help="with --dev: every scene on this light table")
    parser.add_argument("--sets", action="store_true",
                        help="only our reader on development scenes of tile sets laid out in rows, not hands "
                             f"(--scenes N, default {SETS_COUNT}): decoding should leave them as read")
    parser.add_argument("--flowers", action="store_true",
                        help="only our reader on development hands with three or four bonus tiles laid apart "
                             f"together (--scenes N, default {FLOWERS_COUNT})")
    parser.add_argument("--win-apart", action="store_true",
                        help="only our reader on development hands with one standing tile (the winning tile) laid "
                             f"apart just after the others (--scenes N, default {WIN_APART_COUNT})")
    parser.add_argument("--discards", action="store_true",
                        help="only our reader on development hands with a row of discards beyond them, no part of "
                             f"the hand (--scenes N, default {DISCARDS_COUNT})")
    parser.add_argument("--camera", action="store_true",
                        help="only our reader on the tuned photos laid on felt, turned, seen at an angle, "
                             "sideways or upside down")
    parser.add_argument("--light", action="store_true",
                        help="only our reader on the tuned photos in other light: casts, dim, shadows, glare")
    parser.add_argument("--surround", action="store_true",
                        help="only our reader on the tuned photos laid on felt with another surface along an edge")
    parser.add_argument("--blur", action="store_true",
                        help="only our reader on development scenes smeared by camera shake or out of focus "
                             "(--scenes N, default 60)")
    parser.add_argument("--far", action="store_true",
                        help="only our reader on development scenes seen from afar in a 12-megapixel frame "
                             "(--scenes N, default 60; rendered once into the scene cache, a few seconds each)")
    parser.add_argument("--speed", action="store_true",
                        help="only the 12-megapixel timing of every reader (reads no labelled set)")
    return parser.parse_args(argv)


def _parts(args: argparse.Namespace, workdir: Path) -> dict[str, list[Sample]]:
    """The labelled sets the options ask for, by part name (none for --speed)."""
    if args.speed:
        return {}
    if args.dev:
        return {args.table or "dev": scene_samples(args.scenes, dev=True, table=args.table)}
    for layout in LAYOUTS:
        if getattr(args, layout):
            return {layout: scene_samples(args.scenes, layout=layout)}
    if args.camera:
        return camera_samples(workdir)
    if args.light:
        return light_samples(workdir)
    if args.surround:
        return surround_samples(workdir)
    if args.blur:
        return blur_samples(args.scenes, workdir)
    if args.far:
        return {"far": scene_samples(args.scenes, dev=True, frame=FAR)}
    return {"synthetic": scene_samples(args.scenes), "real": photo_samples(workdir),
            "real-fresh": photo_samples(workdir, FRESH_LABELS)}


def _readers(ours_only: bool, big: Path) -> Readers:
    """The readers that can run here (saying why one cannot), ours alone when asked."""
    readers = {}
    for name, reader in READERS.items():
        if ours_only and name != "ours":
            continue
        reason = unavailable(reader[0], big)
        if reason:
            print(f"{name}: not available ({reason})")
        else:
            readers[name] = reader
    return readers


def blurred_line(pairs: Sequence[tuple[Sequence[str], Reading]]) -> str:
    """How many of the readings call their photo blurred, and how many of those read right but for bonus names."""
    called = [(truth, reading) for truth, reading in pairs if reading.blurred]
    right = sum(right_but_bonus_names(truth, reading.decoded) for truth, reading in called)
    return f"{len(called)} of {len(pairs)} ({right} of them read right but for bonus names)"


def winning_line(samples: Sequence[Sample], pairs: Sequence[tuple[Sequence[str], Reading]]) -> str:
    """How often the reader names the winning tile of the scenes that lay it apart (right, wrong, not at
    all), and how often it names one where the scene lays none apart."""
    laid = [(sample.winning, reading.winning) for sample, (_, reading) in zip(samples, pairs) if sample.winning]
    right, named = sum(truth == got for truth, got in laid), sum(got is not None for _, got in laid)
    false = sum(reading.winning is not None for sample, (_, reading) in zip(samples, pairs) if not sample.winning)
    return (f"right in {right} of {len(laid)} scenes laying it apart ({named - right} wrong, {len(laid) - named} "
            f"not named); named in {false} of {len(samples) - len(laid)} laying none apart")


def _accuracy(parts: dict[str, list[Sample]], readers: Readers, mistakes: bool) -> None:
    """Every reader on every part: the table against the targets, then the bonus-names and suggested-hand figures."""
    rows = [HEADER, ["target", "", "", "", f">={TARGET_TILE:.0%}", f">={TARGET_TILE:.0%}",
                     f">={TARGET_EXACT:.0%}", f">={TARGET_EXACT:.0%}", "", "", "", "", "", "", "", ""]]
    notes, hands, blurred, winning = [], [], [], []
    for part, samples in parts.items():
        results = run_part(samples, readers)
        if mistakes:
            print_mistakes(part, samples, results)
        for name, pairs in results.items():
            tally = Tally.of(pairs, found(samples, pairs))
            rows.append([part, name, str(len(samples)), str(tally.tiles)] + tally.row())
            notes.append(f"  {part}, {name}: {tally.but_bonus_names / len(samples):.1%}")
            if name == "ours":
                blurred.append(f"  {part}: {blurred_line(pairs)}")
            if all(sample.hand for sample in samples):
                right = [sum(suggested_hand_right(s.hand, reading, names) for s, (_, reading) in zip(samples, pairs))
                         for names in (True, False)]
                hands.append(f"  {part}, {name}: {right[0] / len(samples):.1%} "
                             f"(but for bonus tiles' names: {right[1] / len(samples):.1%})")
                if name == "ours":
                    winning.append(f"  {part}: {winning_line(samples, pairs)}")
    print_table(rows)
    print("\nImages right after decoding but for bonus tiles named as other bonus tiles (MCR scores only "
          "how many there are):", *notes, sep="\n")
    print("\nPhotos our reader calls blurred (the page asks for another photo):", *blurred, sep="\n")
    if hands:
        print("\nSuggested hand right (the hand string the page starts from: concealed tiles, claimed sets, "
              "concealed kongs and bonus tiles as the scene lays them out):", *hands, sep="\n")
    if winning:
        print("\nWinning tile named by our reader (laid apart after the concealed tiles; the page picks it):",
              *winning, sep="\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run every available reader on both parts and print the table with the targets."""
    args = _arguments(argv)
    if args.model:
        use_model(args.model)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        parts = _parts(args, workdir)
        big = big_photo(workdir)
        ours_only = (args.dev or args.camera or args.light or args.surround or args.blur or args.far
                     or any(getattr(args, n) for n in LAYOUTS))
        readers = _readers(ours_only, big)
        if parts:
            _accuracy(parts, readers, args.mistakes)
        print(f"\n12-megapixel photo ({BIG_PHOTO[0]} upscaled to {BIG_PHOTO[1][0]}x{BIG_PHOTO[1][1]}), "
              f"median of {SPEED_REPEATS}, readers taking turns, file to tile list; "
              f"target <= {TARGET_12MP_MS:.0f} ms and no slower than mahjong-detector")
        for name, ms in medians_ms({name: read for name, (read, _) in readers.items()}, big).items():
            print(f"  {name}: {ms:.0f} ms")
    if parts:
        print(SCORING_NOTE)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
