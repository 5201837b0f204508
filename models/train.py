"""Train the tile classifier from scratch and export it (`python -m models.train`).

Seeded end to end: renders (or loads the cached) synthetic crops from the
installed artwork, augments the TRAIN split of the real crops, trains small
plain CNNs with class, number and family heads on the CPU (an ensemble of
`Config.members`, one per seed, their probabilities averaged), prints held-out real
accuracy, and writes `models/tile_classifier.onnx` (its convolutions and linear layers in int8,
`quantized`) + `models/tile_classifier.json`: the same bytes on every run on one machine (the sidecar records
no time; the command prints it). Torch and onnx are imported only here (the `train` extra). Preprocessing is
`vision.classify.preprocess`, the function inference uses.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np
import torch
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quant_pre_process, quantize_static
from torch import nn

from datasets import real_tiles, synth
from datasets.artwork import load_faces
from scoring.tiles import Tile
from vision.classify import CLASSES, preprocess

MODEL_DIR = Path(__file__).resolve().parent
INPUT_SIZE = (64, 48)
MEAN = (0.5, 0.5, 0.5)
STD = (0.25, 0.25, 0.25)
WHITE_BALANCE = True  # crops are white-balanced before the network (vision.classify.white_balanced)
# (output channels, stride) per 3x3 conv + BN + ReLU; "pool" = 2x2 max pooling. Plain convs
# trained about 2x faster than depthwise-separable ones on this 2-core CPU.
LAYERS = ((16, 2), (32, 2), (64, 1), "pool", (96, 1), (128, 2))
CALIBRATION_PER_CLASS = 10  # synthetic crops per class (rendered with the data seed + 1) that, with the
# real TRAIN crops, calibrate the exported network's int8 activation ranges
QUANTIZED_OPS = ("Conv", "Gemm")  # int8 (static, per channel); the softmax and the ensemble's mean stay float
INT8_SUMMARY = {"ops": list(QUANTIZED_OPS), "weight_bits": 7}  # what the sidecar records of `quantized`


@dataclass(frozen=True)
class Config:
    """One training run's settings (all seeded)."""

    epochs: int = 8
    synth_per_class: int = 600
    real_variants: int = 30
    real_share: float = 0.35
    bonus_weight: float = 2.0  # real bonus crops drawn this many times as often
    factor_weight: float = 0.5  # loss weight of the number and family heads
    batch: int = 128
    lr: float = 3e-3
    seed: int = 7  # the network's initialisation and the batches' order (member k: seed + k)
    members: int = 2  # networks trained with successive seeds, their probabilities averaged
    data_seed: int = 7  # the rendered synthetic crops and the real crops' augmentations (both cached)
    threads: int = 2


# Factor heads: beside the 44 classes, the model learns each tile's printed number (0: none) and its
# family, so the trunk learns "which number" (1-4, shared by suit and bonus tiles) and "flower or
# season" across tile sets. They are training losses only: multiplying them into the exported scores
# read real and synthetic crops worse on the validation fold than the class head alone.
FAMILIES = ("m", "p", "s", "z", "flower", "season", "back", "none")


def factors(code: str) -> tuple[int, int]:
    """(number 0-9, family index) of a class code."""
    if code in ("back", "none"):
        return 0, FAMILIES.index(code)
    tile = Tile.parse(code)
    if tile.is_bonus:
        return tile.number, FAMILIES.index("flower" if tile.is_flower else "season")
    return tile.number or 0, FAMILIES.index(code[1])


NUMBER_OF = torch.tensor([factors(code)[0] for code in CLASSES])
FAMILY_OF = torch.tensor([factors(code)[1] for code in CLASSES])


class FactoredClassifier(nn.Module):
    """The LAYERS conv stack, global average pooling, dropout, and three linear heads (class,
    number, family); `forward` returns the class head's logits only (what `Ensemble` averages)."""

    def __init__(self) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        channels = 3
        for spec in LAYERS:
            if spec == "pool":
                layers.append(nn.MaxPool2d(2))
                continue
            width, stride = spec
            layers += [nn.Conv2d(channels, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width),
                       nn.ReLU(inplace=True)]
            channels = width
        self.trunk = nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))
        self.heads = nn.ModuleList([nn.Linear(channels, len(CLASSES)), nn.Linear(channels, 10),
                                    nn.Linear(channels, len(FAMILIES))])

    def head_logits(self, inputs: torch.Tensor) -> list[torch.Tensor]:
        """Raw logits of the class, number and family heads."""
        features = self.trunk(inputs)
        return [head(features) for head in self.heads]

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        return self.heads[0](self.trunk(inputs))


class Ensemble(nn.Module):
    """Members trained alike from different seeds; `forward` returns the log of their mean class
    probabilities, so the softmax inference applies to these logits gives the mean itself."""

    def __init__(self, members: list[FactoredClassifier]) -> None:
        super().__init__()
        self.members = nn.ModuleList(members)

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        log_probs = torch.stack([member(inputs).log_softmax(dim=1) for member in self.members])
        return torch.logsumexp(log_probs, dim=0) - math.log(len(self.members))


def _augment_chunk(task: tuple[int, int, list[np.ndarray]]) -> list[np.ndarray]:
    seed, variants, images = task
    rng = np.random.default_rng(seed)
    return [synth.augment_real(image, rng) for image in images for _ in range(variants)]


def real_training_set(tiles: list[real_tiles.RealTile], variants: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """`variants` augmented copies of every real TRAIN crop (cached in ~/.cache/mahjong-lens)."""
    digest = hashlib.sha1("\n".join(tile.path.name for tile in tiles).encode()).hexdigest()[:8]
    shape = f"{synth.CROP_SIZE[0]}x{synth.CROP_SIZE[1]}"  # and the generator's version: `photo_effects` augments them
    path = synth.CACHE_DIR / f"real_train_{synth.RENDER_VERSION}_{shape}_{variants}_{seed}_{digest}.npz"
    if path.is_file():
        data = np.load(path)
        return data["images"], data["labels"]
    size = (synth.CROP_SIZE[1] * 2, synth.CROP_SIZE[0] * 2)
    images = [cv2.resize(tile.image(), size, interpolation=cv2.INTER_AREA) for tile in tiles]
    labels = np.repeat([CLASSES.index(tile.code) for tile in tiles], variants)
    tasks = [(seed * 1000 + i, variants, images[i:i + 20]) for i in range(0, len(images), 20)]
    with Pool(2) as pool:
        crops = np.stack([crop for chunk in pool.map(_augment_chunk, tasks) for crop in chunk])
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, images=crops, labels=labels)
    return crops, labels


def tensor(images: list[np.ndarray] | np.ndarray) -> torch.Tensor:
    """The shared preprocessing, as a torch tensor."""
    return torch.from_numpy(preprocess(images, INPUT_SIZE, MEAN, STD, WHITE_BALANCE))


def evaluate(model: nn.Module, inputs: torch.Tensor, labels: np.ndarray) -> float:
    """Top-1 accuracy."""
    model.eval()
    with torch.no_grad():
        predicted = torch.cat([model(inputs[i:i + 512]).argmax(1) for i in range(0, len(inputs), 512)])
    return float((predicted.numpy() == labels).mean())


def fit(model: FactoredClassifier, synth_x: torch.Tensor, synth_y: np.ndarray, real_x: torch.Tensor,
        real_y: np.ndarray, config: Config) -> None:
    """Mixed batches (`real_share` real, bonus crops `bonus_weight` times as likely), AdamW,
    one-cycle schedule, label smoothing; the factor heads add `factor_weight` times their loss."""
    generator = torch.Generator().manual_seed(config.seed)
    n_real = int(config.batch * config.real_share)
    n_synth = config.batch - n_real
    steps = len(synth_x) // n_synth
    optimiser = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, config.lr, total_steps=steps * config.epochs)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    synth_t, real_t = torch.from_numpy(synth_y).long(), torch.from_numpy(real_y).long()
    bonus = torch.tensor([CLASSES[label].endswith("f") for label in real_y])
    real_weights = torch.where(bonus, config.bonus_weight, 1.0)
    for epoch in range(config.epochs):
        model.train()
        order = torch.randperm(len(synth_x), generator=generator)
        started, total = time.time(), 0.0
        for step in range(steps):
            s_idx = order[step * n_synth:(step + 1) * n_synth]
            r_idx = torch.multinomial(real_weights, n_real, replacement=True, generator=generator)
            inputs = torch.cat([synth_x[s_idx], real_x[r_idx]])
            labels = torch.cat([synth_t[s_idx], real_t[r_idx]])
            main, number, family = model.head_logits(inputs)
            loss = loss_fn(main, labels) + config.factor_weight * (
                loss_fn(number, NUMBER_OF[labels]) + loss_fn(family, FAMILY_OF[labels]))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        print(f"epoch {epoch + 1}/{config.epochs}: loss {total / steps:.3f} ({time.time() - started:.0f} s)",
              flush=True)


def onnx_export(model: nn.Module, input_size: tuple[int, int], out: Path) -> None:
    """ONNX, opset 17, one RGB input `input` of `input_size` (h, w) and output `logits`, dynamic batch."""
    model.eval()
    torch.onnx.export(model, (torch.zeros(1, 3, *input_size),), str(out), input_names=["input"],
                      output_names=["logits"], dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}},
                      opset_version=17, dynamo=False)


class _Batches(CalibrationDataReader):
    """A preprocessed NCHW array fed to the calibrator in batches of 100."""

    def __init__(self, inputs: np.ndarray) -> None:
        self._batches = iter([{"input": inputs[i:i + 100]} for i in range(0, len(inputs), 100)])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._batches, None)


def quantized(source: Path, out: Path, calibration: np.ndarray) -> None:
    """The float ONNX model at `source` written to `out` with its QUANTIZED_OPS in int8 (QDQ, weights per
    channel in 7 bits: CPUs without VNNI add pairs of 8-bit products in 16 bits, which full-range weights
    overflow), activation ranges from `calibration` (preprocessed crops): it reads crops about 1.4x as fast
    on this CPU, and the training crops' probabilities move by about 0.01."""
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        quantize_static(str(prepared), str(out), _Batches(calibration), quant_format=QuantFormat.QDQ,
                        per_channel=True, reduce_range=True, activation_type=QuantType.QInt8, weight_type=QuantType.QInt8,
                        op_types_to_quantize=list(QUANTIZED_OPS))


def calibration_set(originals: list[np.ndarray], seed: int) -> np.ndarray:
    """CALIBRATION_PER_CLASS synthetic crops of every class (rendered with `seed` + 1) and the real
    TRAIN crops, preprocessed."""
    images, _ = synth.render(CALIBRATION_PER_CLASS, seed + 1)
    return preprocess([*images, *originals], INPUT_SIZE, MEAN, STD, WHITE_BALANCE)


def export(model: nn.Module, summary: dict, out: Path, calibration: np.ndarray) -> None:
    """`onnx_export`, `quantized` with `calibration`, and the sidecar JSON inference reads."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "float.onnx"
        onnx_export(model, INPUT_SIZE, source)
        quantized(source, out, calibration)
    summary = {**summary, "int8": INT8_SUMMARY | {"calibration_crops": len(calibration)}}
    sidecar = {"classes": list(CLASSES), "input_size": list(INPUT_SIZE), "mean": list(MEAN),
               "std": list(STD), "white_balance": WHITE_BALANCE, "version": 2, "training": summary}
    out.with_suffix(".json").write_text(json.dumps(sidecar, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Render/load data, train, evaluate on the held-out real crops, export."""
    parser = argparse.ArgumentParser(description="Train and export the tile classifier.")
    parser.add_argument("--epochs", type=int, default=Config.epochs)
    parser.add_argument("--synth-per-class", type=int, default=Config.synth_per_class)
    parser.add_argument("--real-variants", type=int, default=Config.real_variants)
    parser.add_argument("--seed", type=int, default=Config.seed,
                        help="training seed only (initialisation, batch order): compare recipes over several "
                             "seeds without re-rendering the cached data")
    parser.add_argument("--members", type=int, default=Config.members,
                        help="networks in the exported ensemble (seeds SEED, SEED+1, ...)")
    parser.add_argument("--out", type=Path, default=MODEL_DIR / "tile_classifier.onnx")
    real_tiles.add_split_options(
        parser, "hold-out-by-set experiment: train without any real crop of this look group",
        "recipe comparison: train on part of TRAIN, report on its validation fold (with --hold-out-group: "
        "on the group's crops in TRAIN)")
    args = parser.parse_args(argv)
    config = Config(epochs=args.epochs, synth_per_class=args.synth_per_class, real_variants=args.real_variants,
                    seed=args.seed, members=args.members)
    started = time.time()
    torch.set_num_threads(config.threads)
    faces, skipped = load_faces()
    if skipped:
        print("artwork sources skipped:", *skipped, sep="\n  ")
    train_tiles, held_out = real_tiles.evaluation_split(args.hold_out_group, args.validation)
    synth_images, synth_labels = synth.cached(config.synth_per_class, config.data_seed)
    real_images, real_labels = real_training_set(train_tiles, config.real_variants, config.data_seed)
    originals = [tile.image() for tile in train_tiles]
    real_x = torch.cat([tensor(real_images), tensor(originals)])
    real_y = np.concatenate([real_labels, [CLASSES.index(tile.code) for tile in train_tiles]])
    print(f"data ready: {len(synth_images)} synthetic, {len(real_x)} real ({time.time() - started:.0f} s)",
          flush=True)
    synth_x = tensor(synth_images)
    held_x = tensor([tile.image() for tile in held_out])
    held_y = np.array([CLASSES.index(tile.code) for tile in held_out])
    members = []
    for seed in range(config.seed, config.seed + config.members):
        torch.manual_seed(seed)
        members.append(FactoredClassifier())
        fit(members[-1], synth_x, synth_labels, real_x, real_y, replace(config, seed=seed))
        print(f"member seed {seed}: held-out real top-1 {evaluate(members[-1], held_x, held_y):.4f}", flush=True)
    model = Ensemble(members)
    accuracy = evaluate(model, held_x, held_y)
    minutes = (time.time() - started) / 60
    print(f"held-out real top-1: {accuracy:.4f} on {len(held_out)} crops; total {minutes:.1f} min")
    summary = {"config": asdict(config), "artwork_sources": sorted({f.source for f in faces}),
               "synthetic_crops": len(synth_images), "real_train_crops": len(train_tiles),
               "real_held_out_crops": len(held_out), "held_out_top1": round(accuracy, 4),
               "parameters": sum(p.numel() for p in model.parameters())}
    export(model, summary, args.out, calibration_set(originals, config.data_seed))
    print(f"wrote {args.out} and {args.out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
