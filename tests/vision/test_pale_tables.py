"""Cards on white and pale tables: outlined by their edges where card white is the table's too."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.card_sources import augmented, felt_shots
from vision import outline
from vision.cards import CardRecognizer
from vision.imageio import read_image
from vision.light import darkest_channel
from vision.outline import (
    MIN_AREA_FRACTION,
    Quad,
    card_white_mask,
    find_card_outlines,
    quads_in,
    without_specks,
)
from vision.scenes.synthetic import FaceLibrary, Scene, SceneBuilder
from vision.scenes.textures import Kind, Tone

CARDS = ["9c", "Kd", "4h", "Qs"]


def pale_scene(shared_data: Path, surface: tuple[Kind, Tone], seed: int) -> Scene:
    faces = FaceLibrary(shared_data / "cards" / "faces-cc0")
    return SceneBuilder(seed, faces).build(CARDS, surface=surface, height_cm=45.0, glare=False)


def outlined(scene: Scene, outlines: list[Quad]) -> int:
    """How many of the scene's cards an outline fits, every corner within 10 px of the truth
    (rounded card corners put a fitted quad about 5-8 px inside them)."""
    count = 0
    for card in scene.cards:
        truth = np.array(card.corners)
        for quad in outlines:
            gaps = np.linalg.norm(truth[:, None, :] - np.array(quad)[None, :, :], axis=2)
            if (gaps.min(axis=1) < 10).all():
                count += 1
                break
    return count


@pytest.mark.parametrize(("surface", "seed"), [(("cloth", "pale"), 11), (("wood", "pale"), 12)])
def test_cards_on_a_pale_table_are_outlined_by_their_edges(
    shared_data: Path, surface: tuple[Kind, Tone], seed: int
) -> None:
    scene = pale_scene(shared_data, surface, seed)
    darkest = scene.image.min(axis=2)
    white = cv2.morphologyEx(
        card_white_mask(scene.image, darkest), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)
    )
    by_white, pale = quads_in(white)
    assert pale
    outlines = find_card_outlines(scene.image)
    assert outlined(scene, outlines) >= 3 > outlined(scene, by_white)
    names = {card.card for card in CardRecognizer().recognize(scene.image) if not card.unsure}
    assert len(names & set(CARDS)) >= 3


def test_a_card_on_a_coloured_table_gets_one_outline(shared_data: Path) -> None:
    photo = read_image(shared_data / "cards" / "photos-misc" / "2c-webcam-topdown-green.png")
    [quad] = find_card_outlines(photo)
    assert 1.2 < np.linalg.norm(np.subtract(quad[2], quad[1])) / np.linalg.norm(
        np.subtract(quad[1], quad[0])
    ) < 1.7


def test_the_specks_of_a_felt_edge_map_are_left_out_and_every_outline_stays(
    shared_data: Path,
) -> None:
    felt = read_image(shared_data / "cards" / "photos-webcam-felt" / "surface1.jpg")
    pale = pale_scene(shared_data, ("wood", "pale"), 12).image
    for image, specks in ((felt, 1000), (pale, 0)):
        blurred = cv2.GaussianBlur(darkest_channel(image), (5, 5), 0)
        edges = cv2.dilate(cv2.Canny(blurred, 8, 24), np.ones((3, 3), np.uint8))
        regions = cv2.bitwise_not(edges)
        cleaned = without_specks(regions, MIN_AREA_FRACTION * regions.size)
        assert not np.count_nonzero(cv2.bitwise_and(cleaned, edges))
        before, after = (cv2.connectedComponents(mask)[0] for mask in (regions, cleaned))
        assert before - after >= specks
        assert quads_in(cleaned, 2.3) == quads_in(regions, 2.3)
        # Grana's labelling gives the regions the default labelling gives.
        _, labels, stats, _ = cv2.connectedComponentsWithStats(regions, connectivity=8)
        spans = stats[:, cv2.CC_STAT_WIDTH] * stats[:, cv2.CC_STAT_HEIGHT]
        wide = (spans >= MIN_AREA_FRACTION * regions.size) & (np.arange(len(spans)) > 0)
        assert np.array_equal(cleaned > 0, wide[labels])


def test_the_edge_search_near_card_white_not_outlined_keeps_every_outline(
    shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    felt = read_image(shared_data / "cards" / "photos-webcam-felt" / "surface1.jpg")
    images = [felt, pale_scene(shared_data, ("cloth", "pale"), 11).image]
    near = [find_card_outlines(image, longest=2.3) for image in images]
    assert len(near[1]) >= 3
    monkeypatch.setattr(
        outline, "unoutlined_white", lambda mask, outlines, cloths: np.full_like(mask, 255)
    )
    assert near == [find_card_outlines(image, longest=2.3) for image in images]


def felt_white(photo: np.ndarray) -> tuple[np.ndarray, np.ndarray, outline.Shapes]:
    """The blurred darkest channel, the closed card-white mask and its shapes of a photo."""
    blurred = cv2.GaussianBlur(darkest_channel(photo), (5, 5), 0)
    mask = outline.closed_gaps(outline.white_of(blurred))
    return blurred, mask, outline.shapes_in(mask, 2.3)


def test_a_cloth_on_a_white_table_limits_the_edge_search_to_the_cloth(shared_data: Path) -> None:
    photo = read_image(shared_data / "cards" / "photos-webcam-felt" / "surface4.jpg")
    _, mask, shapes = felt_white(photo)
    assert shapes.table and len(shapes.cloths) == 1
    [cloth] = shapes.cloths
    assert len(cloth) == 4
    inside = np.zeros_like(mask)
    cv2.fillPoly(inside, [cloth], 255)
    within = outline.unoutlined_white(mask, shapes.outlines, shapes.cloths)
    # Only inside the cloth, and there only round what is not outlined (chips, the 9c
    # that took in a chip): a fraction of the frame, where without a cloth it is half.
    assert not np.count_nonzero(cv2.bitwise_and(within, cv2.bitwise_not(inside)))
    assert 0 < np.count_nonzero(within) < 0.2 * within.size
    assert np.count_nonzero(outline.unoutlined_white(mask, shapes.outlines)) > 0.4 * mask.size


def test_a_card_in_glare_over_the_cloths_corner_is_still_outlined(shared_data: Path) -> None:
    # The glare of the benchmark's heart3 + glare joins the cloth's top right corner to the
    # white table: the cloth's hole loses that corner, its four-sided hull puts it back, and
    # the sideways card lying in the glare there keeps its edge-found outline.
    [shot] = [s for s in augmented(felt_shots(), "glare") if s.name == "heart3.jpg+glare"]
    _, mask, shapes = felt_white(shot.image)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    holes = [c for c, (*_, parent) in zip(contours, hierarchy[0], strict=True) if parent >= 0]
    hull = cv2.convexHull(max(holes, key=cv2.contourArea))
    card = ((1016.0, 244.0), (1015.0, 297.0), (902.0, 280.0), (909.0, 229.0))
    assert not all(cv2.pointPolygonTest(hull, corner, False) >= 0 for corner in card)
    [cloth] = shapes.cloths
    assert all(cv2.pointPolygonTest(cloth, corner, False) >= 0 for corner in card)
    assert card in find_card_outlines(shot.image, longest=2.3)
