"""Which pixels of a photo are tile faces (OpenCV): the mask `vision.segment` cuts into runs.

Faces are bright and unsaturated against the table, whose colours come from the photo's outer
ring. On a patterned cloth (checks, gingham) the cloth's light specks are opened away and what is
unlike the cloth is kept; on a cloth as light as the faces, a face is what its outlines enclose;
faces in a shadow are found again with the light evened out on face-coloured pixels.
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

PATTERN_SPECK = (0.005, 0.05)  # sides of a table pattern's bright specks, as shares of the long side (from 0.01 until
# session 54: a gingham seen from afar, its squares 0.7% of the photo, passed for faces)
PATTERN_SPECKS = 60  # this many such specks make the table patterned
SPECK_SOLID = 0.8  # a speck fills this share of its bounding box at least (a tile face has ink holes)
SPECK_SPREAD = 0.5  # ... and is within this share of the typical speck's area
SPECK_CLOSE = 0.8  # a face's ink among the bright pixels is closed over this many speck sides
SPECK_OPEN = 1.45  # specks (and nearer the camera, larger ones) are removed by an opening with a disc this
# many speck sides across: a row of faces turned 45 degrees keeps its width (a square would need it 1.4 times wider)
CHECK_SIDES = (0.5, 1.5)  # the cloth's dark checks: solid dark blobs this many speck sides a side
GLARE_CHECKS = 4  # what is unlike the cloth yet holds this many of its dark checks in their lattice is the
# cloth in glare (brightened out of its colours), not tiles
LATTICE_STEP = (0.75, 1.25)  # a check is in the lattice where others lie this share of the lattice's step
LATTICE_ACROSS = 0.5  # ... away in two directions across each other (the cosine between them at most this)
INKED_HOLE = 0.2  # a hole in a face blob on a patterned cloth is ink (filled) when this share of it is unlike the cloth
INKED_HOLE_AREA = 3.0  # ... and it is at most this many squared speck sides
LOCAL_REACH = 3.0  # on a patterned cloth, how white it is around a pixel is taken over this many speck sides
LOCAL_SHARE = 0.8  # ... and a face is at least this share as white (a tinted face under a gradient of light)
TABLE_RING = 0.06  # the photo's outer ring this deep (share of the short side) shows the table's colours
TABLE_COLOURS = 3  # colours of a patterned cloth (e.g. gingham: dark, mixed, light)
TABLE_MARGIN = 8.0  # Lab units: a pixel this far from every blend of table colours at least is not table
TABLE_SPREAD = 1.5  # ... and farther than this many times the 99th percentile of the ring's own distances
TABLE_SHADE = 0.6  # the table in a tile's shadow: its colours with this share of their lightness and chroma
LAB_CELL = 8  # Lab levels per colour cell when measuring distances to the table's colours
LAB_SIDE = 256 // LAB_CELL  # colour cells along each Lab axis
LAB_CELLS = np.stack(np.meshgrid(*[np.arange(LAB_SIDE, dtype=np.float32)] * 3, indexing="ij"),
                     axis=-1).reshape(-1, 3)  # every colour cell, in the order the distance table uses
LIGHT_TABLE = 0.25  # the table is light (white or pale cloth) when this share of the photo's outer ring passes for face
SMOOTH_RING = 0.02  # ... and at most this share of the ring is on an edge (tiles filling the frame make many)
EDGE = 40.0  # grey-level gradient (Sobel) of an edge
RING_CONTEXT = 2  # pixels beyond the ring a filter on it sees (a 3x3 blur, then a 3x3 Sobel)
LIGHT_CLOSE = 0.02  # on a patterned table, what is unlike it is closed over this share of the long side
EDGE_BLUR = 5  # on a light table, outlines are found (Canny on each Lab channel) after a Gaussian blur this wide
EDGE_RING = 3.0  # ... where a channel's gradient is this many times the 99th percentile of the outer ring's (the
EDGE_LOW = 0.33  # ... cloth's weave), and continued where it is this share of that (hysteresis)
EDGE_FLOOR = 8.0  # ... but at least this (Sobel of 0-255 levels: a ring with no texture)
EDGE_CLOSE = 5  # pixels: outlines are closed over this before what they enclose is filled (a small tile's are faint)
FACE_PERCENTILE = 80  # the faces' grey level: this percentile of what outlines enclose
FACE_DARK = 0.9  # ... and what is darker than this share of it (side walls, shadows cast on the table) is not face
REFILL_CLOSE = 5  # pixels: the rest is closed over this and filled again (ink)
UNLIKE_OPEN = 0.02  # blobs unlike the table narrower than this share of the long side are dropped
MIN_AREA = 0.0015  # a run covers at least this share of the reduced image (but see `segment.find_runs`)
SHADE_REACH = 0.04  # evening out the light: a face-coloured pixel's light is the brightness closed over this share of
SHADE_FLOOR = 0.35  # ... the long side (ink, seams filled), counted where it is this share of the faces' level at least
FACE_SATURATION = (90, 1.3, 8.0)  # face-coloured: saturation at most 1.3 times the first mask's 90th percentile, + 8
THICKER = 1.15  # a blob of the evened mask is kept unless it is this much thicker than the thickest one within it,
SHADED_SHARE = 0.02  # ... and where it adds this share of their area at least (a part of a face in shadow)
INKED = 0.05  # ... or, thicker, where this share of what it adds encloses at least is ink (faces in a shadow, not table)
SHADE_ALIKE = 1.25  # ... or where what it adds is at most this much more saturated than they are (median)
def face_mask(image: np.ndarray) -> np.ndarray:
    """Pixels bright and unsaturated relative to the photo (tile faces), cleaned up; on a table as
    light as the faces, as seen or with the light evened out (`_evened`: a pale cloth in uneven
    light, whose bright spots are as white as faces), what the faces' outlines enclose. Faces in a
    shadow are found with the light evened out where that continues a blob along its row (`_with_shaded`)."""
    return face_and_cloth(image)[0]


def face_and_cloth(image: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """The `face_mask`, and on a checked or plaid cloth, the pixels that are plainly cloth (`_cloth`;
    else None)."""
    _, saturation, value = cv2.split(cv2.cvtColor(image, cv2.COLOR_RGB2HSV))
    whiteness = cv2.subtract(value, saturation)
    mask = _otsu(whiteness)
    if _light_table(image, mask):
        return _cleaned(_outlined(image)), None
    lit = cv2.subtract(_evened(value, saturation, mask), saturation)
    lit_mask = _otsu(lit)
    if _light_table(image, lit_mask):  # a pale table in uneven light: a bright spot on it is as white as faces
        return _cleaned(_outlined(image)), None
    speck = _pattern_speck(whiteness, mask)
    cloth = None
    if speck is not None:
        raw = _unlike_table(image)
        unlike = _morphology(_closed_unlike(raw), cv2.MORPH_OPEN, round(UNLIKE_OPEN * max(mask.shape)) | 1)
        unlike = _without_glare(unlike, _dark_checks(mask, speck))
        white = _locally_white(whiteness, speck)
        mask = _unpatterned(white, mask, speck, raw) | unlike
        lit_mask = _unpatterned(_locally_white(lit, speck), lit_mask, speck, raw) | unlike
        cloth = _cloth(white, raw)
    return _with_shaded(_cleaned(mask), _cleaned(lit_mask), saturation), cloth


def _otsu(whiteness: np.ndarray) -> np.ndarray:
    """The whiter class of a whiteness map (Otsu's threshold after a 5x5 blur): a mask of 0/255."""
    _, mask = cv2.threshold(cv2.GaussianBlur(whiteness, (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return mask


def _cleaned(mask: np.ndarray) -> np.ndarray:
    """The mask closed, then opened, over a square 1/150 of the long side (at least 3 pixels)."""
    return opened(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, clean_kernel(mask)))


def opened(mask: np.ndarray) -> np.ndarray:
    """The mask opened over a square 1/150 of the long side (at least 3 pixels): its thin fringes dropped."""
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, clean_kernel(mask))


def clean_kernel(mask: np.ndarray) -> np.ndarray:
    size = max(3, round(max(mask.shape[:2]) / 150)) | 1
    return cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))


def _evened(value: np.ndarray, saturation: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Brightness (HSV value) with the light evened out on face-coloured pixels (saturation about
    the faces' of `mask` at most, whatever the light: a shadow darkens, it does not colour). Their
    light is the brightness closed over SHADE_REACH (a face's ink and the seams take the face's
    level); where it is SHADE_FLOOR of the faces' level at least, they are raised to that level.
    The rest (the table, coloured backs and ink, what is too dark to be a face) is left as it is."""
    if not mask.any():
        return value
    share, factor, margin = FACE_SATURATION
    plain = cv2.compare(saturation, factor * _percentile(saturation, share, mask) + margin, cv2.CMP_LE)
    reach = round(SHADE_REACH * max(value.shape)) | 1
    element = cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach))
    light = cv2.blur(cv2.morphologyEx(cv2.bitwise_and(value, plain), cv2.MORPH_CLOSE, element), (5, 5))
    if not light.any():
        return value
    level = _percentile(light, 95, light)
    raised = cv2.max(cv2.divide(value, light, scale=level), value)  # value * level / light, saturated
    return cv2.copyTo(raised, cv2.bitwise_and(plain, cv2.compare(light, SHADE_FLOOR * level, cv2.CMP_GE)), value.copy())


def _percentile(channel: np.ndarray, share: float, mask: np.ndarray) -> float:
    """The `share` percentile of an 8-bit channel's pixels where `mask` is not 0, from their
    histogram (the lowest level reaching it)."""
    counts = np.cumsum(cv2.calcHist([channel], [0], mask, [256], [0, 256]).ravel())
    return float(np.searchsorted(counts, share / 100 * counts[-1]))


def _with_shaded(found: np.ndarray, lit: np.ndarray, saturation: np.ndarray) -> np.ndarray:
    """`found` and each blob of `lit` (the mask with the light evened out) that holds none of its
    blobs, or that continues the ones it holds (`_continues`; the pixels it adds are counted without
    the thin fringe evening leaves along every outline)."""
    least = MIN_AREA * found.size
    mask = found.copy()
    contours, _ = cv2.findContours(lit, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    for contour in (c for c in contours if cv2.contourArea(c) >= least):
        blob = cv2.drawContours(np.zeros_like(found), [contour], -1, 255, cv2.FILLED)
        held, _ = cv2.findContours(found & blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        held = [c for c in held if cv2.contourArea(c) >= least]
        if not held or _continues(contour, held, opened(lit & blob & ~found), found & blob, saturation):
            mask |= lit & blob
    return mask


def _continues(contour: np.ndarray, held: list[np.ndarray], added: np.ndarray, found: np.ndarray,
               saturation: np.ndarray) -> bool:
    """Whether a blob continues the blobs it holds (`held`, their pixels `found`): adding the pixels
    `added`, SHADED_SHARE of their area at least, and either along their rows (across it, along the
    short side of its least-area rectangle, at most THICKER times as thick as the farthest reaching
    of them: a row's shaded end beside one lit tile, narrower than the row is high) or, thicker,
    where what it adds is as little saturated as they are (median `saturation` SHADE_ALIKE times
    theirs at most: a shadow darkens, it does not colour) or has ink (`_ink_share` INKED at least):
    the shaded part of faces, not the table beside a row."""
    area = sum(cv2.contourArea(c) for c in held)
    if np.count_nonzero(added) < SHADED_SHARE * area:
        return False
    corners = cv2.boxPoints(cv2.minAreaRect(contour))
    across = min((corners[1] - corners[0], corners[2] - corners[1]), key=np.linalg.norm)
    thickness = float(np.linalg.norm(across))
    reach = max(np.ptp(c.reshape(-1, 2) @ (across / max(thickness, 1e-6))) for c in held)
    return (thickness <= THICKER * reach
            or _percentile(saturation, 50, added) <= SHADE_ALIKE * _percentile(saturation, 50, found)
            or _ink_share(added) >= INKED)


def _ink_share(mask: np.ndarray) -> float:
    """The share of what a mask's blobs enclose (holes filled) that is not in the mask: a face's ink."""
    filled = _filled(mask)
    return 1 - np.count_nonzero(mask) / max(1, np.count_nonzero(filled))


def outer_ring(array: np.ndarray, of: Callable[[np.ndarray], np.ndarray] = lambda strip: strip) -> np.ndarray:
    """The pixels of the photo's outer ring, TABLE_RING deep (where the table shows, unless tiles
    fill the frame); with `of`, of that function of each of its four strips, computed on the strip
    and RING_CONTEXT more pixels inward (so a 3x3 filter applied twice sees what it would in the photo)."""
    m = max(2, round(TABLE_RING * min(array.shape[:2])))
    wide = m + RING_CONTEXT
    parts = (of(array[:wide])[:m], of(array[-wide:])[-m:], of(array[:, :wide])[:, :m], of(array[:, -wide:])[:, -m:])
    return np.concatenate([part.reshape(-1, *part.shape[2:]) for part in parts])


def _light_table(image: np.ndarray, mask: np.ndarray) -> bool:
    """Whether the table is as light as the tile faces: much of the outer ring passes for face, yet
    the ring is smooth (a photo filled with tiles has ink and seams all along its edges)."""
    if float((outer_ring(mask) > 0).mean()) < LIGHT_TABLE:
        return False
    return float((outer_ring(cv2.cvtColor(image, cv2.COLOR_RGB2GRAY), _gradient) > EDGE).mean()) < SMOOTH_RING


def _gradient(grey: np.ndarray) -> np.ndarray:
    """Grey-level gradient magnitude (Sobel) after a 3x3 Gaussian blur."""
    blurred = cv2.GaussianBlur(grey.astype(np.float32), (3, 3), 0)
    return cv2.magnitude(cv2.Sobel(blurred, cv2.CV_32F, 1, 0), cv2.Sobel(blurred, cv2.CV_32F, 0, 1))


def _filled(mask: np.ndarray) -> np.ndarray:
    """Each blob with its holes filled (a face between its ink and side wall)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.drawContours(np.zeros_like(mask), contours, -1, 255, cv2.FILLED)


def _outlined(image: np.ndarray) -> np.ndarray:
    """On a table as light as the faces, whose colour may be the faces' own: what sharp edges
    enclose (a face's outline, its ink), less what is darker than the faces (a side wall, the shadow
    a tile casts). Glare and the light falling across the cloth have no such edges."""
    enclosed = _filled(_morphology(_outlines(image), cv2.MORPH_CLOSE, EDGE_CLOSE))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(enclosed)
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    levels = np.full(count, np.inf, np.float32)  # each blob's own face level (the light falls off across a photo)
    for label in 1 + np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= MIN_AREA * enclosed.size):  # smaller: no run
        x, y, w, h = stats[label, :4]
        inside = grey[y:y + h, x:x + w][labels[y:y + h, x:x + w] == label]
        levels[label] = FACE_DARK * float(np.percentile(inside, FACE_PERCENTILE))
    face = ((labels > 0) & (grey >= levels[labels])).astype(np.uint8) * 255
    return _filled(_morphology(face, cv2.MORPH_CLOSE, REFILL_CLOSE))


def _outlines(image: np.ndarray) -> np.ndarray:
    """Canny edges of each Lab channel, the thresholds set above the texture of the photo's outer ring."""
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (EDGE_BLUR, EDGE_BLUR), 0), cv2.COLOR_RGB2LAB)
    edges = np.zeros(image.shape[:2], np.uint8)
    for channel in cv2.split(lab):
        dx, dy = cv2.Sobel(channel, cv2.CV_16S, 1, 0), cv2.Sobel(channel, cv2.CV_16S, 0, 1)
        gradient = cv2.magnitude(dx.astype(np.float32), dy.astype(np.float32))
        high = max(EDGE_RING * float(np.percentile(outer_ring(gradient), 99)), EDGE_FLOOR)
        edges |= cv2.Canny(dx, dy, EDGE_LOW * high, high, L2gradient=True)
    return edges


def _closed_unlike(unlike: np.ndarray) -> np.ndarray:
    """What is unlike the table (`_unlike_table`: a tile's ink and side wall), closed over LIGHT_CLOSE and filled."""
    return _filled(_morphology(unlike, cv2.MORPH_CLOSE, round(LIGHT_CLOSE * max(unlike.shape[:2])) | 1))


def _pattern_speck(whiteness: np.ndarray, mask: np.ndarray) -> float | None:
    """On a checked or plaid cloth, the side of its bright specks (`_speck_side` of the whitest of
    the mask's pixels, by Otsu's threshold); None on a plain table."""
    brightest, _ = cv2.threshold(whiteness[mask > 0].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return _speck_side(((whiteness > brightest) * 255).astype(np.uint8))


def _unpatterned(white: np.ndarray, mask: np.ndarray, speck: float, unlike: np.ndarray) -> np.ndarray:
    """On a checked or plaid cloth whose bright specks are `speck` pixels a side: the pixels of the
    mask that are `white` (`_locally_white`) in blobs too big to be a speck of the pattern. (What is
    unlike the cloth's colours, with the gaps closed, is added to it: a tinted tile body can pass for
    the cloth's light squares, its ink and side wall do not.)"""
    bright = (white & (mask > 0)).astype(np.uint8) * 255
    bright = _morphology(bright, cv2.MORPH_CLOSE, round(SPECK_CLOSE * speck) | 1)  # the ink filled
    bright = _inked_holes_filled(bright, unlike, speck)  # ... and ink too large for that (a 1 of dots' circle)
    return _morphology(bright, cv2.MORPH_OPEN, round(SPECK_OPEN * speck) | 1, cv2.MORPH_ELLIPSE)  # specks dropped


def _inked_holes_filled(bright: np.ndarray, unlike: np.ndarray, speck: float) -> np.ndarray:
    """The mask with each hole that holds ink (pixels `unlike` the cloth's colours, INKED_HOLE of it at
    least) and is no larger than INKED_HOLE_AREA squared specks filled: a face's ink, not a square of
    cloth that the light squares around it enclose, nor cloth between rows of tiles."""
    holes = cv2.bitwise_not(bright)
    count, labels = cv2.connectedComponents(holes, connectivity=4)
    border = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    areas = np.bincount(labels.ravel(), minlength=count)
    inked = np.bincount(labels.ravel(), weights=(unlike > 0).ravel(), minlength=count)
    fill = (inked >= INKED_HOLE * np.maximum(areas, 1)) & (areas <= INKED_HOLE_AREA * speck ** 2)
    fill[border] = False
    return np.where(fill[labels], 255, bright).astype(np.uint8)


def _locally_white(whiteness: np.ndarray, speck: float) -> np.ndarray:
    """Whether each pixel is nearly as white as the whitest of the cloth around it (its light squares,
    whatever the light falling across the photo; the stripes between the squares are less white)."""
    reach = round(LOCAL_REACH * speck) | 1
    local = cv2.blur(cv2.dilate(whiteness, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach))), (reach, reach))
    return whiteness > LOCAL_SHARE * local.astype(np.float32)


def _cloth(white: np.ndarray, unlike: np.ndarray) -> np.ndarray:
    """On a checked or plaid cloth, what is plainly cloth: neither `white` (`_locally_white`, as a face
    is, or the cloth's light squares) nor `unlike` its colours (`_unlike_table`: ink, side walls). A
    mask of 0/255."""
    return (~white & (unlike == 0)).astype(np.uint8) * 255


def _dark_checks(mask: np.ndarray, speck: float) -> np.ndarray:
    """The centres (x, y) of a checked cloth's dark checks: solid blobs outside the whiteness mask,
    CHECK_SIDES speck sides a side."""
    _, _, stats, centres = cv2.connectedComponentsWithStats(cv2.bitwise_not(mask))
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    sides = np.sqrt(areas) / speck
    solid = areas >= SPECK_SOLID * stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT]
    return centres[1:][solid & (sides > CHECK_SIDES[0]) & (sides < CHECK_SIDES[1])]


def _without_glare(unlike: np.ndarray, checks: np.ndarray) -> np.ndarray:
    """`unlike` less its blobs that hold GLARE_CHECKS of the cloth's dark checks in their lattice
    (`_in_lattice`): glare on a checked cloth lightens it out of its colours, yet its checks still show.
    (The ink of a face can make a dark blob a check's size, but not a lattice of them.)"""
    count, labels = cv2.connectedComponents(unlike)
    if count < 2 or len(checks) < 2:
        return unlike
    at = np.round(checks).astype(int)
    inside = labels[np.clip(at[:, 1], 0, unlike.shape[0] - 1), np.clip(at[:, 0], 0, unlike.shape[1] - 1)]
    held = np.flatnonzero(inside)
    held = held[_in_lattice(checks, held)]
    counts = np.bincount(inside[held], minlength=count)
    glare = np.flatnonzero(counts >= GLARE_CHECKS)
    return unlike if not len(glare) else np.where(np.isin(labels, glare), 0, unlike).astype(np.uint8)


def _in_lattice(points: np.ndarray, which: np.ndarray) -> np.ndarray:
    """For the points of index `which`, whether other points lie about the lattice's step away (the
    median distance to the nearest point, of every fourth point: LATTICE_STEP of it) in two directions
    across each other."""
    rows = np.concatenate([which, np.arange(0, len(points), 4)])
    offsets = points[None, :, :] - points[rows][:, None, :]
    distances = np.hypot(offsets[..., 0], offsets[..., 1])
    distances[np.arange(len(rows)), rows] = np.inf
    step = float(np.median(distances[len(which):].min(axis=1)))
    found = np.zeros(len(which), bool)
    for index, (offset, distance) in enumerate(zip(offsets[:len(which)], distances)):
        near = offset[(distance > LATTICE_STEP[0] * step) & (distance < LATTICE_STEP[1] * step)]
        directions = near / np.linalg.norm(near, axis=1)[:, None]
        found[index] = bool((np.abs(directions @ directions.T) <= LATTICE_ACROSS).any())
    return found


def _speck_side(bright: np.ndarray) -> float | None:
    """The side of a cloth pattern's bright specks (pixels), if there are PATTERN_SPECKS solid blobs
    of about one size (a check or plaid); None on a plain table."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(bright)
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    boxes = stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT]
    sides = np.sqrt(areas) / max(bright.shape)
    specks = areas[(sides > PATTERN_SPECK[0]) & (sides < PATTERN_SPECK[1]) & (areas >= SPECK_SOLID * boxes)]
    if len(specks) < PATTERN_SPECKS:
        return None
    typical = float(np.median(specks))
    if int((np.abs(specks / typical - 1) < SPECK_SPREAD).sum()) < PATTERN_SPECKS:
        return None
    return float(np.sqrt(typical))


def _morphology(mask: np.ndarray, operation: int, width: int, shape: int = cv2.MORPH_RECT) -> np.ndarray:
    """A morphological operation (a square kernel, or `shape`) that takes the world beyond the photo's edge for table."""
    element = cv2.getStructuringElement(shape, (width, width))
    return cv2.morphologyEx(mask, operation, element, borderType=cv2.BORDER_CONSTANT, borderValue=0)


def _unlike_table(image: np.ndarray) -> np.ndarray:
    """Pixels farther in Lab from every blend of two of the table's colours, and from each of them
    shading into shadow, than the ring's own pixels are, by a margin (`table_colours`): a mask of
    0/255. Distances are looked up per colour cell (LAB_CELL levels a side), not computed per pixel.
    The shadows tiles cast count as table: they neither widen tiles nor join groups."""
    segments, bar = table_colours(image)
    table = segment_distance(LAB_CELLS, segments).reshape(LAB_SIDE, LAB_SIDE, LAB_SIDE) * LAB_CELL
    cells = lab_cells(image)
    return ((table[cells[..., 0], cells[..., 1], cells[..., 2]] > bar) * 255).astype(np.uint8)


def table_colours(image: np.ndarray) -> tuple[list[tuple[np.ndarray, np.ndarray]], float]:
    """The table's colours as Lab segments (in colour cells; k-means on the photo's outer ring: every
    blend of two of its colours, and each shading into shadow), and how far from all of them a colour
    is unlike the table (Lab units): TABLE_SPREAD times the ring's own 99th percentile, or TABLE_MARGIN."""
    ring = outer_ring(image, lab_cells)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.05)
    cv2.setRNGSeed(0)
    _, _, palette = cv2.kmeans(ring[::7].astype(np.float32), TABLE_COLOURS, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    segments = [(a, b) for i, a in enumerate(palette) for b in palette[i:]] + list(zip(palette, _shaded(palette)))
    index = (ring[:, 0].astype(np.int64) * LAB_SIDE + ring[:, 1]) * LAB_SIDE + ring[:, 2]
    counts = np.bincount(index, minlength=LAB_SIDE ** 3)
    present = np.flatnonzero(counts)  # a ring has few distinct colour cells (LAB_CELLS is in this order)
    distances = np.repeat(segment_distance(LAB_CELLS[present], segments), counts[present])
    spread = float(np.percentile(distances, 99)) * LAB_CELL
    return segments, max(TABLE_SPREAD * spread, TABLE_MARGIN)


def lab_cells(image: np.ndarray) -> np.ndarray:
    """Each RGB pixel's Lab colour cell (LAB_CELL levels a side)."""
    return cv2.cvtColor(image, cv2.COLOR_RGB2LAB) // LAB_CELL


def _shaded(palette: np.ndarray) -> np.ndarray:
    """Lab colours (in cells) in shadow: lightness and chroma times TABLE_SHADE."""
    neutral = 128 / LAB_CELL
    shaded = np.column_stack([palette[:, 0] * TABLE_SHADE, neutral + (palette[:, 1:] - neutral) * TABLE_SHADE])
    return shaded.astype(palette.dtype)


def segment_distance(pixels: np.ndarray, segments: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Each pixel's distance to the nearest point on any of the segments (a colour to a colour, or to itself)."""
    best = np.full(len(pixels), np.inf, np.float32)
    for a, b in segments:
        d, relative = b - a, pixels - a
        length = float(d @ d)
        t = np.clip(relative @ d / length, 0, 1) if length else np.zeros(len(pixels), np.float32)
        relative -= t[:, None] * d
        np.minimum(best, np.einsum("ij,ij->i", relative, relative), out=best)
    return np.sqrt(best)
