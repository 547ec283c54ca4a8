"""Every card the reader reports on the card photos, saved or compared.

A change meant to make the card reader faster must not change what it reports.
``python -m benchmarks.card_reads save FILE`` stores, for the 1280x720 deal frames (with
their whole-card outlines), the deals, the felt webcam, single and misc photos, every
observation :meth:`~vision.cards.CardRecognizer.recognize` reports (name and unsure mark,
centre, index, confidence and corners) and what a :class:`~vision.cards.CardTracker` keeps
after a changed area of a deal frame is read again; ``check FILE`` makes them again and
names the images whose reports differ (names or unsure marks not equal, positions and
confidences not ``np.allclose``; exit code 1), or says that all are equal.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence

import numpy as np

from benchmarks.bench_cards import deal_photos, frames_1280x720
from benchmarks.card_sources import felt_shots, misc_shots, single_shots
from benchmarks.stored_arrays import save_or_check
from vision.cards import CardRecognizer, CardTracker
from vision.observations import CardObservation


def images() -> Iterator[tuple[str, np.ndarray]]:
    """(name, BGR image) of every photo the reports are taken on."""
    yield from ((name, photo) for name, photo, _ in deal_photos())
    for shots in (felt_shots(), single_shots(), misc_shots()):
        yield from ((shot.name, shot.image) for shot in shots)


def packed(prefix: str, cards: Sequence[CardObservation]) -> dict[str, np.ndarray]:
    """The observations as arrays named ``prefix#names`` (name and unsure mark, as text)
    and ``prefix#numbers`` (centre, index, confidence, corners: 13 values per card)."""
    return {
        f"{prefix}#names": np.array([f"{c.card}{'?' if c.unsure else ''}" for c in cards]),
        f"{prefix}#numbers": np.array(
            [
                [*c.center, *c.index, c.confidence, *np.ravel(c.corners or ((0.0, 0.0),) * 4)]
                for c in cards
            ],
            np.float64,
        ).reshape(-1, 13),
    }


def tracked(recognizer: CardRecognizer, frame: np.ndarray) -> list[CardObservation]:
    """What a tracker reports after the frame's 200x160 px area at (500, 200) moved 40 px."""
    tracker = CardTracker(recognizer)
    tracker.update(frame)
    moved = frame.copy()
    moved[200:360, 500:700] = np.roll(moved[200:360, 500:700], 40, axis=1)
    return tracker.update(moved)


def collect() -> dict[str, np.ndarray]:
    """Every array compared, by name."""
    recognizer = CardRecognizer()
    arrays: dict[str, np.ndarray] = {}
    for number, frame in enumerate(frames_1280x720(deal_photos()), start=1):
        result = recognizer.read(frame)
        arrays |= packed(f"frame{number}", result.cards)
        arrays[f"frame{number}#outlines"] = np.array(result.outlines, np.float64).reshape(-1, 8)
        arrays |= packed(f"frame{number}@tracked", tracked(recognizer, frame))
    for name, image in images():
        arrays |= packed(name, recognizer.recognize(image))
    return arrays


def not_equal(stored: dict[str, np.ndarray], fresh: dict[str, np.ndarray]) -> list[str]:
    """The names whose arrays differ: missing on one side, of another shape, text not equal,
    numbers not equal to float rounding.

    >>> not_equal({"a#names": np.array(["Ks"]), "a#numbers": np.ones(2)},
    ...           {"a#names": np.array(["Ks?"]), "a#numbers": np.ones(2) + 1e-12})
    ['a#names']
    """
    return sorted(
        name
        for name in set(stored) | set(fresh)
        if name not in stored
        or name not in fresh
        or stored[name].shape != fresh[name].shape
        or not (
            np.allclose(stored[name], fresh[name], rtol=1e-9, atol=1e-9)
            if stored[name].dtype.kind == "f"
            else np.array_equal(stored[name], fresh[name])
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``save FILE`` or ``check FILE``; returns the exit code."""
    return save_or_check("python -m benchmarks.card_reads", __doc__, collect, not_equal, argv)


if __name__ == "__main__":
    sys.exit(main())
