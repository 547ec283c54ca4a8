"""Dice reading on the 310 real webcam photos: recall with the right value, spurious dice, speed.

The settings were fitted on every third photo (sorted by name; see the caveat in
docs/vision-camera-dice-layout.md); figures are printed for
that fitting subset, for the held-out rest and for all photos. One label is excluded: the
stray box labelled 1 over empty table in ``five_1.txt`` (a known label error).
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.dice import find_dice
from vision.observations import DieObservation

PHOTOS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "dice" / "photos"
KNOWN_LABEL_ERROR = ("five_1.txt", 1)
GOAL_RIGHT = 0.98
GOAL_MS = 50.0  # our target: leaves room for cards in a 10 fps loop


@dataclass(frozen=True)
class LabelledDie:
    value: int
    x: float
    y: float
    size: float


@dataclass
class Score:
    labelled: int = 0
    found: int = 0
    right: int = 0
    spurious: int = 0

    def line(self, name: str) -> str:
        share = self.right / self.labelled if self.labelled else 0.0
        return (
            f"dice: {name}: {self.right}/{self.labelled} labelled dice found with the right value"
            f" = {share:.1%} (goal >= {GOAL_RIGHT:.0%}); found at all {self.found};"
            f" spurious dice {self.spurious}"
        )


def photo_paths() -> list[Path]:
    """The labelled photos, sorted by name."""
    return sorted(PHOTOS.glob("*.jpg"))


def labels_for(photo: Path) -> list[LabelledDie]:
    """The photo's YOLO labels in pixels, without the known stray box."""
    height, width = 480, 640
    dice = []
    label_file = photo.with_suffix(".txt")
    for line in label_file.read_text().splitlines():
        if not line.strip():
            continue
        klass, cx, cy, w, h = (float(part) for part in line.split())
        value = int(klass) + 1
        if (label_file.name, value) == KNOWN_LABEL_ERROR:
            continue
        dice.append(LabelledDie(value, cx * width, cy * height, max(w * width, h * height)))
    return dice


def score_photo(found: list[DieObservation], labelled: list[LabelledDie], score: Score) -> None:
    """Match each label to the nearest unused detection within its box size (at least 25 px)."""
    used: set[int] = set()
    for die in labelled:
        score.labelled += 1
        best: tuple[float, int] | None = None
        for index, seen in enumerate(found):
            if index in used:
                continue
            distance = math.hypot(seen.center[0] - die.x, seen.center[1] - die.y)
            if distance < max(die.size, 25.0) and (best is None or distance < best[0]):
                best = (distance, index)
        if best is not None:
            used.add(best[1])
            score.found += 1
            score.right += found[best[1]].value == die.value
    score.spurious += len(found) - len(used)


def main() -> None:
    """Print recall, spurious dice and time per frame on one core."""
    if not PHOTOS.is_dir():
        print(f"dice: photos not found at {PHOTOS}; skipped")
        return
    cv2.setNumThreads(1)
    scores = {"fitting subset (every 3rd)": Score(), "held-out rest": Score(), "all": Score()}
    by_value = {value: Score() for value in range(1, 7)}
    times = []
    images = [(photo, cv2.imread(str(photo))) for photo in photo_paths()]
    find_dice(np.full((480, 640, 3), 128, np.uint8))  # warm-up: loads OpenCV kernels
    for number, (photo, image) in enumerate(images):
        if image is None:
            print(f"dice: cannot read {photo}; skipped")
            continue
        started = time.process_time()  # CPU time: fair on a shared, busy machine
        found = find_dice(image)
        times.append((time.process_time() - started) * 1000.0)
        labelled = labels_for(photo)
        subset = "fitting subset (every 3rd)" if number % 3 == 0 else "held-out rest"
        score_photo(found, labelled, scores[subset])
        score_photo(found, labelled, scores["all"])
        for value, score in by_value.items():
            chosen = [die for die in found if die.value == value]
            score_photo(chosen, [die for die in labelled if die.value == value], score)
    print("dice: excluded the stray box labelled 1 in five_1.txt (known label error)")
    for name, score in scores.items():
        print(score.line(name))
    shares = ", ".join(
        f"{value}: {score.right}/{score.labelled}" for value, score in by_value.items()
    )
    print(f"dice: right by value (all photos): {shares}")
    print(
        f"dice: 640x480 frame, one core, CPU time: median {statistics.median(times):.1f} ms,"
        f" worst {max(times):.1f} ms (goal <= {GOAL_MS:.0f} ms)"
    )


if __name__ == "__main__":
    main()
