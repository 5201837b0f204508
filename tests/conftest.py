"""Shared fixtures: where the shared real-photo data lives; a photo of a hand with discards beyond it."""

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared_datasets() -> Path:
    """`../shared/datasets`; skipped when absent, except in CI where absence fails."""
    path = SHARED / "datasets"
    if not path.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing, and CI=true requires it")
        pytest.skip(f"{path} is absent (the shared data sits beside the checkout)")
    return path


@pytest.fixture(scope="session")
def hand_with_discards() -> np.ndarray:
    """tests/data/discards_row.jpg (9m 3p 5s 2z 7m, each apart) on the felt beyond row_green.jpg's complete
    hand (123m 456p 789s 111z 55z), as one RGB photo."""
    hand, discards = (np.asarray(Image.open(ROOT / "tests" / "data" / f"{name}.jpg").convert("RGB"))
                      for name in ("row_green", "discards_row"))
    beyond = np.empty((discards.shape[0], hand.shape[1], 3), np.uint8)
    beyond[:] = discards[2, 2]
    left = (hand.shape[1] - discards.shape[1]) // 2
    beyond[:, left:left + discards.shape[1]] = discards
    return np.vstack([beyond, hand])
