"""Photo loading: formats, EXIF orientation, and a clear message for every bad input."""

import io
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from vision.io import (
    MAX_BYTES, CorruptImageError, ImageError, NotAnImageError, Photo, TooLargeImageError, TooSmallImageError, load,
)


def _scene() -> np.ndarray:
    """A 60x40 picture whose corners differ, so orientation mistakes show."""
    pixels = np.zeros((40, 60, 3), np.uint8)
    pixels[:20, :30] = (255, 0, 0)
    pixels[20:, 30:] = (0, 0, 255)
    return pixels


def _encode(pixels: np.ndarray, fmt: str, **options) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, fmt, **options)
    return buffer.getvalue()


@pytest.mark.parametrize("fmt", ["PNG", "WEBP", "JPEG"])
def test_formats_decode_to_the_same_pixels(fmt):
    photo = load(_encode(_scene(), fmt, **({"quality": 95} if fmt != "PNG" else {})))
    assert (photo.width, photo.height) == (60, 40)
    assert np.abs(photo.pixels.astype(int) - _scene()).mean() < 8


def test_heic_is_read():
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    photo = load(_encode(_scene(), "HEIF", quality=95))
    assert (photo.width, photo.height) == (60, 40)
    assert tuple(photo.pixels[5, 5]) > (200, 0, 0) and photo.pixels[5, 5, 2] < 60


def test_exif_orientation_is_applied():
    sideways = np.rot90(_scene(), 1).copy()  # stored turned left; orientation 6 turns it back
    exif = Image.Exif()
    exif[0x0112] = 6
    photo = load(_encode(sideways, "PNG", exif=exif))
    assert np.array_equal(photo.pixels, _scene())


def test_path_pil_and_array_inputs(tmp_path):
    path = tmp_path / "scene.png"
    path.write_bytes(_encode(_scene(), "PNG"))
    for source in (path, str(path), Image.fromarray(_scene()), _scene()):
        assert np.array_equal(load(source).pixels, _scene())


def test_grey_and_rgba_arrays_become_rgb():
    assert load(np.full((30, 30), 7, np.uint8)).pixels.shape == (30, 30, 3)
    rgba = np.zeros((30, 30, 4), np.uint8)  # fully transparent: flattened onto white
    assert load(rgba).pixels.min() == 255


def test_a_16_bit_grey_png_keeps_its_grey_levels():
    grey = np.arange(40 * 60, dtype=np.uint16).reshape(40, 60) * 27  # 0 .. 64773
    png = io.BytesIO()
    Image.fromarray(grey).save(png, format="PNG")
    pixels = load(png.getvalue()).pixels
    assert pixels.shape == (40, 60, 3) and np.array_equal(pixels[..., 0], (grey >> 8).astype(np.uint8))


def test_reduced_keeps_the_aspect_and_reports_the_scale():
    photo = load(np.zeros((400, 2048, 3), np.uint8))
    small, scale = photo.reduced(1024)
    assert small.shape == (200, 1024, 3) and scale == 0.5


def test_a_strip_longer_than_its_reduced_side_allows_keeps_a_row():
    """Shrunk by a whole factor, a strip 200 times as long as high would have lost every row (OpenCV then
    refused to resize nothing); the factor stops at its short side."""
    small, scale = load(np.zeros((100, 20000, 3), np.uint8)).reduced(160)
    assert small.shape == (1, 200, 3) and scale == 0.01


@pytest.mark.parametrize("quarters", [1, 2, 3])
@pytest.mark.parametrize("original", [None, (120, 80)], ids=["full", "decoded at half size"])
def test_a_point_of_a_turned_photo_maps_back_to_the_same_place(quarters, original):
    photo = Photo(_scene(), "scene", original)
    turned = photo.turned(quarters)
    assert turned.pixels.shape == np.rot90(photo.pixels, -quarters).shape
    zoom = photo.zoom
    for x, y in [(5, 3), (35, 30), (29, 19)]:  # pixels of the turned photo, taken at their centres
        back = photo.unturned(((x + 0.5) * zoom, (y + 0.5) * zoom), quarters)
        assert tuple(turned.pixels[y, x]) == tuple(photo.pixels[int(back[1] / zoom), int(back[0] / zoom)])
    assert turned.original == (None if original is None else original[::-1] if quarters % 2 else original)


@pytest.mark.parametrize(
    ("source", "error", "words"),
    [
        (b"hello, not a photo", NotAnImageError, "not an image"),
        ("/no/such/photo.jpg", NotAnImageError, "'/no/such/photo.jpg' is not a file"),
        (12345, NotAnImageError, "int '12345' is not a photo"),
        (np.zeros((30, 30), np.float32), NotAnImageError, "dtype float32"),
        (np.zeros((10, 500, 3), np.uint8), TooSmallImageError, "too small to hold tiles"),
    ],
)
def test_bad_inputs_are_named(source, error, words):
    with pytest.raises(error, match=words) as caught:
        load(source)
    assert isinstance(caught.value, ImageError) and isinstance(caught.value, ValueError)


def test_truncated_file_is_corrupt():
    data = _encode(np.random.default_rng(1).integers(0, 255, (200, 200, 3), np.uint8), "JPEG")
    with pytest.raises(CorruptImageError, match="truncated or damaged"):
        load(data[: len(data) // 2])


def test_too_many_pixels_refused_from_the_header():
    # a PNG header claiming 10000x6000 pixels: refused without decoding
    data = _encode(np.zeros((8, 8, 3), np.uint8), "PNG")
    header = bytearray(data)
    header[16:24] = (10000).to_bytes(4, "big") + (6000).to_bytes(4, "big")
    header[29:33] = zlib.crc32(header[12:29]).to_bytes(4, "big")
    with pytest.raises(TooLargeImageError, match="60 megapixels, over the 50 megapixel limit"):
        load(bytes(header))


def test_too_many_bytes_refused(tmp_path):
    path = tmp_path / "huge.jpg"
    with path.open("wb") as handle:
        handle.truncate(MAX_BYTES + 1)
    with pytest.raises(TooLargeImageError, match="over the 30 MB limit"):
        load(path)
    with pytest.raises(TooLargeImageError, match="over the 30 MB limit"):
        load(bytes(MAX_BYTES + 1))


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_matches_pillow(orientation):
    noise = np.random.default_rng(orientation).integers(0, 255, (24, 40, 3), np.uint8)
    pixels = cv2.GaussianBlur(noise, (7, 7), 3)  # smooth enough for JPEG to keep
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = _encode(pixels, "JPEG", quality=98, exif=exif)
    expected = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB")).astype(int)
    assert np.abs(load(data).pixels.astype(int) - expected).mean() < 3


def test_a_large_jpeg_is_decoded_reduced_and_its_finest_view_in_full():
    """A JPEG of more than twice CROP_SIDE is decoded at half size (zoom 2); `finest` decodes the kept
    file in full, turned per EXIF as the reduced pixels are; `part` keeps the zoom."""
    noise = np.random.default_rng(5).integers(0, 255, (75, 100, 3), np.uint8)
    pixels = cv2.resize(cv2.GaussianBlur(noise, (5, 5), 2), (3200, 2400), interpolation=cv2.INTER_CUBIC)
    exif = Image.Exif()
    exif[0x0112] = 6  # stored turned left
    photo = load(_encode(np.ascontiguousarray(np.rot90(pixels, 1)), "JPEG", quality=95, exif=exif))
    assert (photo.width, photo.height, photo.zoom, photo.original) == (1600, 1200, 2.0, (3200, 2400))
    finest = photo.finest()
    assert (finest.width, finest.height, finest.zoom) == (3200, 2400, 1.0) and finest.data is None
    assert photo.finest_zoom == finest.zoom == 1.0
    assert np.abs(finest.pixels.astype(int) - pixels).mean() < 3
    part = photo.part(100, 50, 400, 250)
    assert (part.width, part.height, part.zoom, part.original) == (300, 200, 2.0, (600, 400))
    assert np.array_equal(part.pixels, photo.pixels[50:250, 100:400])
    assert part.finest() is part and part.finest_zoom == part.zoom == 2.0  # a part keeps no file
    small = load(_encode(pixels[:1000, :1400], "JPEG", quality=95))  # under twice CROP_SIDE: decoded in full
    assert small.zoom == 1.0 and small.data is None and small.finest() is small
