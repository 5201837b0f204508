"""Render the small synthetic test scenes and the app's sample photo (run from the project root).

Tiles are ivory faces carrying glyphs of the OFL font Noto Sans Symbols 2,
standing touching in rows on a plain table, seen slightly from above; nothing
is copied from other artwork. ``python tests/data/make_scenes.py`` rewrites
every file listed in SCENES (``... make_scenes.py row_kong`` only those whose path holds ``row_kong``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from scoring.tiles import parse_tiles

FONT = Path("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf")
ROOT = Path(__file__).resolve().parents[2]
FACE = (60, 80)  # face width, height in pixels at scale 1
DEPTH = 14  # visible tile thickness below the face


@dataclass(frozen=True)
class Scene:
    """A scene file: groups of tiles (a gap between groups; ``*`` after a digit: that tile lies
    sideways; ``-`` at a group's ends: a face-down tile there), colours, a tilt and a scale."""

    path: str
    groups: tuple[str, ...]
    table: tuple[int, int, int]
    body: tuple[int, int, int]
    turn: float = 0.0  # degrees, in the image plane
    scale: float = 1.0
    check: int = 0  # pixels: a gingham cloth's band width (the table colour over white), 0 for a plain table
    back: tuple[int, int, int] = (30, 30, 36)  # the colour of a face-down tile
    glare: tuple[float, float] | None = None  # the centre of a patch of glare on the photo, as shares of its size
    gap: float = 0.5  # between groups, as a share of a tile's width


SCENES = (
    Scene("tests/data/row_green.jpg", ("123m", "456p", "789s", "111z", "55z"), (40, 110, 60), (250, 244, 225)),
    Scene("tests/data/row_wood.jpg", ("234567m", "345p", "99m", "55*5p"), (150, 100, 60), (240, 240, 236), turn=6),
    Scene("tests/data/row_white.jpg", ("789m", "123s", "444p", "345s", "66z"), (236, 236, 232), (238, 226, 196), turn=-4),
    Scene("tests/data/row_gingham.jpg", ("234p", "567s", "888m", "11z"), (70, 100, 170), (176, 206, 168), turn=3,
          check=14),
    Scene("tests/data/row_kong.jpg", ("123m", "456p", "789s", "55z", "-22s-"), (40, 110, 60), (250, 244, 225),
          turn=-3),
    Scene("tests/data/row_beige_glare.jpg", ("234m", "567s", "11z", "789p"), (214, 200, 172), (238, 232, 214),
          turn=3, glare=(0.6, 0.9)),
    Scene("tests/data/row_close_groups.jpg", ("123p", "456m", "789s", "11z"), (40, 110, 60), (250, 244, 225),
          turn=2, gap=0.25),
    Scene("tests/data/discards_row.jpg", ("9m", "3p", "5s", "2z", "7m"), (40, 110, 60), (250, 244, 225), turn=-2,
          gap=1.0),
    Scene("tests/data/winner_apart.jpg", ("23m456p789s111z55z", "1m"), (40, 110, 60), (250, 244, 225), turn=2),
    Scene("assets/sample_hand.jpg", ("123p", "456p", "789p", "234s", "77m"), (30, 90, 120), (248, 240, 220), scale=2),
)


def _glyph(code: str, height: int) -> Image.Image:
    """The tile's glyph rendered black on transparent, cropped to its ink."""
    font = ImageFont.truetype(str(FONT), height * 2)
    char = parse_tiles(code)[0].unicode
    canvas = Image.new("L", (height * 3, height * 3), 0)
    ImageDraw.Draw(canvas).text((height // 2, 0), char, font=font, fill=255)
    return canvas.crop(canvas.getbbox())


def _tile(code: str | None, scene: Scene) -> Image.Image:
    """One standing tile: the face (or, for code None, the back) above a slightly darker visible thickness."""
    body = scene.body
    width, height, depth = (round(v * scene.scale) for v in (*FACE, DEPTH))
    tile = Image.new("RGB", (width, height + depth), tuple(int(c * 0.8) for c in body))
    face = Image.new("RGB", (width, height), body if code else scene.back)
    if code:
        ink = _glyph(code, height).resize((width - 6, height - 6), Image.LANCZOS)
        colour = Image.new("RGB", ink.size, (20, 70, 40) if code[-1] in "sp" else (30, 30, 30))
        face.paste(colour, (3, 3), ink)
    tile.paste(face, (0, 0))
    draw = ImageDraw.Draw(tile)
    draw.line([(0, 0), (0, height + depth)], fill=tuple(int(c * 0.55) for c in body), width=max(1, round(scene.scale)))
    return tile


def _group(text: str, scene: Scene) -> list[Image.Image]:
    """The tiles of one group, a lying one turned a quarter, face-down ones at its ends."""
    faces = text.strip("-")
    lying = {sum(c.isdigit() for c in faces[:at]) - 1 for at, c in enumerate(faces) if c == "*"}
    tiles = [_tile(tile.code, scene) for tile in parse_tiles(faces.replace("*", ""))]
    tiles = [tile.rotate(90, expand=True) if k in lying else tile for k, tile in enumerate(tiles)]
    before, after = len(text) - len(text.lstrip("-")), len(text) - len(text.rstrip("-"))
    return [_tile(None, scene)] * before + tiles + [_tile(None, scene)] * after


def render(scene: Scene) -> Image.Image:
    """The scene as an RGB image: the rows of tiles (bottoms aligned) with a soft shadow, then the camera."""
    groups = [_group(text, scene) for text in scene.groups]
    tile_w, tile_h = groups[0][0].size
    gap, margin = round(tile_w * scene.gap), round(60 * scene.scale)
    widths = [sum(tile.size[0] for tile in group) for group in groups]
    table = _cloth((sum(widths) + gap * (len(groups) - 1) + 2 * margin, tile_h + 2 * margin), scene)
    lefts = [margin + g * gap + sum(widths[:g]) for g in range(len(groups))]
    shadow = Image.new("L", table.size, 0)
    for left, width in zip(lefts, widths):
        ImageDraw.Draw(shadow).rectangle([left + 4, margin + 6, left + width + 4, margin + tile_h + 6], fill=110)
    table = Image.composite(Image.new("RGB", table.size, (0, 0, 0)), table, shadow.filter(ImageFilter.GaussianBlur(5)))
    for left, group in zip(lefts, groups):
        for tile in group:
            table.paste(tile, (left, margin + tile_h - tile.size[1]))
            left += tile.size[0]
    return _camera(np.asarray(table), scene.turn, scene.glare)


def _cloth(size: tuple[int, int], scene: Scene) -> Image.Image:
    """The table: plain, or gingham (bands of the table colour at half strength over white, full
    where they cross)."""
    if not scene.check:
        return Image.new("RGB", size, scene.table)
    ys, xs = np.indices(size[::-1])
    share = 0.5 * ((xs // scene.check) % 2) + 0.5 * ((ys // scene.check) % 2)
    white = np.full(3, 245.0)
    return Image.fromarray((white + share[..., None] * (np.array(scene.table) - white)).astype(np.uint8))


def _camera(pixels: np.ndarray, turn: float, glare: tuple[float, float] | None) -> Image.Image:
    """Turn in the image plane, a mild perspective, blur, glare and noise."""
    height, width = pixels.shape[:2]
    top = 0.03 * width
    src = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    dst = np.float32([[top, 0], [width - top, 0], [width, height], [0, height]])
    warp = cv2.getPerspectiveTransform(src, dst)
    turned = np.vstack([cv2.getRotationMatrix2D((width / 2, height / 2), turn, 1.0), [0, 0, 1]])
    border = tuple(int(c) for c in pixels[2, 2])
    out = cv2.warpPerspective(pixels, turned @ warp, (width, height), borderValue=border)
    out = cv2.GaussianBlur(out, (3, 3), 0.8).astype(np.float64)
    if glare:
        ys, xs = np.indices((height, width))
        spread = 2 * (0.07 * width) ** 2
        out += 60 * np.exp(-((xs - glare[0] * width) ** 2 + (ys - glare[1] * height) ** 2) / spread)[..., None]
    noise = np.random.default_rng(7).normal(0, 3, out.shape)
    return Image.fromarray(np.clip(out + noise, 0, 255).astype(np.uint8))


def main(only: str | None = None) -> None:
    for scene in SCENES:
        if only and only not in scene.path:
            continue
        path = ROOT / scene.path
        render(scene).save(path, quality=88) if path.suffix == ".jpg" else render(scene).save(path, optimize=True)
        print(path, path.stat().st_size)


if __name__ == "__main__":
    main(*sys.argv[1:2])
