"""Tile-crop classifier: one upright tile face in, top-3 tile codes out.

`preprocess` is the one function shared by training (`models/train.py`) and
inference. The class list, input size and normalisation are read from the
model's sidecar JSON, never hard-coded here; `CLASSES` is the code's own list,
which the tests compare with the committed model's.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.index import IndexReader

SUITS = ("m", "p", "s")
CLASSES: tuple[str, ...] = (
    tuple(f"{rank}{suit}" for suit in SUITS for rank in range(1, 10))
    + tuple(f"{rank}z" for rank in range(1, 8))
    + tuple(f"{rank}f" for rank in range(1, 9))
    + ("back", "none")
)
MODEL_PATH = Path(__file__).resolve().parents[1] / "models" / "tile_classifier.onnx"
INDEX_PATH = MODEL_PATH.with_name("corner_index.onnx")
RECIPE = "models.train"  # the module that retrains the classifier and writes its sidecar
TOP_K = 3
THREADS = 2
TINT_PERCENTILE = 90  # a crop's bright pixels (the tile body) are at least this percentile per channel
MAX_TINT_GAIN = 1.25  # white balance lifts a channel at most this much: tints go, coloured backs stay
SHIFT_DOUBT = 0.7  # given shifts, a crop whose likeliest class (not `none`) is less probable than this is read again
Cut = tuple[float, float, float, float]  # shares cut off a crop at its top, bottom, left and right (as `trimmed` takes them)


class CropError(ValueError):
    """A crop that is not a non-empty RGB image."""


class ModelError(ValueError):
    """A model file or its sidecar is missing or malformed."""


def check_crop(crop: object, index: int = 0) -> np.ndarray:
    """Return `crop` as an HxWx3 uint8 array, or raise CropError saying why."""
    if not isinstance(crop, np.ndarray):
        raise CropError(f"crop {index} is a {type(crop).__name__!r}, not an image array; "
                        "pass an RGB uint8 numpy array (H, W, 3)")
    if crop.ndim == 2:
        crop = np.repeat(crop[:, :, None], 3, axis=2)
    if crop.ndim != 3 or crop.shape[2] not in (3, 4):
        raise CropError(f"crop {index} has shape {crop.shape!r}; expected (H, W, 3) RGB")
    if crop.shape[0] < 2 or crop.shape[1] < 2:
        raise CropError(f"crop {index} is empty or too small ({crop.shape[1]}x{crop.shape[0]} px); "
                        "pass a crop of one whole tile face")
    if crop.dtype != np.uint8:
        raise CropError(f"crop {index} has dtype {crop.dtype}; expected uint8 RGB")
    return crop[:, :, :3]


def trimmed(crop: np.ndarray, top: float = 0.0, bottom: float = 0.0, left: float = 0.0, right: float = 0.0) -> np.ndarray:
    """An image array less these shares of its height at the top and bottom and of its width at the left
    and right."""
    height, width = crop.shape[:2]
    return crop[round(top * height):height - round(bottom * height), round(left * width):width - round(right * width)]


def tint_gains(images: np.ndarray) -> np.ndarray:
    """Per-channel gains (N, 3) that neutralise each image's tint in a batch (N, H, W, 3) of uint8:
    each channel is scaled so its bright pixels (its TINT_PERCENTILE, linearly interpolated) match
    the brightest channel's, by at most MAX_TINT_GAIN, so a lilac or yellowed body or warm light
    reads as white while a green or blue back stays coloured."""
    pixels = images.shape[-3] * images.shape[-2]
    channels = np.ascontiguousarray(images.reshape(-1, pixels, 3).transpose(0, 2, 1)).reshape(-1, pixels)
    position = TINT_PERCENTILE / 100 * (pixels - 1)
    low = int(position)
    high = min(low + 1, pixels - 1)
    # order statistics from each channel's cumulative histogram (uint8 values): the k-th smallest
    # value is the number of levels whose cumulative count is at most k
    offsets = np.arange(len(channels), dtype=np.int64)[:, None] << 8
    counts = np.bincount((channels + offsets).ravel(), minlength=256 * len(channels)).reshape(-1, 256)
    cumulative = counts.cumsum(axis=1)
    lower = (cumulative <= low).sum(axis=1).astype(np.float32)
    upper = (cumulative <= high).sum(axis=1).astype(np.float32)
    bright = (lower + (upper - lower) * (position - low) + 1.0).reshape(-1, 3)
    return np.minimum(bright.max(axis=1, keepdims=True) / bright, MAX_TINT_GAIN)


def _balance(values: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Pixel values times their channel's gain, capped at white (float32)."""
    return np.minimum(values * gains, 255.0).astype(np.float32)


def white_balanced(images: np.ndarray) -> np.ndarray:
    """A float32 copy of one image (H, W, 3) or a batch (N, H, W, 3) with its `tint_gains` applied."""
    gains = tint_gains(images.reshape((-1,) + images.shape[-3:]))
    return _balance(images, gains.reshape(images.shape[:-3] + (1, 1, 3)))


def preprocess(crops: Sequence[np.ndarray], input_size: Sequence[int],
               mean: Sequence[float], std: Sequence[float], white_balance: bool = False) -> np.ndarray:
    """Crops (RGB uint8) -> normalised float32 NCHW batch at `input_size` (h, w), the crops
    `white_balanced` first when the model was trained so. Each crop goes through one lookup table
    (its 256 levels per channel, balanced and normalised), the fast path for large batches."""
    height, width = int(input_size[0]), int(input_size[1])
    resized = np.empty((len(crops), height, width, 3), dtype=np.uint8)
    for index, crop in enumerate(crops):
        resized[index] = cv2.resize(check_crop(crop, index), (width, height), interpolation=cv2.INTER_AREA)
    gains = tint_gains(resized) if white_balance else np.ones((len(crops), 3), dtype=np.float32)
    levels = _balance(np.arange(256, dtype=np.float32)[None, :, None], gains[:, None, :])
    tables = (levels / 255.0 - np.asarray(mean, dtype=np.float32)) / np.asarray(std, dtype=np.float32)
    batch = np.empty((len(crops), 3, height, width), dtype=np.float32)
    for index, (image, table) in enumerate(zip(resized, tables)):
        batch[index] = cv2.LUT(image, table[None]).transpose(2, 0, 1)
    return batch


@dataclass(frozen=True)
class Prediction:
    """Best class for one crop with its probability and the top-3 (best first)."""

    code: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class ModelInfo:
    """What the sidecar JSON says about a model: classes, input size, normalisation."""

    classes: tuple[str, ...]
    input_size: tuple[int, int]
    mean: tuple[float, float, float]
    std: tuple[float, float, float]
    white_balance: bool = False

    @classmethod
    def read(cls, sidecar: Path, recipe: str) -> "ModelInfo":
        """Parse the sidecar `*.json` that the `recipe` module wrote beside its model."""
        try:
            data = json.loads(sidecar.read_text())
            return cls(tuple(data["classes"]), tuple(data["input_size"]),
                       tuple(data["mean"]), tuple(data["std"]), bool(data.get("white_balance", False)))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ModelError(f"cannot read model sidecar {str(sidecar)!r}: {error}; "
                             f"retrain with `python -m {recipe}`") from error

    def batch(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """`preprocess` with this model's input size, normalisation and white balance."""
        return preprocess(crops, self.input_size, self.mean, self.std, self.white_balance)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of (N, C) logits."""
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def model_file(path: str | Path | None, default: Path, what: str, recipe: str) -> Path:
    """`path` (or `default`) as a Path, or ModelError naming `what` is missing and the `recipe` module
    that retrains it."""
    model = Path(path) if path is not None else default
    if not model.is_file():
        raise ModelError(f"{what} {str(model)!r} not found; retrain with `python -m {recipe}`")
    return model


def onnx_session(model: Path) -> object:
    """An onnxruntime CPU session with THREADS threads that do not spin between runs (the
    classifier and the index reader take turns; a spinning pool would hold the cores)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


class TileClassifier:
    """An onnxruntime session plus the metadata it needs; stateless per call."""

    def __init__(self, session: object, info: ModelInfo, index: "IndexReader | None" = None) -> None:
        self._session = session
        self.info = info
        self._index = index

    @property
    def classes(self) -> tuple[str, ...]:
        """Class codes in the model's output order."""
        return self.info.classes

    @classmethod
    def load(cls, path: str | Path | None = None, index: str | Path | None = INDEX_PATH) -> "TileClassifier":
        """Load an ONNX model and its sidecar JSON (default: the committed model), with the
        corner-index reader at `index` (default: the committed one; None: read faces alone)."""
        from vision.index import IndexReader

        model = model_file(path, MODEL_PATH, "model file", RECIPE)
        info = ModelInfo.read(model.with_suffix(".json"), RECIPE)
        return cls(onnx_session(model), info, IndexReader.load(index) if index is not None else None)

    @property
    def index_reader(self) -> "IndexReader | None":
        """The corner-index reader the classifier moves its probabilities by (None: faces alone)."""
        return self._index

    def probabilities(self, crops: Sequence[np.ndarray], shifts: Sequence[Cut] = ()) -> np.ndarray:
        """(N, C) softmax probabilities, columns in `self.classes` order: `face_probabilities` moved
        by the printed corner indices the index reader reads (`vision.index.with_index`)."""
        probabilities = self.face_probabilities(crops, shifts)
        return self._index.applied(probabilities, crops, self.classes) if self._index else probabilities

    def face_probabilities(self, crops: Sequence[np.ndarray], shifts: Sequence[Cut] = ()) -> np.ndarray:
        """(N, C) the face network's softmax probabilities, columns in `self.classes` order, `reshifted`."""
        if len(crops) == 0:
            return np.zeros((0, len(self.classes)), dtype=np.float32)
        return self.reshifted(self._faces(crops), crops, shifts)

    def reshifted(self, probabilities: np.ndarray, crops: Sequence[np.ndarray],
                  shifts: Sequence[Cut]) -> np.ndarray:
        """The crops' face probabilities, each `doubtful` one's averaged with the crop read again cut by
        each of `shifts` (each a `Cut`): a tile cut a little off its seams, or with a little of the table
        above it, as a photo's may be, can read one way and not another."""
        doubtful = np.flatnonzero(self.doubtful(probabilities)) if shifts else []
        if not len(doubtful):
            return probabilities
        reads = self._faces([trimmed(crops[i], *cut) for cut in shifts for i in doubtful])
        probabilities = probabilities.copy()
        probabilities[doubtful] = (probabilities[doubtful] + reads.reshape(len(shifts), len(doubtful), -1).sum(axis=0)
                                   ) / (1 + len(shifts))
        return probabilities

    def doubtful(self, probabilities: np.ndarray) -> np.ndarray:
        """Per crop: whether its likeliest class, a face or back (not `none`), is less probable than SHIFT_DOUBT."""
        named = probabilities.argmax(axis=1) != self.classes.index("none") if "none" in self.classes else True
        return (probabilities.max(axis=1) < SHIFT_DOUBT) & named

    def _faces(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """(N, C) the face network's softmax probabilities."""
        (logits,) = self._session.run(None, {"input": self.info.batch(crops)})
        return softmax(logits)

    def predict(self, crops: Sequence[np.ndarray]) -> list[Prediction]:
        """Top-3 prediction for each crop."""
        predictions = []
        for row in self.probabilities(crops):
            order = np.argsort(row)[::-1][:TOP_K]
            top = tuple((self.classes[i], float(row[i])) for i in order)
            predictions.append(Prediction(top[0][0], top[0][1], top))
        return predictions


def read_crop(path: str | Path) -> np.ndarray:
    """Read an image file as RGB uint8, raising CropError when it is not an image."""
    data = np.fromfile(str(path), dtype=np.uint8) if Path(path).is_file() else None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data is not None and data.size else None
    if image is None:
        raise CropError(f"{str(path)!r} is not a readable image file; pass a JPEG or PNG crop")
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m vision.classify CROP.jpg [...]`: print each crop's top-3."""
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python -m vision.classify CROP.jpg [...]", file=sys.stderr)
        return 2
    classifier = TileClassifier.load()
    status = 0
    for path in paths:
        try:
            (prediction,) = classifier.predict([read_crop(path)])
        except CropError as error:
            print(f"{path}: error: {error}", file=sys.stderr)
            status = 1
            continue
        print(f"{path}: " + "  ".join(f"{code} {p:.3f}" for code, p in prediction.alternatives))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
