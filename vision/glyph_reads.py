"""The glyph-read stage of the card reader: the glyph model names the index candidates.

The readable candidates of a frame (:class:`vision.index_reader.Candidates`) go to
:meth:`vision.glyphs.GlyphModel.read` in one batch; reads under the minimum confidence are
left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.glyphs import GlyphModel, IndexReading
from vision.index_reader import IndexCandidate


@dataclass(frozen=True)
class IndexRead:
    """One candidate index with the model's reading of it."""

    candidate: IndexCandidate
    reading: IndexReading

    @property
    def card(self) -> str:
        """The card name the index shows."""
        return self.reading.card


def read_glyphs(
    model: GlyphModel, candidates: Sequence[IndexCandidate], min_confidence: float
) -> list[IndexRead]:
    """The model's reads of ``candidates`` (one batch) at ``min_confidence`` or above."""
    readings = model.read(candidates)
    return [
        IndexRead(candidate, reading)
        for candidate, reading in zip(candidates, readings, strict=True)
        if reading is not None and reading.confidence >= min_confidence
    ]
