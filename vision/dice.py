"""Find dice of any colour in a frame and count the pips on their top faces.

Three steps:

1. **Die bodies** are regions whose colour differs from the table around them (the table is a
   heavy median of a quarter-size copy in Lab, so wood grain, shadows and uneven light cancel
   out; the distance weighs colour twice as much as lightness, so a red die on a grey tray
   stands out as well as a white die on wood).
2. Each body is cut out and scaled so that a die is about ``CROP_DIE_SIDE`` pixels across,
   and its **faces** are found there (:mod:`vision.dice_faces`): round pips darker or lighter
   than the face round them, linked into die-face layouts. A body much larger than the
   frame's typical one (dice touching a tray wall, clutter) is scaled for the typical one.
   A square, filled body is also proposed as a die as a whole (once with dark, once with
   light pips), so a die whose pips were not found as a face (motion blur merges them) can
   still be read.
3. Every candidate is **read** by two small learned networks on the candidate's normalised
   picture and its pip measurements, a CNN (:mod:`vision.dice_cnn`) and a one-layer network
   (:mod:`vision.dice_model`), trained by :mod:`vision.dice_training` on synthetic dice
   scenes and the labelled photos: the probability of each value and of "not a six-sided
   die", the geometric mean of the two networks'. The value read is the model's,
   not the pip count. Of candidates closer than ``merge`` pip diameters, the likeliest read
   stands. Reads below ``report_floor`` are dropped; those below the model's ``sure``
   threshold (where at most 1 % of reads were wrong on the photos it was trained on) are
   reported with ``unsure=True``, for the table loop to raise as an attention item.

Figures per photo source, and leaving each source out of the training: ``python -m
benchmarks dice``.

>>> import numpy as np
>>> find_dice(np.full((120, 160, 3), 150, np.uint8))
[]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice_cnn import shipped_reader
from vision.dice_faces import (
    FACE_SIDE_IN_PIPS,
    MAX_PIPS,
    Face,
    FaceSettings,
    channels,
    faces_in_planes,
)
from vision.dice_model import Reader, body_features, face_features, face_patch, patch_at
from vision.dice_pip_colours import colour_axis_faces
from vision.observations import DieObservation

Image = npt.NDArray[Any]
"""A frame as OpenCV gives it: height x width x 3, BGR, uint8."""

WORKING_WIDTH = 640
BACKGROUND_SIZE = (160, 120)
BACKGROUND_KERNEL = 31
CROP_DIE_SIDE = 64.0
SMALL_WIDTH = WORKING_WIDTH // 2
"""Images narrower than this (the crop of a dice tray) are read ``SMALL_SCALE`` times larger,
so the table round the dice is wide enough to tell the dice from it."""
SMALL_SCALE = 2.0
PIECE_AREAS = 4
"""A body piece of at least this many times the least body area is die-sized."""
MIN_DIE_SIDE = 10.0
"""A body narrower than this (working pixels) is too small to show countable pips (noise)."""


@dataclass(frozen=True)
class DiceSettings:
    """The tunable parts of :func:`find_dice`.

    ``body_contrast``: Lab distance from the table (colour counted twice) for a die body.
    ``min_body_area``: in working pixels, smaller bodies are noise. ``body_join``: when not 0,
    body pieces closer than this (working pixels) are one body (a marbled, translucent or dark
    die breaks into several); where that joins two or more die-sized pieces (touching dice),
    each square one is also proposed as a die on its own. ``off_body``: a face may lie this
    many pip diameters outside its body. ``max_scale``: how far a small body may be enlarged.
    ``merge``: candidates closer than this many pip diameters are one die. ``edge_margin``:
    faces with a pip closer than this many pip diameters to the frame edge are dropped.
    ``report_floor``: faces less likely than this are not reported. ``proposals_last``: a
    body proposal is reported only where no face candidate of its die is (the face's pips are
    measured; from a leaning die's whole picture the reader may read a side face).
    ``second_look``: when not 0 and ``faces.pip_colours`` is set, the colour-axis pips
    (:mod:`vision.dice_pip_colours`) are searched after the first look is read, seeded only
    by faces it reads less than this likely (on bodies of several dice or clutter by every
    face) and never by dark pips found in lightness (white dice): a second look at the hard
    dice. The faces-on-body measurement then counts the first look's faces. ``faces``: the
    pip and face settings (up to two colour-axis searches per crop by default).
    """

    body_contrast: float = 22.0
    min_body_area: int = 60
    max_scale: float = 4.0
    merge: float = 3.0
    edge_margin: float = 1.0
    report_floor: float = 0.5
    proposals_last: bool = True
    body_join: int = 13
    off_body: float = 3.0
    second_look: float = 0.9
    faces: FaceSettings = field(default_factory=lambda: FaceSettings(pip_colours=2))


UNJOINED = DiceSettings(
    proposals_last=False,
    body_join=0,
    off_body=1.0,
    second_look=0.0,
    faces=FaceSettings(pip_block=31, wide_block=0, ring_radius=2.2, pip_roundness=0.45),
)
"""The settings shipped until round 12: pips on a 31 px threshold block, rings at 2.2 pip
radii, rounder than 0.45; bodies as found, faces within one pip diameter of their body, and a
die's likeliest read standing, a face's or a body proposal's. Round 13's (``JOINED``,
rounds 10-13): pips on a 21 px block measured on a 31 px one, rings at 1.8 pip radii,
rounder than 0.35; body pieces joined by a 13 px closing, touching dice also proposed piece
by piece, faces up to 3 pip diameters off their body; body proposals last."""
JOINED = replace(DiceSettings(), second_look=0.0, faces=FaceSettings())
"""The settings shipped in round 13: the defaults without the colour-axis pips."""
COLOURS = replace(DiceSettings(), second_look=0.0)
"""Round 13's settings and up to two searches per crop along the colour axes of faces found
there, on every body (round 13b: pips on marbled bodies)."""
COLOURS_3 = replace(COLOURS, faces=replace(COLOURS.faces, pip_colours=3))
"""``COLOURS`` with three colour-axis searches per crop (round 13b)."""
SHIPPED_CANDIDATES = "second"
"""The name of the shipped (default) settings in :data:`CANDIDATE_SETTINGS`."""
CANDIDATE_SETTINGS = {
    SHIPPED_CANDIDATES: DiceSettings(),
    "joined": JOINED,
    "unjoined": UNJOINED,
    "colours": COLOURS,
    "colours3": COLOURS_3,
}
"""The candidate settings the benchmarks and the training can be run with, by name."""


@dataclass(frozen=True)
class Candidate:
    """A face found in a frame: where (frame pixels), how large, its picture and its
    measurements (the model's inputs, :meth:`inputs`)."""

    center: tuple[float, float]
    pip_diameter: float
    patch: npt.NDArray[np.float64]
    features: tuple[float, ...]
    colour_axis: bool = False
    """Found on a colour-axis plane (:mod:`vision.dice_pip_colours`)."""

    def inputs(self) -> npt.NDArray[np.float64]:
        """The model's input row: patch pixels, then measurements."""
        return np.concatenate([self.patch, self.features])

    @property
    def pip_count(self) -> int:
        """The pips of a face candidate (its "value k" measurements), 0 for a body proposal."""
        counts = self.features[:MAX_PIPS]
        return 1 + counts.index(1.0) if 1.0 in counts else 0


def model_inputs(found: list[Candidate]) -> npt.NDArray[np.float64]:
    """The model's inputs, one row per candidate."""
    return np.array([candidate.inputs() for candidate in found])


def find_dice(
    image: Image,
    settings: DiceSettings | None = None,
    *,
    model: Reader | None = None,
) -> list[DieObservation]:
    """Every die whose top face can be read in a BGR ``image``, left to right (dark pips and
    light pips alike). ``model`` defaults to the shipped reader."""
    settings = settings or DiceSettings()
    model = model or shipped_reader()
    found, probabilities = read_candidates(image, settings, model)
    if not found:
        return []
    return choose(found, probabilities, settings, model.sure)


def read_candidates(
    image: Image, settings: DiceSettings, model: Reader
) -> tuple[list[Candidate], npt.NDArray[Any]]:
    """The candidates of a BGR ``image`` and ``model``'s probabilities for them. With
    ``second_look``, the colour-axis pips are searched after the first look is read, seeded
    only by the faces it does not read surely (:meth:`_Look.seeds`)."""
    if not _second_look_on(settings):
        found = candidates(image, settings)
        return found, model.probabilities(model_inputs(found)) if found else _NO_READS
    frame = _first_look(image, settings)
    found = frame.found
    probabilities = model.probabilities(model_inputs(found)) if found else _NO_READS
    likelihoods = probabilities.max(axis=1)
    more = [
        candidate
        for look in frame.looks
        for candidate in frame.second(look, look.seeds(likelihoods, settings.second_look))
    ]
    if not more:
        return found, probabilities
    return found + more, np.vstack([probabilities, model.probabilities(model_inputs(more))])


_NO_READS = np.zeros((0, 7))


def choose(
    found: list[Candidate], probabilities: npt.NDArray[Any], settings: DiceSettings, sure: float
) -> list[DieObservation]:
    """For each die, the likeliest read of its candidates (the value the model finds most
    likely, not the pip count), at least ``report_floor`` likely, left to right; ``unsure``
    below ``sure``. With ``proposals_last``, a die's face candidates are taken before its
    body proposals, whatever their likelihoods."""
    values = probabilities[:, 1:].argmax(axis=1) + 1
    likelihoods = probabilities[np.arange(len(found)), values]
    dice: list[DieObservation] = []
    kept: list[Candidate] = []
    order = np.argsort(-likelihoods, kind="stable")
    if settings.proposals_last:  # stable: each kind stays likeliest first
        order = order[np.argsort([not found[i].pip_count for i in order], kind="stable")]
    for index in order:
        candidate, likelihood = found[index], float(likelihoods[index])
        if likelihood < settings.report_floor:
            continue
        if any(_same_die(candidate, other, settings.merge) for other in kept):
            continue
        kept.append(candidate)
        dice.append(
            DieObservation(
                int(values[index]),
                candidate.center,
                round(likelihood, 3),
                unsure=likelihood < sure,
            )
        )
    return sorted(dice, key=lambda die: (die.center[0], die.center[1]))


def _second_look_on(settings: DiceSettings) -> bool:
    return bool(settings.second_look and settings.faces.pip_colours)


def _same_die(first: Candidate, second: Candidate, merge: float) -> bool:
    reach = merge * max(first.pip_diameter, second.pip_diameter)
    return math.dist(first.center, second.center) < reach


def candidates(
    image: Image, settings: DiceSettings | None = None, model: Reader | None = None
) -> list[Candidate]:
    """Every candidate top face in a BGR ``image``, with its measurements for the model. With
    ``second_look``, the colour-axis candidates :func:`find_dice` finds with ``model``; without
    a model, those seeded by every face that may seed (the training's rows)."""
    settings = settings or DiceSettings()
    if model is not None:
        return read_candidates(image, settings, model)[0]
    frame = _first_look(image, settings)
    if not _second_look_on(settings):
        return frame.found
    more = [c for look in frame.looks for c in frame.second(look, look.seeds(None, 0.0))]
    return frame.found + more


@dataclass(frozen=True)
class _Look:
    """One body as its crop was searched: the Lab crop (enlarged ``zoom`` times, its top left
    corner at ``origin`` in working pixels), the body side its faces are measured against, and
    the planes searched, the faces found and the row of each face's candidate in the frame's
    candidates (None where it was left out: at the frame edge, off its body)."""

    body: _Body
    crop: Image
    zoom: float
    origin: tuple[int, int]
    side: float
    planes: list[Image]
    faces: list[Face]
    rows: list[int | None]

    def seeds(self, likelihoods: npt.NDArray[Any] | None, floor: float) -> list[Face]:
        """The faces that may seed the colour-axis search: those with a candidate, but not
        dark pips found in lightness (a white die's, whose whitened colour axis is mostly
        noise: round 13b), and, given the first look's ``likelihoods`` (per candidate row),
        on a single die only those read less than ``floor`` likely (any class); on a body
        of several dice or clutter, all of them (a sure die's colour finds its neighbours')."""
        several = not self.body.die_like or bool(self.body.pieces)
        return [
            face
            for face, row in zip(self.faces, self.rows, strict=True)
            if row is not None
            and (face.channel, face.polarity) != (0, 1)
            and (likelihoods is None or several or likelihoods[row] < floor)
        ]


@dataclass(frozen=True)
class _Frame:
    """A frame's first look: its bodies' looks and their candidates, and what the second look
    needs (working size, scale to frame pixels, settings)."""

    looks: list[_Look]
    found: list[Candidate]
    size: tuple[int, int]
    scale: float
    settings: DiceSettings

    def second(self, look: _Look, seeding: list[Face]) -> list[Candidate]:
        """The candidates of ``look``'s colour-axis pips (:mod:`vision.dice_pip_colours`),
        the axes those of faces of ``seeding``."""
        planes, faces = colour_axis_faces(
            look.crop, look.faces, len(look.planes), self.settings.faces, seeding
        )
        more = look.planes + planes
        found = [_face_candidate(look, more, face, len(look.faces), self) for face in faces]
        return [replace(c, colour_axis=True) for c in found if c is not None]


def _first_look(image: Image, settings: DiceSettings) -> _Frame:
    """Every body's crop searched for faces (and, without ``second_look``, for colour-axis
    pips), and the candidates: faces and body proposals."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("find_dice needs a 3-channel BGR image")
    scale = 1.0
    if image.shape[1] > 1.25 * WORKING_WIDTH:
        scale = WORKING_WIDTH / image.shape[1]
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    elif image.shape[1] < SMALL_WIDTH:  # a crop of a dice tray: the table round is too thin
        scale = SMALL_SCALE
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    height, width = lab.shape[:2]
    frame = _Frame([], [], (width, height), scale, settings)
    bodies = _bodies(lab, settings)
    lightness = np.ascontiguousarray(lab[:, :, 0])  # copied once, not once per body
    sides = [b.side for b in bodies if b.side < width / 8 and b.area >= 4 * settings.min_body_area]
    typical = float(np.median(sides)) if sides else CROP_DIE_SIDE
    for body in bodies:
        if body.side < MIN_DIE_SIDE:
            continue
        (x0, y0, box_w, box_h) = body.box
        side = body.side if body.die_like or body.side < 2.5 * typical else typical
        zoom = _zoom(side, settings)
        margin = int(0.3 * side) + 2
        left, top = max(x0 - margin, 0), max(y0 - margin, 0)
        right, bottom = min(x0 + box_w + margin, width), min(y0 + box_h + margin, height)
        crop = cv2.resize(
            lab[top:bottom, left:right],
            None,
            fx=zoom,
            fy=zoom,
            interpolation=cv2.INTER_LINEAR,
        )
        planes = channels(crop)
        faces = faces_in_planes(planes, settings.faces)
        if settings.faces.pip_colours and not _second_look_on(settings):
            more_planes, more_faces = colour_axis_faces(crop, faces, len(planes), settings.faces)
            planes, faces = planes + more_planes, faces + more_faces
        look = _Look(body, crop, zoom, (left, top), side, planes, faces, [])
        frame.looks.append(look)
        centres = [_in_frame(look, f) for f in faces]
        if body.die_like and not _box_at_edge(body.box, (width, height)):
            frame.found.extend(_body_proposals(lightness, body, zoom, len(faces), scale))
        for piece in body.pieces:
            if piece.die_like and not _box_at_edge(piece.box, (width, height)):
                on_piece = sum(cv2.pointPolygonTest(piece.contour, c, False) >= 0 for c in centres)
                frame.found.extend(
                    _body_proposals(
                        lightness, piece, _zoom(piece.side, settings), on_piece, scale
                    )
                )
        for face in faces:
            candidate = _face_candidate(look, planes, face, len(faces), frame)
            look.rows.append(None if candidate is None else len(frame.found))
            if candidate is not None:
                frame.found.append(candidate)
    return frame


def _in_frame(look: _Look, face: Face) -> tuple[float, float]:
    """A face's centre in working pixels."""
    return (
        look.origin[0] + face.center[0] / look.zoom,
        look.origin[1] + face.center[1] / look.zoom,
    )


def _face_candidate(
    look: _Look, planes: list[Image], face: Face, faces_on_body: int, frame: _Frame
) -> Candidate | None:
    """The candidate of ``face``, found in ``look``'s crop (in ``planes``); None when it lies
    at the frame edge or off its body."""
    settings, zoom, scale = frame.settings, look.zoom, frame.scale
    x, y = _in_frame(look, face)
    diameter = face.pip_diameter / zoom
    if _at_edge(face, zoom, look.origin, frame.size, settings.edge_margin):
        return None
    if cv2.pointPolygonTest(look.body.contour, (x, y), True) < -settings.off_body * diameter:
        return None  # a face must lie on or beside its body
    return Candidate(
        (x / scale, y / scale),
        diameter / scale,
        face_patch(planes[face.channel], face),
        face_features(face, look.side * zoom, zoom, faces_on_body),
    )


def _zoom(side: float, settings: DiceSettings) -> float:
    """How much a body of ``side`` working pixels is enlarged for its die to be
    ``CROP_DIE_SIDE`` pixels across."""
    return min(settings.max_scale, max(1.0, CROP_DIE_SIDE / side))


def _body_proposals(
    lightness: Image, body: _Body, zoom: float, faces_on_body: int, scale: float
) -> list[Candidate]:
    """A square, filled body proposed as a die as a whole, with dark and with light pips: the
    model reads its face from the picture when its pips were not found (blurred, merged)."""
    moments = cv2.moments(body.contour)
    if moments["m00"] <= 0:
        return []
    x, y = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
    diameter = body.side / FACE_SIDE_IN_PIPS
    return [
        Candidate(
            (x / scale, y / scale),
            diameter / scale,
            patch_at(lightness, (x, y), diameter, polarity),
            body_features(zoom, faces_on_body),
        )
        for polarity in (1, -1)
    ]


def _box_at_edge(box: tuple[int, int, int, int], size: tuple[int, int]) -> bool:
    x0, y0, box_w, box_h = box
    return x0 <= 0 or y0 <= 0 or x0 + box_w >= size[0] or y0 + box_h >= size[1]


@dataclass(frozen=True)
class _Body:
    """A region unlike the table: outline, bounding box, short side and area (working px)."""

    contour: Image
    box: tuple[int, int, int, int]
    side: float
    area: int
    die_like: bool
    """Square-ish and filled: one die, not a tray wall with dice along it or clutter."""
    pieces: tuple[_Body, ...] = ()
    """The die-sized pieces the body was joined from, when it was joined from two or more."""


def _bodies(lab: Image, settings: DiceSettings) -> list[_Body]:
    """The connected regions of the body mask large enough to hold a die, pieces closer than
    ``body_join`` joined, each with its die-sized pieces when it holds two or more."""
    mask = body_mask(lab, settings)
    if not settings.body_join:
        return list(_regions(mask, settings.min_body_area)[0].values())
    join = np.ones((settings.body_join, settings.body_join), np.uint8)
    bodies, labels = _regions(
        cv2.morphologyEx(mask, cv2.MORPH_CLOSE, join), settings.min_body_area
    )
    least_piece = PIECE_AREAS * settings.min_body_area
    joined = []
    for index, body in bodies.items():
        if body.area < 2 * least_piece:  # too small to hold two pieces
            joined.append(body)
            continue
        pieces = _pieces(mask, labels, index, body.box, least_piece)
        joined.append(replace(body, pieces=tuple(pieces)) if len(pieces) > 1 else body)
    return joined


def _pieces(
    mask: Image, labels: Image, index: int, box: tuple[int, int, int, int], least_area: int
) -> list[_Body]:
    """The regions of ``mask`` of at least ``least_area`` pixels inside the joined body
    ``index`` of ``labels`` (boxed by ``box``), in the order labelling the whole mask gives:
    the closing only adds pixels, so each region of the mask lies wholly in one joined body,
    and labelling the body's box alone finds them. The box starts at even coordinates: OpenCV
    labels 2x2 blocks, so the regions are numbered as in the whole mask."""
    x0, y0, box_w, box_h = box
    x0, y0, box_w, box_h = x0 - x0 % 2, y0 - y0 % 2, box_w + x0 % 2, box_h + y0 % 2
    inside = labels[y0 : y0 + box_h, x0 : x0 + box_w] == index
    region = np.where(inside, mask[y0 : y0 + box_h, x0 : x0 + box_w], 0).astype(np.uint8)
    return list(_regions(region, least_area, (x0, y0))[0].values())


def _regions(
    mask: Image, least_area: int, origin: tuple[int, int] = (0, 0)
) -> tuple[dict[int, _Body], Image]:
    """The connected regions of ``mask`` of at least ``least_area`` pixels by label (in frame
    pixels, ``mask``'s top left corner at ``origin``), and the label image."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    bodies = {}
    for index in range(1, count):
        area = int(stats[index, cv2.CC_STAT_AREA])
        if area < least_area:
            continue
        x0, y0, box_w, box_h = (int(v) for v in stats[index, :4])
        region = (labels[y0 : y0 + box_h, x0 : x0 + box_w] == index).astype(np.uint8)
        outlines, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        left, top = x0 + origin[0], y0 + origin[1]
        contour = max(outlines, key=cv2.contourArea) + np.array([left, top], np.int32)
        _, (side_a, side_b), _ = cv2.minAreaRect(contour)
        side, long_side = max(min(side_a, side_b), 4.0), max(side_a, side_b, 4.0)
        die_like = long_side < 1.6 * side and area > 0.6 * side * long_side
        bodies[index] = _Body(contour, (left, top, box_w, box_h), side, area, die_like)
    return bodies, labels


def _at_edge(
    face: Face,
    zoom: float,
    offset: tuple[int, int],
    size: tuple[int, int],
    margin_in_pips: float,
) -> bool:
    """Whether a pip lies within ``margin_in_pips`` pip diameters of the frame edge: a die cut
    off by the edge cannot be read, and what is found there is mostly other objects."""
    margin = margin_in_pips * face.pip_diameter / zoom
    width, height = size
    for pip in face.pips:
        x, y = offset[0] + pip.x / zoom, offset[1] + pip.y / zoom
        if x < margin or y < margin or x > width - margin or y > height - margin:
            return True
    return False


def body_mask(lab: Image, settings: DiceSettings) -> Image:
    """Pixels of an 8-bit Lab image whose colour differs from the local table, with nearby
    parts joined."""
    height, width = lab.shape[:2]
    small = cv2.resize(lab, BACKGROUND_SIZE, interpolation=cv2.INTER_AREA)
    table = cv2.resize(cv2.medianBlur(small, BACKGROUND_KERNEL), (width, height))
    lightness, red_green, yellow_blue = (
        cv2.absdiff(frame, local)
        for frame, local in zip(cv2.split(lab), cv2.split(table), strict=True)
    )
    # Squared, so exact: whole numbers whose sums stay far below 2**24, where float32 holds
    # every integer (cv2.magnitude's last bit varied from one call to the next).
    colour = cv2.add(_squared(red_green), _squared(yellow_blue))
    squared = cv2.scaleAdd(colour, 4.0, _squared(lightness))
    mask = cv2.morphologyEx(
        (squared > settings.body_contrast**2).astype(np.uint8) * 255,
        cv2.MORPH_OPEN,
        np.ones((3, 3), np.uint8),
    )
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


def _squared(plane: Image) -> Image:
    """An 8-bit plane's values squared, as float32 (exact)."""
    return cv2.multiply(plane, plane, dtype=cv2.CV_32F)
