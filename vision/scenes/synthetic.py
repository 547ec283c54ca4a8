"""Synthetic table scenes with exact ground truth, for what the real photos lack.

:class:`SceneBuilder` lays card faces (the CC0 faces in ``../shared/data/cards/faces-cc0``,
or 21X-style expression cards drawn by :func:`render_expression_card`) on a procedural
table surface, seen by a camera 40 to 80 cm above the table: any rotation (upside down
included), a perspective homography, overlap and fanning, shadows, glare, lighting,
blur and noise. Every scene comes with the truth: each card's name, outline corners,
visible index centres and the centre of its visible part. Scenes are deterministic for
a seed and take a few tens of milliseconds at 1280x720, so the simulator can feed the
app with them.

The public entry point for a scene of chosen cards is :func:`render_table_scene`: a list
of (card name or face, centre in table centimetres, rotation in degrees) becomes a
:class:`Scene` (image and truth); :class:`SceneBuilder` draws whole random layouts.

>>> builder = SceneBuilder(seed=7)
>>> card = render_expression_card(ExpressionCard("c1", "2X+4", level=2))
>>> scene = builder.build([card], rotation=180.0)
>>> scene.image.shape, [placed.name for placed in scene.cards]
((720, 1280, 3), ['c1'])
>>> [seen.card for seen in scene.observations()]
['c1']
>>> bool(SceneBuilder(seed=7).build([card], rotation=180.0).image.tobytes() == \
scene.image.tobytes())
True
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.cardmath.catalogue import Card
from companion.playing_cards import PlayingCard
from vision.camera import Camera
from vision.imageio import ImageError
from vision.observations import CardObservation
from vision.outline import Quad
from vision.scenes.textures import KINDS, TONES, Kind, Tone, table_texture, value_noise

Array = NDArray[Any]
"""A numpy array as OpenCV returns it (its dtype is not tracked by the stubs)."""

Point = tuple[float, float]
Image = Array
"""An 8-bit BGR (or BGRA) image, height x width x channels."""
Layout = Literal["scatter", "fan", "column"]
CardSet = Literal["core", "limited", "celebrity"]

#: Rows of sensor noise drawn at a time.
NOISE_BAND = 64
#: A poker card on the table, in centimetres (width, height).
CARD_CM = (6.3, 8.8)
#: Times a scatter of cards is laid afresh before it is refused (a first few cards can leave
#: no room for the rest).
SCATTER_STARTS = 5
#: Pixel size of rendered expression faces (the CC0 faces are the same size).
FACE_SIZE = (240, 336)
#: Centre of the top-left corner index as a fraction of the face (both CC0 designs).
INDEX_FRACTION = (0.087, 0.125)
#: Horizontal field of view of the simulated camera (a Pi camera module, degrees).
FIELD_OF_VIEW = 62.0
GOLD = (55, 175, 212)
INK = (20, 20, 20)
#: Accepted ``set`` values of an expression card and how its frame is drawn.
CARD_SETS: tuple[CardSet, ...] = ("core", "limited", "celebrity")


@dataclass(frozen=True)
class CardFace:
    """An upright card face: ``image`` is BGRA, ``index_points`` are face pixels of its indices."""

    name: str
    image: Image
    index_points: tuple[Point, ...] = ()


@dataclass(frozen=True)
class ExpressionCard:
    """A 21X-style card to draw: catalogue id, printed expression, difficulty level, set."""

    card_id: str
    text: str
    level: int = 1
    card_set: CardSet = "core"

    @classmethod
    def from_catalogue(cls, card: Card) -> ExpressionCard:
        """The card as a 21X catalogue describes it (level from its icons if unset).

        >>> from companion.cardmath.catalogue import builtin
        >>> ExpressionCard.from_catalogue(builtin("21x").card("x/2"))
        ExpressionCard(card_id='x/2', text='X/2', level=2, card_set='core')
        """
        level = card.level or max(1, min(card.icons, 3))
        card_set: CardSet = (
            "celebrity"
            if card.set == "celebrity"
            else ("limited" if card.set == "limited" else "core")
        )
        return cls(card.id, card.text, level, card_set)


@dataclass(frozen=True)
class PlacedCard:
    """Ground truth of one card in a scene (image pixel coordinates).

    ``corners`` are the face's top-left, top-right, bottom-right and bottom-left corners
    as they appear (so for an upside-down card the first lies bottom right);
    ``index_centers`` the corner indices whose centre pixel is visible; ``visible_center``
    the centroid of the card's visible part and ``visible_fraction`` how much shows.
    """

    name: str
    corners: Quad
    index_centers: tuple[Point, ...]
    visible_center: Point
    visible_fraction: float
    rotation: float

    def to_observation(self) -> CardObservation:
        """What a perfect recogniser would report: for feeding the app without a camera."""
        index = self.index_centers[0] if self.index_centers else self.visible_center
        return CardObservation(self.name, self.visible_center, index, 1.0, self.corners)


@dataclass(frozen=True)
class Scene:
    """A rendered frame and its truth; ``surface`` is e.g. ``"wood/dark"``."""

    image: Image
    cards: tuple[PlacedCard, ...]
    surface: str
    camera_height_cm: float
    tilt_degrees: float = 0.0

    def observations(self) -> list[CardObservation]:
        """The ground truth as observations, one per card with any part visible."""
        return [card.to_observation() for card in self.cards if card.visible_fraction > 0]


class FaceLibrary:
    """The CC0 card faces in ``directory``, by standard card name.

    ``design`` is ``"classic"`` (the top-level PNGs) or ``"four-colour"``. ``JK`` is
    the first joker (``variant=2`` the second, classic design only) and ``back`` a card
    back (``variant`` 1 or 2).
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        design: Literal["classic", "four-colour"] = "classic",
    ) -> None:
        self.directory = Path(directory)
        self.design = design

    def path(self, name: str, variant: int = 1) -> Path:
        """The PNG file holding the face called ``name``."""
        if name == "back":
            return self.directory / f"B{variant}.png"
        card = PlayingCard.parse(name)
        if self.design == "four-colour":
            rank = "T" if card.rank == "10" else card.rank
            stem = "2J" if card.is_joker else f"{rank}{card.suit.upper()}"
            return self.directory / "four-colour" / f"{stem}.png"
        if card.is_joker:
            return self.directory / f"J{variant}.png"
        return self.directory / f"{card.suit.upper()}{card.rank.lower()}.png"

    def face(self, name: str, variant: int = 1) -> CardFace:
        """The face of ``name`` (``Qh``, ``10c``, ``JK`` or ``back``) with its index points."""
        path = self.path(name, variant)
        image = _read_face(str(path))
        if name == "back" or PlayingCard.parse(name).is_joker:
            return CardFace(name, image)
        height, width = image.shape[:2]
        x, y = INDEX_FRACTION[0] * width, INDEX_FRACTION[1] * height
        return CardFace(str(PlayingCard.parse(name)), image, ((x, y), (width - x, height - y)))


@cache
def _read_face(path: str) -> Image:
    image = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if image is None:
        raise ImageError(f"{path}: no such card face image")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    elif image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    image.setflags(write=False)
    return np.asarray(image, dtype=np.uint8)


def _rounded_alpha(size: tuple[int, int], radius: int) -> Image:
    width, height = size
    alpha = np.zeros((height, width), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (width - 1 - radius, height - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (width - 1, height - 1 - radius), 255, -1)
    for cx in (radius, width - 1 - radius):
        for cy in (radius, height - 1 - radius):
            cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return alpha


def _icon_polygons(level: int, origin: Point, size: float) -> list[Array]:
    """Triangle, then square, then pentagon (as the level asks), stacked downwards."""
    shapes = (3, 4, 5)[: max(1, min(level, 3))]
    polygons = []
    x0, y0 = origin
    for row, sides in enumerate(shapes):
        cx, cy = x0, y0 + row * size * 1.25
        start = -math.pi / 2 if sides != 4 else -math.pi / 4
        points = [
            (
                cx + size / 2 * math.cos(start + k * 2 * math.pi / sides),
                cy + size / 2 * math.sin(start + k * 2 * math.pi / sides),
            )
            for k in range(sides)
        ]
        polygons.append(np.round(np.array(points)).astype(np.int32))
    return polygons


def _printable(text: str) -> str:
    """ASCII for cv2.putText: superscripts become ``^n``, the minus sign ``-``."""
    table = str.maketrans(
        {"\u00b2": "^2", "\u00b3": "^3", "\u2212": "-", "\u00d7": "x", "\u00f7": "/"}
    )
    return text.translate(table).encode("ascii", "replace").decode()


def _text_lines(text: str, width: float) -> tuple[list[str], float]:
    font = cv2.FONT_HERSHEY_DUPLEX
    lines = [text]
    words = text.split()
    if len(words) > 1 and cv2.getTextSize(text, font, 1.0, 3)[0][0] > width / 1.2:
        middle = len(words) // 2
        lines = [" ".join(words[:middle]), " ".join(words[middle:])]
    widest = max(cv2.getTextSize(line, font, 1.0, 3)[0][0] for line in lines)
    return lines, min(2.6, width / max(widest, 1))


def render_expression_card(card: ExpressionCard) -> CardFace:
    """A 21X-style face: white card, the expression in the middle, difficulty icons in
    the top-left and (turned) bottom-right corners; ``exclusive`` cards get black
    corners (the limited edition), ``celebrity`` cards a golden border.

    >>> face = render_expression_card(ExpressionCard("c9", "X/2", level=3, card_set="celebrity"))
    >>> face.name, face.image.shape, len(face.index_points)
    ('c9', (336, 240, 4), 2)
    """
    if card.card_set not in CARD_SETS:
        raise ValueError(f"unknown 21X card set {card.card_set!r}: expected one of {CARD_SETS}")
    width, height = FACE_SIZE
    image = np.full((height, width, 3), 250, np.uint8)
    if card.card_set == "celebrity":
        cv2.rectangle(image, (0, 0), (width - 1, height - 1), GOLD, 26)
    if card.card_set == "limited":
        leg = 34
        for cx, cy, dx, dy in (
            (0, 0, 1, 1),
            (width, 0, -1, 1),
            (width, height, -1, -1),
            (0, height, 1, -1),
        ):
            corner = np.array([(cx, cy), (cx + dx * leg, cy), (cx, cy + dy * leg)], np.int32)
            cv2.fillConvexPoly(image, corner, INK)
    cv2.rectangle(image, (2, 2), (width - 3, height - 3), (120, 120, 120), 1)
    # Icons sit inside the white corner area, clear of a golden border or black corner.
    icon_origin = (INDEX_FRACTION[0] * width * 1.6, INDEX_FRACTION[1] * height * 0.75)
    for polygon in _icon_polygons(card.level, icon_origin, 18.0):
        cv2.fillPoly(image, [polygon], INK, cv2.LINE_AA)
    lines, scale = _text_lines(_printable(card.text), width * 0.78)
    font, thickness = cv2.FONT_HERSHEY_DUPLEX, max(2, round(scale * 1.6))
    line_height = cv2.getTextSize("X", font, scale, thickness)[0][1] * 1.6
    top = height / 2 - line_height * (len(lines) - 1) / 2
    for number, line in enumerate(lines):
        (text_width, text_height), _ = cv2.getTextSize(line, font, scale, thickness)
        origin = (
            round((width - text_width) / 2),
            round(top + number * line_height + text_height / 2),
        )
        cv2.putText(image, line, origin, font, scale, INK, thickness, cv2.LINE_AA)
    # The bottom-right corner repeats the icons turned half a turn, like a card index.
    corner_h, corner_w = int(height * 0.3), int(width * 0.2)
    image[height - corner_h :, width - corner_w :] = np.rot90(image[:corner_h, :corner_w], 2)
    face = np.dstack([image, _rounded_alpha(FACE_SIZE, 12)])
    icons_y = icon_origin[1] + (min(card.level, 3) - 1) * 18.0 * 1.25 / 2
    first = (icon_origin[0], icons_y)
    return CardFace(card.card_id, face, (first, (width - first[0], height - first[1])))


def camera_homography(size: tuple[int, int], height_cm: float, tilt_degrees: float) -> Array:
    """Table plane (centimetres, x right, y towards the player) to image pixels.

    The camera is ``height_cm`` above the table, tipped by ``tilt_degrees`` towards the
    far side; the table origin lands in the middle of the image.

    >>> h = camera_homography((1280, 720), 60.0, 0.0)
    >>> point = h @ [6.3, 0.0, 1.0]
    >>> round(point[0] / point[2] - 640), round(point[1] / point[2] - 360)
    (112, 0)
    """
    width, height = size
    focal = width / 2 / math.tan(math.radians(FIELD_OF_VIEW) / 2)
    intrinsics = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    tilt = math.radians(tilt_degrees)
    rotation = np.array(
        [[1, 0, 0], [0, math.cos(tilt), math.sin(tilt)], [0, -math.sin(tilt), math.cos(tilt)]]
    )
    camera = np.array([0.0, height_cm * math.tan(tilt), -height_cm])
    extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], -rotation @ camera])
    homography: Array = intrinsics @ extrinsic
    normalised: Array = homography / homography[2, 2]
    return normalised


def _project(homography: Array, points: Array) -> Array:
    projected: Array = cv2.perspectiveTransform(
        points.reshape(-1, 1, 2).astype(np.float64), homography
    ).reshape(-1, 2)
    return projected


def _card_corners_cm(centre: Point, rotation: float) -> Array:
    """Face corners TL, TR, BR, BL on the table for a card turned ``rotation`` degrees."""
    half_w, half_h = CARD_CM[0] / 2, CARD_CM[1] / 2
    angle = math.radians(rotation)
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    local = np.array([(-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)])
    corners: Array = local @ turn.T + np.asarray(centre)
    return corners


class SceneBuilder:
    """Makes synthetic table scenes; the same seed gives the same sequence of scenes.

    ``faces`` supplies standard faces by name (cards given as :class:`CardFace` need
    none); ``size`` is the frame (width, height); ``noise_sigma`` the sensor noise.
    """

    def __init__(
        self,
        seed: int,
        faces: FaceLibrary | None = None,
        size: tuple[int, int] = (1280, 720),
        noise_sigma: float = 3.0,
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.faces = faces
        self.size = size
        width, height = size
        margin = 32
        # Sensor noise as signed bytes, added with saturation in one step (the sum of the
        # bright and the dark half); drawn a band of rows at a time (the same values as in
        # one draw), so the float noise of a whole frame, 24 MB, is never held at once.
        shape = (height + margin, width + margin, 3)
        self._noise = np.empty(shape, np.int8)
        rng = np.random.default_rng(seed)
        for top in range(0, shape[0], NOISE_BAND):
            band = rng.normal(0.0, noise_sigma, (min(NOISE_BAND, shape[0] - top), *shape[1:]))
            self._noise[top:top + len(band)] = np.clip(band, -127, 127)
        self._noise_margin = margin

    def _face(self, card: str | CardFace) -> CardFace:
        if isinstance(card, CardFace):
            return card
        if self.faces is None:
            raise ValueError(
                f"card {card!r} given by name but the scene builder has no FaceLibrary"
            )
        return self.faces.face(card)

    def build(
        self,
        cards: Sequence[str | CardFace],
        *,
        layout: Layout = "scatter",
        surface: tuple[Kind, Tone] | None = None,
        rotation: float | Sequence[float] | None = None,
        height_cm: float | None = None,
        tilt_degrees: float | None = None,
        glare: bool | None = None,
        shadows: bool = True,
        blur: bool = True,
        noise: bool = True,
        positions: Sequence[Point] | None = None,
    ) -> Scene:
        """A scene with ``cards`` (names or faces) laid out as ``layout``.

        Unset options are drawn at random: the surface, each card's rotation (any angle),
        the camera height (40-80 cm) and tilt (0-20 degrees), and glare (half the
        scenes). ``scatter`` keeps cards apart, ``fan`` fans them like a hand, ``column``
        overlaps them like a solitaire column; later cards lie on top. ``positions``
        (card centres in table centimetres, see :func:`camera_homography`) replaces the
        layout's placement.
        """
        rng = self.rng
        faces = [self._face(card) for card in cards]
        kind, tone = surface or (KINDS[rng.integers(len(KINDS))], TONES[rng.integers(len(TONES))])
        height_cm = float(rng.uniform(40.0, 80.0)) if height_cm is None else height_cm
        tilt = float(rng.uniform(0.0, 20.0)) if tilt_degrees is None else tilt_degrees
        homography = camera_homography(self.size, height_cm, tilt)
        rotations = self._rotations(len(faces), rotation, layout)
        if positions is not None and len(positions) != len(faces):
            raise ValueError(f"{len(positions)} positions given for {len(faces)} cards")
        centres = (
            list(positions)
            if positions is not None
            else self._centres(len(faces), rotations, homography, layout)
        )
        image = table_texture(kind, tone, self.size, rng)
        labels = np.zeros((self.size[1], self.size[0]), np.uint8)
        light = rng.uniform(-1.0, 1.0, 2) * 5.0
        quads = []
        for number, (face, centre, turn) in enumerate(zip(faces, centres, rotations, strict=True)):
            quad = _project(homography, _card_corners_cm(centre, turn))
            if shadows:
                _cast_shadow(image, quad, light)
            _paste_face(image, face.image, quad)
            cv2.fillConvexPoly(labels, np.round(quad).astype(np.int32), number + 1)
            quads.append(quad)
        self._light(image, glare, quads)
        if blur:
            sigma = float(rng.uniform(0.3, 1.1))
            image = cv2.GaussianBlur(image, (0, 0), sigma)
        if noise:
            image = self.add_noise(image)
        truth = tuple(
            _truth(face, quad, turn, labels, number + 1)
            for number, (face, quad, turn) in enumerate(zip(faces, quads, rotations, strict=True))
        )
        return Scene(image, truth, f"{kind}/{tone}", height_cm, tilt)

    def add_noise(self, image: Image) -> Image:
        """``image`` (of this builder's size) with a fresh draw of sensor noise, in place."""
        dx, dy = (int(v) for v in self.rng.integers(0, self._noise_margin, 2))
        rows, columns = slice(dy, dy + self.size[1]), slice(dx, dx + self.size[0])
        cv2.add(image, self._noise[rows, columns], dst=image, dtype=cv2.CV_8U)
        return image

    def _rotations(
        self, count: int, rotation: float | Sequence[float] | None, layout: Layout
    ) -> list[float]:
        rng = self.rng
        if isinstance(rotation, Sequence):
            if len(rotation) != count:
                raise ValueError(f"{len(rotation)} rotations given for {count} cards")
            return [float(turn) for turn in rotation]
        base = float(rng.uniform(0.0, 360.0)) if rotation is None else float(rotation)
        if layout == "scatter":
            if rotation is not None:
                return [base] * count
            return [float(turn) for turn in rng.uniform(0.0, 360.0, count)]
        if layout == "fan":
            step = float(rng.uniform(9.0, 15.0))
            return [base + (k - (count - 1) / 2) * step for k in range(count)]
        return [base + float(rng.uniform(-3.0, 3.0)) for _ in range(count)]

    def _centres(
        self,
        count: int,
        rotations: list[float],
        homography: Array,
        layout: Layout,
    ) -> list[Point]:
        rng = self.rng
        inverse = np.linalg.inv(homography)
        width, height = self.size
        if layout == "scatter":
            return self._scatter(count, rotations, homography, inverse)
        middle = _project(inverse, np.array([[width / 2, height / 2]]))[0]
        jitter = rng.uniform(-4.0, 4.0, 2)
        anchor = (float(middle[0] + jitter[0]), float(middle[1] + jitter[1]))
        centres = []
        for k, turn in enumerate(rotations):
            angle = math.radians(turn)
            down = (-math.sin(angle), math.cos(angle))
            if layout == "fan":
                # Cards pivot about a point below the hand, like cards held in a fan.
                reach = -CARD_CM[1] * 0.45
                centres.append((anchor[0] + down[0] * reach, anchor[1] + down[1] * reach))
            else:
                step = 2.2 * (k - (count - 1) / 2)
                centres.append((anchor[0] + down[0] * step, anchor[1] + down[1] * step))
        return centres

    def _scatter(
        self,
        count: int,
        rotations: list[float],
        homography: Array,
        inverse: Array,
    ) -> list[Point]:
        """Card centres (cm) laid apart at random, started afresh up to ``SCATTER_STARTS``
        times when the cards laid first leave no room for the rest."""
        for _start in range(SCATTER_STARTS):
            centres = self._scatter_once(rotations, homography, inverse)
            if centres is not None:
                return centres
        raise ValueError(f"cannot lay {count} cards apart in one frame; use fewer cards")

    def _scatter_once(
        self, rotations: list[float], homography: Array, inverse: Array
    ) -> list[Point] | None:
        width, height = self.size
        apart = math.hypot(*CARD_CM) * 1.02
        centres: list[Point] = []
        for turn in rotations:
            for _attempt in range(300):
                pixel = self.rng.uniform((0, 0), (width, height))
                x, y = (float(v) for v in _project(inverse, pixel[None, :])[0])
                quad = _project(homography, _card_corners_cm((x, y), turn))
                inside = bool(
                    (quad[:, 0] > 8).all()
                    and (quad[:, 0] < width - 8).all()
                    and (quad[:, 1] > 8).all()
                    and (quad[:, 1] < height - 8).all()
                )
                if inside and all(math.hypot(x - cx, y - cy) >= apart for cx, cy in centres):
                    centres.append((x, y))
                    break
            else:
                return None
        return centres

    def _light(self, image: Image, glare: bool | None, quads: list[Array]) -> None:
        rng = self.rng
        width, height = self.size
        field = cv2.convertScaleAbs(value_noise((9, 16), 3, rng), alpha=45.0, beta=102.0)
        shading = cv2.resize(cv2.merge([field] * 3), (width, height))
        cv2.multiply(image, shading, dst=image, scale=1 / 128)
        if glare is None:
            glare = bool(rng.random() < 0.5)
        if not glare:
            return
        if quads and rng.random() < 0.6:
            target = quads[int(rng.integers(len(quads)))].mean(axis=0)
            centre = target + rng.uniform(-30.0, 30.0, 2)
        else:
            centre = rng.uniform((0, 0), (width, height))
        sigma = float(rng.uniform(20.0, 60.0))
        strength = float(rng.uniform(60.0, 150.0))
        _add_glare(image, (float(centre[0]), float(centre[1])), sigma, strength)


#: A card to lay on the table: name (or face), centre in table centimetres, rotation in degrees.
Placement = tuple[str | CardFace, Point, float]


def render_table_scene(
    placements: Sequence[Placement],
    *,
    seed: int = 0,
    faces: FaceLibrary | None = None,
    size: tuple[int, int] = (1280, 720),
    height_cm: float = 60.0,
    tilt_degrees: float = 0.0,
    surface: tuple[Kind, Tone] | None = None,
) -> Scene:
    """A table scene with each card where ``placements`` says, the public entry point.

    Positions are centimetres on the table from the point under the middle of the frame
    (x right, y towards the player); rotation 0 is upright, later cards lie on top. The
    rest (lighting, shadows, blur, noise and, unless given, the surface) is drawn from
    ``seed``, so the same arguments give the same picture.

    >>> scene = render_table_scene([(render_expression_card(ExpressionCard("c1", "X+1")),
    ...                              (0.0, 0.0), 90.0)], surface=("wood", "dark"))
    >>> [(card.name, round(card.rotation)) for card in scene.cards], scene.surface
    ([('c1', 90)], 'wood/dark')
    """
    builder = SceneBuilder(seed, faces, size)
    cards = [card for card, _, _ in placements]
    return builder.build(
        cards,
        surface=surface,
        rotation=[float(turn) for _, _, turn in placements],
        height_cm=height_cm,
        tilt_degrees=tilt_degrees,
        positions=[position for _, position, _ in placements],
    )


class SceneCamera(Camera):
    """A camera over a synthetic table, for the simulator and tests: :meth:`show` lays
    cards out (options as for :meth:`SceneBuilder.build`), :meth:`read` returns that
    table with fresh sensor noise each frame, and :attr:`scene` holds the truth.

    >>> with SceneCamera(SceneBuilder(seed=3)) as camera:
    ...     scene = camera.show([render_expression_card(ExpressionCard("6x", "6X"))])
    ...     first, second = camera.read(), camera.read()
    >>> first.shape, bool((first != second).any()), [card.name for card in camera.scene.cards]
    ((720, 1280, 3), True, ['6x'])
    """

    description = "synthetic table"

    def __init__(self, builder: SceneBuilder) -> None:
        self.builder = builder
        self.scene = builder.build([], noise=False)

    def show(self, cards: Sequence[str | CardFace], **options: Any) -> Scene:
        """Lay ``cards`` out on a new table; later reads show it."""
        self.scene = self.builder.build(cards, noise=False, **options)
        return self.scene

    def read(self) -> Image:
        """The current table with this frame's noise."""
        return self.builder.add_noise(self.scene.image.copy())

    def close(self) -> None:
        """Nothing to release."""


def _bbox(quad: Array, shape: tuple[int, ...], pad: int) -> tuple[int, int, int, int]:
    x0 = max(0, math.floor(quad[:, 0].min()) - pad)
    y0 = max(0, math.floor(quad[:, 1].min()) - pad)
    x1 = min(shape[1], math.ceil(quad[:, 0].max()) + pad + 1)
    y1 = min(shape[0], math.ceil(quad[:, 1].max()) + pad + 1)
    return x0, y0, x1, y1


def _paste_face(image: Image, face: Image, quad: Array) -> None:
    """Draw the BGRA ``face`` onto ``image`` so that its corners land on ``quad``."""
    x0, y0, x1, y1 = _bbox(quad, image.shape, 1)
    if x1 <= x0 or y1 <= y0:
        return
    height, width = face.shape[:2]
    target_width = float(np.linalg.norm(quad[1] - quad[0]))
    while target_width < width * 0.5 and width > 16:
        face = cv2.pyrDown(face)
        height, width = face.shape[:2]
    source = np.array([(0, 0), (width, 0), (width, height), (0, height)], np.float32)
    target = (quad - (x0, y0)).astype(np.float32)
    warp = cv2.getPerspectiveTransform(source, target)
    warped = cv2.warpPerspective(
        face,
        warp,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    _, opaque = cv2.threshold(warped[:, :, 3], 127, 255, cv2.THRESH_BINARY)
    region = image[y0:y1, x0:x1]
    cv2.copyTo(warped[:, :, :3], opaque, region)


def _cast_shadow(image: Image, quad: Array, offset: Array) -> None:
    """Darken a soft patch under where the card will lie (drawn at quarter size: fast)."""
    shifted = quad + offset
    x0, y0, x1, y1 = _bbox(shifted, image.shape, 12)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return
    small = np.full(((y1 - y0 + 3) // 4, (x1 - x0 + 3) // 4), 255, np.uint8)
    cv2.fillConvexPoly(small, np.round((shifted - (x0, y0)) / 4).astype(np.int32), 140)
    light = cv2.resize(cv2.GaussianBlur(small, (5, 5), 1.0), (x1 - x0, y1 - y0))
    region = image[y0:y1, x0:x1]
    cv2.multiply(region, cv2.merge([light] * 3), dst=region, scale=1 / 255)


def _add_glare(image: Image, centre: Point, sigma: float, strength: float) -> None:
    reach = int(sigma * 3)
    x0, y0 = max(0, int(centre[0]) - reach), max(0, int(centre[1]) - reach)
    x1 = min(image.shape[1], int(centre[0]) + reach)
    y1 = min(image.shape[0], int(centre[1]) + reach)
    if x1 <= x0 or y1 <= y0:
        return
    xs = np.arange(x0, x1, dtype=np.float32) - centre[0]
    ys = np.arange(y0, y1, dtype=np.float32) - centre[1]
    blob = np.exp(-(ys[:, None] ** 2 + xs[None, :] ** 2) / (2 * sigma * sigma)) * strength
    bright = cv2.merge([blob.astype(np.uint8)] * 3)
    region = image[y0:y1, x0:x1]
    cv2.add(region, bright, dst=region)


def _truth(face: CardFace, quad: Array, rotation: float, labels: Image, label: int) -> PlacedCard:
    x0, y0, x1, y1 = _bbox(quad, labels.shape, 0)
    region = labels[y0:y1, x0:x1] == label
    ys, xs = np.nonzero(region)
    area = float(cv2.contourArea(quad.astype(np.float32)))
    if len(xs):
        visible = (float(xs.mean()) + x0, float(ys.mean()) + y0)
    else:
        visible = (float(quad[:, 0].mean()), float(quad[:, 1].mean()))
    height, width = face.image.shape[:2]
    source = np.array([(0, 0), (width, 0), (width, height), (0, height)], np.float32)
    warp = cv2.getPerspectiveTransform(source, quad.astype(np.float32))
    indices = []
    if face.index_points:
        for x, y in _project(warp, np.array(face.index_points)):
            column, row = round(x), round(y)
            if (
                0 <= row < labels.shape[0]
                and 0 <= column < labels.shape[1]
                and labels[row, column] == label
            ):
                indices.append((float(x), float(y)))
    corners = tuple((float(x), float(y)) for x, y in quad)
    return PlacedCard(
        name=face.name,
        corners=(corners[0], corners[1], corners[2], corners[3]),
        index_centers=tuple(indices),
        visible_center=visible,
        visible_fraction=min(1.0, len(xs) / max(area, 1.0)),
        rotation=rotation % 360.0,
    )
