"""How sharp a photo's tiles are, so the page can say when to take it again.

A camera moving while the shutter is open, or a missed focus, smears the strokes printed on the
faces, and the classifier then misreads tiles by the handful (numbers of one suit for one another:
a 6 of bamboo for a 9, a 2 of characters for a 3). A sharp stroke's edge rises from ink to body
within a pixel or two of the rectified face; smeared along some direction, it rises slowly across
that direction. So a face's sharpness is the steepest 1% of its grey level's slopes, as a share of
its ink-to-body contrast, in the direction where they are least steep (a shake smears one way only),
measured at half the classifier's crop size, or at its own size where smaller (an enlarged face's
edges are wider in pixels, not less sharp), and a photo's is the median over at most MEASURED of its
standing faces.

Chosen on development scenes smeared by camera shake (the 60 of `python -m benchmarks.recognition
--blur`, smeared over 0.25%, 0.5% and 0.75% of their long side) and the tuned real photos, as the
pipeline finds their tiles (session 53, `docs/recognition-history.md`): the scenes as drawn measure
0.86-1.04, smeared over 0.25% 0.65-0.94, 0.5% 0.37-0.74, 0.75% 0.29-0.58. Of the scenes under 0.55,
31% read right but for bonus names (78 scenes), 0.55-0.7 61%, from 0.7 up 95%. The tuned photos
measure 0.69-0.91 and read right, smeared over 0.5% of their long side too (0.66-0.79: their tiles
are large), and shrunk to a quarter of their size 0.68-0.94 (measured at FACE, enlarged, the faces of
the nine with small tiles fell to 0.50-0.64, five of them under BLURRED). A photo under BLURRED is
called blurred.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

BLURRED = 0.55  # a photo whose tiles' median sharpness is under this is called blurred
FACE = (48, 64)  # width, height of the faces measured (rectified at half the classifier's crop size)
STEEPEST = 0.99  # quantile of a face's slopes taken as its edges' steepness
CONTRAST = (0.05, 0.95)  # quantiles of a face's grey levels taken as its ink and its body
MEASURED = 16  # faces measured at most per photo, spread evenly over its tiles
SMALLEST = 16  # a face is measured this many pixels tall at the least
DIAGONAL = np.float32(np.sqrt(0.5))


def _quantiles(values: np.ndarray, shares: tuple[float, ...]) -> np.ndarray:
    """The values at these shares of each row's sorted order (nearest below; rows of an (N, M) array)."""
    ranks = [int(share * (values.shape[-1] - 1)) for share in shares]
    return np.partition(values, ranks, axis=-1)[..., ranks]


def face_sharpness(face: np.ndarray) -> float:
    """The steepest (STEEPEST quantile) grey-level slope per pixel of an RGB face crop, as a share of
    its contrast (CONTRAST quantiles), across, down or along either diagonal, whichever is least; 0
    for a face of one grey level."""
    grey = cv2.cvtColor(face, cv2.COLOR_RGB2GRAY)
    ink, body = _quantiles(grey.ravel(), CONTRAST).astype(np.float32)
    if body <= ink:
        return 0.0
    level = grey.astype(np.float32)
    dx = cv2.Scharr(level, cv2.CV_32F, 1, 0) / 16  # Scharr's weights sum to 16 per unit step
    dy = cv2.Scharr(level, cv2.CV_32F, 0, 1) / 16
    slopes = np.abs(np.stack([dx, dy, (dx + dy) * DIAGONAL, (dx - dy) * DIAGONAL]).reshape(4, -1))
    return float(_quantiles(slopes, (STEEPEST,)).min() / (body - ink))


def face_size(height: float) -> tuple[int, int]:
    """The size (width, height) to measure a face at that stands `height` pixels tall in the photo: FACE,
    or smaller where the face is (an enlarged face's edges are wider in pixels, not less sharp)."""
    scale = min(1.0, max(height, SMALLEST) / FACE[1])
    return round(FACE[0] * scale), round(FACE[1] * scale)


def spread(count: int) -> list[int]:
    """Which of `count` faces to measure: all, or MEASURED of them spread evenly."""
    return sorted({round(i) for i in np.linspace(0, count - 1, min(MEASURED, count))}) if count else []


def photo_sharpness(faces: Sequence[np.ndarray]) -> float | None:
    """The median `face_sharpness` of the faces (rectified at FACE); None for none."""
    return float(np.median([face_sharpness(face) for face in faces])) if len(faces) else None
