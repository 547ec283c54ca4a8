"""Standard playing cards in a frame: corner indices read, merged into one observation per card.

>>> import numpy as np
>>> CardRecognizer().recognize(np.full((120, 160, 3), 90, np.uint8))
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.glyphs import GlyphModel, IndexReading
from vision.index_reader import (
    GLYPH_PIXELS,
    SMALL_GLYPH,
    IndexCandidate,
    Spot,
    card_white_level,
    closer_look,
    first_look,
    region_white_level,
    spots_of,
)
from vision.light import apply_gains, balance, white_gains
from vision.observations import CardObservation
from vision.outline import Quad, find_card_outlines

#: Readings below this confidence are dropped.
MIN_CONFIDENCE = 0.7
#: Observations below this confidence are reported as unsure. 0.7 keeps far and small cards
#: sure; the card benchmark's threshold table shows the trade: 0.99 (what <= 1 % wrong over
#: all sources asks for) halves the wrong reads on the felt webcam photos (7.7 -> 3.4 %) and
#: makes 2-6 % of the far synthetic cards unsure (docs/vision-cards.md).
SURE_LEVEL = 0.7
#: A small candidate less than this fraction of the size of an index read within a card
#: height of it is a fragment (cards that close lie at the same distance from the camera):
#: it gets no enlarged second look.
DWARFED = 0.7
#: Card height over rank-glyph size (about 10 to 14 on common decks).
CARD_PER_GLYPH = 11.5
#: From one index to the opposite one, in the first index's upright frame: the slope
#: (down over across) and the length in glyph sizes that decks from square-ish poker
#: to narrow bridge cards give.
DIAGONAL_SLOPE = (1.0, 2.2)
DIAGONAL_GLYPHS = (7.0, 17.0)
#: A read this close (card heights) to a whole card's corner means the corner was read.
CORNER_READ = 0.25
#: Two reads closer than this many glyph sizes are one index read twice.
SAME_PLACE = 0.8
#: Card width over card height.
CARD_ASPECT = 0.68
#: Index centre from the card's corner, as fractions of card (width, height).
INDEX_OFFSET = (0.09, 0.13)
#: Joker pictures (upright cards, grey) that whole-card outlines are compared with.
JOKER_TEMPLATES = Path(__file__).parent / "data" / "jokers.npz"
#: Size (width, height) of the grey card image compared with joker pictures.
JOKER_SIZE = (36, 52)
#: Smallest normalised correlation with a joker picture that counts as a joker.
JOKER_MATCH = 0.5
#: Smallest share of blank face a joker has (card backs are patterned all over).
JOKER_WHITE = 0.55
#: A whole card with less blank face than this is a back (the CC0 backs have about 0.4,
#: court cards 0.6, number cards 0.8): what looks like an index on it is pattern.
BACK_WHITE = 0.5
#: Window (pixels at ``JOKER_SIZE``) over which blank face is compared with the brightest,
#: and the share of the card's brightest below which nothing counts as blank.
BLANK_WINDOW = 9
BLANK_FLOOR = 0.35
#: Blur (pixels at ``JOKER_SIZE``) so line drawings still match after a slight misfit.
JOKER_BLUR = 1.5
JOKER = "JK"
#: An index centre lies this far along the way from a card's corner to its centre.
INDEX_ALONG_DIAGONAL = 0.22
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
#: Size (width, height) of the grey upright card image whose centre pips are counted.
PIP_CARD_SIZE = (60, 88)
#: The part of that image (x and y ranges, fractions) that holds the centre pips and no
#: corner index.
PIP_AREA = ((0.19, 0.81), (0.07, 0.93))
#: Pip ink is darker than this fraction of the card's blank face.
PIP_DARK = 0.6
#: Pips of one card are within these factors of their median area (pixels at
#: ``PIP_CARD_SIZE``, smaller specks ignored); anything else is a picture.
PIP_AREAS = (0.4, 2.0)
PIP_SPECK = 4
COURT_RANKS = frozenset("JQK")


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
        self.model = model if model is not None else default_model()
        self.one_deck = one_deck
        self.min_confidence = min_confidence
        self.sure_level = sure_level
        self.jokers = joker_templates()

    def read_indices(
        self,
        frame_bgr: np.ndarray,
        region: tuple[int, int, int, int] | None = None,
        white_level: float | None = None,
        outlines: Sequence[Quad] = (),
    ) -> list[IndexRead]:
        """Every index read in ``frame_bgr`` (or a region of it), one per set of ink blobs.

        ``white_level`` is as for :func:`vision.index_reader.find_ink_blobs`.
        Small glyphs are read again enlarged around small candidates and at the
        corners of whole cards (``outlines``) small enough to have small glyphs,
        whose glyphs may be too thin to show at the frame's own size.
        """
        if white_level is None:
            white_level = region_white_level(frame_bgr, region)
        candidates = first_look(frame_bgr, region, white_level)
        readable = [c for c in candidates if c.suit_size >= GLYPH_PIXELS[0]]
        reads = self.confident_reads(readable)
        small = [c for c in candidates if c.glyph_size < SMALL_GLYPH]
        small = [c for c, tiny in zip(small, dwarfed(small, reads), strict=True) if not tiny]
        spots = spots_of(small) + unread_corners(small_card_corners(outlines), reads)
        if spots:
            kept, fresh = closer_look(frame_bgr, readable, spots, white_level)
            replaced = {id(c) for c, keep in zip(readable, kept, strict=True) if not keep}
            reads = surer_of_two(reads, self.confident_reads(fresh), replaced)
        reads = exclusive_reads(reads)
        tiny = dwarfed([r.candidate for r in reads], reads)
        return [r for r, fragment in zip(reads, tiny, strict=True) if not fragment]

    def confident_reads(self, candidates: Sequence[IndexCandidate]) -> list[IndexRead]:
        """The model's reads of ``candidates`` at ``MIN_CONFIDENCE`` or above."""
        readings = self.model.read(candidates)
        return [
            IndexRead(candidate, reading)
            for candidate, reading in zip(candidates, readings, strict=True)
            if reading is not None and reading.confidence >= self.min_confidence
        ]

    def recognize(self, frame_bgr: np.ndarray) -> list[CardObservation]:
        """One observation per physical card whose index can be read, and per whole joker.

        Frames larger than ``CAMERA_SIDE`` (phone photos) are read at ``MAX_SIDE``:
        a close-up's glyphs can be too large for the ink window, so the photo is
        read again at a size that makes them about ``GOOD_GLYPH`` pixels, or
        smaller (see ``RETRY_STEP``) while nothing is found. Positions are always in
        the frame's own pixels. The frame is white-balanced first (:mod:`vision.light`).
        """
        frame_bgr = balance(frame_bgr)
        if max(frame_bgr.shape[:2]) <= CAMERA_SIDE:
            return self.recognize_at_scale(frame_bgr)
        factor = MAX_SIDE / max(frame_bgr.shape[:2])
        while True:
            small = cv2.resize(frame_bgr, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
            reads = self.read_indices(small)
            glyph = float(np.median([r.candidate.glyph_size for r in reads])) if reads else 0.0
            if glyph > LARGE_GLYPH:
                factor *= GOOD_GLYPH / glyph
                small = cv2.resize(
                    frame_bgr, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA
                )
                reads = self.read_indices(small)
            if reads or min(small.shape[:2]) * RETRY_STEP < MIN_SIDE:
                return [scaled(card, 1 / factor) for card in self.cards_from(small, reads)]
            factor *= RETRY_STEP

    def recognize_at_scale(self, frame_bgr: np.ndarray) -> list[CardObservation]:
        """:meth:`recognize` at the frame's own size."""
        return self.read_at_scale(frame_bgr)[1]

    def read_at_scale(self, frame_bgr: np.ndarray) -> tuple[list[IndexRead], list[CardObservation]]:
        """The index reads of a frame at its own size, and the observations made of them."""
        outlines = find_card_outlines(frame_bgr)
        reads = self.read_indices(frame_bgr, outlines=outlines)
        return reads, self.cards_from(frame_bgr, reads, outlines)

    def cards_from(
        self,
        frame_bgr: np.ndarray,
        reads: Sequence[IndexRead],
        outlines: Sequence[Quad] | None = None,
    ) -> list[CardObservation]:
        """The observations of a frame whose indices were read as ``reads``
        (``outlines``: the frame's card outlines if already found)."""
        if outlines is None:
            outlines = find_card_outlines(frame_bgr)
        pictures = card_images(frame_bgr, outlines)
        backs = [
            quad
            for quad, picture in zip(outlines, pictures, strict=True)
            if white_share(picture) < BACK_WHITE
        ]
        reads = [r for r in reads if not any(inside_quad(r.candidate.center, q) for q in backs)]
        reads = pip_checked(frame_bgr, reads, outlines)
        cards = one_per_outline(merge_corners(reads), outlines)
        if self.one_deck:
            cards = once_per_name(cards)
        cards = [
            replace(card, unsure=True) if card.confidence < self.sure_level else card
            for card in cards
        ]
        return cards + self.find_jokers(outlines, pictures, reads)

    def find_jokers(
        self,
        outlines: Sequence[Quad],
        pictures: Sequence[np.ndarray],
        reads: Sequence[IndexRead] = (),
    ) -> list[CardObservation]:
        """Whole cards (outline visible, no index among ``reads``, mostly blank face) whose
        picture matches a joker.

        ``pictures`` are the :func:`card_images` of the ``outlines``. The shipped
        joker pictures are those of the two CC0 designs.
        """
        found: list[CardObservation] = []
        for quad, picture in zip(outlines, pictures, strict=True):
            if any(inside_quad(r.candidate.center, quad) for r in reads):
                continue
            score = joker_score(picture, self.jokers)
            if score >= JOKER_MATCH and white_share(picture) >= JOKER_WHITE:
                centre = np.mean(quad, axis=0)
                point = (float(centre[0]), float(centre[1]))
                found.append(CardObservation(JOKER, point, point, score, corners=quad))
        return found


def small_card_corners(outlines: Sequence[Quad]) -> list[Spot]:
    """Where the indices of whole cards too small for their glyphs to show well may be:
    near each corner of the outline (either way up), with the glyph size the card implies."""
    spots: list[Spot] = []
    for quad in outlines:
        corners = np.array(quad, np.float64)
        glyph = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).max())
        glyph /= CARD_PER_GLYPH
        if glyph >= SMALL_GLYPH:
            continue
        centre = corners.mean(axis=0)
        for corner in corners:
            x, y = corner + INDEX_ALONG_DIAGONAL * (centre - corner)
            spots.append(((float(x), float(y)), glyph))
    return spots


def surer_of_two(
    first: Sequence[IndexRead], closer: Sequence[IndexRead], replaced: set[int]
) -> list[IndexRead]:
    """Reads from the frame's own size (``first``; ``replaced``: ids of the candidates the
    closer look stands in for) and from the enlarged closer look (``closer``). Where both
    read an index at one place the more confident stays, the frame's own read on a tie:
    enlarging adds no detail, and a wide spade whose thin stem parts from it when enlarged
    reads as a club. A replaced read that no closer read matches is dropped."""

    def same_place(one: IndexRead, other: IndexRead) -> bool:
        gap = float(np.hypot(*np.subtract(one.candidate.center, other.candidate.center)))
        return gap <= SAME_PLACE * one.candidate.glyph_size

    kept_closer = [
        read
        for read in closer
        if not any(
            same_place(own, read) and own.reading.confidence >= read.reading.confidence
            for own in first
        )
    ]
    kept_first = []
    for read in first:
        rivals = [other for other in closer if same_place(read, other)]
        if any(other.reading.confidence > read.reading.confidence for other in rivals):
            continue
        if id(read.candidate) in replaced and not rivals:
            continue
        kept_first.append(read)
    return kept_first + kept_closer


def unread_corners(spots: Sequence[Spot], reads: Sequence[IndexRead]) -> list[Spot]:
    """The corner ``spots`` of whole cards with no index read near them yet (within
    ``CORNER_READ`` card heights): a corner read at the frame's own size needs no closer look
    (the enlarged picture of a well-read index is no better, and costs time)."""
    centres = np.array([r.candidate.center for r in reads]).reshape(-1, 2)
    return [
        (centre, glyph)
        for centre, glyph in spots
        if not (np.hypot(*(centres - centre).T) < CORNER_READ * CARD_PER_GLYPH * glyph).any()
    ]


def dwarfed(candidates: Sequence[IndexCandidate], reads: Sequence[IndexRead]) -> list[bool]:
    """For each candidate, whether it is much smaller (``DWARFED``) than the indices read
    within a card height of it (their median size, so one misread does not decide): then it
    is a fragment, as cards that close lie at the same distance from the camera."""
    if not candidates or not reads:
        return [False] * len(candidates)
    centres = np.array([c.center for c in candidates])
    sizes = np.array([c.glyph_size for c in candidates])
    read_centres = np.array([r.candidate.center for r in reads])
    read_sizes = np.array([r.candidate.glyph_size for r in reads])
    distances = np.linalg.norm(centres[:, None, :] - read_centres[None, :, :], axis=2)
    near = distances < CARD_PER_GLYPH * read_sizes[None, :]
    tiny: list[bool] = []
    for size, neighbours in zip(sizes, near, strict=True):
        tiny.append(bool(neighbours.any() and size < DWARFED * np.median(read_sizes[neighbours])))
    return tiny


def once_per_name(cards: Sequence[CardObservation]) -> list[CardObservation]:
    """One deck: the most confident observation of each name stays, every other one of that
    name is kept but marked unsure (one of them is a misread, and it need not be the less
    confident one, so none is dropped)."""
    kept: set[str] = set()
    result: list[CardObservation] = []
    for card in sorted(cards, key=lambda seen: -seen.confidence):
        result.append(replace(card, unsure=True) if card.card in kept else card)
        kept.add(card.card)
    return result


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


def card_images(frame_bgr: np.ndarray, outlines: Sequence[Quad]) -> list[np.ndarray]:
    """The card inside each outline as a small grey image (upright or upside down)."""
    if not outlines:
        return []
    width, height = JOKER_SIZE
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    return [
        cv2.warpPerspective(
            grey,
            cv2.getPerspectiveTransform(np.array(quad, np.float32), target),
            JOKER_SIZE,
            flags=cv2.INTER_AREA,
        )
        for quad in outlines
    ]


def white_share(card_grey: np.ndarray) -> float:
    """The share of a card image that is blank card face: near the brightest of its
    surroundings (``BLANK_WINDOW`` pixels), so a shadow across the card does not make the
    shaded half count as print, and not in the dark (under ``BLANK_FLOOR`` of the card's
    brightest)."""
    local = cv2.dilate(card_grey, np.ones((BLANK_WINDOW, BLANK_WINDOW), np.uint8))
    bright = float(np.percentile(card_grey, 95))
    return float(np.mean((card_grey >= 0.8 * local) & (local >= BLANK_FLOOR * bright)))


def joker_score(card_grey: np.ndarray, templates: np.ndarray) -> float:
    """Best normalised correlation of a card image with the joker pictures
    (:func:`joker_templates`), either way up."""
    if len(templates) == 0:
        return 0.0
    card = cv2.GaussianBlur(card_grey.astype(np.float32), (0, 0), JOKER_BLUR)
    scores = [
        float(cv2.matchTemplate(view, template, cv2.TM_CCOEFF_NORMED)[0, 0])
        for view in (card, card[::-1, ::-1].copy())
        for template in templates
    ]
    return max(scores)


def joker_templates() -> np.ndarray:
    """The shipped joker pictures, (n, height, width) grey, blurred by ``JOKER_BLUR`` as
    :func:`joker_score` compares them; none if the file is absent."""
    if not JOKER_TEMPLATES.is_file():
        return np.zeros((0, JOKER_SIZE[1], JOKER_SIZE[0]), np.float32)
    with np.load(JOKER_TEMPLATES) as data:
        pictures = np.asarray(data["jokers"])
    return np.array(
        [cv2.GaussianBlur(p.astype(np.float32), (0, 0), JOKER_BLUR) for p in pictures], np.float32
    )


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


def estimated_outline(candidate: IndexCandidate) -> Quad:
    """The card's outline judged from one corner index: clockwise from the index's corner."""
    card_height = CARD_PER_GLYPH * candidate.glyph_size
    card_width = CARD_ASPECT * card_height
    up = np.array(candidate.up)
    right = np.array([-up[1], up[0]])
    first = (
        np.array(candidate.center)
        - right * card_width * INDEX_OFFSET[0]
        + up * card_height * INDEX_OFFSET[1]
    )
    points = (first, first + right * card_width, first + right * card_width - up * card_height)
    corners = (*points, first - up * card_height)
    a, b, c, d = ((float(x), float(y)) for x, y in corners)
    return (a, b, c, d)


def pip_checked(
    frame_bgr: np.ndarray, reads: Sequence[IndexRead], outlines: Sequence[Quad]
) -> list[IndexRead]:
    """``reads`` without those of a court rank (J, Q, K) inside a whole card (outline)
    that shows 2-10 centre pips: a far camera's 6-9 px "10" can look like a J, while
    its 6-8 px pips are plain. (Number ranks are not checked against the count: two
    pips blurred into one made an 8 count 7.)"""
    counts: dict[int, int | None] = {}
    kept: list[IndexRead] = []
    for read in reads:
        holder = next(
            (n for n, quad in enumerate(outlines) if inside_quad(read.candidate.center, quad)),
            None,
        )
        if holder is not None and holder not in counts:
            counts[holder] = centre_pips(frame_bgr, outlines[holder])
        pips = counts.get(holder) if holder is not None else None
        if pips is None or read.reading.rank not in COURT_RANKS:
            kept.append(read)
    return kept


def centre_pips(frame_bgr: np.ndarray, quad: Quad) -> int | None:
    """How many centre pips the whole card ``quad`` shows (2-10), or None if its middle
    holds anything else: a picture (court cards, jokers), one big pip (aces), nothing."""
    corners = np.array(quad, np.float32)
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    if sides[0] > sides[1]:
        corners = np.roll(corners, -1, axis=0)
    width, height = PIP_CARD_SIZE
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    card = cv2.warpPerspective(
        grey,
        cv2.getPerspectiveTransform(corners, target),
        PIP_CARD_SIZE,
        flags=cv2.INTER_AREA,
    )
    (x0, x1), (y0, y1) = PIP_AREA
    middle = card[int(y0 * height) : int(y1 * height), int(x0 * width) : int(x1 * width)]
    dark = (middle < PIP_DARK * np.percentile(card, 95)).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    areas = stats[1:, cv2.CC_STAT_AREA]
    areas = areas[areas >= PIP_SPECK]
    if not 2 <= len(areas) <= 10:
        return None
    median = float(np.median(areas))
    if (areas < PIP_AREAS[0] * median).any() or (areas > PIP_AREAS[1] * median).any():
        return None
    return len(areas)


def one_per_outline(
    cards: Sequence[CardObservation], outlines: Sequence[Quad]
) -> list[CardObservation]:
    """Cards fitted to the measured outlines that hold their index: one card per outline.

    An outline holds a single card, so when two names were read inside one (a
    misread corner), the more confident name stays and its confidence drops.
    """
    kept: list[CardObservation] = []
    claimed: dict[int, int] = {}
    for card in sorted(cards, key=lambda seen: -seen.confidence):
        for number, quad in enumerate(outlines):
            if cv2.pointPolygonTest(np.array(quad, np.float32), card.index, False) < 0:
                continue
            if number in claimed:
                owner = kept[claimed[number]]
                doubt = 1.0 - card.confidence / 2 if card.card != owner.card else 1.0
                kept[claimed[number]] = replace(owner, confidence=owner.confidence * doubt)
                break
            centre = np.mean(quad, axis=0)
            claimed[number] = len(kept)
            kept.append(replace(card, center=(float(centre[0]), float(centre[1])), corners=quad))
            break
        else:
            kept.append(card)
    return kept


def at_opposite_corner(first: IndexCandidate, second: IndexCandidate) -> bool:
    """Whether ``second`` faces the other way from where the diagonally opposite index
    of ``first``'s card would be, allowing for decks of different proportions."""
    if float(np.dot(first.up, second.up)) > -0.8:
        return False
    up = np.array(first.up)
    right = np.array([-up[1], up[0]])
    offset = np.subtract(second.center, first.center)
    across, down = float(offset @ right), float(-(offset @ up))
    size = max(first.glyph_size, second.glyph_size)
    return (
        across > 0
        and DIAGONAL_SLOPE[0] * across < down < DIAGONAL_SLOPE[1] * across
        and DIAGONAL_GLYPHS[0] * size < float(np.hypot(across, down)) < DIAGONAL_GLYPHS[1] * size
    )


def same_card(first: IndexRead, second: IndexRead) -> bool:
    """Whether two reads can be one card: one index read twice (at one place whatever the
    names: a spot holds one index), or a card's two corners (of one rank; a suit misread at
    one corner still makes one card)."""
    gap = float(np.hypot(*np.subtract(first.candidate.center, second.candidate.center)))
    if gap <= SAME_PLACE * first.candidate.glyph_size:
        return True
    if first.reading.rank != second.reading.rank:
        return False
    if first.card == second.card and gap <= 2 * first.candidate.glyph_size:
        return True
    return at_opposite_corner(first.candidate, second.candidate)


def merge_corners(reads: Sequence[IndexRead]) -> list[CardObservation]:
    """Group reads that fit on one card into one observation each (the best read names it)."""
    groups: list[list[IndexRead]] = []
    for read in sorted(reads, key=lambda r: -r.reading.confidence):
        for group in groups:
            if same_card(group[0], read):
                group.append(read)
                break
        else:
            groups.append([read])
    return [observation_of(group) for group in groups]


def observation_of(group: Sequence[IndexRead]) -> CardObservation:
    """The observation of one card from its reads, the most confident first."""
    best = group[0]
    agreeing = [r for r in group if r.card == best.card]
    if len(agreeing) >= 2:
        centre = tuple(np.mean([r.candidate.center for r in agreeing[:2]], axis=0).tolist())
        miss = 1.0
        for read in agreeing[:2]:
            miss *= 1.0 - read.reading.confidence
        confidence = 1.0 - miss
    else:
        centre = estimated_card_centre(best.candidate)
        confidence = best.reading.confidence
    for other in group:
        if other.card != best.card:
            confidence *= 1.0 - other.reading.confidence / 2
    return CardObservation(
        card=best.card,
        center=(float(centre[0]), float(centre[1])),
        index=best.candidate.center,
        confidence=float(confidence),
        corners=estimated_outline(best.candidate),
    )


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
        self.gains = white_gains(frame_bgr)
        self.reads, self.cards = self.recognizer.read_at_scale(apply_gains(frame_bgr, self.gains))
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
        frame_bgr = apply_gains(frame_bgr, self.gains)
        grow = 2 * (self.margin // self.cell) + 1
        area = cv2.dilate(changed.astype(np.uint8), np.ones((grow, grow), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(area)
        height, width = frame_bgr.shape[:2]
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
        white_level = card_white_level(thumbnail_darkest(frame_bgr, self.cell))
        fresh = [
            read
            for region in regions
            for read in self.recognizer.read_indices(frame_bgr, region, white_level)
        ]
        self.reads = kept + fresh
        self.reference = np.where(area > 0, thumbnail, reference)
        self.cards = self.recognizer.cards_from(frame_bgr, self.reads)
        return self.cards


def inside_quad(point: tuple[float, float], quad: Quad) -> bool:
    """Whether ``point`` lies inside the outline ``quad``."""
    return cv2.pointPolygonTest(np.array(quad, np.float32), point, False) >= 0


def inside(point: tuple[float, float], region: tuple[int, int, int, int]) -> bool:
    """Whether ``point`` lies in ``region`` (x, y, width, height)."""
    x, y, width, height = region
    return x <= point[0] < x + width and y <= point[1] < y + height


def thumbnail_darkest(frame_bgr: np.ndarray, cell: int) -> np.ndarray:
    """The per-pixel darkest channel of a 1/``cell`` size copy of the frame."""
    height, width = frame_bgr.shape[:2]
    small = cv2.resize(frame_bgr, (max(1, width // cell), max(1, height // cell)))
    return np.asarray(small.min(axis=2))
