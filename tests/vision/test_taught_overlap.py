"""Taught 21X cards read when overlapped: fanned hands read card by card, clutter and
untaught cards left out, whole-card reading unchanged, the watcher's taught reader."""

from __future__ import annotations

import math
from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.bench_taught_overlap import legible, overlapped_scene, taught_faces
from vision.observations import CardObservation
from vision.outline import closed_white_mask
from vision.partial import DISTINCT_FLOOR, TEXT_FLOOR, CardWhite, OverlapRecognizer, PartialRead
from vision.partial_match import THUMB_SIZE, PartialMatcher
from vision.partial_pose import as_quad, fan_neighbours
from vision.profile import DeckProfile, ProfileRecognizer
from vision.scenes.hands import spread_fan
from vision.scenes.synthetic import CARD_CM, CardFace, FaceLibrary, Scene, SceneBuilder
from vision.watcher import profile_reader


@pytest.fixture(scope="module")
def deck() -> tuple[dict[str, CardFace], DeckProfile]:
    faces, profile = taught_faces()
    return {face.name: face for face in faces}, profile


def _right_and_wrong(scene: Scene, seen: list[CardObservation]) -> tuple[int, int]:
    """Reads naming the card whose centre is within a third of a card width, and others."""
    right = wrong = 0
    for observation in seen:
        truth = min(
            scene.cards, key=lambda card: math.dist(observation.center, np.mean(card.corners, 0))
        )
        width = math.dist(truth.corners[0], truth.corners[1])
        near = math.dist(observation.center, np.mean(truth.corners, 0)) < width / 3
        right += near and truth.name == observation.card
        wrong += not (near and truth.name == observation.card)
    return right, wrong


def test_a_fanned_hand_is_read_card_by_card_from_the_strips_that_show(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    faces, profile = deck
    recognizer = OverlapRecognizer(profile)
    whole_only = ProfileRecognizer(profile)
    right = wrong = hidden = 0
    for seed, height in ((1, 51.0), (2, 57.0), (3, 63.0)):
        hand = [faces[name] for name in ("6x", "2x+4", "x/2")]
        scene = spread_fan(SceneBuilder(seed), hand, spread=30.0, height_cm=height, glare=False)
        assert all(0.5 <= card.visible_fraction < 0.6 for card in scene.cards[:-1])
        assert whole_only.recognize(scene.image) == []  # no card shows its whole outline
        seen = recognizer.recognize(scene.image)
        names = [observation.card for observation in seen]
        assert len(names) == len(set(names))  # never one card id twice
        scene_right, scene_wrong = _right_and_wrong(scene, seen)
        right, wrong = right + scene_right, wrong + scene_wrong
        hidden += sum(name in ("6x", "2x+4") for name in names)
    assert wrong == 0
    assert right >= 8 and hidden >= 5, (right, hidden)


def test_a_fan_of_bordered_cards_is_read_to_the_bottom_card(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    # Each strip is its own white part (the gold borders part them): a card read from its
    # part claims that part only, not the strips of the cards over it, whichever is read first.
    # (Seed 3's bottom fib strip shows, once the card over it is claimed, 0.94 % of
    # the thumbnail where fib's ink differs from another card's: under DISTINCT_FLOOR,
    # claimed unread.)
    faces, profile = deck
    recognizer = OverlapRecognizer(profile)
    hand = [faces[name] for name in ("fib", "factorsum", "triangle", "pidigit")]
    right = 0
    for seed in (2, 3, 4):
        scene = spread_fan(SceneBuilder(seed), hand, spread=25.0, height_cm=55.0, glare=False)
        assert all(0.4 <= card.visible_fraction < 0.5 for card in scene.cards[:-1])
        assert legible(scene, list(faces.values())) == [True] * 4
        scene_right, wrong = _right_and_wrong(scene, recognizer.recognize(scene.image))
        assert wrong == 0 and scene_right >= 3
        right += scene_right
    assert right >= 11


def test_a_strip_of_two_cards_alike_does_not_hide_the_card_under_it(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    # The pi strip cannot be told from e: it is claimed unread, so the card under it is
    # scored over its own strip.
    faces, profile = deck
    recognizer = OverlapRecognizer(profile)
    hand = [faces[name] for name in ("factorsum", "pidigit", "fib", "6x")]
    right = under = 0
    for seed in (1, 3, 5, 7):
        scene = spread_fan(SceneBuilder(seed), hand, spread=22.0, height_cm=55.0, glare=False)
        assert legible(scene, list(faces.values())) == [True, False, True, True]
        seen = recognizer.recognize(scene.image)
        assert "pidigit" not in {observation.card for observation in seen}
        scene_right, wrong = _right_and_wrong(scene, seen)
        assert wrong == 0
        right += scene_right
        under += any(observation.card == "factorsum" for observation in seen)
    assert right >= 9 and under == 4, (right, under)


def test_a_pi_strip_tied_with_e_under_the_top_card_of_a_column_does_not_hide_the_strip_above(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    # The pi strip scores 0.8-0.9 for pi and e alike: surely a card, claimed unread, so the
    # triangle strip above it is scored over its own part and read.
    faces, profile = deck
    hand = [faces[name] for name in ("6x", "triangle", "pidigit", "2x+4")]
    scene = overlapped_scene(SceneBuilder(13), "column", hand, 55.0)
    assert legible(scene, list(faces.values())) == [False, True, False, True]
    seen = OverlapRecognizer(profile).recognize(scene.image)
    assert {"pidigit", "edigit"}.isdisjoint(observation.card for observation in seen)
    assert _right_and_wrong(scene, seen) == (2, 0)
    assert {observation.card for observation in seen} == {"triangle", "2x+4"}


def test_the_bottom_cards_of_a_five_card_fan_get_refinements_of_their_own(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    # The cards over them (two illegible pi and e strips among them) take most of a frame's
    # refinements; each card read or claimed leaves a batch for the card under it.
    faces, profile = deck
    recognizer = OverlapRecognizer(profile)
    hand = [faces[name] for name in ("2x+4", "prime", "edigit", "pidigit", "fib")]
    right = 0
    for seed in (2, 7, 11):
        scene = spread_fan(SceneBuilder(seed), hand, spread=24.0, height_cm=55.0, glare=False)
        assert legible(scene, list(faces.values())) == [True, True, False, False, True]
        scene_right, wrong = _right_and_wrong(scene, recognizer.recognize(scene.image))
        assert wrong == 0
        right += scene_right
    assert right == 9


def test_strips_showing_little_of_their_print_are_not_read_as_another_card(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    # Every strip of this column shows the icons the celebrity cards share and a sliver of
    # text: a part is read only if it shows a tenth of its own print or is sure.
    faces, profile = deck
    recognizer = OverlapRecognizer(profile)
    hand = [faces[name] for name in ("prime", "factorsum", "fib", "edigit")]
    for seed in (11, 12):
        scene = overlapped_scene(SceneBuilder(seed), "column", hand, 55.0)
        assert legible(scene, list(faces.values())) == [False, False, False, True]
        assert _right_and_wrong(scene, recognizer.recognize(scene.image))[1] == 0


def test_a_part_showing_only_what_two_cards_share_does_not_tell_them_apart(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    # The top 60 % of "Xth digit of pi" shows most of its print, but not the word that
    # tells it from "Xth digit of e": such a part is not read (it is claimed unread).
    _, profile = deck
    matcher = PartialMatcher(profile.faces)
    cards = np.array([matcher.ids.index(card) for card in ("pidigit", "edigit", "6x")])
    upright = np.zeros(3, bool)
    top = np.zeros((3, THUMB_SIZE[1], THUMB_SIZE[0]), np.float32)
    top[:, : round(0.6 * THUMB_SIZE[1])] = 1
    texts = matcher.text_shares(top.reshape(3, -1), cards, upright)
    assert (texts >= TEXT_FLOOR).all()
    distinct = matcher.distinct_shares(top.reshape(3, -1), cards, upright)
    assert distinct[0] == distinct[1] < DISTINCT_FLOOR / 2 and distinct[2] > 4 * DISTINCT_FLOOR
    whole = matcher.distinct_shares(np.ones((3, top[0].size), np.float32), cards, upright)
    assert (whole >= 2 * DISTINCT_FLOOR).all()


def test_icon_strips_of_a_column_are_not_read_sure_as_a_card_not_there(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    # Strips showing only icons fit x/2 (0.99, sure) though it is not in the column, and a
    # pose across two strips reads prime with its face "whole": a part needs a tenth of its
    # own print even when sure, and the surely-a-card strip is claimed before that pose.
    faces, profile = deck
    recognizer = OverlapRecognizer(profile)
    hand = [faces[name] for name in ("edigit", "fib", "prime", "2x+4")]
    for seed in (1, 7):
        scene = overlapped_scene(SceneBuilder(seed), "column", hand, 55.0)
        assert legible(scene, list(faces.values())) == [False, False, False, True]
        seen = recognizer.recognize(scene.image)
        assert "x/2" not in {observation.card for observation in seen}
        assert _right_and_wrong(scene, seen) == (len(seen), 0) and len(seen) >= 1


def test_a_row_with_slight_overlaps_is_read_card_by_card(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    faces, profile = deck
    recognizer, whole_only = OverlapRecognizer(profile), ProfileRecognizer(profile)
    for seed in (1, 4):
        hand = [faces[name] for name in ("6x", "fib", "x/2")]
        scene = overlapped_scene(SceneBuilder(seed), "row", hand, 55.0)
        assert all(0.7 <= card.visible_fraction < 0.95 for card in scene.cards[:-1])
        # outlines cut out of the overlapping cards' white: whole reading is not enough
        assert _right_and_wrong(scene, whole_only.recognize(scene.image))[0] < 3
        assert _right_and_wrong(scene, recognizer.recognize(scene.image)) == (3, 0)


def test_a_row_of_core_and_celebrity_cards_is_read_from_the_card_over_each(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    # The widths the frame suggests miss a core card beside a celebrity card (whose taught
    # face is the white inside its gold border): the card under a card read is found as
    # that card moved along its side.
    faces, profile = deck
    recognizer = OverlapRecognizer(profile)
    for seed in (5, 10):
        hand = [faces[name] for name in ("2x+4", "prime", "x/2", "edigit")]
        scene = overlapped_scene(SceneBuilder(seed), "row", hand, 55.0)
        assert all(0.65 <= card.visible_fraction < 0.9 for card in scene.cards[:-1])
        assert _right_and_wrong(scene, recognizer.recognize(scene.image)) == (4, 0)


def test_a_patch_of_glare_on_the_table_does_not_set_the_widths_cards_are_laid_at(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    # The glare is card white apart from the cards; when the widths measured across it
    # were tried for the cards as well, "Xth digit of pi" was read as e.
    faces, profile = deck
    turn = 135.0
    shift = 0.375 * CARD_CM[0]
    along = (shift * math.cos(math.radians(turn)), shift * math.sin(math.radians(turn)))
    scene = SceneBuilder(15).build(
        [faces["pidigit"], faces["2x+4"]], rotation=[turn, turn],
        positions=[(-along[0], -along[1]), along], height_cm=55.0, glare=True,
        surface=("cloth", "light"),
    )
    groups = cv2.connectedComponents(CardWhite.of(scene.image).bridged)[0] - 1
    assert groups == 2  # the cards and the glare
    assert _right_and_wrong(scene, OverlapRecognizer(profile).recognize(scene.image)) == (2, 0)


def test_a_card_apart_from_the_others_lies_alone(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    faces, _ = deck
    scene = SceneBuilder(9).build([faces["6x"], faces["prime"]], glare=False)
    white = CardWhite.of(scene.image)
    assert [white.lies_alone(card.corners) for card in scene.cards] == [True, True]


def test_a_hand_on_a_pale_cloth_whose_brighter_side_passes_for_card_white_is_read(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    # The light falls across a pale cloth: the frame's own card-white level takes in its
    # brighter side (a third to a half of the frame), so no group of cards was found and
    # the top card of this tight fan (the only legible one) was not read.
    faces, profile = deck
    recognizer = OverlapRecognizer(profile)
    for seed in (3, 5, 7):
        hand = [faces[name] for name in ("x/2", "fib", "6x")]
        scene = SceneBuilder(seed).build(
            hand, layout="fan", surface=("cloth", "light"), height_cm=55.0
        )
        assert np.count_nonzero(closed_white_mask(scene.image)) > 0.3 * scene.image[..., 0].size
        white = CardWhite.of(scene.image).white
        assert np.count_nonzero(white) < 0.05 * white.size
        assert _right_and_wrong(scene, recognizer.recognize(scene.image)) == (1, 0)


def test_standard_cards_on_a_white_table_are_not_read_as_taught_cards(
    deck: tuple[dict[str, CardFace], DeckProfile], shared_data: Path
) -> None:
    # Real webcam photos: the table round the felt is white, so the frame's card white
    # takes in a quarter of it or more and the brighter white is looked at instead.
    _, profile = deck
    recognizer = OverlapRecognizer(profile)
    for name in ("club1.jpg", "diamond2.jpg", "heart3.jpg"):
        photo = cv2.imread(str(shared_data / "cards" / "photos-webcam-felt" / name))
        assert photo is not None
        assert np.count_nonzero(closed_white_mask(photo)) > 0.25 * photo[..., 0].size
        assert recognizer.recognize(photo) == []


def test_a_card_is_legible_when_its_visible_part_tells_it_from_every_other(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    faces, _ = deck
    hand = [faces[name] for name in ("prime", "triangle", "6x")]
    tight = SceneBuilder(3).build(hand, layout="fan", height_cm=55.0)
    assert legible(tight, list(faces.values())) == [False, False, True]  # icons only
    row = overlapped_scene(SceneBuilder(3), "row", hand, 55.0)
    assert legible(row, list(faces.values())) == [True, True, True]


def test_clutter_and_untaught_cards_in_a_fan_are_not_reported(
    deck: tuple[dict[str, CardFace], DeckProfile], shared_data: Path
) -> None:
    faces, profile = deck
    library = FaceLibrary(shared_data / "cards" / "faces-cc0")
    strangers: list[str | CardFace] = ["Qh", "7s", "JK", "10d", library.face("back")]
    clutter = spread_fan(SceneBuilder(5, library), strangers, spread=24.0, height_cm=55.0)
    assert OverlapRecognizer(profile).recognize(clutter.image) == []
    taught = {name: profile.faces[name] for name in ("6x", "2x+4", "x/2")}
    untaught = [faces[name] for name in ("prime", "fib", "triangle", "pidigit")]
    scene = spread_fan(SceneBuilder(6), untaught, spread=28.0, height_cm=55.0)
    assert OverlapRecognizer(DeckProfile("three", taught)).recognize(scene.image) == []


def test_whole_cards_are_read_exactly_as_before(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    faces, profile = deck
    builder = SceneBuilder(8)
    recognizer, whole_only = OverlapRecognizer(profile), ProfileRecognizer(profile)
    for chosen in (["6x", "fib", "x/2"], ["prime", "2x+4", "edigit", "triangle"]):
        scene = builder.build([faces[name] for name in chosen], glare=False)
        before = whole_only.recognize(scene.image)
        assert len(before) == len(chosen)
        assert recognizer.recognize(scene.image)[: len(before)] == before


def test_a_read_under_its_sure_level_or_close_to_the_next_card_is_unsure() -> None:
    quad = ((0.0, 0.0), (10.0, 0.0), (10.0, 14.0), (0.0, 14.0))
    assert not PartialRead("6x", quad, 0.97, 0.5, 0.45).unsure
    assert PartialRead("6x", quad, 0.91, 0.5, 0.45).unsure  # a part needs more
    assert PartialRead("6x", quad, 0.97, 0.93, 0.45).unsure  # too close to the next card
    assert not PartialRead("6x", quad, 0.8, 0.5, 1.0).unsure  # a whole card needs less


def test_the_watchers_taught_reader_reads_a_fanned_hand(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    faces, profile = deck
    hand = [faces[name] for name in ("6x", "2x+4", "x/2")]
    scene = spread_fan(SceneBuilder(3), hand, spread=30.0, height_cm=63.0, glare=False)
    read = profile_reader(profile)
    seen = read(scene.image)
    assert {observation.card for observation in seen} == {"6x", "2x+4", "x/2"}
    assert read(scene.image) == seen  # the same picture reads the same


def test_the_card_under_a_card_of_a_fanned_hand_is_among_its_fan_neighbours(
    deck: tuple[dict[str, CardFace], DeckProfile],
) -> None:
    faces, _ = deck
    hand = [faces[name] for name in ("6x", "prime", "fib")]
    for seed, spread in ((4, 13.0), (5, 23.0), (6, 33.0)):
        scene = spread_fan(SceneBuilder(seed), hand, spread=spread, glare=False)
        for under, over in pairwise(scene.cards):
            width = math.dist(under.corners[0], under.corners[1])
            truth = np.array(under.corners)
            misses = [
                float(np.max(np.linalg.norm(np.array(quad) - truth, axis=1)))
                for quad, _ in fan_neighbours(as_quad(np.array(over.corners)))
            ]
            assert min(misses) < 0.08 * width, (seed, min(misses) / width)
