"""Images that are too big, too small or too thin: refused (or reduced) before the work."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.imageio import MAX_IMAGE_BYTES, WORK_PIXELS, ImageError, read_image


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header declares ``width`` x ``height`` but holds almost no data."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(header)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)))


def test_a_declared_giant_is_refused_before_decoding(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_header_only(100_000, 100_000))
    with pytest.raises(ImageError, match="100000x100000 pixels is larger than 50 megapixels"):
        read_image(bomb)


def test_a_file_too_large_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.jpg"
    with big.open("wb") as file:
        file.truncate(MAX_IMAGE_BYTES + 1)
    with pytest.raises(ImageError, match="larger than 64 MiB"):
        read_image(big)


@pytest.mark.parametrize(("width", "height"), [(1, 1), (20, 300), (2000, 40), (31, 31)])
def test_tiny_or_thin_images_are_refused(tmp_path: Path, width: int, height: int) -> None:
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), np.zeros((height, width, 3), np.uint8))
    with pytest.raises(ImageError, match=f"{width}x{height} pixels is too small or too thin"):
        read_image(path)


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_a_large_photo_is_reduced_to_the_working_size(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"large{suffix}"
    cv2.imwrite(str(path), np.full((4000, 6000, 3), 90, np.uint8))
    image = read_image(path)
    assert image.shape[0] * image.shape[1] <= WORK_PIXELS
    assert abs(image.shape[1] / image.shape[0] - 1.5) < 0.01
