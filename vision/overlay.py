"""Show what was read: numbered boxes and labels on the photo (doubtful ones in orange, tiles beyond the hand
in grey), tile crops."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pipeline import Recognition, RecognizedTile
from vision.segment import rectify

COLOURS = {"sure": (0, 200, 0), "changed": (0, 120, 255), "doubtful": (255, 140, 0), "beyond": (150, 150, 150)}  # RGB


def _colour(tile) -> tuple[int, int, int]:
    """Grey for a tile beyond the hand (a discard), else by how surely it was read."""
    kind = "changed" if tile.changed else "doubtful" if tile.doubtful else "sure"
    return COLOURS[kind if tile.in_hand else "beyond"]


def _box(tile: RecognizedTile, zoom: float) -> np.ndarray:
    """The tile's corners in the pixels of a photo ``zoom`` times smaller than the original."""
    return np.int32(np.round(np.array(tile.box) / zoom))


def draw(pixels: np.ndarray, recognition: Recognition) -> np.ndarray:
    """A copy of the upright RGB photo (any resolution) with each tile's box, number and code."""
    out = pixels.copy()
    zoom = recognition.width / out.shape[1]
    thickness = max(1, round(max(out.shape[:2]) / 500))
    for number, tile in enumerate(recognition.tiles, 1):
        box = _box(tile, zoom)
        cv2.polylines(out, [box], True, _colour(tile), thickness)
        height = float(np.linalg.norm(box[3] - box[0]))
        size = max(0.4, height / 120)
        left, top = box[np.argmin(box.sum(axis=1))]  # the corner nearest the photo's top left (a tile of a
        x, y = int(left) + thickness * 2, int(top) + round(24 * size)  # photo read turned starts elsewhere)
        label = f"{number} {tile.tile}"
        cv2.putText(out, label, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size, (255, 255, 255), thickness * 3, cv2.LINE_AA)
        cv2.putText(out, label, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size, _colour(tile), thickness, cv2.LINE_AA)
    return out


def crop(pixels: np.ndarray, recognition: Recognition, index: int) -> np.ndarray:
    """Tile ``index``'s face, upright, cut from the upright RGB photo (any resolution)."""
    zoom = recognition.width / pixels.shape[1]
    return rectify(pixels, _box(recognition.tiles[index], zoom))
