"""A photo seen in other light, for the recognition benchmark's `--light` check: a colour cast,
underexposure, the edge of a shadow across the tiles, light falling off, a spot of glare."""

from __future__ import annotations

from functools import partial
from typing import Callable

import cv2
import numpy as np


def _scaled(pixels: np.ndarray, gain: np.ndarray | tuple[float, ...]) -> np.ndarray:
    return np.clip(pixels * np.asarray(gain, np.float32), 0, 255).astype(np.uint8)


def cast(pixels: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    """A colour cast: each RGB channel times its gain (warm lamp light, cold daylight)."""
    return _scaled(pixels, gains)


def dim(pixels: np.ndarray, gamma: float, exposure: float, noise: float) -> np.ndarray:
    """Underexposed: darker mid-tones (a gamma), less light, and the sensor noise that comes with it."""
    darker = 255 * (pixels / 255.0) ** gamma * exposure + np.random.default_rng(0).normal(0, noise, pixels.shape)
    return np.clip(darker, 0, 255).astype(np.uint8)


def shadow(pixels: np.ndarray, light: float, softness: float, below: bool = False) -> np.ndarray:
    """A shadow (a phone's, a hand's) over the right part of the photo, its edge slanted from 45% of
    the width at the top to 60% at the bottom and blurred over `softness` of the width; in it, this
    share of the light. `below`: over the lower part instead, its edge across the photo from 45% of
    the height at the left to 60% at the right (the photographer's own shadow over the near tiles)."""
    if below:
        return np.ascontiguousarray(shadow(pixels.transpose(1, 0, 2), light, softness).transpose(1, 0, 2))
    height, width = pixels.shape[:2]
    shade = np.ones((height, width), np.float32)
    cv2.fillPoly(shade, [np.int32([[width * 0.45, 0], [width, 0], [width, height], [width * 0.6, height]])], light)
    return _scaled(pixels, cv2.GaussianBlur(shade, (0, 0), max(2.0, width * softness))[..., None])


def falloff(pixels: np.ndarray, light: float, down: bool = False) -> np.ndarray:
    """Light falling off from the left edge (all of it) to the right edge (this share of it); `down`:
    from the top edge to the bottom edge."""
    if down:
        return _scaled(pixels, np.linspace(1.0, light, pixels.shape[0], dtype=np.float32)[:, None, None])
    return _scaled(pixels, np.linspace(1.0, light, pixels.shape[1], dtype=np.float32)[None, :, None])


def glare(pixels: np.ndarray, radius: float, strength: float) -> np.ndarray:
    """A spot of glare (a lamp mirrored in glossy faces) left of the centre: white light added, a
    Gaussian `radius` of the short side wide, `strength` of full white at its middle."""
    height, width = pixels.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    sigma = radius * min(height, width)
    spot = 255 * strength * np.exp(-((xs - 0.4 * width) ** 2 + (ys - 0.45 * height) ** 2) / (2 * sigma ** 2))
    return np.clip(pixels + spot[..., None], 0, 255).astype(np.uint8)


LIGHTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {  # --light parts
    "warm": partial(cast, gains=(1.08, 0.95, 0.70)),
    "cold": partial(cast, gains=(0.78, 0.93, 1.12)),
    "dim": partial(dim, gamma=1.8, exposure=0.8, noise=4.0),
    "shadow": partial(shadow, light=0.5, softness=1 / 150),
    "soft shadow": partial(shadow, light=0.65, softness=1 / 40),
    "shadow below": partial(shadow, light=0.5, softness=1 / 150, below=True),
    "falloff": partial(falloff, light=0.65),
    "falloff down": partial(falloff, light=0.65, down=True),
    "glare": partial(glare, radius=0.06, strength=0.9),
}
