"""The printed corner index: many tile sets print a suit tile's number (and a bonus tile's 1-4) in
a top corner of the face, where the picture alone can mislead (a set's own layout of six sticks
read as a nine).

A small ONNX network (`models/corner_index.onnx`, trained by `models/train_index.py`) reads the top
band of a face crop, upright and turned half round (a tile seen upside down shows its index at the
bottom), as one of `DIGITS`. Where the face network names a suit tile but is in doubt,
`with_index` moves that suit's probability to the tile that bears a confidently read number.
`band_batch` is the one preprocessing function of training and inference.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from vision.classify import INDEX_PATH, SUITS, ModelError, check_crop, model_file, onnx_session, softmax, trimmed

DIGITS = ("none",) + tuple(str(n) for n in range(1, 10))
RECIPE = "models.train_index"  # the module that retrains the reader and writes its sidecar
SURE = 0.6  # an index read at least this confidently moves the class probabilities (its weight: that confidence;
# 0.9 until session 33: at 0.7 the development seeds read 27 tiles more right of 14,338, the photo checks the same;
# 0.7 until session 43: at 0.6 8 more (577 -> 569 errors; 0.5: 586), the photo checks the same after decoding)
PICTURE_SURE = 0.9  # ... of a crop whose likeliest class, a suit tile, is less probable than this (a picture read
# surely stands)
FRAMINGS = ((0, 0, 0, 0), (0.04, 0.04, 0, 0), (0, 0, 0.04, 0.04))  # each crop is read as cut and with these
# shares of it trimmed (top, bottom, left, right: `classify.trimmed`), and the reads averaged: a face cut a little
# off, as in a photo, can read its index surely one way and not another, and a false digit is rarely read every way


@dataclass(frozen=True)
class BandSpec:
    """What the sidecar says about the reader's input: the band's share of a crop's height and the
    network's input size (h, w)."""

    share: float
    input_size: tuple[int, int]

    @classmethod
    def read(cls, sidecar: Path) -> "BandSpec":
        try:
            data = json.loads(sidecar.read_text())
            if tuple(data["digits"]) != DIGITS:
                raise ValueError(f"digits {data['digits']} are not {list(DIGITS)}")
            return cls(float(data["band_share"]), tuple(data["input_size"]))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ModelError(f"cannot read index-reader sidecar {str(sidecar)!r}: {error}; "
                             f"retrain with `python -m {RECIPE}`") from error


def band_batch(crops: Sequence[np.ndarray], spec: BandSpec) -> np.ndarray:
    """(2N, 3, h, w) float32: per crop, its top `spec.share` band, then the same band of the crop
    turned half round, each resized to the input size and scaled to about -2..2 around its mean
    (ink contrast matters, not the light). The bottom band is turned after resizing (the same
    pixels: the area grid is symmetric) so as not to copy it first."""
    height, width = spec.input_size
    bands = np.empty((2 * len(crops), height, width, 3), dtype=np.uint8)
    for index, crop in enumerate(crops):
        crop = check_crop(crop, index)
        rows = max(1, round(spec.share * crop.shape[0]))
        bands[2 * index] = cv2.resize(crop[:rows], (width, height), interpolation=cv2.INTER_AREA)
        bands[2 * index + 1] = cv2.resize(crop[crop.shape[0] - rows:], (width, height),
                                          interpolation=cv2.INTER_AREA)[::-1, ::-1]
    values = bands.astype(np.float32)
    mean = values.mean(axis=(1, 2, 3), keepdims=True)
    spread = values.std(axis=(1, 2, 3), keepdims=True)
    return ((values - mean) / (spread + 16.0)).transpose(0, 3, 1, 2).copy()


def likelier_band(probabilities: np.ndarray) -> np.ndarray:
    """(N, len(DIGITS)) from the (2N, len(DIGITS)) probabilities of `band_batch`'s bands: per crop,
    those of whichever band, upright or turned, reads a digit more surely."""
    pairs = probabilities.reshape(-1, 2, len(DIGITS))
    turned = pairs[:, 1, 1:].max(axis=1) > pairs[:, 0, 1:].max(axis=1)
    return pairs[np.arange(len(pairs)), turned.astype(int)]


class IndexReader:
    """An onnxruntime session reading digits from face crops; stateless per call."""

    def __init__(self, session: object, spec: BandSpec) -> None:
        self._session = session
        self.spec = spec

    @classmethod
    def load(cls, path: str | Path | None = None) -> "IndexReader":
        """Load the reader and its sidecar JSON (default: the committed one)."""
        model = model_file(path, INDEX_PATH, "index reader", RECIPE)
        return cls(onnx_session(model), BandSpec.read(model.with_suffix(".json")))

    def digits(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """(N, len(DIGITS)) probabilities per crop: the mean over its FRAMINGS of whichever of the
        framed crop's two bands (upright or turned) reads a digit more confidently."""
        if len(crops) == 0:
            return np.zeros((0, len(DIGITS)), dtype=np.float32)
        crops = [check_crop(crop, index) for index, crop in enumerate(crops)]
        framed = [trimmed(crop, *cut) for cut in FRAMINGS for crop in crops]
        (logits,) = self._session.run(None, {"input": band_batch(framed, self.spec)})
        return likelier_band(softmax(logits)).reshape(len(FRAMINGS), len(crops), len(DIGITS)).mean(axis=0)

    def applied(self, probabilities: np.ndarray, crops: Sequence[np.ndarray], classes: Sequence[str]) -> np.ndarray:
        """The crops' class probabilities moved by the indices read on them (`with_index`); only
        the crops an index can change are read (a suit tile whose picture is in doubt)."""
        digits = np.zeros((len(crops), len(DIGITS)), dtype=np.float32)
        digits[:, 0] = 1.0
        readable = np.flatnonzero(in_doubt(probabilities, classes))
        digits[readable] = self.digits([crops[i] for i in readable])
        return with_index(probabilities, digits, classes)


def suit_members(classes: Sequence[str]) -> dict[str, dict[int, int]]:
    """Per suit (m, p, s): printed number -> column in `classes`."""
    suits: dict[str, dict[int, int]] = {}
    for column, code in enumerate(classes):
        if len(code) == 2 and code[0].isdigit() and code[1] in SUITS:
            suits.setdefault(code[1], {})[int(code[0])] = column
    return suits


def with_index(probabilities: np.ndarray, digits: np.ndarray, classes: Sequence[str],
               sure: float = SURE, picture_sure: float = PICTURE_SURE) -> np.ndarray:
    """Class probabilities (N, C) moved by read indices (N, len(DIGITS)): where the likeliest
    class is a suit tile read less surely than `picture_sure` and a digit d is read with
    confidence a >= `sure`, a of its suit's probability goes to that suit's tile d. Everything
    else keeps its probability, so the index settles the number of a suit tile the picture
    names, never whether a crop is a tile, its kind or its suit. (Bonus tiles are left to the
    picture: their number sits beside a printed name, 春 or 梅, that the reader has not learned
    to tell from a digit.)"""
    out = probabilities.astype(np.float32, copy=True)
    best = digits[:, 1:].argmax(axis=1) + 1
    confidence = digits[np.arange(len(digits)), best]
    suits = suit_members(classes)
    for row in np.flatnonzero((confidence >= sure) & in_doubt(probabilities, classes, picture_sure)):
        members = suits[classes[int(probabilities[row].argmax())][1]]
        columns = list(members.values())
        share = float(out[row, columns].sum())
        out[row, columns] *= 1 - confidence[row]
        out[row, members[int(best[row])]] += confidence[row] * share
    return out


def in_doubt(probabilities: np.ndarray, classes: Sequence[str], picture_sure: float = PICTURE_SURE) -> np.ndarray:
    """Per crop: whether its likeliest class is a suit tile read less surely than `picture_sure`."""
    suited = np.zeros(len(classes), dtype=bool)
    suited[[column for members in suit_members(classes).values() for column in members.values()]] = True
    return suited[probabilities.argmax(axis=1)] & (probabilities.max(axis=1) < picture_sure)
