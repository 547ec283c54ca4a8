"""The card reader as a chain of stages that a frame passes through once, each timed.

::

    frame --> colour and light --> card outlines --> card corners --> index candidates
              vision.light         vision.outline    vision.card_corners vision.index_reader
          --> glyph reads --> closer look at small glyphs --> one read per physical card
              vision.glyph_reads  vision.closer_look          vision.one_per_card
          --> observations

Each stage is a module with one entry point, so it can be measured and replaced on its
own; :attr:`CardReads.times` holds the process time each stage took on the frame. The card
corners stage reads the corners of whole cards warped upright; the cards it settles are
left out of the candidate search and the closer look (a frame with fewer than three whole
cards skips it). The closer look passes only enlarged areas around small glyphs (a far
camera) through the candidate finder and the glyph model again; a frame without small
glyphs skips it.
:class:`vision.cards.CardRecognizer` (photos of any size) and
:class:`vision.cards.CardTracker` (camera streams) are built on :class:`CardReader`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from vision.blas_threads import one_blas_thread
from vision.card_corners import CornerReads, card_corners
from vision.closer_look import closer_look
from vision.frame_memory import keep_freed_memory
from vision.glyph_reads import IndexRead, read_glyphs
from vision.glyphs import GlyphModel
from vision.index_reader import Region, index_candidates
from vision.light import LitFrame
from vision.observations import CardObservation
from vision.one_per_card import cards_of, index_reads, joker_templates
from vision.outline import OBLIQUE_ASPECT, Quad, in_hard_shadow, shaded_outlines
from vision.outline import outlines_and_cloths as outline_stage
from vision.sharpness import unblurred

#: Readings below this confidence are dropped.
MIN_CONFIDENCE = 0.7
#: Observations below this confidence are reported as unsure. 0.7 keeps far and small cards
#: sure; the card benchmark's threshold table shows the trade: 0.99 (what <= 1 % wrong over
#: all sources asks for) halves the wrong reads on the felt webcam photos (7.7 -> 3.4 %) and
#: makes 2-6 % of the far synthetic cards unsure (docs/vision-cards.md).
SURE_LEVEL = 0.7
#: The stages in the order a frame passes them (the keys of :attr:`CardReads.times`).
STAGES = (
    "colour and light",
    "card outlines",
    "card corners",
    "index candidates",
    "glyph reads",
    "closer look",
    "one read per card",
)

Result = TypeVar("Result")


def lit_frame(frame_bgr: np.ndarray, gains: tuple[float, float, float] | None) -> LitFrame:
    """The colour-and-light stage: the frame white-balanced (``gains``, or measured on it),
    with its darkest channel and white level made, which every later stage reads (so their
    cost is this stage's, not that of the stage that happens to ask first). A blurred frame
    is sharpened first (:func:`vision.sharpness.unblurred`)."""
    lit = LitFrame.of(frame_bgr, gains)
    sharp = unblurred(lit.bgr, lit.darkest)
    if sharp is not None:
        lit = LitFrame(sharp, lit.gains)
    _ = lit.darkest, lit.white_level
    return lit


def card_outlines(lit: LitFrame) -> list[Quad]:
    """The card-outline stage's whole cards (:func:`outlines_and_cloths`)."""
    return outlines_and_cloths(lit)[0]


def outlines_and_cloths(lit: LitFrame) -> tuple[list[Quad], list[np.ndarray]]:
    """Whole cards, also those a tilted camera makes look longer (up to ``OBLIQUE_ASPECT``;
    :func:`vision.one_per_card.cards_of` keeps those only while the reads inside agree), and
    the hulls of the cloths lying on a white table (:func:`vision.outline.outlines_and_cloths`)."""
    return outline_stage(lit.bgr, lit.darkest, OBLIQUE_ASPECT)


def outline_stage_of(lit: LitFrame) -> tuple[list[Quad], list[np.ndarray]]:
    """The card-outline stage: :func:`outlines_and_cloths`, and where card white lies in a
    hard shadow also the cards that only the local light shows
    (:func:`vision.outline.shaded_outlines`). (A tracker's partial update takes
    :func:`card_outlines` alone: the frame's local light would cost it 1.5-1.9 ms.)"""
    outlines, cloths = outlines_and_cloths(lit)
    local = lit.local
    if local.ink is not None and in_hard_shadow(
        lit.darkest, local.white, lit.white_level, outlines
    ):
        outlines += shaded_outlines(lit.darkest, local.white, outlines, OBLIQUE_ASPECT)
    return outlines, cloths


@dataclass
class Stopwatch:
    """Process time spent per stage (seconds)."""

    times: dict[str, float] = field(default_factory=dict)

    def run(self, stage: str, step: Callable[[], Result]) -> Result:
        """``step()``, its process time added to ``stage``."""
        start = time.process_time()
        try:
            return step()
        finally:
            self.times[stage] = self.times.get(stage, 0.0) + time.process_time() - start


@dataclass(frozen=True)
class CardReads:
    """What a frame gave: the observations (``cards``), the settled index reads they were
    made of, the frame after the colour stage (``lit``), the whole-card ``outlines`` and
    the process time per stage (``times``, seconds, keys as :data:`STAGES`)."""

    cards: list[CardObservation]
    reads: list[IndexRead]
    lit: LitFrame
    outlines: list[Quad]
    times: dict[str, float]


class CardReader:
    """Reads the standard playing cards in camera frames, stage by stage.

    ``model`` is the glyph model (:class:`~vision.glyphs.GlyphModel`); ``jokers`` the
    joker pictures (:func:`~vision.one_per_card.joker_templates` by default). With
    ``one_deck`` a name read at two places that cannot be one card is reported sure once
    and unsure elsewhere. Index reads under ``min_confidence`` are not used at all;
    observations under ``sure_level`` are reported with ``unsure=True``. Making one keeps
    freed frame buffers in the process (:func:`~vision.frame_memory.keep_freed_memory`) and
    sets numpy's OpenBLAS to one thread (:func:`~vision.blas_threads.one_blas_thread`).
    """

    def __init__(
        self,
        model: GlyphModel,
        *,
        jokers: np.ndarray | None = None,
        one_deck: bool = True,
        min_confidence: float = MIN_CONFIDENCE,
        sure_level: float = SURE_LEVEL,
    ) -> None:
        self.model = model
        self.jokers = joker_templates() if jokers is None else jokers
        self.one_deck = one_deck
        self.min_confidence = min_confidence
        self.sure_level = sure_level
        keep_freed_memory()
        one_blas_thread()

    def read(
        self, frame_bgr: np.ndarray, gains: tuple[float, float, float] | None = None
    ) -> CardReads:
        """Pass ``frame_bgr`` through every stage once (``gains``: white-balance gains to use
        instead of measuring them on the frame)."""
        watch = Stopwatch()
        lit = watch.run("colour and light", lambda: lit_frame(frame_bgr, gains))
        outlines, cloths = watch.run("card outlines", lambda: outline_stage_of(lit))
        corners = watch.run(
            "card corners",
            lambda: card_corners(
                lit.bgr, outlines, lit.white_level, self.model, self.min_confidence
            ),
        )
        reads = self.index_reads(lit, outlines, watch=watch, corners=corners, cloths=cloths)
        cards = watch.run("one read per card", lambda: self.cards(lit, reads, outlines))
        return CardReads(cards, reads, lit, outlines, watch.times)

    def index_reads(
        self,
        lit: LitFrame,
        outlines: Sequence[Quad] = (),
        region: Region | None = None,
        white_level: float | None = None,
        watch: Stopwatch | None = None,
        corners: CornerReads | None = None,
        cloths: Sequence[np.ndarray] = (),
    ) -> list[IndexRead]:
        """The settled index reads of ``lit`` (or of ``region`` of it): the candidate,
        glyph-read and closer-look stages and the first step of the last one (timed on
        ``watch``). ``outlines`` are the whole cards whose corners may call for a closer look;
        ``corners``: what the card-corner stage read, whose reads join the glyph reads and
        whose settled cards the candidate search and the closer look leave out; ``cloths``:
        where the cards lie on a white table (the closer look leaves out the table)."""
        watch = Stopwatch() if watch is None else watch
        corners = CornerReads([], []) if corners is None else corners
        left_out = corners.settled
        found = watch.run(
            "index candidates",
            lambda: index_candidates(lit, region, white_level, left_out=left_out),
        )
        reads = watch.run(
            "glyph reads",
            lambda: corners.reads + read_glyphs(self.model, found.readable, self.min_confidence),
        )
        open_outlines = [quad for quad in outlines if quad not in left_out]
        reads = watch.run(
            "closer look",
            lambda: closer_look(
                lit, found, reads, open_outlines, self.model, self.min_confidence, cloths
            ),
        )
        return watch.run("one read per card", lambda: index_reads(reads))

    def cards(
        self, lit: LitFrame, reads: Sequence[IndexRead], outlines: Sequence[Quad]
    ) -> list[CardObservation]:
        """The observations made of a frame's settled index ``reads``."""
        return cards_of(lit, reads, outlines, self.jokers, self.one_deck, self.sure_level)
