"""Measure the committed tile classifier against its targets (prints numbers, asserts nothing).

`python -m benchmarks.classifier_eval [--model PATH] [--synthetic N] [--scene-faces N]
[--hold-out-group G] [--validation]`

Held-out real crops (the fixed split of datasets.real_tiles): top-1, top-3,
per-class accuracy, bonus-as-bonus rate and exact bonus identity, top
confusion pairs, accuracy per look group (body colour clusters); with
`--hold-out-group G`, every crop of look group G (hold-out-by-set: pair it
with a model from `python -m models.train --hold-out-group G`); a held-out
synthetic set (fresh seed, needs the artwork installed); the upright faces of the
recognition benchmark's synthetic scenes, cut out at their true corners (the held-out
art style, bodies, tables and camera without segmentation errors: the ceiling of the
reader there); the latency of a batch of 20 real tile crops at the reader's face size.
With `--validation`, the validation fold of the TRAIN part instead (pair it with
`python -m models.train --validation`) and the faces of development scenes: recipes are
compared there, never on the held-out crops or the evaluation scenes. With both flags, look
group G's crops in the TRAIN part (pair it with `python -m models.train --hold-out-group G`):
a set the model has not seen, for choosing a recipe.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from datasets import real_tiles
from benchmarks.recognition import scene_specs
from datasets.scenes import SceneError, cached
from vision.classify import CLASSES, MODEL_PATH, TileClassifier
from vision.segment import FACE_SIZE, rectify

BONUS = tuple(code for code in CLASSES if code.endswith("f"))
SYNTH_SEED = 424242
TARGETS = {"top-1": 0.97, "top-3": 0.995, "class": 0.95, "bonus-as-bonus": 0.99, "bonus identity": 0.85,
           "batch-20 ms": 10.0, "model MB": 5.0}


def line(name: str, value: float, target: float, higher_is_better: bool = True, unit: str = "%") -> str:
    """`name  value  (target ...)  ok|MISS`."""
    ok = value >= target if higher_is_better else value <= target
    shown = f"{100 * value:.2f}%" if unit == "%" else f"{value:.2f} {unit}"
    wanted = f"{100 * target:.1f}%" if unit == "%" else f"{target} {unit}"
    return f"{name:<28}{shown:>12}   target {'>=' if higher_is_better else '<='} {wanted:<9} {'ok' if ok else 'MISS'}"


def real_report(classifier: TileClassifier, hold_out_group: int | None, validation: bool) -> None:
    """Accuracy figures on the held-out real crops (or every crop of one look group, or validation)."""
    _, held_out = real_tiles.evaluation_split(hold_out_group, validation)
    images = [tile.image() for tile in held_out]
    truth = np.array([CLASSES.index(tile.code) for tile in held_out])
    probs = classifier.probabilities(images)
    top3 = np.argsort(probs, axis=1)[:, ::-1][:, :3]
    best = top3[:, 0]
    if hold_out_group is None:
        which = "validation fold of TRAIN" if validation else "fixed split"
    else:
        which = f"look group {hold_out_group} in TRAIN" if validation else f"all of look group {hold_out_group}"
    print(f"held-out real crops: {len(held_out)} ({which}; never trained on)")
    print(line("top-1", float((best == truth).mean()), TARGETS["top-1"]))
    print(line("top-3", float((top3 == truth[:, None]).any(axis=1).mean()), TARGETS["top-3"]))
    is_bonus = np.isin(truth, [CLASSES.index(c) for c in BONUS])
    predicted_bonus = np.isin(best, [CLASSES.index(c) for c in BONUS])
    print(line("bonus-as-bonus", float(predicted_bonus[is_bonus].mean()), TARGETS["bonus-as-bonus"]))
    print(line("bonus identity", float((best == truth)[is_bonus].mean()), TARGETS["bonus identity"]))
    print("per-class top-1 (suits/honours below 95% flagged with !):")
    cells = []
    for index, code in enumerate(CLASSES):
        mask = truth == index
        if mask.any():
            accuracy = float((best[mask] == index).mean())
            flag = "!" if accuracy < TARGETS["class"] and code not in BONUS else " "
            cells.append(f"{code:>4} {100 * accuracy:5.1f}%{flag} (n={mask.sum():2d})")
    for start in range(0, len(cells), 6):
        print("  " + "  ".join(cells[start:start + 6]))
    pairs = Counter((CLASSES[t], CLASSES[p]) for t, p in zip(truth, best) if t != p)
    print("top confusions (true -> predicted: count):",
          ", ".join(f"{t}->{p}: {n}" for (t, p), n in pairs.most_common(10)) or "none")
    groups = real_tiles.look_groups(images)
    print("by look group (k-means on body colour; group 0 darkest):")
    for group in sorted(set(groups)):
        mask = groups == group
        print(f"  group {group}: {mask.sum():3d} crops, top-1 {100 * float((best[mask] == truth[mask]).mean()):.2f}%")


def synthetic_report(classifier: TileClassifier, per_class: int) -> None:
    """Top-1 on a freshly rendered synthetic set (a seed training never uses)."""
    try:
        from datasets.synth import render

        images, labels = render(per_class, SYNTH_SEED)
    except (OSError, ImportError, ValueError) as error:
        print(f"held-out synthetic: skipped ({error})")
        return
    best = classifier.probabilities(list(images)).argmax(axis=1)
    print(f"held-out synthetic: {len(labels)} crops, top-1 {100 * float((best == labels).mean()):.2f}%")


def scene_faces_report(classifier: TileClassifier, count: int, development: bool) -> None:
    """Top-1 and top confusions on the upright faces of the first `count` evaluation scenes
    (with `development`, of as many development scenes: for comparing recipes)."""
    try:
        specs, boxes = scene_specs(count, development)
        crops, labels = [], []
        for spec in specs:
            pixels = np.asarray(Image.open(cached(spec)).convert("RGB"))
            placed = [tile for row in spec.rows for group in row for tile in group]
            for tile, box in zip(placed, boxes[spec.seed]):
                if not tile.sideways:
                    crops.append(rectify(pixels, tuple(map(tuple, box))))
                    labels.append(tile.code)
    except (OSError, SceneError) as error:
        print(f"evaluation scenes' faces: skipped ({error})")
        return
    best = [classifier.classes[i] for i in classifier.probabilities(crops).argmax(axis=1)]
    right = float(np.mean([a == b for a, b in zip(labels, best)]))
    pairs = Counter((a, b) for a, b in zip(labels, best) if a != b).most_common(6)
    which = "development" if development else "evaluation"
    print(f"{which} scenes' faces ({len(specs)} scenes, held-out style): {len(labels)} crops, "
          f"top-1 {100 * right:.2f}%; most confused: " + ", ".join(f"{a}->{b} {n}" for (a, b), n in pairs))


def timing_report(classifier: TileClassifier, model: Path) -> None:
    """Median latency of a batch of 20 crops: the held-out real crops resized to the photo reader's
    FACE_SIZE, 20 at a time in turn (the target's line: the corner-index reader reads only the crops
    whose picture is in doubt, so what a batch shows sets its cost); for information, 20 crops of
    random noise (nearly every one in doubt, so the index reader reads them all: the worst case) and
    noise of 120x160, whose resize to the input is not by a whole factor (as `python -m
    vision.classify` may get); model file size."""
    _, held_out = real_tiles.evaluation_split()
    faces = [cv2.resize(tile.image(), FACE_SIZE, interpolation=cv2.INTER_AREA) for tile in held_out]
    rng = np.random.default_rng(0)
    noise = {size: [rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8) for _ in range(20)]
             for size in (FACE_SIZE, (120, 160))}
    for name, batches, runs in (
            ("batch-20 median, real crops", [faces[i:i + 20] for i in range(0, len(faces) - 19, 20)], 5),
            ("  20 noise crops instead", [noise[FACE_SIZE]], 50),
            ("  20 noise crops of 120x160", [noise[(120, 160)]], 50)):
        print(line(name, _median_ms(classifier, batches, runs), TARGETS["batch-20 ms"], False, "ms"))
    print(line("model size", model.stat().st_size / 1e6, TARGETS["model MB"], False, "MB"))


def _median_ms(classifier: TileClassifier, batches: list[list[np.ndarray]], runs: int) -> float:
    """The median time (ms) of `classifier.probabilities` over ``runs`` reads of each batch, after one
    unmeasured read of each."""
    times = []
    for batch in batches:
        classifier.probabilities(batch)
        for _ in range(runs):
            started = time.perf_counter()
            classifier.probabilities(batch)
            times.append((time.perf_counter() - started) * 1000)
    return float(np.median(times))


def main(argv: list[str] | None = None) -> int:
    """Print every measurement beside its target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=MODEL_PATH)
    parser.add_argument("--synthetic", type=int, default=20, help="synthetic crops per class (0: skip)")
    parser.add_argument("--scene-faces", type=int, default=240, help="evaluation scenes whose faces to read (0: skip)")
    real_tiles.add_split_options(
        parser, "evaluate on every crop of this look group (for a model trained with the same flag)",
        "evaluate on the validation fold of TRAIN (for a model trained with the same flag); with "
        "--hold-out-group, on that group's crops in TRAIN")
    args = parser.parse_args(argv)
    classifier = TileClassifier.load(args.model)
    print(f"model: {args.model}")
    real_report(classifier, args.hold_out_group, args.validation)
    if args.synthetic:
        synthetic_report(classifier, args.synthetic)
    if args.scene_faces:
        scene_faces_report(classifier, args.scene_faces, args.validation)
    timing_report(classifier, args.model)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
