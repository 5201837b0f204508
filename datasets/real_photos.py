"""The real photos labelled by eye (`benchmarks/data/real_photos.json`), images from ../shared.

Labels are rows of codes in reading order; `?` marks a tile that could not be
identified by eye (it is excluded from scoring). A photo may carry a crop
rectangle `[x0, y0, x1, y1]` in pixels after EXIF orientation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageOps

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "benchmarks" / "data" / "real_photos.json"
RAW_IMAGES = ROOT.parent / "shared" / "datasets" / "real-photos" / "raw-images"
UNKNOWN = "?"
CODES = frozenset([f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
                  + [f"{r}f" for r in range(1, 9)] + ["back", UNKNOWN])


class LabelError(ValueError):
    """A malformed label entry."""


@dataclass(frozen=True)
class LabelledPhoto:
    """One labelled photo: file (relative to raw-images), optional crop, rows of codes."""

    file: str
    rows: tuple[tuple[str, ...], ...]
    crop: tuple[int, int, int, int] | None = None
    note: str = ""

    @classmethod
    def from_json(cls, data: dict) -> "LabelledPhoto":
        rows = tuple(tuple(row) for row in data["rows"])
        bad = [code for row in rows for code in row if code not in CODES]
        if bad or not rows:
            raise LabelError(f"{data.get('file')!r}: bad codes {bad} or no rows; use 1m..7z, 1f..8f, back, ?")
        crop = tuple(data["crop"]) if "crop" in data else None
        if crop is not None and not (len(crop) == 4 and crop[0] < crop[2] and crop[1] < crop[3]):
            raise LabelError(f"{data['file']!r}: crop {crop} is not [x0, y0, x1, y1]")
        return cls(data["file"], rows, crop, data.get("note", ""))

    @property
    def tiles(self) -> tuple[str, ...]:
        """All codes in reading order (top row first)."""
        return tuple(code for row in self.rows for code in row)

    def path(self, raw_images: Path = RAW_IMAGES) -> Path:
        return raw_images / self.file

    def image(self, raw_images: Path = RAW_IMAGES) -> Image.Image:
        """The photo, EXIF-oriented, RGB, cropped when a crop is given."""
        with Image.open(self.path(raw_images)) as opened:
            image = ImageOps.exif_transpose(opened).convert("RGB")
        return image.crop(self.crop) if self.crop else image


def load_photos(path: Path = LABELS) -> list[LabelledPhoto]:
    """Every labelled photo."""
    return [LabelledPhoto.from_json(item) for item in json.loads(path.read_text())["photos"]]
