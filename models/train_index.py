"""Train the corner-index reader from scratch and export it (`python -m models.train_index`).

Seeded: renders (or loads the cached) crops of `datasets.index_bands`, trains a small CNN on
their bands (`vision.index.band_batch`, the function inference uses) on the CPU, prints its
accuracy on fresh synthetic bands and its readings of artwork that prints its own index (never
trained on) and of the real TRAIN crops, and writes `models/corner_index.onnx` + `.json`.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from datasets import index_bands, real_tiles, synth
from datasets.artwork import load_source
from models.train import onnx_export
from vision.index import DIGITS, SURE, BandSpec, band_batch, likelier_band

MODEL_DIR = Path(__file__).resolve().parent
SPEC = BandSpec(share=0.32, input_size=(28, 64))
CHANNELS = (16, 32, 64, 64)  # 3x3 conv + BN + ReLU each; 2x2 max pooling after the first two


@dataclass(frozen=True)
class Config:
    """One training run's settings (all seeded)."""

    crops: int = 36000  # rendered faces, two bands each
    check_crops: int = 2000
    epochs: int = 12
    batch: int = 128
    lr: float = 3e-3
    seed: int = 7
    data_seed: int = 11
    threads: int = 2


def conv_stack(widths: tuple[int, ...], pooled: int) -> list[nn.Module]:
    """3x3 conv + BN + ReLU per width (from 3 channels), 2x2 max pooling after the first `pooled`."""
    layers: list[nn.Module] = []
    for index, (width, channels) in enumerate(zip((3,) + widths, widths)):
        layers += [nn.Conv2d(width, channels, 3, 1, 1, bias=False), nn.BatchNorm2d(channels), nn.ReLU(inplace=True)]
        if index < pooled:
            layers.append(nn.MaxPool2d(2))
    return layers


class IndexNet(nn.Module):
    """The conv stack, global max pooling (a digit may sit anywhere along the band), one linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(*conv_stack(CHANNELS, 2), nn.AdaptiveMaxPool2d(1), nn.Flatten(), nn.Dropout(0.1),
                                  nn.Linear(CHANNELS[-1], len(DIGITS)))

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        return self.body(inputs)


def bands(crops: np.ndarray | list[np.ndarray], labels: np.ndarray | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """The shared preprocessing as tensors: 2 bands per crop, labels (N, 2) flattened alike."""
    inputs = torch.from_numpy(band_batch(list(crops), SPEC))
    return inputs, torch.from_numpy(np.asarray(labels).reshape(-1)).long() if labels is not None else torch.empty(0)


def fit(model: IndexNet, inputs: torch.Tensor, labels: torch.Tensor, config: Config) -> None:
    """AdamW, one-cycle schedule, seeded batches (no label smoothing: how sure a reading is decides
    whether it counts, `vision.index.SURE`)."""
    generator = torch.Generator().manual_seed(config.seed)
    steps = len(inputs) // config.batch
    optimiser = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, config.lr, total_steps=steps * config.epochs)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(config.epochs):
        model.train()
        order, started, total = torch.randperm(len(inputs), generator=generator), time.time(), 0.0
        for step in range(steps):
            batch = order[step * config.batch:(step + 1) * config.batch]
            loss = loss_fn(model(inputs[batch]), labels[batch])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        print(f"epoch {epoch + 1}/{config.epochs}: loss {total / steps:.3f} ({time.time() - started:.0f} s)", flush=True)


def read(model: IndexNet, crops: list[np.ndarray]) -> np.ndarray:
    """Per crop: (digit of the likelier band, its probability), as inference takes it."""
    model.eval()
    with torch.no_grad():
        probabilities = torch.cat([model(bands(crops[i:i + 256])[0]).softmax(1) for i in range(0, len(crops), 256)])
    chosen = likelier_band(probabilities.numpy())
    best = chosen[:, 1:].argmax(axis=1) + 1
    return np.column_stack([best, chosen[np.arange(len(crops)), best]])


def tally(readings: np.ndarray, truths: list[int], sure: float) -> Counter:
    """right / wrong digit / none read (at `sure` confidence), against each crop's own number (0: none)."""
    counts: Counter = Counter()
    for (digit, confidence), truth in zip(readings, truths):
        counts["none" if confidence < sure else "right" if digit == truth else "wrong"] += 1
    return counts


def index_of(code: str) -> int:
    """The digit a set may print on a tile (`synth.corner_index`: a suit tile's number, a bonus
    tile's 1-4), else 0."""
    mark = synth.corner_index(code) if code in synth.CLASSES[:42] else ""
    return int(mark) if mark.isdigit() else 0


def checks(model: IndexNet, config: Config, sure: float) -> dict[str, dict[str, int]]:
    """Readings of artwork printing its own index (faces on bodies, photo effects; never trained
    on) and of the real TRAIN crops: right, wrong and none against each tile's number."""
    rng = np.random.default_rng(config.data_seed + 1)
    results = {}
    for source in sorted(index_bands.PRINTED_INDEX_SOURCES):
        faces = load_source(source)
        crops = [_photographed(synth.edged(synth.face_on_body(face, rng)), rng) for face in faces]
        results[source] = dict(tally(read(model, crops), [index_of(face.code) for face in faces], sure))
    train_tiles, _ = real_tiles.evaluation_split()
    real = read(model, [tile.image() for tile in train_tiles])
    results["real TRAIN crops"] = dict(tally(real, [index_of(tile.code) for tile in train_tiles], sure))
    return results


def _photographed(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A drawn face alone on a table, cropped and photographed as the training faces are."""
    scene = synth.draw_scene(face, [synth.Generator.table_surface(rng)] * 2, rng)
    return synth.photo_effects(synth.warp(scene.image, synth.crop_quad(scene.corners, rng)), rng)


def export(model: nn.Module, input_size: tuple[int, int], sidecar: dict, out: Path) -> None:
    """`models.train.onnx_export` + the sidecar JSON inference reads."""
    onnx_export(model, input_size, out)
    out.with_suffix(".json").write_text(json.dumps(sidecar, indent=2) + "\n")


def parsed_run(description: str, config: type, out: Path, argv: list[str] | None) -> tuple:
    """A small reader's training run from the command line (`--crops`, `--epochs`, `--seed`, `--out`,
    defaults from `config` and `out`): its config and output path; torch set to the config's threads."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--crops", type=int, default=config.crops)
    parser.add_argument("--epochs", type=int, default=config.epochs)
    parser.add_argument("--seed", type=int, default=config.seed)
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args(argv)
    run = config(crops=args.crops, epochs=args.epochs, seed=args.seed)
    torch.set_num_threads(run.threads)
    return run, args.out


def main(argv: list[str] | None = None) -> int:
    config, out = parsed_run("Train and export the corner-index reader.", Config, MODEL_DIR / "corner_index.onnx", argv)
    started = time.time()
    crops, labels = index_bands.cached(config.crops, config.data_seed)
    check_crops, check_labels = index_bands.cached(config.check_crops, config.data_seed + 100)
    inputs, targets = bands(crops, labels)
    print(f"data ready: {len(crops)} crops, {len(inputs)} bands ({time.time() - started:.0f} s)", flush=True)
    torch.manual_seed(config.seed)
    model = IndexNet()
    fit(model, inputs, targets, config)
    check_inputs, check_targets = bands(check_crops, check_labels)
    model.eval()
    with torch.no_grad():
        accuracy = float((model(check_inputs).argmax(1) == check_targets).float().mean())
    print(f"fresh synthetic bands: {accuracy:.4f} of {len(check_inputs)}")
    results = checks(model, config, SURE)
    for name, counts in results.items():
        print(f"  {name}: " + ", ".join(f"{key} {value}" for key, value in sorted(counts.items())))
    minutes = (time.time() - started) / 60
    summary = {"config": asdict(config), "fresh_synthetic_bands": round(accuracy, 4), "checks": results,
               "parameters": sum(p.numel() for p in model.parameters())}
    sidecar = {"digits": list(DIGITS), "band_share": SPEC.share, "input_size": list(SPEC.input_size),
               "training": summary}
    export(model, SPEC.input_size, sidecar, out)
    print(f"wrote {out} and {out.with_suffix('.json')} ({minutes:.1f} min)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
