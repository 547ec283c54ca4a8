"""Teaching a deck: a synthetic 21X deck taught from images, kept on disk, recognised
in synthetic scenes; the guided session as a replay of frames; corrupt profiles; the CLI.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cardmath.catalogue import Catalogue, builtin
from companion.cardmath.expr import Bindings
from tests.image_files import image_at
from vision.profile import (
    FACES,
    MANIFEST,
    DeckProfile,
    ProfileError,
    ProfileRecognizer,
    load_deck,
    taught_decks,
    warp_face,
)
from vision.scenes.synthetic import CardFace, ExpressionCard, FaceLibrary, SceneBuilder, SceneCamera
from vision.scenes.synthetic import render_expression_card as render
from vision.scenes.textures import KINDS, TONES
from vision.teach import DeckTeacher, Step, face_from_image, file_key, teach_from_images

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def deck() -> Catalogue:
    return builtin("21x")


@pytest.fixture(scope="module")
def faces(deck: Catalogue) -> dict[str, CardFace]:
    return {card.id: render(ExpressionCard.from_catalogue(card)) for card in deck}


@pytest.fixture(scope="module")
def card_images(
    tmp_path_factory: pytest.TempPathFactory, deck: Catalogue, faces: dict[str, CardFace]
) -> Path:
    """One PNG per card: half named by id, half by printed text (``/`` written ``_``)."""
    folder = tmp_path_factory.mktemp("cards")
    for number, card in enumerate(deck):
        stem = file_key(card.id) if number % 2 else card.text.replace("/", "_")
        cv2.imwrite(str(folder / f"{stem}.png"), faces[card.id].image[:, :, :3])
    return folder


@pytest.fixture(scope="module")
def taught(
    tmp_path_factory: pytest.TempPathFactory, deck: Catalogue, card_images: Path
) -> DeckProfile:
    lines: list[str] = []
    profile = teach_from_images(
        card_images,
        [card.id for card in deck],
        deck_name="synthetic-21x",
        labels={card.id: card.text for card in deck},
        catalogue="21x",
        progress=lines.append,
    )
    assert lines[2].startswith("taught X/2 (3/9) from ")
    folder = profile.save(tmp_path_factory.mktemp("data") / "decks" / "synthetic-21x")
    return DeckProfile.load(folder)


def test_profile_round_trip_keeps_faces_order_and_link(
    taught: DeckProfile, deck: Catalogue
) -> None:
    assert taught.card_ids == [card.id for card in deck]
    assert taught.catalogue == "21x" and taught.name == "synthetic-21x"
    assert all(face.shape == (140, 100, 3) for face in taught.faces.values())
    # A face is the card itself, not the dark frame around it.
    assert all(face[10:-10, 10:-10].mean() > 150 for face in taught.faces.values())


def test_taught_deck_is_recognised_in_scenes_either_way_up(
    taught: DeckProfile, faces: dict[str, CardFace]
) -> None:
    recogniser = ProfileRecognizer(taught)
    builder = SceneBuilder(31)
    ids = list(faces)
    right = wrong = total = 0
    surfaces = set()
    for scene_number in range(24):
        chosen = [faces[ids[k]] for k in builder.rng.choice(len(ids), 4, replace=False)]
        # Every third scene has every card upside down (plus a little), others any angle.
        rotation = 180.0 + scene_number if scene_number % 3 == 0 else None
        kind, tone = KINDS[scene_number % 3], TONES[scene_number // 3 % 2]
        scene = builder.build(chosen, rotation=rotation, surface=(kind, tone))
        surfaces.add(scene.surface)
        observations = recogniser.recognize(scene.image)
        for card in scene.cards:
            total += 1
            centre = tuple(np.mean(card.corners, axis=0))
            near = [seen for seen in observations if math.dist(seen.center, centre) < 20]
            right += any(seen.card == card.name for seen in near)
            wrong += any(seen.card != card.name for seen in near)
            if rotation is not None and near and near[0].card == card.name:
                # The face's own top-left corner is known even upside down.
                gaps = [math.dist(near[0].corners[0], corner) for corner in card.corners]
                assert gaps.index(min(gaps)) == 0 and min(gaps) < 15
    assert len(surfaces) == 6
    assert right / total >= 0.95, (right, total)
    assert wrong <= 1


def test_catalogue_link_gives_expression_and_icons(
    taught: DeckProfile, faces: dict[str, CardFace]
) -> None:
    recogniser = ProfileRecognizer(taught)
    scene = SceneBuilder(32).build(
        [faces["6x"], faces["x/2"], faces["fib"]], rotation=175.0, glare=False
    )
    seen = {observation.card: observation for observation in recogniser.recognize(scene.image)}
    assert set(seen) == {"6x", "x/2", "fib"}
    at_two = Bindings(x=Fraction(2), n=3)
    values = {card_id: taught.catalogue_card(card_id).expression for card_id in seen}
    assert {card_id: expr.evaluate(at_two) for card_id, expr in values.items() if expr} == {
        "6x": 12,
        "x/2": 1,
        "fib": 1,
    }
    assert [taught.catalogue_card(card_id).icons for card_id in ("6x", "x/2", "fib")] == [1, 2, 3]
    assert all(0.5 < observation.confidence <= 1.0 for observation in seen.values())
    # Each face is clearly more like its own card than like the next best one.
    for observation in seen.values():
        assert len(observation.corners) == 4
        face = warp_face(scene.image, observation.corners)
        match = recogniser.match_face(face)
        assert match.card_id == observation.card and match.runner_up < match.score - 0.05


def test_untaught_cards_are_left_out_as_unknown(taught: DeckProfile, shared_data: Path) -> None:
    recogniser = ProfileRecognizer(taught)
    library = FaceLibrary(shared_data / "cards" / "faces-cc0")
    strangers: list[str | CardFace] = ["Qh", "7s", "JK", library.face("back", variant=2)]
    builder = SceneBuilder(33, library)
    reported = []
    for _ in range(4):
        reported += recogniser.recognize(builder.build(strangers).image)
    assert len(reported) <= 1, [(seen.card, seen.confidence) for seen in reported]


def test_a_deck_taught_from_real_photos_recognises_those_cards(
    shared_data: Path, tmp_path: Path
) -> None:
    photos = shared_data / "cards" / "photos-single"
    names = ["Qs", "10h", "Kd", "3c", "Ah"]
    for name in names:
        (tmp_path / f"{name}.jpg").write_bytes((photos / f"{name}.jpg").read_bytes())
    profile = teach_from_images(tmp_path, names, deck_name="photos")
    assert profile.card_ids == names
    recogniser = ProfileRecognizer(profile)
    builder = SceneBuilder(34)
    cards = []
    for name in names:
        photo = image_at(photos / f"{name}.jpg")
        cards.append(CardFace(name, cv2.cvtColor(photo, cv2.COLOR_BGR2BGRA)))
    right = 0
    for chosen in (cards[:3], cards[2:], cards[1:4]):
        scene = builder.build(chosen, height_cm=50.0)
        observations = recogniser.recognize(scene.image)
        right += sum(
            any(
                seen.card == truth.name
                and math.dist(seen.center, tuple(np.mean(truth.corners, axis=0))) < 20
                for seen in observations
            )
            for truth in scene.cards
        )
    assert right >= 8


def test_a_photo_cropped_to_the_card_is_taken_whole(shared_data: Path) -> None:
    photo = image_at(shared_data / "cards" / "photos-single" / "Qs.jpg")
    face = face_from_image(photo, find_outlines=lambda frame: [])
    expected = cv2.resize(photo, (100, 140), interpolation=cv2.INTER_AREA)
    assert np.abs(face.astype(int) - expected.astype(int)).mean() < 4


@pytest.mark.parametrize("photo", ["2c-webcam-topdown-green.png", "10c-phone-angled-leather.jpg"])
def test_a_real_photo_of_a_card_on_a_surface_gives_the_card_face(
    shared_data: Path, photo: str
) -> None:
    image = image_at(shared_data / "cards" / "photos-misc" / photo)
    face = face_from_image(image)
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)[10:-10, 10:-10]
    # Card white all over the inner face, with the clubs' dark pips on it.
    assert np.median(grey) > 150
    assert (grey < 90).mean() > 0.01
    assert face_from_image(np.rot90(image).copy()).shape == face.shape


def test_an_image_without_a_card_is_refused(tmp_path: Path) -> None:
    table = SceneBuilder(41).build([], surface=("wood", "dark")).image
    cv2.imwrite(str(tmp_path / "6x.png"), table)
    with pytest.raises(ProfileError, match=r"6x\.png: no card found") as caught:
        teach_from_images(tmp_path, ["6x"], deck_name="t")
    assert "\n" not in str(caught.value)


# The guided session, replayed frame by frame -------------------------------------------


@pytest.fixture(scope="module")
def frames(faces: dict[str, CardFace]) -> dict[str, np.ndarray]:
    builder = SceneBuilder(40)
    shots = {
        card_id: builder.build([faces[card_id]], glare=False, height_cm=50.0).image
        for card_id in ("6x", "2x+4", "x/2")
    }
    shots["two"] = builder.build([faces["6x"], faces["fib"]], glare=False).image
    shots["empty"] = builder.build([], glare=False).image
    return shots


def replay(teacher: DeckTeacher, images: list[np.ndarray]) -> Iterator[str]:
    for image in images:
        yield teacher.feed(image).message


def test_guided_session_progress_redo_skip_and_back(
    frames: dict[str, np.ndarray], deck: Catalogue
) -> None:
    labels = {card.id: card.text for card in deck}
    teacher = DeckTeacher(
        ["6x", "2x+4", "x/2"], deck_name="t", labels=labels, catalogue="21x", steady_frames=3
    )
    assert teacher.status.message == "show card 6X (1/3)"
    messages = list(replay(teacher, [frames["empty"], frames["two"], frames["6x"], frames["6x"]]))
    assert messages == [
        "show card 6X (1/3) - no card in view",
        "show card 6X (1/3) - 2 cards in view",
        "show card 6X (1/3) - hold still",
        "show card 6X (1/3) - hold still",
    ]
    assert teacher.feed(frames["6x"]).message == "captured 6X (1/3): keep it?"
    # Redo: the same card is captured again, and may stay where it lies.
    assert teacher.redo().step is Step.SHOW
    assert list(replay(teacher, [frames["6x"]] * 3))[-1] == "captured 6X (1/3): keep it?"
    assert teacher.confirm().message == "show card 2X+4 (2/3)"
    # The 6X left lying is not taken for 2X+4.
    assert teacher.feed(frames["6x"]).message == (
        "show card 2X+4 (2/3) - take the last card away first"
    )
    list(replay(teacher, [frames["empty"]] + [frames["2x+4"]] * 3))
    assert teacher.status.step is Step.CONFIRM
    assert teacher.skip().message == "show card X/2 (3/3)"
    assert teacher.back().message == "show card 2X+4 (2/3)"
    list(replay(teacher, [frames["2x+4"]] * 3))
    teacher.confirm()
    assert teacher.skip().message == "done: 2 of 3 cards taught"
    profile = teacher.profile()
    assert profile.card_ids == ["6x", "2x+4"] and profile.catalogue == "21x"
    recogniser = ProfileRecognizer(profile)
    assert [seen.card for seen in recogniser.recognize(frames["2x+4"])] == ["2x+4"]


def test_session_rejects_an_empty_or_repeated_card_list() -> None:
    with pytest.raises(ProfileError, match="no cards"):
        DeckTeacher([], deck_name="t")
    with pytest.raises(ProfileError, match="twice"):
        DeckTeacher(["6x", "6x"], deck_name="t")


# Profiles on disk ------------------------------------------------------------------------


@pytest.fixture()
def saved(taught: DeckProfile, tmp_path: Path) -> Path:
    return taught.save(tmp_path / "decks" / "home")


@pytest.mark.parametrize(
    ("file", "content", "expected"),
    [
        (MANIFEST, b'{"version": 1,\n "cards": [', r"manifest\.json:2: invalid JSON"),
        (MANIFEST, b'{"version": 7}', r"manifest\.json: unsupported profile version 7"),
        (
            MANIFEST,
            b'{"version": 1, "name": "h", "catalogue": null, "face_size": [100, 140],'
            b' "cards": ["a", "a"]}',
            r"manifest\.json: 'cards' lists a card id twice",
        ),
        (FACES, b"PK\x03\x04 truncated", r"faces\.npz: card faces unreadable"),
    ],
)
def test_a_corrupt_profile_is_one_line_naming_the_file(
    saved: Path, file: str, content: bytes, expected: str
) -> None:
    (saved / file).write_bytes(content)
    with pytest.raises(ProfileError, match=expected) as caught:
        DeckProfile.load(saved)
    assert "\n" not in str(caught.value) and str(saved / file) in str(caught.value)


def test_missing_faces_and_missing_deck_are_named(saved: Path, tmp_path: Path) -> None:
    (saved / FACES).unlink()
    with pytest.raises(ProfileError, match=r"faces\.npz: card faces missing"):
        DeckProfile.load(saved)
    with pytest.raises(ProfileError, match=r"nowhere: no taught deck here"):
        load_deck("nowhere", tmp_path)
    with pytest.raises(ProfileError, match="bad deck name"):
        load_deck("../x", tmp_path)


def test_taught_decks_lists_saved_profiles(saved: Path, tmp_path: Path) -> None:
    assert list(taught_decks(tmp_path)) == [saved]
    assert load_deck("home", tmp_path).card_ids[:2] == ["6x", "2x+4"]


# The command line ------------------------------------------------------------------------


def companion(*args: str, data: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "COMPANION_DATA_DIR": str(data)}
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_cli_teach_from_images_round_trip(card_images: Path, tmp_path: Path) -> None:
    result = companion(
        "teach", "home", "--catalogue", "21x", "--from-images", str(card_images), data=tmp_path
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(" from ")[0] for line in lines[:3]] == [
        "taught 6X (1/9)",
        "taught 2X+4 (2/9)",
        "taught X/2 (3/9)",
    ]
    assert lines[-1] == f"saved deck home: 9 cards in {tmp_path / 'decks' / 'home'}"
    listed = companion("decks", "--json", data=tmp_path)
    assert json.loads(listed.stdout) == [
        {"name": "home", "cards": 9, "catalogue": "21x", "path": str(tmp_path / "decks" / "home")}
    ]
    profile = load_deck("home", tmp_path)
    assert profile.catalogue_card("fib").text == "Fib(X)"


def test_cli_teach_guided_with_a_replayed_camera(
    frames: dict[str, np.ndarray], tmp_path: Path
) -> None:
    replayed = tmp_path / "camera"
    replayed.mkdir()
    sequence = [frames["6x"]] * 6 + [frames["empty"]] + [frames["x/2"]] * 6
    for number, image in enumerate(sequence):
        cv2.imwrite(str(replayed / f"{number:03d}.png"), image)
    result = companion(
        "teach",
        "guided",
        "--catalogue",
        "21x",
        "--cards",
        "6X",
        "x/2",
        "--camera",
        str(replayed),
        data=tmp_path,
        stdin="\n\n\n\n",
    )
    assert result.returncode == 0, result.stderr
    assert "captured 6X (1/2): keep it?" in result.stdout
    assert "captured X/2 (2/2): keep it?" in result.stdout
    assert load_deck("guided", tmp_path).card_ids == ["6x", "x/2"]
    listed = companion("decks", data=tmp_path)
    assert listed.stdout.strip() == (
        f"guided: 2 cards, catalogue 21x ({tmp_path / 'decks' / 'guided'})"
    )


def test_cli_decks_lists_the_good_decks_and_names_a_broken_one(saved: Path, tmp_path: Path) -> None:
    broken = tmp_path / "decks" / "broken"
    broken.mkdir(parents=True)
    (broken / "manifest.json").write_text("{not json", encoding="utf-8")
    listed = companion("decks", data=tmp_path)
    assert listed.returncode == 2
    home = tmp_path / "decks" / "home"
    assert listed.stdout.strip() == f"synthetic-21x: 9 cards, catalogue 21x ({home})"
    [problem] = listed.stderr.splitlines()
    assert problem.startswith("companion decks: error: ") and "manifest.json" in problem


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--catalogue", "21x", "--cards", "7Q"], "companion teach: error: "),
        (["--catalogue", "21x", "--cards", "3X+9"], "card '3X+9' is not in catalogue '21x'"),
        (["--catalogue", "21x", "--cards", "nosuch"], "card 'nosuch' is not in catalogue '21x'"),
        (["--cards", "6x", "--from-images", "missing"], "missing: no such directory of card"),
        (["--catalogue", "nowhere.toml"], "nowhere.toml: no such catalogue file"),
        ([], "say which cards to teach"),
    ],
)
def test_cli_teach_errors_are_one_line(args: list[str], expected: str, tmp_path: Path) -> None:
    result = companion("teach", "home", *args, data=tmp_path)
    assert result.returncode == 2
    assert expected in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_cli_reports_a_stray_image_and_a_corrupt_deck(card_images: Path, tmp_path: Path) -> None:
    stray = tmp_path / "images"
    stray.mkdir()
    (stray / "joker.png").write_bytes(next(card_images.glob("*.png")).read_bytes())
    result = companion(
        "teach", "home", "--catalogue", "21x", "--from-images", str(stray), data=tmp_path
    )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"companion teach: error: {stray / 'joker.png'}: file name is not a card of this deck"
    )
    broken = tmp_path / "decks" / "broken"
    broken.mkdir(parents=True)
    (broken / MANIFEST).write_text("{not json", encoding="utf-8")
    listed = companion("decks", data=tmp_path)
    assert listed.returncode == 2
    assert f"{broken / MANIFEST}:1: invalid JSON" in listed.stderr


def test_cli_teach_with_the_owner_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "mine.toml").write_text(
        '[[card]]\nid = "3x-1"\ntext = "3X-1"\nlevel = 2\n', encoding="utf-8"
    )
    images = tmp_path / "images"
    images.mkdir()
    for card in (ExpressionCard("3x-1", "3X-1", 2), ExpressionCard("6x", "6X")):
        cv2.imwrite(str(images / f"{file_key(card.text)}.png"), render(card).image[:, :, :3])
    result = companion(
        "teach",
        "mixed",
        "--catalogue",
        "owner",
        "--cards",
        "3X-1",
        "6x",
        "--from-images",
        str(images),
        data=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    profile = load_deck("mixed")
    assert profile.catalogue == "owner" and profile.card_ids == ["3x-1", "6x"]
    assert profile.catalogue_card("3x-1").icons == 2
    assert profile.catalogue_card("6x").text == "6X"


def test_cli_keeps_the_cards_taught_before_the_camera_ran_out(
    frames: dict[str, np.ndarray], tmp_path: Path
) -> None:
    replayed = tmp_path / "camera"
    replayed.mkdir()
    for number in range(6):
        cv2.imwrite(str(replayed / f"{number:03d}.png"), frames["6x"])
    result = companion(
        "teach",
        "short",
        "--catalogue",
        "21x",
        "--cards",
        "6x",
        "fib",
        "--camera",
        str(replayed),
        data=tmp_path,
        stdin="\n\n\n",
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "saved deck short: 1 cards" in result.stdout
    assert load_deck("short", tmp_path).card_ids == ["6x"]


def test_teaching_from_a_synthetic_camera_with_sensor_noise(faces: dict[str, CardFace]) -> None:
    teacher = DeckTeacher(["6x", "fib"], deck_name="camera", catalogue="21x")
    with SceneCamera(SceneBuilder(42)) as camera:
        for card_id in teacher.card_ids:
            camera.show([faces[card_id]], height_cm=50.0, glare=False)
            statuses = [teacher.feed(camera.read()) for _ in range(teacher.steady_frames)]
            assert [status.step for status in statuses] == [Step.SHOW] * 4 + [Step.CONFIRM]
            teacher.confirm()
        camera.show([faces["fib"], faces["6x"]], glare=False)
        seen = ProfileRecognizer(teacher.profile()).recognize(camera.read())
    assert sorted(observation.card for observation in seen) == ["6x", "fib"]


def test_a_card_too_small_in_view_is_not_captured(faces: dict[str, CardFace]) -> None:
    teacher = DeckTeacher(["6x"], deck_name="far")
    far = SceneBuilder(43, size=(640, 480)).build([faces["6x"]], height_cm=75.0, glare=False)
    for _ in range(teacher.steady_frames + 1):
        status = teacher.feed(far.image)
    assert status.step is Step.SHOW
    assert "px wide; bring the camera closer or use a higher resolution" in status.message
