"""Finding tile faces with OpenCV: bright runs of touching tiles, split into single faces.

A *run* is one blob of the face mask (`vision.facemask`), roughly rectangular: one tile or
several standing touching (a blob of touching rows is first cut at its row seams). Each run is
straightened into a strip of fixed height; the seams between faces are narrow
columns dark from top to bottom (ink always leaves blank face above or below);
seen at an angle, tiles lean, so the strip is sheared by a few leans and the
lean with the strongest seams is kept (the faces are then cut along it).
For each plausible tile count the cuts are placed near equal spacing and pulled
onto the darkest seams, giving a few `Split` hypotheses per run (plus, for runs
as long as a set, readings with one tile lying sideways); the classifier later
keeps the one whose crops look most like tiles. The places beside a run where a
face-down tile may stand are `vision.backs`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Sequence

import cv2
import numpy as np

from vision.facemask import MIN_AREA, clean_kernel, face_and_cloth, opened

STRIP_HEIGHT = 64  # pixels: runs are straightened to this height to find seams
ASPECTS = (0.6, 1.0)  # face width / height of an upright tile, loosest plausible
ASPECT_SLACK = 0.15  # a reading's standing tiles may be this much wider or narrower than the photo's (log) unmarked
LONE_WIDEST = 1.25  # a run wider than this (a share of its height) is not one standing tile: a face seen at 45
# degrees is up to about 1.15 times as wide as high (session 8), two upright side by side mostly 1.3-1.5 (two bonus
# tiles laid apart, of a set the classifier knows badly, were read as one)
CLOTH_GAP = (0.6, 0.2)  # a run on such a cloth is cut where columns (of its middle 80%) are at least this share
# cloth (`facemask._cloth`), over this share of its height across at least: a gap between two groups the closings bridged
LOW_ROWS = 0.65  # a blob cut into rows, one lower than this share of the photo's tile height, ...
ONE_ROW = 1.3  # ... is one tile (kept whole) where the blob is at most this share of that height
RUN_HEIGHT_SHARE = 0.4  # a run is at least this share of the longest run's height (a photo's tiles are of a size)
RUN_TALLEST = 1.6  # ... and at most this share of it (a patch of glare on a checked cloth, as white as the faces, is
# no run: the tiles of a photo, near and far, are not so unlike)
TRIM_COVER = 0.5  # a run's box keeps the rows (along its length) that its blob covers this much
RISEN_ROWS = (0.15, 0.6, 0.6)  # ... and a standing tile rising above the rest at one end (`_risen`): rows above
# them, this share of their height at least, this share of the rows above them at least, rising this share of
# their height at most (a standing tile beside a lying one rises a third of the lying face's height),
RISEN_WIDTH = (0.25, 0.6)  # ... each holding one stretch of the blob from that end, this share of the run's length,
RISEN_STEADY = 0.3  # ... steady within this share of it (10th to 90th percentile), and at most RISEN_END elsewhere
RISEN_END = 0.08  # ... (this share of the run's length; a run's end: half of it)
RISEN_INK = 1 / 8  # ... the gaps ink leaves in the blob across a face, up to this share of the run's length, closed
WALL_ROWS = (0.75, 0.95)  # a side wall below the faces begins between these shares of a run's height
WALL_DARK = 0.8  # at a row this much darker than the face (the lower edge's shading), or than the face in the
WALL_LOOK = 0.15  # ... height above it where that is darker (a shadow or light falling off across the faces)
FACE_SIZE = (96, 128)  # width, height of a rectified face crop
HYPOTHESES = 3  # tile counts kept per run for the classifier to settle
TAPER_TILES = 8  # a run of this many tiles at least (by its repeat length) may narrow along its length (a long
TAPER_LEAST = 0.05  # ... row seen from its side): where its halves repeat at lengths this share apart or more,
TAPER_MOST = 0.2  # ... its tiles are cut narrowing by that much end to end, by this much at most
LYING_ASPECT = 0.75  # a tile lying sideways in a row is 1/LYING_ASPECT times as wide as a standing one
LYING_SPREAD = 0.12  # a lying tile's width, from its lower face and its side wall, varies this much more
LYING_SETS = (1, 2, 3, 4)  # runs of these many tiles may have one lying sideways (2: a claimed set laid with a gap
# beside its lying tile, which touches one neighbour only; since session 59)
PAIR_STEP = 0.05  # ... a run of two only where the table shows this much above its lying tile (`Split.step`): two
# standing tiles laid apart (flowers) are about as long as one standing and one lying
LONE_LYING = 0.9  # a run alone may be one lying tile where it is at most this share of the photo's tile height
LONE_LYING_WIDTH = (1.1, 2.0)  # ... and this many times as wide as it is high (its face, side wall and shadow)
FACE_ROW = 0.9  # a row of a lying tile is face where it is this bright (a share of the faces' level)
TOP_SEARCH = 0.6  # ... looked for in this top share of the run
FACE_ACROSS = 25  # ... at this percentile of its columns: bright across it (75 until session 58: a gingham's light
# squares above a lying tile, bright in a third of its columns, passed for its face)
STEP_BAND = 0.8  # of the height above a lying tile's face, this top share is looked at for the table
STEP_SHARE = 50  # ... at this percentile of its rows per column (75 until session 58: a gingham's light squares in
# the upper third of the band passed for the faces of standing tiles)
GROUP_GAP = 0.1  # runs closer than this share of a tile's height belong to one group
CONCEALED_RUN = 3.0  # a run at least this many times as long as high holds four standing tiles or more
SEAM_PERCENTILE = 97  # a seam column is dark even at its brighter pixels
UNREACHABLE = -1e9  # the score of a cut position no tiling reaches
CUT_SPREAD = 0.05  # a tile in a run is this much narrower or wider than the run's mean at most
SAME_CUTS = 0.15  # share of a tile's width: splits whose cuts all lie this close read the same crops
SEAM_WIDTH = 9  # strip pixels: a seam is a narrow peak, ink makes broad plateaus
LEANS = np.linspace(-0.4, 0.4, 5)  # seam leans tried (sideways shift per unit of height; 0.4 is about 22 degrees)
LEAN_MARGIN = 1.25  # ... the least lean whose seams are this near the strongest (a factor) is taken: faint seams lean by chance
LEAN_FLOOR = 0.6  # ... measured with nothing darker than this share of the faces' level (a dark back's edge is no seam)
FAINT_SEAMS = 0.03  # ... where the strongest seams are this faint at most (clear seams lean as they are seen)
PLAIN_SHARE = 0.2  # of the range of the columns' busyness: offsets this near the plainest are a face's plain edge
PITCH_LAGS = (0.5, 1.15)  # a run's repeat length is looked for between these shares of its height (faces seen at
# 45 degrees are wider than tall); a set with a tile lying sideways may have standing faces this wide too
PITCH_NEAR = 0.8  # a repeat length whose self-match is a peak this near the best one's is a rival (pips repeat too)
PITCH_PLAINER = 1.5  # ... and wins when cuts at that repeat fall on plain columns this many times as clearly

SHORT_RUN = 2.0  # a run less long than this many times its height holds one or two tiles (two standing: 1.5, one
# lying: 1.33); its own slant is unsure: a discard lies turned its own way, a pair's box may lie level in a slanted row
MAX_ROWS = 8  # rows of touching tiles looked for in one blob
MIN_TILE = 16  # reduced-image pixels: the least tile height
MIN_TILE_SHARE = 0.03  # nor is a tile in a row of a grid less high than this share of the photo's long side
GRID_HEIGHT = 256  # blobs are straightened to this height to find the seams between rows
ROW_SLABS = 4  # the blob is cut into this many upright slabs, each looked at for row seams
GRID_SPREAD = 0.25  # looking for the rows of a blob (and how its columns then fit), cuts are freer: a rough fit
ROW_SEAM = 0.008  # a blob is cut into rows only where its row seams score at least this
ROW_RIVAL = 0.8  # ways of cutting a blob into rows whose seams score this share of the best's are rivals
ROWS_BY_COLUMNS = 3.0  # ... or where its columns fit cells of those rows this many times better than one row
GRID_ROWS = 3  # clear row seams cutting a blob into this many rows at least stand where no column seams fit clearly
FRAME_TOUCH = 2  # pixels: a blob or run this close to an edge of the photo is cut by the frame there
FRAME_PART = 0.25  # a row the frame cuts shows this share of a row at least (less is the frame's own edge)
FRAME_KEEP = 0.6  # ... and is kept as a band of tiles when this share of a row shows
FRAME_PITCHES = 6  # row heights (tile widths) tried per count when the frame cuts a blob (a run)
OUTLINE_GAIN = 0.04  # a blob's four-sided outline is tried for its rows when it covers this much more of it than
OUTLINE_FILL = (0.9, 1.02)  # ... its rectangle does, and the blob fills this much of the outline (a grid seen at an
COLUMNS_CLEAR = 0.01  # ... angle is a trapezoid); the rows are kept when the columns then fit at least this well
OUTLINE_SIDE = (0.1, 0.9, 0.03)  # a side is fitted to the blob's points along this middle part of it, this near

Quad = tuple[tuple[float, float], ...]  # four corners: top-left, top-right, bottom-right, bottom-left


@dataclass(frozen=True)
class Run:
    """A run of touching tiles: its corners in reduced-image pixels, row and group."""

    corners: Quad
    row: int
    group: int
    face: float = 1.0  # the top share of the run's height that is face (below it: the tiles' side wall)
    lean: float = 0.0  # the seams' sideways shift per unit of height in the straightened run (seen at an angle)

    @property
    def length(self) -> float:
        (x0, y0), (x1, y1) = self.corners[0], self.corners[1]
        return float(np.hypot(x1 - x0, y1 - y0))

    @property
    def height(self) -> float:
        (x0, y0), (x3, y3) = self.corners[0], self.corners[3]
        return float(np.hypot(x3 - x0, y3 - y0))


@dataclass(frozen=True)
class Split:
    """One reading of a run: cut positions along it, as shares of its length (0 and 1 included)."""

    run: Run
    cuts: tuple[float, ...]
    seam: float  # mean seam strength at the inner cuts (higher: clearer)
    lying: int | None = None  # the index of the one tile lying sideways, if any
    step: float = 0.0  # how much darker the band above the lying tile is than above the standing ones
    # (a share of the faces' brightness: a tile turned a quarter is lower, the table shows above it)
    top: float | None = None  # where the lying tile's face begins, a share of the run's height (None: unseen)
    misfit: float = 0.0  # how far its standing tiles' width / height is from the photo's (log, beyond ASPECT_SLACK)

    @property
    def count(self) -> int:
        return len(self.cuts) - 1

    def quads(self, scale: float) -> tuple[Quad, ...]:
        """Each tile's corners in full-resolution pixels (reduced / scale); a lying tile's turned upright."""
        shift = self.run.lean * self.run.height / (2 * max(self.run.length, 1e-6))  # a seam's top is ahead
        shares = []
        for index, (a, b) in enumerate(zip(self.cuts, self.cuts[1:])):
            if index != self.lying:  # the face without the side wall below it
                top, bottom = 0.0, self.run.face
            else:  # lower than the standing tiles: from where its face begins (or its face's height), upright
                high = min(1.0, (b - a) * self.run.length * LYING_ASPECT / self.run.height)
                top, bottom = self.top if self.top is not None else 1 - high, 1.0
            ahead, behind = shift * (1 - 2 * top), shift * (1 - 2 * bottom)  # a leaning seam at those heights
            corners = [(a + ahead, top), (b + ahead, top), (b + behind, bottom), (a + behind, bottom)]
            shares += corners[1:] + corners[:1] if index == self.lying else corners  # its top: the run's right side
        points = _at_shares(self.run.corners, shares, 1 / scale)
        return tuple(points[i:i + 4] for i in range(0, len(points), 4))


def _apart(cloth: np.ndarray, box: Quad) -> list[Quad]:
    """A run on a checked or plaid cloth cut where the cloth shows through it (`CLOTH_GAP`, away from
    its ends): the gaps between groups laid apart, which closing the mask bridged."""
    straight = strip(cloth, Run(box, 0, 0))
    width = straight.shape[1]
    share, across = CLOTH_GAP
    middle = straight[round(0.1 * STRIP_HEIGHT):round(0.9 * STRIP_HEIGHT)]
    shown = np.concatenate([[False], middle.mean(axis=0) >= share * 255, [False]])
    edges = np.flatnonzero(np.diff(shown.astype(np.int8)))  # starts and ends of the columns showing cloth
    end = ASPECTS[0] * STRIP_HEIGHT / 2
    gaps = [(a, b) for a, b in zip(edges[::2], edges[1::2]) if b - a >= across * STRIP_HEIGHT and a > end and b < width - end]
    shares = [0.0] + [cut / width for gap in gaps for cut in gap] + [1.0]
    return [_at_shares(box, [(a, 0.0), (b, 0.0), (b, 1.0), (a, 1.0)]) for a, b in zip(shares[::2], shares[1::2])]


def find_runs(image: np.ndarray) -> tuple[Run, ...]:
    """Runs of touching tiles in a reduced RGB image, in reading order: blobs of the face mask covering
    MIN_AREA of the image at least or, where the tiles are so small in it that a lone face (ASPECTS[0] as
    wide as the photo's tile height) would cover less (since session 54: a hand far from the camera, a
    lone flower beside it), half such a face."""
    mask, cloth = face_and_cloth(image)
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    least = MIN_AREA * mask.size
    blobs = _blobs(grey, mask, least)
    lone = ASPECTS[0] * photo_tile_height([row for _, rows in blobs for row in rows]) ** 2  # a lone face's area
    if lone < least:  # tiles small in the photo (a hand far from the camera): blobs of half a lone face are runs too
        blobs += _blobs(grey, mask, lone / 2, least)
    bands = _rows_of_a_size(mask, blobs + _rows_left_out(grey, mask, blobs))
    if cloth is not None:
        bands = [part for band in bands for part in _apart(cloth, band)]
    return _reading_order(_sized_alike([band for band in bands if _plausible(band)]))


def _blobs(grey: np.ndarray, mask: np.ndarray, least: float,
           most: float = np.inf) -> list[tuple[np.ndarray, list[Quad]]]:
    """The mask's blobs of ``least`` pixels at least (and under ``most``), each with its rows (`_blob_rows`)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return [(c, _blob_rows(grey, mask, c)) for c in contours if least <= cv2.contourArea(c) < most]


def _rows_left_out(grey: np.ndarray, mask: np.ndarray,
                   blobs: list[tuple[np.ndarray, list[Quad]]]) -> list[tuple[np.ndarray, list[Quad]]]:
    """Blobs of the mask that the blobs' rows leave out (`_left_out`), as big as a tile of the photo
    (ASPECTS[0] of its tile height squared) at least, whose rows are at most ONE_ROW of that height
    (what glare leaves beside a row is seldom a tile's shape)."""
    rows = [row for _, found in blobs for row in found]
    height = photo_tile_height(rows)
    left = _blobs(grey, _left_out(mask, rows), max(MIN_AREA * mask.size, ASPECTS[0] * height ** 2))
    return [(c, found) for c, found in left if all(Run(row, 0, 0).height <= ONE_ROW * height for row in found)]


def _left_out(mask: np.ndarray, rows: list[Quad]) -> np.ndarray:
    """The mask less the rows found in it (and a cleaning square around them), opened: where two rows
    of different lengths are one blob (the mask of what is unlike a checked cloth joins rows laid
    close), the blob's rows are those covering half its length, and the shorter row is left out."""
    covered = np.zeros_like(mask)
    for row in rows:
        cv2.fillConvexPoly(covered, np.int32(np.round(row)), 255)
    return opened(cv2.bitwise_and(mask, cv2.bitwise_not(cv2.dilate(covered, clean_kernel(mask)))))


def _rows_of_a_size(mask: np.ndarray, blobs: list[tuple[np.ndarray, list[Quad]]]) -> list[Quad]:
    """The blobs' rows, but a blob cut into rows, one lower than LOW_ROWS of the photo's tile height
    (all of them until session 56: a turned discard was cut a third of the way down), is kept whole
    where it is no higher than ONE_ROW of it: a lone tile whose picture (a flower over a word) shows
    seams of its own, not rows of tiles smaller than every other tile of the photo."""
    height = photo_tile_height([row for _, rows in blobs for row in rows if _plausible(row)])
    kept = []
    for contour, rows in blobs:
        if len(rows) > 1 and any(Run(row, 0, 0).height < LOW_ROWS * height for row in rows):
            whole = _trimmed(mask, _corners(cv2.minAreaRect(contour)))
            rows = [whole] if Run(whole, 0, 0).height <= ONE_ROW * height else rows
        kept += rows
    return kept


def _blob_rows(grey: np.ndarray, mask: np.ndarray, contour: np.ndarray) -> list[Quad]:
    """A blob's rows: cut along its rectangle, or, when the blob is a trapezoid (rows of tiles seen at
    an angle: their row seams do not run along the rectangle), along its four-sided outline, if the
    rows found there leave clear column seams (ink blobs on a light table do not) or are as many as
    the rectangle's, GRID_ROWS or more (a grid whose column seams are faint or out of line)."""
    rectangle = _corners(cv2.minAreaRect(contour))
    outline = _trapezoid(contour, rectangle)
    rows = []
    if outline is not None:
        box = _trimmed(mask, outline)
        rows = _row_bands(grey, box)
        if len(rows) > 1 and _column_fit(grey, Run(box, 0, 0), len(rows)) >= COLUMNS_CLEAR:
            return rows
    boxed = _row_bands(grey, _trimmed(mask, rectangle))
    return rows if len(rows) == len(boxed) >= GRID_ROWS else boxed


def _trapezoid(contour: np.ndarray, rectangle: Quad) -> Quad | None:
    """The blob's four-sided outline when it covers OUTLINE_GAIN more of the blob than the rectangle
    does and the blob fills it within OUTLINE_FILL; else None."""
    area = cv2.contourArea(contour)
    boxed = area / max(1.0, cv2.contourArea(np.float32(rectangle)))
    if boxed > OUTLINE_FILL[1] - OUTLINE_GAIN:  # no outline can fit it that much better
        return None
    outline = _outline(contour, rectangle)
    fill = area / max(1.0, cv2.contourArea(np.float32(outline)))
    return outline if fill - boxed >= OUTLINE_GAIN and OUTLINE_FILL[0] <= fill <= OUTLINE_FILL[1] else None


def _outline(contour: np.ndarray, rectangle: Quad) -> Quad:
    """The blob's four sides: the blob's points nearest the rectangle's corners, each side then fitted
    as a line to the blob's points along its middle, and the lines intersected (the rectangle when a
    side has too few points or two sides are parallel)."""
    points = contour.reshape(-1, 2).astype(np.float32)
    corners = [points[np.argmin(np.linalg.norm(points - corner, axis=1))] for corner in np.float32(rectangle)]
    start, end, near = OUTLINE_SIDE
    lines = []
    for a, b in zip(corners, corners[1:] + corners[:1]):
        length = float(np.linalg.norm(b - a))
        along = (b - a) / max(length, 1e-6)
        offset = points - a
        t, off = offset @ along, np.abs(offset @ np.float32([-along[1], along[0]]))
        side = points[(t > start * length) & (t < end * length) & (off < max(2.0, near * length))]
        if len(side) < 2:
            return rectangle
        vx, vy, x0, y0 = cv2.fitLine(side, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    quad = []
    for (p, v), (q, w) in zip(lines[-1:] + lines[:-1], lines):
        system = np.array([v, -w]).T
        if abs(np.linalg.det(system)) < 1e-6:
            return rectangle
        quad.append(p + np.linalg.solve(system, q - p)[0] * v)
    return tuple((float(x), float(y)) for x, y in quad)


def _sized_alike(boxes: list[Quad]) -> list[Quad]:
    """The boxes at least RUN_HEIGHT_SHARE and at most RUN_TALLEST as high as the longest one (the
    tiles of one photo are of a size; a lone speck of cloth or glint the size of a tile corner is not a
    tile, nor is a patch of glare on a checked cloth twice a tile's height)."""
    height = photo_tile_height(boxes)
    return [box for box in boxes if RUN_HEIGHT_SHARE * height <= Run(box, 0, 0).height <= RUN_TALLEST * height]


def photo_tile_height(boxes: list[Quad]) -> float:
    """The photo's tile height: the height of its longest run (0 with none)."""
    return Run(max(boxes, key=lambda box: Run(box, 0, 0).length), 0, 0).height if boxes else 0.0


def _corners(rect) -> Quad:
    """A rotated rectangle's corners, its long-ish side the one closest to horizontal."""
    points = cv2.boxPoints(rect)
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    ordered = points[np.argsort(angles)]  # clockwise in image coordinates, starting near top-left
    ordered = np.roll(ordered, -int(np.argmin(ordered.sum(axis=1))), axis=0)
    if abs(ordered[1][1] - ordered[0][1]) > abs(ordered[1][0] - ordered[0][0]):  # first edge is steep
        ordered = np.roll(ordered, -1, axis=0)
    return tuple((float(x), float(y)) for x, y in ordered)


def _trimmed(mask: np.ndarray, box: Quad) -> Quad:
    """The box without its top and bottom edges where the blob covers less than TRIM_COVER of the
    length (bright table specks or glare touching a run make its bounding box too tall), but for a
    standing tile rising above the rest at one end (`_risen`)."""
    run = Run(box, 0, 0)
    height = max(8, round(run.height))
    width = max(8, round(run.length))
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    inside = cv2.warpPerspective(mask, cv2.getPerspectiveTransform(np.float32(box), target), (width, height))
    covered = np.flatnonzero((inside > 0).mean(axis=1) >= TRIM_COVER)
    if covered.size == 0:
        return box
    top, bottom = int(covered[0]), int(covered[-1]) + 1
    return _band(box, _risen(inside[:top], bottom - top) / height, bottom / height)


def _risen(above: np.ndarray, height: int) -> int:
    """The first of the rows ``above`` a run ``height`` rows high (its blob's mask) where a standing tile
    rises above the rest at one end (a claimed set laid with a gap: the tile beside its lying one, which
    is lower), as RISEN_ROWS, RISEN_WIDTH, RISEN_STEADY and RISEN_END say; else the row below them all."""
    if not len(above):
        return 0
    width = above.shape[1]
    end = max(2, round(RISEN_END * width / 2))
    ink = np.ones((1, max(3, int(RISEN_INK * width))), np.uint8)
    filled = cv2.morphologyEx(above, cv2.MORPH_CLOSE, ink) > 0
    for rows in (filled, filled[:, ::-1]):  # from either end
        stretch = np.where(rows.all(axis=1), width, np.argmin(rows, axis=1))  # each row's first stretch
        alone = np.flatnonzero((stretch >= end) & (rows.sum(axis=1) - stretch <= 2 * end))
        if alone.size < max(RISEN_ROWS[0] * height, RISEN_ROWS[1] * len(rows)):
            continue
        if len(rows) - alone[0] > RISEN_ROWS[2] * height:  # risen too high for a tile beside a lying one
            continue
        low, middle, high = np.percentile(stretch[alone], (10, 50, 90))
        if high - low <= RISEN_STEADY * middle and RISEN_WIDTH[0] <= middle / width <= RISEN_WIDTH[1]:
            return int(alone[0])
    return len(above)


def _row_bands(image: np.ndarray, box: Quad) -> list[Quad]:
    """A blob of several touching rows cut at its horizontal seams, one quad per row."""
    run = Run(box, 0, 0)
    fewest = max(1, int(np.ceil(run.height * ASPECTS[0] / run.length - 0.2)))
    least_tile = max(MIN_TILE, MIN_TILE_SHARE * max(image.shape[:2]))
    most = max(fewest, min(MAX_ROWS, int(run.height // least_tile)))
    if most == 1 or fewest > MAX_ROWS:  # more rows than a blob is looked at for: a narrow column, no grid
        return [box]
    height = GRID_HEIGHT
    width = max(8, min(2 * GRID_HEIGHT, round(run.length * height / run.height)))
    profile = _row_seams(_warp_grey(image, box, (width, height)))
    options = [_split(run, profile, count, GRID_SPREAD) for count in range(max(2, fewest), most + 1)]
    tallest = height * run.length / (ASPECTS[0] * run.height)  # a row no taller than a tile as wide as the blob
    framed = _framed(profile, range(1, most + 1), _cut_by_frame(box, image.shape[0], 1), GRID_SPREAD, tallest)
    whole = None  # the frame-cut blob's whole rows
    if framed and framed[0] >= ROW_SEAM:
        score, cuts, pitch = framed
        rows = [(a, b) for a, b in zip(cuts, cuts[1:]) if b - a >= FRAME_KEEP * pitch]  # the end parts dropped
        whole = Split(run, tuple(cut / height for cut in (rows[0][0],) + tuple(b for _, b in rows)), score)
        options.append(whole)
    best = _likeliest_rows(image, run, options)
    if best is not whole and fewest == 1 and not _rows_clear(image, run, best, framed is not None):
        return [box]
    return [_band(box, a, b) for a, b in zip(best.cuts, best.cuts[1:])]


def _likeliest_rows(image: np.ndarray, run: Run, options: list[Split]) -> Split:
    """Of ways to cut a blob into rows, the one with the clearest row seams; of those whose seams
    are ROW_RIVAL as clear at least, where they count rows differently, the one whose rows' column
    seams fit tiles of their height best (averaged over its rows) where one fits clearly
    (COLUMNS_CLEAR), else the one of most rows. A grid's middle row seam may be the clearest, and
    in uneven light cutting it there alone can score as well as cutting every row; but the rows of
    twice a tile's height hold seams of their own, and two tiles' column seams, which seldom line up."""
    best = max(options, key=lambda split: split.seam)
    rivals = [split for split in options if best.seam > 0 and split.seam >= ROW_RIVAL * best.seam]
    if len({split.count for split in rivals}) < 2:
        return best
    fits = [np.mean([_column_fit(image, Run(_band(run.corners, a, b), 0, 0), 1)
                     for a, b in zip(split.cuts, split.cuts[1:])]) for split in rivals]
    if max(fits) >= COLUMNS_CLEAR:
        return rivals[int(np.argmax(fits))]
    return max(rivals, key=lambda split: split.count)


def _rows_clear(grey: np.ndarray, run: Run, rows: Split, framed: bool) -> bool:
    """Whether a blob that may be one row holds ``rows``: its row seams are clear and its columns fit
    cells of those rows' height at least as well as the whole height (an ink stroke across one tile
    is a row seam too), unless the photo's edge cuts the blob (tiles filling the frame: where their
    column seams are too faint to fit either way, the row seams decide) or the seams cut it into
    GRID_ROWS rows or more and no column seams fit clearly either way (a grid seen at an angle, its
    rows' tiles out of line: no column is a seam all the way down); or, where the row seams are
    faint but still stronger than anything inside the rows, the columns fit those cells
    ROWS_BY_COLUMNS times better than one row (and clearly)."""
    if rows.seam <= 0:
        return False
    if rows.seam >= ROW_SEAM and framed:
        return True
    fit, alone = _column_fit(grey, run, rows.count), _column_fit(grey, run, 1)
    if rows.seam >= ROW_SEAM:
        return fit >= alone or (rows.count >= GRID_ROWS and max(fit, alone) < COLUMNS_CLEAR)
    return fit >= ROWS_BY_COLUMNS * max(alone, COLUMNS_CLEAR)


def _cut_by_frame(box: Quad, size: int, axis: int) -> tuple[bool, bool]:
    """Whether the photo's edges cut a quad (tiles filling a tight crop) at its start and its end:
    axis 0, its left and right ends against the photo's width; axis 1, its top and bottom."""
    start, end = ((0, 3), (1, 2)) if axis == 0 else ((0, 1), (2, 3))
    return (max(box[i][axis] for i in start) <= FRAME_TOUCH, min(box[i][axis] for i in end) >= size - 1 - FRAME_TOUCH)


def _framed(profile: np.ndarray, counts: Sequence[int], cut: tuple[bool, bool], spread: float,
            longest: float = np.inf) -> tuple[float, list[int], float] | None:
    """The best pieces (score, cuts, pitch) when the frame cuts a blob or a run: ``count`` whole rows
    or tiles, at most ``longest`` each, plus a part of one at each cut end; None when the frame cuts
    neither end."""
    if not any(cut):
        return None
    width, found = len(profile), []
    for count in counts:
        pitches = np.linspace(width / (count + sum(cut)), width / count, FRAME_PITCHES)
        for pitch in pitches[pitches <= longest]:
            part = (max(1, int(FRAME_PART * pitch)), max(1, int(pitch)))
            widths = [part] * cut[0] + [_widths(pitch, spread)] * count + [part] * cut[1]
            if sum(least for least, _ in widths) <= width <= sum(most for _, most in widths):
                cuts = _best_cuts(profile, widths)
                found.append((_seam_score(profile, cuts, pitch), cuts, float(pitch)))
    return max(found, key=lambda item: item[0], default=None)


def _column_fit(grey: np.ndarray, run: Run, rows: int) -> float:
    """How well the blob's column seams fit tiles 1/rows of its height high (the best split's score)."""
    height = STRIP_HEIGHT * rows
    profile = seam_profile(_warp_grey(grey, run.corners, (max(8, round(run.length * height / run.height)), height)))
    width = len(profile)
    counts = range(max(1, round(width / (ASPECTS[1] * STRIP_HEIGHT))), max(1, round(width / (ASPECTS[0] * STRIP_HEIGHT))) + 1)
    return max(_split(run, profile, count, GRID_SPREAD).seam for count in counts)


def _band(box: Quad, top: float, bottom: float) -> Quad:
    """The part of a quad between two shares of its height."""
    return _at_shares(box, [(0.0, top), (1.0, top), (1.0, bottom), (0.0, bottom)])


def _at_shares(quad: Quad, shares: Sequence[tuple[float, float]], zoom: float = 1.0) -> Quad:
    """The points at (along, down) shares of a quad's length and height, ``zoom`` times its pixels: shares
    of the quad straightened (as `_warp_grey` does), so a quad seen in perspective keeps them in step."""
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    warp = cv2.getPerspectiveTransform(unit, np.float32(quad) * zoom)
    points = cv2.perspectiveTransform(np.float32(shares).reshape(-1, 1, 2), warp).reshape(-1, 2)
    return tuple((float(x), float(y)) for x, y in points)


def _plausible(box: Quad) -> bool:
    """At least as wide as the narrowest single tile."""
    run = Run(box, 0, 0)
    return run.height > 8 and run.length >= ASPECTS[0] * run.height * 0.8


def _reading_order(boxes: list[Quad]) -> tuple[Run, ...]:
    """Rows top to bottom, runs left to right within a row (along the rows' own slant)."""
    along = _direction(boxes)
    across = np.array([-along[1], along[0]])
    rows = sorted(_rows(boxes, along), key=lambda members: np.mean([_centre(boxes[i]) @ across for i in members]))
    runs = []
    for row, members in enumerate(rows):
        ordered = [boxes[i] for i in sorted(members, key=lambda i: _centre(boxes[i]) @ along)]
        group = 0
        for k, box in enumerate(ordered):
            group += k > 0 and _gap(ordered[k - 1], box, along) > GROUP_GAP * Run(box, 0, 0).height
            runs.append(Run(box, row, group))
    return tuple(runs)


def _gap(left: Quad, right: Quad, along: np.ndarray) -> float:
    """The distance along the row between two runs' facing ends: between their outermost corners, but
    from one standing tile (LONE_WIDEST) back to a run of CONCEALED_RUN heights or more (a winning tile
    laid apart after the concealed tiles) on the line through each one's centre. The long run's box
    slants as its tiles do on average, and the tile's box as its own, turned further in perspective: it
    reaches back at a corner (3026084 of `winner_apart_hand`: 4.4 pixels at the corner, 8.6 at its
    side). Between two short runs, a lying tile's and a standing one's, the boxes' different heights
    part them at mid-height where they touch below (8026046), so that is measured at the corners."""
    tile, run = Run(right, 0, 0), Run(left, 0, 0)
    if tile.length <= LONE_WIDEST * tile.height and run.length >= CONCEALED_RUN * run.height:
        return float((_centre(right) - _centre(left)) @ along - _reach(left, along) - _reach(right, -along))
    return float(min(np.array(right) @ along) - max(np.array(left) @ along))


def _reach(box: Quad, direction: np.ndarray) -> float:
    """How far a convex box extends from its centre along ``direction`` (a unit vector)."""
    corners = np.array(box, dtype=np.float64)
    centre, reach = corners.mean(axis=0), np.inf
    for start, end in zip(corners, np.roll(corners, -1, axis=0)):
        system = np.array([direction, start - end]).T  # centre + t * direction = start + s * (end - start)
        if abs(np.linalg.det(system)) > 1e-9:
            t, s = np.linalg.solve(system, start - centre)
            if t > 0 and -1e-9 <= s <= 1 + 1e-9:
                reach = min(reach, float(t))
    return reach if np.isfinite(reach) else 0.0


def _centre(box: Quad) -> np.ndarray:
    return np.mean(np.array(box), axis=0)


def _direction(boxes: list[Quad]) -> np.ndarray:
    """The mean reading direction (unit vector along the top edges, weighted by length) of the runs not
    `_short`, if any."""
    longer = [box for box in boxes if not _short(box)] or boxes
    edges = sum((np.array(box[1]) - np.array(box[0]) for box in longer), np.zeros(2))
    norm = float(np.linalg.norm(edges))
    return edges / norm if norm else np.array([1.0, 0.0])


def _short(box: Quad) -> bool:
    """Whether a run's box holds one or two tiles (it is less long than SHORT_RUN heights)."""
    run = Run(box, 0, 0)
    return run.length < SHORT_RUN * run.height


@dataclass(frozen=True)
class _Lined:
    """What `_same_row` needs of a run's box, worked out once per box (a photo of a whole set holds
    hundreds, and every pair is compared): its centre, length and height, and the unit vector of its
    own slant (None where it is `_short`)."""

    centre: tuple[float, float]
    length: float
    height: float
    slant: tuple[float, float] | None

    @classmethod
    def of(cls, box: Quad) -> "_Lined":
        run = Run(box, 0, 0)
        slant = None if _short(box) else (np.array(box[1]) - np.array(box[0])) / max(run.length, 1e-6)
        centre = _centre(box)
        return cls((float(centre[0]), float(centre[1])), run.length, run.height,
                   None if slant is None else (float(slant[0]), float(slant[1])))


def _same_row(a: _Lined, b: _Lined, rows: tuple[float, float]) -> bool:
    """Whether the shorter run's centre lies on the longer one's row line, within half the higher
    one's height: a run cut too low (its faces found in part) still lies in its row. The line runs
    the longer run's own slant, or the way of the photo's ``rows`` (a unit vector) where that run is
    `_short` (until session 56 its own slant: a turned discard's, carried on, ran through other rows)."""
    line, point = (a, b) if a.length >= b.length else (b, a)
    along = line.slant or rows
    dx, dy = point.centre[0] - line.centre[0], point.centre[1] - line.centre[1]
    return abs(dx * along[1] - dy * along[0]) < 0.5 * max(line.height, point.height)


def _rows(boxes: list[Quad], along: np.ndarray) -> list[list[int]]:
    """Indices of boxes sharing a row (running the way of ``along``), chained."""
    lined, rows = [_Lined.of(box) for box in boxes], (float(along[0]), float(along[1]))
    label = list(range(len(boxes)))
    for i in range(len(boxes)):
        for j in range(i):
            if _same_row(lined[i], lined[j], rows):
                merged, into = label[i], label[j]
                label = [into if value == merged else value for value in label]
    return [[i for i in range(len(boxes)) if label[i] == value] for value in sorted(set(label))]


def strip(image: np.ndarray, run: Run) -> np.ndarray:
    """The run straightened to a grey strip STRIP_HEIGHT pixels high."""
    return _warp_grey(image, run.corners, (max(8, round(run.length * STRIP_HEIGHT / run.height)), STRIP_HEIGHT))


def _row_seams(grid: np.ndarray) -> np.ndarray:
    """Row seam strength down a blob straightened GRID_HEIGHT high: in each of ROW_SLABS upright slabs
    (a slightly slanted seam stays in one), the stronger of its seams as seen and with the light
    evened over the least row's height (`_light_evened`), then the median over the slabs."""
    evened = _light_evened(grid, GRID_HEIGHT // MAX_ROWS + 1)
    slabs = zip(np.array_split(grid, ROW_SLABS, axis=1), np.array_split(evened, ROW_SLABS, axis=1))
    return np.median([np.maximum(seam_profile(seen.T), seam_profile(even.T)) for seen, even in slabs], axis=0)


def _light_evened(grey: np.ndarray, reach: int) -> np.ndarray:
    """Grey levels over their light, scaled to 255: each pixel divided by the grey closed over a square
    ``reach`` wide, where seams and ink narrower than that take the level of the faces around them and
    a shadow wider keeps its own. A shadow's edge across a grid then leaves the row seams beside it
    as dark against the faces as in the light, not merged into the edge's ramp of darkness."""
    light = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))
    return cv2.divide(grey, cv2.max(light, 1), scale=255)


def _warp_grey(image: np.ndarray, quad: Quad, size: tuple[int, int]) -> np.ndarray:
    """The quad of a grey (or RGB) image straightened to a grey image of ``size`` (w, h)."""
    width, height = size
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    warp = cv2.getPerspectiveTransform(np.float32(quad), target)
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    return cv2.warpPerspective(grey, warp, size, flags=cv2.INTER_LINEAR)


def seam_profile(grey_strip: np.ndarray) -> np.ndarray:
    """Seam strength per column (0..1): dark all the way down (ink leaves blank face above or below it), narrow."""
    height = grey_strip.shape[0]
    body = grey_strip[round(0.03 * height):round(0.97 * height)]
    face = _face_level(body)
    darkness = np.clip((face - _column_percentile(body, SEAM_PERCENTILE)) / face, 0, 1)
    profile = np.convolve(darkness, np.ones(3) / 3, mode="same").astype(np.float32)[None, :]
    narrow = cv2.getStructuringElement(cv2.MORPH_RECT, (SEAM_WIDTH, 1))
    return cv2.morphologyEx(profile, cv2.MORPH_TOPHAT, narrow, borderType=cv2.BORDER_REPLICATE)[0]


def leaning_seams(grey_strip: np.ndarray) -> tuple[float, np.ndarray]:
    """The lean (of LEANS) whose sheared strip has the strongest seams, and their profile: tiles seen
    at an angle lean, and a leaning seam is dark all the way down in no single column. A lean's seams
    are as strong as their mean in the strip as seen and with its light evened over half its height
    (`_light_evened`): a shadow's edge slanting across a run is a ramp of darkness that sheared
    columns line up with as seen, and evening the light takes it away. Both are measured `_lifted`
    (no darker than LEAN_FLOOR of the faces); the profile returned is the strip's as seen. Ties go to
    the smaller lean; where even the strongest seams are fainter than FAINT_SEAMS, so does any lean
    whose seams are within LEAN_MARGIN of them (faint seams lean by chance)."""
    height, width = grey_strip.shape
    strongest = max(2, round(2 * width / (0.8 * height)))  # two columns per seam of a typical tile
    strips = [_lifted(strip) for strip in (grey_strip, _light_evened(grey_strip, height // 2 + 1))]

    def top(profile: np.ndarray) -> float:  # the mean of its `strongest` columns
        return float(np.partition(profile, width - strongest)[width - strongest:].mean())

    def seams(lean: float) -> tuple[float, float]:
        return sum(top(seam_profile(_sheared(strip, lean))) for strip in strips) / len(strips), lean

    found = [seams(float(lean)) for lean in LEANS]
    strongest_seams = max(strength for strength, _ in found)
    margin = LEAN_MARGIN if strongest_seams < FAINT_SEAMS else 1.0
    _, lean = min((item for item in found if margin * item[0] >= strongest_seams), key=lambda item: (abs(item[1]), -item[0]))
    return lean, seam_profile(_sheared(grey_strip, lean))


def _lifted(grey_strip: np.ndarray) -> np.ndarray:
    """The strip with nothing darker than LEAN_FLOOR of its faces' level: sheared, the edge of a dark
    back beside a face (a concealed kong found as one run) is a narrow dark wedge, as dark as a seam is
    nowhere, and would decide the lean."""
    return np.maximum(grey_strip, np.uint8(min(255.0, LEAN_FLOOR * _face_level(grey_strip))))


def _sheared(grey_strip: np.ndarray, lean: float) -> np.ndarray:
    """The strip sheared about its middle row by ``lean`` (sideways shift per unit of height)."""
    if not lean:
        return grey_strip
    height, width = grey_strip.shape
    shear = np.float32([[1, lean, -lean * height / 2], [0, 1, 0]])
    return cv2.warpAffine(grey_strip, shear, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _face_level(grey: np.ndarray) -> float:
    """The faces' brightness in a grey strip: its 90th percentile (every other pixel), at least 1."""
    return max(float(_column_percentile(grey[::2, ::2].reshape(-1, 1), 90)[0]), 1.0)


def _column_percentile(values: np.ndarray, percentile: float) -> np.ndarray:
    """Per column, the value at about ``percentile`` (a partial sort: cheaper than np.percentile)."""
    k = min(len(values) - 1, round(percentile / 100 * (len(values) - 1)))
    return np.partition(values, k, axis=0)[k].astype(np.float32)


def splits(image: np.ndarray, run: Run, tile_height: float | None = None,
           tile_aspect: float | None = None) -> tuple[Split, ...]:
    """The HYPOTHESES most seam-like ways to cut the run into tiles, best first, then the count its
    repeat length gives (if not among them), the tiles narrowing along a long run (`_narrowing`),
    the repeat in step with the faces (`_periodic`; each unless it cuts as one before it does), the
    frame-cut split and the lying-tile splits (the photo's
    `photo_tile_height`, where given, tells whether the run is low enough to be one lying tile). Given
    the photo's `photo_tile_aspect`, each standing reading says how far its tiles' shape is from it (`misfit`)."""
    straight = strip(image, run)
    lean, profile = leaning_seams(straight)
    run = replace(run, face=face_share(straight), lean=lean)
    width = len(profile)
    counts = [count for count in range(max(1, round(width / (ASPECTS[1] * STRIP_HEIGHT))),
                                       max(1, round(width / (ASPECTS[0] * STRIP_HEIGHT))) + 1)
              if count > 1 or width <= LONE_WIDEST * STRIP_HEIGHT]
    found = sorted((_split(run, profile, count) for count in counts), key=lambda s: -s.seam)[:HYPOTHESES]
    pitch = tile_pitch(straight)
    repeats = round(width / pitch) if pitch else None
    if repeats and repeats not in {split.count for split in found}:  # where seams are too faint to count by
        found.append(_split(run, profile, repeats))
    narrowing = _narrowing(straight, pitch)  # a long row seen from its side narrows beyond CUT_SPREAD
    tapered = _split(run, profile, narrowing[0], taper=narrowing[1]) if narrowing else None
    periodic = _periodic(run, straight, profile, pitch) if pitch else None  # in step with the faces' plain edges
    for extra in (tapered, periodic):  # (wherever the run's ends are), each unless it cuts as one before it does
        if extra and not any(_alike(extra, split) for split in found):
            found.append(extra)
    whole = sorted({count for top in {found[0].count, repeats or found[0].count}  # the best seams' count and the
                    for count in range(max(1, top - 2), top + 1)})  # repeat's; two tiles' width may be the cut parts
    framed = _framed(profile, whole, _cut_by_frame(run.corners, image.shape[1], 0), CUT_SPREAD)
    if framed:  # tiles cut by the photo's left or right edge at the run's ends
        found.append(Split(run, tuple(cut / width for cut in framed[1]), framed[0]))
    if tile_aspect:
        found = [replace(split, misfit=_misfit(width / split.count / STRIP_HEIGHT, tile_aspect)) for split in found]
    return tuple(found) + _lying_splits(run, profile, straight, tile_height)


def _misfit(aspect: float, tile_aspect: float) -> float:
    """How far a tile's width / height is from the photo's: the log of their ratio, less ASPECT_SLACK."""
    return max(0.0, abs(float(np.log(aspect / tile_aspect))) - ASPECT_SLACK)


def photo_tile_aspect(image: np.ndarray, runs: Sequence[Run]) -> float | None:
    """The photo's tile width / height: its longest run's repeat length (`tile_pitch`) over its height,
    or None where that run shows no repeat (the photo's tiles are all of one set, seen alike)."""
    if not runs:
        return None
    pitch = tile_pitch(strip(image, max(runs, key=lambda run: run.length)))
    return pitch / STRIP_HEIGHT if pitch else None


def _narrowing(grey_strip: np.ndarray, pitch: float | None) -> tuple[int, float] | None:
    """For a run of TAPER_TILES at least whose two halves repeat (`tile_pitch`) at lengths TAPER_LEAST
    apart or more (a share of their mean): its tile count by that mean, and how much wider its tiles
    are at its right end than at its left (a share of their mean width, at most TAPER_MOST); else None.
    (The whole run's repeat length is blurred where its tiles narrow: so counted, it may gain a tile.)"""
    width = grey_strip.shape[1]
    if not pitch or width < TAPER_TILES * pitch:
        return None
    left, right = tile_pitch(grey_strip[:, :width // 2]), tile_pitch(grey_strip[:, width // 2:])
    if not left or not right:
        return None
    taper = 4 * (right - left) / (right + left)  # the halves' middles lie half the run apart
    if abs(taper) < TAPER_LEAST:
        return None
    return round(2 * width / (left + right)), float(np.clip(taper, -TAPER_MOST, TAPER_MOST))


def tile_pitch(grey_strip: np.ndarray) -> float | None:
    """The run's repeat length in strip pixels: the lag (within PITCH_LAGS of its height) at which
    its columns' edge strength best matches itself shifted; None when the best lag is at an end of
    that range (no repeat inside it). Tiles repeat even where the seams between them are too faint
    to find, as on faces seen at a steep angle. Pips repeat inside faces too, so a rival peak nearly
    as high (PITCH_NEAR) is taken instead when cutting at it is PITCH_PLAINER times as plain."""
    height, width = grey_strip.shape
    edges = np.abs(cv2.Sobel(grey_strip.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3)).mean(axis=0)
    edges -= edges.mean()
    least, most = round(PITCH_LAGS[0] * height), min(round(PITCH_LAGS[1] * height), width // 2)
    if most - least < 3:
        return None
    lags = np.arange(least, most + 1)
    match = np.correlate(edges, edges, mode="full")[width - 1 + lags] / (width - lags)
    best = int(np.argmax(match))
    if not 0 < best < len(lags) - 1:
        return None
    busy = grey_strip.astype(np.float32).std(axis=0)
    rivals = [k for k in range(1, len(lags) - 1)
              if k == best or match[k] >= max(match[k - 1], match[k + 1], PITCH_NEAR * match[best])]
    contrast = {k: _plain_contrast(busy, float(lags[k])) for k in rivals}
    plainest = max(rivals, key=contrast.__getitem__)
    return float(lags[plainest if contrast[plainest] >= PITCH_PLAINER * contrast[best] else best])


def _periodic(run: Run, grey_strip: np.ndarray, profile: np.ndarray, pitch: float) -> Split:
    """Tiles one repeat length wide, cut where the columns are plainest tile after tile (ink keeps
    off a face's edges), every tile whose middle lies in the run. The run found may begin before the
    row's first face or end short of its last (a face mask a patterned cloth breaks up), so its
    outer cuts may lie beyond the run's ends."""
    busy = grey_strip.astype(np.float32).std(axis=0)
    width = len(busy)
    phase = _plainest_phase(busy, pitch)
    first, last = int(np.ceil(-phase / pitch - 0.5)), int(np.floor((width - phase) / pitch - 0.5))
    cuts = [phase + k * pitch for k in range(first, last + 2)]
    inner = [int(np.clip(round(cut), 0, width - 1)) for cut in cuts]
    return Split(run, tuple(cut / width for cut in cuts), _seam_score(profile, inner, pitch))


def _alike(a: Split, b: Split) -> bool:
    """Whether two splits cut as many tiles at nearly the same places (within SAME_CUTS of a tile)."""
    return a.count == b.count and float(np.max(np.abs(np.subtract(a.cuts, b.cuts)))) * a.count < SAME_CUTS


def _comb(busy: np.ndarray, size: float) -> np.ndarray:
    """Per offset (0, 1, ... ``size`` - 1): the mean busyness of the columns every ``size`` from it."""
    width = len(busy)
    phases = np.arange(0.0, size, 1.0)
    places = np.rint(phases[:, None] + size * np.arange(int(width // size) + 1)).astype(int)
    inside = places < width
    return np.where(inside, busy[np.minimum(places, width - 1)], 0.0).sum(axis=1) / inside.sum(axis=1)


def _plain_contrast(busy: np.ndarray, size: float) -> float:
    """How much plainer than usual the plainest columns every ``size`` are (0..1): high when cuts
    that far apart can all fall between faces."""
    comb = _comb(busy, size)
    usual = float(np.median(comb))
    return (usual - float(comb.min())) / max(usual, 1e-6)


def _plainest_phase(busy: np.ndarray, size: float) -> float:
    """The offset of cuts every ``size`` columns in the middle of the widest band of offsets whose
    columns are, on average over the tiles, within PLAIN_SHARE of the plainest (ink keeps off a
    face's edges, so the band is centred on the seams)."""
    comb = _comb(busy, size)
    plain = comb <= comb.min() + PLAIN_SHARE * (comb.max() - comb.min())
    length, widest = 0, (0, 0)
    for index, flag in enumerate(np.concatenate([plain, plain])):  # offsets wrap round: twice over
        length = length + 1 if flag else 0
        widest = max(widest, (min(length, len(plain)), index))
    longest, end = widest
    return float((end - (longest - 1) / 2) % len(plain))


def face_share(grey_strip: np.ndarray) -> float:
    """Where the faces end in a straightened run: the first row in its lower part dark across the
    run (the edge between face and side wall), as a share of the height; 1.0 when there is none."""
    height = grey_strip.shape[0]
    rows = _column_percentile(grey_strip.T, 75)  # ink leaves most of a row blank; the face's lower edge does not
    face = float(np.median(rows[round(0.2 * height):round(0.6 * height)]))
    reach = max(1, round(WALL_LOOK * height))
    for row in range(round(WALL_ROWS[0] * height), round(WALL_ROWS[1] * height)):
        if rows[row] < WALL_DARK * min(face, float(rows[row - reach:row].max())):
            return row / height
    return 1.0


def _split(run: Run, profile: np.ndarray, count: int, spread: float = CUT_SPREAD, taper: float = 0.0) -> Split:
    """``count`` tiles whose cuts lie on the strongest seams, each tile within ``spread`` of the mean
    width (a long run seen at an angle has narrower tiles at its far end, so the cuts may drift), or
    with ``taper``, of its width where the tiles widen by that share of the mean from left to right.

    Its score is the mean strength at the inner cuts less the mean strongest
    seam left inside a tile (a missed seam counts against the reading).
    """
    width = len(profile)
    pitch = width / count
    sizes = [pitch * (1 + taper * ((k + 0.5) / count - 0.5)) for k in range(count)]
    cuts = _best_cuts(profile, [_widths(size, spread) for size in sizes])
    return Split(run, tuple(cut / width for cut in cuts), _seam_score(profile, cuts, pitch))


def _widths(size: float, spread: float) -> tuple[int, int]:
    """The least and most width of a tile ``size`` wide give or take ``spread`` of it."""
    return max(1, int(size * (1 - spread))), int(np.ceil(size * (1 + spread)))


def _best_cuts(profile: np.ndarray, widths: Sequence[tuple[int, int]]) -> list[int]:
    """Cut positions 0 < c1 < ... < width maximising the summed seam strength at the inner cuts,
    tile k between widths[k] (least, most) wide: dynamic programming over the positions (a running
    maximum forward, then the cuts traced back)."""
    width = len(profile)
    gain = np.append(profile, 0.0).astype(np.float32)
    reach = max(most for _, most in widths)
    padded = np.full((1, reach + width + 1), UNREACHABLE, np.float32)  # scores after `reach` unreachable places
    padded[0, reach] = 0.0
    scores = []  # before each tile: the best sum of seams with a cut at each position
    for least, most in widths:
        scores.append(padded[0, reach:].copy())
        best = cv2.dilate(padded[:, reach - most:], _row_kernel(most - least + 1), anchor=(0, 0),
                          borderType=cv2.BORDER_CONSTANT, borderValue=UNREACHABLE)  # best of score[c - most .. c - least]
        padded[0, reach:] = best[0, :width + 1] + gain
    cuts = [width]
    for (least, most), score in zip(reversed(widths), reversed(scores)):
        end = cuts[-1]
        first = max(0, end - most)
        cuts.append(first + int(np.argmax(score[first:end - least + 1])))
    return cuts[::-1]


@cache
def _row_kernel(length: int) -> np.ndarray:
    """A one-row structuring element ``length`` wide."""
    return np.ones((1, length), np.uint8)


def _seam_score(profile: np.ndarray, cuts: list[int], pitch: float) -> float:
    """Mean strength at the inner cuts less the mean strongest seam left inside a tile."""
    inner = [float(profile[cut]) for cut in cuts[1:-1]]
    keep = max(1, round(pitch / 6))
    missed = [float(profile[a + keep:b - keep].max(initial=0.0)) for a, b in zip(cuts, cuts[1:])]
    return (float(np.mean(inner)) if inner else 0.0) - float(np.mean(missed))


def _lying_splits(run: Run, profile: np.ndarray, grey_strip: np.ndarray,
                  tile_height: float | None) -> tuple[Split, ...]:
    """For a run as long as a set (3 or 4 tiles) or part of one (2, where the table shows PAIR_STEP above
    the lying tile), each way of having one of its tiles lie sideways (the claimed tile of an exposed
    set): that tile is 1/LYING_ASPECT times as wide as the others; and a lone tile wider than tall,
    lying, unless the run is more than LONE_LYING of the photo's tile height (a lying tile's face is as
    high as a standing one is wide: so high a run is two standing tiles). Cuts are pulled onto seams as
    in `_split`; each reading says whether the table shows above its lying tile (`step`) and where that
    tile's face begins (`top`)."""
    width, level = len(profile), _face_level(grey_strip)
    high = tile_height is not None and run.height > LONE_LYING * tile_height
    found = []
    for count in LYING_SETS:
        pitch = width / (count - 1 + 1 / LYING_ASPECT)
        alone = count == 1 and LONE_LYING_WIDTH[0] <= width / STRIP_HEIGHT <= LONE_LYING_WIDTH[1]  # the lying tile
        if (count == 1 and high) or not (alone or ASPECTS[0] <= pitch / STRIP_HEIGHT <= PITCH_LAGS[1]):
            continue
        for lying in range(count):
            cuts = _best_cuts(profile, [_widths(pitch / LYING_ASPECT, LYING_SPREAD) if k == lying
                                        else _widths(pitch, CUT_SPREAD) for k in range(count)])
            step = _step(grey_strip, cuts, lying) / level
            if count != 2 or step >= PAIR_STEP:
                found.append(Split(run, tuple(cut / width for cut in cuts), _seam_score(profile, cuts, pitch), lying,
                                   step, _face_top(grey_strip, _inner(cuts[lying], cuts[lying + 1]), level)))
    return tuple(found)


def _inner(start: int, end: int) -> slice:
    """Columns start..end less a sixth of their width at each side (clear of the seams)."""
    inset = (end - start) // 6
    return slice(start + inset, end - inset)


def _step(grey_strip: np.ndarray, cuts: list[int], lying: int) -> float:
    """How much darker the band above a lying tile is than the same band over the standing tiles (0
    with none standing): a tile turned a quarter is as high as the standing ones are wide, so the band
    down to that height (less a margin) over it is table."""
    standing = [k for k in range(len(cuts) - 1) if k != lying]
    if not standing:
        return 0.0
    height = grey_strip.shape[0]
    pitch = float(np.mean([cuts[k + 1] - cuts[k] for k in standing]))
    band = _column_percentile(grey_strip[:max(1, round(STEP_BAND * (height - pitch)))], STEP_SHARE)
    over = np.concatenate([band[_inner(cuts[k], cuts[k + 1])] for k in standing])
    return float(np.median(over) - np.median(band[_inner(cuts[lying], cuts[lying + 1])]))


def _face_top(grey_strip: np.ndarray, columns: slice, level: float) -> float | None:
    """The first row (a share of the strip's height, in its top TOP_SEARCH) where the columns turn as
    bright as a face (FACE_ROW of the faces' ``level``) across them (at their FACE_ACROSS percentile): where
    a lying tile's face begins; None if none does."""
    rows = _column_percentile(grey_strip[:, columns].T, FACE_ACROSS)
    height = grey_strip.shape[0]
    bright = np.flatnonzero(rows[:round(TOP_SEARCH * height)] >= FACE_ROW * level)
    return float(bright[0]) / height if bright.size else None


def rectify(pixels: np.ndarray, quad: Quad, size: tuple[int, int] = FACE_SIZE) -> np.ndarray:
    """The face inside ``quad`` (full-resolution corners) warped upright to ``size`` (w, h)."""
    width, height = size
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    warp = cv2.getPerspectiveTransform(np.float32(quad), target)
    return cv2.warpPerspective(pixels, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
