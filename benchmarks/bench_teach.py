"""Synthetic scenes and taught-deck recognition: time per 1280x720 frame on one core.

Teaches the nine built-in 21X cards from rendered faces, then recognises them in
synthetic scenes (four cards, random rotation, surface, height and tilt).
"""

from __future__ import annotations

import math
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from companion.cardmath.catalogue import builtin
from vision.outline import find_card_outlines
from vision.profile import DeckProfile, ProfileRecognizer
from vision.scenes.synthetic import (
    ExpressionCard,
    FaceLibrary,
    SceneBuilder,
    render_expression_card,
)
from vision.teach import face_from_image

SCENES = 40
FACES_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "cards" / "faces-cc0"


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def _figures(samples: list[float]) -> str:
    """Median and best: on a busy machine the best shows the cost without waiting."""
    return f"median {_median_ms(samples):.1f} ms, best {min(samples) * 1000.0:.1f} ms"


def main() -> None:
    """Print scene-building and recognition figures."""
    cv2.setNumThreads(1)
    deck = builtin("21x")
    faces = [render_expression_card(ExpressionCard.from_catalogue(card)) for card in deck]
    taught = {
        face.name: face_from_image(cv2.cvtColor(face.image, cv2.COLOR_BGRA2BGR)) for face in faces
    }
    recogniser = ProfileRecognizer(DeckProfile("bench", taught, "21x"))
    builder = SceneBuilder(2024)
    build, outline, recognise = [], [], []
    right = total = 0
    for _ in range(SCENES):
        chosen = [faces[k] for k in builder.rng.choice(len(faces), 4, replace=False)]
        start = time.perf_counter()
        scene = builder.build(chosen)
        build.append(time.perf_counter() - start)
        start = time.perf_counter()
        find_card_outlines(scene.image)
        outline.append(time.perf_counter() - start)
        start = time.perf_counter()
        observations = recogniser.recognize(scene.image)
        recognise.append(time.perf_counter() - start)
        for card in scene.cards:
            centre = tuple(np.mean(card.corners, axis=0))
            total += 1
            right += any(
                seen.card == card.name and math.dist(seen.center, centre) < 20
                for seen in observations
            )
    print(f"synthetic: 1280x720 scene, 4 expression cards: {_figures(build)} (goal < 50 ms)")
    if FACES_DIR.is_dir():
        standard = SceneBuilder(7, FaceLibrary(FACES_DIR))
        names = ["Qh", "7s", "10d", "Ac", "JK", "Kc", "3h", "9d"]
        fan = []
        for _ in range(SCENES // 2):
            start = time.perf_counter()
            standard.build(names, layout="fan")
            fan.append(time.perf_counter() - start)
        print(f"synthetic: 1280x720 scene, 8-card fan of CC0 faces: {_figures(fan)} (goal < 50 ms)")
    total_ms, outline_ms = _median_ms(recognise), _median_ms(outline)
    print(
        f"teach: recognise 4 taught 21X cards in 1280x720, one core: median {total_ms:.1f} ms,"
        f" of which outline finding {outline_ms:.1f} ms and matching"
        f" {total_ms - outline_ms:.1f} ms"
    )
    print(
        f"teach: {right}/{total} cards recognised in {SCENES} scenes"
        f" ({100.0 * right / total:.1f} %; a miss is usually an outline not found)"
    )
