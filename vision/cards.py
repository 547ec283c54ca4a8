"""Standard playing cards in a frame: corner indices read, merged into one observation per card.

The public entry points: :class:`CardRecognizer` reads photos and frames of any size,
:class:`CardTracker` follows a camera stream. Both are built on the staged reader of
:mod:`vision.pipeline`.

>>> import numpy as np
>>> CardRecognizer().recognize(np.full((120, 160, 3), 90, np.uint8))
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision.glyph_reads import IndexRead
from vision.glyphs import GlyphModel
from vision.index_reader import CARD_PER_GLYPH as CARD_PER_GLYPH
from vision.index_reader import Region
from vision.light import LitFrame, card_white_level, darkest_channel
from vision.observations import CardObservation
from vision.one_per_card import JOKER_SIZE as JOKER_SIZE
from vision.one_per_card import JOKER_TEMPLATES as JOKER_TEMPLATES
from vision.one_per_card import centre_pips as centre_pips
from vision.one_per_card import once_per_name as once_per_name
from vision.one_per_card import pip_checked as pip_checked
from vision.outline import Quad
from vision.pipeline import MIN_CONFIDENCE, SURE_LEVEL, CardReader, card_outlines

#: Camera frames up to this longer side (1080p) are read as they are (a camera that sees
#: the whole table gives index glyphs of only 7-9 px); larger photos are read downscaled
#: to ``MAX_SIDE``.
CAMERA_SIDE = 1920
MAX_SIDE = 1600
#: A photo where nothing is found is read again this much smaller, down to this shorter side.
RETRY_STEP = 0.7
MIN_SIDE = 300
#: Photos whose glyphs come out larger than this are read again with glyphs of ``GOOD_GLYPH``.
LARGE_GLYPH = 30.0
GOOD_GLYPH = 22.0


class CardRecognizer(CardReader):
    """Reads every corner index in a frame and reports one observation per physical card.

    ``model`` is a :class:`~vision.glyphs.GlyphModel`; by default the shipped one,
    which works out of the box on common decks. Pass a taught model for a deck
    with unusual glyphs. With ``one_deck`` (the default) the table holds one deck,
    so a name read at two places that cannot be one card is reported sure once, where
    it was read most confidently, and unsure elsewhere; pass ``one_deck=False`` for
    games with several decks. Index reads under ``min_confidence`` are not used at all;
    observations under ``sure_level`` are reported with ``unsure=True``.
    """

    def __init__(
        self,
        model: GlyphModel | None = None,
        *,
        one_deck: bool = True,
        min_confidence: float = MIN_CONFIDENCE,
        sure_level: float = SURE_LEVEL,
    ) -> None:
        super().__init__(
            model if model is not None else default_model(),
            one_deck=one_deck,
            min_confidence=min_confidence,
            sure_level=sure_level,
        )

    def read_indices(
        self,
        frame_bgr: np.ndarray,
        region: Region | None = None,
        white_level: float | None = None,
        outlines: Sequence[Quad] = (),
    ) -> list[IndexRead]:
        """Every index read in ``frame_bgr`` as it is (no white balance), or in a region of
        it, one per set of ink blobs (see :meth:`~vision.pipeline.CardReader.index_reads`).

        ``white_level`` is as for :func:`vision.index_reader.find_ink_blobs`. Small glyphs
        are read again enlarged around small candidates and at the corners of whole
        cards (``outlines``) small enough to have small glyphs.
        """
        return self.index_reads(LitFrame(frame_bgr), outlines, region, white_level)

    def cards_from(
        self,
        frame_bgr: np.ndarray,
        reads: Sequence[IndexRead],
        outlines: Sequence[Quad] | None = None,
    ) -> list[CardObservation]:
        """The observations of a frame whose indices were read as ``reads``
        (``outlines``: the frame's card outlines if already found)."""
        lit = LitFrame(frame_bgr)
        if outlines is None:
            outlines = card_outlines(lit)
        return self.cards(lit, reads, outlines)

    def recognize(self, frame_bgr: np.ndarray) -> list[CardObservation]:
        """One observation per physical card whose index can be read, and per whole joker.

        Frames larger than ``CAMERA_SIDE`` (phone photos) are read at ``MAX_SIDE``:
        a close-up's glyphs can be too large for the ink window, so the photo is
        read again at a size that makes them about ``GOOD_GLYPH`` pixels, or
        smaller (see ``RETRY_STEP``) while nothing is found. Positions are always in
        the frame's own pixels. The frame is white-balanced first (:mod:`vision.light`).
        """
        if max(frame_bgr.shape[:2]) <= CAMERA_SIDE:
            return self.read(frame_bgr).cards
        frame_bgr = LitFrame.of(frame_bgr).bgr
        factor = MAX_SIDE / max(frame_bgr.shape[:2])
        while True:
            small = LitFrame(resized(frame_bgr, factor))
            reads = self.index_reads(small)
            glyph = float(np.median([r.candidate.glyph_size for r in reads])) if reads else 0.0
            if glyph > LARGE_GLYPH:
                factor *= GOOD_GLYPH / glyph
                small = LitFrame(resized(frame_bgr, factor))
                reads = self.index_reads(small)
            if reads or min(small.bgr.shape[:2]) * RETRY_STEP < MIN_SIDE:
                outlines = card_outlines(small)
                cards = self.cards(small, reads, outlines)
                return [scaled(card, 1 / factor) for card in cards]
            factor *= RETRY_STEP

    def recognize_at_scale(self, frame_bgr: np.ndarray) -> list[CardObservation]:
        """:meth:`recognize` at the frame's own size."""
        return self.read(frame_bgr).cards


def resized(frame_bgr: np.ndarray, factor: float) -> np.ndarray:
    """``frame_bgr`` scaled by ``factor`` (area interpolation)."""
    return np.asarray(
        cv2.resize(frame_bgr, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    )


def scaled(card: CardObservation, factor: float) -> CardObservation:
    """``card`` with its positions multiplied by ``factor``."""

    def point(xy: tuple[float, float]) -> tuple[float, float]:
        return (xy[0] * factor, xy[1] * factor)

    return replace(
        card,
        center=point(card.center),
        index=point(card.index),
        corners=tuple(point(corner) for corner in card.corners),
    )


def default_model() -> GlyphModel:
    """The shipped glyph model (loaded once)."""
    global _DEFAULT_MODEL
    if _DEFAULT_MODEL is None:
        _DEFAULT_MODEL = GlyphModel.load()
    return _DEFAULT_MODEL


_DEFAULT_MODEL: GlyphModel | None = None


class CardTracker:
    """Follows the cards from frame to frame, re-reading only where the picture changed.

    The first frame (and any frame where more than ``full_fraction`` of the
    picture changed, e.g. a new deal or a hand over the table) gets a full
    :meth:`CardRecognizer.recognize`. Otherwise each frame is compared, at
    1/``cell`` size, with the picture the current reads came from; an
    unchanged frame costs only that comparison, and changed areas (grown by
    ``margin`` pixels) are read again while reads elsewhere are kept.

    >>> tracker = CardTracker(CardRecognizer())
    >>> tracker.update(np.full((120, 160, 3), 90, np.uint8))
    []
    """

    def __init__(
        self,
        recognizer: CardRecognizer,
        *,
        cell: int = 8,
        change_level: int = 18,
        margin: int = 48,
        full_fraction: float = 0.4,
    ) -> None:
        self.recognizer = recognizer
        self.cell = cell
        self.change_level = change_level
        self.margin = margin
        self.full_fraction = full_fraction
        self.reference: np.ndarray | None = None
        self.reads: list[IndexRead] = []
        self.cards: list[CardObservation] = []
        self.gains = (1.0, 1.0, 1.0)
        self.full_detections = 0
        self.partial_updates = 0

    def update(self, frame_bgr: np.ndarray) -> list[CardObservation]:
        """The cards in this frame (the same list object as before if nothing changed)."""
        thumbnail = self.thumbnail(frame_bgr)
        reference = self.reference
        if reference is None or reference.shape != thumbnail.shape:
            return self.full(frame_bgr, thumbnail)
        changed = cv2.absdiff(thumbnail, reference) > self.change_level
        if not changed.any():
            return self.cards
        if changed.mean() > self.full_fraction:
            return self.full(frame_bgr, thumbnail)
        return self.partial(frame_bgr, thumbnail, reference, changed)

    def thumbnail(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The frame in grey at 1/``cell`` size: what change is measured on."""
        grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
        height, width = grey.shape
        size = (max(1, width // self.cell), max(1, height // self.cell))
        return cv2.resize(grey, size, interpolation=cv2.INTER_AREA)

    def full(self, frame_bgr: np.ndarray, thumbnail: np.ndarray) -> list[CardObservation]:
        """Read the whole frame afresh."""
        self.full_detections += 1
        self.reference = thumbnail
        result = self.recognizer.read(frame_bgr)
        self.gains, self.reads, self.cards = result.lit.gains, result.reads, result.cards
        return self.cards

    def partial(
        self,
        frame_bgr: np.ndarray,
        thumbnail: np.ndarray,
        reference: np.ndarray,
        changed: np.ndarray,
    ) -> list[CardObservation]:
        """Re-read the changed areas only (``changed``: the cells where ``thumbnail``
        differs from ``reference``); keep the reads elsewhere."""
        self.partial_updates += 1
        lit = LitFrame.of(frame_bgr, self.gains)
        grow = 2 * (self.margin // self.cell) + 1
        area = cv2.dilate(changed.astype(np.uint8), np.ones((grow, grow), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(area)
        height, width = lit.bgr.shape[:2]
        regions = [
            (
                int(x * self.cell),
                int(y * self.cell),
                int(min(w * self.cell, width - x * self.cell)),
                int(min(h * self.cell, height - y * self.cell)),
            )
            for x, y, w, h, _ in stats[1:count]
        ]
        kept = [r for r in self.reads if not any(inside(r.candidate.center, g) for g in regions)]
        white_level = card_white_level(thumbnail_darkest(lit.bgr, self.cell))
        fresh = [
            read
            for region in regions
            for read in self.recognizer.index_reads(lit, (), region, white_level)
        ]
        self.reads = kept + fresh
        self.reference = np.where(area > 0, thumbnail, reference)
        outlines = card_outlines(lit)
        self.cards = self.recognizer.cards(lit, self.reads, outlines)
        return self.cards


def inside(point: tuple[float, float], region: tuple[int, int, int, int]) -> bool:
    """Whether ``point`` lies in ``region`` (x, y, width, height)."""
    x, y, width, height = region
    return x <= point[0] < x + width and y <= point[1] < y + height


def thumbnail_darkest(frame_bgr: np.ndarray, cell: int) -> np.ndarray:
    """The per-pixel darkest channel of a 1/``cell`` size copy of the frame."""
    height, width = frame_bgr.shape[:2]
    small = cv2.resize(frame_bgr, (max(1, width // cell), max(1, height // cell)))
    return darkest_channel(small)
