"""Training crops for the way-up reader (`vision.way_up`), seeded.

A face crop is drawn as `datasets.synth` draws the classifier's (artwork on a textured body,
touching neighbours, side wall, table, crop jitter, photo effects), its face and its neighbours'
turned half round for half the crops and upright for the others, the side wall below the face
either way (a photo taken from across the table shows the tiles upside down, not their walls above
them). Half the crops are then turned half round whole, wall and all, as the pipeline reads a photo
turned half round, so the wall's place tells nothing. The label is whether the face is turned;
faces that look the same both ways (a 2 of dots, a white dragon) teach the reader to be unsure.
Artwork drawn with its own tile body (scans and shaded tiles) is left out: its bevel is lit from
one side, which would tell the way up on those faces alone. Real crops photographed upright
(`real`) are re-photographed upright or turned, half and half.
"""

from __future__ import annotations

import numpy as np

from datasets import synth
from datasets.artwork import load_faces

TURNED_SHARE = 0.5  # of faces drawn turned
WHOLE_SHARE = 0.5  # of crops then turned whole
WAY_UP_RENDER_VERSION = 3  # bump when the generator changes (cache file names carry it)

_WORKER: synth.Generator | None = None


def sample(generator: synth.Generator, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """One uint8 crop (synth.CROP_SIZE) of a random face, and 1 if it is turned half round, else 0."""
    turned = bool(rng.random() < TURNED_SHARE)
    crop = generator.sample(synth.CLASSES[rng.integers(42)], rng, turned=turned)
    if rng.random() < WHOLE_SHARE:
        return np.ascontiguousarray(crop[::-1, ::-1]), int(not turned)
    return crop, int(turned)


def real(images: list[np.ndarray], variants: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """`variants` re-photographed crops (`synth.augment_real`) of each upright real crop, half of them
    turned, and their labels."""
    rng = np.random.default_rng(seed)
    turns = rng.random(len(images) * variants) < TURNED_SHARE
    crops = [synth.augment_real(image, rng, turned=bool(turn)) for image, turn in zip(images * variants, turns)]
    return np.stack(crops), turns.astype(int)


def _init_worker() -> None:
    global _WORKER
    _WORKER = synth.Generator([face for face in load_faces()[0] if not face.has_body])


def _render_chunk(task: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, count = task
    rng = np.random.default_rng(seed)
    crops, labels = zip(*(sample(_WORKER, rng) for _ in range(count)))
    return np.stack(crops), np.array(labels)


def cached(count: int, seed: int, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(crops N x H x W x 3 uint8, labels N: 1 where turned), rendered once per count and seed
    into ~/.cache/mahjong-lens."""
    return synth.cached_chunks(f"way_up_{WAY_UP_RENDER_VERSION}", count, seed, _init_worker, _render_chunk, workers)
