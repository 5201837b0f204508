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


def test_a_tile_read_turned_is_labelled_inside_its_box():
    """A tile of a photo read turned a quarter has its face's top-left corner at the box's bottom-left:
    its number and code still go at the box's top-left, inside it."""
    box = ((20.0, 180.0), (20.0, 20.0), (140.0, 20.0), (140.0, 180.0))
    tile = pipeline.RecognizedTile("1m", 0.9, (("1m", 0.9),), box, 0, 0, False, False, False)
    result = pipeline.Recognition((tile,), "1m", 200, 240, pipeline.Timings(0.0, 0.0, 0.0))
    drawn = overlay.draw(np.zeros((240, 200, 3), np.uint8), result)
    marked = np.argwhere(drawn.any(axis=2))
    assert marked[:, 0].max() <= 182 and marked[:, 0].min() >= 18  # nothing below the box (rows), or above it
