"""A photo that shows more than the table, for the recognition benchmark's `--surround` check: a
band of another surface along one edge (the floor below the table, the table's rim, a wall), its
boundary a little tilted, or along every edge (a mat on a wooden table)."""

from __future__ import annotations

import numpy as np

SIDES = ("top", "right", "bottom", "left")  # in the order np.rot90 brings each to the top
WOOD = (150, 110, 70)
SURROUNDS = {  # --surround parts: bands of a surface along edges, each (its RGB colour, the side it runs along,
    # its depth at the middle as a share of the photo's depth that side, its boundary's tilt in degrees)
    "grey floor below": (((200, 200, 204), "bottom", 0.2, 3.0),),
    "dark rim above": (((62, 42, 32), "top", 0.15, -4.0),),
    "white wall aside": (((236, 233, 226), "left", 0.18, 2.0),),
    "beige cloth above": (((214, 200, 172), "top", 0.22, 0.0),),
    "mat on a table": tuple((WOOD, side, 0.12, tilt) for side, tilt in zip(SIDES, (2.0, -1.0, 0.0, 1.0))),
}


def with_band(pixels: np.ndarray, colour: tuple[int, int, int], side: str, depth: float, tilt: float,
              seed: int = 0) -> np.ndarray:
    """The photo with a band of a grainy surface of `colour` along `side`, `depth` deep at the middle,
    its boundary turned `tilt` degrees."""
    turned = np.rot90(pixels, SIDES.index(side)).copy()
    height, width = turned.shape[:2]
    rows, columns = np.mgrid[0:height, 0:width]
    inside = rows + (columns - width / 2) * np.tan(np.deg2rad(tilt)) < depth * height
    grain = np.random.default_rng(seed).normal(0, 3, (int(inside.sum()), 3))
    turned[inside] = np.clip(np.array(colour) + grain, 0, 255)
    return np.ascontiguousarray(np.rot90(turned, -SIDES.index(side)))
