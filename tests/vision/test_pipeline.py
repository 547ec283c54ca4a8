"""The card reader's stages (vision.pipeline): each usable on its own, a frame through each once."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cards import CardRecognizer, default_model
from vision.closer_look import SAME_PLACE, closer_look, row_medians, surer_of_two
from vision.glyph_reads import IndexRead, read_glyphs
from vision.imageio import read_image
from vision.index_reader import SMALL_GLYPH, index_candidates
from vision.light import LitFrame
from vision.one_per_card import cards_of, index_reads, joker_templates
from vision.outline import find_card_outlines
from vision.pipeline import MIN_CONFIDENCE, STAGES

DEAL = Path("cards") / "photos-deals" / "deal1-md-sq.jpg"


@pytest.fixture(scope="module")
def frame(shared_data: Path) -> np.ndarray:
    """A 1280x720 frame cut from the middle of the first fanned deal, as the benchmark does."""
    photo = read_image(shared_data / DEAL)
    top = (photo.shape[0] - photo.shape[1] * 9 // 16) // 2
    crop = photo[top : top + photo.shape[1] * 9 // 16]
    return np.asarray(cv2.resize(crop, (1280, 720), interpolation=cv2.INTER_AREA))


def test_a_read_times_every_stage_and_gives_what_recognize_gives(frame: np.ndarray) -> None:
    recognizer = CardRecognizer()
    result = recognizer.read(frame)
    assert set(result.times) == set(STAGES)
    assert all(seconds >= 0 for seconds in result.times.values())
    assert sum(result.times.values()) > 0
    assert result.cards == recognizer.recognize(frame)
    assert len([card for card in result.cards if not card.unsure]) >= 25


def test_the_stages_called_one_by_one_make_the_same_cards(frame: np.ndarray) -> None:
    model, jokers = default_model(), joker_templates()
    lit = LitFrame.of(frame)
    outlines = find_card_outlines(lit.bgr, lit.darkest)
    found = index_candidates(lit)
    assert found.readable and all(c.suit_size >= 6 for c in found.readable)
    reads = read_glyphs(model, found.readable, MIN_CONFIDENCE)
    assert reads and all(r.reading.confidence >= MIN_CONFIDENCE for r in reads)
    reads = closer_look(lit, found, reads, outlines, model, MIN_CONFIDENCE)
    settled = index_reads(reads)
    blobs = [blob for r in settled for blob in (*r.candidate.rank_blobs, r.candidate.suit_blob)]
    assert len(blobs) == len(set(blobs))
    cards = cards_of(lit, settled, outlines, jokers, one_deck=True, sure_level=0.7)
    assert cards == CardRecognizer().read(frame).cards


def test_the_closer_look_reads_small_glyphs_from_their_enlarged_areas(frame: np.ndarray) -> None:
    far = np.asarray(cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
    model = default_model()
    lit = LitFrame.of(far)
    found = index_candidates(lit)
    assert found.small
    reads = read_glyphs(model, found.readable, MIN_CONFIDENCE)
    closer = closer_look(lit, found, reads, (), model, MIN_CONFIDENCE)
    enlarged = [r for r in closer if r.candidate.rank_blobs[0] < 0]
    assert enlarged and all(r.candidate.glyph_size < SMALL_GLYPH * 1.3 for r in enlarged)
    own = [r for r in closer if r.candidate.rank_blobs[0] >= 0]
    assert all(read in reads for read in own)
    assert {r.card for r in enlarged} & {r.card for r in reads}


def test_row_medians_are_nanmedians_bit_for_bit() -> None:
    rng = np.random.default_rng(7)
    for case in range(2000):
        values = rng.uniform(3, 60, rng.integers(1, 40))
        if case % 2:
            values = np.round(values / 6)
        chosen = rng.random((int(rng.integers(1, 30)), len(values))) < rng.random()
        expected = np.full(len(chosen), np.nan)
        some = chosen.any(axis=1)
        expected[some] = np.nanmedian(np.where(chosen[some], values, np.nan), axis=1)
        assert np.array_equal(row_medians(values, chosen), expected, equal_nan=True)


def pairwise_surer(
    first: list[IndexRead], closer: list[IndexRead], replaced: set[int]
) -> list[IndexRead]:
    """The closer look's rule read by read: at one place (within ``SAME_PLACE`` glyph sizes of
    the frame's own read) the surer stays, the frame's own on a tie; a replaced read with no
    closer read at its place goes."""

    def same_place(one: IndexRead, other: IndexRead) -> bool:
        gap = float(np.hypot(*np.subtract(one.candidate.center, other.candidate.center)))
        return gap <= SAME_PLACE * one.candidate.glyph_size

    def conf(read: IndexRead) -> float:
        return read.reading.confidence

    kept_first = [
        read
        for read in first
        if not any(same_place(read, c) and conf(c) > conf(read) for c in closer)
        and not (id(read.candidate) in replaced and not any(same_place(read, c) for c in closer))
    ]
    kept_closer = [
        read
        for read in closer
        if not any(same_place(own, read) and conf(own) >= conf(read) for own in first)
    ]
    return kept_first + kept_closer


def test_the_surer_of_two_reads_at_one_place_stays_as_read_by_read(frame: np.ndarray) -> None:
    lit = LitFrame.of(frame)
    reads = read_glyphs(default_model(), index_candidates(lit).readable, MIN_CONFIDENCE)
    rng = np.random.default_rng(11)
    for _ in range(300):
        made = [
            IndexRead(
                replace(read.candidate, rank_center=(x, y), suit_center=(x, y), glyph_size=size),
                replace(read.reading, confidence=float(rng.choice([0.8, 0.9, rng.random()]))),
            )
            for read, x, y, size in zip(
                rng.choice(np.array(reads, dtype=object), int(rng.integers(0, 12))),
                rng.uniform(0, 60, 12),
                rng.uniform(0, 60, 12),
                rng.uniform(4, 20, 12),
                strict=False,
            )
        ]
        cut = int(rng.integers(0, len(made) + 1))
        first, closer = made[:cut], made[cut:]
        replaced = {id(r.candidate) for r in first if rng.random() < 0.4}
        expected = pairwise_surer(first, closer, replaced)
        assert [id(r) for r in surer_of_two(first, closer, replaced)] == [id(r) for r in expected]
