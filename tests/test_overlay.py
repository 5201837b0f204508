"""What the page shows of a reading: the numbered overlay and each tile's crop."""

from pathlib import Path

import numpy as np
import pytest

from vision import io, overlay, pipeline
from vision.segment import FACE_SIZE

SAMPLE = Path(__file__).resolve().parents[1] / "assets" / "sample_hand.jpg"


@pytest.fixture(scope="module")
def read():
    photo = io.load(SAMPLE)
    return photo.pixels, pipeline.recognize(photo)


def test_overlay_keeps_the_photo_size_and_marks_it(read):
    pixels, result = read
    drawn = overlay.draw(pixels, result)
    assert drawn.shape == pixels.shape
    assert np.count_nonzero(np.any(drawn != pixels, axis=2)) > 1000


def test_crop_is_the_tile_face_upright(read):
    pixels, result = read
    face = overlay.crop(pixels, result, 0)
    assert face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3)
    assert face.mean() > 150  # an ivory face, not the blue table
