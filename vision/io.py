"""Loading photos: a path, bytes, a PIL image or a numpy array becomes an upright RGB `Photo`.

Sizes are checked from the file header before any pixel is decoded (a
decompression bomb is refused unread), the EXIF orientation is applied, and
HEIC/HEIF support (pillow-heif) is registered only when such a file arrives.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_PIXELS = 50_000_000
MAX_BYTES = 30 * 1024 * 1024
MIN_SIDE = 24  # pixels: anything smaller cannot hold a readable tile
WORK_SIDE = 1024  # long side of the reduced image used to find tiles
QUARTER_TURNS = (5, 6, 7, 8)  # EXIF orientations that swap width and height
# EXIF orientation -> what turns the stored pixels upright
ORIENTATIONS = {
    2: lambda a: a[:, ::-1],
    3: lambda a: a[::-1, ::-1],
    4: lambda a: a[::-1],
    5: lambda a: a.swapaxes(0, 1),
    6: lambda a: np.rot90(a, -1),
    7: lambda a: a.swapaxes(0, 1)[::-1, ::-1],
    8: lambda a: np.rot90(a, 1),
}
JPEG_SCALES = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
               8: cv2.IMREAD_REDUCED_COLOR_8}
CROP_SIDE = 1500  # JPEGs are decoded at the smallest DCT scale keeping at least this long side

Source = "str | Path | bytes | bytearray | memoryview | Image.Image | np.ndarray | Photo"


class ImageError(ValueError):
    """A photo that cannot be read; the message names it and says what to do."""


class NotAnImageError(ImageError):
    """Not a photo in a supported format (or a missing file)."""


class CorruptImageError(ImageError):
    """A truncated or damaged image file."""


class TooLargeImageError(ImageError):
    """More than MAX_PIXELS pixels or MAX_BYTES bytes."""


class TooSmallImageError(ImageError):
    """Too few pixels to hold a readable tile."""


@dataclass(frozen=True)
class Photo:
    """An upright RGB photo (EXIF orientation applied).

    ``pixels`` is the full resolution, except that a large JPEG is decoded at a
    reduced DCT scale (long side at least CROP_SIDE): ``zoom`` maps its pixels
    back to the original photo's (``original`` size, after orientation), and
    ``data`` keeps the file, for `finest` to decode in full.
    """

    pixels: np.ndarray = field(repr=False)
    name: str
    original: tuple[int, int] | None = None  # (width, height) when pixels are a reduced decode
    data: bytes | None = field(default=None, repr=False, compare=False)  # the JPEG decoded reduced

    @property
    def zoom(self) -> float:
        """Original pixels per stored pixel (1.0 unless decoded reduced)."""
        return 1.0 if self.original is None else self.original[0] / self.width

    @property
    def width(self) -> int:
        return int(self.pixels.shape[1])

    @property
    def height(self) -> int:
        return int(self.pixels.shape[0])

    @cached_property
    def work(self) -> tuple[np.ndarray, float]:
        """`reduced()` to WORK_SIDE, made once: tiles and other surfaces are looked for on it."""
        return self.reduced()

    def reduced(self, long_side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
        """The photo `shrunk` to at most ``long_side`` pixels, and the scale (reduced / full)."""
        return shrunk(self.pixels, long_side)

    @property
    def finest_zoom(self) -> float:
        """Original pixels per pixel of `finest` (known without decoding anything)."""
        return self.zoom if self.data is None else 1.0

    def finest(self) -> Photo:
        """The photo at its full resolution (itself unless decoded reduced: then decoded again in full)."""
        if self.data is None:
            return self
        return Photo(_decode_jpeg(self.data, 1, _orientation(Image.open(io.BytesIO(self.data)))), self.name)

    def part(self, left: int, top: int, right: int, bottom: int) -> Photo:
        """The part of the photo between those columns and rows of its pixels, at the same zoom."""
        kept = self.pixels[top:bottom, left:right]
        height, width = kept.shape[:2]
        original = None if self.original is None else (round(width * self.zoom), round(height * self.zoom))
        return Photo(np.ascontiguousarray(kept), self.name, original)

    def turned(self, quarters: int) -> Photo:
        """The photo turned ``quarters`` quarters clockwise (`unturned` maps its points back)."""
        return Photo(np.ascontiguousarray(np.rot90(self.pixels, -quarters)), self.name,
                     self.original[::-1] if self.original and quarters % 2 else self.original)

    def unturned(self, point: tuple[float, float], quarters: int) -> tuple[float, float]:
        """A point of ``turned(quarters)``'s photo (in original pixels) in this photo's original pixels."""
        x, y = point
        width, height = self.original or (self.width, self.height)
        for done in range(quarters % 4, 0, -1):  # undo the last quarter turn: (x, y) came from (y, h - x)
            x, y = y, (height if done % 2 else width) - x
        return x, y

    def __repr__(self) -> str:
        return f"Photo(name={self.name!r}, size={self.width}x{self.height})"


def shrunk(pixels: np.ndarray, long_side: int) -> tuple[np.ndarray, float]:
    """An image shrunk by a whole factor to at most ``long_side`` pixels (itself when it is no longer),
    and the scale (shrunk / given). A whole factor keeps OpenCV's area averaging on its fast path (the
    last few rows and columns beyond a multiple of it are dropped). The factor never exceeds the short
    side, so a long strip keeps a row (and its long side may then exceed ``long_side``)."""
    height, width = pixels.shape[:2]
    factor = min(-(-max(width, height) // long_side), min(width, height))
    if factor == 1:
        return pixels, 1.0
    small = cv2.resize(pixels[:height // factor * factor, :width // factor * factor],
                       (max(1, width // factor), max(1, height // factor)), interpolation=cv2.INTER_AREA)
    return small, 1.0 / factor


def load(source: Source) -> Photo:
    """Load a photo from a path, bytes, a PIL image or an RGB/grey/RGBA uint8 array."""
    if isinstance(source, Photo):
        return source
    if isinstance(source, np.ndarray):
        return _checked(Photo(_from_array(source), "array"))
    if isinstance(source, Image.Image):
        _check_size(source.size, "image")
        return _checked(Photo(_upright_rgb(source, "image"), "image"))
    if isinstance(source, (str, Path)):
        return _from_bytes(_read(Path(source)), str(source))
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _from_bytes(bytes(source), f"{len(source)}-byte upload")
    raise NotAnImageError(
        f"{type(source).__name__} {str(source)[:40]!r} is not a photo: pass a file path, bytes, a PIL image or an array"
    )


def _read(path: Path) -> bytes:
    if not path.is_file():
        raise NotAnImageError(f"{str(path)!r} is not a file: give the path of a JPEG, PNG, WebP or HEIC photo")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise TooLargeImageError(_too_many_bytes(str(path), size))
    return path.read_bytes()


def _too_many_bytes(name: str, size: int) -> str:
    return f"{name!r} is {size / 2**20:.1f} MB, over the {MAX_BYTES // 2**20} MB limit: send a smaller or more compressed photo"


def _from_bytes(data: bytes, name: str) -> Photo:
    if len(data) > MAX_BYTES:
        raise TooLargeImageError(_too_many_bytes(name, len(data)))
    if _is_heif(data):
        _register_heif()
    try:
        image = Image.open(io.BytesIO(data))
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError) as error:
        if isinstance(error, Image.DecompressionBombError):
            raise TooLargeImageError(f"{name!r} has too many pixels: {error}") from None
        raise NotAnImageError(
            f"{name!r} is not an image this app can read: send a JPEG, PNG, WebP or HEIC photo"
        ) from None
    _check_size(image.size, name)
    orientation = _orientation(image)
    original = image.size[::-1] if orientation in QUARTER_TURNS else image.size
    fast = image.format == "JPEG" and image.mode in ("RGB", "L") and _complete_jpeg(data)
    factor = max([f for f in JPEG_SCALES if max(image.size) / f >= CROP_SIDE] or [1])
    pixels = _decode_jpeg(data, factor, orientation) if fast else _upright_rgb(image, name)
    reduced = pixels.shape[1] != original[0]
    return _checked(Photo(pixels, name, original, data) if reduced else Photo(pixels, name))


def _complete_jpeg(data: bytes) -> bool:
    """Whether the JPEG ends with its end-of-image marker (a truncated one goes the careful way)."""
    return b"\xff\xd9" in data[-1024:]


def _decode_jpeg(data: bytes, factor: int, orientation: int) -> np.ndarray:
    """Decode with OpenCV at a DCT scale of 1/``factor`` (a key of JPEG_SCALES), then turn per EXIF."""
    pixels = cv2.imdecode(np.frombuffer(data, np.uint8), JPEG_SCALES[factor] | cv2.IMREAD_IGNORE_ORIENTATION)
    pixels = ORIENTATIONS.get(orientation, lambda a: a)(pixels)
    return np.ascontiguousarray(cv2.cvtColor(pixels, cv2.COLOR_BGR2RGB))


def _is_heif(data: bytes) -> bool:
    """An ISO media file (HEIC/HEIF/AVIF): 'ftyp' at byte 4."""
    return data[4:8] == b"ftyp"


@cache
def _register_heif() -> None:
    """Teach Pillow to open HEIC/HEIF (done once, only when such a file arrives)."""
    try:
        import pillow_heif
    except ImportError:  # an optional-but-default dependency
        return
    pillow_heif.register_heif_opener()


def _check_size(size: tuple[int, int], name: str) -> None:
    """Refuse by the header's pixel size, before decoding."""
    width, height = size
    if width * height > MAX_PIXELS:
        raise TooLargeImageError(
            f"{name!r} is {width}x{height} = {width * height / 1e6:.0f} megapixels, over the "
            f"{MAX_PIXELS // 1_000_000} megapixel limit: send a smaller photo"
        )


def _upright_rgb(image: Image.Image, name: str) -> np.ndarray:
    """Decode, apply the EXIF orientation, take 16-bit grey to 8 bits, flatten transparency onto white."""
    try:
        image.load()
        image = ImageOps.exif_transpose(image, in_place=False) if _turned(image) else image
    except (OSError, SyntaxError, ValueError, EOFError) as error:
        raise CorruptImageError(f"{name!r} is truncated or damaged ({error}): send the photo again") from None
    if image.mode.startswith("I;16"):  # 16-bit grey (PNG, TIFF): converted as is, every level above 255 is white
        image = Image.fromarray((np.asarray(image, dtype=np.uint16) >> 8).astype(np.uint8))
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        image = flat
    return np.asarray(image.convert("RGB"))


def _orientation(image: Image.Image) -> int:
    """The EXIF orientation (1: stored upright)."""
    return image.getexif().get(0x0112, 1)


def _turned(image: Image.Image) -> bool:
    """Whether the EXIF orientation asks for a turn or flip."""
    return _orientation(image) not in (1, None)


def _from_array(array: np.ndarray) -> np.ndarray:
    if array.dtype != np.uint8 or array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] not in (1, 3, 4)):
        raise NotAnImageError(
            f"an array of shape {array.shape} and dtype {array.dtype} is not a photo: "
            "pass uint8 pixels shaped HxW, HxWx3 (RGB) or HxWx4 (RGBA)"
        )
    _check_size((array.shape[1], array.shape[0]), "array")
    if array.ndim == 2 or array.shape[2] == 1:
        return np.ascontiguousarray(np.repeat(array.reshape(array.shape[:2] + (1,)), 3, axis=2))
    if array.shape[2] == 4:
        return _upright_rgb(Image.fromarray(array, "RGBA"), "array")
    return np.ascontiguousarray(array)


def _checked(photo: Photo) -> Photo:
    if min(photo.width, photo.height) < MIN_SIDE:
        raise TooSmallImageError(
            f"{photo.name!r} is only {photo.width}x{photo.height} pixels, too small to hold tiles: "
            f"send a photo at least {MIN_SIDE} pixels on each side, the tiles filling most of it"
        )
    return photo
