"""The evaluation data: real-photo labels, synthetic scene specs, and the benchmark's alignment."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageOps

from benchmarks.recognition import (FELT, FRESH_LABELS, Errors, Reading, Sample, Tally, align, as_turned,
                                    detector_truth, located, on_felt, right_but_bonus_names, run_part,
                                    suggested_hand_right, viewed, winning_line)
from datasets.real_photos import CODES, LabelError, LabelledPhoto, load_photos
from datasets.scenes import (FAR, TILESET, Placed, SceneError, SceneSpec, cache_path, load_boxes, load_specs, render,
                             tile_boxes)

PHOTOS = load_photos()
FRESH = load_photos(FRESH_LABELS)
SPECS = load_specs()


def test_labels_cover_the_single_row_photos_and_five_more():
    files = [p.file for p in PHOTOS]
    assert {f"2-{i}.jpg" for i in range(1, 6)} <= set(files)
    assert len(set(files)) == len(files) >= 10


def test_fresh_labels_are_other_photos_and_enough():
    assert not {p.file for p in FRESH} & {p.file for p in PHOTOS}
    assert len(FRESH) >= 10 and sum(len(p.tiles) for p in FRESH) >= 250


def test_label_codes_are_valid():
    assert all(code in CODES for p in PHOTOS + FRESH for code in p.tiles)
    assert PHOTOS[0].tiles == tuple(f"{r}s" for r in range(1, 10))


def test_bad_labels_are_rejected():
    with pytest.raises(LabelError, match="9z"):
        LabelledPhoto.from_json({"file": "x.jpg", "rows": [["9z"]]})
    with pytest.raises(LabelError, match="crop"):
        LabelledPhoto.from_json({"file": "x.jpg", "rows": [["1m"]], "crop": [5, 0, 1, 9]})


def test_labelled_images_exist_and_crops_fit(shared_datasets: Path):
    raw = shared_datasets / "real-photos" / "raw-images"
    for photo in PHOTOS + FRESH:
        with Image.open(photo.path(raw)) as image:
            width, height = ImageOps.exif_transpose(image).size
        if photo.crop:
            x0, y0, x1, y1 = photo.crop
            assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, photo.file


def test_scene_specs_are_enough_and_round_trip():
    assert len(SPECS) >= 200
    assert all(14 <= sum(len(row) for row in spec.labels) <= 20 for spec in SPECS)
    assert SceneSpec.from_json(SPECS[7].to_json()) == SPECS[7]
    assert Placed.parse("5p*") == Placed("5p", True) and str(Placed("5p", True)) == "5p*"
    with pytest.raises(SceneError, match="9z"):
        Placed.parse("9z")


def test_scene_boxes_are_committed_and_reproduced():
    boxes = load_boxes()
    for spec in SPECS:
        committed = np.array(boxes[spec.seed])
        assert committed.shape == (sum(len(row) for row in spec.labels), 4, 2)
        assert np.abs(committed - np.array(tile_boxes(spec))).max() <= 1, spec.seed
        assert committed.min() >= 0 and committed[..., 0].max() < 1280 and committed[..., 1].max() < 960
    first_row = np.array(boxes[SPECS[0].seed])[:len(SPECS[0].labels[0])]
    assert (np.diff(first_row[:, 0, 0]) > 0).all()  # reading order runs left to right


def test_scene_cache_is_keyed_by_the_spec():
    other_body = SceneSpec.from_json({**SPECS[0].to_json(), "body": "lilac" if SPECS[0].body != "lilac" else "pale-blue"})
    assert cache_path(SPECS[0]) == cache_path(SceneSpec.from_json(SPECS[0].to_json()))
    assert cache_path(other_body) != cache_path(SPECS[0])


def test_a_far_frame_shows_the_scene_smaller_in_a_larger_image():
    """`--far`'s frame: 4032 x 3024, the hand seen from 2.5 times as far (its span 0.4 of the usual share
    of the width), cached apart from the usual frame's image."""
    near, far = np.array(tile_boxes(SPECS[0]), float), np.array(tile_boxes(SPECS[0], FAR), float)
    widths = [np.ptp(boxes[..., 0]) for boxes in (near, far)]
    assert widths[1] / 4032 == pytest.approx(0.4 * widths[0] / 1280, rel=0.01)
    assert far.min() >= 0 and far[..., 0].max() < 4032 and far[..., 1].max() < 3024
    assert cache_path(SPECS[0], FAR) != cache_path(SPECS[0])


def test_a_scene_renders_deterministically():
    if not TILESET.exists():
        pytest.skip(f"{TILESET} not installed (Debian kdegames-mahjongg-data-kf5)")
    first, second = render(SPECS[0]), render(SPECS[0])
    assert first.shape == (960, 1280, 3) and np.array_equal(first, second)
    assert first.std() > 10  # not a blank image


def test_alignment_counts_missed_extra_and_wrong_tiles():
    truth = ("1m", "2m", "3m", "5p")
    assert align(truth, truth) == Errors()
    assert align(truth, ("1m", "3m", "5p")) == Errors(1, missed=1)
    assert align(truth, ("1m", "2m", "2m", "3m", "5p")) == Errors(1, extra=1, unflagged=1)
    assert align(truth, ("1m", "2m", "4m", "5p")) == Errors(1, wrong=1, unflagged=1)
    assert align(truth, ()) == Errors(4, missed=4)
    assert align(truth, ("9s", "1m", "2m", "3m")) == Errors(2, missed=1, extra=1, unflagged=1)
    assert align(("5f", "7f"), ("7f", "4f")) == Errors(2, wrong=2, unflagged=2)  # both found, both misread
    assert align(("1m", "?", "3m"), ("1m", "9s", "3m")).total == 0  # unknown labels are free
    assert align(("1m", "?", "3m"), ("1m", "3m")).total == 0
    assert str(Errors(3, 1, 1, 1) + Errors(1, 0, 0, 1)) == "1/1/2"


def test_alignment_counts_misreads_the_reader_did_not_flag():
    truth = ("1m", "2m", "3m", "5p")
    read = ("1m", "2m", "4m", "5p", "9s")
    assert align(truth, read) == Errors(2, wrong=1, extra=1, unflagged=2)
    assert align(truth, read, (False, False, True, False, False)) == Errors(2, wrong=1, extra=1, unflagged=1)
    assert align(truth, read, (True, True, True, True, True)).unflagged == 0
    assert align(truth, ("1m", "3m", "5p"), (False,) * 3) == Errors(1, missed=1)  # a missed tile is not a misread


def test_detector_is_scored_only_on_riichi_classes():
    assert detector_truth(("1m", "back", "3f", "7z")) == ("1m", "?", "?", "7z")


def test_tally_scores_raw_and_decoded_separately():
    truth = ("1m", "2m", "?")
    tally = Tally.of([(truth, Reading(("1m", "3m", "5z"), ("1m", "2m", "5z"), (), 0.2, (False, True, False))),
                      (("4p",), Reading((), ("4p",), (), 0.1))], found=2)
    assert (tally.tiles, [e.total for e in tally.errors], tally.exact) == (3, [2, 0], (0, 2))
    assert tally.row()[:10] == ["33.3%", "100.0%", "0.0%", "100.0%", "0/0/0", "-", "0.5", "100.0%", "100.0%", "66.7%"]


def test_an_image_whose_one_error_left_is_a_missed_tile_the_page_offers_counts_as_added():
    truth = tuple("1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z 5z 2f".split())

    def read(codes, flagged=()):
        return Reading(codes, codes, (), 0.1, flagged or (False,) * len(codes), ((0, 0),) * len(codes),
                       (False,) * len(codes))
    missed_5z = read(truth[:11] + truth[12:])
    misread_too = read(("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "2z", "5z", "5z", "2f"),
                       (False,) * 10 + (True,) + (False,) * 3)  # 1z read 2z, flagged: checked, then 5z added
    missed_flower = read(truth[:-1])
    unflagged = read(("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "2z", "5z", "5z", "2f"))
    tally = Tally.of([(truth, r) for r in (missed_5z, misread_too, missed_flower, unflagged)])
    assert (tally.settled, tally.added) == (0, 2)
    assert tally.row()[7:9] == ["0.0%", "50.0%"]
    assert Tally.of([(truth, replace(missed_5z, runs=()))]).added == 0  # runs unknown (the detector)


def test_right_but_bonus_names_forgives_only_a_bonus_tile_named_as_another():
    truth = ("1m", "2f", "7f", "?")
    assert right_but_bonus_names(truth, ("1m", "2f", "7f", "5z"))
    assert right_but_bonus_names(truth, ("1m", "7f", "1f", "1z"))  # two bonus tiles named as others
    assert not right_but_bonus_names(truth, ("1m", "2m", "7f", "1z"))  # a flower read as a playing tile
    assert not right_but_bonus_names(truth, ("1m", "2f", "7f"))  # a tile missed
    readings = [Reading((), ("1m", "3f", "7f", "9s"), ()), Reading((), ("2m",), ())]
    assert Tally.of([(truth, reading) for reading in readings]).but_bonus_names == 1


def test_a_scene_knows_its_hand_with_claimed_sets_and_concealed_kongs():
    spec = SceneSpec.from_json({"seed": 1, "body": SPECS[0].body, "background": SPECS[0].background,
                                "rows": [["2p 2p 2p*", "back 5s 5s back", "4m 5m 6m", "3f"], ["3s 3s 3s 6z 6z"]]})
    assert spec.hand == "333s 66z [222p] (5555s) [456m] 3f"


def test_development_scenes_of_sets_lay_out_what_a_set_holds_in_rows():
    from collections import Counter

    from benchmarks.recognition import SETS_COUNT, SETS_SEED, scene_specs

    specs, boxes = scene_specs(None, layout="sets")
    assert len(specs) == SETS_COUNT and specs[0].seed == SETS_SEED * 1000 and set(boxes) == {s.seed for s in specs}
    assert [s.rows for s in scene_specs(20, layout="sets")[0]] == [s.rows for s in specs[:20]]  # seeded
    rows = [tuple(c for row in s.labels for c in row) for s in specs]
    assert all(n <= (1 if code.endswith("f") else 4) for codes in rows for code, n in Counter(codes).items())
    laid_out = {tuple(" ".join(row) for row in s.labels) for s in specs}
    assert ("1s 2s 3s 4s 5s 6s 7s 8s 9s",) * 4 in laid_out  # four rows of one suit's nine
    assert any(row[0].startswith("1z 2z 3z 4z 7z 6z 5z") for row in laid_out)  # the winds, then the dragons
    assert any(all(code.endswith("f") for code in codes) for codes in rows)  # bonus tiles alone
    assert max(len(s.rows) for s in specs) == 5 and any(len(s.rows[-1]) == 2 for s in specs)  # grids; honours apart


def test_the_suggested_hand_must_bracket_what_the_scene_lays_apart():
    hand = "789p 333s 66z [222p] [456m] 3f"
    codes = tuple("7p 8p 9p 3s 3s 3s 6z 6z 2p 2p 2p 4m 5m 6m 3f".split())
    runs = ((0, 0),) * 8 + ((0, 1),) * 3 + ((0, 2),) * 3 + ((0, 3),)
    laid_apart = Reading(codes, codes, (), runs=runs, rotated=(False,) * len(codes))
    assert suggested_hand_right(hand, laid_apart)
    assert not suggested_hand_right(hand, replace(laid_apart, runs=((0, 0),) * len(codes)))  # one row: all concealed
    other_flower = replace(laid_apart, decoded=codes[:-1] + ("4f",))
    assert not suggested_hand_right(hand, other_flower) and suggested_hand_right(hand, other_flower, bonus_names=False)
    assert not suggested_hand_right(hand, replace(laid_apart, decoded=codes[:-1] + ("4s",)), bonus_names=False)
    assert not suggested_hand_right(hand, Reading((), (), ()))  # nothing read


def test_tally_shares_the_misreads_flagged_for_the_user():
    read = Reading(("1m", "3m", "5z"), ("1m", "3m", "5z"), (), 0.2, (True, True, False))
    tally = Tally.of([(("1m", "2m", "4z"), read)])
    assert tally.errors_flagged == 0.5 and tally.flagged == 2  # 3m flagged, 5z not; 1m flagged though right
    assert tally.row()[5:8] == ["50%", "2.0", "0.0%"]  # the unflagged 5z leaves the image wrong after checks
    settled = Reading(("1m", "3m"), ("1m", "3m"), (), 0.2, (False, True))
    assert Tally.of([(("1m", "2m"), settled)]).settled == 1


def test_located_counts_labelled_tiles_holding_a_read_centre():
    boxes = (((0, 0), (10, 0), (10, 10), (0, 10)), ((10, 0), (20, 0), (20, 10), (10, 10)),
             ((20, 0), (30, 0), (30, 10), (20, 10)))
    reading = Reading(("1m", "1m"), ("1m", "1m"), ((5.0, 5.0), (25.0, 4.0)))
    assert located(("1m", "2m", "3m"), boxes, reading) == 2
    assert located(("1m", "2m", "?"), boxes, reading) == 1


def test_a_photo_taken_sideways_is_scored_in_either_order():
    backwards = lambda path: Reading(("3m", "2m", "1m"), ("3m", "2m", "1m"), ())  # noqa: E731
    readers = {"ours": (backwards, tuple)}
    sample = Sample("row@0,90", Path("row.jpg"), ("1m", "2m", "3m"))
    (truth, reading), = run_part([sample], readers)["ours"]
    assert truth == ("1m", "2m", "3m") and align(truth, reading.decoded).total == 2
    (truth, reading), = run_part([replace(sample, either_way=True)], readers)["ours"]
    assert truth == ("3m", "2m", "1m") and align(truth, reading.decoded).total == 0


@pytest.mark.parametrize(("turn", "truth", "either_way"), [(20.0, "1m 2m 3m", False), (-90.0, "1m 2m 3m", True),
                                                          (80.0, "1m 2m 3m", True), (170.0, "3m 2m 1m", False)])
def test_a_turned_photo_is_labelled_in_the_order_it_shows(turn, truth, either_way):
    turned = as_turned(Sample("row", Path("row.jpg"), ("1m", "2m", "3m")), turn)
    assert " ".join(turned.truth) == truth and turned.either_way is either_way


def test_camera_views_lay_a_photo_on_felt_then_tilt_and_turn_it():
    table = on_felt(np.full((20, 40, 3), 200, np.uint8), np.random.default_rng(0))
    assert table.shape == (60, 80, 3) and (table[20:40, 20:60] == 200).all()
    assert np.abs(table[:20].reshape(-1, 3).mean(axis=0) - FELT).max() < 2
    assert (viewed(table, 0.0, 0.0) == table).all()
    dot = np.zeros((101, 101, 3), np.uint8)
    dot[9:12, 49:52] = 255  # near the top, in the middle
    assert viewed(dot, 0.0, 90.0)[50, 10].min() == 255  # a quarter turn anticlockwise: near the left, in the middle
    corner = np.zeros((101, 101, 3), np.uint8)
    corner[:4, :4] = 255
    assert viewed(corner, 0.5, 0.0)[51, 25].min() == 255  # the far side a half shorter and half nearer: a quarter in, half down
    assert tuple(viewed(corner, 0.5, 0.0)[0, 0]) == FELT  # what comes into view is plain table, no copy of the photo


def test_light_parts_cast_dim_shade_and_glare_a_photo():
    from benchmarks.lighting import LIGHTS, cast, falloff, glare, shadow

    grey = np.full((40, 200, 3), 200, np.uint8)
    assert cast(grey, (1.1, 1.0, 0.5))[0, 0].tolist() == [220, 200, 100]
    shaded = shadow(grey, 0.5, 1 / 150)
    assert shaded[20, 10].tolist() == [200] * 3 and shaded[20, 190].tolist() == [100] * 3  # lit left, shaded right
    below = shadow(grey, 0.5, 1 / 150, below=True)
    assert below[2, 100].tolist() == [200] * 3 and below[38, 100].tolist() == [100] * 3  # lit top, shaded bottom
    assert falloff(grey, 0.5)[0, 0, 0] == 200 and falloff(grey, 0.5)[0, -1, 0] == 100
    assert falloff(grey, 0.5, down=True)[0, 0, 0] == 200 and falloff(grey, 0.5, down=True)[-1, 0, 0] == 100
    assert glare(grey, 0.06, 0.9)[18, 80].min() == 255 and glare(grey, 0.06, 0.9)[0, 0].max() == 200
    assert all(light(grey).shape == grey.shape for light in LIGHTS.values())


def test_development_hands_with_flowers_lay_three_or_four_bonus_tiles_apart_together():
    from benchmarks.recognition import FLOWERS_COUNT, FLOWERS_SEED, scene_specs
    from scoring.hand import Hand

    specs, boxes = scene_specs(None, layout="flowers")
    assert len(specs) == FLOWERS_COUNT and specs[0].seed == FLOWERS_SEED * 1000
    assert set(boxes) == {s.seed for s in specs}
    assert [s.rows for s in scene_specs(20, layout="flowers")[0]] == [s.rows for s in specs[:20]]  # seeded
    for spec in specs:
        groups = [[t.code for t in group] for row in spec.rows for group in row]
        bonus = [group for group in groups if any(code.endswith("f") for code in group)]
        assert bonus == [groups[-1]] and len(set(bonus[0])) == len(bonus[0]) in (3, 4)
        assert len(Hand.parse(spec.hand, win="1m").bonus) == len(bonus[0])  # a hand all the same
    assert {len(s.rows[-1][-1]) for s in specs} == {3, 4}


def test_development_hands_with_the_winning_tile_apart_lay_one_standing_tile_after_the_others():
    from benchmarks.recognition import WIN_APART_COUNT, WIN_APART_SEED, scene_specs
    from scoring.hand import Hand

    specs, _ = scene_specs(None, layout="win_apart")
    assert len(specs) == WIN_APART_COUNT and specs[0].seed == WIN_APART_SEED * 1000
    for spec in specs:
        concealed = spec.rows[-1]  # the standing tiles lead their row: the others lie in it or above it
        assert len(concealed[1]) == 1 and not concealed[1][0].code.endswith("f") and concealed[1][0].code != "back"
        assert spec.laid_winner == concealed[1][0].code
        hand = Hand.parse(spec.hand, win="1m")  # the four left standing beside three claimed sets are no set
        assert len(hand.standing) == len(concealed[0]) + 1
    assert any(len(spec.rows[-1][0]) == 4 for spec in specs)
    assert not any(spec.laid_winner for spec in SPECS)  # the evaluation scenes lay no tile apart so


def test_the_winning_tile_named_is_counted_right_wrong_or_missing_and_where_none_lies_apart():
    samples = [Sample(name, Path("x.jpg"), ("1m",), winning=winning)
               for name, winning in (("a", "1m"), ("b", "2m"), ("c", "3m"), ("d", None), ("e", None))]
    named = [Reading(("1m",), ("1m",), (), winning=code) for code in ("1m", "5m", None, "7z", None)]
    assert winning_line(samples, [(sample.truth, reading) for sample, reading in zip(samples, named)]) == (
        "right in 1 of 3 scenes laying it apart (1 wrong, 1 not named); named in 1 of 2 laying none apart")


def test_development_hands_with_discards_lay_a_row_of_them_beyond_the_hand_and_leave_them_out_of_it():
    from collections import Counter

    from benchmarks.recognition import DISCARDS_COUNT, DISCARDS_SEED, scene_specs
    from datasets.scenes import make_specs, random_hand

    specs, boxes = scene_specs(None, layout="discards")
    assert len(specs) == DISCARDS_COUNT and specs[0].seed == DISCARDS_SEED * 1000
    assert set(boxes) == {s.seed for s in specs}
    hands = make_specs(DISCARDS_COUNT, DISCARDS_SEED, random_hand)  # the same hands drawn, without the discards
    for spec, hand in zip(specs, hands):
        discards, *rows = spec.rows
        assert tuple(rows) == hand.rows and spec.hand == hand.hand
        assert 4 <= len(discards) <= 8 and all(len(group) == 1 and group[0].discard for group in discards)
        assert not any(code.endswith("f") or code == "back" for code in spec.labels[0])
        assert max(Counter(c for row in spec.labels for c in row if c != "back").values()) <= 4
    assert SceneSpec.from_json(specs[0].to_json()) == specs[0]  # a discard prints as `5p~` and parses back
    assert str(Placed.parse("5p~")) == "5p~" and Placed.parse("5p~") == Placed("5p", discard=True)


def test_the_suggested_hand_leaves_out_the_tiles_the_reader_sets_beyond_the_hand():
    codes = tuple("9m 3p 1s 7s 7s 7s 6z 6z 2p 2p 2p 4m 5m 6m 1m 2m 3m 3f".split())
    runs = ((0, 0), (0, 1), (0, 2)) + ((1, 0),) * 5 + ((1, 1),) * 3 + ((1, 2),) * 3 + ((1, 3),) * 3 + ((1, 4),)
    reading = Reading(codes, codes, (), runs=runs, rotated=(False,) * len(codes))
    hand = "777s 66z [222p] [456m] [123m] 3f"
    assert not suggested_hand_right(hand, reading)
    assert suggested_hand_right(hand, replace(reading, beyond=(True,) * 3 + (False,) * 15))


def test_discards_lie_turned_either_way_and_their_boxes_turn_with_them():
    from benchmarks.recognition import scene_specs
    from datasets.scenes import DISCARD_TURN, Layout

    specs, _ = scene_specs(10, layout="discards")
    turns, edges = [], []
    for spec in specs:
        layout = Layout.of(spec, np.random.default_rng([spec.seed, 2]))
        for (tile, *_, turn), quad in zip(layout.tiles, layout.tops()):
            (dx, dy) = quad[1] - quad[0]  # the top edge, turned counter-clockwise by the tile's turn
            turns.append(turn if tile.discard else None)
            edges.append(np.degrees(np.arctan2(-dy, dx)))
    assert all((turn is None and abs(edge) < 1e-6) or abs(edge - turn) < 1e-3 for turn, edge in zip(turns, edges))
    discard_turns = [turn for turn in turns if turn is not None]
    assert max(discard_turns) > DISCARD_TURN / 2 and min(discard_turns) < -DISCARD_TURN / 2
    assert max(map(abs, discard_turns)) <= DISCARD_TURN
