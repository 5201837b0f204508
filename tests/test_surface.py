"""Other surfaces along a photo's edges (the floor, a table's rim): found, and read without."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from benchmarks.surround import SIDES, with_band
from vision.io import load
from vision.surface import bands, on_table

DATA = Path(__file__).parent / "data"
TABLE = (40, 110, 70)  # green felt
FLOOR = (200, 200, 204)  # a light grey surface along one edge


def _table(height: int, width: int, seed: int = 0) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0, 2, (height, width, 3))
    return np.clip(np.array(TABLE) + noise, 0, 255).astype(np.uint8)


def _padded(path: Path, size: tuple[int, int] = (1200, 650), top: int = 150) -> np.ndarray:
    """A committed scene laid on more of its own table (a photo taken from further away)."""
    scene = np.asarray(Image.open(path).convert("RGB"))
    border = np.concatenate([scene[:4].reshape(-1, 3), scene[-4:].reshape(-1, 3)])
    noise = np.random.default_rng(2).normal(0, 2, (size[1], size[0], 3))
    canvas = np.clip(np.median(border, axis=0) + noise, 0, 255).astype(np.uint8)
    canvas[top:top + scene.shape[0], :scene.shape[1]] = scene
    return canvas


@pytest.mark.parametrize("side", SIDES)
def test_a_band_of_another_surface_along_a_side_is_found_with_its_boundary(side):
    photo = with_band(_table(600, 800), FLOOR, side, 0.2, 3.0)
    (band,) = bands(photo)
    assert band.quarters == SIDES.index(side)
    assert abs(np.mean(band.depths) - 0.2) < 0.02 and abs(band.depths[1] - band.depths[0]) > 0.02  # tilted
    assert np.abs(np.array(band.table) - TABLE).max() < 8 and band.bare


def test_a_mat_on_another_surface_all_round_has_a_band_along_every_side():
    photo = _table(600, 800)
    for side, tilt in zip(SIDES, (2.0, -1.0, 0.0, 1.0)):
        photo = with_band(photo, FLOOR, side, 0.15, tilt)
    assert sorted(band.quarters for band in bands(photo)) == [0, 1, 2, 3]


@pytest.mark.parametrize("name", ["row_green.jpg", "row_wood.jpg", "row_white.jpg", "row_gingham.jpg",
                                  "row_beige_glare.jpg", "row_close_groups.jpg", "row_kong.jpg"])
def test_a_photo_of_one_table_or_filled_with_tiles_has_no_band(name):
    assert bands(np.asarray(Image.open(DATA / name).convert("RGB"))) == ()
    assert bands(_padded(DATA / name)) == ()


def test_a_band_beyond_a_row_of_tiles_on_the_table_is_no_band_but_the_table_is():
    """The table below a row of tiles is one plain surface with a straight boundary (the row's edge),
    yet it goes on above the row: it is the table, not a band."""
    photo = _padded(DATA / "row_green.jpg", top=300)
    assert bands(photo) == ()


def test_the_photo_is_read_without_its_bands_and_the_offset_says_where_it_lies():
    photo = load(with_band(with_band(_table(600, 800), FLOOR, "left", 0.15, 0.0), FLOOR, "bottom", 0.25, -2.0))
    table, offset = on_table(photo)
    assert offset[0] == pytest.approx(0.15 * 800, abs=6) and offset[1] == 0
    assert abs(table.width - 0.85 * 800) <= 6 and 0.7 * 600 < table.height < 0.8 * 600
    assert np.abs(table.pixels.reshape(-1, 3).astype(int) - TABLE).max(axis=1).mean() < 8  # all table
    plain = load(_table(600, 800))
    assert on_table(plain) == (plain, None)  # a photo with no band is read as it is


def test_a_hand_photographed_with_the_floor_below_reads_as_without_it(monkeypatch):
    from vision import pipeline, recognize

    hand = _padded(DATA / "row_wood.jpg")
    alone = recognize(hand)
    reads = []
    read = pipeline._read_upright
    monkeypatch.setattr(pipeline, "_read_upright", lambda photo: reads.append(photo) or read(photo))
    with_floor = recognize(with_band(hand, FLOOR, "bottom", 0.22, 3.0))
    assert len(reads) == 1 and reads[0].height < 0.8 * 650  # the photo without the floor: a sure, whole hand
    # (no reading of the whole photo could be CUT_TRUST likelier), so it is read once
    assert [tile.tile for tile in with_floor.tiles] == [tile.tile for tile in alone.tiles]
    assert with_floor.hand == alone.hand == "23456799m 345p [555p]"
    assert np.abs(np.array([t.box for t in with_floor.tiles]) - np.array([t.box for t in alone.tiles])).max() < 3
