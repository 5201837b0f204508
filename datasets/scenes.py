"""Synthetic full-hand evaluation scenes in a held-out style (evaluation only).

Faces come from the KMahjongg `traditional` tileset (GPL; held out from the
classifier's training, rendered at run time into ~/.cache/mahjong-lens/scenes,
never committed). Tile bodies (pale green, blue, pink, lilac), their back
colours and the procedural table textures below are none of the classifier's
`TRAIN_BODIES`, `TRAIN_BACKS` and `TRAIN_BACKGROUNDS` (`datasets/synth.py`).
The committed specs (`benchmarks/data/scenes.json`) hold the seed, the labels
and the layout; everything else (camera, light, texture) follows
from the seed, so `render(spec)` is deterministic.

`python -m datasets.scenes --write N` rewrites the specs (with labels: tiles, boxes);
`python -m datasets.scenes --sheet OUT.png` renders a small contact sheet.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

import cv2
import numpy as np
from PIL import Image, ImageDraw

from datasets.artwork import FACE_CLASSES, KMAHJONGG_DIR, load_source
from scoring.hand import Hand, Meld, NotASetError, SetKind, meld_of
from scoring.tiles import Tile

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "benchmarks" / "data" / "scenes.json"
CACHE = Path.home() / ".cache" / "mahjong-lens" / "scenes"
TILESET = KMAHJONGG_DIR / "traditional.svgz"
FACE = (138, 178)  # TileFaceWidth/Height of traditional.desktop (69x89) at zoom 2
MARGIN = 8  # body rim around the face
DEPTH = 26  # visible tile thickness below the face
OUTPUT = (1280, 960)
RENDER_VERSION = 3  # bump when the renderer changes: cached images are keyed by it
STYLE = "kmahjongg-traditional"  # datasets.artwork source held out of training
# name: (face colour, back colour); none of the faces or backs is in synth.TRAIN_BODIES / TRAIN_BACKS
BODIES = {"pale-green": ((214, 236, 206), (110, 30, 40)),
          "pale-blue": ((212, 228, 244), (24, 24, 32)),
          "pale-pink": ((244, 218, 222), (90, 50, 120)),
          "lilac": ((226, 216, 240), (20, 100, 110))}
# name: (colour, pattern); none of the colours is in synth.TRAIN_BACKGROUNDS
BACKGROUNDS = {"burgundy-felt": ((112, 28, 44), "cloth"), "purple-cloth": ((80, 50, 110), "cloth"),
               "teal-cloth": ((22, 108, 118), "cloth"), "cherry-wood": ((150, 66, 40), "wood"),
               "red-plaid": ((140, 38, 42), "plaid"), "blue-gingham": ((70, 100, 170), "gingham")}
# Tables as light as the tile faces: development only (`benchmarks.recognition --dev --table NAME`)
LIGHT_TABLES = {"white-cloth": ((238, 236, 230), "cloth"), "beige-cloth": ((214, 200, 172), "cloth"),
                "grey-cloth": ((170, 170, 172), "cloth")}


class SceneError(ValueError):
    """A malformed scene spec or a missing held-out tileset."""


@dataclass(frozen=True)
class Placed:
    """One tile in a scene: its code (or `back`), whether it lies sideways, and whether it is a discard
    lying beyond the hand (no part of it)."""

    code: str
    sideways: bool = False
    discard: bool = False

    @classmethod
    def parse(cls, text: str) -> "Placed":
        """`5p`, `5p*` (sideways) or `5p~` (a discard)."""
        code = text.rstrip("*~")
        if code != "back" and code not in FACE_CLASSES:
            raise SceneError(f"unknown tile {text!r} in a scene spec; use 1m..7z, 1f..8f or back")
        return cls(code, text.endswith("*"), text.endswith("~"))

    def __str__(self) -> str:
        return self.code + ("*" if self.sideways else "") + ("~" if self.discard else "")


Row = tuple[tuple[Placed, ...], ...]  # groups, laid apart


@dataclass(frozen=True)
class SceneSpec:
    """A committed scene: seed, layout (rows of groups), body and table names."""

    seed: int
    rows: tuple[Row, ...]
    body: str
    background: str

    @classmethod
    def from_json(cls, data: dict) -> "SceneSpec":
        rows = tuple(tuple(tuple(Placed.parse(t) for t in group.split()) for group in row)
                     for row in data["rows"])
        if data["body"] not in BODIES or data["background"] not in BACKGROUNDS:
            raise SceneError(f"unknown body/background in scene {data!r}")
        return cls(int(data["seed"]), rows, data["body"], data["background"])

    def to_json(self) -> dict:
        return {"seed": self.seed, "body": self.body, "background": self.background,
                "rows": [[" ".join(map(str, group)) for group in row] for row in self.rows]}

    @property
    def labels(self) -> tuple[tuple[str, ...], ...]:
        """Codes per row in reading order."""
        return tuple(tuple(t.code for group in row for t in group) for row in self.rows)

    @property
    def laid_winner(self) -> str | None:
        """The winning tile where the scene lays it apart just after the concealed ones (`winner_apart_hand`):
        its one group of a single playing tile, no discard, that follows another group in its row; None
        where there is none."""
        lone = [group[0].code for row in self.rows for group in row[1:] if len(group) == 1 and not group[0].discard
                and group[0].code != "back" and not group[0].code.endswith("f")]
        return lone[0] if len(lone) == 1 else None

    @property
    def hand(self) -> str:
        """The hand laid out, in the scoring notation: the concealed tiles (the group not of three or four
        tiles), each set laid apart as claimed, a kong showing backs as concealed, and the bonus tiles (the
        discards are no part of it)."""
        standing: list[Tile] = []
        melds: list[Meld] = []
        bonus: list[Tile] = []
        for group in (group for row in self.rows for group in row if not any(t.discard for t in group)):
            faces = [Tile.parse(t.code) for t in group if t.code != "back"]
            if all(face.is_bonus for face in faces):
                bonus += faces
            elif len(faces) < len(group):
                melds.append(meld_of(SetKind.KONG, faces[0], True))
            elif len(group) in (3, 4) and (meld := _claimed(faces)) is not None:
                melds.append(meld)
            else:
                standing += faces
        return str(Hand(tuple(standing), tuple(melds), tuple(bonus), standing[0]))


def _claimed(faces: list[Tile]) -> Meld | None:
    """Three or four faces as a claimed chow, pung or kong; None where they are no set (the concealed
    tiles may be four, their winning tile laid apart)."""
    try:
        return Meld.from_tiles(faces, concealed=False)
    except NotASetError:
        return None


def load_specs(path: Path = SPECS) -> list[SceneSpec]:
    """The committed scene specs."""
    return [SceneSpec.from_json(item) for item in json.loads(path.read_text())["scenes"]]


def load_boxes(path: Path = SPECS) -> dict[int, list[list[list[int]]]]:
    """The committed tile boxes per scene seed (see `tile_boxes`)."""
    return {item["seed"]: item["boxes"] for item in json.loads(path.read_text())["scenes"]}


# ---------------------------------------------------------------- hands

SUITED = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10))
HONOURS = tuple(f"{r}z" for r in range(1, 8))
ORDER = {code: i for i, code in enumerate(SUITED + HONOURS)}


def _meld(rng: np.random.Generator, counts: dict[str, int]) -> tuple[str, ...]:
    """A random chow or pung (sometimes a kong) that keeps every count at most 4."""
    while True:
        if rng.random() < 0.5:
            start = SUITED[int(rng.integers(27))]
            rank, suit = int(start[0]), start[1]
            if rank > 7:
                continue
            tiles = tuple(f"{rank + i}{suit}" for i in range(3))
        else:
            code = (SUITED + HONOURS)[int(rng.integers(34))]
            tiles = (code,) * (4 if rng.random() < 0.15 else 3)
        if all(counts.get(t, 0) + tiles.count(t) <= 4 for t in set(tiles)):
            for t in tiles:
                counts[t] = counts.get(t, 0) + 1
            return tiles


def _exposed(rng: np.random.Generator, meld: tuple[str, ...]) -> tuple[Placed, ...]:
    """An exposed set; now and then the claimed tile lies sideways."""
    turned = int(rng.integers(len(meld))) if rng.random() < 0.4 else -1
    return tuple(Placed(t, i == turned) for i, t in enumerate(meld))


def random_hand(rng: np.random.Generator) -> tuple[Row, ...]:
    """A winning hand: 4 sets + pair, 0-3 sets exposed, maybe a concealed kong and flowers."""
    standing, others = _hand_groups(rng)
    return _laid_rows(rng, (standing,), others)


def winner_apart_hand(rng: np.random.Generator) -> tuple[Row, ...]:
    """A winning hand as `random_hand` draws one, but one of its standing tiles (the winning tile, as
    players often show it) laid apart just after the others."""
    standing, others = _hand_groups(rng)
    k = int(rng.integers(len(standing)))
    return _laid_rows(rng, (standing[:k] + standing[k + 1:], standing[k:k + 1]), others)


def _hand_groups(rng: np.random.Generator) -> tuple[tuple[Placed, ...], list[tuple[Placed, ...]]]:
    """A winning hand's standing tiles (sorted), and its other groups: concealed kongs showing backs,
    0-3 exposed sets, and maybe flowers."""
    counts: dict[str, int] = {}
    melds = [_meld(rng, counts) for _ in range(4)]
    pair = _meld_pair(rng, counts)
    n_exposed = int(rng.integers(0, 4))
    standing = sorted([t for m in melds[n_exposed:] if len(m) == 3 for t in m] + list(pair),
                      key=ORDER.__getitem__)
    groups = []
    for meld in melds[n_exposed:]:
        if len(meld) == 4:  # concealed kong: the two end tiles face down
            groups.append(tuple(Placed("back" if i in (0, 3) else t) for i, t in enumerate(meld)))
    groups += [_exposed(rng, m) for m in melds[:n_exposed]]
    if rng.random() < 0.35:
        groups.append(_bonus_group(rng, (1, 3)))
    return tuple(Placed(t) for t in standing), groups


def _laid_rows(rng: np.random.Generator, concealed: tuple[tuple[Placed, ...], ...],
               others: list[tuple[Placed, ...]]) -> tuple[Row, ...]:
    """The concealed groups and the others in one row, or half the time (when there are others) the
    others in a row above the concealed ones."""
    if others and rng.random() < 0.5:
        return (tuple(others), concealed)
    return (concealed + tuple(others),)


def discarded_hand(rng: np.random.Generator) -> tuple[Row, ...]:
    """A winning hand laid out as `random_hand` lays one, beyond it a row of four to eight discards lying
    apart, each turned by up to DISCARD_TURN either way (a photo taken at the table shows them), of playing
    tiles the hand leaves (at most four of one)."""
    rows = random_hand(rng)
    counts = dict(Counter(t.code for row in rows for group in row for t in group))
    discards = _drawn(rng, counts, int(rng.integers(4, 9)))
    return (tuple((Placed(code, discard=True),) for code in discards), *rows)


def flowered_hand(rng: np.random.Generator) -> tuple[Row, ...]:
    """A winning hand laid out as `random_hand` lays one, but with three or four bonus tiles laid apart
    together at the end (a player who drew that many; `random_hand` lays out at most two)."""
    rows = [tuple(group for group in row if not all(t.code.endswith("f") for t in group)) for row in random_hand(rng)]
    rows = [row for row in rows if row]
    rows[-1] += (_bonus_group(rng, (3, 5)),)
    return tuple(rows)


def _bonus_group(rng: np.random.Generator, sizes: tuple[int, int]) -> tuple[Placed, ...]:
    """Distinct bonus tiles laid apart together, in order: as many as drawn from ``sizes`` (low,
    high exclusive)."""
    picked = rng.choice(8, size=int(rng.integers(*sizes)), replace=False)
    return tuple(Placed(f"{int(f) + 1}f") for f in sorted(picked))


def _meld_pair(rng: np.random.Generator, counts: dict[str, int]) -> tuple[str, str]:
    while True:
        code = (SUITED + HONOURS)[int(rng.integers(34))]
        if counts.get(code, 0) <= 2:
            counts[code] = counts.get(code, 0) + 2
            return (code, code)


def random_set(rng: np.random.Generator) -> tuple[Row, ...]:
    """Tiles of a set laid out in rows, as photos of a set show them (not a hand): a suit's nine (or a
    run of them), the winds and dragons (maybe two bonus tiles after), bonus tiles, two to four rows
    of one suit, a grid of tiles drawn at random (a row each), or two suits' rows with an honour or
    two laid apart."""
    suit = "mps"[int(rng.integers(3))]
    nine = [f"{rank}{suit}" for rank in range(1, 10)]
    kind = int(rng.integers(6))
    if kind == 0:
        rows = [[nine[int(rng.integers(3)):int(rng.integers(7, 10))]]]
    elif kind == 1:
        bonus = [f"{int(f) + 1}f" for f in rng.choice(8, size=2, replace=False)] if rng.random() < 0.5 else []
        rows = [[[f"{rank}z" for rank in (1, 2, 3, 4, 7, 6, 5)] + bonus]]
    elif kind == 2:
        rows = [[[f"{int(f) + 1}f" for f in rng.permutation(8)[:int(rng.integers(4, 9))]]]]
    elif kind == 3:
        rows = [[nine] for _ in range(int(rng.integers(2, 5)))]
    elif kind == 4:
        counts: dict[str, int] = {}
        rows = [[_drawn(rng, counts, int(rng.integers(2, 6)))] for _ in range(int(rng.integers(2, 6)))]
    else:
        other = [f"{rank}{'mps'.replace(suit, '')[int(rng.integers(2))]}" for rank in range(1, 10)]
        honours = [f"{int(rank) + 1}z" for rank in rng.choice(7, size=int(rng.integers(1, 3)), replace=False)]
        rows = [[nine], [other[:int(rng.integers(5, 10))], honours]]
    return tuple(tuple(tuple(Placed(code) for code in group) for group in row) for row in rows)


def _drawn(rng: np.random.Generator, counts: dict[str, int], size: int) -> list[str]:
    """``size`` playing tiles drawn at random, at most four of each (``counts`` so far)."""
    drawn: list[str] = []
    while len(drawn) < size:
        code = (SUITED + HONOURS)[int(rng.integers(34))]
        if counts.get(code, 0) < 4:
            counts[code] = counts.get(code, 0) + 1
            drawn.append(code)
    return drawn


def make_specs(count: int, seed: int = 2026,
               layout: Callable[[np.random.Generator], tuple[Row, ...]] = random_hand) -> list[SceneSpec]:
    """`count` scene specs from one master seed, laid out by `layout` (a hand; `random_set`: a set)."""
    specs = []
    for index in range(count):
        rng = np.random.default_rng([seed, index])
        specs.append(SceneSpec(seed * 1000 + index, layout(rng),
                               tuple(BODIES)[index % len(BODIES)],
                               tuple(BACKGROUNDS)[int(rng.integers(len(BACKGROUNDS)))]))
    return specs


# ---------------------------------------------------------------- rendering

@dataclass(frozen=True)
class Frame:
    """How a scene is framed: the image's size (w, h) and how far the camera stands, as the share of
    the usual width the hand spans (0.4: the hand is seen from two and a half times as far, in an image
    as large as a 12-megapixel photo, say)."""

    size: tuple[int, int] = OUTPUT
    span: float = 1.0


FRAME = Frame()
FAR = Frame((4032, 3024), 0.4)  # a hand far from a phone's camera: faces about 100 pixels tall, 25 where looked for


@dataclass(frozen=True)
class Camera:
    """View and light of one scene, all drawn from its seed."""

    tilt: float  # degrees from straight down
    turn: float  # degrees in the image plane
    fill: float  # share of the image width the hand spans
    light: tuple[float, float, float]  # RGB gain (warm or cold)
    gradient: float  # light fall-off across the image
    glare: bool
    shadow: tuple[int, int]

    @classmethod
    def from_seed(cls, seed: int) -> "Camera":
        rng = np.random.default_rng([seed, 1])
        warm = rng.random() < 0.5
        light = (1.06, 1.0, 0.86) if warm else (0.9, 0.97, 1.08)
        return cls(float(rng.uniform(0, 45)), float(rng.uniform(-30, 30)), float(rng.uniform(0.7, 0.95)),
                   light, float(rng.uniform(0.0, 0.35)), bool(rng.random() < 0.25),
                   (int(rng.integers(-14, 15)), int(rng.integers(4, 20))))


@lru_cache(maxsize=1)
def _faces() -> dict[str, np.ndarray]:
    """The held-out style's 42 faces (RGBA, cropped to their ink) via datasets.artwork."""
    if not TILESET.exists():
        raise SceneError(f"{TILESET} is missing: apt-get install kdegames-mahjongg-data-kf5")
    faces = {face.code: face.image for face in load_source(STYLE)}
    missing = sorted(set(FACE_CLASSES) - set(faces))
    if missing:
        raise SceneError(f"{STYLE} lacks faces {missing}; re-render it (delete its face cache)")
    return faces


@lru_cache(maxsize=64)
def _face(code: str) -> Image.Image:
    """One face fitted (aspect kept) and centred in FACE, transparent around."""
    ink = Image.fromarray(_faces()[code])
    scale = min(0.94 * FACE[0] / ink.width, 0.94 * FACE[1] / ink.height)
    ink = ink.resize((max(1, round(ink.width * scale)), max(1, round(ink.height * scale))), Image.LANCZOS)
    face = Image.new("RGBA", FACE, (0, 0, 0, 0))
    face.alpha_composite(ink, ((FACE[0] - ink.width) // 2, (FACE[1] - ink.height) // 2))
    return face


@lru_cache(maxsize=256)
def _tile(placed: Placed, body: str) -> Image.Image:
    """A standing tile seen from the front: rim, face (or back colour), thickness below."""
    face_rgb, back_rgb = BODIES[body]
    width, height = FACE[0] + 2 * MARGIN, FACE[1] + 2 * MARGIN
    tile = Image.new("RGBA", (width, height + DEPTH), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    side = tuple(int(c * 0.78) for c in face_rgb)
    draw.rounded_rectangle((0, DEPTH // 2, width - 1, height + DEPTH - 1), 16, fill=back_rgb + (255,))
    draw.rounded_rectangle((0, 0, width - 1, height + DEPTH // 3), 16, fill=side + (255,))
    draw.rounded_rectangle((1, 0, width - 2, height - 2), 15,
                           fill=(back_rgb if placed.code == "back" else face_rgb) + (255,))
    if placed.code != "back":
        face = _face(placed.code)
        tile.alpha_composite(face, (MARGIN, MARGIN))
    return tile.rotate(90, expand=True) if placed.sideways else tile


TOP = (FACE[0] + 2 * MARGIN, FACE[1] + 2 * MARGIN)  # a tile's front surface (w, h), rim included
DISCARD_TURN = 35.0  # degrees: a discard lies turned by up to this much either way


def _size(placed: Placed) -> tuple[int, int]:
    """(w, h) of a tile's image: front surface plus thickness, turned when it lies sideways."""
    return (TOP[1] + DEPTH, TOP[0]) if placed.sideways else (TOP[0], TOP[1] + DEPTH)


@dataclass(frozen=True)
class Layout:
    """Where each tile lies in the flat plane (top-left corners, reading order) and the plane size."""

    size: tuple[int, int]
    tiles: tuple[tuple[Placed, int, int, float], ...]  # a tile, its top-left corner, its turn (degrees)

    @classmethod
    def of(cls, spec: SceneSpec, rng: np.random.Generator) -> "Layout":
        """Groups touching inside, laid apart between; rows stacked with a margin."""
        pad, rows = FACE[1] // 2, []
        for row in spec.rows:
            loose = all(t.discard for group in row for t in group)  # discards lie at any angle, further apart
            gaps = [int(rng.uniform(*((0.8, 1.4) if loose else (0.3, 0.9))) * FACE[0]) for _ in row]
            height, x, placed = max(_size(t)[1] for group in row for t in group), 0, []
            for gap, group in zip([0] + gaps[1:], row):
                x += gap
                for tile in group:
                    turn = float(rng.uniform(-DISCARD_TURN, DISCARD_TURN)) if tile.discard else 0.0
                    placed.append((tile, x, height - _size(tile)[1], turn))
                    x += _size(tile)[0] - int(rng.integers(0, 2))
            rows.append((placed, sum(_size(t)[0] for g in row for t in g) + sum(gaps[1:]), height))
        tiles, y = [], pad
        for placed, _, height in rows:
            dx = pad + int(rng.integers(0, pad // 2))
            tiles += [(tile, x + dx, ty + y, turn) for tile, x, ty, turn in placed]
            y += height + pad
        return cls((max(w for _, w, _ in rows) + 2 * pad, y), tuple(tiles))

    def tops(self) -> np.ndarray:
        """(N, 4, 2) corners of each tile's front surface: top-left, top-right, bottom-right, bottom-left."""
        quads = []
        for tile, x, y, turn in self.tiles:
            w, h = TOP[::-1] if tile.sideways else TOP
            quad = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
            centre = np.float32([x, y]) + np.float32(_size(tile)) / 2
            c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))  # turned counter-clockwise, as PIL turns
            quads.append((quad - centre) @ np.float32([[c, -s], [s, c]]) + centre)
        return np.array(quads, dtype=np.float32).reshape(-1, 4, 2)


def _plane(spec: SceneSpec, layout: Layout) -> Image.Image:
    """All tiles drawn flat at their layout positions (transparent elsewhere)."""
    plane = Image.new("RGBA", layout.size, (0, 0, 0, 0))
    for tile, x, y, turn in layout.tiles:
        image = _tile(tile, spec.body)
        if turn:
            width, height = image.size
            image = image.rotate(turn, resample=Image.BICUBIC, expand=True)
            x, y = x + (width - image.width) // 2, y + (height - image.height) // 2
        plane.alpha_composite(image, (x, y))
    return plane


def _homography(size: tuple[int, int], camera: Camera, frame: Frame) -> np.ndarray:
    """Plane -> image: turn in the plane, tilt about the horizontal axis, fit into the frame."""
    w, h = size
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    a, t = np.radians(camera.turn), np.radians(camera.tilt)
    turned = corners @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    depth = turned[:, 1] * np.sin(t) + 2.5 * max(w, h)
    projected = np.stack([turned[:, 0], turned[:, 1] * np.cos(t)], axis=1) / depth[:, None]
    span = projected.max(axis=0) - projected.min(axis=0)
    width, height = frame.size
    scale = min(camera.fill * width / span[0], 0.9 * height / span[1]) * frame.span
    placed = (projected - projected.mean(axis=0)) * scale + np.array(frame.size) / 2
    return cv2.getPerspectiveTransform((corners + [w / 2, h / 2]).astype(np.float32),
                                       placed.astype(np.float32))


def _smooth_noise(rng: np.random.Generator, cells: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    small = rng.random((cells[1], cells[0])).astype(np.float32)
    return cv2.resize(small, size, interpolation=cv2.INTER_CUBIC)


def _pattern(kind: str, rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """Per-pixel shade (about 1) or, for gingham, the share of colour over white."""
    ys, xs = np.mgrid[0:size[1], 0:size[0]].astype(np.float32)
    fine = rng.normal(0, 1, (size[1], size[0])).astype(np.float32)
    if kind == "wood":
        return 0.75 + 0.25 * (np.sin((ys + 40 * _smooth_noise(rng, (4, 6), size)) * 0.09) * 0.5 + 0.5) + 0.03 * fine
    if kind == "plaid":
        return 0.8 + ((xs // 36) % 3 == 0) * 0.25 + ((ys // 36) % 3 == 0) * 0.25 + 0.04 * fine
    if kind == "gingham":
        return np.clip(((xs // 28) % 2 + (ys // 28) % 2) / 2 + 0.03 * fine, 0, 1)
    return 0.85 + 0.25 * _smooth_noise(rng, (5, 4), size) + 0.04 * np.sin(xs * 1.3) * np.sin(ys * 1.3) + 0.05 * fine


def _texture(name: str, rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A procedural table texture, float RGB in 0..255."""
    colour, kind = (BACKGROUNDS | LIGHT_TABLES)[name]
    shade = _pattern(kind, rng, size)[..., None]
    if kind == "gingham":
        return shade * np.array(colour) + (1 - shade) * np.array([232, 232, 236])
    return shade * np.array(colour)


def _light(image: np.ndarray, camera: Camera, rng: np.random.Generator) -> np.ndarray:
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xs * np.cos(angle) + ys * np.sin(angle)) / max(width, height)
    gain = 1.0 + camera.gradient * (ramp - ramp.mean())
    image = image * gain[..., None] * np.array(camera.light)
    if camera.glare:
        cx, cy = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
        image += 60 * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * 90.0 ** 2))[..., None]
    image += rng.normal(0, 3, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


def render(spec: SceneSpec, frame: Frame = FRAME) -> np.ndarray:
    """The scene as an RGB uint8 image of the frame's size (deterministic in the spec)."""
    rng = np.random.default_rng([spec.seed, 2])
    camera = Camera.from_seed(spec.seed)
    layout = Layout.of(spec, rng)
    plane = np.asarray(_plane(spec, layout), dtype=np.float32)
    matrix = _homography(layout.size, camera, frame)
    warped = cv2.warpPerspective(plane, matrix, frame.size, flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3:] / 255.0
    shift = np.float32([[1, 0, camera.shadow[0]], [0, 1, camera.shadow[1]]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(alpha[..., 0], shift, frame.size), (0, 0), 9)[..., None]
    table = _texture(spec.background, rng, frame.size) * (1 - 0.55 * shadow)
    return _light(table * (1 - alpha) + warped[..., :3] * alpha, camera, rng)


def tile_boxes(spec: SceneSpec, frame: Frame = FRAME) -> list[list[list[int]]]:
    """Each tile's front surface in the rendered image (reading order), four corners
    top-left, top-right, bottom-right, bottom-left of the tile as laid, rounded to pixels."""
    layout = Layout.of(spec, np.random.default_rng([spec.seed, 2]))
    matrix = _homography(layout.size, Camera.from_seed(spec.seed), frame)
    quads = cv2.perspectiveTransform(layout.tops().reshape(-1, 1, 2), matrix).reshape(-1, 4, 2)
    return np.rint(quads).astype(int).tolist()


def cache_path(spec: SceneSpec, frame: Frame = FRAME) -> Path:
    """Where the scene's JPEG is cached: the name carries a digest of the spec, RENDER_VERSION
    and any other frame than the usual, so a changed spec or renderer never reuses a stale image."""
    framing = [] if frame == FRAME else [list(frame.size), frame.span]
    key = json.dumps([RENDER_VERSION, spec.to_json(), *framing], sort_keys=True).encode()
    return CACHE / f"{spec.seed}-{hashlib.sha1(key).hexdigest()[:10]}.jpg"


def cached(spec: SceneSpec, frame: Frame = FRAME) -> Path:
    """Path of the scene's JPEG in the cache, rendering it first if needed."""
    path = cache_path(spec, frame)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(render(spec, frame)).save(path, quality=90)
    return path


def contact_sheet(specs: list[SceneSpec], out: Path, columns: int = 4) -> None:
    """Up to 16 scenes, 1000 px wide."""
    cell = (250, 188)
    shown = specs[:16]
    sheet = Image.new("RGB", (cell[0] * columns, cell[1] * ((len(shown) + columns - 1) // columns)))
    for i, spec in enumerate(shown):
        thumb = Image.open(cached(spec)).resize(cell)
        sheet.paste(thumb, ((i % columns) * cell[0], (i // columns) * cell[1]))
    sheet.save(out)


def write_specs(specs: list[SceneSpec], path: Path = SPECS) -> None:
    """Specs with their labels (tiles per row and tile boxes), one scene a line."""
    about = ("evaluation scenes: seed, body, table, rows of groups (`*` = sideways) and each tile's front "
             "surface in the 1280x960 render (reading order; corners TL TR BR BL of the tile as laid); "
             "render with datasets.scenes.render (KMahjongg traditional faces, not committed)")
    lines = [json.dumps({**spec.to_json(), "boxes": tile_boxes(spec)}) for spec in specs]
    path.write_text(json.dumps({"about": about})[:-1] + ', "scenes": [\n' + ",\n".join(lines) + "\n]}\n")


def main(argv: list[str] | None = None) -> int:
    """`--write N` rewrites the committed specs; `--sheet OUT.png` renders a contact sheet."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=int, metavar="N", help="write N specs to " + str(SPECS))
    parser.add_argument("--sheet", type=Path, help="render a contact sheet of the first scenes")
    args = parser.parse_args(argv)
    if args.write:
        write_specs(make_specs(args.write))
    if args.sheet:
        contact_sheet(load_specs(), args.sheet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
