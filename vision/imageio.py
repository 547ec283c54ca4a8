"""Read an image file into a BGR array, with a one-line error when that is impossible.

Sizes are bounded before anything is decoded whole: a file over ``MAX_IMAGE_BYTES``,
or whose header (PNG, JPEG) declares more than ``MAX_IMAGE_PIXELS``, is refused
(OpenCV is given the same bound for the other formats, see :mod:`vision`). An image
over ``WORK_PIXELS`` is reduced to fit once decoded (at most 150 MB while decoding),
which keeps memory well under 1 GB. An image under ``MIN_SIDE`` pixels on a side, or thinner
than 1 : ``MAX_ASPECT``, cannot show a card and is refused.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError
from vision import MAX_IMAGE_PIXELS

MAX_IMAGE_BYTES = 64 * 1024 * 1024
WORK_PIXELS = 16_000_000
MIN_SIDE = 32
MAX_ASPECT = 16


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
    if file.stat().st_size > MAX_IMAGE_BYTES:
        raise ImageError(f"{path}: the file is larger than {MAX_IMAGE_BYTES // 2**20} MiB")
    data = np.fromfile(file, dtype=np.uint8)
    size = declared_size(data[:65_536].tobytes())
    if size is not None:
        _check_size(path, *size)
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error:
        image = None
    if image is None:
        raise ImageError(f"{path}: not a readable image (JPEG, PNG or another format OpenCV "
                         f"reads, at most {MAX_IMAGE_PIXELS // 10**6} megapixels)")
    height, width = image.shape[:2]
    _check_size(path, width, height)
    if width * height > WORK_PIXELS:
        scale = (WORK_PIXELS / (width * height)) ** 0.5
        image = cv2.resize(image, (max(1, int(width * scale)), max(1, int(height * scale))),
                           interpolation=cv2.INTER_AREA)
    return image


def _check_size(path: str | os.PathLike[str], width: int, height: int) -> None:
    if width * height > MAX_IMAGE_PIXELS:
        raise ImageError(f"{path}: {width}x{height} pixels is larger than "
                         f"{MAX_IMAGE_PIXELS // 10**6} megapixels")
    if min(width, height) < MIN_SIDE or max(width, height) > MAX_ASPECT * min(width, height):
        raise ImageError(f"{path}: {width}x{height} pixels is too small or too thin to show a "
                         f"card (at least {MIN_SIDE} px a side, at most {MAX_ASPECT}:1)")


def declared_size(head: bytes) -> tuple[int, int] | None:
    r"""(width, height) from a PNG or JPEG header, without decoding; None for other data.

    >>> declared_size(b"\x89PNG\r\n\x1a\n" + bytes(4) + b"IHDR" + struct.pack(">II", 640, 480))
    (640, 480)
    """
    if head[:8] == b"\x89PNG\r\n\x1a\n" and len(head) >= 24:
        width, height = struct.unpack(">II", head[16:24])
        return int(width), int(height)
    if head[:2] != b"\xff\xd8":
        return None
    index = 2
    while index + 9 <= len(head):
        if head[index] != 0xFF:
            return None
        marker = head[index + 1]
        length = struct.unpack(">H", head[index + 2:index + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", head[index + 5:index + 9])
            return int(width), int(height)
        index += 2 + length
    return None


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
