"""Standard playing cards in a frame: corner indices read, merged into one observation per card.

>>> import numpy as np
>>> CardRecognizer().recognize(np.full((120, 160, 3), 90, np.uint8))
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.glyphs import GlyphModel, IndexReading
from vision.index_reader import IndexCandidate, find_index_candidates
from vision.observations import CardObservation

#: Readings below this confidence are dropped.
MIN_CONFIDENCE = 0.55
#: Card height over rank-glyph height (about 12 to 16 on common decks).
CARD_PER_GLYPH = 14.0
#: Card width over card height.
CARD_ASPECT = 0.68
#: Index centre from the card's corner, as fractions of card (width, height).
INDEX_OFFSET = (0.09, 0.13)


@dataclass(frozen=True)
class IndexRead:
    """One candidate index with the model's reading of it."""

    candidate: IndexCandidate
    reading: IndexReading

    @property
    def card(self) -> str:
        """The card name the index shows."""
        return self.reading.card


class CardRecognizer:
    """Reads every corner index in a frame and reports one observation per physical card.

    ``model`` is a :class:`~vision.glyphs.GlyphModel`; by default the shipped one,
    which works out of the box on common decks. Pass a taught model for a deck
    with unusual glyphs.
    """

    def __init__(self, model: GlyphModel | None = None) -> None:
        self.model = model if model is not None else default_model()

    def read_indices(
        self, frame_bgr: np.ndarray, region: tuple[int, int, int, int] | None = None
    ) -> list[IndexRead]:
        """Every index read in ``frame_bgr`` (or a region), one per set of ink blobs."""
        candidates = find_index_candidates(frame_bgr, region)
        readings = self.model.read(candidates)
        reads = [
            IndexRead(candidate, reading)
            for candidate, reading in zip(candidates, readings, strict=True)
            if reading is not None and reading.confidence >= MIN_CONFIDENCE
        ]
        return exclusive_reads(reads)

    def recognize(self, frame_bgr: np.ndarray) -> list[CardObservation]:
        """One observation per physical card whose index can be read."""
        return merge_corners(self.read_indices(frame_bgr))


def default_model() -> GlyphModel:
    """The shipped glyph model (loaded once)."""
    global _DEFAULT_MODEL
    if _DEFAULT_MODEL is None:
        _DEFAULT_MODEL = GlyphModel.load()
    return _DEFAULT_MODEL


_DEFAULT_MODEL: GlyphModel | None = None


def exclusive_reads(reads: Sequence[IndexRead]) -> list[IndexRead]:
    """The most confident reads such that no ink blob is used by two of them."""
    used: set[int] = set()
    kept: list[IndexRead] = []
    for read in sorted(reads, key=lambda r: (-r.reading.confidence, -len(r.candidate.rank_blobs))):
        blobs = {*read.candidate.rank_blobs, read.candidate.suit_blob}
        if used & blobs:
            continue
        used |= blobs
        kept.append(read)
    return kept


def estimated_card_centre(candidate: IndexCandidate) -> tuple[float, float]:
    """Where the card's centre is, judging from one corner index and its size."""
    card_height = CARD_PER_GLYPH * candidate.glyph_size
    card_width = CARD_ASPECT * card_height
    up = np.array(candidate.up)
    right = np.array([-up[1], up[0]])
    index = np.array(candidate.center)
    centre = (
        index
        - up * card_height * (0.5 - INDEX_OFFSET[1])
        + right * card_width * (0.5 - INDEX_OFFSET[0])
    )
    return float(centre[0]), float(centre[1])


def same_card(first: IndexRead, second: IndexRead) -> bool:
    """Whether two reads of one name can be the two corners (or one corner twice) of one card."""
    reach = 1.2 * CARD_PER_GLYPH * max(first.candidate.glyph_size, second.candidate.glyph_size)
    distance = float(np.hypot(*np.subtract(first.candidate.center, second.candidate.center)))
    return distance <= reach


def merge_corners(reads: Sequence[IndexRead]) -> list[CardObservation]:
    """Group reads of the same card name that fit on one card into one observation each."""
    groups: list[list[IndexRead]] = []
    for read in sorted(reads, key=lambda r: -r.reading.confidence):
        for group in groups:
            if group[0].card == read.card and same_card(group[0], read):
                group.append(read)
                break
        else:
            groups.append([read])
    return [observation_of(group) for group in groups]


def observation_of(group: Sequence[IndexRead]) -> CardObservation:
    """The observation of one card from its reads, the most confident first."""
    best = group[0]
    if len(group) >= 2:
        centre = tuple(np.mean([r.candidate.center for r in group[:2]], axis=0).tolist())
        miss = 1.0
        for read in group[:2]:
            miss *= 1.0 - read.reading.confidence
        confidence = 1.0 - miss
    else:
        centre = estimated_card_centre(best.candidate)
        confidence = best.reading.confidence
    return CardObservation(
        card=best.card,
        center=(float(centre[0]), float(centre[1])),
        index=best.candidate.center,
        confidence=float(confidence),
    )
