"""Table layout: calibration homography, zones, assignment, TOML files and their errors."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from vision.layout import (
    DEFAULT_LAYOUTS,
    Calibration,
    LayoutError,
    TableLayout,
    Zone,
    medley_layout,
    players_layout,
    solitaire_layout,
)
from vision.observations import CardObservation, DieObservation

# A camera looking down at an angle: a real perspective, not just a scale.
TRUE_MATRIX = np.array([[0.9, 0.12, -40.0], [-0.05, 1.3, -60.0], [0.0001, 0.0011, 1.0]])


def project(matrix: np.ndarray, point: tuple[float, float]) -> tuple[float, float]:
    x, y, w = matrix @ np.array([point[0], point[1], 1.0])
    return (x / w, y / w)


IMAGE_MARKS = [(80.0, 60.0), (560.0, 70.0), (600.0, 430.0), (40.0, 420.0)]


def test_four_points_give_the_exact_homography() -> None:
    table = [project(TRUE_MATRIX, p) for p in IMAGE_MARKS]
    calibration = Calibration.from_points(IMAGE_MARKS, table)
    for pixel in [(320.0, 240.0), (10.0, 470.0), (630.0, 5.0)]:
        expected = project(TRUE_MATRIX, pixel)
        assert calibration.to_table(pixel) == pytest.approx(expected, abs=1e-6)
        assert calibration.to_image(expected) == pytest.approx(pixel, abs=1e-6)
    assert calibration.rms_error < 1e-6


def test_more_points_are_fitted_like_opencv_least_squares() -> None:
    rng = np.random.default_rng(7)
    image = [(float(x), float(y)) for x, y in rng.uniform((0, 0), (640, 480), size=(12, 2))]
    table = [
        (tx + float(rng.normal(0, 0.8)), ty + float(rng.normal(0, 0.8)))
        for tx, ty in (project(TRUE_MATRIX, p) for p in image)
    ]
    calibration = Calibration.from_points(image, table)
    reference, _ = cv2.findHomography(np.array(image), np.array(table), 0)
    for pixel in [(320.0, 240.0), (100.0, 400.0)]:
        ours = calibration.to_table(pixel)
        theirs = project(reference, pixel)
        assert math.dist(ours, theirs) < 0.5
        assert math.dist(ours, project(TRUE_MATRIX, pixel)) < 2.0
    assert 0.3 < calibration.rms_error < 2.0


@given(
    st.lists(
        st.tuples(st.floats(-500, 500), st.floats(-500, 500)),
        min_size=4,
        max_size=4,
    )
)
@example([(0.0, 162.0), (323.0, 0.0), (-224.0, 274.0), (0.0, 0.0)])  # tiny det in mm/pixels
@settings(max_examples=60, deadline=None)
def test_any_four_marks_in_general_position_round_trip(corners: list[tuple[float, float]]) -> None:
    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    triples = [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    if any(abs(cross(*(corners[i] for i in t))) < 100.0 for t in triples):
        return  # nearly collinear marks: covered by the degenerate test below
    table = [(0.0, 0.0), (400.0, 0.0), (400.0, 300.0), (0.0, 300.0)]
    calibration = Calibration.from_points(corners, table)
    for corner, expected in zip(corners, table, strict=True):
        assert calibration.to_table(corner) == pytest.approx(expected, abs=1e-4)


def test_bad_calibration_points_are_one_line_errors() -> None:
    square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    with pytest.raises(LayoutError, match="at least 4 point pairs, not 3"):
        Calibration.from_points(square[:3], square[:3])
    with pytest.raises(LayoutError, match="as many table points"):
        Calibration.from_points(square, square[:3])
    with pytest.raises(LayoutError, match="in a line"):
        Calibration.from_points([(0, 0), (1, 0), (2, 0), (0, 1)], square)
    with pytest.raises(LayoutError, match=r"pair of numbers \[x, y\], not 'a'"):
        Calibration.from_points(["a", (1, 0), (1, 1), (0, 1)], square)  # type: ignore[list-item]


def test_point_in_polygon_inside_outside_edge_and_concave() -> None:
    ell = Zone("ell", ((0, 0), (20, 0), (20, 10), (10, 10), (10, 20), (0, 20)))
    assert ell.contains((5, 15))
    assert ell.contains((15, 5))
    assert not ell.contains((15, 15))  # the notch of the L
    assert ell.contains((20, 5))  # on an edge
    assert ell.contains((0, 0))  # a corner
    assert not ell.contains((-0.01, 5))


def test_observations_are_assigned_to_zones_through_the_calibration() -> None:
    layout = medley_layout()
    table_marks = [
        (0.0, 0.0),
        (layout.width, 0.0),
        (layout.width, layout.height),
        (0.0, layout.height),
    ]
    image_marks = [project(np.linalg.inv(TRUE_MATRIX), p) for p in table_marks]
    calibrated = layout.calibrated(Calibration.from_points(image_marks, table_marks))

    def seen_at(zone: str) -> tuple[float, float]:
        return project(np.linalg.inv(TRUE_MATRIX), layout.zone(zone).center)

    cards = [
        CardObservation("7h", seen_at("cell-2"), seen_at("cell-2"), 0.9),
        CardObservation("Ks", seen_at("corner-2"), seen_at("corner-2"), 0.9),
        CardObservation("2c", project(np.linalg.inv(TRUE_MATRIX), (3.0, 3.0)), (0.0, 0.0), 0.9),
    ]
    dice = [DieObservation(4, seen_at("dice"), 0.8)]
    assert [c.zone for c in calibrated.assign(cards)] == ["cell-2", "corner-2", None]
    assert [d.zone for d in calibrated.assign(dice)] == ["dice"]


def test_assigning_without_calibration_is_an_error() -> None:
    with pytest.raises(LayoutError, match="not calibrated"):
        medley_layout().assign([DieObservation(3, (1.0, 1.0), 0.5)])


def test_first_zone_in_file_order_wins() -> None:
    layout = players_layout(4, centre=("deck", "trick"))
    assert layout.zone_at(layout.zone("trick").center) == "trick"
    middle = layout.zone("trick").center
    assert any(zone.contains(middle) for zone in layout.zones if zone.kind == "player")


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6, 8])
def test_player_wedges_cover_the_table_edge_once(players: int) -> None:
    layout = players_layout(players)
    wedges = [zone for zone in layout.zones if zone.kind == "player"]
    assert len(wedges) == players
    for step in range(72):
        angle = 2 * math.pi * (step + 0.5) / 72
        point = (450 + 440 * math.cos(angle), 300 + 290 * math.sin(angle))
        assert sum(wedge.contains(point) for wedge in wedges) == 1
    assert layout.zone_at((450.0, 595.0)) == "seat-1"  # the first player at the bottom edge


def test_medley_has_its_grid_corners_and_piles() -> None:
    layout = medley_layout()
    names = {zone.name for zone in layout.zones}
    assert {f"cell-{i}" for i in range(9)} <= names
    assert {"corner-0", "corner-1", "corner-2", "corner-3", "draw", "discard", "dice"} <= names
    cells = [layout.zone(f"cell-{i}").center for i in range(9)]
    assert cells[1][0] > cells[0][0] and cells[3][1] > cells[0][1]  # row by row
    top_left, first = layout.zone("corner-0").center, cells[0]
    assert top_left[0] < first[0] and top_left[1] < first[1]  # diagonally off the grid corner
    bottom_right, last = layout.zone("corner-3").center, cells[8]
    assert bottom_right[0] > last[0] and bottom_right[1] > last[1]


def test_solitaire_columns_from_a_parameter() -> None:
    layout = solitaire_layout(5)
    columns = [zone for zone in layout.zones if zone.kind == "column"]
    assert [zone.name for zone in columns] == [f"column-{i}" for i in range(5)]
    xs = [zone.center[0] for zone in columns]
    assert xs == sorted(xs)
    with pytest.raises(LayoutError, match="1 to 8 columns, not 9"):
        solitaire_layout(9)


@pytest.mark.parametrize("game", sorted(DEFAULT_LAYOUTS))
def test_every_default_layout_survives_save_and_load(game: str, tmp_path: Path) -> None:
    layout = DEFAULT_LAYOUTS[game]()
    marks = [(0.0, 0.0), (layout.width, 0.0), (layout.width, layout.height), (0.0, layout.height)]
    calibrated = layout.calibrated(Calibration.from_points(IMAGE_MARKS, marks))
    path = tmp_path / f"{game}.toml"
    calibrated.save(path)
    loaded = TableLayout.load(path)
    assert loaded == calibrated
    assert loaded.calibration is not None and calibrated.calibration is not None
    assert loaded.calibration.to_table((320.0, 240.0)) == pytest.approx(
        calibrated.calibration.to_table((320.0, 240.0))
    )


GOOD = """\
name = "kitchen"
width = 800
height = 500

[calibration]
image = [[10, 10], [630, 12], [620, 470], [15, 465]]
table = [[0, 0], [800, 0], [800, 500], [0, 500]]

[[zone]]
name = "trick"
kind = "trick"
rect = [300, 150, 200, 200]

[[zone]]
name = "ann"
kind = "player"
polygon = [[0, 350], [800, 350], [800, 500], [0, 500]]
"""


def test_a_hand_written_file_loads() -> None:
    layout = TableLayout.loads(GOOD, path="kitchen.toml")
    assert layout.name == "kitchen"
    assert [zone.name for zone in layout.zones] == ["trick", "ann"]
    assert layout.zone_at((400.0, 250.0)) == "trick"
    assert layout.zone_at((100.0, 400.0)) == "ann"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("rect = [300, 150, 200, 200]", "rect = [300, 150, -2, 200]"),
            "kitchen.toml:12: zone.1.rect: must be [x, y, width, height] with positive size",
        ),
        (
            (
                "polygon = [[0, 350], [800, 350], [800, 500], [0, 500]]",
                "polygon = [[0, 350], [800, 350]]",
            ),
            "kitchen.toml:17: zone.2.polygon: needs at least 3 corners [[x, y], ...], not 2",
        ),
        (
            ("polygon = [[0, 350]", "polygon = [[0, 'x']"),
            'kitchen.toml:17: zone.2.polygon.1: must be a pair of numbers [x, y], not [0, "x"]',
        ),
        (
            ('kind = "player"', 'kind = "player"\ncolour = "red"'),
            "kitchen.toml:17: zone.2.colour: unknown key (known: name, kind, polygon, rect)",
        ),
        (
            ("width = 800", "width = -800"),
            "kitchen.toml:2: width: must be a positive number of mm, not -800",
        ),
        (("width = 800\n", ""), "kitchen.toml: width: is required"),
        (
            ('name = "ann"', 'name = "trick"'),
            'kitchen.toml:15: zone.2.name: zone names repeat: "trick" is also zone 1',
        ),
        (
            ("table = [[0, 0], [800, 0], [800, 500], [0, 500]]", "table = [[0, 0]]"),
            "kitchen.toml:5: calibration: calibration needs as many table points",
        ),
        (("height = 500", "height = 500\nheight = 600"), "kitchen.toml:4: invalid TOML"),
        (("rect = [300, 150, 200, 200]\n", ""), "kitchen.toml:10: zone.1.name: give exactly one"),
        (('name = "ann"\n', ""), "kitchen.toml:14: zone.2.name: is required"),
        (
            ("[calibration]", "[calibraton]"),
            "kitchen.toml:5: calibraton: unknown key (known: name, width, height, calibration,",
        ),
    ],
)
def test_file_errors_name_the_line_and_key(change: tuple[str, str], message: str) -> None:
    text = GOOD.replace(*change, 1)
    assert text != GOOD
    with pytest.raises(LayoutError) as caught:
        TableLayout.loads(text, path="kitchen.toml")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_missing_layout_file_is_a_companion_error(tmp_path: Path) -> None:
    with pytest.raises(CompanionError, match=r"nowhere\.toml: no such layout file"):
        TableLayout.load(tmp_path / "nowhere.toml")


def test_marks_whose_image_origin_maps_to_infinity_still_calibrate() -> None:
    corners = [(0.0, 2.0), (0.0, 6.0), (25.0, 0.0), (75.0, 0.0)]
    table = [(0.0, 0.0), (400.0, 0.0), (400.0, 300.0), (0.0, 300.0)]
    calibration = Calibration.from_points(corners, table)
    for corner, expected in zip(corners, table, strict=True):
        assert calibration.to_table(corner) == pytest.approx(expected, abs=1e-4)


# Names as people type them, and worse: quotes, backslashes, newlines, '=' and '#', any
# unicode letter, tabs and other control characters (anything but blank).
NAMES = st.text(min_size=1, max_size=20).filter(lambda name: name.strip() != "")
COORDINATES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e-300, max_value=1e-300),
    st.integers(min_value=-10_000, max_value=10_000),
)
POINTS = st.tuples(COORDINATES, COORDINATES)


@st.composite
def layouts(draw: st.DrawFn) -> TableLayout:
    names = draw(st.lists(NAMES, min_size=1, max_size=4, unique=True))
    zones = tuple(
        Zone(name, tuple(draw(st.lists(POINTS, min_size=3, max_size=6))), draw(NAMES))
        for name in names
    )
    size = st.floats(min_value=50.0, max_value=5000.0)  # a table's mm (and calibratable)
    width, height = draw(size), draw(size)
    layout = TableLayout(draw(NAMES), width, height, zones)
    if draw(st.booleans()):
        marks = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
        layout = layout.calibrated(Calibration.from_points(IMAGE_MARKS, marks))
    return layout


@given(layouts())
@settings(max_examples=100, deadline=None)
def test_any_layout_round_trips_through_its_toml(layout: TableLayout) -> None:
    text = layout.dumps()
    loaded = TableLayout.loads(text, path="any.toml")
    assert loaded == layout
    assert [zone.name for zone in loaded.zones] == [zone.name for zone in layout.zones]
    assert loaded.dumps() == text


def test_a_written_layout_is_plain_toml_with_escaped_names() -> None:
    zone = Zone('say "hi"\n= #1 \\ é', ((0, 0), (1.5, -0.0), (5e-324, 1)), kind="trick")
    text = TableLayout("x", 10, 10, (zone,)).dumps()
    assert 'name = "say \\"hi\\"\\n= #1 \\\\ é"' in text
    assert TableLayout.loads(text).zones == (zone,)


HOSTILE_NAMES = ['say "cheese"', "back\\slash", "two\nlines", "tab\there", "zoë ☕ 名前",
                 "'single'", "[[zone]]", "# not a comment", "\u0001"]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_layout_with_hostile_names_is_read_back_identically(name: str, tmp_path: Path) -> None:
    zones = (Zone.rectangle(name, 0, 0, 100, 50, kind=name), Zone.rectangle("plain", 0, 60, 5, 5))
    layout = TableLayout(name, 800, 500.5, zones)
    path = tmp_path / "hostile.toml"
    layout.save(path)
    assert TableLayout.load(path) == layout
