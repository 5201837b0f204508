"""Training crops for the corner-index reader (`vision.index`), seeded.

A face is drawn as `datasets.synth` draws one (artwork on a textured body, neighbours, side wall,
table, crop jitter, photo effects), with a digit 1-9 printed in its top band on most faces: in
either corner or the middle, in one of the Hershey fonts or the DejaVu / Noto Latin fonts, in
one of the inks, 8-30% of the face high, regular or bold, and never matching the artwork (the reader must read
the digit, not the picture). A quarter of the faces are turned half round. Each face gives two
labelled bands (`vision.index.band_batch`): upright and turned; only the one with the digit
upright is labelled with it.

Artwork that prints its own index (KMahjongg `default` and `jade`, xmahjongg's pixel sets, and
`gnome-postmodern`'s numbered bonus tiles) is left out: its digits sit in various places. It is
the reader's check instead (`python -m models.train_index` reports it), with the held-out art's
never used.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from datasets import synth
from datasets.artwork import Face, load_faces

PRINTED_INDEX_SOURCES = frozenset({"kmahjongg-default", "kmahjongg-jade", "xmahjongg-dorothy", "xmahjongg-dorwhite"})
DIGIT_SHARE = 0.75  # of faces get a digit
DIGIT_HEIGHT = (0.08, 0.30)  # a digit's height, as a share of the face's
TURNED_SHARE = 0.25
INDEX_RENDER_VERSION = 2  # bump when the generator changes (cache file names carry it)
FONT_GLOBS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif*.ttf",
              "/usr/share/fonts/truetype/noto/NotoSans-*.ttf", "/usr/share/fonts/truetype/noto/NotoSerif-*.ttf")


def font_files() -> list[Path]:
    """The installed Latin TrueType fonts digits are printed in (besides the Hershey fonts)."""
    return sorted(path for pattern in FONT_GLOBS for path in Path("/").glob(pattern.lstrip("/")))


def unprinted(faces: list[Face]) -> list[Face]:
    """The faces whose artwork prints no index of its own."""
    return [face for face in faces if face.source not in PRINTED_INDEX_SOURCES
            and not (face.source == "gnome-postmodern" and face.code.endswith("f"))]


def print_digit(body: np.ndarray, digit: int, fonts: list[Path], rng: np.random.Generator) -> None:
    """Print `digit` in the top band of an upright float RGB face (in place)."""
    h, w = body.shape[:2]
    height = int(rng.uniform(*DIGIT_HEIGHT) * h)
    ink = np.zeros((h, w), np.uint8)
    choice = int(rng.integers(len(fonts) + len(synth.INDEX_FONTS)))
    if choice < len(fonts):
        font = ImageFont.truetype(str(fonts[choice]), max(6, int(height * 1.35)))
        left, top, right, bottom = font.getbbox(str(digit))
        size = (right - left, bottom - top)
        x, y = _place(size, (w, h), rng)
        image = Image.fromarray(ink)
        ImageDraw.Draw(image).text((x - left, y - top), str(digit), fill=255, font=font,
                                   stroke_width=int(rng.random() < 0.3), stroke_fill=255)
        ink = np.asarray(image)
    else:
        face = synth.INDEX_FONTS[choice - len(fonts)] | (cv2.FONT_ITALIC if rng.random() < 0.2 else 0)
        thickness = int(rng.integers(1, 4))
        scale = cv2.getFontScaleFromHeight(face, height, thickness)
        (tw, th), _ = cv2.getTextSize(str(digit), face, scale, thickness)
        x, y = _place((tw, th), (w, h), rng)
        cv2.putText(ink, str(digit), (x, y + th), face, scale, 255, thickness, cv2.LINE_AA)
    alpha = ink[:, :, None].astype(np.float32) / 255.0
    colour = synth._jitter(synth.INKS[rng.integers(len(synth.INKS))], rng, 15)
    body[:] = body * (1 - alpha) + colour * alpha


def _place(size: tuple[int, int], face: tuple[int, int], rng: np.random.Generator) -> tuple[int, int]:
    """Top-left corner of a digit of `size` in the top band of a face: a corner or the middle."""
    (tw, _), (w, h) = size, face
    margin = int(rng.uniform(0.02, 0.1) * w)
    x = (margin, w - tw - margin, (w - tw) // 2)[rng.choice(3, p=(0.45, 0.45, 0.1))]
    return max(0, x + int(rng.integers(-2, 3))), margin + int(rng.integers(0, max(1, h // 30)))


def sample(generator: synth.Generator, fonts: list[Path], rng: np.random.Generator) -> tuple[np.ndarray, tuple[int, int]]:
    """One uint8 face crop (synth.CROP_SIZE) and the digits (0: none) its two bands show upright
    (`vision.index.band_batch`: the crop's top band, then the turned crop's)."""
    faces = generator.faces
    body = synth.face_on_body(faces[rng.integers(len(faces))], rng)
    digit = 0
    if rng.random() < DIGIT_SHARE:
        digit = int(rng.integers(1, 10))
        print_digit(body, digit, fonts, rng)
    turned = rng.random() < TURNED_SHARE
    if turned:
        body = body[::-1, ::-1]
    neighbours = [generator.random_tile(rng) if rng.random() < 0.6 else generator.table_surface(rng) for _ in range(2)]
    scene = synth.draw_scene(synth.edged(body), neighbours, rng)
    crop = synth.photo_effects(synth.warp(scene.image, synth.crop_quad(scene.corners, rng)), rng)
    return crop, ((0, digit) if turned else (digit, 0))


_WORKER: tuple[synth.Generator, list[Path]] | None = None


def _init_worker() -> None:
    global _WORKER
    _WORKER = synth.Generator(unprinted(load_faces()[0])), font_files()


def _render_chunk(task: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, count = task
    rng = np.random.default_rng(seed)
    crops, labels = zip(*(sample(*_WORKER, rng) for _ in range(count)))
    return np.stack(crops), np.array(labels)


def cached(count: int, seed: int, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(crops N x H x W x 3 uint8, labels N x 2: the upright and turned bands' digits), rendered
    once per count and seed into ~/.cache/mahjong-lens."""
    return synth.cached_chunks(f"index_{INDEX_RENDER_VERSION}", count, seed, _init_worker, _render_chunk, workers)
