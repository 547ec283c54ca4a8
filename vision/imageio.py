"""Read an image file into a BGR array, with a one-line error when that is impossible."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError


class ImageError(CompanionError, ValueError):
    """An image file that is missing or cannot be decoded; the message names the file."""


def read_image(path: str | os.PathLike[str]) -> np.ndarray:
    """The image at ``path`` as an 8-bit BGR array (height, width, 3).

    >>> read_image("no/such/photo.jpg")
    Traceback (most recent call last):
    ...
    vision.imageio.ImageError: no/such/photo.jpg: no such image file
    """
    file = Path(path)
    if not file.is_file():
        raise ImageError(f"{path}: no such image file")
    data = np.fromfile(file, dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageError(f"{path}: not a readable image (JPEG, PNG or another format OpenCV reads)")
    return image


def write_image(path: str | os.PathLike[str], image: np.ndarray) -> None:
    """Write ``image`` to ``path``; the file extension picks the format."""
    suffix = Path(path).suffix or ".png"
    try:
        ok, encoded = cv2.imencode(suffix, image)
    except cv2.error:
        ok = False
    if not ok:
        raise ImageError(f"{path}: cannot encode an image as {suffix!r}")
    try:
        encoded.tofile(str(path))
    except OSError as error:
        raise ImageError(f"{path}: cannot write the image ({error.strerror})") from error
