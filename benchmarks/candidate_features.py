"""Every index candidate and its glyph features on the card photos, saved or compared.

A change meant to make the index-candidate stage faster must not change what the glyph
model sees. ``python -m benchmarks.candidate_features save FILE`` stores, for the deal
frames, the deals, the felt, single and misc photos and a few synthetic scenes, every
candidate of the pipeline path, of the training path (with its enlarged areas) and of a
region of each image (centres, up, sizes, rank and suit features, redness, blob numbers),
and the ink blobs; ``check FILE`` makes them again and names the arrays that are not
``np.allclose`` to the stored ones (exit code 1), or says that all are and how many are
bit-equal.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence

import cv2
import numpy as np

from benchmarks.bench_cards import (
    BANDS,
    CARDS,
    deal_photos,
    far_scenes,
    frames_1280x720,
    pale_table_scenes,
    whole_table_scenes,
)
from benchmarks.stored_arrays import save_or_check
from vision.imageio import read_image
from vision.index_reader import (
    IndexCandidate,
    find_index_candidates,
    find_ink_blobs,
    index_candidates,
)
from vision.light import LitFrame

#: The photo folders read, and the longest side a photo is halved above.
PHOTO_FOLDERS = ("photos-webcam-felt", "photos-single", "photos-misc")
LONGEST = 2000
#: Synthetic scenes taken from each sample: far band, whole table, pale tables.
SCENES = 6, 2, 3
FIELDS = (
    "rank_center",
    "suit_center",
    "up",
    "glyph_size",
    "suit_size",
    "rank_features",
    "suit_features",
    "redness",
)


def images() -> Iterator[tuple[str, np.ndarray]]:
    """(name, BGR image) of everything the candidates are taken on."""
    deals = deal_photos()
    yield from ((f"frame{n}", frame) for n, frame in enumerate(frames_1280x720(deals)))
    yield from ((name, photo) for name, photo, _ in deals)
    for folder in PHOTO_FOLDERS:
        for path in sorted((CARDS / folder).iterdir()):
            if path.suffix.lower() in (".jpg", ".jpeg", ".png"):
                image = read_image(path)
                if max(image.shape[:2]) > LONGEST:
                    image = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
                yield f"{folder}/{path.name}", image
    far, table, pale = SCENES
    samples = (
        far_scenes(*BANDS[1])[:far],
        whole_table_scenes()[:table],
        pale_table_scenes()[:pale],
    )
    for kind, scenes in zip(("far", "table", "pale"), samples, strict=True):
        yield from ((f"{kind}{n}", scene.image) for n, scene in enumerate(scenes))


def packed(prefix: str, candidates: Sequence[IndexCandidate]) -> dict[str, np.ndarray]:
    """The candidates' fields as arrays named ``prefix#field``; blob numbers as rows of
    (number of rank blobs, first, second or 0, suit blob)."""
    arrays = {
        f"{prefix}#{field}": np.array(
            [np.asarray(getattr(c, field), np.float64) for c in candidates]
        )
        for field in FIELDS
    }
    arrays[f"{prefix}#blobs"] = np.array(
        [
            (len(c.rank_blobs), *c.rank_blobs, *(0,) * (2 - len(c.rank_blobs)), c.suit_blob)
            for c in candidates
        ],
        np.int64,
    )
    return arrays


def collect() -> dict[str, np.ndarray]:
    """Every array compared, by name."""
    arrays: dict[str, np.ndarray] = {}
    for name, image in images():
        lit = LitFrame.of(image)
        height, width = image.shape[:2]
        region = (width // 5, height // 6, width // 2, height // 2)
        arrays |= packed(f"{name}@lit", index_candidates(lit).all)
        arrays |= packed(f"{name}@train", find_index_candidates(image))
        arrays |= packed(f"{name}@region", index_candidates(lit, region, lit.white_level).all)
        blobs = find_ink_blobs(lit.bgr, None, lit.white_level)
        arrays[f"{name}@blobs"] = np.concatenate(
            [blobs.ids, blobs.sizes, blobs.centers.ravel(), blobs.boxes.ravel()]
        )
    return arrays


def differing(stored: dict[str, np.ndarray], fresh: dict[str, np.ndarray]) -> list[str]:
    """The names whose arrays are missing on one side or not ``np.allclose``.

    >>> differing({"a": np.ones(2), "b": np.ones(2)}, {"a": np.ones(2) + 1e-9, "b": np.zeros(2)})
    ['b']
    """
    names = sorted(set(stored) | set(fresh))
    return [
        name
        for name in names
        if name not in stored
        or name not in fresh
        or stored[name].shape != fresh[name].shape
        or not np.allclose(stored[name], fresh[name], rtol=1e-5, atol=1e-6)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """``save FILE`` or ``check FILE``; returns the exit code."""
    prog = "python -m benchmarks.candidate_features"
    return save_or_check(prog, __doc__, collect, differing, argv)


if __name__ == "__main__":
    sys.exit(main())
