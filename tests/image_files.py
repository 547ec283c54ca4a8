"""Image files read in tests: OpenCV's ``imread``, but a missing or unreadable file fails the
test with its name instead of handing on None."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy.typing as npt


def image_at(path: Path, flags: int = cv2.IMREAD_COLOR) -> npt.NDArray[Any]:
    """The image in ``path``, read by ``cv2.imread`` with ``flags``."""
    image = cv2.imread(str(path), flags)
    assert image is not None, f"{path}: cannot read the image"
    return image
