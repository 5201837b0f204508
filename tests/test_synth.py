"""Synthetic crop generator and the real-tiles split (no installed artwork needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets import real_tiles, synth
from datasets.artwork import FACE_CLASSES, KMAHJONGG_IDS, UNICODE_ORDER, sheet_glyphs
from vision.classify import CLASSES


@pytest.fixture(scope="module")
def generator() -> synth.Generator:
    return synth.Generator(sheet_glyphs())


def test_generator_gives_seeded_crops_of_every_class(generator: synth.Generator) -> None:
    first = [generator.sample(code, np.random.default_rng(5)) for code in CLASSES]
    again = [generator.sample(code, np.random.default_rng(5)) for code in CLASSES]
    assert all(crop.shape == synth.CROP_SIZE + (3,) and crop.dtype == np.uint8 for crop in first)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not np.array_equal(first[0], first[1])


def test_a_face_drawn_turned_is_the_upright_face_turned_half_round(generator: synth.Generator) -> None:
    """What the way-up reader learns from (`datasets.way_up`): `turned` turns the face alone."""
    face = generator.by_code["5m"][0]
    upright = synth.draw_tile(face, np.random.default_rng(1), turned=False)
    turned = synth.draw_tile(face, np.random.default_rng(1), turned=True)
    assert np.array_equal(turned, upright[::-1, ::-1]) and not np.array_equal(turned, upright)


@pytest.mark.parametrize("angle, along", [(0, (0, 1)), (90, (1, 0)), (45, (1, 1))], ids=["across", "down", "diagonal"])
def test_a_motion_kernel_smears_along_its_direction_only(angle: float, along: tuple[int, int]) -> None:
    kernel = synth.motion_kernel(9, angle)
    assert kernel.shape == (9, 9) and kernel.sum() == pytest.approx(1.0)
    ys, xs = np.nonzero(kernel > 0.02)
    spread = np.cov(np.stack([ys, xs]).astype(float))
    direction = np.linalg.eigh(spread)[1][:, -1]  # the axis the weight spreads along (y, x)
    assert abs(direction @ np.asarray(along, float) / np.hypot(*along)) > 0.95


def test_back_crops_are_plainer_than_faces(generator: synth.Generator) -> None:
    rng = np.random.default_rng(9)
    backs = [generator.sample("back", rng).std(axis=(0, 1)).mean() for _ in range(8)]
    assert np.median(backs) < 40


@pytest.mark.parametrize("code, mark", [("6s", "6"), ("9m", "9"), ("1p", "1"), ("1z", "E"), ("3z", "W"),
                                        ("5z", ""), ("7z", ""), ("2f", "2"), ("7f", "3")])
def test_corner_index_is_what_sets_print(code: str, mark: str) -> None:
    assert synth.corner_index(code) == mark


def test_corner_index_is_printed_in_a_top_corner_only() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        body = np.full(synth.TILE_SIZE + (3,), 240.0, np.float32)
        synth.draw_index(body, "9", rng)
        rows, columns = np.nonzero((body < 200).any(axis=2))
        h, w = synth.TILE_SIZE
        assert rows.size and rows.max() < h // 3
        assert columns.max() < w // 3 or columns.min() > 2 * w // 3


def test_artwork_maps_cover_every_face_exactly_once() -> None:
    assert sorted(KMAHJONGG_IDS.values()) == sorted(FACE_CLASSES)
    assert sorted(UNICODE_ORDER) == sorted(FACE_CLASSES)
    assert UNICODE_ORDER[0x24 - 0x22 + 34] == "4f" and UNICODE_ORDER[0x25 - 0x22 + 34] == "3f"


def test_training_and_evaluation_colours_are_named_tables() -> None:
    assert set(synth.TRAIN_BODIES) and set(synth.TRAIN_BACKGROUNDS) and set(synth.TRAIN_BACKS)
    assert all(len(colour) == 3 for colour in synth.TRAIN_BACKGROUNDS.values())


def test_evaluation_scene_colours_are_held_out_of_training() -> None:
    from datasets import scenes

    def distance(one: tuple, other: tuple) -> int:
        return max(abs(a - b) for a, b in zip(one, other))

    trained = [*synth.TRAIN_BODIES.values(), *synth.TRAIN_BACKS.values(), *synth.TRAIN_BACKGROUNDS.values()]
    held_out = [colour for pair in scenes.BODIES.values() for colour in pair]
    held_out += [colour for colour, _ in scenes.BACKGROUNDS.values()]
    assert min(distance(a, b) for a in held_out for b in trained) > 10
    backs = [back for _, back in scenes.BODIES.values()]
    assert min(distance(a, b) for a in backs for b in synth.TRAIN_BACKS.values()) >= 40


@pytest.mark.parametrize("name, code", [("dots-7", "7p"), ("dot-7", "7p"), ("bamboo-1", "1s"),
                                        ("characters-9", "9m"), ("honors-north", "4z"), ("honors-white", "5z"),
                                        ("bonus-chrysanthemum", "3f"), ("bonus-winter", "8f")])
def test_label_names_map_to_codes(name: str, code: str) -> None:
    assert real_tiles.code_for(name) == code


def test_unknown_label_name_is_a_clear_error() -> None:
    with pytest.raises(real_tiles.RealTilesError, match="honors-purple"):
        real_tiles.code_for("honors-purple")


def test_split_is_fixed_stratified_and_disjoint(shared_datasets: Path) -> None:
    tiles = real_tiles.load(shared_datasets / "real-tiles")
    train, held_out = real_tiles.split(tiles)
    again = real_tiles.split(tiles)[1]
    assert [t.path for t in held_out] == [t.path for t in again]
    assert not {t.path for t in train} & {t.path for t in held_out}
    assert len(train) + len(held_out) == len(tiles) == 700
    assert len(held_out) >= 0.3 * len(tiles)
    assert {t.code for t in held_out} == set(FACE_CLASSES)
    assert next(t.code for t in tiles if t.path.name == "133.jpg") == "8p"


def test_validation_fold_comes_from_train_only(shared_datasets: Path) -> None:
    root = shared_datasets / "real-tiles"
    train, held_out = real_tiles.evaluation_split(root=root)
    fitted, validation = real_tiles.evaluation_split(validation=True, root=root)
    assert {t.path for t in fitted} | {t.path for t in validation} == {t.path for t in train}
    assert not {t.path for t in fitted} & {t.path for t in validation}
    assert not {t.path for t in validation} & {t.path for t in held_out}
    assert len(validation) >= 0.25 * len(train)


def test_a_held_out_group_in_train_never_reaches_the_held_out_crops(shared_datasets: Path) -> None:
    root = shared_datasets / "real-tiles"
    train, held_out = real_tiles.evaluation_split(root=root)
    fitted, whole_group = real_tiles.evaluation_split(1, root=root)
    same_fit, in_train = real_tiles.evaluation_split(1, validation=True, root=root)
    assert [t.path for t in same_fit] == [t.path for t in fitted]
    assert {t.path for t in in_train} == {t.path for t in whole_group} - {t.path for t in held_out}
    assert {t.path for t in in_train} <= {t.path for t in train} and len(in_train) > 100
    assert not {t.path for t in fitted} & {t.path for t in in_train}
