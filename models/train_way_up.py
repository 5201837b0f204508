"""Train the way-up reader from scratch and export it (`python -m models.train_way_up`).

Seeded: renders (or loads the cached) face crops of `datasets.way_up`, half of them turned half
round, and re-photographs the real TRAIN crops but a validation fold upright or turned; trains a
small CNN on the CPU to tell which, prints its accuracy on fresh synthetic crops and on the
validation fold (upright as photographed, and turned; never trained on), and writes
`models/way_up.onnx` + `.json`. Preprocessing is `vision.classify.preprocess`, as for the tile
classifier (same input size, normalisation and white balance).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from datasets import real_tiles, way_up
from models import train_index
from models.train import INPUT_SIZE, MEAN, STD, WHITE_BALANCE, evaluate, tensor
from models.train_index import conv_stack, export, fit, parsed_run
from vision.way_up import WAYS

MODEL_DIR = Path(__file__).resolve().parent
CHANNELS = (16, 32, 64, 64)  # 3x3 conv + BN + ReLU each; 2x2 max pooling after the first three, then the
# 8x6 map flattened: where the ink sits (top or bottom) is what tells the way up, so no global pooling


@dataclass(frozen=True)
class Config(train_index.Config):
    """One training run's settings (all seeded): the corner-index reader's, but for these."""

    crops: int = 30000
    check_crops: int = 3000
    epochs: int = 8
    data_seed: int = 17
    real_variants: int = 10  # re-photographed crops of each real TRAIN crop outside the validation fold


class WayUpNet(nn.Module):
    """The conv stack and one linear head over the flattened map (upright, turned)."""

    def __init__(self) -> None:
        super().__init__()
        cells = (INPUT_SIZE[0] // 8) * (INPUT_SIZE[1] // 8)
        self.body = nn.Sequential(*conv_stack(CHANNELS, 3), nn.Flatten(), nn.Dropout(0.2),
                                  nn.Linear(CHANNELS[-1] * cells, len(WAYS)))

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        return self.body(inputs)


def real_check(model: WayUpNet, tiles: list[real_tiles.RealTile]) -> dict[str, float]:
    """Real crops read upright (as photographed) and turned half round."""
    upright = [tile.image() for tile in tiles]
    turned = [np.ascontiguousarray(image[::-1, ::-1]) for image in upright]
    return {"upright": round(evaluate(model, tensor(upright), np.zeros(len(upright))), 4),
            "turned": round(evaluate(model, tensor(turned), np.ones(len(turned))), 4), "crops": len(upright)}


def main(argv: list[str] | None = None) -> int:
    config, out = parsed_run("Train and export the way-up reader.", Config, MODEL_DIR / "way_up.onnx", argv)
    started = time.time()
    crops, labels = way_up.cached(config.crops, config.data_seed)
    check_crops, check_labels = way_up.cached(config.check_crops, config.data_seed + 100)
    train_tiles, validation_tiles = real_tiles.evaluation_split(validation=True)
    real_crops, real_labels = way_up.real([tile.image() for tile in train_tiles], config.real_variants, config.data_seed)
    print(f"data ready: {len(crops)} synthetic, {len(real_crops)} real crops ({time.time() - started:.0f} s)", flush=True)
    torch.manual_seed(config.seed)
    model = WayUpNet()
    fit(model, tensor(np.concatenate([crops, real_crops])), torch.from_numpy(np.concatenate([labels, real_labels])).long(),
        config)
    fresh = evaluate(model, tensor(check_crops), check_labels)
    real = real_check(model, validation_tiles)
    print(f"fresh synthetic crops: {fresh:.4f} of {len(check_crops)}; real validation crops upright "
          f"{real['upright']:.4f}, turned {real['turned']:.4f} of {real['crops']}")
    minutes = (time.time() - started) / 60
    summary = {"config": asdict(config), "fresh_synthetic": round(fresh, 4), "real_validation_crops": real,
               "parameters": sum(p.numel() for p in model.parameters())}
    sidecar = {"classes": list(WAYS), "input_size": list(INPUT_SIZE), "mean": list(MEAN), "std": list(STD),
               "white_balance": WHITE_BALANCE, "training": summary}  # what `vision.classify.ModelInfo` reads
    export(model, INPUT_SIZE, sidecar, out)
    print(f"wrote {out} and {out.with_suffix('.json')} ({minutes:.1f} min)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
