"""Synthetic dice scenes, drawn by the project's own code, for training the dice reader.

Domain-randomised: cubes of any body colour with light or dark pips of any size, seen from
straight above to steeply from one side (so side faces show), lit from anywhere, on wood,
cloth, cork, plain or white tables, with shadows; among clutter that must not be read as
six-sided dice (polyhedral dice drawn as triangles, kites, pentagons and hexagons with
numerals, coins, casino chips, card corners, pen dots); then a camera: mild perspective,
colour cast, uneven light, glare, defocus or motion blur, noise and JPEG. Everything comes
from one numpy generator, so a seed gives the same scene.

>>> scene = render_scene(np.random.default_rng(0))
>>> scene.image.shape, scene.image.dtype
((480, 640, 3), dtype('uint8'))
>>> all(1 <= die.value <= 6 for die in scene.dice)
True
>>> bool((render_scene(np.random.default_rng(4)).image == render_scene(
...     np.random.default_rng(4)).image).all())
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.scenes.textures import KINDS, TONES, table_texture

Image = npt.NDArray[Any]
Vector = npt.NDArray[np.float64]

SIZE = (640, 480)
SUPERSAMPLE = 2
PIP_LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Pip positions on a face, in steps of the pip spacing from its centre."""
CIRCLE_POINTS = 16
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX)


@dataclass(frozen=True)
class Variety:
    """What else scenes hold besides the plain ones: the smallest and largest die side
    (pixels; sides are drawn log-uniformly per scene between them), the share of scenes that
    are a pile of dice, of dice of another size than the rest of their scene, of scenes in
    torchlight, and the looks of the dice below. The default is the reader's training scenes
    until round 14; :data:`DETECTOR_VARIETY` the detector's."""

    min_side: float = 20.0
    max_side: float = 95.0
    pile_share: float = 0.0
    odd_size_share: float = 0.0
    torch_share: float = 0.0
    clutter: int = 10
    """Up to this many pieces of clutter (less one) per scene."""
    pip_radius: tuple[float, float] = (0.11, 0.2)
    """The range of pip radii, in half sides (the pip spacing at least 2.1 radii)."""
    vivid_share: float = 0.0
    """Dice whose body is a saturated colour (any hue), as most coloured dice are."""
    painted_share: float = 0.0
    """Dice whose pips are one of the paints dice use (white, cream, gold, yellow, red, black,
    blue), chosen to stand out from the body."""
    engraved_share: float = 0.0
    """Dice whose pips are holes: a shadow crescent on the side towards the light."""
    translucent_share: float = 0.0
    """Dice lit through: each face brighter towards one side."""
    marbled_share: float = 0.0
    """Dice with swirls of a second colour on every face."""
    glint_share: float = 0.0
    """Dice with a glint of light on their top face."""


READER_VARIETY = Variety()
"""The reader's training scenes."""
DETECTOR_VARIETY = Variety(min_side=12.0, pile_share=0.25, odd_size_share=0.2, torch_share=0.15)


@dataclass(frozen=True)
class SceneDie:
    """A six-sided die in a scene: its top value, top-face outline and side, in pixels."""

    value: int
    top: Image
    side: float

    @property
    def center(self) -> tuple[float, float]:
        x, y = self.top.mean(axis=0)
        return float(x), float(y)

    def holds(self, x: float, y: float, slack: float = 0.2) -> bool:
        """Whether (x, y) lies on the top face (or within ``slack`` sides of it)."""
        contour = self.top.astype(np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (x, y), True) >= -slack * self.side


@dataclass(frozen=True)
class Scene:
    """A rendered BGR ``image`` and the six-sided dice in it (everything else is clutter)."""

    image: Image
    dice: tuple[SceneDie, ...]


@dataclass(frozen=True)
class _View:
    """The camera: tilt from straight down (radians), light direction and ambient share."""

    tilt: float
    light: Vector
    ambient: float

    def project(self, points: Vector) -> Vector:
        """World points (x right, y away, z up; pixels) to supersampled image pixels."""
        u = points[:, 0]
        v = -(points[:, 1] * math.cos(self.tilt) + points[:, 2] * math.sin(self.tilt))
        return np.stack([u, v], axis=1) * SUPERSAMPLE

    def facing(self, normal: Vector) -> float:
        return float(normal[1] * -math.sin(self.tilt) + normal[2] * math.cos(self.tilt))

    def shade(self, normal: Vector) -> float:
        return self.ambient + (1.0 - self.ambient) * max(0.0, float(normal @ self.light))


def render_scene(
    rng: np.random.Generator, size: tuple[int, int] = SIZE, variety: Variety | None = None
) -> Scene:
    """One random scene of ``size`` (width, height) with 1-12 dice and some clutter, or a
    pile of 8-25 dice close together; a die now and then of another size than the rest (as
    often as ``variety`` says: by default never)."""
    variety = variety or Variety()
    width, height = size
    big = (width * SUPERSAMPLE, height * SUPERSAMPLE)
    canvas = _surface(rng, big)
    elevation = rng.uniform(0.6, 1.5)
    azimuth = rng.uniform(0.0, 2.0 * math.pi)
    light = np.array(
        [
            math.cos(elevation) * math.cos(azimuth),
            math.cos(elevation) * math.sin(azimuth),
            math.sin(elevation),
        ]
    )
    view = _View(rng.uniform(0.0, 0.8), light, rng.uniform(0.3, 0.65))
    side = math.exp(rng.uniform(math.log(variety.min_side), math.log(variety.max_side)))
    pile = bool(variety.pile_share) and rng.random() < variety.pile_share
    count = int(rng.integers(8, 26) if pile else rng.integers(1, 13))
    gaps = (0.95, 1.25) if pile else (0.95, 1.7)
    spots = _places(rng, count + int(rng.integers(0, variety.clutter)), side, size, view.tilt, gaps)
    dice: list[SceneDie] = []
    order = sorted(range(len(spots)), key=lambda i: spots[i][1], reverse=True)
    for index in order:
        x, y = spots[index]
        one_side = side * rng.uniform(0.85, 1.15)
        if variety.odd_size_share and rng.random() < variety.odd_size_share:  # another set
            one_side = one_side * rng.uniform(0.4, 1.6)
            one_side = min(max(one_side, variety.min_side), variety.max_side)
        if index < count:
            dice.append(_draw_die(canvas, rng, view, (x, y), one_side, variety))
        else:
            _draw_clutter(canvas, rng, view, (x, y), one_side)
    image = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA)
    image, dice = _camera(image, dice, rng, variety.torch_share)
    return Scene(image, tuple(dice))


def _surface(rng: np.random.Generator, size: tuple[int, int]) -> Image:
    """A table: a textured surface recoloured at random, or a plain or white one."""
    width, height = size
    choice = rng.random()
    if choice < 0.6:
        kind = KINDS[int(rng.integers(len(KINDS)))]
        tone = TONES[int(rng.integers(len(TONES)))]
        surface = table_texture(kind, tone, size, rng).astype(np.float32)
        surface *= rng.uniform(0.6, 1.5, 3).astype(np.float32)
    else:
        colour = rng.uniform(20, 250, 3) if choice < 0.85 else rng.uniform(200, 250) * np.ones(3)
        surface = np.empty((height, width, 3), np.float32)
        surface[:] = colour
        surface += rng.normal(0.0, rng.uniform(1, 8), (height, width, 1)).astype(np.float32)
    return np.clip(surface, 0, 255).astype(np.uint8)


def _places(
    rng: np.random.Generator,
    count: int,
    side: float,
    size: tuple[int, int],
    tilt: float,
    gaps: tuple[float, float],
) -> list[tuple[float, float]]:
    """World positions for ``count`` objects, ``gaps`` sides apart (some touching), all
    inside the frame."""
    width, height = size
    squash = math.cos(tilt)
    spots: list[tuple[float, float]] = []
    for _ in range(count * 20):
        if len(spots) == count:
            break
        x = rng.uniform(side, width - side)
        y = -rng.uniform(side, height - side) / squash
        gap = side * rng.uniform(*gaps)
        if all(math.hypot(x - sx, y - sy) > gap for sx, sy in spots):
            spots.append((x, y))
    return spots


def _rotation(rng: np.random.Generator) -> Vector:
    """A die's rotation: any turn about the vertical, and sometimes a lean (on another die)."""
    yaw = rng.uniform(0.0, 2.0 * math.pi)
    lean = rng.normal(0.0, 0.12) if rng.random() < 0.3 else 0.0
    c, s = math.cos(yaw), math.sin(yaw)
    turn = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    cl, sl = math.cos(lean), math.sin(lean)
    tip = np.array([[1.0, 0.0, 0.0], [0.0, cl, -sl], [0.0, sl, cl]])
    rotation: Vector = turn @ tip
    return rotation


def _side_values(top: int, rng: np.random.Generator) -> list[int]:
    """Values of the faces +z, -z, +x, -x, +y, -y of a die with ``top`` up (opposites sum to 7)."""
    others = [v for v in (1, 2, 3) if v not in (top, 7 - top)]
    first, second = others if rng.random() < 0.5 else others[::-1]
    return [top, 7 - top, first, 7 - first, second, 7 - second]


def _colours(rng: np.random.Generator, variety: Variety) -> tuple[Vector, Vector]:
    """A body and pip colour pair (BGR): white with dark pips, or any colour, pips of either
    polarity; vivid bodies and painted pips as often as ``variety`` says."""
    if variety.vivid_share and rng.random() < variety.vivid_share:
        hsv = np.array([[[rng.uniform(0, 180), rng.uniform(140, 255), rng.uniform(50, 255)]]])
        body = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)
        pips = rng.uniform(190, 255, 3) if body.mean() < 150 else rng.uniform(0, 60, 3)
    elif rng.random() < 0.3:
        body, pips = rng.uniform(205, 250) * np.ones(3), rng.uniform(0, 70, 3)
    else:
        body = rng.uniform(0, 255, 3)
        if rng.random() < 0.3:
            body = body * rng.uniform(0.1, 0.5)
        light = float(body.mean()) > 120
        pips = rng.uniform(0, 60, 3) if light and rng.random() < 0.7 else rng.uniform(190, 255, 3)
        if rng.random() < 0.1:  # coloured pips (red on black)
            pips = rng.uniform(0, 255, 3)
    if variety.painted_share and rng.random() < variety.painted_share:
        pips = _paint(rng, body)
    return body, pips


PAINTS = (
    (245, 245, 245),
    (200, 230, 240),
    (40, 170, 215),
    (30, 215, 240),
    (40, 40, 200),
    (25, 25, 25),
    (160, 70, 20),
)
"""Pip paints (BGR): white, cream, gold, yellow, red, black, blue."""


def _paint(rng: np.random.Generator, body: Vector) -> Vector:
    """A pip paint that stands out from ``body`` (at least 100 apart in BGR), jittered."""
    paints = [np.array(p, np.float64) for p in PAINTS]
    apart = [p for p in paints if float(np.linalg.norm(p - body)) > 100.0] or paints
    paint: Vector = apart[int(rng.integers(len(apart)))] + rng.normal(0, 10, 3)
    return np.clip(paint, 0, 255)


_FACE_AXES = (
    (np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])),
    (np.array([0.0, 0.0, -1.0]), np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])),
    (np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])),
    (np.array([-1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])),
    (np.array([0.0, 1.0, 0.0]), np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0])),
    (np.array([0.0, -1.0, 0.0]), np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0])),
)
"""Each face of a cube: outward normal and two axes along it."""


@dataclass(frozen=True)
class _Look:
    """How a die's faces are drawn beyond their colours: pips as holes, a glow through the
    body (its direction and strength), swirls of a second colour, a glint on the top face."""

    engraved: bool = False
    glow: tuple[float, float] | None = None
    swirl: Vector | None = None
    glint: bool = False

    @staticmethod
    def drawn(rng: np.random.Generator, variety: Variety, body: Vector) -> _Look:
        """A look as often as ``variety`` says (no draws from ``rng`` for a share of 0)."""

        def chance(share: float) -> bool:
            return bool(share) and rng.random() < share

        engraved = chance(variety.engraved_share)
        glow = (
            (rng.uniform(0, 2 * math.pi), rng.uniform(0.2, 0.6))
            if chance(variety.translucent_share)
            else None
        )
        swirl = None
        if chance(variety.marbled_share):
            other = rng.uniform(0, 255, 3)
            swirl = np.clip(body * rng.uniform(0.3, 0.7) + other * rng.uniform(0.3, 0.7), 0, 255)
        return _Look(engraved, glow, swirl, chance(variety.glint_share))


def _draw_die(
    canvas: Image,
    rng: np.random.Generator,
    view: _View,
    spot: tuple[float, float],
    side: float,
    variety: Variety,
) -> SceneDie:
    """Draw one die (shadow, visible faces, pips) and return its top face."""
    value = int(rng.integers(1, 7))
    values = _side_values(value, rng)
    rotation = _rotation(rng)
    half = side / 2.0
    centre = np.array([spot[0], spot[1], half])
    body, pips = _colours(rng, variety)
    look = _Look.drawn(rng, variety, body)
    spacing = rng.uniform(0.42, 0.58) * half
    radius = rng.uniform(*variety.pip_radius) * half
    spacing = max(spacing, 2.1 * radius)
    big_one = rng.uniform(1.0, 2.0) if rng.random() < 0.5 else 1.0  # the one pip often larger
    corner = rng.uniform(0.05, 0.3)
    bevel = rng.uniform(0.0, 0.15)  # rounded edges: a band of other shade round each face
    edge_shade = rng.uniform(0.55, 1.15)
    _shadow(canvas, rng, view, centre, half)
    top = np.zeros((4, 2))
    for face, ((normal, first, second), face_value) in enumerate(
        zip(_FACE_AXES, values, strict=True)
    ):
        n, a, b = rotation @ normal, rotation @ first, rotation @ second
        if view.facing(n) <= 0.02:
            continue
        shade = view.shade(n) * rng.uniform(0.95, 1.05)
        middle = centre + n * half
        colour = np.clip(body * shade + rng.normal(0, 4, 3), 0, 255)
        outline = _rounded_square(middle, a * half, b * half, corner)
        edge = np.clip(colour * edge_shade, 0, 255)
        cv2.fillPoly(canvas, [view.project(outline).round().astype(np.int32)], edge.tolist())
        inner = _rounded_square(middle, a * half * (1 - bevel), b * half * (1 - bevel), corner)
        inner_pixels = view.project(inner).round().astype(np.int32)
        cv2.fillPoly(canvas, [inner_pixels], colour.tolist())
        if look.glow is not None:
            _glow(canvas, inner_pixels, *look.glow)
        if look.swirl is not None:
            _swirl(canvas, inner_pixels, look.swirl * shade, rng)
        pip_radius = radius * (big_one if face_value == 1 else 1.0)
        towards = view.light - n * float(view.light @ n)  # the light along the face
        for step_a, step_b in PIP_LAYOUTS[face_value]:
            pip_centre = middle + a * step_a * spacing + b * step_b * spacing
            pip_colour = np.clip(pips * shade * rng.uniform(0.8, 1.0), 0, 255)
            if look.engraved:  # the hole's wall in shadow, the paint inside it off centre
                hole = _circle(pip_centre, a * pip_radius, b * pip_radius)
                polygon = view.project(hole).round().astype(np.int32)
                cv2.fillPoly(canvas, [polygon], (colour * 0.4).tolist(), lineType=cv2.LINE_AA)
                pip_centre = pip_centre + towards * pip_radius * 0.3
                circle = _circle(pip_centre, a * pip_radius * 0.8, b * pip_radius * 0.8)
            else:
                circle = _circle(pip_centre, a * pip_radius, b * pip_radius)
            polygon = view.project(circle).round().astype(np.int32)
            cv2.fillPoly(canvas, [polygon], pip_colour.tolist(), lineType=cv2.LINE_AA)
        if face == 0:
            corners = middle + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) @ np.stack(
                [a * half, b * half]
            )
            top = view.project(corners) / SUPERSAMPLE
            if look.glint:
                _glint(canvas, inner_pixels, rng)
    return SceneDie(value, top, side)


def _region(canvas: Image, polygon: Image) -> tuple[Image, Image] | None:
    """The part of ``canvas`` round ``polygon`` (a view) and the polygon's mask there (0..1),
    or None where it lies outside the canvas."""
    height, width = canvas.shape[:2]
    left, top = np.maximum(polygon.min(axis=0), 0)
    right, bottom = np.minimum(polygon.max(axis=0) + 1, (width, height))
    if right - left < 2 or bottom - top < 2:
        return None
    mask = np.zeros((bottom - top, right - left), np.float32)
    cv2.fillPoly(mask, [polygon - (left, top)], 1.0)
    return canvas[top:bottom, left:right], mask


def _glow(canvas: Image, polygon: Image, direction: float, strength: float) -> None:
    """A face lit through its body: brighter towards ``direction``, darker away."""
    found = _region(canvas, polygon)
    if found is None:
        return
    part, mask = found
    ys, xs = np.mgrid[0 : part.shape[0], 0 : part.shape[1]].astype(np.float32)
    along = xs * math.cos(direction) + ys * math.sin(direction)
    spread = max(float(np.ptp(along)), 1.0)
    factor = 1.0 + strength * ((along - along.min()) / spread * 2.0 - 1.0)
    lit = np.clip(part * (1.0 + mask * (factor - 1.0))[:, :, None], 0, 255)
    part[:] = lit.astype(np.uint8)


def _swirl(canvas: Image, polygon: Image, colour: Vector, rng: np.random.Generator) -> None:
    """Veins of ``colour`` swirled over a face (marbled dice)."""
    found = _region(canvas, polygon)
    if found is None:
        return
    part, mask = found
    height, width = mask.shape
    noise = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (width, height))
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    turn = rng.uniform(0, math.pi)
    phase = (xs * math.cos(turn) + ys * math.sin(turn)) / max(width, height)
    waves = np.sin(2 * math.pi * rng.uniform(1.0, 3.0) * phase + rng.uniform(1.5, 4.0) * noise)
    veins = np.clip(1.0 - np.abs(waves) / rng.uniform(0.2, 0.6), 0, 1) * rng.uniform(0.5, 1.0)
    alpha = (mask * veins)[:, :, None]
    part[:] = np.clip(part * (1 - alpha) + colour * alpha, 0, 255).astype(np.uint8)


def _glint(canvas: Image, polygon: Image, rng: np.random.Generator) -> None:
    """A soft spot of light somewhere on a face."""
    found = _region(canvas, polygon)
    if found is None:
        return
    part, mask = found
    height, width = mask.shape
    spot = np.zeros_like(mask)
    size = max(1, int(min(width, height) * rng.uniform(0.05, 0.15)))
    cv2.circle(spot, (int(rng.uniform(0, width)), int(rng.uniform(0, height))), size, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), size * 0.8 + 0.5) * mask
    light = rng.uniform(120, 255) * spot[:, :, None]
    part[:] = np.clip(part.astype(np.float32) + light, 0, 255).astype(np.uint8)


def _rounded_square(middle: Vector, a: Vector, b: Vector, corner: float) -> Vector:
    """The outline of a face with rounded corners (``corner``: radius share of a half side)."""
    points = []
    for sa, sb in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
        corner_centre = middle + a * sa * (1 - corner) + b * sb * (1 - corner)
        start = math.atan2(sb, sa) - math.pi / 4
        for angle in np.linspace(start, start + math.pi / 2, 4):
            points.append(corner_centre + corner * (a * math.cos(angle) + b * math.sin(angle)))
    return np.array(points)


def _circle(centre: Vector, a: Vector, b: Vector) -> Vector:
    angles = np.linspace(0.0, 2.0 * math.pi, CIRCLE_POINTS, endpoint=False)
    points: Vector = centre + np.outer(np.cos(angles), a) + np.outer(np.sin(angles), b)
    return points


def _shadow(
    canvas: Image, rng: np.random.Generator, view: _View, centre: Vector, half: float
) -> None:
    """Darken the table under and beside an object, away from the light."""
    away = -view.light[:2] / max(float(np.linalg.norm(view.light[:2])), 1e-6)
    reach = half * (1.0 - view.light[2]) * 1.5
    ground = np.array([[centre[0] + away[0] * reach, centre[1] + away[1] * reach, 0.0]])
    ((x, y),) = view.project(ground)
    size = int(half * SUPERSAMPLE * 1.3)
    reach_px = 2 * size + 2
    height, width = canvas.shape[:2]
    left, top = max(int(x) - reach_px, 0), max(int(y) - reach_px, 0)
    right, bottom = min(int(x) + reach_px, width), min(int(y) + reach_px, height)
    if right <= left or bottom <= top:
        return
    mask = np.zeros((bottom - top, right - left), np.float32)
    cv2.circle(mask, (int(x) - left, int(y) - top), size, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), half * SUPERSAMPLE * 0.3 + 1)
    region = canvas[top:bottom, left:right]
    region[:] = (region * (1.0 - rng.uniform(0.1, 0.45) * mask)[:, :, None]).astype(np.uint8)


def _draw_clutter(
    canvas: Image,
    rng: np.random.Generator,
    view: _View,
    spot: tuple[float, float],
    side: float,
) -> None:
    """One thing that is not a six-sided die: a polyhedral die, a coin, a chip, a card corner
    or a few pen dots."""
    ((x, y),) = view.project(np.array([[spot[0], spot[1], 0.0]]))
    scale = side * SUPERSAMPLE
    kind = max(int(rng.integers(-2, 5)), 0)  # polyhedral dice most often
    colour = rng.uniform(0, 255, 3)
    ink = np.where(colour.mean() > 120, rng.uniform(0, 60, 3), rng.uniform(190, 255, 3))
    squash = math.cos(view.tilt)
    if kind == 0:  # polyhedral die: a polygon with facets and a numeral
        corners = int(rng.choice([3, 4, 5, 6]))
        turn = rng.uniform(0, 2 * math.pi)
        radius = scale * rng.uniform(0.5, 0.8)
        angles = turn + np.arange(corners) * 2 * math.pi / corners
        stretch = np.where(np.arange(corners) % 2 == 0, 1.0, 0.75 if corners == 4 else 1.0)
        polygon = np.stack(
            [x + radius * stretch * np.cos(angles), y + radius * stretch * np.sin(angles) * squash],
            axis=1,
        )
        cv2.fillPoly(canvas, [polygon.round().astype(np.int32)], colour.tolist())
        for px, py in polygon:
            edge = (colour * rng.uniform(0.6, 0.9)).tolist()
            cv2.line(canvas, (int(x), int(y)), (int(px), int(py)), edge, max(1, int(scale / 30)))
        _numeral(canvas, rng, (x, y), scale * 0.35, ink)
    elif kind in (1, 2):  # coin or casino chip
        radius = scale * rng.uniform(0.4, 0.75)
        axes = (int(radius), int(radius * squash))
        cv2.ellipse(canvas, (int(x), int(y)), axes, 0, 0, 360, colour.tolist(), -1)
        inner = (int(radius * 0.7), int(radius * 0.7 * squash))
        cv2.ellipse(canvas, (int(x), int(y)), inner, 0, 0, 360, (colour * 0.8).tolist(), 2)
        if kind == 2:
            for angle in np.arange(0, 360, 45) + rng.uniform(0, 45):
                cv2.ellipse(
                    canvas,
                    (int(x), int(y)),
                    (int(radius * 0.88), int(radius * 0.88 * squash)),
                    0,
                    angle,
                    angle + 12,
                    ink.tolist(),
                    max(2, int(radius * 0.2)),
                )
        else:
            _numeral(canvas, rng, (x, y), radius * 0.5, colour * 0.7)
    elif kind == 3:  # a card corner: white with a rank and a suit blob
        w, h = scale * 0.9, scale * 1.3
        paper = (235, 235, 235)
        cv2.rectangle(canvas, (int(x - w), int(y - h)), (int(x + w), int(y + h)), paper, -1)
        _numeral(canvas, rng, (x - w * 0.6, y - h * 0.6), scale * 0.25, rng.uniform(0, 200, 3))
        cv2.circle(canvas, (int(x - w * 0.6), int(y - h * 0.2)), int(scale * 0.1), ink.tolist(), -1)
    else:  # pen dots or spots on the table
        for _ in range(int(rng.integers(1, 8))):
            dx, dy = rng.normal(0, scale * 0.4, 2)
            cv2.circle(
                canvas,
                (int(x + dx), int(y + dy)),
                int(scale * rng.uniform(0.05, 0.12)),
                ink.tolist(),
                -1,
            )


def _numeral(
    canvas: Image, rng: np.random.Generator, at: tuple[float, float], height: float, colour: Vector
) -> None:
    text = str(int(rng.integers(1, 21)))
    font = int(rng.choice(FONTS))
    scale = height / 22.0
    thickness = max(1, int(height / 8))
    (text_w, text_h), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = (int(at[0] - text_w / 2), int(at[1] + text_h / 2))
    cv2.putText(canvas, text, origin, font, scale, colour.tolist(), thickness, cv2.LINE_AA)


def _camera(
    image: Image, dice: list[SceneDie], rng: np.random.Generator, torch_share: float
) -> tuple[Image, list[SceneDie]]:
    """What a camera makes of the scene: perspective, cast, uneven light, glare, blur, noise,
    JPEG; the dice outlines follow the perspective."""
    height, width = image.shape[:2]
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    moved = corners + rng.normal(0, 0.03 * width, (4, 2)).astype(np.float32)
    homography = cv2.getPerspectiveTransform(corners, moved)
    image = cv2.warpPerspective(image, homography, (width, height), borderMode=cv2.BORDER_REFLECT)
    dice = [
        SceneDie(
            d.value,
            cv2.perspectiveTransform(
                d.top.reshape(-1, 1, 2).astype(np.float64), homography
            ).reshape(-1, 2),
            d.side,
        )
        for d in dice
    ]
    picture: Image = image.astype(np.float32)
    picture *= rng.uniform(0.7, 1.3, 3).astype(np.float32)  # colour cast
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    direction = rng.uniform(0, 2 * math.pi)
    ramp = (xs * math.cos(direction) + ys * math.sin(direction)) / max(width, height)
    picture *= (1.0 + rng.uniform(-0.4, 0.4) * (ramp - ramp.mean()))[:, :, None]
    if rng.random() < 0.25:  # a hard shadow band
        offset = rng.uniform(-0.5, 0.5) * width
        band = np.abs(xs * math.cos(direction) + ys * math.sin(direction) - width / 2 - offset)
        picture *= np.where(band < rng.uniform(0.05, 0.2) * width, rng.uniform(0.5, 0.8), 1.0)[
            :, :, None
        ].astype(np.float32)
    if (
        torch_share and rng.random() < torch_share
    ):  # a torch or lamp close by: bright pool, dark edges
        tx, ty = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
        reach = rng.uniform(0.25, 0.6) * max(width, height)
        pool = np.exp(-((xs - tx) ** 2 + (ys - ty) ** 2) / reach**2)
        edge = rng.uniform(0.15, 0.5)
        picture *= (edge + (1.0 - edge) * pool)[:, :, None]
    if rng.random() < 0.2:  # glare
        gx, gy = rng.uniform(0, width), rng.uniform(0, height)
        spot = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (rng.uniform(0.05, 0.2) * width) ** 2)
        picture += rng.uniform(40, 130) * spot[:, :, None]
    if rng.random() < 0.3:  # motion blur
        length = int(rng.integers(3, 10))
        line: Image = np.zeros((length, length), np.float32)
        line[length // 2, :] = 1.0 / length
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel: Image = cv2.warpAffine(line, turn, (length, length))
        kernel /= max(float(kernel.sum()), 1e-6)
        picture = cv2.filter2D(picture, -1, kernel)
    sigma = rng.uniform(0.0, 1.5)
    if sigma > 0.3:
        picture = cv2.GaussianBlur(picture, (0, 0), sigma)
    picture += rng.normal(0, rng.uniform(0, 7), picture.shape).astype(np.float32)
    picture_u8 = np.clip(picture, 0, 255).astype(np.uint8)
    quality = int(rng.integers(40, 96))
    _, encoded = cv2.imencode(".jpg", picture_u8, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return (picture_u8 if decoded is None else decoded), dice
