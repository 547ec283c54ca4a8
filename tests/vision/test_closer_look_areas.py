"""The closer look's array steps give what their one-point-at-a-time definitions give, on a
felt webcam photo (13 small cards: every card's corners looked at)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cards import CardRecognizer
from vision.closer_look import (
    CORNER_READ,
    INDEX_ALONG_DIAGONAL,
    areas_holding,
    small_cards,
    unread_corners,
)
from vision.glyph_reads import IndexRead
from vision.imageio import read_image
from vision.index_reader import CARD_PER_GLYPH, SMALL_GLYPH, Region, Spot, area_of
from vision.outline import Quad

FELT = Path("cards") / "photos-webcam-felt" / "club1.jpg"


@pytest.fixture(scope="module")
def felt(shared_data: Path) -> tuple[list[Quad], list[IndexRead], tuple[int, ...]]:
    """club1's whole-card outlines, settled index reads and frame shape."""
    photo = read_image(shared_data / FELT)
    result = CardRecognizer().read(photo)
    return result.outlines, result.reads, photo.shape


def corner_spots(quad: Quad) -> list[Spot]:
    """A card's four index spots, one corner at a time (what ``small_cards`` gives)."""
    corners = np.array(quad, np.float64)
    glyph = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).max())
    glyph /= CARD_PER_GLYPH
    centre = corners.mean(axis=0)
    spots = []
    for corner in corners:
        x, y = corner + INDEX_ALONG_DIAGONAL * (centre - corner)
        spots.append(((float(x), float(y)), glyph))
    return spots


def test_small_cards_are_the_corner_spots_of_each_card(
    felt: tuple[list[Quad], list[IndexRead], tuple[int, ...]],
) -> None:
    outlines, _, _ = felt
    cards = small_cards(outlines)
    assert len(cards) >= 10
    expected = [(q, corner_spots(q)) for q in outlines if corner_spots(q)[0][1] < SMALL_GLYPH]
    assert cards == expected


def test_unread_corners_are_those_with_no_read_near(
    felt: tuple[list[Quad], list[IndexRead], tuple[int, ...]],
) -> None:
    outlines, reads, _ = felt
    spots = [spot for _, card_spots in small_cards(outlines) for spot in card_spots]
    centres = np.array([r.candidate.center for r in reads])
    expected = [
        (centre, glyph)
        for centre, glyph in spots
        if not (np.hypot(*(centres - centre).T) < CORNER_READ * CARD_PER_GLYPH * glyph).any()
    ]
    unread = unread_corners(spots, reads)
    assert 0 < len(unread) < len(spots)
    assert unread == expected
    assert unread_corners(spots, []) == spots


def test_areas_holding_is_area_of_for_every_point(
    felt: tuple[list[Quad], list[IndexRead], tuple[int, ...]],
) -> None:
    outlines, reads, shape = felt
    spots = [spot for _, card_spots in small_cards(outlines) for spot in card_spots]
    # Areas around every corner spot, and the read centres (in an area or not) as points.
    areas: list[Region] = [
        (int(x) - 20, int(y) - 20, 40, 40) for (x, y), _ in spots if x > 20 and y > 20
    ]
    points = [centre for centre, _ in spots] + [r.candidate.center for r in reads]
    points += [(float(shape[1] - 1), float(shape[0] - 1))]
    found = areas_holding(points, areas).tolist()
    expected = [area_of(point, areas) for point in points]
    assert found == [-1 if area is None else area for area in expected]
    assert -1 in found and any(area > 0 for area in found)
