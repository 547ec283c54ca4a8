"""Draw what the recognizer saw onto a copy of the frame."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.observations import CardObservation

OUTLINE_COLOUR = (60, 220, 60)
INDEX_COLOUR = (0, 200, 255)
TEXT_COLOUR = (255, 255, 255)
LABEL_BACKGROUND = (40, 40, 40)


def annotate(frame_bgr: np.ndarray, observations: Sequence[CardObservation]) -> np.ndarray:
    """A copy of ``frame_bgr`` with each card's outline, its index and its name drawn on
    (an unsure read's name followed by "?").

    >>> frame = np.zeros((60, 80, 3), np.uint8)
    >>> seen = CardObservation("Kd", (40.0, 30.0), (20.0, 15.0), 0.9)
    >>> int(annotate(frame, [seen]).sum()) > 0, int(frame.sum())
    (True, 0)
    """
    image = frame_bgr.copy()
    scale = max(image.shape[:2]) / 1000
    thickness = max(1, round(2 * scale))
    radius = max(6, round(18 * scale))
    for seen in observations:
        if seen.corners:
            outline = np.round(np.array(seen.corners)).astype(np.int32)
            cv2.polylines(image, [outline], True, OUTLINE_COLOUR, thickness, cv2.LINE_AA)
        index = (round(seen.index[0]), round(seen.index[1]))
        centre = (round(seen.center[0]), round(seen.center[1]))
        cv2.circle(image, index, radius, INDEX_COLOUR, thickness, cv2.LINE_AA)
        cv2.line(image, index, centre, INDEX_COLOUR, max(1, thickness // 2), cv2.LINE_AA)
        doubt = "?" if seen.unsure else ""
        draw_label(image, f"{seen.card}{doubt} {seen.confidence:.2f}", index, radius, scale)
    return image


def draw_label(
    image: np.ndarray, text: str, anchor: tuple[int, int], offset: int, scale: float
) -> None:
    """Write ``text`` on a dark box just right of ``anchor``."""
    font_scale = max(0.4, 0.8 * scale)
    weight = max(1, round(1.5 * scale))
    (width, height), baseline = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, weight)
    x, y = anchor[0] + offset, anchor[1] - offset
    cv2.rectangle(image, (x, y - height - 4), (x + width + 4, y + baseline), LABEL_BACKGROUND, -1)
    cv2.putText(
        image,
        text,
        (x + 2, y - 2),
        cv2.FONT_HERSHEY_SIMPLEX,
        font_scale,
        TEXT_COLOUR,
        weight,
        cv2.LINE_AA,
    )
