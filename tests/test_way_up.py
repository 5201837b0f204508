"""The committed way-up reader: loads, reads faces drawn upright as upright and turned as turned."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.classify import MODEL_PATH, ModelError, ModelInfo
from vision.way_up import WAY_UP_PATH, WAYS, WayUpReader

# faces that look different turned half round: characters, winds, dragons, bonus tiles, odd bamboos and dots
TELLING = ("1m", "3m", "5m", "7m", "9m", "1z", "2z", "3z", "4z", "6z", "1f", "4f", "5f", "8f", "1s", "7s", "7p")


@pytest.fixture(scope="module")
def reader() -> WayUpReader:
    return WayUpReader.load()


def test_sidecar_names_the_two_ways_and_the_classifiers_input(reader: WayUpReader) -> None:
    classifier = ModelInfo.read(MODEL_PATH.with_suffix(".json"), "models.train")
    assert reader.info.classes == WAYS == ("upright", "turned")
    assert (reader.info.input_size, reader.info.mean, reader.info.std, reader.info.white_balance) == (
        classifier.input_size, classifier.mean, classifier.std, classifier.white_balance)


@pytest.mark.parametrize("turned", [False, True], ids=["upright", "turned"])
def test_rendered_faces_read_their_way_up(reader: WayUpReader, turned: bool) -> None:
    """Bundled glyph faces as the generator draws them, the side wall below either way: each face's odds
    point the right way for most, and the mean clearly (as over a hand's tiles)."""
    from datasets import synth
    from datasets.artwork import sheet_glyphs

    generator, rng = synth.Generator(sheet_glyphs()), np.random.default_rng(5)
    odds = [reader.turned_odds([generator.sample(code, rng, turned=turned)]) for code in TELLING]
    sign = 1 if turned else -1
    assert sum(sign * value > 0 for value in odds) >= len(TELLING) - 2, list(zip(TELLING, np.round(odds, 2)))
    assert sign * np.mean(odds) > 1.0


def test_training_preprocesses_as_inference_does() -> None:
    # through the classifier's training `tensor`, which calls `vision.classify.preprocess`
    # (`test_classifier.test_training_uses_the_inference_preprocess`); none of its own
    tree = ast.parse((Path(__file__).resolve().parents[1] / "models" / "train_way_up.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                and node.module == "models.train" for alias in node.names}
    defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    assert "tensor" in imported and not {"tensor", "preprocess"} & defined


def test_no_crops_give_even_odds(reader: WayUpReader) -> None:
    assert reader.turned_odds([]) == 0.0


def test_a_missing_or_foreign_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="train_way_up"):
        WayUpReader.load(tmp_path / "missing.onnx")
    shutil.copy(WAY_UP_PATH, tmp_path / "other.onnx")
    sidecar = json.loads(WAY_UP_PATH.with_suffix(".json").read_text())
    (tmp_path / "other.json").write_text(json.dumps(dict(sidecar, classes=["1m", "2m"])))
    with pytest.raises(ModelError, match="reads \\['1m', '2m'\\]"):
        WayUpReader.load(tmp_path / "other.onnx")
    (tmp_path / "other.json").write_text("{")
    with pytest.raises(ModelError, match="cannot read model sidecar .*other.json.*train_way_up`"):
        WayUpReader.load(tmp_path / "other.onnx")
