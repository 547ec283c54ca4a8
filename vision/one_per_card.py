"""The last stage of the card reader: one observation per physical card.

The index reads of a frame (:mod:`vision.glyph_reads`) are settled and merged: where the
frame's own read and the closer look's read name one index the more confident stays; no
ink blob serves two reads; a read much smaller than those around it is a picture fragment;
reads on card backs, and court ranks read on cards that show centre pips, are dropped; a
card's two corners, and one corner read twice, make one card; a whole-card outline holds
one card; with one deck a name is reported sure once; whole jokers are found by their
picture.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.closer_look import SAME_PLACE, dwarfed, oversized
from vision.glyph_reads import IndexRead
from vision.index_reader import CARD_PER_GLYPH, SMALL_GLYPH, IndexCandidate
from vision.light import LitFrame
from vision.observations import CardObservation
from vision.outline import ASPECT_RANGE, Quad, aspect, inside_quad

#: From one index to the opposite one, in the first index's upright frame: the slope
#: (down over across) and the length in glyph sizes that decks from square-ish poker
#: to narrow bridge cards give.
DIAGONAL_SLOPE = (1.0, 2.2)
DIAGONAL_GLYPHS = (7.0, 17.0)
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


def index_reads(reads: Sequence[IndexRead]) -> list[IndexRead]:
    """The reads of a frame settled: no ink blob in two reads (the most confident keep
    theirs), no picture fragments: much smaller than the reads around them
    (:func:`vision.closer_look.dwarfed`), then much larger (:func:`oversized`)."""
    reads = exclusive_reads(reads)
    tiny = dwarfed([r.candidate for r in reads], reads)
    reads = [read for read, fragment in zip(reads, tiny, strict=True) if not fragment]
    return [read for read, fragment in zip(reads, oversized(reads), strict=True) if not fragment]


def cards_of(
    lit: LitFrame,
    reads: Sequence[IndexRead],
    outlines: Sequence[Quad],
    jokers: np.ndarray,
    one_deck: bool,
    sure_level: float,
) -> list[CardObservation]:
    """The observations of a frame whose settled index reads are ``reads``: backs and centre
    pips checked, corners merged, fitted to the ``outlines``, the one-deck rule (with
    ``one_deck``), the whole jokers (``jokers``: :func:`joker_templates`), and observations
    under ``sure_level`` (jokers too) marked unsure."""
    outlines = single_cards(outlines, reads)
    # The grey picture is made only where whole cards are (backs, pips, jokers).
    grey = grey_around(lit.bgr, outlines) if outlines else None
    pictures = card_images(grey, outlines) if grey is not None else []
    backs = [
        quad
        for quad, picture in zip(outlines, pictures, strict=True)
        if white_share(picture) < BACK_WHITE
    ]
    reads = [r for r in reads if not any(inside_quad(r.candidate.center, q) for q in backs)]
    reads = pip_checked(grey, reads, outlines) if grey is not None else list(reads)
    cards = one_per_outline(merge_corners(reads), outlines, reads)
    if one_deck:
        cards = once_per_name(cards)
    cards += find_jokers(outlines, pictures, reads, jokers)
    return [replace(card, unsure=True) if card.confidence < sure_level else card for card in cards]


def single_cards(outlines: Sequence[Quad], reads: Sequence[IndexRead]) -> list[Quad]:
    """The ``outlines`` that hold one card: those longer than a card seen straight
    (``ASPECT_RANGE``: a card across a tilted camera's view, or a cascade of overlapping
    cards) only while every read inside names one card."""
    kept: list[Quad] = []
    for quad in outlines:
        if aspect(quad) > ASPECT_RANGE[1]:
            names = {r.card for r in reads if inside_quad(r.candidate.center, quad)}
            if len(names) > 1:
                continue
        kept.append(quad)
    return kept


def find_jokers(
    outlines: Sequence[Quad],
    pictures: Sequence[np.ndarray],
    reads: Sequence[IndexRead],
    jokers: np.ndarray,
) -> list[CardObservation]:
    """Whole cards (outline visible, no index among ``reads``, mostly blank face) whose
    picture matches one of ``jokers`` (the shipped pictures are those of the two CC0
    designs). ``pictures`` are the :func:`card_images` of the ``outlines``."""
    found: list[CardObservation] = []
    for quad, picture in zip(outlines, pictures, strict=True):
        if any(inside_quad(r.candidate.center, quad) for r in reads):
            continue
        score = joker_score(picture, jokers)
        if score >= JOKER_MATCH and white_share(picture) >= JOKER_WHITE:
            centre = np.mean(quad, axis=0)
            point = (float(centre[0]), float(centre[1]))
            confidence = joker_confidence(score)
            found.append(CardObservation(JOKER, point, point, confidence, corners=quad))
    return found


def joker_confidence(score: float) -> float:
    """The confidence of a joker whose picture correlates ``score`` with a joker picture: 0
    at ``JOKER_MATCH`` (a match at the threshold is no evidence), 1 at a perfect match.
    Reported as the correlation itself, a court card's blurred picture matched at 0.54 ranked
    with glyph reads of 0.54, which are never reported (the felt webcam's Kh, heart3/4).

    >>> joker_confidence(0.5), round(joker_confidence(0.98), 2)
    (0.0, 0.96)
    """
    return (score - JOKER_MATCH) / (1.0 - JOKER_MATCH)


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


def card_images(image: np.ndarray, outlines: Sequence[Quad]) -> list[np.ndarray]:
    """The card inside each outline as a small grey image (upright or upside down), from
    ``image`` (grey or BGR)."""
    if not outlines:
        return []
    width, height = JOKER_SIZE
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    grey = grey_of(image)
    return [
        cv2.warpPerspective(
            grey,
            cv2.getPerspectiveTransform(np.array(quad, np.float32), target),
            JOKER_SIZE,
            flags=cv2.INTER_LINEAR,
        )
        for quad in outlines
    ]


#: Pixels around an outline's bounding box that :func:`grey_around` makes grey too.
AROUND = 2


def grey_around(frame_bgr: np.ndarray, outlines: Sequence[Quad]) -> np.ndarray:
    """The frame in grey inside the bounding boxes of ``outlines`` (``AROUND`` pixels wider
    each way), zero elsewhere: every pixel that the warps of :func:`card_images` and
    :func:`centre_pips` read (bilinear: the pixel a point of the outline falls in and the
    next one right and down), at a fraction of the cost of the whole frame in grey.

    >>> frame = np.full((40, 60, 3), (10, 200, 90), np.uint8)
    >>> grey = grey_around(frame, [((10.0, 10.0), (20.0, 10.0), (20.0, 24.0), (10.0, 24.0))])
    >>> grey[8, 8].item(), grey[26, 22].item(), grey[7, 8].item(), grey[27, 23].item()
    (145, 145, 0, 0)
    """
    height, width = frame_bgr.shape[:2]
    grey = np.zeros((height, width), np.uint8)
    for quad in outlines:
        corners = np.array(quad, np.float64)
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(np.int64) - AROUND, 0).tolist()
        x1, y1 = (np.ceil(corners.max(axis=0)).astype(np.int64) + AROUND + 1).tolist()
        grey[y0:y1, x0:x1] = cv2.cvtColor(frame_bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    return grey


def grey_of(image: np.ndarray) -> np.ndarray:
    """``image`` in grey (as it is if it is grey already)."""
    return image if image.ndim == 2 else np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))


def white_share(card_grey: np.ndarray) -> float:
    """The share of a card image that is blank card face: near the brightest of its
    surroundings (``BLANK_WINDOW`` pixels), so a shadow across the card does not make the
    shaded half count as print, and not in the dark (under ``BLANK_FLOOR`` of the card's
    brightest)."""
    local = cv2.dilate(card_grey, np.ones((BLANK_WINDOW, BLANK_WINDOW), np.uint8))
    bright = percentile_of(card_grey, 95)
    return float(np.mean((card_grey >= 0.8 * local) & (local >= BLANK_FLOOR * bright)))


def percentile_of(grey: np.ndarray, q: float) -> float:
    """``np.percentile(grey, q)`` (linear) of a ``uint8`` image, from its histogram: the same
    value at a fraction of the cost on a small card image (numpy's own is 40 us there).

    >>> grey = np.random.default_rng(5).integers(0, 256, (52, 36), dtype=np.uint8)
    >>> all(percentile_of(grey, q) == np.percentile(grey, q) for q in (0, 33, 95, 99.9, 100))
    True
    """
    position = (grey.size - 1) * (q / 100)
    below = math.floor(position)
    cumulative = np.cumsum(np.bincount(grey.ravel(), minlength=256))
    # The sorted pixels' values at ``below`` and the next place (numpy's lerp of the two).
    low, high = np.searchsorted(cumulative, [below, min(below + 1, grey.size - 1)], "right")
    gamma, step = position - below, float(high - low)
    return float(high) - step * (1 - gamma) if gamma >= 0.5 else float(low) + step * gamma


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
    (up_x, up_y), (x, y) = candidate.up, candidate.center
    right_x, right_y = -up_y, up_x
    down, across = 0.5 - INDEX_OFFSET[1], 0.5 - INDEX_OFFSET[0]
    return (
        x - up_x * card_height * down + right_x * card_width * across,
        y - up_y * card_height * down + right_y * card_width * across,
    )


def estimated_outline(candidate: IndexCandidate) -> Quad:
    """The card's outline judged from one corner index: clockwise from the index's corner.

    >>> from vision.index_reader import IndexCandidate
    >>> corner = IndexCandidate((10.0, 10.0), (10.0, 20.0), (0.0, -1.0), 10.0, 6.0,
    ...                         np.zeros(1), np.zeros(1), 0.0, (1,), 2)
    >>> [tuple(round(v, 1) for v in point) for point in estimated_outline(corner)]
    [(3.0, 0.0), (81.2, 0.0), (81.2, 115.0), (3.0, 115.0)]
    """
    card_height = CARD_PER_GLYPH * candidate.glyph_size
    card_width = CARD_ASPECT * card_height
    (up_x, up_y), (x, y) = candidate.up, candidate.center
    right_x, right_y = -up_y, up_x
    first_x = x - right_x * card_width * INDEX_OFFSET[0] + up_x * card_height * INDEX_OFFSET[1]
    first_y = y - right_y * card_width * INDEX_OFFSET[0] + up_y * card_height * INDEX_OFFSET[1]
    second = (first_x + right_x * card_width, first_y + right_y * card_width)
    third = (second[0] - up_x * card_height, second[1] - up_y * card_height)
    return (
        (first_x, first_y),
        second,
        third,
        (first_x - up_x * card_height, first_y - up_y * card_height),
    )


def pip_checked(
    image: np.ndarray, reads: Sequence[IndexRead], outlines: Sequence[Quad]
) -> list[IndexRead]:
    """``reads`` without those of a court rank (J, Q, K) with small glyphs (under
    ``SMALL_GLYPH`` px) inside a whole card (outline) that shows 2-10 centre pips in
    ``image`` (grey or BGR): a far camera's 6-9 px "10" can look like a J, while its
    6-8 px pips are plain. Larger glyphs are read well enough to trust, and a court
    picture can split into blobs of one size (the felt webcam deck's Qs counts 8).
    (Number ranks are not checked against the count: two pips blurred into one made an 8
    count 7.)"""
    grey = grey_of(image)
    counts: dict[int, int | None] = {}
    kept: list[IndexRead] = []
    for read in reads:
        if read.candidate.glyph_size >= SMALL_GLYPH or read.reading.rank not in COURT_RANKS:
            kept.append(read)
            continue
        holder = next(
            (n for n, quad in enumerate(outlines) if inside_quad(read.candidate.center, quad)),
            None,
        )
        if holder is not None and holder not in counts:
            counts[holder] = centre_pips(grey, outlines[holder])
        if holder is None or counts[holder] is None:
            kept.append(read)
    return kept


def centre_pips(image: np.ndarray, quad: Quad) -> int | None:
    """How many centre pips the whole card ``quad`` shows in ``image`` (grey or BGR): 2-10,
    or None if its middle holds anything else (a picture: court cards, jokers; one big pip:
    aces; nothing)."""
    corners = np.array(quad, np.float32)
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    if sides[0] > sides[1]:
        corners = np.roll(corners, -1, axis=0)
    width, height = PIP_CARD_SIZE
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    card = cv2.warpPerspective(
        grey_of(image),
        cv2.getPerspectiveTransform(corners, target),
        PIP_CARD_SIZE,
        flags=cv2.INTER_LINEAR,
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
    cards: Sequence[CardObservation], outlines: Sequence[Quad], reads: Sequence[IndexRead]
) -> list[CardObservation]:
    """Cards fitted to the measured outlines that hold their index: one card per outline.

    An outline holds a single card, so when two names were read inside one (a
    misread corner), the more confident name stays and its confidence drops, unless
    both of its corners were read (among ``reads``, :func:`both_corners`): a card has
    two corner indices, so a third read inside is a fragment of its picture.
    """
    kept: list[CardObservation] = []
    claimed: dict[int, int] = {}
    for card in sorted(cards, key=lambda seen: -seen.confidence):
        for number, quad in enumerate(outlines):
            if not inside_quad(card.index, quad):
                continue
            if number in claimed:
                owner = kept[claimed[number]]
                rival = card.card != owner.card and not both_corners(owner.card, quad, reads)
                doubt = 1.0 - card.confidence / 2 if rival else 1.0
                kept[claimed[number]] = replace(owner, confidence=owner.confidence * doubt)
                break
            centre = np.mean(quad, axis=0)
            claimed[number] = len(kept)
            kept.append(replace(card, center=(float(centre[0]), float(centre[1])), corners=quad))
            break
        else:
            kept.append(card)
    return kept


def both_corners(card: str, quad: Quad, reads: Sequence[IndexRead]) -> bool:
    """Whether ``card`` was read at two places inside ``quad`` at least
    ``DIAGONAL_GLYPHS[0]`` glyph sizes apart: its two corner indices."""
    places = [
        r.candidate for r in reads if r.card == card and inside_quad(r.candidate.center, quad)
    ]
    return any(
        np.hypot(*np.subtract(one.center, other.center))
        >= DIAGONAL_GLYPHS[0] * max(one.glyph_size, other.glyph_size)
        for n, one in enumerate(places)
        for other in places[n + 1 :]
    )


def same_cards(reads: Sequence[IndexRead]) -> np.ndarray:
    """``[i, j]``: whether ``reads[j]`` can be on the card of ``reads[i]``: one index read
    twice (within ``SAME_PLACE`` of the first's glyph size, whatever the names: a spot holds
    one index), the same name read twice within two glyph sizes, or the card's opposite
    corner (:func:`opposite_corners`; of one rank: a suit misread at one corner still
    makes one card)."""
    centres = np.array([r.candidate.center for r in reads], np.float64).reshape(-1, 2)
    glyphs = np.array([r.candidate.glyph_size for r in reads], np.float64)
    ups = np.array([r.candidate.up for r in reads], np.float64).reshape(-1, 2)
    ranks = np.array([r.reading.rank for r in reads])
    names = np.array([r.card for r in reads])
    gaps = np.linalg.norm(centres[None, :, :] - centres[:, None, :], axis=2)
    same_rank = ranks[:, None] == ranks[None, :]
    twice = (names[:, None] == names[None, :]) & (gaps <= 2 * glyphs[:, None])
    opposite = opposite_corners(centres, ups, glyphs)
    return (gaps <= SAME_PLACE * glyphs[:, None]) | (same_rank & (twice | opposite))  # type: ignore[no-any-return]


def opposite_corners(centres: np.ndarray, ups: np.ndarray, glyphs: np.ndarray) -> np.ndarray:
    """``[i, j]``: whether index ``j`` faces the other way from ``i`` where the diagonally
    opposite index of ``i``'s card would be, allowing for decks of different proportions.

    >>> opposite_corners(np.array([[0.0, 0], [60, 100]]), np.array([[0.0, -1], [0, 1]]),
    ...                  np.array([10.0, 10]))
    array([[False,  True],
           [ True, False]])
    """
    offsets = centres[None, :, :] - centres[:, None, :]
    up_x, up_y = ups[:, 0:1], ups[:, 1:2]
    across = offsets[:, :, 1] * up_x - offsets[:, :, 0] * up_y
    down = -(offsets[:, :, 0] * up_x + offsets[:, :, 1] * up_y)
    size = np.maximum(glyphs[:, None], glyphs[None, :])
    length = np.hypot(across, down)
    return (  # type: ignore[no-any-return]
        (ups @ ups.T <= -0.8)
        & (across > 0)
        & (DIAGONAL_SLOPE[0] * across < down)
        & (down < DIAGONAL_SLOPE[1] * across)
        & (DIAGONAL_GLYPHS[0] * size < length)
        & (length < DIAGONAL_GLYPHS[1] * size)
    )


def merge_corners(reads: Sequence[IndexRead]) -> list[CardObservation]:
    """Group reads that fit on one card into one observation each (the best read names it):
    each read, the most confident first, joins the first group whose best read it can share
    a card with (:func:`same_cards`)."""
    ordered = sorted(reads, key=lambda r: -r.reading.confidence)
    # Rows of Python bools: a few dozen reads are looked up faster in lists than in numpy.
    fits: list[list[bool]] = same_cards(ordered).tolist()
    heads: list[int] = []
    groups: list[list[IndexRead]] = []
    for position, read in enumerate(ordered):
        joined = next((n for n, head in enumerate(heads) if fits[head][position]), None)
        if joined is None:
            heads.append(position)
            groups.append([read])
        else:
            groups[joined].append(read)
    return [observation_of(group) for group in groups]


def observation_of(group: Sequence[IndexRead]) -> CardObservation:
    """The observation of one card from its reads, the most confident first."""
    best = group[0]
    agreeing = [r for r in group if r.card == best.card]
    if len(agreeing) >= 2:
        (x0, y0), (x1, y1) = (r.candidate.center for r in agreeing[:2])
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
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
