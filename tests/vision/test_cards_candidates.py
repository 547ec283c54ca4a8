"""The index-candidate stage: which ink is found and which rank pairs with which suit."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from benchmarks.card_sources import augmented, deal_shots
from vision.cards import CardRecognizer
from vision.glyphs import RED_INK
from vision.index_reader import PAIR_DISTANCE, find_ink_blobs, index_candidates
from vision.light import LitFrame
from vision.pipeline import lit_frame


def paper(width: int = 480, height: int = 320) -> np.ndarray:
    return np.full((height, width, 3), 235, np.uint8)


def rank_and_suit(
    frame: np.ndarray, top: tuple[int, int], way: tuple[float, float], distance: int
) -> float:
    """A thin stroke 24 px long from ``top`` along ``way`` (a rank, e.g. a 7's stem), and a
    round pip ``distance`` px beyond its centre the same way; returns the blob size the
    reader measures (the longest side of its box)."""
    x, y = top
    dx, dy = np.array(way) / np.hypot(*way)
    end = (round(x + 24 * dx), round(y + 24 * dy))
    cv2.line(frame, top, end, (20, 20, 20), 2)
    centre = ((x + end[0]) / 2, (y + end[1]) / 2)
    spot = (round(centre[0] + distance * dx), round(centre[1] + distance * dy))
    cv2.circle(frame, spot, 5, (20, 20, 20), -1)
    blobs = find_ink_blobs(frame, None, 120.0)
    return float(blobs.sizes[np.argmin(np.hypot(*(blobs.centers - centre).T))])


def test_a_rank_on_the_slant_pairs_with_a_suit_beyond_its_box() -> None:
    # Along the slant the stroke reaches about 27 px, its box is only 20 px: the pip lies
    # 1.6 box sizes away but 1.2 stroke lengths.
    frame = paper()
    size = rank_and_suit(frame, (100, 100), (1.0, 1.0), 32)
    assert 32 / size > PAIR_DISTANCE[1]
    found = index_candidates(LitFrame(frame)).all
    assert [(round(c.up[0], 1), round(c.up[1], 1)) for c in found] == [(-0.7, -0.7)]


def test_an_upright_rank_does_not_pair_that_far() -> None:
    # Upright the box is as long as the stroke (27 px): 1.6 sizes is too far.
    frame = paper()
    size = rank_and_suit(frame, (200, 100), (0.0, 1.0), 44)
    assert 44 / size > PAIR_DISTANCE[1]
    assert index_candidates(LitFrame(frame)).all == []


def test_faint_print_in_a_shadow_is_still_ink() -> None:
    # A thin stroke 30 levels under the card white in full light, 15 under it in a shadow
    # at half the light: both are ink (with a fixed 18 levels the shaded one was not).
    frame = paper(480, 160)
    frame[:, 240:] = 118
    for x, level in ((100, 205), (340, 103)):
        cv2.rectangle(frame, (x, 60), (x + 2, 79), (level, level, level), -1)
    lit = LitFrame(frame)
    blobs = find_ink_blobs(frame, None, lit.white_level)
    assert sorted(round(x / 100) for x, _ in blobs.centers) == [1, 3]


def test_red_ink_in_a_shadow_is_judged_as_in_full_light(shared_data: Path) -> None:
    # deal3 under the benchmark's shadow band: the 4d's diamond, at about half the light, is
    # under BLACK_INK redder than grey, and its index read 4s at 0.00; its redness scaled by
    # how far the local white threshold drops there (InkBlobs.shades) is red.
    shaded = augmented(deal_shots(shared_data / "cards"), "shadow-band")
    [shot] = [s for s in shaded if s.name.startswith("deal3")]
    index = (488.0, 1072.0)
    lit = lit_frame(shot.image, None)
    near = [c for c in index_candidates(lit).all if np.hypot(*np.subtract(c.center, index)) < 25]
    assert max(c.redness for c in near) >= RED_INK
    cards = CardRecognizer().recognize(shot.image)
    assert any(
        c.card == "4d" and not c.unsure and np.hypot(*np.subtract(c.index, index)) < 40
        for c in cards
    )
