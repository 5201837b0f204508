"""Which way up the tiles of a reading stand.

The tile classifier names a face turned half round as well as an upright one (it is trained so),
so it cannot say whether a photo was taken from across the table. A small ONNX network
(`models/way_up.onnx`, trained by `models/train_way_up.py` on faces drawn both ways) reads a face
crop as upright or turned; over a reading's tiles, `WayUpReader.turned_odds` says how much likelier
the tiles are turned than upright. Faces alike both ways (a 2 of dots) leave it unsure; characters,
winds, bonus tiles and most bamboos and dots tell. Preprocessing is the classifier's
(`vision.classify.preprocess`), its settings read from the sidecar.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from vision.classify import MODEL_PATH, ModelError, ModelInfo, model_file, onnx_session

WAYS = ("upright", "turned")
WAY_UP_PATH = MODEL_PATH.with_name("way_up.onnx")
RECIPE = "models.train_way_up"  # the module that retrains the reader and writes its sidecar
ODDS_CAP = 3.0  # one face's log odds count at most this much either way (a face the network never saw may
# read very surely wrong)


class WayUpReader:
    """An onnxruntime session reading face crops as upright or turned; stateless per call."""

    def __init__(self, session: object, info: ModelInfo) -> None:
        self._session = session
        self.info = info

    @classmethod
    def load(cls, path: str | Path | None = None) -> "WayUpReader":
        """Load the reader and its sidecar JSON (default: the committed one)."""
        model = model_file(path, WAY_UP_PATH, "way-up reader", RECIPE)
        info = ModelInfo.read(model.with_suffix(".json"), RECIPE)
        if info.classes != WAYS:
            raise ModelError(f"way-up reader {str(model)!r} reads {list(info.classes)}, not {list(WAYS)}; "
                             f"retrain with `python -m {RECIPE}`")
        return cls(onnx_session(model), info)

    def turned_odds(self, crops: Sequence[np.ndarray]) -> float:
        """The mean over the crops of log(P(turned) / P(upright)), each capped at ODDS_CAP either way;
        0 for no crops."""
        if len(crops) == 0:
            return 0.0
        (logits,) = self._session.run(None, {"input": self.info.batch(crops)})
        return float(np.clip(logits[:, 1] - logits[:, 0], -ODDS_CAP, ODDS_CAP).mean())
