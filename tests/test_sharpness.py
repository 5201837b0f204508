"""How sharp a photo's tiles are (`vision.sharpness`) and the blurred photo the page warns about."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from vision import sharpness
from vision.sharpness import BLURRED, face_sharpness, face_size, photo_sharpness, spread

DATA = Path(__file__).parent / "data"


def _face() -> np.ndarray:
    """A face of dark strokes every way on a light body, at the size faces are measured."""
    face = np.full((sharpness.FACE[1], sharpness.FACE[0], 3), 235, np.uint8)
    cv2.rectangle(face, (8, 10), (40, 54), (30, 30, 30), 2)
    cv2.line(face, (12, 20), (36, 44), (180, 30, 30), 2)
    cv2.line(face, (36, 20), (12, 44), (30, 110, 50), 2)
    return face


def _smeared(image: np.ndarray, length: int, across: bool) -> np.ndarray:
    kernel = np.full((1, length), 1 / length, np.float32)
    return cv2.filter2D(image, -1, kernel if across else kernel.T)


@pytest.mark.parametrize("across", [True, False], ids=["across", "down"])
def test_a_face_smeared_either_way_is_less_sharp_than_the_bar_and_a_crisp_one_more(across: bool) -> None:
    assert face_sharpness(_face()) > 0.8
    assert face_sharpness(_smeared(_face(), 5, across)) < BLURRED


def test_a_face_of_one_grey_level_has_no_sharpness() -> None:
    assert face_sharpness(np.full((64, 48, 3), 200, np.uint8)) == 0.0


def test_a_photo_is_measured_on_at_most_sixteen_faces_spread_evenly() -> None:
    assert spread(0) == [] and spread(3) == [0, 1, 2]
    assert spread(36)[0] == 0 and spread(36)[-1] == 35 and len(spread(36)) == sharpness.MEASURED
    assert photo_sharpness([]) is None
    assert photo_sharpness([_face(), _face(), _smeared(_face(), 5, True)]) == pytest.approx(face_sharpness(_face()))


def test_a_small_face_is_measured_at_its_own_size_never_enlarged() -> None:
    assert face_size(200) == sharpness.FACE and face_size(32) == (24, 32) and face_size(5) == (12, 16)


def test_a_small_sharp_photo_is_not_called_blurred() -> None:
    """Its faces, enlarged to the size faces are measured at, would look soft: they are measured at their own."""
    from vision import recognize

    pixels = np.asarray(Image.open(DATA / "row_green.jpg").convert("RGB"))
    small = recognize(cv2.resize(pixels, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA))
    assert small.hand == "123m 456p 789s 11155z" and not small.blurred


def test_a_photo_smeared_by_a_shaking_camera_is_called_blurred_and_the_sharp_one_not() -> None:
    from vision import recognize

    pixels = np.asarray(Image.open(DATA / "row_green.jpg").convert("RGB"))
    sharp = recognize(pixels)
    shaken = recognize(_smeared(pixels, 5, across=True))  # 5 pixels: 0.5% of the photo's width
    assert not sharp.blurred and sharp.sharpness > 0.7
    assert shaken.blurred and shaken.sharpness < BLURRED
    assert shaken.to_dict()["blurred"] is True and sharp.to_dict()["sharpness"] == round(sharp.sharpness, 3)
