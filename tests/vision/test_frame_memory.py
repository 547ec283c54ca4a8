"""Freed frame buffers stay in the process (vision.frame_memory): no page faults per frame."""

from __future__ import annotations

import resource
from pathlib import Path

import cv2
import numpy as np

from vision.cards import CardRecognizer
from vision.frame_memory import is_glibc, keep_freed_memory
from vision.imageio import read_image


def faults() -> int:
    """Minor page faults of this process so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def test_the_limits_are_set_on_glibc() -> None:
    assert is_glibc()
    assert keep_freed_memory()


def test_a_second_frame_through_the_reader_faults_in_almost_no_pages(shared_data: Path) -> None:
    photo = read_image(shared_data / "cards" / "photos-deals" / "deal2-md-sq.jpg")
    frame = np.asarray(cv2.resize(photo[150:1050], (1280, 720), interpolation=cv2.INTER_AREA))
    reader = CardRecognizer()
    reader.read(frame)
    before = faults()
    reads = reader.read(frame)
    # Without the limits the frame faulted about 2,400 pages (4 KB) in again.
    assert faults() - before < 100
    assert len(reads.cards) >= 20
