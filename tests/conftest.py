"""Shared fixtures: where the shared real-photo data lives."""

import os
from pathlib import Path

import pytest

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
