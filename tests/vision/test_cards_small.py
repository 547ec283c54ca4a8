"""Small glyphs (camera far from the table), glyph holes, fragments, and the model file format."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.image_files import image_at
from tests.vision.test_cards_parts import read_at
from vision.cards import CardRecognizer, centre_pips, pip_checked
from vision.closer_look import longest_glyphs, sharpened_areas, small_cards
from vision.glyphs import GlyphModel, NetModel
from vision.imageio import read_image
from vision.index_reader import (
    ENLARGE,
    ENLARGED_SIZES,
    SMALL_GLYPH,
    BlobPixels,
    area_of,
    enlarged_area,
    find_ink_blobs,
    small_glyph_areas,
)
from vision.outline import Quad, find_card_outlines

FACES = Path("cards") / "faces-cc0"


def card_on_table(shared_data: Path, name: str, card_height: float, angle: float) -> np.ndarray:
    """A CC0 face ``card_height`` pixels tall, turned by ``angle``, on a 1280x720 green cloth."""
    card = image_at(shared_data / FACES / name, cv2.IMREAD_UNCHANGED)
    scale = card_height / card.shape[0]
    turn = cv2.getRotationMatrix2D((card.shape[1] / 2, card.shape[0] / 2), angle, scale)
    turn[:, 2] += (640 - card.shape[1] / 2, 360 - card.shape[0] / 2)
    colour = cv2.warpAffine(card[:, :, :3], turn, (1280, 720), flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(card[:, :, 3], turn, (1280, 720)).astype(np.float32)[:, :, None] / 255
    table = np.zeros((720, 1280, 3), np.float32)
    table[:] = (40, 110, 50)
    scene = table * (1 - alpha) + colour.astype(np.float32) * alpha
    return np.clip(cv2.GaussianBlur(scene, (0, 0), 0.6), 0, 255).astype(np.uint8)


def test_cards_far_from_the_camera_are_read_from_enlarged_corners(shared_data: Path) -> None:
    # 110 px tall: a camera about 60 cm above the table at 1280x720; index glyphs ~9 px.
    recognizer = CardRecognizer()
    right = wrong = 0
    for name, card in (("Ck.png", "Kc"), ("D10.png", "10d"), ("four-colour/8C.png", "8c")):
        for angle in (0.0, 63.0, 120.0, 180.0):
            seen = [
                c.card for c in recognizer.recognize(card_on_table(shared_data, name, 110, angle))
            ]
            right += seen == [card]
            wrong += any(other != card for other in seen)
    assert right >= 10
    assert wrong == 0


def upright_card(x: float, y: float, height: float) -> Quad:
    """The outline of an upright card ``height`` pixels tall with its top left at (x, y)."""
    width = 0.68 * height
    return ((x, y), (x + width, y), (x + width, y + height), (x, y + height))


def test_only_corners_of_cards_with_glyphs_under_nine_pixels_are_sharpened() -> None:
    # A 98 px card (the whole table at 1080p, 8.5 px glyphs) and a 108 px one (the felt
    # webcam's nearer cards are 108-120 px: jumbo indices, not thin strokes).
    cards = small_cards([upright_card(100, 100, 98), upright_card(400, 300, 108)])
    corners = [spot for _, spots in cards for spot in spots]
    areas = small_glyph_areas(corners, (720, 1280))
    sharp = sharpened_areas(areas, corners, cards, [])
    assert sharp == {area_of(centre, areas) for centre, _ in cards[0][1]}
    assert not sharp & {area_of(centre, areas) for centre, _ in cards[1][1]}


def test_corners_of_a_card_that_shows_jumbo_indices_are_not_sharpened() -> None:
    # A rank twice the glyph size the 98 px card implies, read at its top left corner: the
    # card's other corners are blank or hold an index as large, read without sharpening.
    cards = small_cards([upright_card(100, 100, 98)])
    corners = cards[0][1]
    areas = small_glyph_areas(corners, (720, 1280))
    ordinary, jumbo = read_at("9c", corners[0][0]), read_at("9c", corners[0][0])
    jumbo = replace(jumbo, candidate=replace(jumbo.candidate, glyph_size=2 * corners[0][1]))
    ordinary = replace(ordinary, candidate=replace(ordinary.candidate, glyph_size=corners[0][1]))
    assert sharpened_areas(areas, corners[1:], cards, [jumbo]) == set()
    assert sharpened_areas(areas, corners[1:], cards, [ordinary]) == {
        area_of(centre, areas) for centre, _ in corners[1:]
    }


def test_felt_cards_are_not_doubted_by_their_sharpened_blank_corners(shared_data: Path) -> None:
    # club1: sharpened, a blank corner of the 10c read "Kc" at 0.77, a second name inside
    # its outline, and the 10c and 9c were reported at 0.61 and 0.58 (under the sure level).
    photo = read_image(shared_data / "cards" / "photos-webcam-felt" / "club1.jpg")
    seen = {c.card: c for c in CardRecognizer().recognize(photo)}
    for card, index in (("10c", (869, 393)), ("9c", (809, 455))):
        assert not seen[card].unsure and seen[card].confidence > 0.9
        # Reported from either legible corner: the labelled index lies on its outline.
        outline = np.array(seen[card].corners, np.float32)
        assert cv2.pointPolygonTest(outline, index, False) >= 0


def test_shadowed_card_white_is_not_sharpened() -> None:
    # Card white at 200 on the left, in a shadow at half the light (90) on the right, a thin
    # grey stroke in each: only the stroke in full light is sharpened (darker than plain).
    crop = np.full((30, 60, 3), 200, np.uint8)
    crop[:, 30:] = 90
    crop[5:25, 14:16] = 150
    crop[5:25, 44:46] = 68
    plain, sharp = enlarged_area(crop), enlarged_area(crop, lit_above=120.0)
    assert sharp[45, 45].max() < plain[45, 45].min() - 20
    assert np.array_equal(sharp[:, 3 * 30 + 20 :], plain[:, 3 * 30 + 20 :])
    assert np.array_equal(enlarged_area(crop, lit_above=None), plain)


def test_only_small_whole_cards_get_a_look_at_their_corners() -> None:
    small = ((100.0, 100.0), (160.0, 100.0), (160.0, 190.0), (100.0, 190.0))
    [(_, spots)] = small_cards([small])
    assert len(spots) == 4
    for (x, y), glyph in spots:
        assert glyph == pytest.approx(90 / 11.5)
        assert 100 < x < 160 and 100 < y < 190
        assert min(abs(x - 100), abs(x - 160)) < 10 and min(abs(y - 100), abs(y - 190)) < 15
    large = ((300.0, 300.0), (480.0, 300.0), (480.0, 570.0), (300.0, 570.0))
    assert SMALL_GLYPH <= 270 / 11.5
    assert small_cards([large]) == []


def test_an_unread_corner_is_looked_at_for_jumbo_glyphs_too() -> None:
    # Two areas: one around a small candidate only, one holding a corner of a 137 px card
    # (glyph 11.9 px implied; the felt deck's sideways "0" is 22 px, 66 px enlarged).
    areas = [(0, 0, 40, 40), (100, 100, 60, 60)]
    corner = ((120.0, 130.0), 137 / 11.5)
    small, jumbo = longest_glyphs(areas, [corner])
    assert small == ENLARGED_SIZES[1]
    assert jumbo >= 22 * ENLARGE > ENLARGED_SIZES[1]
    assert longest_glyphs(areas, []) == [ENLARGED_SIZES[1]] * 2


def test_glyph_holes_tell_a_five_from_a_six_and_an_eight() -> None:
    page = np.full((80, 200, 3), 255, np.uint8)  # index-sized glyphs, about 21 px tall
    for n, text in enumerate("568"):
        cv2.putText(page, text, (20 + 50 * n, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 0), 3)
    blobs = find_ink_blobs(page)
    order = np.argsort(blobs.centers[:, 0])
    assert BlobPixels(blobs, order).holes.tolist() == [0, 1, 2]


def test_a_fragment_much_smaller_than_the_indices_around_it_is_not_reported(
    shared_data: Path,
) -> None:
    # Deal 1: in the king of clubs' picture a 9 px pair of strokes looks like an ace.
    photo = image_at(shared_data / "cards" / "photos-deals" / "deal1-md-sq.jpg")
    reads = CardRecognizer().read_indices(photo)
    near = [r for r in reads if abs(r.candidate.center[0] - 81) < 25]
    near = [r for r in near if abs(r.candidate.center[1] - 863) < 25]
    assert near == []
    assert {"Kc", "Qc"} <= {r.card for r in reads}


def test_saved_model_reads_the_same(tmp_path: Path, shared_data: Path) -> None:
    photo = image_at(shared_data / "cards" / "photos-single" / "Qh.jpg")
    shipped = GlyphModel.load()
    shipped.save(tmp_path / "copy.npz")
    again = GlyphModel.load(tmp_path / "copy.npz")
    assert isinstance(shipped, NetModel) and isinstance(again, NetModel)
    assert np.array_equal(again.rank_nets[0].layers[0][0], shipped.rank_nets[0].layers[0][0])
    first = [(seen.card, seen.index) for seen in CardRecognizer(shipped).recognize(photo)]
    second = [(seen.card, seen.index) for seen in CardRecognizer(again).recognize(photo)]
    assert first == second
    assert [card for card, _ in first] == ["Qh"]


@pytest.mark.parametrize(
    ("name", "pips"),
    [
        ("C10.png", 10),
        ("D7.png", 7),
        ("S2.png", 2),
        ("H9.png", 9),
        ("Hj.png", None),
        ("Sk.png", None),
        ("Ca.png", None),
    ],
)
def test_whole_cards_far_away_show_their_centre_pips(
    shared_data: Path, name: str, pips: int | None
) -> None:
    # 100 px tall (a camera about 70 cm up): number cards' pips are counted, court cards'
    # pictures and an ace's one pip are not a count, at any angle.
    for angle in (0.0, 35.0, 90.0, 200.0):
        frame = card_on_table(shared_data, name, 100, angle)
        (outline,) = find_card_outlines(frame)
        assert centre_pips(frame, outline) == pips


def test_a_court_rank_read_on_a_card_with_centre_pips_is_dropped(shared_data: Path) -> None:
    frame = card_on_table(shared_data, "C10.png", 100, 30.0)
    outlines = find_card_outlines(frame)
    reads = CardRecognizer().read_indices(frame, outlines=outlines)
    assert reads and all(read.card == "10c" for read in reads)
    as_jack = [replace(read, reading=replace(read.reading, rank="J")) for read in reads]
    assert pip_checked(frame, as_jack, outlines) == []
    assert pip_checked(frame, reads, outlines) == reads
    jack = card_on_table(shared_data, "Cj.png", 100, 30.0)
    jack_outlines = find_card_outlines(jack)
    jack_reads = CardRecognizer().read_indices(jack, outlines=jack_outlines)
    assert [read.card for read in pip_checked(jack, jack_reads, jack_outlines)] == [
        read.card for read in jack_reads
    ]
