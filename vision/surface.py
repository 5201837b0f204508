"""Other surfaces along a photo's edges: the floor, a table's rim, a wall, a mat's surround.

The rest of the pipeline takes the photo's outer ring for the table the tiles stand on (its colours,
whether it is light or patterned). Where a plain band of another surface runs along an edge, its
straight boundary (a little tilted, at most) crossing the side, the photo is also read without it
(`on_table`): painted the table's colour up to the boundary and cut off. A boundary made by a row of
tiles on the table is not a band's: the table's colour goes on beyond the row. Bands along several
sides (a mat on a wooden table, all round) are each found as if the others were not there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.io import Photo, shrunk

LOOK_SIDE = 160  # pixels: the long side of the small copy looked at, at most
BAND = (0.05, 0.45)  # a band is this share of the photo deep, from its side, at least and at most
REACH = 2  # look pixels: a colour step is measured this far either side of a row (the boundary's blur)
STEP = 20.0  # Lab units: a boundary is a step in the median colour of a slice's rows this big at least
SLICES = 8  # the side is cut into this many slices across, each finding its step nearest the edge
SLICES_STEPPED = 6  # ... a boundary shows such a step in this many slices at least
FIT = 2.0  # look pixels: ... lying on a straight line this close
ALIKE = 10.0  # Lab units: a pixel is of a surface's colour this close to its median
PLAIN = 12.0  # ... and plain where its lightness gradient is below this (Sobel / 8, lightness 0-100)
BAND_SHARE = 0.9  # the band is this share plain and of its colour at least (no tile lies in it)
CONTINUES_SHARE = 0.1  # beyond the boundary, the surface goes on (it is the table, and the boundary the edge of a
# row of tiles) where this share is of its colour
TABLE_SHARE = 0.5  # ... and where bands lie along other sides too, the table is (plain and of its colour) this share
# at least of what lies between them
NEXT = 0.03  # just beyond the boundary, to this share of the photo deeper than its far end, the table is
BARE = 0.9  # ... bare where this share is plain and of its colour (the median beyond): the photo is cut off up to
# the boundary's far end
PAINT_ALIKE = 25  # RGB levels: a pixel just beyond the boundary this close to the band's colour is painted with it


@dataclass(frozen=True)
class Band:
    """A band of another surface along one side: the photo turned `quarters` anticlockwise brings
    that side to the top (0 top, 1 right, 2 bottom, 3 left); its boundary lies `depths` deep (shares
    of the turned photo's height) at the turned photo's left and right ends; `table` is the RGB
    colour of the table beyond it; where `bare`, the photo is cut off up to the boundary's far end."""

    quarters: int
    depths: tuple[float, float]
    colour: tuple[int, int, int]  # the band's RGB colour
    table: tuple[int, int, int]
    bare: bool  # no tile lies beyond the boundary's nearer end, to its far end


@dataclass(frozen=True)
class _Side:
    """A side's possible band: its boundary's depth per column and which columns show it, and the mask
    (of the photo, not turned) of the plain surface of one colour before it."""

    quarters: int
    line: np.ndarray
    stepped: np.ndarray
    before: np.ndarray


def bands(image: np.ndarray) -> tuple[Band, ...]:
    """The bands of other surfaces along the sides of an RGB photo (none, mostly). Beyond a side's
    boundary, the bands found along other sides (a mat's surround, all round) are not looked at."""
    small, _ = shrunk(image, LOOK_SIDE)
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB).astype(np.float32)
    lab[..., 0] *= 100 / 255
    lab[..., 1:] -= 128
    lightness = cv2.GaussianBlur(lab[..., 0], (3, 3), 0)
    plain = cv2.magnitude(cv2.Sobel(lightness, cv2.CV_32F, 1, 0), cv2.Sobel(lightness, cv2.CV_32F, 0, 1)) / 8 < PLAIN
    sides = [side for k in range(4) if (side := _side(np.rot90(lab, k), np.rot90(plain, k), k)) is not None]
    found = []
    for side in sides:
        others = [other.before for other in sides if other is not side]
        found.append(_band(small, lab, plain, side, np.logical_or.reduce(others) if others else np.zeros_like(plain)))
    return tuple(band for band in found if band is not None)


def _edge(height: int) -> int:
    """The rows nearest a side that any band along it covers (its boundary's blur left out)."""
    return max(1, round(BAND[0] * height) - REACH)


def _side(lab: np.ndarray, plain: np.ndarray, quarters: int) -> _Side | None:
    """Along the top of a (turned) look at the photo, a step in colour on one straight line across,
    and a plain surface of one colour before it, if there are."""
    height, width = lab.shape[:2]
    edge, middle = _edge(height), slice(width // 5, width - width // 5)
    if _surface(lab[:edge, middle].reshape(-1, 3), plain[:edge, middle].reshape(-1)) is None:
        return None  # a quick look first: rows that any band covers, between the side's ends (where another may lie)
    found = _boundary(lab)
    if found is None:
        return None
    line, stepped = found
    before = (np.arange(height)[:, None] < line - REACH) & stepped
    if _surface(lab[before], plain[before]) is None:
        return None
    return _Side(quarters, line, stepped, np.rot90(before, -quarters))


def _band(rgb: np.ndarray, lab: np.ndarray, plain: np.ndarray, side: _Side, elsewhere: np.ndarray) -> Band | None:
    """The side's band, unless its surface goes on beyond the boundary (but for bands `elsewhere`):
    then it is the table, and the boundary the edge of a row of tiles."""
    rgb, lab, plain = (np.rot90(array, side.quarters) for array in (rgb, lab, plain))
    before, elsewhere = np.rot90(side.before, side.quarters), np.rot90(elsewhere, side.quarters)
    height, line = lab.shape[0], side.line
    rows = np.arange(height)[:, None]
    beyond = (rows > line + REACH) & (rows < height - _edge(height)) & side.stepped & ~elsewhere  # less a band's edge
    if not (beyond & plain).any():
        return None
    colour = np.median(lab[before], axis=0)
    if ((np.linalg.norm(lab - colour, axis=2) < ALIKE) & plain)[beyond].mean() >= CONTINUES_SHARE:
        return None
    wedge = (rows > line + REACH) & (rows <= line.max() + REACH + round(NEXT * height))  # just beyond, to its far end
    table = np.median(lab[beyond & plain], axis=0)
    near = (np.linalg.norm(lab - table, axis=2) < ALIKE) & plain
    if elsewhere.any() and near[beyond].mean() < TABLE_SHARE:
        return None  # between bands (the table above and below a row of tiles across the photo), no table
    return Band(side.quarters, (float(line[0]) / height, float(line[-1]) / height), _rgb(rgb[before]),
                _rgb(rgb[beyond & plain]), bool(near[wedge].mean() >= BARE))


def _rgb(pixels: np.ndarray) -> tuple[int, int, int]:
    """The median colour of some RGB pixels."""
    return tuple(int(v) for v in np.median(pixels, axis=0))


def _surface(colours: np.ndarray, plain: np.ndarray) -> np.ndarray | None:
    """The median Lab colour of pixels that are one plain surface (BAND_SHARE of them plain and of that
    colour at least), or None."""
    if not len(colours):
        return None
    colour = np.median(colours, axis=0)
    return colour if ((np.linalg.norm(colours - colour, axis=1) < ALIKE) & plain).mean() >= BAND_SHARE else None


def _boundary(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Per column, the depth of a straight boundary near the top of a Lab look, and which columns show
    it (or None): in each of SLICES slices across, the first step in its rows' median colour at least
    STEP big (where it is biggest), SLICES_STEPPED of them on one line (the others may hold another band)."""
    height, width = lab.shape[:2]
    low, high = max(REACH, round(BAND[0] * height)), round(BAND[1] * height)
    if high <= low:
        return None
    points, stepped = [], np.zeros(width, bool)
    across = width // SLICES
    slices = lab[:high + REACH, :across * SLICES].reshape(high + REACH, SLICES, across, 3)
    for number, profile in enumerate(np.median(slices, axis=2).transpose(1, 0, 2)):
        steps = np.linalg.norm(profile[low + REACH:high + REACH] - profile[low - REACH:high - REACH], axis=1)
        over = steps >= STEP
        if over.any():
            first = int(np.argmax(over))
            step = steps[first:first + int(np.argmin(np.append(over[first:], False)))]  # the first step, all of it
            biggest = float(np.mean(np.flatnonzero(step >= step.max() - 1)))  # the middle of its top
            points.append(((number + 0.5) * across, low + first + biggest))
            stepped[number * across:(number + 1) * across] = True
    if len(points) < SLICES_STEPPED:
        return None
    centres, depth = np.array(points, np.float32).T
    slope, start = np.polyfit(centres, depth, 1)
    if np.abs(depth - (slope * centres + start)).max() > FIT:
        return None
    return slope * np.arange(width) + start, stepped


def on_table(photo: Photo) -> tuple[Photo, tuple[float, float] | None]:
    """The photo without its bands of other surfaces (`bands`), and where its top-left corner lies in
    the photo (original pixels); the photo itself and None where there are none. Each band is painted
    the table's colour up to its boundary and, in the boundary's blur beyond, where it passes for the
    band; and cut off up to the boundary's nearer end, or where it is `bare`, past its far end."""
    found = bands(photo.work[0])
    if not found:
        return photo, None
    pixels = photo.pixels.copy()
    cut = [0, 0, 0, 0]  # rows cut off at the top, columns at the right, rows at the bottom, columns at the left
    for band in found:
        turned = np.rot90(pixels, band.quarters)  # a view: painting it paints the photo
        height, width = turned.shape[:2]
        depth = np.interp(np.arange(width), (0, width - 1), np.float32(band.depths) * height)
        blur = REACH * max(height, width) / LOOK_SIDE  # the boundary's blur (look pixels as photo pixels)
        strip = turned[:min(height, int(depth.max() + 2 * blur) + 1)]  # the rows painted (a view)
        rows = np.arange(len(strip))[:, None]
        alike = np.abs(strip.astype(np.int16) - band.colour).max(axis=2) <= PAINT_ALIKE
        strip[(rows < depth) | ((rows < depth + 2 * blur) & alike)] = band.table  # and what passes for the band
        cut[band.quarters] = int(max(band.depths) * height + blur if band.bare else min(band.depths) * height)
    top, right, bottom, left = cut
    painted = replace(photo, pixels=pixels)
    return painted.part(left, top, photo.width - right, photo.height - bottom), (left * photo.zoom, top * photo.zoom)
