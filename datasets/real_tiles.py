"""Loader and fixed split of `../shared/datasets/real-tiles` (real single-tile crops).

Labels are mapped from `label-name` (not the numeric id), names are matched to
files case-insensitively, and the measured defects are corrected: `133.jpg`
shows a dots-8 tile although labelled characters-8, and one row spells `dot-7`.
The extra file `700.JPG` (a different photo from `700.jpg`) has no CSV row and
are left out. The split is stratified by class and seeded: HOLDOUT_FRACTION of
each class is held out for evaluation and never trained on.
"""

from __future__ import annotations

import argparse
import csv
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "real-tiles"
HOLDOUT_FRACTION = 0.35
VALIDATION_FRACTION = 0.3
SPLIT_SEED = 20261121
LOOK_GROUPS = 3

SUIT_NAMES = {"characters": "m", "dots": "p", "dot": "p", "bamboo": "s"}
HONOUR_NAMES = {"east": "1z", "south": "2z", "west": "3z", "north": "4z",
                "white": "5z", "green": "6z", "red": "7z"}
BONUS_NAMES = {"plum": "1f", "orchid": "2f", "chrysanthemum": "3f", "bamboo": "4f",
               "spring": "5f", "summer": "6f", "autumn": "7f", "winter": "8f"}
RELABELLED = {"133.jpg": "8p"}


class RealTilesError(ValueError):
    """The real-tiles folder or its CSV is missing or malformed."""


def code_for(label_name: str) -> str:
    """Map a CSV `label-name` (e.g. `dots-7`, `honors-red`, `bonus-plum`) to a tile code."""
    family, _, name = label_name.strip().lower().partition("-")
    if family in SUIT_NAMES and name.isdigit():
        return f"{name}{SUIT_NAMES[family]}"
    table = HONOUR_NAMES if family == "honors" else BONUS_NAMES if family == "bonus" else {}
    if name not in table:
        raise RealTilesError(f"unknown label-name {label_name!r} in data.csv")
    return table[name]


@dataclass(frozen=True)
class RealTile:
    """One labelled real crop."""

    path: Path
    code: str

    def image(self) -> np.ndarray:
        """The crop as RGB uint8."""
        bgr = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if bgr is None:
            raise RealTilesError(f"cannot read {str(self.path)!r}")
        return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def load(root: Path = ROOT) -> list[RealTile]:
    """All labelled crops, in CSV order, with the known label fixes applied."""
    csv_path = root / "data.csv"
    if not csv_path.is_file():
        raise RealTilesError(f"{str(csv_path)!r} not found; the shared data sits beside the checkout")
    files = {path.name: path for path in (root / "images").iterdir()}
    folded = {name.lower(): path for name, path in sorted(files.items(), reverse=True)}
    tiles = []
    with csv_path.open(newline="") as handle:
        for row in csv.DictReader(handle):
            name = row["image-name"].strip()
            path = files.get(name) or folded.get(name.lower())
            if path is None:
                raise RealTilesError(f"data.csv names {name!r}, which is not in {root / 'images'}")
            tiles.append(RealTile(path, RELABELLED.get(name, code_for(row["label-name"]))))
    return tiles


def split(tiles: list[RealTile], fraction: float = HOLDOUT_FRACTION,
          seed: int = SPLIT_SEED) -> tuple[list[RealTile], list[RealTile]]:
    """(train, held_out): per class, a seeded `fraction` (at least one) is held out."""
    rng = np.random.default_rng(seed)
    train, held_out = [], []
    for code in sorted({tile.code for tile in tiles}):
        members = sorted((t for t in tiles if t.code == code), key=lambda t: t.path.name)
        order = rng.permutation(len(members))
        cut = max(1, round(fraction * len(members)))
        held_out += [members[i] for i in order[:cut]]
        train += [members[i] for i in order[cut:]]
    return train, held_out


def body_colour(image: np.ndarray) -> np.ndarray:
    """Median RGB of the crop's outer ring: the tile body's colour under its light."""
    ring = np.concatenate([image[:4].reshape(-1, 3), image[-4:].reshape(-1, 3),
                           image[:, :4].reshape(-1, 3), image[:, -4:].reshape(-1, 3)])
    return np.median(ring, axis=0)


def look_groups(images: list[np.ndarray], groups: int = LOOK_GROUPS, seed: int = SPLIT_SEED) -> np.ndarray:
    """Group crops by look: k-means (seeded) on the body colour in Lab; returns a group id per crop.

    Groups are sorted by lightness so group 0 is the darkest/most yellowed body.
    """
    rgb = np.array([body_colour(image) for image in images], dtype=np.uint8).reshape(-1, 1, 3)
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 0.1)
    cv2.setRNGSeed(seed)
    _, labels, centres = cv2.kmeans(lab, groups, None, criteria, 5, cv2.KMEANS_PP_CENTERS)
    rank = np.argsort(np.argsort(centres[:, 0]))
    return rank[labels.ravel()]


def add_split_options(parser: argparse.ArgumentParser, group_help: str, validation_help: str) -> None:
    """The --hold-out-group / --validation choice of which real crops evaluate (shared by
    training and evaluation, which word their help differently; both together: the group's
    crops in the TRAIN part only)."""
    parser.add_argument("--hold-out-group", type=int, choices=range(LOOK_GROUPS), help=group_help)
    parser.add_argument("--validation", action="store_true", help=validation_help)


def evaluation_split(hold_out_group: int | None = None, validation: bool = False,
                     root: Path = ROOT) -> tuple[list[RealTile], list[RealTile]]:
    """(train, evaluate): the fixed split, or for a look group, every crop of that group held out.

    With a group, train is the fixed TRAIN part minus that group (a hold-out-by-set experiment).
    With `validation`, only the fixed TRAIN part is evaluated, so a recipe can be chosen without
    touching the held-out crops: a seeded, stratified VALIDATION_FRACTION of it, or with a group,
    that group's crops in it (a set the model has not seen, never the held-out crops).
    """
    tiles = load(root)
    train, held_out = split(tiles)
    if hold_out_group is None:
        return split(train, VALIDATION_FRACTION, SPLIT_SEED + 1) if validation else (train, held_out)
    groups = dict(zip((t.path for t in tiles), look_groups([t.image() for t in tiles])))
    return ([t for t in train if groups[t.path] != hold_out_group],
            [t for t in (train if validation else tiles) if groups[t.path] == hold_out_group])
