"""The corner-index reader: its fusion with the class probabilities, its bands, the committed model."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classify import CLASSES, INDEX_PATH, CropError, TileClassifier
from vision.index import DIGITS, FRAMINGS, SURE, BandSpec, IndexReader, band_batch, suit_members, with_index

ROOT = Path(__file__).resolve().parents[1]


def _digits(digit: int, confidence: float) -> np.ndarray:
    row = np.full(len(DIGITS), (1 - confidence) / (len(DIGITS) - 1), np.float32)
    row[digit] = confidence
    return row[None]


def _probabilities(**codes: float) -> np.ndarray:
    row = np.full(len(CLASSES), 1e-4, np.float32)
    for code, p in codes.items():
        row[CLASSES.index(code.lstrip("_"))] = p
    return row[None] / row.sum()


def test_suits_map_each_printed_number_to_its_tile() -> None:
    suits = suit_members(CLASSES)
    assert set(suits) == {"m", "p", "s"}
    assert suits["s"][6] == CLASSES.index("6s") and suits["m"] == {n: CLASSES.index(f"{n}m") for n in range(1, 10)}


def test_a_sure_index_turns_a_misread_number_within_its_suit() -> None:
    moved = with_index(_probabilities(_9s=0.5, _6s=0.01, _9p=0.3), _digits(6, 0.97), CLASSES)
    assert CLASSES[moved.argmax()] == "6s" and CLASSES[np.argsort(moved[0])[-2]] == "9p"  # other suits stay
    assert np.isclose(moved.sum(), 1.0)


def test_an_index_read_fairly_surely_settles_a_number_the_picture_doubts() -> None:
    before = _probabilities(_9s=0.58, _4s=0.1, _7s=0.07, _5z=0.2)  # an unseen art style: its 6 of bamboo read as a 9
    moved = with_index(before, _digits(6, 0.65), CLASSES)
    assert CLASSES[moved.argmax()] == "6s" and SURE <= 0.65


def test_bonus_tiles_are_left_to_the_picture() -> None:
    before = _probabilities(_8f=0.6, _4f=0.3)
    moved = with_index(before, _digits(3, 0.95), CLASSES)
    bonus = [CLASSES.index(f"{n}f") for n in range(1, 9)]
    assert np.array_equal(moved[0, bonus], before[0, bonus]) and CLASSES[moved.argmax()] == "8f"


def test_an_unsure_or_absent_index_or_a_sure_picture_changes_nothing() -> None:
    before = _probabilities(_9s=0.8, _6s=0.05)
    assert np.allclose(with_index(before, _digits(6, 0.5), CLASSES), before)
    assert np.allclose(with_index(before, _digits(0, 0.99), CLASSES), before)
    sure = _probabilities(_9s=0.95)
    assert np.allclose(with_index(sure, _digits(6, 0.99), CLASSES), sure)


def test_only_the_likeliest_suit_tile_is_renumbered() -> None:
    before = _probabilities(_4f=0.3, _4s=0.1, _7s=0.1, _8s=0.1, _6s=0.25, _6p=0.2)
    assert np.array_equal(with_index(before, _digits(4, 0.95), CLASSES), before)  # a bonus tile stays
    split = _probabilities(_6s=0.45, _6p=0.3, _9p=0.2)
    assert CLASSES[with_index(split, _digits(5, 0.95), CLASSES).argmax()] == "5s"  # not 5p, though p holds more


def test_honours_backs_and_none_keep_their_probability() -> None:
    before = _probabilities(none=0.6, _3m=0.3)
    moved = with_index(before, _digits(5, 0.95), CLASSES)
    assert CLASSES[moved.argmax()] == "none" and moved[0, CLASSES.index("none")] == before[0, CLASSES.index("none")]
    assert np.isclose(moved.sum(), 1.0)
    assert CLASSES[with_index(_probabilities(_1z=0.5, _3m=0.4), _digits(3, 0.95), CLASSES).argmax()] == "1z"


def test_bands_are_the_top_of_the_crop_upright_and_turned() -> None:
    crop = np.full((128, 96, 3), 200, np.uint8)
    crop[:20, 60:90] = 0  # ink in the top right corner
    spec = BandSpec(0.32, (28, 64))
    upright, turned = band_batch([crop], spec)
    assert upright.shape == (3, 28, 64)
    assert upright[0, :, 40:].min() < -1 and upright[0, :, :30].min() > -0.5
    assert turned.std() < 1e-3  # the bottom band, turned, is plain
    uneven = np.random.default_rng(3).integers(0, 256, (131, 97, 3), dtype=np.uint8)  # no whole resize factor
    assert (band_batch([uneven], spec)[1] == band_batch([np.ascontiguousarray(uneven[::-1, ::-1])], spec)[0]).all()
    with pytest.raises(CropError):
        band_batch([np.zeros((0, 4, 3), np.uint8)], spec)


@pytest.fixture(scope="module")
def reader() -> IndexReader:
    return IndexReader.load()


def test_committed_reader_metadata_and_size(reader: IndexReader) -> None:
    sidecar = json.loads(INDEX_PATH.with_suffix(".json").read_text())
    assert tuple(sidecar["digits"]) == DIGITS
    assert reader.spec == BandSpec(sidecar["band_share"], tuple(sidecar["input_size"]))
    assert INDEX_PATH.stat().st_size <= 500_000


def _face(digit: str | None, turned: bool = False) -> np.ndarray:
    face = np.full((128, 96, 3), (236, 226, 200), np.uint8)
    cv2.rectangle(face, (34, 50), (62, 110), (30, 110, 50), 6)  # a picture below the band
    if digit:
        cv2.putText(face, digit, (66, 30), cv2.FONT_HERSHEY_DUPLEX, 0.9, (180, 30, 30), 2, cv2.LINE_AA)
    return face[::-1, ::-1].copy() if turned else face


@pytest.mark.parametrize("digit", list("123456789"))
def test_reader_reads_a_printed_digit_upright_and_turned(reader: IndexReader, digit: str) -> None:
    digits = reader.digits([_face(digit), _face(digit, turned=True)])
    assert [DIGITS[i] for i in digits.argmax(axis=1)] == [digit, digit]


def test_reader_reads_no_digit_on_a_face_without_one(reader: IndexReader) -> None:
    assert DIGITS[reader.digits([_face(None)]).argmax()] == "none"


def test_the_classifier_applies_the_reader_unless_told_not_to() -> None:
    plain = TileClassifier.load(index=None)
    assert plain._index is None and TileClassifier.load()._index is not None


def test_training_uses_the_inference_bands() -> None:
    tree = ast.parse((ROOT / "models" / "train_index.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                and node.module == "vision.index" for alias in node.names}
    assert "band_batch" in imported


def test_printed_digits_stay_in_the_top_band() -> None:
    from datasets import index_bands, synth

    fonts = index_bands.font_files()
    rng = np.random.default_rng(3)
    for _ in range(40):
        body = np.full(synth.TILE_SIZE + (3,), 230.0, np.float32)
        index_bands.print_digit(body, int(rng.integers(1, 10)), fonts, rng)
        rows = np.flatnonzero((body < 200).any(axis=(1, 2)))
        assert rows.size and rows.max() < 0.4 * synth.TILE_SIZE[0]


def test_index_samples_are_seeded_and_label_the_upright_band() -> None:
    from datasets import index_bands, synth
    from datasets.artwork import sheet_glyphs

    generator = synth.Generator(sheet_glyphs())
    fonts = index_bands.font_files()
    first = [index_bands.sample(generator, fonts, np.random.default_rng(seed)) for seed in range(12)]
    again = [index_bands.sample(generator, fonts, np.random.default_rng(seed)) for seed in range(12)]
    assert all(np.array_equal(a[0], b[0]) and a[1] == b[1] for a, b in zip(first, again))
    labels = [labels for _, labels in first]
    assert all(0 in pair and max(pair) <= 9 for pair in labels) and any(max(pair) for pair in labels)
    assert all(crop.shape == synth.CROP_SIZE + (3,) for crop, _ in first)


def test_artwork_printing_its_own_index_is_kept_for_checking() -> None:
    from datasets.artwork import Face
    from datasets.index_bands import PRINTED_INDEX_SOURCES, unprinted

    image = np.zeros((4, 4, 4), np.uint8)
    faces = [Face(source, code, image, False) for source in (*PRINTED_INDEX_SOURCES, "gnome-postmodern", "gnome-smooth-0")
             for code in ("6s", "3f")]
    assert [(face.source, face.code) for face in unprinted(faces)] == [
        ("gnome-postmodern", "6s"), ("gnome-smooth-0", "6s"), ("gnome-smooth-0", "3f")]


class _Recording(IndexReader):
    """A reader that reads a sure 6 on every crop and records how many crops it was given."""

    def __init__(self) -> None:
        self.given = 0

    def digits(self, crops):
        self.given += len(crops)
        return np.repeat(_digits(6, 0.99), len(crops), axis=0)


def test_only_crops_an_index_could_change_are_read() -> None:
    rows = np.vstack([_probabilities(_9s=0.95), _probabilities(none=0.7, _3m=0.2), _probabilities(_9s=0.6, _9p=0.3)])
    reader = _Recording()
    moved = reader.applied(rows, [np.zeros((8, 8, 3), np.uint8)] * 3, CLASSES)
    assert reader.given == 1 and [CLASSES[i] for i in moved.argmax(axis=1)] == ["9s", "none", "6s"]


class _FirstFramingOnly:
    """An onnxruntime stand-in: reads a sure 9 on the first crop's bands given (the crop as cut),
    no digit on the rest."""

    def __init__(self, crops: int) -> None:
        self.crops = crops

    def run(self, _outputs, feed):
        logits = np.zeros((len(feed["input"]), len(DIGITS)), np.float32)
        logits[:, 0] = 10.0
        logits[:2 * self.crops, 0], logits[:2 * self.crops, 9] = 0.0, 10.0
        return [logits]


def test_a_digit_is_read_surely_only_when_every_framing_reads_it() -> None:
    spec = BandSpec(0.32, (28, 64))
    once = IndexReader(_FirstFramingOnly(crops=1), spec).digits([_face("9")])
    assert once.shape == (1, len(DIGITS)) and 0.3 < once[0, DIGITS.index("9")] < SURE
    every = IndexReader(_FirstFramingOnly(crops=len(FRAMINGS)), spec).digits([_face("9")])
    assert every.max() >= SURE
