"""A simulated card table: a :class:`~vision.camera.Camera` over cards placed in named zones.

With no camera (a laptop, CI) the companion still runs its real pipeline: a
:class:`SimulatedTable` renders the table as a camera above it would see it, from the
project's own scene generator (:mod:`vision.scenes.synthetic`), with the CC0 faces for standard
cards and :func:`~vision.scenes.synthetic.render_expression_card` for 21X cards. Cards are put in
the zones of a :class:`~vision.layout.TableLayout` and laid out neatly there: in a row
(or, with ``hands="fan"``, a fanned hand) facing the player in a seat zone, stacked downwards in a
solitaire column, side by side (overlapping when the zone is small) anywhere else. Dice are
drawn in the ``dice`` zone.

The clean table is rendered only when something changed; each :meth:`SimulatedTable.read`
adds fresh sensor noise to that render. :meth:`SimulatedTable.calibration` is the exact
image-to-table mapping, so zones need no calibration by touch in simulation.

>>> from vision.layout import medley_layout
>>> with SimulatedTable(medley_layout(), seed=2) as table:
...     table.place("7h", "cell-4")
...     table.roll([3, 5])
...     frame = table.read()
...     zone = table.layout.zone_at(table.calibration().to_table(table.truth()[0].visible_center))
>>> frame.shape, [(seen.name, zone) for seen in table.truth()][:1], table.dice
((720, 1280, 3), [('7h', 'cell-4')], (3, 5))
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from companion.cardmath.catalogue import builtin
from companion.errors import CompanionError, DeviceError
from companion.playing_cards import PlayingCard, UnknownCard
from vision.camera import Camera, Image
from vision.layout import CARD_HEIGHT, CARD_WIDTH, Calibration, TableLayout, Zone, players_layout
from vision.profile import PROFILE_VERSION, DeckProfile, ProfileError, decks_dir
from vision.scenes.synthetic import (
    FIELD_OF_VIEW,
    Array,
    CardFace,
    ExpressionCard,
    FaceLibrary,
    PlacedCard,
    SceneBuilder,
    _cast_shadow,
    _paste_face,
    _project,
    _rounded_alpha,
    _truth,
    camera_homography,
    render_expression_card,
)
from vision.scenes.textures import Kind, Tone, table_texture
from vision.teach import face_from_image

log = logging.getLogger(__name__)

#: The CC0 card faces, relative to the repository root (the shared data beside the checkout).
FACES_DIR = Path(__file__).resolve().parent.parent.parent / "shared/data/cards/faces-cc0"
#: How the simulator's own taught decks are named in the data folder's decks (then a digest).
SIMULATED_DECK = "simulated-"
#: Camera height (cm) when the layout's zones fit: cards are about 115 pixels tall at 1280x720.
DEFAULT_HEIGHT_CM = 70.0
#: Space (mm) kept between the cards of a row, and the least overlap step that leaves a
#: standard card's corner index in view.
ROW_GAP = 10.0
MIN_STEP = 14.0
#: How far (mm) down a solitaire column each card lies below the one before.
COLUMN_STEP = 30.0
#: A seat's row of cards keeps this far (mm) inside the table edge and the camera's view.
EDGE_MARGIN = 20.0
#: A fanned hand (``hands="fan"``): degrees between neighbours, and how far below a card's
#: centre (share of its height) the hand pivots, as a player spreads a hand to read it.
FAN_SPREAD = 30.0
FAN_PIVOT = 0.7
#: A die's side (mm) and where its pips lie, as fractions of the side.
DIE_MM = 22.0
PIPS: Mapping[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


class SimulationError(CompanionError, ValueError):
    """A change the simulated table cannot make (an unknown card or zone, a card not there)."""


@dataclass(frozen=True)
class Placement:
    """A card on the simulated table: its name, its zone and its place in that zone."""

    card: str
    zone: str
    slot: int


@dataclass(frozen=True)
class _Pose:
    """Where a card or die lies: its centre on the table (mm) and its turn (degrees)."""

    x: float
    y: float
    rotation: float


def faces_library(directory: str | Path | None = None) -> FaceLibrary:
    """The CC0 faces (``../shared/data/cards/faces-cc0`` from the repository root by default).

    >>> faces_library("/no/such/faces")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    companion.errors.DeviceError: /no/such/faces: no card faces there (they are in ...)
    """
    folder = Path(directory) if directory is not None else FACES_DIR.resolve()
    if not folder.is_dir():
        raise DeviceError(
            f"{folder}: no card faces there (they are in ../shared/data/cards/faces-cc0"
            " beside the repository)"
        )
    return FaceLibrary(folder)


@cache
def builtin_expressions() -> Mapping[str, ExpressionCard]:
    """The 21X catalogue's cards, by id, as they are drawn."""
    return {card.id: ExpressionCard.from_catalogue(card) for card in builtin("21x")}


def die_face(value: int, size: int = 96) -> CardFace:
    """An upright white die face with ``value`` black pips, BGRA, ``size`` pixels square.

    >>> die_face(5).image.shape
    (96, 96, 4)
    """
    if value not in PIPS:
        raise SimulationError(f"a die shows 1 to 6, not {value}")
    image = np.full((size, size, 3), 245, np.uint8)
    for fx, fy in PIPS[value]:
        centre = (round(fx * size), round(fy * size))
        cv2.circle(image, centre, round(size * 0.09), (25, 25, 25), -1, cv2.LINE_AA)
    face = np.dstack([image, _rounded_alpha((size, size), size // 7)])
    return CardFace(f"die {value}", face)


class SimulatedTable(Camera):
    """A camera ``height_cm`` above a table laid out as ``layout``, tipped by ``tilt_degrees``.

    ``faces`` gives the standard card faces (default: the CC0 faces, a
    :class:`~companion.errors.DeviceError` if they are absent); ``expressions`` the
    21X cards by id (default: the built-in catalogue); ``hands`` how a seat's cards lie:
    ``"row"`` side by side (overlapping when crowded), ``"fan"`` a fanned hand. The
    changing methods may be called from any thread; :meth:`read` renders again only
    after a change.
    """

    description = "simulated table"

    def __init__(
        self,
        layout: TableLayout,
        *,
        height_cm: float | None = None,
        tilt_degrees: float = 0.0,
        seed: int = 0,
        faces: FaceLibrary | None = None,
        expressions: Mapping[str, ExpressionCard] | None = None,
        surface: tuple[Kind, Tone] = ("cloth", "dark"),
        size: tuple[int, int] = (1280, 720),
        noise_sigma: float = 3.0,
        hands: Literal["row", "fan"] = "row",
    ) -> None:
        self.layout = layout
        self.hands = hands
        self.faces = faces if faces is not None else faces_library()
        self.expressions = expressions if expressions is not None else builtin_expressions()
        self.size = size
        self.height_cm = height_cm if height_cm is not None else fitting_height(layout, size)
        self.tilt_degrees = tilt_degrees
        self._noise = (seed, noise_sigma)
        self._builder: SceneBuilder | None = None
        self._to_image = camera_homography(size, self.height_cm, tilt_degrees) @ np.array(
            [[0.1, 0.0, -layout.width / 20.0], [0.0, 0.1, -layout.height / 20.0], [0.0, 0.0, 1.0]]
        )
        self._background = table_texture(*surface, size, np.random.default_rng(seed))
        self._lock = threading.Lock()
        self._placements: list[Placement] = []
        self._dice: tuple[int, ...] = ()
        self._render: Image | None = None
        self._truth: tuple[PlacedCard, ...] = ()
        self.renders = 0
        self._open = True

    # --- changing the table -------------------------------------------------------------

    def place(self, card: str, zone: str, *, slot: int | None = None) -> None:
        """Put ``card`` in ``zone`` at ``slot`` (default: the first free one).

        A card's place in its zone depends on its slot only, so laying or taking one card
        never moves the others: slot 0 is in the middle of a seat's row (then right,
        left, ...), at the top of a column, top left in a zone for several cards (the
        trick, a hand), at the bottom of a pile.
        """
        self._check_card(card)
        self._check_zone(zone)
        with self._lock:
            if slot is None:
                taken = {p.slot for p in self._placements if p.zone == zone}
                slot = next(k for k in range(len(taken) + 1) if k not in taken)
            self._placements.append(Placement(card, zone, slot))
            self._render = None

    def remove(self, card: str) -> Placement:
        """Take ``card`` off the table (one of them, for two jokers); returns where it was."""
        with self._lock:
            placement = self._find(card)
            self._placements.remove(placement)
            self._render = None
            return placement

    def move(self, card: str, zone: str, *, slot: int | None = None) -> None:
        """Move ``card`` to ``zone`` (at ``slot``, default the first free one)."""
        self._check_zone(zone)
        with self._lock:
            self._find(card)
        self.remove(card)
        self.place(card, zone, slot=slot)

    def roll(self, values: Sequence[int]) -> None:
        """Dice showing ``values`` in the dice zone (none: take the dice away)."""
        for value in values:
            if value not in PIPS:
                raise SimulationError(f"a die shows 1 to 6, not {value}")
        if values and self._dice_zone() is None:
            raise SimulationError(f"layout {self.layout.name!r} has no dice zone")
        with self._lock:
            self._dice = tuple(values)
            self._render = None

    def clear(self) -> None:
        """Take every card and die off the table."""
        with self._lock:
            self._placements.clear()
            self._dice = ()
            self._render = None

    @property
    def placements(self) -> tuple[Placement, ...]:
        """The cards on the table, in the order they were placed."""
        with self._lock:
            return tuple(self._placements)

    @property
    def dice(self) -> tuple[int, ...]:
        """The values of the dice on the table."""
        return self._dice

    # --- the camera --------------------------------------------------------------------

    def read(self) -> Image:
        """The table now, with this frame's sensor noise (1280x720 BGR by default)."""
        if not self._open:
            raise DeviceError(f"{self.description} is closed")
        if self._builder is None:  # made at the first frame: a table only drawn needs none
            seed, sigma = self._noise
            self._builder = SceneBuilder(seed, self.faces, self.size, sigma)
        return self._builder.add_noise(self.clean().copy())

    def clean(self) -> Image:
        """The table now without noise (rendered again only after a change)."""
        with self._lock:
            if self._render is None:
                self._render, self._truth = self._draw()
                self.renders += 1
            return self._render

    def truth(self) -> tuple[PlacedCard, ...]:
        """Where each card lies in the image now, as drawn (cards in drawing order)."""
        self.clean()
        return self._truth

    def calibration(self) -> Calibration:
        """The exact image-pixel to table-millimetre mapping of this camera."""
        corners = [(0.0, 0.0), (self.layout.width, 0.0), (self.layout.width, self.layout.height),
                   (0.0, self.layout.height)]
        image = [tuple(float(v) for v in _project(self._to_image, np.array([c]))[0])
                 for c in corners]
        return Calibration.from_points([(x, y) for x, y in image], corners)

    def close(self) -> None:
        """Stop giving frames (a closed table raises :class:`DeviceError` on read)."""
        self._open = False

    def reopen(self) -> SimulatedTable:
        """The same table giving frames again (a camera reconnected)."""
        self._open = True
        return self

    # --- drawing -----------------------------------------------------------------------

    def _check_card(self, card: str) -> None:
        if card in self.expressions:
            return
        try:
            PlayingCard.parse(card)
        except UnknownCard:
            raise SimulationError(
                f"unknown card {card!r}: neither a playing card nor a 21X card id"
            ) from None

    def _check_zone(self, zone: str) -> None:
        if all(known.name != zone for known in self.layout.zones):
            raise SimulationError(f"layout {self.layout.name!r} has no zone {zone!r}")

    def _find(self, card: str) -> Placement:
        for placement in self._placements:
            if placement.card == card:
                return placement
        raise SimulationError(f"card {card!r} is not on the simulated table")

    def _face(self, card: str) -> CardFace:
        if card in self.expressions:
            return _expression_face(self.expressions[card])
        return self.faces.face(card)

    def _dice_zone(self) -> Zone | None:
        return next((zone for zone in self.layout.zones if zone.kind == "dice"), None)

    def _draw(self) -> tuple[Image, tuple[PlacedCard, ...]]:
        image = self._background.copy()
        labels = np.zeros(image.shape[:2], np.uint8)
        drawn: list[tuple[CardFace, Array, float]] = []
        for face, pose, size in self._items():
            quad = _project(self._to_image, _corners_mm(pose, size))
            _cast_shadow(image, quad, np.array([3.0, 4.0]))
            _paste_face(image, face.image, quad)
            cv2.fillConvexPoly(labels, np.round(quad).astype(np.int32), len(drawn) + 1)
            drawn.append((face, quad, pose.rotation))
        image = cv2.GaussianBlur(image, (0, 0), 0.6)
        truth = tuple(
            _truth(face, quad, turn, labels, number + 1)
            for number, (face, quad, turn) in enumerate(drawn)
            if not face.name.startswith("die ")
        )
        return image, truth

    def _items(self) -> list[tuple[CardFace, _Pose, tuple[float, float]]]:
        """Every card and die to draw, bottom first, with its pose and size (mm)."""
        items: list[tuple[CardFace, _Pose, tuple[float, float]]] = []
        seats = [zone for zone in self.layout.zones if zone.kind == "player"]
        for zone in self.layout.zones:
            cards = sorted((p for p in self._placements if p.zone == zone.name),
                           key=lambda p: p.slot)
            if zone in seats and self.hands == "fan":
                poses = self._seat_fan(len(cards), seats.index(zone), len(seats))
                items += [(self._face(p.card), pose, (CARD_WIDTH, CARD_HEIGHT))
                          for p, pose in zip(cards, poses, strict=True)]
                continue
            for placement in cards:
                if zone in seats:
                    pose = self._seat_pose(placement.slot, seats.index(zone), len(seats))
                elif zone.kind == "column":
                    pose = _column_pose(zone, placement.slot)
                else:
                    pose = _zone_pose(zone, placement.slot)
                items.append((self._face(placement.card), pose, (CARD_WIDTH, CARD_HEIGHT)))
        tray = self._dice_zone()
        if tray is not None and self._dice:
            xs, ys = zip(*tray.polygon, strict=True)
            step = min(DIE_MM * 2.4, (max(xs) - min(xs) - DIE_MM) / max(1, len(self._dice) - 1))
            cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
            count = len(self._dice)
            items += [
                (die_face(value), _Pose(cx + (k - (count - 1) / 2) * step, cy, 0.0),
                 (DIE_MM, DIE_MM))
                for k, value in enumerate(self._dice)
            ]
        return items

    def _seat_pose(self, slot: int, seat: int, seats: int) -> _Pose:
        """Where slot ``slot`` of the row facing seat ``seat`` of ``seats`` lies (seat 0 at
        the bottom edge, then clockwise, as :func:`~vision.layout.players_layout` has it)."""
        angle = math.pi / 2 + seat * 2 * math.pi / seats
        direction = (math.cos(angle), math.sin(angle))
        reach = min(_reach(self.layout.width, self.layout.height, direction),
                    self._visible_reach(direction))
        distance = max(0.0, reach - CARD_HEIGHT / 2 - EDGE_MARGIN)
        place = (slot + 1) // 2 * (1 if slot % 2 else -1)  # 0, 1, -1, 2, -2, ...
        half_room = distance  # the wedge widens away from the centre: as wide as it is far
        step = CARD_WIDTH + ROW_GAP
        if place and abs(place) * step > half_room:
            step = max(MIN_STEP, half_room / abs(place))
        along = (math.sin(angle), -math.cos(angle))
        offset = place * step
        return _Pose(self.layout.width / 2 + direction[0] * distance + along[0] * offset,
                     self.layout.height / 2 + direction[1] * distance + along[1] * offset,
                     math.degrees(angle) - 90.0)

    def _seat_fan(self, count: int, seat: int, seats: int) -> list[_Pose]:
        """A fanned hand facing seat ``seat``: the cards pivot about where a lone card of
        the seat's row would lie (towards the player from them), later cards on top."""
        pivot = self._seat_pose(0, seat, seats)
        pivot_reach = FAN_PIVOT * CARD_HEIGHT
        poses = []
        for k in range(count):
            turn = math.radians(pivot.rotation + (k - (count - 1) / 2) * FAN_SPREAD)
            poses.append(
                _Pose(
                    pivot.x + math.sin(turn) * pivot_reach,
                    pivot.y - math.cos(turn) * pivot_reach,
                    math.degrees(turn),
                )
            )
        return poses

    def _visible_reach(self, direction: tuple[float, float]) -> float:
        """How far from the table centre, along ``direction``, the camera sees."""
        calibration = self.calibration()
        width, height = self.size
        points = [calibration.to_table(p) for p in ((0, 0), (width, 0), (width, height),
                                                    (0, height))]
        cx, cy = self.layout.width / 2, self.layout.height / 2
        half_x = min(abs(x - cx) for x, _ in points)
        half_y = min(abs(y - cy) for _, y in points)
        return _reach(2 * half_x, 2 * half_y, direction)


def _corners_mm(pose: _Pose, size: tuple[float, float]) -> Array:
    """Face corners TL, TR, BR, BL on the table (mm) of a card of ``size`` at ``pose``."""
    half_w, half_h = size[0] / 2, size[1] / 2
    angle = math.radians(pose.rotation)
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    local = np.array([(-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)])
    corners: Array = local @ turn.T + np.array([pose.x, pose.y])
    return corners


def _reach(width: float, height: float, direction: tuple[float, float]) -> float:
    """Distance from the centre of a ``width`` x ``height`` box to its edge along ``direction``."""
    dx, dy = direction
    return min(width / 2 / abs(dx) if abs(dx) > 1e-9 else math.inf,
               height / 2 / abs(dy) if abs(dy) > 1e-9 else math.inf)


def _bounds(zone: Zone) -> tuple[float, float, float, float]:
    """The zone's box: left, top, right, bottom."""
    xs, ys = zip(*zone.polygon, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def _zone_pose(zone: Zone, slot: int) -> _Pose:
    """Slot ``slot`` of a zone other than a seat's or a column.

    A zone with room for several cards lays them whole in a grid from its top left; a
    zone a little larger than a card (the trick) lets two a side reach past its edge,
    their centres in the zone (cards under others are hard to read); more cards than the
    grid holds lie squarely on the earlier ones, as a zone for one card (a grid cell, a
    pile) piles them: an edge peeping out from under the top card would make its outline
    that of no card.
    """
    left, top, right, bottom = _bounds(zone)
    pitch_x, pitch_y = CARD_WIDTH + ROW_GAP, CARD_HEIGHT + ROW_GAP
    columns = _grid_count(right - left - ROW_GAP, pitch_x)
    rows = _grid_count(bottom - top - ROW_GAP, pitch_y)
    cx, cy = (left + right) / 2, (top + bottom) / 2
    cell = slot % (columns * rows)
    return _Pose(cx + (cell % columns - (columns - 1) / 2) * pitch_x,
                 cy + (cell // columns - (rows - 1) / 2) * pitch_y, 0.0)


def _grid_count(room: float, pitch: float) -> int:
    """How many cards a zone's grid has across ``room`` mm: as many as fit whole, or, if
    not two, as many as have their centre inside (two for a zone a little over a card)."""
    inside = int(room // pitch)
    return inside if inside >= 2 else 1 + max(0, inside)


def _column_pose(zone: Zone, slot: int) -> _Pose:
    """Slot ``slot`` of a column: cards down ``zone`` from its top, each showing the top of
    the one below (closer together once the column is full)."""
    left, top, right, bottom = _bounds(zone)
    room = bottom - top - CARD_HEIGHT
    step = min(COLUMN_STEP, room / slot) if slot else 0.0
    return _Pose((left + right) / 2, top + CARD_HEIGHT / 2 + slot * step, 0.0)


def fitting_height(layout: TableLayout, size: tuple[int, int] = (1280, 720)) -> float:
    """The camera height (cm) that sees every zone but the seats' (they reach the table
    edge; their cards are laid where the camera sees), at least :data:`DEFAULT_HEIGHT_CM`.

    >>> from vision.layout import medley_layout, players_layout
    >>> fitting_height(players_layout(4)), round(fitting_height(medley_layout()), 1)
    (70.0, 82.1)
    """
    points = [point for zone in layout.zones if zone.kind != "player" for point in zone.polygon]
    if not points:
        return DEFAULT_HEIGHT_CM
    cx, cy = layout.width / 2, layout.height / 2
    half_w = max(abs(x - cx) for x, _ in points) + EDGE_MARGIN
    half_h = max(abs(y - cy) for _, y in points) + EDGE_MARGIN
    width, height = size
    focal = width / 2 / math.tan(math.radians(FIELD_OF_VIEW) / 2)
    needed = max(half_w / (width / 2), half_h / (height / 2)) * focal / 10.0
    return max(DEFAULT_HEIGHT_CM, needed)


def simulated_deck(
    expressions: Mapping[str, ExpressionCard],
    card_ids: Sequence[str],
    *,
    data: str | os.PathLike[str] | None = None,
) -> DeckProfile:
    """The taught profile of the 21X cards ``card_ids`` as the simulated table draws them.

    Each card is laid alone on a simulated table and taught from that picture, as an
    owner teaches a real deck; the profile is kept in the data directory's decks (named
    after what was taught) so the next start loads it.
    """
    unknown = [card for card in card_ids if card not in expressions]
    if unknown:
        raise SimulationError(f"no 21X card {unknown[0]!r} to teach")
    chosen = [expressions[card] for card in card_ids]
    digest = hashlib.sha1(repr((PROFILE_VERSION, chosen)).encode()).hexdigest()[:12]
    folder = decks_dir(data) / f"{SIMULATED_DECK}{digest}"
    if (folder / "manifest.json").is_file():
        try:
            return DeckProfile.load(folder)
        except ProfileError:
            log.warning("simulated deck %s is damaged: teaching it again", folder)
    table = SimulatedTable(players_layout(1, centre=("deck",)), expressions=expressions)
    faces = {}
    for card in card_ids:
        table.clear()
        table.place(card, "deck")
        faces[card] = face_from_image(table.clean())
    profile = DeckProfile(folder.name, faces, "21x")
    profile.save(folder)
    return profile


@cache
def _expression_face(card: ExpressionCard) -> CardFace:
    return render_expression_card(card)
