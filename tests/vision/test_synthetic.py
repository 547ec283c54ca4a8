"""Synthetic scenes: deterministic, exact ground truth, and the cases the photos lack.

Standard faces come from ``../shared/data/cards/faces-cc0``; the recogniser checks run
V1's real :class:`vision.cards.CardRecognizer` and outline finder on rendered scenes.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cardmath.catalogue import builtin
from companion.playing_cards import UnknownCard
from vision.imageio import ImageError
from vision.outline import find_card_outlines
from vision.scenes.synthetic import (
    CARD_CM,
    ExpressionCard,
    FaceLibrary,
    Layout,
    SceneBuilder,
    camera_homography,
    render_expression_card,
    render_table_scene,
)
from vision.scenes.textures import KINDS, TONES, table_texture

STANDARD = ["Qh", "7s", "10d", "Ac", "Kc", "3h"]


@pytest.fixture(scope="module")
def faces(shared_data: Path) -> FaceLibrary:
    return FaceLibrary(shared_data / "cards" / "faces-cc0")


def _near(
    point: tuple[float, float], others: tuple[tuple[float, float], ...], reach: float
) -> bool:
    return any(math.dist(point, other) <= reach for other in others)


def test_same_seed_same_scene_and_different_seeds_differ(faces: FaceLibrary) -> None:
    first = SceneBuilder(21, faces).build(STANDARD[:4])
    again = SceneBuilder(21, faces).build(STANDARD[:4])
    other = SceneBuilder(22, faces).build(STANDARD[:4])
    assert np.array_equal(first.image, again.image)
    assert first.cards == again.cards
    assert not np.array_equal(first.image, other.image)
    assert first.image.shape == (720, 1280, 3)


def test_every_surface_is_distinct_and_darker_than_card_white() -> None:
    means = []
    for kind in KINDS:
        for tone in TONES:
            surface = table_texture(kind, tone, (320, 180), np.random.default_rng(3))
            assert surface.shape == (180, 320, 3)
            assert np.percentile(surface.min(axis=2), 99) < 200, (kind, tone)
            means.append(tuple(np.round(surface.reshape(-1, 3).mean(axis=0))))
    assert len(set(means)) == len(KINDS) * len(TONES)


def test_camera_height_scales_the_card_and_tilt_keeps_the_centre() -> None:
    widths = {}
    for height in (40.0, 80.0):
        homography = camera_homography((1280, 720), height, 0.0)
        ends = cv2.perspectiveTransform(np.array([[[0.0, 0.0], [CARD_CM[0], 0.0]]]), homography)
        widths[height] = float(np.linalg.norm(ends[0, 1] - ends[0, 0]))
    assert widths[40.0] == pytest.approx(2 * widths[80.0], rel=1e-6)
    tilted = camera_homography((1280, 720), 60.0, 15.0)
    centre = cv2.perspectiveTransform(np.array([[[0.0, 0.0]]]), tilted)[0, 0]
    assert centre == pytest.approx((640.0, 360.0), abs=1e-6)
    near = cv2.perspectiveTransform(np.array([[[0.0, 10.0], [CARD_CM[0], 10.0]]]), tilted)[0]
    far = cv2.perspectiveTransform(np.array([[[0.0, -10.0], [CARD_CM[0], -10.0]]]), tilted)[0]
    assert np.linalg.norm(near[1] - near[0]) > np.linalg.norm(far[1] - far[0])


def test_truth_corners_match_the_outline_finder(faces: FaceLibrary) -> None:
    builder = SceneBuilder(5, faces)
    checked = 0
    for _ in range(6):
        scene = builder.build(STANDARD[:3], glare=False)
        found = find_card_outlines(scene.image)
        for card in scene.cards:
            centre = np.mean(card.corners, axis=0)
            quads = [q for q in found if np.linalg.norm(np.mean(q, axis=0) - centre) < 8]
            if not quads:
                continue
            # The outline is the same four points, up to where the cycle starts.
            truth = np.array(card.corners)
            errors = [
                np.abs(np.roll(np.array(quads[0]), shift, axis=0) - truth).max()
                for shift in range(4)
            ]
            assert min(errors) < 5.0
            checked += 1
    assert checked >= 15


def test_upside_down_cards_have_their_face_corner_bottom_right(faces: FaceLibrary) -> None:
    scene = SceneBuilder(8, faces).build(STANDARD[:3], rotation=180.0, tilt_degrees=0.0)
    for card in scene.cards:
        top_left, _, bottom_right, _ = card.corners
        assert top_left[0] > bottom_right[0] and top_left[1] > bottom_right[1]
        assert card.rotation == 180.0
        # Both indices show, each within the card near a corner.
        assert len(card.index_centers) == 2
        assert (
            min(
                math.dist(card.index_centers[0], top_left),
                math.dist(card.index_centers[0], bottom_right),
            )
            < 40
        )


def test_a_solitaire_column_covers_all_but_the_top_index(faces: FaceLibrary) -> None:
    scene = SceneBuilder(9, faces).build(STANDARD[:4], layout="column", tilt_degrees=0.0)
    *covered, last = scene.cards
    assert last.visible_fraction > 0.97
    assert len(last.index_centers) == 2
    for card in covered:
        assert 0.1 < card.visible_fraction < 0.5
        assert len(card.index_centers) == 1
        assert math.dist(card.index_centers[0], card.corners[0]) < 40
        # The visible part's centre lies towards the uncovered top of the card.
        centre = np.mean(card.corners, axis=0)
        top = np.mean(card.corners[:2], axis=0)
        assert math.dist(card.visible_center, top) < math.dist(tuple(centre), tuple(top))


def test_a_fanned_hand_shows_every_top_index(faces: FaceLibrary) -> None:
    builder = SceneBuilder(10, faces)
    for _ in range(3):
        scene = builder.build(STANDARD[:5], layout="fan")
        for card in scene.cards:
            assert _near(card.corners[0], card.index_centers, 40), card.name


def test_expression_cards_draw_their_icons_set_and_text() -> None:
    deck = builtin("21x")
    for card in deck:
        spec = ExpressionCard.from_catalogue(card)
        face = render_expression_card(spec)
        grey = cv2.cvtColor(face.image[:, :, :3], cv2.COLOR_BGR2GRAY)
        # Icons in the top-left corner, one dark shape per icon, and the same turned.
        corner = (grey[8:100, 20:60] < 100).astype(np.uint8)
        count, _ = cv2.connectedComponents(corner)
        assert count - 1 == spec.level == card.icons, card.id
        assert np.array_equal(grey[-100:, -48:], np.rot90(grey[:100, :48], 2))
        # The middle holds the printed text.
        assert (grey[120:220, 20:220] < 100).mean() > 0.02
        gold = np.all(np.abs(face.image[5, 120, :3].astype(int) - (55, 175, 212)) < 30)
        assert gold == (card.set == "celebrity")
    limited = render_expression_card(ExpressionCard("v", "V+Y", 1, "limited"))
    assert limited.image[4, 4, :3].max() < 60 and limited.image[4, 4, 3] > 0


@pytest.mark.parametrize(("low_cm", "high_cm"), [(40.0, 55.0), (55.0, 80.0)])
def test_upside_down_standard_cards_are_recognised_by_the_standard_recogniser(
    faces: FaceLibrary, low_cm: float, high_cm: float
) -> None:
    from vision.cards import CardRecognizer

    recogniser = CardRecognizer()
    builder = SceneBuilder(12, faces)
    found = total = 0
    for scene_number in range(6):
        scene = builder.build(
            STANDARD[scene_number % 3 : scene_number % 3 + 3],
            rotation=180.0 + scene_number,
            height_cm=low_cm + (high_cm - low_cm) * scene_number / 5,
        )
        observations = recogniser.recognize(scene.image)
        for card in scene.cards:
            total += 1
            found += any(
                seen.card == card.name and _near(seen.index, card.index_centers, 40)
                for seen in observations
            )
    assert found / total >= 0.9


def test_jokers_are_recognised_by_the_standard_recogniser(faces: FaceLibrary) -> None:
    from vision.cards import CardRecognizer

    recogniser = CardRecognizer()
    builder = SceneBuilder(13, faces)
    found = 0
    for rotation in (0.0, 90.0, 180.0, 270.0):
        scene = builder.build(["JK", "5c", "9d"], rotation=rotation)
        joker = scene.cards[0]
        centre = tuple(np.mean(joker.corners, axis=0))
        found += any(
            seen.card == "JK" and math.dist(seen.center, centre) < 60
            for seen in recogniser.recognize(scene.image)
        )
    assert found >= 3


def test_face_library_finds_both_designs_and_names_a_missing_face(
    faces: FaceLibrary, shared_data: Path, tmp_path: Path
) -> None:
    four_colour = FaceLibrary(shared_data / "cards" / "faces-cc0", design="four-colour")
    assert four_colour.path("10s").name == "TS.png" and faces.path("10s").name == "S10.png"
    queen = four_colour.face("qh")
    assert queen.name == "Qh" and queen.image.shape == (314, 225, 4)
    assert len(queen.index_points) == 2
    assert faces.face("JK").index_points == () and faces.path("JK", variant=2).name == "J2.png"
    with pytest.raises(ImageError, match="no such card face image"):
        FaceLibrary(tmp_path).face("Qh")
    with pytest.raises(UnknownCard):
        faces.face("Zz")


def test_too_many_cards_to_lay_apart_is_refused() -> None:
    card = render_expression_card(ExpressionCard("6x", "6X"))
    with pytest.raises(ValueError, match="cannot lay 40 cards apart"):
        SceneBuilder(3).build([card] * 40, height_cm=40.0)


def test_a_scatter_that_leaves_no_room_is_laid_afresh() -> None:
    """Seed 72's first cards left no room for a fifth: the scatter starts again."""
    cards = [render_expression_card(ExpressionCard(f"c{k}", f"{k + 2}X")) for k in range(5)]
    scene = SceneBuilder(72).build(cards, layout="scatter")
    assert [card.name for card in scene.cards] == [f"c{k}" for k in range(5)]
    assert all(card.visible_fraction == 1.0 for card in scene.cards)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    count=st.integers(1, 5),
    layout=st.sampled_from(["scatter", "fan", "column"]),
    rotation=st.one_of(st.none(), st.floats(0.0, 360.0)),
)
def test_ground_truth_is_consistent_for_any_scene(
    seed: int, count: int, layout: Layout, rotation: float | None
) -> None:
    cards = [render_expression_card(ExpressionCard(f"c{k}", f"{k + 2}X")) for k in range(count)]
    scene = SceneBuilder(seed).build(cards, layout=layout, rotation=rotation)
    height, width = scene.image.shape[:2]
    assert [card.name for card in scene.cards] == [f"c{k}" for k in range(count)]
    assert scene.cards[-1].visible_fraction > 0.95
    for card in scene.cards:
        outline = np.array(card.corners, np.float32)
        assert 0.0 <= card.visible_fraction <= 1.0
        assert cv2.contourArea(outline, oriented=True) > 0  # clockwise in image coordinates
        for x, y in card.index_centers:
            assert 0 <= x < width and 0 <= y < height
            assert cv2.pointPolygonTest(outline, (x, y), False) >= 0
        if card.visible_fraction > 0:
            assert cv2.pointPolygonTest(outline, card.visible_center, True) > -2
    assert [seen.card for seen in scene.observations()] == [
        card.name for card in scene.cards if card.visible_fraction > 0
    ]


def test_render_table_scene_puts_each_card_where_asked(faces: FaceLibrary) -> None:
    placements = [("Qh", (-12.0, 0.0), 0.0), ("7s", (12.0, 4.0), 180.0)]
    scene = render_table_scene(placements, faces=faces, height_cm=60.0)
    homography = camera_homography(scene.image.shape[1::-1], 60.0, 0.0)
    for (name, centre, turn), card in zip(placements, scene.cards, strict=True):
        expected = homography @ [centre[0], centre[1], 1.0]
        middle = np.mean(card.corners, axis=0)
        assert card.name == name and card.rotation == turn
        assert np.hypot(*(middle - expected[:2] / expected[2])) < 1.0
    again = render_table_scene(placements, faces=faces, height_cm=60.0)
    assert again.image.tobytes() == scene.image.tobytes()
