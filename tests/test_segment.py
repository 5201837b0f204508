"""Segmentation without the model: runs, reading order, and the best seam-based split of each run."""

from pathlib import Path
from typing import Sequence

import cv2
import numpy as np
import pytest

from vision.io import load
from vision.backs import Place, backs_possible, end_caps, flat_share, lower_edge, stands_out
from vision.facemask import _locally_white, _unlike_table, _unpatterned, face_mask, outer_ring
from vision.segment import (FACE_SIZE, LONE_WIDEST, Run, Split, _face_top, _reading_order, _rows_of_a_size, _step,
                            _sized_alike, face_share, find_runs, leaning_seams, photo_tile_aspect, photo_tile_height,
                            rectify, splits, strip, tile_pitch)

DATA = Path(__file__).parent / "data"


def _best_counts(path) -> list[tuple[int, int, int]]:
    small, _ = load(path).reduced()
    return [(run.row, run.group, splits(small, run)[0].count) for run in find_runs(small)]


def test_groups_of_touching_tiles_in_one_row():
    assert _best_counts(DATA / "row_green.jpg") == [(0, 0, 3), (0, 1, 3), (0, 2, 3), (0, 3, 3), (0, 4, 2)]


def test_a_turned_row_is_still_one_row_read_left_to_right():
    counts = _best_counts(DATA / "row_wood.jpg")
    assert [(row, group) for row, group, _ in counts] == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert [count for _, _, count in counts[:3]] == [6, 3, 2]  # the last (777s) is settled by the classifier


def test_the_true_count_is_among_the_hypotheses():
    small, _ = load(DATA / "row_wood.jpg").reduced()
    hypotheses = splits(small, find_runs(small)[-1])
    assert 3 in [split.count for split in hypotheses]
    assert 1 in [split.lying for split in hypotheses]  # its middle tile lies sideways


def test_the_table_shows_above_a_tile_lying_sideways():
    from vision.pipeline import STEP_CLEAR

    small, _ = load(DATA / "row_wood.jpg").reduced()
    runs = find_runs(small)
    steps = {split.lying: split.step for split in splits(small, runs[-1]) if split.count == 3 and split.lying is not None}
    assert steps[1] > STEP_CLEAR > max(steps[0], steps[2])  # its middle tile lies sideways, lower than the others
    assert all(split.step < STEP_CLEAR for split in splits(small, runs[0]) if split.lying is not None)
    lying = next(split for split in splits(small, runs[-1]) if split.count == 3 and split.lying == 1)
    assert 0.3 < lying.top < 0.45  # its face begins that far down the run: the crop starts there, turned upright
    run = Run(((0, 0), (300, 0), (300, 64), (0, 64)), 0, 0)
    turned = Split(run, (0.0, 0.3, 0.7, 1.0), 0.0, lying=1, top=0.4).quads(1.0)[1]
    assert np.array(turned) == pytest.approx(np.array([(210, 25.6), (210, 64), (90, 64), (90, 25.6)]))


def test_a_lying_tiles_face_begins_below_a_light_check_of_the_cloth_above_it():
    """Above a claimed tile lying sideways on a gingham (3026043), one of the cloth's light squares is as
    bright as a face in a third of the tile's columns: its face begins where the rows turn bright across it."""
    strip = np.full((64, 90), 150, np.uint8)  # the cloth's squares of mixed colour
    strip[:20, 30:60] = 235  # a light square
    strip[26:] = 230  # the lying tile's face
    assert _face_top(strip, slice(0, 90), 230.0) == pytest.approx(26 / 64)


def test_the_cloth_above_a_lying_tile_shows_though_a_light_check_lies_along_its_top():
    """The band above a claimed tile lying sideways (a standing tile's width less its own height) is table
    where the band above the standing tiles is face; on a gingham a light square may fill its upper rows."""
    from vision.pipeline import STEP_CLEAR

    strip = np.full((64, 160), 230, np.uint8)  # standing faces 48 wide, a lying one 64 wide between them
    strip[:26, 48:112] = 150  # the cloth's squares of mixed colour above the lying tile
    strip[:6, 48:112] = 235  # a light square along the top
    assert _step(strip, [0, 48, 112, 160], 1) / 230 > STEP_CLEAR


def _wide_faces(count: int = 8, width: int = 72) -> np.ndarray:
    """A straightened run of faces wider than tall (64 high, as seen at a steep angle), glyphs of
    different heights, and only faint seams between them."""
    strip = np.full((64, count * width), 225, np.uint8)
    for k in range(count):
        left = k * width
        strip[:, left:left + 2] = 212  # a faint seam
        top = 10 + 4 * (k % 4)
        strip[top:54 - top // 2, left + 22:left + 50] = 40
        strip[top + 10:top + 16 + 2 * (k % 3), left + 30:left + 42] = 225
    return strip


def test_the_repeat_of_faces_wider_than_tall_gives_their_width():
    assert tile_pitch(_wide_faces()) == pytest.approx(72, abs=1)
    assert tile_pitch(np.full((64, 576), 225, np.uint8)) is None  # bare: no repeat


def test_pips_repeating_inside_faces_do_not_set_the_repeat_length():
    strip = np.full((64, 14 * 60), 225, np.uint8)  # 14 faces 60 wide, faint seams, pips placed
    pips = ((9, 39), (21, 31), (29,), (13, 39))  # so that they match themselves best 52 apart
    for k in range(14):
        strip[:, 60 * k] = 214
        for x in pips[k % 4]:
            strip[12:52, 60 * k + x:60 * k + x + 8] = 60
    assert tile_pitch(strip) == pytest.approx(60, abs=1)


def test_faces_wider_than_tall_are_counted_by_their_repeat():
    strip = _wide_faces()
    run = Run(((0, 0), (576, 0), (576, 64), (0, 64)), 0, 0)
    assert 8 in [split.count for split in splits(strip, run)]


def test_a_run_found_off_the_row_is_still_cut_in_step_with_its_faces():
    strip = _wide_faces()[:, 22:546]  # begins 22 px into the first face, ends 30 px short of the last
    run = Run(((0, 0), (524, 0), (524, 64), (0, 64)), 0, 0)
    borders = [-22 + 72 * k for k in range(9)]  # beyond the run at both ends
    assert any(split.count == 8 and np.allclose(np.multiply(split.cuts, 524), borders, atol=3)
               for split in splits(strip, run))


def test_a_set_of_wide_faces_may_have_one_lying_sideways():
    strip = _wide_faces(count=3, width=76)[:, :227]  # as long as two faces 68 wide and one lying (91 wide)
    run = Run(((0, 0), (227, 0), (227, 64), (0, 64)), 0, 0)
    assert {split.lying for split in splits(strip, run) if split.count == 3} >= {0, 1, 2}


def test_a_speck_far_lower_than_the_tiles_is_not_a_run():
    small, _ = load(DATA / "row_gingham.jpg").reduced()
    runs = find_runs(small)
    assert len(runs) == 4 and all(run.height > 0.6 * max(r.height for r in runs) for run in runs)
    tile, speck = runs[0].corners, ((0.0, 0.0), (30.0, 0.0), (30.0, 20.0), (0.0, 20.0))
    assert _sized_alike([tile, speck]) == [tile]
    assert _sized_alike([speck]) == [speck]


def test_two_wide_faces_may_have_one_lying_sideways():
    """A claimed set laid with a gap beside its lying tile: that tile touches one neighbour, a run of
    two (development scenes 3026036, 5026026: read as three tiles, or two and a half)."""
    strip = _wide_faces(count=2, width=80)[:, :159]  # as long as one face 68 wide and one lying (91 wide)
    strip[:13, 70:] = 60  # the table above the lying tile, as high as the standing one is wide
    run = Run(((0, 0), (159, 0), (159, 64), (0, 64)), 0, 0)
    assert any(split.count == 2 and split.lying == 1 for split in splits(strip, run))
    assert any(split.count == 2 and split.lying == 0 for split in splits(strip[:, ::-1].copy(), run))
    assert not any(split.count == 2 and split.lying is not None  # two standing: no table above either
                   for split in splits(_wide_faces(count=2, width=80)[:, :159], run))


def test_a_standing_tile_beside_a_lying_one_keeps_its_height():
    """A claimed set laid with a gap: its standing tile touching its lying one, whose face is lower.
    The blob covers less than half the run's length above the lying face, and the run was cut down to
    it: read as three tiles there, two of them halves (development scenes 3026228, 6026115)."""
    felt = _felt_with_a_row()
    cv2.rectangle(felt, (480, 200), (527, 264), (238, 236, 230), -1)  # standing, 47 wide and 64 high
    cv2.circle(felt, (504, 232), 12, (30, 30, 30), 3)
    cv2.rectangle(felt, (529, 217), (593, 264), (238, 236, 230), -1)  # lying, its face 47 high
    cv2.circle(felt, (561, 240), 12, (30, 30, 30), 3)
    runs = find_runs(felt)
    assert runs[1].height == pytest.approx(64, abs=3)
    assert (2, 1) in [(split.count, split.lying) for split in splits(felt, runs[1], photo_tile_height([runs[0].corners]))]
    felt[200:217, 480:528] = (40, 110, 60)  # the standing face as low as the lying one: no tile rises
    assert find_runs(felt)[1].height == pytest.approx(47, abs=3)


def test_a_patch_far_taller_than_the_tiles_is_not_a_run():
    """Glare on a checked cloth, as white as the faces, makes a blob 1.6-1.9 times as high as the
    hand's row (development scenes 7026177 and 8026205): no tile of the photo is so much taller."""
    row = ((0.0, 0.0), (330.0, 0.0), (330.0, 42.0), (0.0, 42.0))
    glare = ((400.0, 0.0), (497.0, 0.0), (497.0, 69.0), (400.0, 69.0))
    nearer = ((400.0, 0.0), (450.0, 0.0), (450.0, 60.0), (400.0, 60.0))  # a lone tile nearer the camera
    assert _sized_alike([row, glare, nearer]) == [row, nearer]


def test_a_small_tile_laid_apart_alone_is_a_run():
    """A hand photographed from afar on felt: tiles 25 pixels high in the reduced image, and a flower
    laid apart on its own covers barely a six-hundredth of the image."""
    felt = np.random.default_rng(0).normal((40, 110, 60), 4, (480, 640, 3))
    felt[240:265, 100:300] = 235  # a run of eight faces
    for left in range(100, 300, 25):
        felt[240:265, left] = 150  # the seams
        felt[248:258, left + 8:left + 17] = (200, 40, 40)  # the ink
    felt[240:265, 400:422] = 235  # the lone tile
    felt[248:256, 406:415] = (240, 200, 30)
    small, _ = load(np.clip(felt, 0, 255).astype(np.uint8)).reduced()
    assert [run.group for run in find_runs(small)] == [0, 1]


def _felt_with_rows(*rows: tuple[int, range]) -> np.ndarray:
    """Green felt with rows of faces 47 wide and 64 high, a circle on each: per row, its top and its faces' lefts."""
    felt = np.zeros((480, 720, 3), np.uint8)
    felt[:] = (40, 110, 60)
    for top, lefts in rows:
        for left in lefts:
            cv2.rectangle(felt, (left, top), (left + 47, top + 64), (238, 236, 230), -1)
            cv2.circle(felt, (left + 24, top + 32), 12, (30, 30, 30), 3)
    return felt


def _felt_with_a_row() -> np.ndarray:
    """Green felt with a row of eight faces."""
    return _felt_with_rows((200, range(60, 460, 50)))


def test_a_short_row_joined_to_a_long_one_is_found_as_a_row_of_its_own():
    """Ten faces over four, 4 pixels apart: the mask joins them into one blob, whose rectangle is
    trimmed to the rows covering half its length, the long row; the short row, left out, was lost."""
    felt = _felt_with_rows((150, range(60, 560, 50)), (218, range(60, 260, 50)))
    runs = find_runs(felt)
    assert [(run.row, splits(felt, run)[0].count) for run in runs] == [(0, 10), (1, 4)]


def test_a_lone_tile_whose_picture_has_a_seam_of_its_own_is_one_tile_not_two_rows():
    """A bonus tile laid apart: a flower over a rule and a word. The rule across its face looks like
    the seam between two rows, but rows half as high as every other tile of the photo are not tiles."""
    felt = _felt_with_a_row()
    cv2.rectangle(felt, (540, 200), (587, 264), (238, 236, 230), -1)
    cv2.circle(felt, (564, 218), 10, (200, 30, 30), -1)
    cv2.line(felt, (540, 233), (587, 233), (90, 90, 90), 2)
    cv2.putText(felt, "SPR", (545, 256), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (20, 20, 20), 2)
    runs = find_runs(felt)
    assert [(run.row, run.group) for run in runs] == [(0, 0), (0, 1)]
    assert runs[1].height == pytest.approx(64, abs=3)


def test_a_lone_tile_cut_into_a_low_row_and_a_higher_one_is_kept_whole():
    """A discard lying turned, its character's stroke across it a third of the way down, was cut there
    into rows 21 and 34 pixels high where the photo's tiles are 47: the lower part is nearly a tile's
    height, but the upper is far lower than any tile, and together they are one tile's height."""
    mask = np.zeros((300, 600), np.uint8)
    mask[200:247, 50:450] = 255  # a row of eight tiles 47 high
    mask[60:115, 500:548] = 255  # a lone tile, 55 high with its side wall
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    row, lone = sorted(contours, key=lambda contour: -cv2.contourArea(contour))
    cut = [((500, 60), (548, 60), (548, 81), (500, 81)), ((500, 81), (548, 81), (548, 115), (500, 115))]
    kept = _rows_of_a_size(mask, [(row, [((50, 200), (450, 200), (450, 247), (50, 247))]), (lone, cut)])
    assert len(kept) == 2 and Run(kept[1], 0, 0).height == pytest.approx(55, abs=2)


def test_a_run_as_high_as_the_photos_tiles_is_two_standing_tiles_not_one_lying():
    """Two bonus tiles laid apart are about as long as one tile lying sideways, but a lying tile's face
    is as high as a standing one is wide: lower than the photo's tiles. A run that low may be one."""
    felt = _felt_with_a_row()
    cv2.rectangle(felt, (540, 200), (634, 264), (238, 236, 230), -1)  # two faces touching
    cv2.line(felt, (587, 200), (587, 264), (200, 200, 195), 1)
    cv2.rectangle(felt, (540, 330), (603, 376), (238, 236, 230), -1)  # a face 64 wide and 47 high, lying
    grey = cv2.cvtColor(felt, cv2.COLOR_RGB2GRAY)
    runs = find_runs(felt)
    height = photo_tile_height([run.corners for run in runs])
    pair, lying = runs[1], runs[2]
    assert height == pytest.approx(64, abs=3)
    assert any(split.count == 1 and split.lying == 0 for split in splits(grey, pair))  # the photo's tiles unknown
    assert not any(split.lying is not None for split in splits(grey, pair, height))
    assert any(split.count == 1 and split.lying == 0 for split in splits(grey, lying, height))


def test_two_faces_touching_are_never_one_standing_tile_and_one_face_alone_is():
    """Two bonus tiles laid apart, of a set the classifier knows badly, read as one tile as surely as
    as two: a run about 1.4 times as wide as high is no single standing face (LONE_WIDEST)."""
    felt = _felt_with_a_row()
    cv2.rectangle(felt, (540, 200), (629, 264), (238, 236, 230), -1)  # two faces 45 wide touching
    cv2.line(felt, (585, 200), (585, 264), (200, 200, 195), 1)
    cv2.rectangle(felt, (650, 200), (697, 264), (238, 236, 230), -1)  # one face 48 wide
    grey = cv2.cvtColor(felt, cv2.COLOR_RGB2GRAY)
    runs = find_runs(felt)
    height = photo_tile_height([run.corners for run in runs])
    pair, alone = runs[1], runs[2]
    assert 1.3 < pair.length / pair.height < LONE_WIDEST * 1.2 and alone.length < pair.length / 1.5
    assert {split.count for split in splits(grey, pair, height) if split.lying is None} >= {2}
    assert not any(split.count == 1 and split.lying is None for split in splits(grey, pair, height))
    assert any(split.count == 1 and split.lying is None for split in splits(grey, alone, height))


def test_readings_whose_tiles_are_shaped_unlike_the_photos_are_misfits():
    """The photo's tiles are as wide as its longest row repeats: a run of three faces touching read as two
    tiles is half as wide again per tile, a misfit; read as three it is not."""
    felt = _felt_with_rows((120, range(60, 460, 50)), (300, range(100, 241, 47)))
    for left in (147, 194):
        cv2.line(felt, (left, 300), (left, 364), (200, 200, 195), 1)
    grey = cv2.cvtColor(felt, cv2.COLOR_RGB2GRAY)
    runs = find_runs(felt)
    aspect = photo_tile_aspect(grey, runs)
    assert aspect == pytest.approx(50 / 65, abs=0.05)
    three = max(runs, key=lambda run: run.row)
    misfits = {split.count: split.misfit for split in splits(grey, three, photo_tile_height([r.corners for r in runs]), aspect)
               if split.lying is None}
    assert misfits[3] == 0.0 and misfits.get(2, 1.0) > 0.15
    assert all(split.misfit == 0.0 for split in splits(grey, three))  # the photo's tiles unknown


def test_a_lone_tile_lying_seen_from_low_is_one_lying_tile_though_nearly_twice_as_wide_as_high():
    """Seen from low, a lying tile's face is flattened and its side wall shows below it."""
    felt = _felt_with_a_row()
    cv2.rectangle(felt, (540, 330), (629, 380), (238, 236, 230), -1)  # a face 90 wide and 51 high, lying
    grey = cv2.cvtColor(felt, cv2.COLOR_RGB2GRAY)
    runs = find_runs(felt)
    height = photo_tile_height([run.corners for run in runs])
    lying = runs[-1]
    assert 1.67 < lying.length / lying.height < 2.0 and lying.height < 0.9 * height
    assert any(split.count == 1 and split.lying == 0 for split in splits(grey, lying, height))


def _gingham(light: tuple[float, ...], dark: tuple[float, ...], side: int = 14) -> np.ndarray:
    """A gingham 640 x 480 (float RGB), squares ``side`` pixels a side: ``light``, ``dark`` where two stripes cross."""
    ys, xs = np.indices((480, 640))
    share = 0.5 * ((xs // side) % 2) + 0.5 * ((ys // side) % 2)
    return np.array(light) + share[..., None] * (np.array(dark) - np.array(light))


def _lay_faces(cloth: np.ndarray, lefts: Sequence[int], size: tuple[int, int, int], colours: tuple[tuple[int, ...], ...],
               ink: tuple[int, int, int, int]) -> np.ndarray:
    """Faces from row 200 on, each at one of ``lefts``: ``size`` (width, face height, side wall below it),
    ``colours`` (face, side wall, seam at its left, ink), ``ink`` its box (top, bottom, left, right) in the face."""
    width, height, wall = size
    face, side, seam, dark = colours
    top, bottom, start, end = ink
    for left in lefts:
        cloth[200:200 + height + wall, left:left + width] = side
        cloth[200:200 + height, left:left + width] = face
        cloth[200:200 + height, left:left + 2] = seam
        cloth[200 + top:200 + bottom, left + start:left + end] = dark
    return cloth


def test_a_bright_spot_of_light_on_a_grey_cloth_is_not_taken_for_tiles():
    """A lamp's spot on a grey cloth, as white as the faces and touching their row: with the light
    evened the cloth passes for faces, so the faces are found by their outlines, which the spot has
    not (found as whiteness, the spot and the row were one blob, cut into three rows of 5-8 tiles)."""
    ys, xs = np.indices((480, 640))
    cloth = np.full((480, 640, 3), (150, 146, 138), float) + np.random.default_rng(3).normal(0, 4, (480, 640, 3))
    cloth = _lay_faces(cloth, range(100, 500, 50), (50, 66, 14),
                       ((232, 236, 212), (150, 40, 40), (120, 120, 110), (40, 40, 40)), (16, 50, 14, 36))
    spot = np.exp(-(((xs - 330) / 150) ** 2 + ((ys - 120) / 110) ** 2))
    image = np.clip(cloth * (1 + 0.75 * spot)[..., None], 0, 255).astype(np.uint8)
    (run,) = find_runs(image)
    assert run.height == pytest.approx(66, abs=4) and splits(image, run)[0].count == 8


def test_a_lone_tile_beside_a_far_hand_is_a_run():
    """Faces 26 pixels tall in a 1000 x 750 image: a lone one covers less than MIN_AREA of it, but more
    than half a face of the photo's tiles, so it is a run (until session 54 it was dropped: a flower laid
    apart from a hand far from the camera went missing)."""
    cloth = np.full((750, 1000, 3), (40, 110, 70), float) + np.random.default_rng(1).normal(0, 4, (750, 1000, 3))
    cloth = _lay_faces(cloth, [*range(300, 460, 20), 520], (20, 26, 6),
                       ((232, 236, 212), (150, 40, 40), (120, 120, 110), (40, 40, 40)), (8, 18, 7, 13))
    image = np.clip(cloth, 0, 255).astype(np.uint8)
    row, lone = find_runs(image)
    assert [splits(image, run)[0].count for run in (row, lone)] == [8, 1]
    assert np.mean(lone.corners, axis=0) == pytest.approx((530, 212.5), abs=3)


def test_tiles_far_from_the_camera_on_a_fine_gingham_are_found():
    """Seen from afar, a gingham's squares are small in the photo (5 of 640 pixels): still taken for a
    pattern, its white squares are not faces (PATTERN_SPECK began at 1% of the long side until session
    54: the cloth's white squares and the faces were one blob, cut into 3-tile rows 200 pixels high)."""
    cloth = _lay_faces(_gingham((232, 232, 236), (60, 90, 190), 5), range(200, 408, 26), (26, 34, 8),
                       ((236, 236, 224), (170, 60, 60), (120, 120, 110), (40, 40, 40)), (8, 26, 7, 19))
    image = np.clip(cloth + np.random.default_rng(0).normal(0, 3, cloth.shape), 0, 255).astype(np.uint8)
    (run,) = find_runs(image)
    assert run.height == pytest.approx(41, abs=3) and splits(image, run)[0].count == 8


def _gingham_with_tinted_faces(fall: float) -> np.ndarray:
    """Four yellowish-green faces with ink and a dark side wall on a cream and blue gingham,
    the light falling off to ``fall`` of its strength at the left edge."""
    cloth = _lay_faces(_gingham((228, 216, 188), (70, 100, 170)), range(80, 328, 62), (62, 80, 20),
                       ((208, 217, 163), (130, 30, 40), (90, 90, 70), (40, 40, 40)), (20, 60, 18, 44))
    return (cloth * np.linspace(fall, 1.0, 640)[None, :, None]).astype(np.uint8)


def test_tinted_faces_on_gingham_are_found_where_the_light_falls_off():
    """The faces are less white than the cloth's light squares elsewhere in the photo, not than those around them."""
    image = _gingham_with_tinted_faces(0.75)
    (run,) = find_runs(image)
    assert 240 < run.length < 260 and run.height > 60
    assert splits(image, run)[0].count == 4


def test_a_face_whose_ink_fills_most_of_it_is_kept_on_a_checked_cloth():
    """A 1 of dots on gingham: its circle of ink leaves a thin white ring that the opening dropping the
    cloth's squares would drop too, so a hole holding ink is filled first; a hole of bare cloth is not,
    nor a large inked hole (cloth enclosed between rows, with their side walls and shadows)."""
    from vision.facemask import _inked_holes_filled

    bright = np.zeros((200, 300), np.uint8)
    cv2.rectangle(bright, (20, 20), (60, 75), 255, -1)  # a face, 41 x 56
    cv2.circle(bright, (40, 47), 12, 0, -1)  # its ink: a hole
    cv2.rectangle(bright, (100, 20), (140, 75), 255, -1)  # a face around a hole of bare cloth
    cv2.rectangle(bright, (112, 40), (128, 56), 0, -1)
    cv2.rectangle(bright, (160, 10), (290, 190), 255, -1)  # rows around a large inked gap
    cv2.rectangle(bright, (170, 30), (280, 170), 0, -1)
    unlike = np.zeros_like(bright)
    cv2.circle(unlike, (40, 47), 10, 255, -1)
    cv2.rectangle(unlike, (170, 30), (280, 170), 255, -1)
    filled = _inked_holes_filled(bright, unlike, 14.0)
    assert filled[47, 40] == 255 and filled[48, 120] == 0 and filled[100, 225] == 0
    assert _unpatterned(np.ones_like(bright, bool), bright, 14.0, unlike)[47, 40] == 255


@pytest.mark.parametrize("turn", [0, 20, 30, 40])
def test_a_row_of_faces_little_higher_than_the_clothes_checks_keeps_its_width_however_it_is_turned(turn):
    """Gingham whose light squares are 14 pixels a side, and a row of faces 22 pixels high (with ink)
    turned by `turn` degrees: the squares are dropped, the row is kept whole, however it is turned
    (an opening by a square 1.6 checks wide kept it level, but lost a tenth of it turned 30 degrees)."""
    ys, xs = np.indices((480, 640))
    whiteness = (200 - 80 * ((xs // 14) % 2) - 80 * ((ys // 14) % 2)).astype(np.uint8)
    row = cv2.boxPoints(((320, 240), (200, 22), turn)).astype(np.int32)
    band = cv2.fillPoly(np.zeros((480, 640), np.uint8), [row], 255)
    whiteness[band > 0] = 230
    whiteness[(band > 0) & ((xs // 4) % 5 == 0) & ((ys // 4) % 3 == 0)] = 60  # the ink
    found = _unpatterned(_locally_white(whiteness, 14.0), ((whiteness > 100) * 255).astype(np.uint8), 14.0,
                         ((whiteness == 60) * 255).astype(np.uint8))
    assert np.count_nonzero(found & band) > 0.95 * np.count_nonzero(band)
    assert np.count_nonzero(found & ~cv2.dilate(band, np.ones((29, 29), np.uint8))) == 0  # no square left


def _two_groups_on_gingham(gap: int) -> np.ndarray:
    """Two groups of three tinted faces 24 wide and 30 high (with ink, seams and a dark side wall)
    on a cream and blue gingham whose squares are 14 pixels a side, ``gap`` pixels apart."""
    lefts = [200 + 24 * index + gap * (index >= 3) for index in range(6)]
    return _lay_faces(_gingham((228, 216, 188), (70, 100, 170)), lefts, (24, 30, 6),
                      ((208, 217, 163), (130, 30, 40), (90, 90, 70), (40, 40, 40)), (8, 22, 7, 17)).astype(np.uint8)


@pytest.mark.parametrize(("gap", "counts"), [(0, [6]), (8, [3, 3])])
def test_groups_a_little_apart_on_a_checked_cloth_are_cut_where_the_cloth_shows(gap, counts):
    """Closing the mask over the cloth's checks bridges a gap of 8 pixels between two groups; the
    cloth showing there, no face's white nor anything unlike it, cuts the run (touching tiles stay one)."""
    image = _two_groups_on_gingham(gap)
    runs = find_runs(image)
    assert [splits(image, run)[0].count for run in runs] == counts
    assert [run.group for run in runs] == list(range(len(counts)))


def test_glare_on_a_checked_cloth_beside_a_row_is_not_taken_for_tiles():
    """A spot of glare lightens a blue gingham out of its colours beside a row of 14 faces 360 wide:
    its dark checks still show in their lattice, so it is cloth, and the row is found on its own."""
    cloth = _lay_faces(_gingham((225, 228, 245), (60, 90, 200)), range(120, 480, 26), (26, 32, 8),
                       ((238, 234, 240), (170, 150, 190), (150, 150, 160), (200, 40, 40)), (8, 24, 8, 18))
    ys, xs = np.indices((480, 640))
    glare = 153 * np.exp(-((xs - 420) ** 2 + (ys - 170) ** 2) / (2 * 58.0 ** 2))
    (run,) = find_runs(np.clip(cloth + glare[..., None], 0, 255).astype(np.uint8))
    assert 340 < run.length < 380 and run.height < 50


def test_a_pair_whose_box_lies_level_at_the_end_of_a_slanted_row_stays_in_that_row():
    """Two rows slanting down to the right; the upper one ends in two bonus tiles whose box lies level,
    and its level line runs through the lower row's middle: the pair belongs to the row whose line
    it is on, and the lower row stays a row of its own, read after the upper one."""
    upper = [((113, 138), (227, 167), (217, 207), (103, 178)), ((242, 165), (348, 188), (338, 235), (232, 213)),
             ((366, 193), (467, 214), (457, 261), (356, 240))]
    pair = ((480, 224), (545, 224), (545, 270), (480, 270))
    lower = ((109, 204), (273, 239), (264, 285), (99, 249))
    runs = _reading_order([*upper, lower, pair])
    assert [(run.row, run.group) for run in runs] == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)]
    assert runs[-1].corners == lower


def test_discards_turned_each_their_own_way_make_a_row_of_their_own():
    """A slanted hand row; above it a row of sets (a kong, a pair, a chow cut in two, a flower alone);
    above that a row of discards, each turned its own way. A discard's own slant runs through the
    flower: a tile alone lies on the line the photo's rows run, not its own."""
    hand = ((76, 248), (449, 331), (438, 382), (65, 299))
    sets = [((143, 176), (242, 199), (230, 254), (131, 231)), ((310, 234), (374, 249), (364, 289), (300, 274)),
            ((381, 232), (479, 254), (467, 308), (369, 285)), ((517, 259), (560, 277), (539, 328), (496, 311))]
    discards = [((98, 117), (147, 72), (182, 109), (134, 155)), ((228, 97), (274, 120), (247, 175), (201, 153)),
                ((313, 122), (362, 136), (344, 195), (295, 180)), ((405, 155), (456, 152), (460, 210), (409, 213)),
                ((501, 170), (550, 180), (538, 238), (489, 227))]
    runs = _reading_order([*sets, hand, *discards])
    assert [run.corners for run in runs] == [*discards, *sets, hand]
    assert [run.row for run in runs] == [0] * 5 + [1] * 4 + [2]


def test_a_row_of_upright_discards_does_not_set_the_way_a_slanted_hand_runs():
    """A hand row slanting down to the right; above it discards whose boxes lie level and a flower set
    apart at the left, below the discards' line: the rows run the hand's way, so the flower is a row
    of its own and not on the line of the last discard."""
    hand = ((71, 227), (559, 344), (549, 388), (61, 271))
    discards = [((84, 110), (123, 89), (145, 130), (106, 151)), ((165, 114), (205, 110), (210, 157), (169, 161)),
                ((308, 146), (346, 146), (346, 191), (308, 191)), ((370, 162), (412, 162), (412, 205), (370, 205)),
                ((444, 181), (481, 176), (487, 221), (450, 226)), ((523, 198), (564, 198), (564, 241), (523, 241))]
    flower = ((74, 167), (113, 167), (113, 209), (74, 209))
    runs = _reading_order([hand, flower, *discards])
    assert [(run.corners, run.row) for run in runs] == [(box, 0) for box in discards] + [(flower, 1), (hand, 2)]


def test_a_pair_a_little_more_level_than_its_row_does_not_reach_the_discards_far_beside_it():
    """A hand turned a sixth of a right angle, a chow and a pair of flowers after it; above it a row of
    discards. The pair's box lies a little more level than the row, and its line, carried far to the
    left, runs through the first discards: the line of a run of two tiles runs the rows' way too."""
    hand = ((63, 331), (403, 223), (417, 267), (77, 375))
    chow = ((412, 219), (509, 189), (523, 233), (426, 264))
    flowers = ((517, 182), (588, 166), (599, 212), (527, 228))
    discards = [((64, 260), (100, 291), (79, 315), (43, 284)), ((108, 250), (150, 250), (150, 289), (108, 289)),
                ((177, 225), (210, 228), (205, 273), (172, 269)), ((233, 206), (274, 206), (274, 250), (233, 250)),
                ((291, 198), (322, 177), (348, 214), (317, 235)), ((365, 166), (398, 159), (408, 204), (374, 212)),
                ((420, 141), (467, 141), (467, 183), (420, 183))]
    runs = _reading_order([hand, chow, flowers, *discards])
    rows = [(box, 0) for box in discards] + [(box, 1) for box in (hand, chow, flowers)]
    assert [(run.corners, run.row) for run in runs] == rows


def test_a_winning_tile_laid_a_little_apart_is_a_group_of_its_own_though_its_box_is_turned_against_the_row():
    """A slanted row of 13 concealed tiles (3026084 of `winner_apart_hand`), and the winning tile
    laid about 0.2 of a tile's height after it, its box turned 12 degrees further than the row's: its
    lowest corner reaches back to within 0.1 of a height of the row's end, its side lies further."""
    row = ((112, 173), (489, 321), (472, 364), (95, 216))
    winner = ((504, 322), (534, 342), (508, 381), (478, 361))
    runs = _reading_order([row, winner])
    assert [(run.corners, run.row, run.group) for run in runs] == [(row, 0, 0), (winner, 0, 1)]
    touching = tuple((x - 8, y - 3) for x, y in winner)  # moved back along the row: it touches the row
    assert [run.group for run in _reading_order([row, touching])] == [0, 0]


def test_a_standing_tile_after_a_lying_one_found_apart_stays_in_its_set():
    """A claimed chow whose middle tile lies sideways (8026046): its lying tile's run is lower than the
    standing tile found apart after it; they touch below, and are one group."""
    pung = ((147, 113), (319, 166), (300, 228), (128, 175))
    lying = ((342, 177), (455, 218), (437, 265), (324, 224))
    standing = ((470, 195), (517, 213), (495, 273), (447, 255))
    assert [run.group for run in _reading_order([pung, lying, standing])] == [0, 1, 1]


def test_a_run_found_lower_than_its_tiles_is_still_in_their_row():
    """On gingham the faces of a run were found in part, a box 36 high where the tiles are 55: the
    shorter run beside it lies on its line within half the higher one's height, not its own."""
    low = ((141, 139), (345, 198), (335, 233), (131, 174))
    beside = ((392, 188), (548, 222), (536, 276), (380, 242))
    below = ((114, 215), (520, 297), (510, 346), (104, 263))
    runs = _reading_order([beside, below, low])
    assert [(run.corners, run.row) for run in runs] == [(low, 0), (beside, 0), (below, 1)]


def test_two_rows_are_read_top_first():
    small, _ = load(DATA / "row_green.jpg").reduced()
    two_rows = np.vstack([small, small])
    runs = find_runs(two_rows)
    assert [(run.row, run.group) for run in runs] == [(row, group) for row in (0, 1) for group in range(5)]


@pytest.mark.parametrize(("name", "count"), [("2-1.jpg", 9), ("2-2.jpg", 7), ("2-3.jpg", 8), ("2-4.jpg", 9), ("2-5.jpg", 9)])
def test_real_single_rows_split_into_their_tiles(shared_datasets, name, count):
    small, _ = load(shared_datasets / "real-photos" / "raw-images" / name).reduced()
    (run,) = find_runs(small)
    assert splits(small, run)[0].count == count


def test_a_grid_filling_the_frame_in_uneven_light_is_cut_into_its_rows(shared_datasets):
    pixels = load(shared_datasets / "real-photos" / "raw-images" / "1-4.jpg").pixels  # 2 x 4 tiles, frame-cut
    height, width = pixels.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    light = 1 + 0.172 * (0.473 * xs / width - 0.881 * ys / height - 0.5)  # from the top right: a quarter less bottom left
    small, _ = load(np.clip(pixels * light[..., None], 0, 255).astype(np.uint8)).reduced()
    # the one frame-cut row as tall as three, which the seams fit best there, is taller than the blob is wide
    assert [run.row for run in find_runs(small)] == [0, 1, 2, 3]


def test_a_grid_filling_the_frame_keeps_its_row_seams_beside_the_edge_of_a_shadow(shared_datasets):
    """A phone's shadow over the lower rows (`benchmarks.lighting`'s "shadow below"): its edge crosses
    the grid at a slant just below a row seam, and without the light evened that seam merged into the
    edge's ramp of darkness, so the grid was read as one row twice as tall (2 of 20 tiles found)."""
    from benchmarks.lighting import LIGHTS

    pixels = load(shared_datasets / "real-photos" / "raw-images" / "1-5.jpg").pixels  # 4 x 5 tiles
    small, _ = load(LIGHTS["shadow below"](pixels)).reduced()
    assert [run.row for run in find_runs(small)] == [0, 1, 2, 3]


def test_a_row_crossed_by_the_slanting_edge_of_a_shadow_is_cut_upright(shared_datasets):
    """Seen as it is, the shadow's edge across the third row of 6-1 is a ramp of darkness that columns
    sheared 0.4 line up with (its tiles were cut as leaning parallelograms, 6 of 9 misread); with the
    light evened that lean's seams are faint, and the upright seams win on the mean of the two."""
    from benchmarks.lighting import LIGHTS

    pixels = load(shared_datasets / "real-photos" / "raw-images" / "6-1.png").pixels  # 4 x 9 tiles
    small, _ = load(LIGHTS["shadow below"](pixels)).reduced()
    crossed = [run for run in find_runs(small) if run.row == 2]
    assert [leaning_seams(strip(small, run))[0] for run in crossed] == [0.0]
    assert splits(small, crossed[0])[0].count == 9


@pytest.mark.parametrize(("name", "axis"), [("1-6.jpg", 1), ("6-2.png", 1), ("1-6.jpg", 0)])
def test_a_grid_whose_middle_row_seam_is_clearest_is_cut_into_all_its_rows_in_light_falling_off(shared_datasets, name, axis):
    pixels = load(shared_datasets / "real-photos" / "raw-images" / name).pixels  # 4 rows of tiles
    light = np.linspace(1.0, 0.65, pixels.shape[axis], dtype=np.float32)  # from the left to the right, or downwards
    light = light[None, :, None] if axis else light[:, None, None]
    small, _ = load(np.clip(pixels * light, 0, 255).astype(np.uint8)).reduced()
    assert sorted({run.row for run in find_runs(small)}) == [0, 1, 2, 3]


def test_a_blob_found_with_the_light_evened_is_taken_where_it_continues_a_row():
    from vision.facemask import _with_shaded

    table = np.full((100, 400), 120, np.uint8)  # saturation: a coloured table, ...
    found = np.zeros((100, 400), np.uint8)
    found[40:60, 50:200] = 255  # a row in the light
    shaded = found.copy()
    shaded[40:60, 200:300] = 255  # ... going on into a shadow
    glare = found.copy()
    glare[20:80, 150:260] = 255  # ... taking in the table's glare: thicker
    fringe = found.copy()
    fringe[39, 50:200] = 255  # ... a thin fringe along its outline: the same blob
    faces = np.where(shaded > 0, 20, table).astype(np.uint8)  # ... and faces far less saturated
    assert _with_shaded(found, shaded, faces)[50, 250] == 255
    assert _with_shaded(found, glare, faces)[50, 250] == 0
    assert np.array_equal(_with_shaded(found, fringe, faces), found)
    one = np.zeros_like(found)
    one[30:70, 50:80] = 255  # one tile in the light, narrower than it is high
    row = one.copy()
    row[30:70, 80:200] = 255  # ... its row going on into the shadow: as thick as that tile is high
    assert _with_shaded(one, row, np.where(row > 0, 20, table).astype(np.uint8))[50, 150] == 255
    apart = np.zeros_like(found)
    apart[20:35, 50:150], apart[60:75, 180:280] = 255, 255  # two rows lit, one above the other's line
    between = apart.copy()
    between[20:75, 50:280] = 255  # ... and the glare between them: thicker than either
    assert _with_shaded(apart, between, np.where(apart > 0, 20, table).astype(np.uint8))[45, 160] == 0
    grid = np.zeros((200, 400), np.uint8)
    grid[0:200, 0:120] = 255  # the lit part of a grid of faces filling the photo
    darker = grid.copy()
    darker[0:200, 120:190] = 255  # ... a blob wider than the lit part reaches across it, adding table
    inked = darker.copy()
    for y in range(10, 190, 40):
        inked[y:y + 20, 135:175] = 0  # ... or adding ink, as faces have
    coloured = np.where(grid > 0, 20, 120).astype(np.uint8)
    assert _with_shaded(grid, darker, coloured)[100, 125] == 0
    assert _with_shaded(grid, inked, coloured)[100, 125] == 255
    assert _with_shaded(grid, darker, np.where(darker > 0, 20, 120).astype(np.uint8))[100, 125] == 255  # ... or
    # adding what is no more saturated than the faces: their shaded part


def test_rectify_makes_an_upright_face():
    pixels = np.zeros((100, 100, 3), np.uint8)
    pixels[20:60, 30:60] = 255
    face = rectify(pixels, ((30, 20), (60, 20), (60, 60), (30, 60)))
    assert face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3) and face[5:-5, 5:-5].min() == 255


def test_the_side_wall_below_the_faces_is_left_out_of_each_face():
    small, _ = load(DATA / "row_green.jpg").reduced()
    faces = [split.run.face for run in find_runs(small) for split in splits(small, run)[:1]]
    assert all(0.75 <= face <= 0.85 for face in faces), faces  # the render's faces end at about 0.8


def test_a_run_without_a_dark_lower_edge_is_all_face():
    strip = np.full((64, 200), 220, np.uint8)
    assert face_share(strip) == 1.0
    strip[52:54] = 120  # the face's lower edge, then the wall
    strip[54:] = 190
    assert face_share(strip) == 52 / 64
    falling = np.linspace(240, 120, 64)[:, None] * np.ones((1, 200))  # light falling off down the faces
    assert face_share(falling.astype(np.uint8)) == 1.0
    falling[56:58] *= 0.6  # ... to their lower edge
    assert face_share(falling.astype(np.uint8)) == 56 / 64


def test_cuts_follow_seams_that_drift_along_a_slanted_run():
    from vision.segment import _best_cuts

    seams = [0, 60, 116, 168, 216]  # tiles narrowing towards the far end
    profile = np.zeros(216, np.float32)
    profile[seams[1:-1]] = 1.0
    assert _best_cuts(profile, [(46, 62)] * 4) == seams


def test_the_tiles_of_a_long_run_narrowing_towards_its_far_end_are_cut_at_their_faint_seams():
    widths = np.round(np.linspace(58, 46, 12)).astype(int)  # a long row seen from its side: 23% narrower at its end
    borders = np.concatenate([[0], np.cumsum(widths)])
    length = int(borders[-1])
    strip = np.full((64, length), 225, np.uint8)
    for k, (left, right) in enumerate(zip(borders, borders[1:])):
        strip[:, left:left + 2] = 218  # a faint seam
        top, middle = 10 + 4 * (k % 4), (left + right) // 2
        strip[top:54 - top // 2, middle - 10:middle + 10] = 40  # glyphs of different heights
        strip[top + 10:top + 16 + 2 * (k % 3), middle - 5:middle + 5] = 225
    run = Run(((0, 0), (length, 0), (length, 64), (0, 64)), 0, 0)
    assert any(split.count == 12 and np.allclose(np.multiply(split.cuts, length), borders, atol=3)
               for split in splits(strip, run))


def test_seams_leaning_in_a_run_seen_at_an_angle_are_found_along_their_lean():
    from vision.segment import Run, Split, leaning_seams

    strip = np.full((64, 300), 220, np.uint8)
    for x in (60, 120, 180, 240):  # seams whose tops lie 12 pixels ahead of their bottoms (a lean of 0.2)
        for y in range(64):
            strip[y, round(x + 0.2 * (32 - y)) - 1:round(x + 0.2 * (32 - y)) + 1] = 60
    lean, profile = leaning_seams(strip)
    assert lean == pytest.approx(0.2)
    peaks = [profile[x - 2:x + 2].max() for x in (60, 120, 180, 240)]
    assert min(peaks) > 0.2 and max(profile[x + 10:x + 50].max() for x in (60, 120, 180)) < 0.1 * min(peaks)
    run = Run(((0, 0), (300, 0), (300, 64), (0, 64)), 0, 0, lean=lean)
    (top_left, top_right, bottom_right, bottom_left), = Split(run, (0.2, 0.4), 0.0).quads(1.0)
    assert top_left == pytest.approx((66.4, 0)) and bottom_left == pytest.approx((53.6, 64))


def test_the_dark_backs_of_a_concealed_kong_found_as_one_run_do_not_set_its_seams_lean():
    strip = np.full((64, 184), 210, np.uint8)  # a back, two faces, a back, straightened as one run
    strip[:, :45] = strip[:, 139:] = 23
    strip[:56, 45] = strip[:56, 138] = 150  # the faces' rims against the backs
    strip[:56, 91:93] = 203  # the faint seam between the faces
    for x in (45, 91, 138):
        strip[56:60, x - 1:x + 2] = 25  # notches where the tiles meet at their lower edges
    for row, (face, back) in enumerate(zip((200, 176, 166, 126), (60, 133, 163, 134))):
        strip[56 + row, 47:90] = strip[56 + row, 94:137] = face  # the tiles' light lower edges
        strip[56 + row, :44] = strip[56 + row, 140:] = back
    strip[60:] = 30  # the side wall below them
    assert leaning_seams(strip)[0] == 0.0  # sheared 0.4, a back's edge is a dark wedge beside the face


def _ring_as_face(path) -> float:
    """The share of the photo's outer ring that the face mask takes for tile faces."""
    small, _ = load(path).reduced()
    return float((outer_ring(face_mask(small)) > 0).mean())


def test_a_white_cloth_is_not_taken_for_tile_faces(shared_datasets):
    assert _ring_as_face(DATA / "row_white.jpg") < 0.02
    assert _ring_as_face(shared_datasets / "real-photos" / "raw-images" / "2-1.jpg") > 0.9  # tiles fill that frame


def test_a_shadow_on_the_table_is_table_but_a_tile_is_not():
    felt = np.full((200, 300, 3), (40, 110, 60), dtype=np.uint8)
    felt[60:140, 40:120] = (26, 72, 39)  # the felt in a tile's shadow
    felt[60:140, 170:230] = (238, 232, 210)  # an ivory tile
    unlike = _unlike_table(felt) > 0
    assert unlike[70:130, 50:110].mean() < 0.01 and unlike[70:130, 180:220].mean() > 0.99


def test_a_back_may_stand_beside_a_run_but_not_a_dark_stripe_of_plaid():
    bands = (np.arange(600) - 20) // 60 % 2  # upright stripes 60 wide, dark where even
    image = np.where(bands[None, :, None] == 0, (120, 30, 35), (200, 70, 70)).astype(np.uint8)
    image = image.repeat(300, axis=0)
    image[100:180, 200:440] = (238, 232, 210)  # four faces
    image[100:180, 440:500] = (44, 78, 160)  # a face-down tile after them; before them, a dark stripe
    run = Run(((200, 100), (440, 100), (440, 180), (200, 180)), 0, 0)
    before, after = end_caps(run)
    assert stands_out(image, before) and stands_out(image, after)  # each differs from what lies beyond it
    assert backs_possible(image, [(before, after)]) == ((Place.SHADE, Place.BACK),)  # the stripe: the table's colours


def test_a_dark_back_on_a_grainy_cloth_passes_for_its_shade_not_for_bare_cloth():
    rng = np.random.default_rng(1)
    light = np.linspace(0.75, 1.1, 500)[None, :, None]  # falling off to the left
    image = np.full((300, 500, 3), (80, 50, 110), float) * light + rng.normal(0, 9, (300, 500, 3))
    image = np.clip(image, 0, 255).astype(np.uint8)  # a grainy purple cloth
    image[100:180, 200:320] = (238, 232, 210)  # two faces
    image[100:180, 140:200] = image[100:180, 320:380] = (24, 24, 32)  # a slate back at each end
    run = Run(((200, 100), (320, 100), (320, 180), (200, 180)), 0, 0)
    assert backs_possible(image, [end_caps(run)]) == ((Place.SHADE, Place.SHADE),)  # near the cloth in shadow
    image[100:180, 140:200] = image[10:90, 140:200]  # bare cloth there instead
    image[100:180, 320:380] = image[10:90, 320:380]
    assert backs_possible(image, [end_caps(run)]) == ((Place.BARE, Place.BARE),)


def _felt_with_a_pair() -> np.ndarray:
    """Grainy teal felt and two faces 80 high (200-320 across), with their light lower edge and shadow."""
    image = np.full((300, 500, 3), (30, 110, 120), float) + np.random.default_rng(2).normal(0, 6, (300, 500, 3))
    image[100:180, 200:320] = (238, 232, 210)
    image[180:186, 200:320] = (200, 196, 180)  # the side wall
    image[186:194, 200:320] = (12, 50, 55)  # the shadow
    return image


def test_a_back_the_colour_of_the_felt_shows_its_light_lower_edge_bare_felt_does_not():
    """Green backs on green felt: the places beside the pair are the felt's colour either way, but a
    face-down tile there shows its light face layer as a thin band at its foot, then its shadow."""
    run = Run(((200, 100), (320, 100), (320, 180), (200, 180)), 0, 0)
    image = _felt_with_a_pair()
    assert [lower_edge(np.clip(image, 0, 255).astype(np.uint8), cap) for cap in end_caps(run)] == [False, False]
    assert backs_possible(np.clip(image, 0, 255).astype(np.uint8), [end_caps(run)]) == ((Place.BARE, Place.BARE),)
    image[176:182, 140:200] = image[176:182, 320:380] = (225, 220, 200)  # the backs' face layers
    image[182:190, 140:200] = image[182:190, 320:380] = (12, 50, 55)  # their shadows
    image = np.clip(image, 0, 255).astype(np.uint8)
    assert [lower_edge(image, cap) for cap in end_caps(run)] == [True, True]
    assert backs_possible(image, [end_caps(run)]) == ((Place.SHADE, Place.SHADE),)
    image[182:260, 140:200] = (238, 232, 210)  # a light band at the foot, then more tiles: not a lone back's edge
    assert not lower_edge(image, end_caps(run)[0])


def test_a_back_wider_than_the_place_beside_a_run_may_still_stand_there():
    image = np.full((300, 700, 3), (40, 110, 60), np.uint8)  # plain felt: flat, but the table
    image[100:180, 200:440] = (238, 232, 210)  # four faces
    image[100:180, 440:540] = (24, 24, 32)  # a face-down tile wider than the place checked beside them
    run = Run(((200, 100), (440, 100), (440, 180), (200, 180)), 0, 0)
    before, after = end_caps(run)
    assert not stands_out(image, after)  # what lies beyond is mostly the same back
    assert backs_possible(image, [(before, after)]) == ((Place.BARE, Place.BACK),)


def test_a_face_down_tile_is_flat_a_face_or_a_crop_over_the_table_is_not():
    back = np.full((128, 96, 3), (24, 24, 32), np.uint8)
    back[112:] = (230, 226, 214)  # the side wall below, left out
    assert flat_share(back) == 1.0
    face = np.full((128, 96, 3), (238, 232, 210), np.uint8)
    for y in (30, 64, 98):
        cv2.circle(face, (48, y), 14, (30, 90, 40), -1)
    assert flat_share(face) < 0.8
    beside = back.copy()
    beside[:, :40] = (40, 110, 60)  # half of it table
    assert flat_share(beside) < 0.8


def test_tiles_on_a_white_cloth_are_found():
    assert _best_counts(DATA / "row_white.jpg") == [(0, 0, 3), (0, 1, 3), (0, 2, 3), (0, 3, 3), (0, 4, 2)]


def test_on_a_light_cloth_faces_are_their_outlines_not_glare():
    """Faces as light as the cloth: what their outlines enclose is face, and the glare beside them
    (lighter than the cloth, but with no edge) joins no run."""
    assert _best_counts(DATA / "row_beige_glare.jpg") == [(0, 0, 3), (0, 1, 3), (0, 2, 2), (0, 3, 3)]


def test_rows_cut_by_the_photo_frame_are_still_found(shared_datasets):
    """A tight crop of a grid of tiles: the frame cuts the top and bottom rows of tiles."""
    crop = load(shared_datasets / "real-photos" / "raw-images" / "6-3.png").pixels[5:319, 72:638]
    small, _ = load(crop).reduced()
    assert [(run.row, splits(small, run)[0].count) for run in find_runs(small)] == [(0, 8), (1, 8), (2, 8)]


def _rows_of(shared_datasets, name: str, x: int, y: int, width: int, height: int) -> list[int]:
    crop = load(shared_datasets / "real-photos" / "raw-images" / name).pixels[y:y + height, x:x + width]
    small, _ = load(crop).reduced()
    return [run.row for run in find_runs(small)]


def test_a_grid_filling_the_frame_is_cut_at_clear_row_seams_where_its_columns_are_faint(shared_datasets):
    """White tiles packed tight: the column seams fit one row about as badly as three, but the frame cuts
    the grid, so it is a grid of tiles, and its clear row seams decide."""
    assert _rows_of(shared_datasets, "6-1.png", 62, 38, 573, 237) == [0, 1, 2]


def test_a_grid_with_faint_row_seams_is_cut_where_its_columns_fit_the_rows_far_better(shared_datasets):
    assert _rows_of(shared_datasets, "6-2.png", 20, 33, 617, 258) == [0, 1, 2]


def _on_felt_seen(shared_datasets, name: str, narrowing: float, turn: float) -> np.ndarray:
    """A real photo laid on felt and seen anew as `benchmarks.recognition --camera` does, reduced."""
    from benchmarks.recognition import on_felt, viewed

    photo = load(shared_datasets / "real-photos" / "raw-images" / name).pixels
    small, _ = load(viewed(on_felt(photo, np.random.default_rng(0)), narrowing, turn)).reduced()
    return small


def test_a_grid_seen_at_an_angle_with_its_rows_out_of_line_is_cut_at_its_row_seams(shared_datasets):
    """Four rows of four laid out of line, on felt, seen turned and with the far side narrower: no column
    is a seam all the way down, so the column seams fit neither one row nor four; the clear row seams decide."""
    small = _on_felt_seen(shared_datasets, "1-6.jpg", 0.1, 10)
    assert [run.row for run in find_runs(small)] == [0, 1, 2, 3]


def test_the_faint_seams_of_a_grid_straightened_along_its_outline_do_not_lean(shared_datasets):
    """1-6.jpg on felt seen with its far side three tenths narrower: each row, cut along the grid's
    outline, is straightened upright: its faint seams, sheared by some lean, are about as clear by chance."""
    from vision.segment import leaning_seams, strip

    small = _on_felt_seen(shared_datasets, "1-6.jpg", 0.3, 0)
    assert [leaning_seams(strip(small, run))[0] for run in find_runs(small)] == [0.0] * 4


SQUARE = np.float32([[0, 0], [100, 0], [100, 100], [0, 100]])
SEEN = np.float32([[30, 0], [70, 0], [100, 90], [0, 90]])  # the square seen in perspective: its far side shorter


def _seen(points) -> np.ndarray:
    """Points of SQUARE where the camera sees them in SEEN."""
    warp = cv2.getPerspectiveTransform(SQUARE, SEEN)
    return cv2.perspectiveTransform(np.float32(points).reshape(-1, 1, 2), warp).reshape(-1, 2)


def test_the_rows_of_a_grid_seen_in_perspective_are_cut_where_the_perspective_puts_them():
    """A quarter of a grid's height is less than a quarter of its outline's in the photo where it is far."""
    from vision.segment import _band

    row = _band(tuple(map(tuple, SEEN)), 0.25, 0.5)
    assert np.allclose(row, _seen([[0, 25], [100, 25], [100, 50], [0, 50]]), atol=1e-3)


def test_the_tiles_of_a_run_seen_in_perspective_are_cut_where_the_perspective_puts_them():
    run = Run(tuple(map(tuple, SEEN)), 0, 0, face=0.8)
    first, second = Split(run, (0.0, 0.25, 1.0), 1.0).quads(0.5)  # full resolution: twice the reduced pixels
    assert np.allclose(first, 2 * _seen([[0, 0], [25, 0], [25, 80], [0, 80]]), atol=1e-3)
    assert np.allclose(second, 2 * _seen([[25, 0], [100, 0], [100, 80], [25, 80]]), atol=1e-3)


def _tilted(pixels: np.ndarray, narrowing: float) -> np.ndarray:
    """The photo on a wider table, seen tilted away from the camera: its top edge ``narrowing`` shorter."""
    height, width = pixels.shape[:2]
    pad = width // 5
    table = np.median(pixels[:5].reshape(-1, 3), axis=0).tolist()
    canvas = cv2.copyMakeBorder(pixels, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=table)
    corners = np.float32([[pad, pad], [pad + width, pad], [pad + width, pad + height], [pad, pad + height]])
    seen = corners.copy()
    seen[:2, 0] += np.float32([1, -1]) * narrowing * width / 2
    warp = cv2.getPerspectiveTransform(corners, seen)
    return cv2.warpPerspective(canvas, warp, canvas.shape[1::-1], borderValue=table)


def test_the_rows_of_a_grid_seen_at_an_angle_are_found_along_its_outline(shared_datasets):
    """A grid of four rows of nine seen tilted is a trapezoid: its row seams do not run along its
    bounding rectangle, so they are looked for along its four sides."""
    photo = load(shared_datasets / "real-photos" / "raw-images" / "6-1.png").pixels
    small, _ = load(_tilted(photo, 0.15)).reduced()
    assert [(run.row, splits(small, run)[0].count) for run in find_runs(small)] == [(row, 9) for row in range(4)]


def test_bare_cloth_lit_brighter_than_the_photos_edges_is_no_place_for_a_back():
    """Light falling off towards the edges leaves a flat patch of cloth beside a run unlike the photo's
    outer ring (development sets 9026010, 9026116: a back read after a row); the cloth just above that
    patch is as it is, while a face-down tile differs from it."""
    y, x = np.mgrid[0:300, 0:500]
    light = 1.25 - 0.9 * (((x - 250) / 250) ** 2 + ((y - 150) / 150) ** 2) / 2  # 1.25 at the middle, 0.35 at corners
    image = np.clip(np.full((300, 500, 3), (40, 110, 120), float) * light[..., None], 0, 255).astype(np.uint8)
    image[110:190, 130:370] = (238, 232, 210)  # four faces
    image[110:190, 70:130] = (80, 40, 110)  # a purple face-down tile before them
    run = Run(((130, 110), (370, 110), (370, 190), (130, 190)), 0, 0)
    assert backs_possible(image, [end_caps(run)]) == ((Place.BACK, Place.BARE),)
