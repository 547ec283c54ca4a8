"""Taught 21X cards read when overlapped: found and wrong per band, and time per frame.

Teaches the nine built-in 21X cards from rendered faces, then reads seeded synthetic
scenes: fanned hands of 2 to 5 cards spread 10 to 36 degrees apart, the scene builder's
tight fans and solitaire columns, over every surface, camera 40 to 80 cm up, tilted up
to 20 degrees, with and without glare. A read is right when it names the card whose
centre lies within a third of a card width of the read's centre; any other read is
wrong. Bands are by how much of the card's face shows. Clutter scenes (standard cards
and backs in fans) count every read as wrong.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from companion.cardmath.catalogue import builtin
from vision.partial import OverlapRecognizer
from vision.profile import DeckProfile, ProfileRecognizer
from vision.scenes.hands import spread_fan
from vision.scenes.synthetic import (
    CardFace,
    ExpressionCard,
    FaceLibrary,
    Layout,
    PlacedCard,
    Scene,
    SceneBuilder,
    render_expression_card,
)
from vision.teach import face_from_image

SCENES = 80
BANDS = ((0.0, 0.25), (0.25, 0.35), (0.35, 0.5), (0.5, 0.8), (0.8, 1.01))
FACES_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "cards" / "faces-cc0"


def taught_faces() -> tuple[list[CardFace], DeckProfile]:
    """The built-in 21X faces and a profile taught from them."""
    faces = [render_expression_card(ExpressionCard.from_catalogue(card)) for card in builtin("21x")]
    taught = {
        face.name: face_from_image(cv2.cvtColor(face.image, cv2.COLOR_BGRA2BGR)) for face in faces
    }
    return faces, DeckProfile("bench", taught, "21x")


def _band(fraction: float) -> int:
    return next(k for k, (low, high) in enumerate(BANDS) if low <= fraction < high)


def _width(card: PlacedCard) -> float:
    (x0, y0), (x1, y1) = card.corners[0], card.corners[1]
    return math.hypot(x1 - x0, y1 - y0)


class Tally:
    """Cards, right reads, wrong reads and unsure reads, per band."""

    def __init__(self) -> None:
        self.cards: Counter[int] = Counter()
        self.right: Counter[int] = Counter()
        self.wrong: Counter[int] = Counter()
        self.unsure_right: Counter[int] = Counter()
        self.unsure_wrong: Counter[int] = Counter()

    def score(self, scene: Scene, reads: list[tuple[str, tuple[float, float], bool]]) -> None:
        """Count ``reads`` (card, centre, unsure) against the scene's truth."""
        for card in scene.cards:
            self.cards[_band(card.visible_fraction)] += 1
        for name, centre, unsure in reads:
            nearest = min(
                scene.cards, key=lambda card: math.dist(centre, np.mean(card.corners, axis=0))
            )
            gap = math.dist(centre, np.mean(nearest.corners, axis=0))
            band = _band(nearest.visible_fraction)
            right = nearest.name == name and gap < _width(nearest) / 3
            (self.right if right else self.wrong)[band] += 1
            if unsure:
                (self.unsure_right if right else self.unsure_wrong)[band] += 1

    def lines(self, label: str) -> list[str]:
        """One printed line per band with cards in it."""
        lines = []
        for band, (low, high) in enumerate(BANDS):
            total = self.cards[band]
            if not total:
                continue
            lines.append(
                f"overlap: {label}, {low:.0%}-{min(high, 1.0):.0%} of face shows: {total} cards,"
                f" found {100 * self.right[band] / total:.1f} %,"
                f" wrong {100 * self.wrong[band] / total:.1f} %"
                f" (unsure: {self.unsure_right[band]} right, {self.unsure_wrong[band]} wrong)"
            )
        return lines


def main() -> None:
    """Print found and wrong figures per band, and the time per frame."""
    cv2.setNumThreads(1)
    faces, profile = taught_faces()
    overlap = OverlapRecognizer(profile)
    whole_only = ProfileRecognizer(profile)
    builder = SceneBuilder(2026)
    rng = builder.rng
    tallies = {"wide fans": Tally(), "tight fans": Tally(), "columns": Tally()}
    whole_tally = Tally()
    heights = {band: Tally() for band in ("40-53 cm", "53-67 cm", "67-80 cm")}
    timings: list[float] = []
    cpu_times: list[float] = []
    for number in range(SCENES):
        count = int(rng.integers(2, 6))
        chosen = [faces[k] for k in rng.choice(len(faces), count, replace=False)]
        height = float(rng.uniform(40.0, 80.0))
        kind = ("wide fans", "wide fans", "tight fans", "columns")[number % 4]
        if kind == "wide fans":
            scene = spread_fan(
                builder, chosen, spread=float(rng.uniform(10.0, 36.0)), height_cm=height
            )
        else:
            layout: Layout = "fan" if kind == "tight fans" else "column"
            scene = builder.build(chosen, layout=layout, height_cm=height)
        start, cpu = time.perf_counter(), time.process_time()
        seen = overlap.recognize(scene.image)
        if kind == "wide fans" and count == 5:
            timings.append(time.perf_counter() - start)
            cpu_times.append(time.process_time() - cpu)
        reads = [(card.card, card.center, card.unsure) for card in seen]
        tallies[kind].score(scene, reads)
        heights[("40-53 cm", "53-67 cm", "67-80 cm")[min(2, int((height - 40.0) / 13.34))]].score(
            scene, reads
        )
        whole_tally.score(
            scene, [(card.card, card.center, False) for card in whole_only.recognize(scene.image)]
        )
    for label, tally in tallies.items():
        for line in tally.lines(label):
            print(line)
    for label, tally in heights.items():
        total = sum(tally.cards.values())
        print(
            f"overlap: camera {label}: {total} cards, found"
            f" {100 * sum(tally.right.values()) / total:.1f} %, wrong"
            f" {100 * sum(tally.wrong.values()) / total:.1f} %"
        )
    total = sum(whole_tally.cards.values())
    print(
        f"overlap: whole-card reading alone on the same scenes: found"
        f" {100 * sum(whole_tally.right.values()) / total:.1f} %, wrong"
        f" {100 * sum(whole_tally.wrong.values()) / total:.1f} %"
    )
    if timings:
        print(
            f"overlap: 1280x720 frame with a fanned 5-card hand, one core: median"
            f" {statistics.median(timings) * 1000:.0f} ms, best {min(timings) * 1000:.0f} ms"
            f" (CPU time median {statistics.median(cpu_times) * 1000:.0f} ms; {len(timings)}"
            " frames)"
        )
    if FACES_DIR.is_dir():
        library = FaceLibrary(FACES_DIR)
        clutter = ["Qh", "7s", "10d", "Ac", "JK", "Kc", "3h", "9d"]
        reported = cards = 0
        for number in range(SCENES // 4):
            names = [clutter[k] for k in rng.choice(len(clutter), 4, replace=False)]
            strangers: list[str | CardFace] = [*names, library.face("back", variant=1 + number % 2)]
            fan = spread_fan(
                SceneBuilder(number, library), strangers, spread=float(rng.uniform(10.0, 28.0))
            )
            cards += len(strangers)
            reported += len(overlap.recognize(fan.image))
        print(
            f"overlap: clutter (standard cards and backs in fans): {reported} reads"
            f" for {cards} untaught cards"
        )
