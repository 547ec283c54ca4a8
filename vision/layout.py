"""The table layout: named zones in table coordinates, and the calibration from camera to table.

Table coordinates are millimetres on the table, ``x`` to the right and ``y`` down as the
camera sees the table after calibration. A :class:`Calibration` is the homography from
image pixels to table millimetres, computed from four or more point pairs (the
touchscreen collects them by touch). A :class:`TableLayout` holds the zones and the
calibration, saves and loads them as TOML, and puts each observation in a zone::

    layout = TableLayout.load("medley.toml")
    placed = layout.assign(find_dice(frame))   # each DieObservation with .zone set

Zones are tried in file order and the first that contains the point wins, so a small
zone (the trick area) listed before a large one (a player's area) takes precedence.
Default layouts for each game come from :func:`players_layout`, :func:`solo_layout`,
:func:`medley_layout` and :func:`solitaire_layout`.

>>> layout = medley_layout()
>>> layout.zone_at((10.0, 10.0)) is None
True
>>> layout.zone_at(layout.zone("cell-4").center)
'cell-4'
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Protocol, TypeVar

import numpy as np

from companion.engine.seats import seat_zone
from companion.errors import LocatedError
from companion.tomlfile import (
    Check,
    Pair,
    Text,
    TomlModel,
    as_pair,
    dump_model,
    load_model,
    problem,
    quantity,
    read_model,
    show,
    validate,
)

Point = tuple[float, float]

CARD_WIDTH = 63.0
CARD_HEIGHT = 88.0


class LayoutError(LocatedError):
    """A layout file or calibration that cannot be used; names the file, line and key."""


class Placeable(Protocol):
    """Anything with a pixel ``center`` that can be put in a zone (card or die observation)."""

    @property
    def center(self) -> tuple[float, float]: ...

    def in_zone(self, zone: str | None) -> Any: ...


ObservationT = TypeVar("ObservationT", bound=Placeable)


@dataclass(frozen=True)
class Zone:
    """A named polygon on the table; ``kind`` groups zones (player, trick, grid, corner...).

    >>> Zone("trick", ((0, 0), (10, 0), (10, 10), (0, 10))).contains((10, 5))
    True
    """

    name: str
    polygon: tuple[Point, ...]
    kind: str = "area"

    @classmethod
    def rectangle(
        cls, name: str, x: float, y: float, width: float, height: float, kind: str = "area"
    ) -> Zone:
        """An axis-aligned rectangle with its top-left corner at (x, y)."""
        return cls(name, ((x, y), (x + width, y), (x + width, y + height), (x, y + height)), kind)

    @property
    def center(self) -> Point:
        """The mean of the polygon's corners."""
        xs, ys = zip(*self.polygon, strict=True)
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    def contains(self, point: Point) -> bool:
        """Whether ``point`` is inside the polygon or on its edge (even-odd rule)."""
        x, y = point
        inside = False
        corners = self.polygon
        for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
            if _on_segment(x, y, x1, y1, x2, y2):
                return True
            if (y1 > y) != (y2 > y):
                crossing = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
                if x < crossing:
                    inside = not inside
        return inside


def _on_segment(x: float, y: float, x1: float, y1: float, x2: float, y2: float) -> bool:
    cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
    scale = max(abs(x2 - x1), abs(y2 - y1), 1.0)
    if abs(cross) > 1e-9 * scale * scale:
        return False
    return (
        min(x1, x2) - 1e-9 <= x <= max(x1, x2) + 1e-9
        and min(y1, y2) - 1e-9 <= y <= max(y1, y2) + 1e-9
    )


@dataclass(frozen=True)
class Calibration:
    """The homography from image pixels to table millimetres, and the point pairs behind it.

    >>> square = Calibration.from_points(
    ...     [(100, 100), (300, 100), (300, 300), (100, 300)],
    ...     [(0, 0), (200, 0), (200, 200), (0, 200)])
    >>> [round(v, 6) for v in square.to_table((200, 150))]
    [100.0, 50.0]
    """

    image_points: tuple[Point, ...]
    table_points: tuple[Point, ...]
    matrix: tuple[tuple[float, float, float], ...] = field(compare=False)

    @classmethod
    def from_points(
        cls, image_points: Sequence[Point], table_points: Sequence[Point]
    ) -> Calibration:
        """Fit the homography (least squares for more than four pairs).

        Raises :class:`LayoutError` for fewer than four pairs, unequal lists, or points
        that do not span a plane (three of them in a line).
        """
        image = [_point(p, "image point") for p in image_points]
        table = [_point(p, "table point") for p in table_points]
        if len(image) != len(table):
            raise LayoutError(
                "calibration needs as many table points as image points"
                f" ({len(image)} vs {len(table)})"
            )
        if len(image) < 4:
            raise LayoutError(f"calibration needs at least 4 point pairs, not {len(image)}")
        matrix = _homography(image, table)
        return cls(tuple(image), tuple(table), matrix)

    def to_table(self, point: Point) -> Point:
        """Where an image pixel lies on the table."""
        return _apply(self.matrix, point)

    def to_image(self, point: Point) -> Point:
        """Where a table point appears in the image."""
        inverse = np.linalg.inv(np.array(self.matrix))
        return _apply(_as_tuple(inverse), point)

    @property
    def rms_error(self) -> float:
        """Root-mean-square distance (mm) between the table points and the mapped image points."""
        squares = [
            math.dist(self.to_table(image), table) ** 2
            for image, table in zip(self.image_points, self.table_points, strict=True)
        ]
        return math.sqrt(sum(squares) / len(squares))


def _point(value: Any, what: str) -> Point:
    point = as_pair(value)
    if point is None:
        raise LayoutError(f"{what} must be a pair of numbers [x, y], not {value!r}")
    return point


def _homography(image: list[Point], table: list[Point]) -> tuple[tuple[float, float, float], ...]:
    """Normalised direct linear transform (Hartley): well conditioned for pixels and mm."""
    source, source_norm = _normalise(np.array(image))
    target, target_norm = _normalise(np.array(table))
    rows = []
    for (x, y), (u, v) in zip(source, target, strict=True):
        rows.append([-x, -y, -1.0, 0.0, 0.0, 0.0, u * x, u * y, u])
        rows.append([0.0, 0.0, 0.0, -x, -y, -1.0, v * x, v * y, v])
    _, singular, vt = np.linalg.svd(np.array(rows))
    if singular[7] < 1e-9 * singular[0]:  # rank below 8: no unique homography
        raise LayoutError("calibration points do not span the table (three or more in a line?)")
    normalised = vt[-1].reshape(3, 3)
    # Singular or not is judged in normalised coordinates (a unit-norm matrix): after
    # denormalising, the determinant also carries the pixel and mm scales.
    if abs(np.linalg.det(normalised)) < 1e-12:
        raise LayoutError("calibration points do not span the table (three or more in a line?)")
    matrix = np.linalg.inv(target_norm) @ normalised @ source_norm
    matrix /= np.linalg.norm(matrix)  # not by the corner entry: it is 0 when the image
    # origin maps to infinity, a sound homography all the same
    return _as_tuple(matrix)


def _normalise(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    centre = points.mean(axis=0)
    spread = np.sqrt(((points - centre) ** 2).sum(axis=1)).mean()
    scale = math.sqrt(2.0) / spread if spread > 0 else 1.0
    transform = np.array(
        [[scale, 0.0, -scale * centre[0]], [0.0, scale, -scale * centre[1]], [0.0, 0.0, 1.0]]
    )
    return (points - centre) * scale, transform


def _as_tuple(matrix: np.ndarray) -> tuple[tuple[float, float, float], ...]:
    return tuple((float(row[0]), float(row[1]), float(row[2])) for row in matrix)


def _apply(matrix: tuple[tuple[float, float, float], ...], point: Point) -> Point:
    x, y = point
    (a, b, c), (d, e, f), (g, h, i) = matrix
    w = g * x + h * y + i
    if abs(w) < 1e-12:
        raise LayoutError(f"point {point} maps to infinity under this calibration")
    return ((a * x + b * y + c) / w, (d * x + e * y + f) / w)


@dataclass(frozen=True)
class TableLayout:
    """Zones on a table of ``width`` x ``height`` mm, with an optional calibration."""

    name: str
    width: float
    height: float
    zones: tuple[Zone, ...]
    calibration: Calibration | None = None

    def __post_init__(self) -> None:
        names = [zone.name for zone in self.zones]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise LayoutError(f"layout {self.name!r}: zone names repeat: {', '.join(repeated)}")

    def zone(self, name: str) -> Zone:
        """The zone called ``name``."""
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise LayoutError(f"layout {self.name!r} has no zone {name!r}")

    def zone_at(self, point: Point) -> str | None:
        """The first zone (in file order) containing a table point, or None."""
        for zone in self.zones:
            if zone.contains(point):
                return zone.name
        return None

    def calibrated(self, calibration: Calibration) -> TableLayout:
        """The same layout with a new calibration."""
        return TableLayout(self.name, self.width, self.height, self.zones, calibration)

    def assign(self, observations: Iterable[ObservationT]) -> list[ObservationT]:
        """Each observation with ``zone`` set from its image centre (None outside every zone)."""
        if self.calibration is None:
            raise LayoutError(f"layout {self.name!r} is not calibrated: touch the four marks first")
        calibration = self.calibration
        return [
            observation.in_zone(self.zone_at(calibration.to_table(observation.center)))
            for observation in observations
        ]

    # --- TOML -------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TableLayout:
        """Read a layout file; any problem is a one-line :class:`LayoutError` naming the line."""
        try:
            return read_model(Path(path), LayoutFile, error=LayoutError).layout()
        except FileNotFoundError:
            raise LayoutError("no such layout file", path=str(path)) from None

    @classmethod
    def loads(cls, text: str, *, path: str = "") -> TableLayout:
        """Parse layout TOML (see ``docs/vision-camera-dice-layout.md`` for the format)."""
        return load_model(text, LayoutFile, path=path, error=LayoutError).layout()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the layout as TOML (what :meth:`load` reads back)."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    def dumps(self) -> str:
        """The layout as TOML text, written by the TOML writer from the :class:`LayoutFile`.

        >>> corners = ((0, 0), (1, 0), (0, 1))
        >>> layout = TableLayout('say "hi" = #1', 10, 10, (Zone("a\\nb", corners),))
        >>> TableLayout.loads(layout.dumps()) == layout
        True
        """
        return dump_model(LayoutFile.of(self))


# --- the layout file --------------------------------------------------------------------


def _rect(value: Any) -> tuple[float, float, float, float]:
    if (
        not isinstance(value, list)
        or len(value) != 4
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not all(math.isfinite(v) for v in value)
        or not (value[2] > 0 and value[3] > 0)
    ):
        raise problem(f"must be [x, y, width, height] with positive size, not {show(value)}")
    x, y, width, height = (float(v) for v in value)
    return (x, y, width, height)


Millimetres = Annotated[float, quantity(above=0, unit="mm")]


class ZoneTable(TomlModel):
    """A ``[[zone]]``: its name, kind and shape, a ``polygon`` or a ``rect``."""

    name: Text
    kind: Text = "area"
    polygon: list[Pair] | None = None
    rect: Annotated[tuple[float, float, float, float], Check(_rect)] | None = None

    def check(self) -> None:
        """Exactly one shape; a polygon of at least 3 corners."""
        if (self.polygon is None) == (self.rect is None):
            raise problem("give exactly one of polygon or rect", at=("name",))
        if self.polygon is not None and len(self.polygon) < 3:
            raise problem(
                f"needs at least 3 corners [[x, y], ...], not {len(self.polygon)}",
                at=("polygon",),
            )

    def zone(self) -> Zone:
        """The zone this table describes."""
        if self.rect is not None:
            return Zone.rectangle(self.name, *self.rect, kind=self.kind)
        return Zone(self.name, tuple(self.polygon or ()), self.kind)


class CalibrationTable(TomlModel):
    """``[calibration]``: the point pairs behind the homography (image pixels, table mm)."""

    image: list[Pair]
    table: list[Pair]
    _calibration: Calibration | None = field(default=None, init=False, compare=False,
                                             repr=False)

    def check(self) -> None:
        """The points fit a homography."""
        try:
            self._set("_calibration", Calibration.from_points(self.image, self.table))
        except LayoutError as error:
            raise problem(error.message) from None

    def calibration(self) -> Calibration:
        """The calibration fitted to the points."""
        assert self._calibration is not None  # set by the validator
        return self._calibration


class LayoutFile(TomlModel):
    """A layout file: ``name``, the table's ``width`` and ``height`` in mm, an optional
    ``[calibration]`` and the ``[[zone]]`` tables, tried in file order."""

    name: Text = "table"
    width: Millimetres
    height: Millimetres
    calibration: CalibrationTable | None = None
    zone: list[ZoneTable] = field(default_factory=list)

    def check(self) -> None:
        """At least one zone; no two of the same name."""
        if not self.zone:
            raise problem("a layout needs at least one [[zone]]", at=("zone",))
        first: dict[str, int] = {}
        for index, zone in enumerate(self.zone):
            if zone.name in first:
                raise problem(
                    f"zone names repeat: {show(zone.name)} is also zone {first[zone.name] + 1}",
                    at=("zone", index, "name"),
                )
            first[zone.name] = index

    @classmethod
    def of(cls, layout: TableLayout) -> LayoutFile:
        """The file of a layout (zones written as polygons)."""
        document: dict[str, Any] = {
            "name": layout.name,
            "width": layout.width,
            "height": layout.height,
            "zone": [
                {"name": zone.name, "kind": zone.kind, "polygon": list(zone.polygon)}
                for zone in layout.zones
            ],
        }
        if layout.calibration is not None:
            document["calibration"] = {
                "image": list(layout.calibration.image_points),
                "table": list(layout.calibration.table_points),
            }
        return validate(document, cls, path=layout.name, error=LayoutError)

    def layout(self) -> TableLayout:
        """The layout this file describes."""
        calibration = None if self.calibration is None else self.calibration.calibration()
        zones = tuple(zone.zone() for zone in self.zone)
        return TableLayout(self.name, self.width, self.height, zones, calibration)


# --- default layouts ------------------------------------------------------------------


def players_layout(
    players: int = 4,
    *,
    width: float = 900.0,
    height: float = 600.0,
    centre: tuple[str, ...] = ("deck", "trick"),
    name: str = "players",
) -> TableLayout:
    """A table for 21X or the trick game: centre zones side by side, then one wedge per player.

    ``seat-1`` (the first player of the game's start event) sits at the bottom edge,
    nearest the screen, and the others follow clockwise as seen from above; each wedge runs
    from the table centre to the table edge, and the centre zones, listed first, take
    precedence over the wedges.

    >>> layout = players_layout(3)
    >>> [zone.name for zone in layout.zones]
    ['deck', 'trick', 'seat-1', 'seat-2', 'seat-3']
    >>> layout.zone_at((450.0, 590.0)), layout.zone_at((480.0, 300.0))
    ('seat-1', 'trick')
    """
    if not 1 <= players <= 8:
        raise LayoutError(f"a players layout is for 1 to 8 players, not {players}")
    cx, cy = width / 2.0, height / 2.0
    area_width, area_height = 1.5 * CARD_WIDTH, 1.3 * CARD_HEIGHT
    total = area_width * len(centre)
    zones = [
        Zone.rectangle(
            zone_name,
            cx - total / 2 + i * area_width,
            cy - area_height / 2,
            area_width,
            area_height,
            kind=zone_name,
        )
        for i, zone_name in enumerate(centre)
    ]
    step = 2.0 * math.pi / players
    for index in range(players):
        middle = math.pi / 2 + index * step  # y grows downwards: pi/2 is the bottom edge
        zones.append(
            Zone(
                seat_zone(index + 1),
                _wedge(width, height, middle - step / 2, middle + step / 2),
                "player",
            )
        )
    return TableLayout(name, width, height, tuple(zones))


def _wedge(width: float, height: float, start: float, end: float) -> tuple[Point, ...]:
    """The part of the table rectangle between two angles seen from its centre."""
    cx, cy = width / 2.0, height / 2.0
    corners = [(width, height), (0.0, height), (0.0, 0.0), (width, 0.0)]
    points = [(cx, cy), _edge_point(width, height, start)]
    for corner in sorted(
        corners, key=lambda c: (math.atan2(c[1] - cy, c[0] - cx) - start) % (2 * math.pi)
    ):
        if (math.atan2(corner[1] - cy, corner[0] - cx) - start) % (2 * math.pi) < end - start:
            points.append(corner)
    points.append(_edge_point(width, height, end))
    return tuple((round(x, 3), round(y, 3)) for x, y in points)


def _edge_point(width: float, height: float, angle: float) -> Point:
    cx, cy = width / 2.0, height / 2.0
    dx, dy = math.cos(angle), math.sin(angle)
    reach = min(
        cx / abs(dx) if abs(dx) > 1e-12 else math.inf,
        cy / abs(dy) if abs(dy) > 1e-12 else math.inf,
    )
    return (cx + dx * reach, cy + dy * reach)


def medley_layout(*, width: float = 600.0, height: float = 600.0, gap: float = 15.0) -> TableLayout:
    """Mountainside Math Medley: the 3x3 grid, a corner spot diagonally off each grid corner,
    and, between the two bottom corners, the draw pile, a dice tray and the discard pile.

    Zone names carry the referee's numbers (see :mod:`companion.games.medley.rules`): the grid
    cells are ``cell-0`` to ``cell-8`` row by row from the top left, and the corner spots
    ``corner-0`` (top left), ``corner-1`` (top right), ``corner-2`` (bottom left) and
    ``corner-3`` (bottom right).
    """
    cell_w, cell_h = CARD_WIDTH + gap, CARD_HEIGHT + gap
    left = (width - 3 * cell_w) / 2.0
    top = (height - 3 * cell_h) / 2.0
    zones = [
        Zone.rectangle(
            f"cell-{3 * row + column}",
            left + column * cell_w,
            top + row * cell_h,
            cell_w,
            cell_h,
            "grid",
        )
        for row in range(3)
        for column in range(3)
    ]
    for number, (x, y) in enumerate(
        [
            (left - cell_w, top - cell_h),
            (left + 3 * cell_w, top - cell_h),
            (left - cell_w, top + 3 * cell_h),
            (left + 3 * cell_w, top + 3 * cell_h),
        ]
    ):
        zones.append(Zone.rectangle(f"corner-{number}", x, y, cell_w, cell_h, "corner"))
    bottom = top + 3 * cell_h
    zones.append(Zone.rectangle("draw", left, bottom, cell_w, cell_h, "draw"))
    zones.append(Zone.rectangle("dice", left + cell_w, bottom, cell_w, cell_h, "dice"))
    zones.append(Zone.rectangle("discard", left + 2 * cell_w, bottom, cell_w, cell_h, "discard"))
    _check_inside(zones, width, height, "medley")
    return TableLayout("medley", width, height, tuple(zones))


def solitaire_layout(
    columns: int = 4, *, width: float = 600.0, height: float = 500.0, gap: float = 15.0
) -> TableLayout:
    """Twenty One solitaire: ``columns`` tall column zones (``column-0`` at the left, numbered as
    the referee's ``place`` events number them), with the
    card to play (``draw``) and the cleared cards (``cleared``) below them.

    A column is tall enough for a fanned pile of five cards.
    """
    if not 1 <= columns <= 8:
        raise LayoutError(f"a solitaire layout has 1 to 8 columns, not {columns}")
    column_w = CARD_WIDTH + gap
    column_h = CARD_HEIGHT * 2.6
    left = (width - columns * column_w) / 2.0
    top = gap
    zones = [
        Zone.rectangle(f"column-{i}", left + i * column_w, top, column_w, column_h, "column")
        for i in range(columns)
    ]
    below = top + column_h + gap
    zones.append(
        Zone.rectangle("draw", width / 2.0 - column_w, below, column_w, CARD_HEIGHT + gap, "draw")
    )
    zones.append(
        Zone.rectangle("cleared", width / 2.0, below, column_w, CARD_HEIGHT + gap, "cleared")
    )
    _check_inside(zones, width, height, "solitaire")
    return TableLayout("solitaire", width, height, tuple(zones))


def solo_layout(*, width: float = 700.0, height: float = 500.0, gap: float = 15.0) -> TableLayout:
    """21X single player: the ``deck`` and the ``discard`` pile along the top, the player's
    ``hand`` (room for a fan of six cards) below them, and the ``score`` area, where scored
    hands are set aside, at the right (the zones of :mod:`companion.games.x21_solo.translator`).

    >>> layout = solo_layout()
    >>> [zone.name for zone in layout.zones]
    ['deck', 'discard', 'hand', 'score']
    >>> layout.zone_at((200.0, 400.0)), layout.zone_at((620.0, 250.0))
    ('hand', 'score')
    """
    cell_w, cell_h = CARD_WIDTH + gap, CARD_HEIGHT + gap
    hand_w = width - 2 * cell_w - 3 * gap
    zones = [
        Zone.rectangle("deck", gap, gap, cell_w, cell_h, "deck"),
        Zone.rectangle("discard", 2 * gap + cell_w, gap, cell_w, cell_h, "discard"),
        Zone.rectangle("hand", gap, 2 * gap + cell_h, hand_w, height - 3 * gap - cell_h, "hand"),
        Zone.rectangle("score", width - gap - 1.5 * cell_w, gap, 1.5 * cell_w, height - 2 * gap,
                       "score"),
    ]
    _check_inside(zones, width, height, "21x-solo")
    return TableLayout("21x-solo", width, height, tuple(zones))


def _check_inside(zones: list[Zone], width: float, height: float, name: str) -> None:
    for zone in zones:
        for x, y in zone.polygon:
            if not (-1e-6 <= x <= width + 1e-6 and -1e-6 <= y <= height + 1e-6):
                raise LayoutError(
                    f"{name} layout: zone {zone.name!r} does not fit"
                    f" a {width:g}x{height:g} mm table"
                )


DEFAULT_LAYOUTS: dict[str, Callable[[], TableLayout]] = {
    "21x": lambda: players_layout(4, centre=("deck", "discard"), name="21x"),
    "21x-solo": solo_layout,
    "trick": lambda: players_layout(4, centre=("stock", "trick"), name="trick"),
    "solitaire": solitaire_layout,
    "medley": medley_layout,
}
"""A default layout for each game, by the game's registry name."""
