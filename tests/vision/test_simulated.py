"""The simulated table: cards laid in zones, read back by the real card and dice readers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from companion.errors import DeviceError
from vision.cards import CardRecognizer
from vision.dice import find_dice
from vision.layout import DEFAULT_LAYOUTS, TableLayout
from vision.simulated import (
    SimulatedTable,
    SimulationError,
    builtin_expressions,
    faces_library,
    simulated_deck,
)


@pytest.fixture(scope="module")
def recognizer() -> CardRecognizer:
    return CardRecognizer()


def default_layout(game: str) -> TableLayout:
    make: Callable[[], TableLayout] = DEFAULT_LAYOUTS[game]
    return make()


def seat_zones(layout: TableLayout) -> list[str]:
    return [zone.name for zone in layout.zones if zone.kind == "player"]


def read_zones(table: SimulatedTable, recognizer: CardRecognizer) -> set[tuple[str, str | None]]:
    layout = table.layout.calibrated(table.calibration())
    return {(seen.card, seen.zone) for seen in layout.assign(recognizer.recognize(table.read()))}


def test_cards_in_every_seat_and_the_trick_are_read_in_their_zones(
    shared_data: Path, recognizer: CardRecognizer
) -> None:
    layout = default_layout("trick")
    # (Seeds 2 and 4 drew noise under which the nearest-neighbour glyph model read Kd as
    # 4d and 10c as 9c; the learned model reads seeds 0-5 right.)
    table = SimulatedTable(layout, seed=4, faces=faces_library(shared_data / "cards/faces-cc0"))
    seats = seat_zones(layout)
    for number, card in enumerate(["Kd", "7h", "10c", "As", "Qs", "3d", "9s", "5h"]):
        table.place(card, seats[number % 4])
    for card in ["2c", "Jh", "8s", "4d"]:
        table.place(card, "trick")
    assert read_zones(table, recognizer) == {(p.card, p.zone) for p in table.placements}


def test_solitaire_columns_stack_cards_with_the_top_card_whole(
    recognizer: CardRecognizer,
) -> None:
    # Cards under others are hard to read (the watcher remembers them once seen on top).
    table = SimulatedTable(default_layout("solitaire"), seed=5)
    columns = [["Kd", "7h", "3c"], ["As", "9s"], ["Qh"], ["2d", "5s", "8c"]]
    for column, cards in enumerate(columns):
        for card in cards:
            table.place(card, f"column-{column}")
    table.place("6h", "draw")
    tops = {(cards[-1], f"column-{column}") for column, cards in enumerate(columns)}
    assert tops | {("6h", "draw")} <= read_zones(table, recognizer)


def test_medley_grid_corners_and_dice_are_read(recognizer: CardRecognizer) -> None:
    layout = default_layout("medley")
    table = SimulatedTable(layout, seed=6)
    for cell, card in enumerate(["Kd", "7h", "10c", "As", "Qs", "3d", "9s", "5h", "2c"]):
        table.place(card, f"cell-{cell}")
    table.place("JK", "corner-2")
    table.roll([3, 6])
    assert read_zones(table, recognizer) == {(p.card, p.zone) for p in table.placements}
    calibrated = layout.calibrated(table.calibration())
    dice = calibrated.assign(find_dice(crop_of(table, "dice")[0]))
    assert sorted(die.value for die in dice) == [3, 6]


def crop_of(table: SimulatedTable, zone: str) -> tuple[np.ndarray, tuple[int, int]]:
    calibration = table.calibration()
    points = np.array([calibration.to_image(p) for p in table.layout.zone(zone).polygon])
    x0, y0 = (int(v) - 10 for v in points.min(axis=0))
    x1, y1 = (int(v) + 10 for v in points.max(axis=0))
    return table.read()[y0:y1, x0:x1], (x0, y0)


def test_a_table_is_rendered_once_per_change_and_noisy_per_frame() -> None:
    table = SimulatedTable(default_layout("21x"), seed=1)
    table.place("6x", "deck")
    first, second = table.read(), table.read()
    assert table.renders == 1
    assert first.shape == (720, 1280, 3) and bool((first != second).any())
    table.move("6x", "discard")
    table.read()
    assert table.renders == 2
    assert table.remove("6x").zone == "discard"
    table.clear()
    assert table.placements == () and table.dice == ()


def test_the_calibration_puts_each_drawn_card_in_its_zone() -> None:
    layout = default_layout("21x")
    table = SimulatedTable(layout, seed=2, tilt_degrees=12.0)
    seats = seat_zones(layout)
    for number, card in enumerate(["6x", "2x+4", "x/2", "prime", "fib"]):
        table.place(card, seats[number % len(seats)])
    calibration = table.calibration()
    zones = [layout.zone_at(calibration.to_table(card.visible_center)) for card in table.truth()]
    assert zones == [p.zone for p in sorted(table.placements, key=lambda p: seats.index(p.zone))]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.place("Zz", "deck"), "unknown card 'Zz'"),
        (lambda t: t.place("Kd", "nowhere"), "has no zone 'nowhere'"),
        (lambda t: t.remove("Kd"), "card 'Kd' is not on the simulated table"),
        (lambda t: t.move("Kd", "deck"), "card 'Kd' is not on the simulated table"),
        (lambda t: t.roll([2]), "has no dice zone"),
    ],
)
def test_impossible_changes_say_what_is_wrong(change: object, message: str) -> None:
    table = SimulatedTable(default_layout("21x"))
    with pytest.raises(SimulationError, match=message):
        change(table)  # type: ignore[operator]


def test_only_known_21x_cards_can_be_taught(tmp_path: Path) -> None:
    with pytest.raises(SimulationError, match="no 21X card 'zz' to teach"):
        simulated_deck(builtin_expressions(), ["6x", "zz"], data=tmp_path)


def test_a_die_shows_one_to_six() -> None:
    table = SimulatedTable(default_layout("medley"))
    with pytest.raises(SimulationError, match="a die shows 1 to 6, not 7"):
        table.roll([7])


def test_missing_faces_and_a_closed_table_are_device_errors(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="no card faces there"):
        faces_library(tmp_path / "absent")
    table = SimulatedTable(default_layout("solitaire"))
    table.close()
    with pytest.raises(DeviceError, match="simulated table is closed"):
        table.read()
    assert table.reopen().read().shape == (720, 1280, 3)
