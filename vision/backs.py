"""Face-down tiles (backs) beside a run of faces: the places to look and whether a back stands there.

A concealed kong is often laid with its two end tiles face down. The classifier names a back of a
colour it was trained on; these checks find one of any colour: a place that stands out from the
table, shows a face-down tile's light lower edge, or is one flat colour.
"""

from __future__ import annotations

from enum import Enum
from typing import Sequence

import cv2
import numpy as np

from vision.facemask import LAB_CELL, lab_cells, outer_ring, segment_distance, table_colours
from vision.segment import Quad, Run, Split, rectify

CAP_CONTRAST = 30  # colour difference (0-255) between a back and the table beyond it, at least
CAP_ASPECT = 0.75  # width / height of the places beside a run checked for face-down tiles
CAP_UNLIKE = 0.4  # ... and the share of such a place unlike the table, at least, for a face-down tile to stand there
EDGE_SAMPLE = (16, 24, 0.2)  # columns, rows a place beside a run is sampled at, over its height and this share more below
EDGE_RISE = 30  # grey levels: a face-down tile's lower edge (its light face layer) is this much lighter than the
EDGE_BODY = 0.7  # ... place above it (this top share of its height: the back); a thin band (EDGE_ROWS sampled rows at
EDGE_ROWS = 3  # ... most) below that share, with the place's level again beneath it (its shadow, not more tiles)
FLAT_LEVELS = 25  # 0-255 per channel: a face-down tile's pixels are this close to their median colour
FLAT_MARGINS = (0.08, 0.15)  # shares of a crop left out when judging its flatness: top and sides, bottom (side wall)
FLAT_SHARE = 0.8  # ... and a face-down tile is flat over this share of the rest, at least
ABOVE_SHARE = 0.4  # a flat place (`_flat_place`) beside a run differs from the table in a band this share of its
# height just above it (`_unlike_above`), at least CAP_CONTRAST, for a face-down tile to stand there
FLAT_SAMPLE = (24, 32)  # width, height a place beside a run is sampled at to judge its flatness
def _unlike_share(image: np.ndarray, quad: Quad, table: tuple[list, float]) -> float:
    """The share of a quad's pixels (sampled 8x8) unlike the table (`table`: from `table_colours`)."""
    segments, bar = table
    cells = lab_cells(_warped(image, quad)).reshape(-1, 3).astype(np.float32)
    return float((segment_distance(cells, segments) * LAB_CELL > bar).mean())


def end_caps(run: Run) -> tuple[Split, Split]:
    """One tile's width just before and just after the run: where a face-down tile (a back) would stand."""
    width = CAP_ASPECT * run.height / max(run.length, 1e-6)
    return Split(run, (-width, 0.0), 0.0), Split(run, (1.0, 1.0 + width), 0.0)


class Place(Enum):
    """What an end cap (a place just beside a run) shows, by `backs_possible`."""

    BARE = "bare"  # the table as it is beyond the place
    SHADE = "shade"  # apart from the table beyond, yet of its colours: its shadow, a plaid's dark square, a dark back
    BACK = "back"  # apart, and unlike every colour of the table: a face-down tile may stand there


def backs_possible(image: np.ndarray, caps: Sequence[tuple[Split, Split]]) -> tuple[tuple[Place, Place], ...]:
    """For each run's two end caps, whether a face-down tile may stand there (BACK): the cap
    `stands_out`, or is one flat colour unlike the photo's outer ring (a back wider than the cap, or
    its shadow, leaves little table beyond it) and the table just above it (`_unlike_above`), or shows
    a tile's `lower_edge` (a back the table's colour), and at least CAP_UNLIKE of it is unlike every
    colour of the table; SHADE where only the first holds (beside a run on a plaid, a dark square
    differs from the light one beyond it, yet is table)."""
    edge = np.median(outer_ring(image)[::7], axis=0)
    candidates = [tuple(stands_out(image, cap) or (_flat_place(image, cap, edge) and _unlike_above(image, cap))
                        or lower_edge(image, cap) for cap in pair)
                  for pair in caps]
    if not any(flag for pair in candidates for flag in pair):
        return tuple((Place.BARE, Place.BARE) for _ in caps)
    table = table_colours(image)

    def place(apart: bool, cap: Split) -> Place:
        if not apart:
            return Place.BARE
        return Place.BACK if _unlike_share(image, cap.quads(1.0)[0], table) >= CAP_UNLIKE else Place.SHADE

    return tuple(tuple(place(flag, cap) for flag, cap in zip(flags, pair)) for flags, pair in zip(candidates, caps))


def stands_out(image: np.ndarray, cap: Split) -> bool:
    """Whether an end cap differs in colour from the table just beyond it (a back would; bare table would not)."""
    a, b = cap.cuts
    beyond = Split(cap.run, (b, 2 * b - a) if a >= 1.0 else (2 * a - b, a), 0.0)
    return _contrasting(image, cap.quads(1.0)[0], beyond.quads(1.0)[0])


def lower_edge(image: np.ndarray, cap: Split) -> bool:
    """Whether an end cap shows a face-down tile's lower edge: a thin band EDGE_RISE lighter than the
    place above it, across it (each sampled row's median), at its foot, and its level again beneath
    (the face layer of a tile lying face down, then its shadow; a back the colour of the table, green
    backs on green felt, shows little else). Bare table shows no such band; more tiles below stay light."""
    columns, rows, below = EDGE_SAMPLE
    top_left, top_right, bottom_right, bottom_left = np.float32(cap.quads(1.0)[0])
    reach = np.float32([bottom_right + below * (bottom_right - top_right), bottom_left + below * (bottom_left - top_left)])
    quad = np.float32([top_left, top_right, *reach])
    target = np.float32([[0, 0], [columns, 0], [columns, rows], [0, rows]])
    grey = cv2.warpPerspective(cv2.cvtColor(image, cv2.COLOR_RGB2GRAY), cv2.getPerspectiveTransform(quad, target),
                               (columns, rows), borderMode=cv2.BORDER_REPLICATE)
    levels = np.median(grey, axis=1)
    foot = round(EDGE_BODY * rows / (1 + below))
    bright = np.flatnonzero(levels >= np.median(levels[:foot]) + EDGE_RISE)
    return bool(0 < len(bright) <= EDGE_ROWS and bright[0] >= foot and bright[-1] < rows - 1
                and levels[-1] < levels[bright].min() - EDGE_RISE)


def flat_share(crop: np.ndarray) -> float:
    """The share of a rectified crop's inner pixels within FLAT_LEVELS of their median colour in
    every channel (its margins and the side wall below are left out): near 1 for a face-down tile,
    whatever its colour; low for a face with ink or a crop reaching over a patterned table."""
    height, width = crop.shape[:2]
    edge, bottom = FLAT_MARGINS
    inner = crop[round(edge * height):round((1 - bottom) * height), round(edge * width):round((1 - edge) * width)]
    pixels = inner.reshape(-1, inner.shape[-1]).astype(np.int16)
    if not len(pixels):
        return 0.0
    median = np.median(pixels, axis=0)
    return float((np.abs(pixels - median).max(axis=1) < FLAT_LEVELS).mean())


def _flat_place(image: np.ndarray, cap: Split, edge: np.ndarray) -> bool:
    """Whether an end cap of the reduced image is one flat colour (`flat_share`, sampled FLAT_SAMPLE)
    at least CAP_CONTRAST from the ``edge`` colour (bare table is flat too)."""
    place = rectify(image, cap.quads(1.0)[0], FLAT_SAMPLE)
    if float(np.abs(place.reshape(-1, 3).mean(axis=0) - edge).max()) < CAP_CONTRAST:
        return False
    return flat_share(place) >= FLAT_SHARE


def _unlike_above(image: np.ndarray, cap: Split) -> bool:
    """Whether an end cap differs in colour (CAP_CONTRAST) from the table in a band ABOVE_SHARE of its
    height just above it (beyond the run's top edge): a face-down tile does; bare cloth, lit brighter
    than the photo's edges (so unlike its outer ring, and flat), does not."""
    quad = np.float32(cap.quads(1.0)[0])
    top_left, top_right, bottom_right, bottom_left = quad
    rise = ABOVE_SHARE * ((top_left - bottom_left) + (top_right - bottom_right)) / 2
    return _contrasting(image, quad, np.float32([top_left + rise, top_right + rise, top_right, top_left]))


def _contrasting(image: np.ndarray, quad: Quad, other: Quad) -> bool:
    """Whether two quads' mean colours differ by CAP_CONTRAST at least in some channel."""
    return float(np.abs(_mean_colour(image, quad) - _mean_colour(image, other)).max()) >= CAP_CONTRAST


def _mean_colour(image: np.ndarray, quad: Quad) -> np.ndarray:
    return _warped(image, quad).reshape(-1, 3).mean(axis=0)


def _warped(image: np.ndarray, quad: Quad) -> np.ndarray:
    """The quad's pixels, sampled 8x8."""
    target = np.float32([[0, 0], [8, 0], [8, 8], [0, 8]])
    warp = cv2.getPerspectiveTransform(np.float32(quad), target)
    return cv2.warpPerspective(image, warp, (8, 8), borderMode=cv2.BORDER_REPLICATE)
