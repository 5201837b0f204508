"""Tile recognition: ``from vision import recognize`` reads the tiles in a photo.

Names are imported lazily, so ``import vision`` needs neither OpenCV nor the model.
"""

from __future__ import annotations

from importlib import import_module

__all__ = ["Recognition", "RecognizedTile", "recognize"]


def __getattr__(name: str):
    if name in __all__:
        return getattr(import_module("vision.pipeline"), name)
    raise AttributeError(f"module 'vision' has no attribute {name!r}")
