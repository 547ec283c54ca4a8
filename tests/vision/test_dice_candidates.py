"""The candidate settings of dice rounds 10-14 (round 13's ``JOINED``, ``COLOURS``, the
defaults since round 14: the colour-axis pips as a second look) against those shipped before
(``unjoined``) on real photos, the shared pip masks, the joined bodies' pieces and the
colour-axis pips."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.image_files import image_at
from vision.dice import CANDIDATE_SETTINGS, COLOURS, JOINED, DiceSettings, candidates
from vision.dice_cnn import shipped_reader
from vision.dice_faces import channels, contrast_masks, faces_in_planes
from vision.dice_labels import load_source
from vision.dice_pip_colours import colour_axis_faces


def right_counts(
    shared_data: Path, source: str, name: str, settings: DiceSettings, *, read: bool = False
) -> int:
    """How many labelled dice of one photo have a face candidate of their pip count nearby
    (with ``read``, the candidates the shipped reader's second look finds)."""
    photo = next(p for p in load_source(shared_data / "dice", source) if p.path.name == name)
    found = candidates(image_at(photo.path), settings, shipped_reader() if read else None)
    return sum(
        any(c.pip_count == die.value for c in found if photo.matches(die, *c.center))
        for die in photo.dice
    )


@pytest.mark.parametrize(
    ("source", "name", "unjoined", "joined"),
    [
        ("photos-coloured", "IMG_20191209_100728.jpg", 2, 5),  # marbled dice: pips on 21 px
        ("photos-assorted", "43.jpg", 1, 6),  # dice broken into pieces, joined by the closing
    ],
)
def test_joined_candidates_count_more_dice_right(
    shared_data: Path, source: str, name: str, unjoined: int, joined: int
) -> None:
    assert right_counts(shared_data, source, name, CANDIDATE_SETTINGS["unjoined"]) == unjoined
    assert right_counts(shared_data, source, name, JOINED) == joined


@pytest.mark.parametrize(
    ("source", "name", "joined", "colours"),
    [
        ("photos-coloured", "IMG_20191208_111228.jpg", 17, 20),  # marbled, red pips on blue
        ("photos-assorted", "24.jpg", 5, 9),
    ],
)
def test_colour_axis_candidates_count_more_dice_right(
    shared_data: Path, source: str, name: str, joined: int, colours: int
) -> None:
    assert right_counts(shared_data, source, name, JOINED) == joined
    assert right_counts(shared_data, source, name, COLOURS) == colours


def test_the_second_look_finds_the_marbled_dice_pips(shared_data: Path) -> None:
    """On the tray of marbled dice (red pips on blue) the second look, seeded by the faces
    the first look does not read surely, counts as many dice right as the search on every
    body (``COLOURS``, 20), where round 13's candidates count 17."""
    name = "IMG_20191208_111228.jpg"
    assert right_counts(shared_data, "photos-coloured", name, DiceSettings(), read=True) == 20


def test_the_second_look_adds_nothing_on_white_dice(shared_data: Path) -> None:
    """White dice's dark pips found in lightness seed no colour-axis search: the candidates
    are round 13's, bit for bit."""
    image = image_at(shared_data / "dice" / "photos" / "six_44.jpg")
    found = candidates(image, DiceSettings(), shipped_reader())
    before = candidates(image, JOINED)
    assert len(found) == len(before) >= 20
    assert not any(c.colour_axis for c in found)
    for candidate, old in zip(found, before, strict=True):
        assert candidate.center == old.center
        assert np.array_equal(candidate.inputs(), old.inputs())


def test_colour_axis_faces_are_new_counts_in_planes_of_their_own(shared_data: Path) -> None:
    image = image_at(shared_data / "dice" / "photos-coloured" / "IMG_20191208_111228.jpg")
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    planes = channels(lab)
    found = faces_in_planes(planes, COLOURS.faces)
    more_planes, more_faces = colour_axis_faces(lab, found, len(planes), COLOURS.faces)
    # two seeds: a three of light pips in lightness (its axis is lightness, searched already)
    # and a six, whose axis mixes lightness and colour
    assert len(more_planes) == 1
    assert more_planes[0].shape == planes[0].shape
    assert len(more_faces) == 10
    assert {face.channel for face in more_faces} == {3}
    for face in more_faces:
        assert not any(
            other.value == face.value
            and math.dist(other.center, face.center) < other.pip_diameter
            for other in found
        )


@pytest.mark.parametrize("block", [21, 31])
def test_contrast_masks_are_the_adaptive_thresholds_of_both_polarities(
    shared_data: Path, block: int
) -> None:
    image = image_at(shared_data / "dice" / "photos-coloured" / "IMG_20191209_100728.jpg")
    for channel in channels(cv2.cvtColor(image, cv2.COLOR_BGR2LAB)):
        dark, light = contrast_masks(channel, block, 12.0)
        for mask, plane in ((dark, channel), (light, cv2.bitwise_not(channel))):
            expected = cv2.adaptiveThreshold(
                plane, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 12.0
            )
            assert (mask == expected).all()


def test_joined_pieces_are_the_whole_masks_regions_in_its_order(shared_data: Path) -> None:
    """The pieces of each joined body, labelled in its box alone, are the regions a labelling
    of the whole body mask finds in it, in the same order (the candidates depend on it; on
    this photo a box started at an odd row numbers two pieces the other way round)."""
    from vision.dice import PIECE_AREAS, _bodies, _regions, body_mask

    settings = DiceSettings()
    image = image_at(shared_data / "dice" / "photos-coloured" / "IMG_20191208_111304.jpg")
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)  # 640x640: read at this size
    mask = body_mask(lab, settings)
    join = np.ones((settings.body_join, settings.body_join), np.uint8)
    _, joined_labels = cv2.connectedComponents(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, join))
    whole = list(_regions(mask, PIECE_AREAS * settings.min_body_area)[0].values())

    def label(contour: np.ndarray) -> int:
        column, row = contour[0, 0]
        return int(joined_labels[row, column])

    joined = [body for body in _bodies(lab, settings) if body.pieces]
    assert sum(len(body.pieces) for body in joined) >= 4
    for body in joined:
        expected = [region for region in whole if label(region.contour) == label(body.contour)]
        assert [(p.box, p.contour.tolist()) for p in body.pieces] == [
            (r.box, r.contour.tolist()) for r in expected
        ]
