"""Montages of what the dice reader gets wrong, as its network sees it: ``python -m
benchmarks.dice_montage OUT_DIR [--quick]``.

For each of the colour sources (``photos-coloured``, ``photos-assorted``) a model is trained
with that source left out (synthetic scenes and the other two sources; unlike the benchmark's
leave-one-source-out table, without their altered copies), and one PNG shows the labelled dice
it missed or misread: for each, the photo round the die, the patch of its likeliest candidate
within reach (what the network reads; blank when no candidate reaches it) and the label, the
value read and its probability. Beside them, ``training.png`` shows patches the network is
trained on for each value: synthetic candidates and candidates on the white dice. Every third
photo with ``--quick`` (300 scenes).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from benchmarks.bench_dice import DATA, QUICK_SCENES
from vision.dice import DiceSettings, model_inputs
from vision.dice_labels import SOURCES, LabelledDie, load_source, match
from vision.dice_model import PATCH, DiceModel
from vision.dice_training import SCENES, Seen, read, see, synthetic, train

TILE = 64
COLUMNS = 12
MOST = 96
Image = npt.NDArray[Any]


def patch_tile(patch: npt.NDArray[np.float64]) -> Image:
    """A standardised patch as a grey ``TILE`` x ``TILE`` picture (mean grey, 3 spreads)."""
    grey = np.clip(patch[: PATCH * PATCH].reshape(PATCH, PATCH) * 42.0 + 128.0, 0, 255)
    tile = cv2.resize(grey.astype(np.uint8), (TILE, TILE), interpolation=cv2.INTER_NEAREST)
    return cv2.cvtColor(tile, cv2.COLOR_GRAY2BGR)


def photo_tile(image: Image, die: LabelledDie, reach: float) -> Image:
    """The photo round ``die`` (twice its box, or four times the matching reach)."""
    half = max(2.0 * max(die.half_width, die.half_height), 2.0 * reach, 8.0)
    window = cv2.getRectSubPix(image, (int(2 * half), int(2 * half)), (die.x, die.y))
    return cv2.resize(window, (TILE, TILE), interpolation=cv2.INTER_AREA)


def captioned(tiles: Sequence[Image], caption: str) -> Image:
    """Tiles side by side over a line of text."""
    strip = np.hstack(list(tiles))
    text = np.full((14, strip.shape[1], 3), 255, np.uint8)
    cv2.putText(text, caption, (2, 11), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 0, 0), 1)
    return np.vstack([strip, text])


def grid(cells: Sequence[Image], columns: int = COLUMNS) -> Image:
    """Cells of one size in rows of ``columns`` (padded white)."""
    if not cells:
        return np.full((TILE, TILE, 3), 255, np.uint8)
    blank = np.full_like(cells[0], 255)
    padded = list(cells) + [blank] * (-len(cells) % columns)
    rows = [np.hstack(padded[i : i + columns]) for i in range(0, len(padded), columns)]
    return np.vstack(rows)


def failures(seen: Sequence[Seen], model: DiceModel, settings: DiceSettings) -> list[Image]:
    """A captioned pair of tiles for every labelled die ``model`` misses or misreads."""
    cells: list[Image] = []
    for one in seen:
        reports = read(one, model, settings)
        matched = match(one.photo, reports)
        right = {id(matched.label_of[i]) for i in matched.right}
        read_as = {id(matched.label_of[i]): reports[i] for i in matched.wrong_value}
        image = cv2.imread(str(one.photo.path))
        if image is None:
            raise FileNotFoundError(f"{one.photo.path}: cannot read the photo")
        probabilities = model.probabilities(model_inputs(one.found)) if one.found else None
        for die in one.photo.dice:
            if id(die) in right:
                continue
            near = [
                i for i, c in enumerate(one.found) if one.photo.matches(die, *c.center)
            ]
            patch = np.full((TILE, TILE, 3), 255, np.uint8)
            best = ""
            if near and probabilities is not None:
                index = max(near, key=lambda i: float(probabilities[i, 1:].max()))
                patch = patch_tile(one.found[index].patch)
                value = int(probabilities[index, 1:].argmax()) + 1
                best = f"{value}:{probabilities[index, value]:.2f}"
            report = read_as.get(id(die))
            verdict = f" r{report.value}" if report else ""
            cells.append(
                captioned(
                    [photo_tile(image, die, one.photo.reach), patch],
                    f"{die.value}{verdict} {best} n{len(near)}",
                )
            )
            if len(cells) >= MOST:
                return cells
    return cells


def training_patches(seen: Sequence[Seen], per_value: int = 12) -> Image:
    """Rows of candidate patches on labelled dice of each value (first ``per_value``)."""
    rows = []
    for value in range(1, 7):
        tiles: list[Image] = []
        for one in seen:
            for candidate in one.found:
                on = [d for d in one.photo.dice if one.photo.matches(d, *candidate.center)]
                if on and on[0].value == value and len(tiles) < per_value:
                    tiles.append(patch_tile(candidate.patch))
        tiles += [np.full((TILE, TILE, 3), 255, np.uint8)] * (per_value - len(tiles))
        rows.append(np.hstack(tiles))
    return np.vstack(rows)


def write_montages(
    seen: dict[str, list[Seen]], scenes: list[Seen], settings: DiceSettings, out: Path
) -> list[Path]:
    """Write the failure montages of the colour sources and the training montage."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for source in SOURCES[1:]:
        others = [one for other in SOURCES if other != source for one in seen[other]]
        model = train(scenes + others, settings)
        path = out / f"missed-{source}.png"
        cv2.imwrite(str(path), grid(failures(seen[source], model, settings), COLUMNS // 2))
        written.append(path)
    step = max(1, len(scenes) // 40)
    training = np.vstack(
        [training_patches(scenes[::step]), np.full((8, 12 * TILE, 3), 0, np.uint8),
         training_patches(seen[SOURCES[0]][::5])]
    )
    path = out / "training.png"
    cv2.imwrite(str(path), training)
    return [*written, path]


def main(argv: Sequence[str] | None = None) -> int:
    """Write the montages to OUT_DIR."""
    args = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in args
    places = [a for a in args if a != "--quick"]
    if len(places) != 1:
        print("dice montage: give one output folder (and optionally --quick)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    settings = DiceSettings()
    step = 3 if quick else 1
    seen = {source: see(load_source(DATA, source)[::step], settings) for source in SOURCES}
    scenes = synthetic(QUICK_SCENES if quick else SCENES, settings)
    for path in write_montages(seen, scenes, settings, Path(places[0])):
        print(f"dice montage: wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
