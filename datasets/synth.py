"""Synthetic tile crops for training the classifier (numpy + OpenCV, seeded).

A scene is drawn at tile resolution: a table texture, the tile (artwork face
composited on a body, or a plain coloured back), neighbours touching at the
edges, a side wall with a coloured back layer. A crop quad around the tile is
jittered (tightness, perspective, small rotation) and warped to CROP_SIZE,
then photographic effects are applied (lighting gradient, shadow, glare,
colour cast, blur, noise, JPEG). `none` crops look between or beside tiles, or
at part of a tile stretched to a whole face (as where the photo's edge cuts a tile).

Evaluation scenes must not use TRAIN_BODIES, TRAIN_BACKS or TRAIN_BACKGROUNDS
colours (nor the KMahjongg `traditional` artwork).
"""

from __future__ import annotations

from dataclasses import dataclass
from multiprocessing import Pool
from typing import Callable

import cv2
import numpy as np

from datasets.artwork import Face, cache_dir, load_faces
from scoring.tiles import Tile
from vision.classify import CLASSES

CROP_SIZE = (96, 72)  # (h, w) of the cached crops; the model input is smaller
TILE_SIZE = (120, 90)  # (h, w) of a tile face in the drawn scene
TRAIN_BODIES = {"ivory": (236, 226, 200), "white": (244, 243, 238), "yellowed": (226, 208, 162),
                "cream": (240, 232, 214), "grey-white": (222, 224, 222)}
TRAIN_BACKS = {"green": (38, 122, 70), "blue": (44, 78, 160), "yellow": (222, 184, 48),
               "orange": (226, 122, 42), "red": (186, 40, 44), "pink": (226, 118, 150),
               "navy": (28, 40, 96), "dark-green": (26, 80, 50)}
TRAIN_BACKGROUNDS = {"green-felt": (34, 104, 58), "dark-wood": (92, 62, 38), "light-wood": (184, 146, 98),
                     "grey-table": (118, 118, 120), "navy-cloth": (36, 48, 92), "white-table": (226, 226, 222)}
SOURCE_WEIGHTS = {"xmahjongg-real": 4.0, "xmahjongg-dorothy": 0.8, "xmahjongg-dorwhite": 0.8,
                  "gnome-smooth-0": 1.0, "gnome-smooth-1": 0.7, "gnome-postmodern": 0.8,
                  "kmahjongg-default": 1.0, "kmahjongg-jade": 0.7, "kmahjongg-classic": 0.7,
                  "font-NotoSansSymbols2-Regular": 0.8,
                  "font-Symbola_hint": 0.8, "mahjong-learner": 1.0}
INKS = ((20, 20, 20), (30, 110, 50), (180, 30, 30), (30, 50, 140))
INDEX_SHARE = 0.3  # of faces get a printed corner index, as many real sets print one (top corner, ink, font vary)
INDEX_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
               cv2.FONT_HERSHEY_TRIPLEX)
CACHE_DIR = cache_dir()
RENDER_VERSION = 14  # bump when the artwork or the generator changes (cache file names carry it)


def _jitter(colour: tuple[int, int, int], rng: np.random.Generator, amount: float = 12) -> np.ndarray:
    return np.clip(np.asarray(colour, np.float32) + rng.normal(0, amount, 3), 0, 255)


def back_colour(rng: np.random.Generator) -> np.ndarray:
    """One of TRAIN_BACKS, jittered: the colour of a tile's back layer or of a face-down tile."""
    return _jitter(list(TRAIN_BACKS.values())[rng.integers(len(TRAIN_BACKS))], rng)


def texture(shape: tuple[int, int], colour: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A float RGB surface: base colour, low-frequency blotches, fine grain, optional stripes."""
    h, w = shape
    low = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    grain = rng.normal(0, rng.uniform(2, 9), (h, w)).astype(np.float32)
    stripes = np.sin(np.arange(w, dtype=np.float32) / rng.uniform(2, 9))[None, :] * rng.uniform(0, 8)
    shade = low * rng.uniform(3, 14) + grain + (stripes if rng.random() < 0.3 else 0)
    return np.clip(colour[None, None, :] + shade[:, :, None], 0, 255)


def _alpha_over(base: np.ndarray, rgba: np.ndarray, box: tuple[int, int, int, int]) -> None:
    x, y, w, h = box
    art = cv2.resize(rgba, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = art[:, :, 3:4] / 255.0
    region = base[y:y + h, x:x + w]
    region[:] = region * (1 - alpha) + art[:, :, :3] * alpha


def prepare_face(face: Face, rng: np.random.Generator) -> np.ndarray:
    """Face RGBA with source-specific fixes: inverted jade art, coloured glyph ink."""
    image = face.image.copy()
    if face.source == "kmahjongg-jade":
        image[:, :, :3] = 255 - image[:, :, :3]
    elif face.source.startswith("font-"):
        image[:, :, :3] = _jitter(INKS[rng.integers(len(INKS))], rng, 15)
    return image


def draw_tile(face: Face | None, rng: np.random.Generator, back: np.ndarray | None = None,
              turned: bool | None = None) -> np.ndarray:
    """One tile face (float RGB, TILE_SIZE): artwork on a body, or a plain back when face is None; a
    face turned half round a quarter of the time, or as `turned` says (its side wall stays below)."""
    if face is None:
        return texture(TILE_SIZE, back, rng)
    body = face_on_body(face, rng)
    mark = corner_index(face.code)
    if mark and rng.random() < INDEX_SHARE:
        draw_index(body, mark, rng)
    if (rng.random() < 0.25) if turned is None else turned:
        body = body[::-1, ::-1]
    return edged(body)


def face_on_body(face: Face, rng: np.random.Generator) -> np.ndarray:
    """The artwork of `face` on a textured body of a TRAIN_BODIES colour (float RGB, TILE_SIZE, upright)."""
    h, w = TILE_SIZE
    body = texture((h, w), _jitter(list(TRAIN_BODIES.values())[rng.integers(len(TRAIN_BODIES))], rng), rng)
    art = prepare_face(face, rng)
    if face.has_body:
        _alpha_over(body, art, (0, 0, w, h))
    else:
        scale = rng.uniform(0.74, 0.92) * min(w / art.shape[1], h / art.shape[0])
        aw, ah = max(4, int(art.shape[1] * scale)), max(4, int(art.shape[0] * scale))
        x = (w - aw) // 2 + int(rng.integers(-3, 4))
        y = (h - ah) // 2 + int(rng.integers(-3, 4))
        _alpha_over(body, art, (int(np.clip(x, 0, w - aw)), int(np.clip(y, 0, h - ah)), aw, ah))
    return body


def edged(body: np.ndarray) -> np.ndarray:
    """A face with its outermost 3 pixels darkened (the rounded edge of a tile)."""
    h, w = body.shape[:2]
    edge = np.ones((h, w), np.float32)
    edge[:3], edge[-3:], edge[:, :3], edge[:, -3:] = 0.85, 0.85, 0.85, 0.85
    return body * edge[:, :, None]


def corner_index(code: str) -> str:
    """What a set prints in a face's corner: the number of a suit tile, a wind's initial, a bonus
    tile's number 1-4; dragons print none ("")."""
    tile = Tile.parse(code)
    if tile.is_honor:
        return "ESWN"[tile.rank - 1] if tile.is_wind else ""
    return str(tile.number)


def draw_index(body: np.ndarray, mark: str, rng: np.random.Generator) -> None:
    """Print `mark` in a top corner of an upright float RGB face (in place): at the bottom it
    would make a 9 turned round (a 180-degree turn comes later) look like an upright 6."""
    h, w = body.shape[:2]
    font = INDEX_FONTS[rng.integers(len(INDEX_FONTS))]
    scale, thickness = rng.uniform(0.55, 0.95), int(rng.integers(1, 4))
    (tw, th), _ = cv2.getTextSize(mark, font, scale, thickness)
    margin = int(rng.integers(3, 9))
    x = margin if rng.random() < 0.5 else w - tw - margin
    y = th + margin
    ink = np.zeros((h, w), np.uint8)
    cv2.putText(ink, mark, (x, y), font, scale, 255, thickness, cv2.LINE_AA)
    alpha = ink[:, :, None].astype(np.float32) / 255.0
    body[:] = body * (1 - alpha) + _jitter(INKS[rng.integers(len(INKS))], rng, 15) * alpha


@dataclass(frozen=True)
class Scene:
    """A drawn scene and the corners of its centre tile's face (x, y), clockwise from top-left."""

    image: np.ndarray
    corners: np.ndarray


def draw_scene(centre: np.ndarray, neighbours: list[np.ndarray], rng: np.random.Generator) -> Scene:
    """Centre tile with optional touching neighbours left/right, a side wall, on a table."""
    h, w = TILE_SIZE
    canvas = texture((h * 3, w * 4), _jitter(list(TRAIN_BACKGROUNDS.values())[
        rng.integers(len(TRAIN_BACKGROUNDS))], rng, 20), rng)
    x0, y0 = int(w * 1.5), h
    back = back_colour(rng)
    wall = int(rng.uniform(0, 0.25) * h)
    layer = int(wall * rng.uniform(0.3, 0.7))
    gap = int(rng.integers(0, 4))
    for index, tile in enumerate([centre] + neighbours):
        x = x0 + (0, -(w + gap), w + gap)[index]
        canvas[y0:y0 + h, x:x + w] = tile
        canvas[y0 + h:y0 + h + wall - layer, x:x + w] = tile[-1:] * 0.78
        canvas[y0 + h + wall - layer:y0 + h + wall, x:x + w] = back * 0.8
    corners = np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float32)
    return Scene(canvas, corners)


def crop_quad(corners: np.ndarray, rng: np.random.Generator, shift: tuple[float, float] = (0, 0)) -> np.ndarray:
    """Jitter a face quad: tightness, per-corner perspective, small rotation, optional shift."""
    centre = corners.mean(axis=0)
    size = corners.max(axis=0) - corners.min(axis=0)
    grow = rng.uniform(-0.05, 0.10)
    quad = centre + (corners - centre) * (1 + grow)
    quad += rng.normal(0, 0.03, quad.shape) * size + np.asarray(shift) * size
    angle = np.deg2rad(rng.normal(0, 3))
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    return ((quad - centre) @ rotation.T + centre).astype(np.float32)


def warp(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Warp the quad of a float image to a CROP_SIZE float crop."""
    h, w = CROP_SIZE
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    return cv2.warpPerspective(image.astype(np.float32), matrix, (w, h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REFLECT)


def photo_effects(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Lighting gradient, shadow, glare, colour cast, blur, noise and JPEG; float in, uint8 out."""
    h, w = crop.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    direction = rng.normal(0, 1, 2)
    ramp = (xx / w - 0.5) * direction[0] + (yy / h - 0.5) * direction[1]
    out = crop * (rng.uniform(0.7, 1.15) + 0.25 * ramp)[:, :, None]
    if rng.random() < 0.3:
        edge = rng.uniform(-0.3, 0.3) + (xx / w if rng.random() < 0.5 else yy / h)
        out *= np.where(edge < rng.uniform(0.1, 0.5), rng.uniform(0.55, 0.85), 1.0)[:, :, None]
    if rng.random() < 0.25:
        cx, cy, radius = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.08, 0.35) * w
        out += (rng.uniform(80, 255) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius ** 2)))[:, :, None]
    out = out * rng.uniform(0.88, 1.12, 3)[None, None, :] + rng.normal(0, 8)
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3))
    out += rng.normal(0, rng.uniform(0, 7), out.shape)
    image = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    return image


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A normalised filter kernel smearing along a line `length` pixels long at `angle` degrees, as a
    camera moving while the shutter is open smears a photo (drawn anti-aliased at 8 times the size,
    then shrunk)."""
    size, scale = int(np.ceil(length)) | 1, 8
    reach = (length - 1) / 2 * scale * np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    centre = np.full(2, size * scale / 2)
    canvas = np.zeros((size * scale, size * scale), np.float32)
    start, end = (tuple(np.round(centre + sign * reach).astype(int).tolist()) for sign in (-1, 1))
    cv2.line(canvas, start, end, 1.0, scale, cv2.LINE_AA)
    kernel = cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)
    return kernel / kernel.sum()


class Generator:
    """Seeded crop generator over a list of artwork faces."""

    def __init__(self, faces: list[Face]) -> None:
        self.faces = faces
        self.by_code = {code: [f for f in faces if f.code == code] for code in CLASSES[:42]}

    def pick(self, code: str, rng: np.random.Generator) -> Face:
        """A face of `code`, photo-like sources weighted higher."""
        options = self.by_code[code]
        weights = np.array([SOURCE_WEIGHTS.get(f.source, 1.0) for f in options])
        return options[rng.choice(len(options), p=weights / weights.sum())]

    def random_tile(self, rng: np.random.Generator, turned: bool | None = None) -> np.ndarray:
        """A neighbour: a random face, sometimes a back."""
        if rng.random() < 0.15:
            return draw_tile(None, rng, back_colour(rng))
        return draw_tile(self.pick(CLASSES[rng.integers(42)], rng), rng, turned=turned)

    def sample(self, code: str, rng: np.random.Generator, turned: bool | None = None) -> np.ndarray:
        """One uint8 RGB crop (CROP_SIZE) of class `code`; its face and its neighbours' turned half round
        as `turned` says (by default each a quarter of the time)."""
        if code in ("back", "none"):
            centre = draw_tile(None, rng, back_colour(rng))
            if code == "none":
                centre = self.random_tile(rng, turned)
        else:
            centre = draw_tile(self.pick(code, rng), rng, turned=turned)
        neighbours = [self.random_tile(rng, turned) if rng.random() < 0.6 else None for _ in range(2)]
        scene = draw_scene(centre, [n if n is not None else self.table_surface(rng) for n in neighbours], rng)
        corners, shift = scene.corners, (0.0, 0.0)
        if code == "none":
            if rng.random() < PART_SHARE:
                corners = part_of(corners, rng)
            else:
                shift = NONE_SHIFTS[rng.integers(len(NONE_SHIFTS))]
        return photo_effects(warp(scene.image, crop_quad(corners, rng, shift)), rng)

    @staticmethod
    def table_surface(rng: np.random.Generator) -> np.ndarray:
        """A patch of a TRAIN_BACKGROUNDS table, a tile's size (where no neighbour stands)."""
        colour = _jitter(list(TRAIN_BACKGROUNDS.values())[rng.integers(len(TRAIN_BACKGROUNDS))], rng, 20)
        return texture(TILE_SIZE, colour, rng)


# Where `none` crops look, in tile sizes: between two tiles, half off an edge, off the tiles.
NONE_SHIFTS = ((0.5, 0.0), (-0.5, 0.0), (0.0, 0.6), (0.0, -0.7), (0.45, 0.5), (0.0, 1.1), (1.6, 0.0),
               (0.0, -1.0))


PART_SHARE = 0.25  # of the `none` crops show part of one tile stretched to a whole face (a tile the photo's edge cuts)
PART_KEPT = (0.2, 0.6)  # ... this share of its width


def part_of(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The quad of the left or right part of a face quad (top-left, top-right, bottom-right, bottom-left)."""
    kept = rng.uniform(*PART_KEPT)
    tl, tr, br, bl = corners
    if rng.random() < 0.5:
        return np.array([tl, tl + (tr - tl) * kept, bl + (br - bl) * kept, bl], np.float32)
    return np.array([tr + (tl - tr) * kept, tr, br, br + (bl - br) * kept], np.float32)


def augment_real(image: np.ndarray, rng: np.random.Generator, turned: bool | None = None) -> np.ndarray:
    """A real crop re-photographed: quad jitter, turned half round a quarter of the time (or as `turned`
    says), photo effects (uint8 CROP_SIZE)."""
    h, w = image.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    crop = warp(image.astype(np.float32), crop_quad(corners, rng))
    if (rng.random() < 0.25) if turned is None else turned:
        crop = crop[::-1, ::-1]
    return photo_effects(crop, rng)


_WORKER: Generator | None = None


def _init_worker() -> None:
    global _WORKER
    _WORKER = Generator(load_faces()[0])


def _render_chunk(task: tuple[int, list[int]]) -> np.ndarray:
    seed, labels = task
    rng = np.random.default_rng(seed)
    return np.stack([_WORKER.sample(CLASSES[label], rng) for label in labels])


def render(per_class: int, seed: int, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(images N x H x W x 3 uint8, labels N) with `per_class` crops of every class."""
    labels = np.repeat(np.arange(len(CLASSES)), per_class)
    np.random.default_rng(seed).shuffle(labels)
    chunks = [(seed * 1000 + i, labels[i:i + 256].tolist()) for i in range(0, len(labels), 256)]
    with Pool(workers, initializer=_init_worker) as pool:
        images = np.concatenate(pool.map(_render_chunk, chunks))
    return images, labels


def cached_chunks(prefix: str, count: int, seed: int, initializer: Callable[[], None],
                  render_chunk: Callable[[tuple[int, int]], tuple[np.ndarray, np.ndarray]],
                  workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(crops, labels) of `count` samples, rendered once per count and seed into ~/.cache/mahjong-lens
    (the file named by `prefix`): `render_chunk((chunk seed, n))` renders up to 256 of them in each of
    `workers` processes, each set up by `initializer`."""
    path = CACHE_DIR / f"{prefix}_{CROP_SIZE[0]}x{CROP_SIZE[1]}_{count}_{seed}.npz"
    if path.is_file():
        data = np.load(path)
        return data["crops"], data["labels"]
    tasks = [(seed * 1000 + i, min(256, count - start)) for i, start in enumerate(range(0, count, 256))]
    with Pool(workers, initializer=initializer) as pool:
        chunks = pool.map(render_chunk, tasks)
    crops, labels = np.concatenate([c for c, _ in chunks]), np.concatenate([l for _, l in chunks])
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, crops=crops, labels=labels)
    return crops, labels


def cached(per_class: int, seed: int, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """`render` through a cache file in ~/.cache/mahjong-lens (keyed by size, count and seed)."""
    path = CACHE_DIR / f"synth_{RENDER_VERSION}_{CROP_SIZE[0]}x{CROP_SIZE[1]}_{per_class}_{seed}.npz"
    if path.is_file():
        data = np.load(path)
        return data["images"], data["labels"]
    images, labels = render(per_class, seed, workers)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, images=images, labels=labels)
    return images, labels
