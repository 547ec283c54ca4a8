"""The card reader on every labelled source, with the benchmark's scoring, and on the real
photos changed the way other tables and cameras change them (colour cast, warm lamp, hard
shadow): the figures each source reaches today are held, the goals where they are met.

Each source is read once per session (the felt photos take a few seconds).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from benchmarks.bench_cards import synthetic_shots, timed_frames, whole_table_scenes
from benchmarks.card_sources import (
    Shot,
    Tally,
    augmented,
    blue_cast,
    deal_shots,
    felt_shots,
    matches,
    misc_shots,
    single_shots,
    tally,
)
from vision.cards import CardRecognizer, once_per_name
from vision.light import balance, white_gains
from vision.observations import CardObservation
from vision.pipeline import STAGES


@pytest.fixture(scope="module")
def recognizer() -> CardRecognizer:
    return CardRecognizer()


@pytest.fixture(scope="module")
def felt(shared_data: Path) -> list[Shot]:
    return felt_shots(shared_data / "cards")


@pytest.fixture(scope="module")
def deals(shared_data: Path) -> list[Shot]:
    return deal_shots(shared_data / "cards")


@pytest.fixture(scope="module")
def singles(shared_data: Path) -> list[Shot]:
    return single_shots(shared_data / "cards")


def rates(result: Tally, recognizer: CardRecognizer) -> tuple[float, float]:
    found, reported, wrong = result.at(recognizer.sure_level)
    return found / result.legible, wrong / max(reported, 1)


def test_webcam_over_felt_with_chips(felt: list[Shot], recognizer: CardRecognizer) -> None:
    # Never trained on. 94.9 %, 0 wrong (94.5 % before small cards' corners were read
    # sharpened too, 91.9 % before unread corners were looked at for jumbo indices): short of
    # the 95 % goal (sideways kings, tens and small fives the glyph model rejects); the
    # wrong-report goal is met.
    found, wrong = rates(tally(felt, recognizer.recognize), recognizer)
    assert len(felt) == 20
    assert found >= 0.94
    assert wrong <= 0.01


def test_webcam_over_felt_under_a_shadow_band(felt: list[Shot], recognizer: CardRecognizer) -> None:
    # Cards in the shadow outlined by the local light, so their corners are read warped:
    # 97.4 %, 0.7 % wrong (91.2 % before; 85.7 % before the card-corner stage; 76.6 % with
    # ink at a fixed contrast, 1.4 % wrong).
    shaded = augmented(felt, "shadow-band")
    found, wrong = rates(tally(shaded, recognizer.recognize), recognizer)
    assert found >= 0.97
    assert wrong <= 0.01


def test_webcam_over_felt_blurred(felt: list[Shot], recognizer: CardRecognizer) -> None:
    # Gaussian blur of sigma 1.2-1.8 px: the frame is sharpened (vision.sharpness) and the
    # cards the corner strip leaves unsettled are read again with a wider ink window and a
    # lower contrast (SOFT_INK): 95.2 %, 0 wrong (74.7 %, 1.0 % wrong before).
    blurred = augmented(felt, "blur")
    found, wrong = rates(tally(blurred, recognizer.recognize), recognizer)
    assert found >= 0.95
    assert wrong <= 0.01


@pytest.mark.parametrize(
    ("photo", "card"),
    [
        # The Qs picture counts as 8 centre pips; its 19 px index is read at 0.97 and is
        # trusted (the pip check is for a far camera's small glyphs only).
        ("spade4.jpg", "Qs"),
        # A 36 px "K" in the queen's picture, and a 41 px "9" in the jack's, beside 20 px
        # indices: picture fragments, they no longer cast doubt on the card.
        ("spade2.jpg", "Qs"),
        ("spade4.jpg", "Js"),
        # A thin 7 turned about 45 degrees has a 17 px box; its spade lies 1.8 box sizes
        # away, 1.3 times the 7's own reach that way (PAIR_REACH).
        ("spade3.jpg", "7s"),
        ("spade4.jpg", "7s"),
        # Sideways tens whose 22 px "0" is 1.86 times the glyph size the 137 px card implies:
        # the closer look at the unread corner looks for glyphs up to twice that size.
        ("club3.jpg", "10c"),
        ("spade3.jpg", "10s"),
    ],
)
def test_cards_once_lost_are_read_sure(
    felt: list[Shot], recognizer: CardRecognizer, photo: str, card: str
) -> None:
    (shot,) = [shot for shot in felt if shot.name == photo]
    (labelled,) = [c for c in shot.cards if c.name == card]
    seen = [c for c in recognizer.recognize(shot.image) if c.card == card and not c.unsure]
    assert seen and matches(seen[0], labelled)


def test_single_card_on_green_and_on_leather(shared_data: Path, recognizer: CardRecognizer) -> None:
    shots = misc_shots(shared_data / "cards")
    assert rates(tally(shots, recognizer.recognize), recognizer) == (1.0, 0.0)


@pytest.mark.parametrize("change", ["blue-cast", "warm-lamp", "shadow-band", "blur"])
def test_deals_under_other_light_stay_at_the_goals(
    deals: list[Shot], recognizer: CardRecognizer, change: str
) -> None:
    # (Under a blue cast 94.9 %: one card under the goal since the learned model. Blurred
    # 94.2 % since blurred frames are sharpened, 89.9 % before.)
    found, wrong = rates(tally(augmented(deals, change), recognizer.recognize), recognizer)
    assert found >= 0.94
    assert wrong <= 0.01


@pytest.mark.parametrize("change", ["blue-cast", "shadow-band"])
def test_single_photos_under_a_cast_or_a_shadow(
    singles: list[Shot], recognizer: CardRecognizer, change: str
) -> None:
    found, wrong = rates(tally(augmented(singles, change), recognizer.recognize), recognizer)
    assert found >= 0.98
    assert wrong <= 0.02


def test_white_balance_undoes_a_blue_cast_on_a_real_photo(felt: list[Shot]) -> None:
    photo = felt[0].image
    cast = blue_cast(photo, np.random.default_rng(0))
    blue, green, red = white_gains(cast)
    assert blue == 1.0 and red > 1.5 * green > 1.5
    card_white = np.percentile(balance(cast).reshape(-1, 3), 99, axis=0)
    assert float(card_white.max() - card_white.min()) < 25


def test_one_deck_clash_keeps_both_reads_and_marks_the_weaker_unsure() -> None:
    right = CardObservation("7h", (100.0, 100.0), (80.0, 60.0), 0.9)
    misread = CardObservation("7h", (400.0, 100.0), (380.0, 60.0), 0.95)
    other = CardObservation("Kd", (700.0, 100.0), (680.0, 60.0), 0.8)
    assert once_per_name([right, misread, other]) == [
        misread,
        right.__class__(**{**right.__dict__, "unsure": True}),
        other,
    ]


def test_low_confidence_reads_are_reported_unsure(deals: list[Shot]) -> None:
    everything = CardRecognizer(sure_level=0.0).recognize(deals[0].image)
    strict = CardRecognizer(sure_level=0.995).recognize(deals[0].image)
    assert [replace(seen, unsure=False) for seen in strict] == [
        replace(seen, unsure=False) for seen in everything
    ]
    assert [seen.unsure for seen in strict] == [
        seen.unsure or seen.confidence < 0.995 for seen in everything
    ]
    assert any(seen.unsure for seen in strict) and not all(seen.unsure for seen in strict)


def test_a_camera_that_sees_the_whole_table_at_1080p(recognizer: CardRecognizer) -> None:
    # Cards 70 px wide, index glyphs 7-9 px: 92.2 %, 0 wrong since their corners are read
    # sharpened as well (64.1 % with 1 wrong of 42, a 5d, before; shrunk to 1600 px as at
    # first, 5 of 64).
    shots = synthetic_shots(whole_table_scenes())
    assert shots[0].image.shape == (1080, 1920, 3)
    found, wrong = rates(tally(shots, recognizer.recognize), recognizer)
    assert found >= 0.90
    assert wrong == 0


def test_the_speed_figures_cover_the_felt_webcam_frames_as_the_camera_gave_them(
    shared_data: Path, recognizer: CardRecognizer
) -> None:
    frames = timed_frames(shared_data / "cards")
    names = [name for name, _ in frames]
    assert names == ["deal1", "deal2", "deal3", "felt club1", "felt heart3", "felt surface4"]
    assert [frame.shape for _, frame in frames] == [(720, 1280, 3)] * 3 + [(800, 1280, 3)] * 3
    for _, frame in frames[3:]:
        # Busy frames: 11-16 cards read sure, 13-16 whole cards outlined.
        result = recognizer.read(frame)
        assert set(result.times) == set(STAGES)
        assert len([card for card in result.cards if not card.unsure]) >= 11
        assert len(result.outlines) >= 13
