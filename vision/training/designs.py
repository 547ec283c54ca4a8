"""Card faces of many designs drawn by code, so the glyph model learns more than one deck.

A :class:`Design` is one way of printing a deck: the rank font (the TrueType fonts that
ship inside matplotlib and Kivy, or OpenCV's Hershey fonts, condensed or widened), the
suit symbols (a font's own, or drawn with round or pointed club leaves, fat or thin
spades, short or long stems), the index size (up to jumbo) and layout, and the inks
(red and black, or four colours). :func:`random_design` draws one at random (seeded);
:func:`draw_face` draws a card of it upright, both corner indices, centre pips for
number cards and a busy picture for courts (the reject examples).

>>> rng = np.random.default_rng(1)
>>> face = draw_face(random_design(rng), "10s", rng)
>>> face.shape
(336, 240, 4)
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import matplotlib
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.errors import CompanionError

#: Upright face size in pixels (width, height), as the CC0 faces.
FACE = (240, 336)
#: Side of the canvas symbols and glyphs are drawn on before they are scaled down.
CANVAS = 160
#: TrueType rank fonts: (package, file). matplotlib's DejaVu, STIX and Computer Modern
#: faces and Kivy's Roboto.
RANK_FONTS = (
    ("matplotlib", "DejaVuSans.ttf"),
    ("matplotlib", "DejaVuSans-Bold.ttf"),
    ("matplotlib", "DejaVuSansMono.ttf"),
    ("matplotlib", "DejaVuSansMono-Bold.ttf"),
    ("matplotlib", "DejaVuSerif.ttf"),
    ("matplotlib", "DejaVuSerif-Bold.ttf"),
    ("matplotlib", "STIXGeneral.ttf"),
    ("matplotlib", "STIXGeneralBol.ttf"),
    ("matplotlib", "cmr10.ttf"),
    ("matplotlib", "cmss10.ttf"),
    ("matplotlib", "cmb10.ttf"),
    ("kivy", "Roboto-Regular.ttf"),
    ("kivy", "Roboto-Bold.ttf"),
    ("kivy", "RobotoMono-Regular.ttf"),
)
#: Hershey fonts (drawn with strokes of a chosen weight).
HERSHEY_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)
#: Fonts whose suit symbols (U+2660 spade, 2663 club, 2665 heart, 2666 diamond) are used.
SUIT_FONTS = (
    ("matplotlib", "DejaVuSans.ttf"),
    ("matplotlib", "DejaVuSerif.ttf"),
    ("matplotlib", "DejaVuSansMono.ttf"),
    ("matplotlib", "STIXGeneral.ttf"),
)
SUIT_CHARACTERS = {"s": "\u2660", "c": "\u2663", "h": "\u2665", "d": "\u2666"}
#: Inks (BGR): black, red, and the four-colour deck's blue diamonds and green clubs.
BLACK = (35.0, 35.0, 35.0)
RED = (40.0, 35.0, 190.0)
BLUE = (175.0, 90.0, 20.0)
GREEN = (45.0, 130.0, 35.0)
#: Share of designs printed in four colours, drawn with a TrueType rank font, with the
#: suit font's own symbols.
FOUR_COLOUR_SHARE = 0.2
TRUETYPE_SHARE = 0.7
FONT_SUIT_SHARE = 0.35
FLAT_THREE_SHARE = 0.3


@dataclass(frozen=True)
class SuitShape:
    """How the suit symbols are drawn: a font's, or drawn with these proportions.

    ``width``: symbol width over height; ``lobe``: round lobe radius (heart, spade, club
    leaves) over the symbol's height; ``pointed``: club leaves as pointed ellipses;
    ``stem``: stem width at its foot over the symbol's width; ``stem_length``: over height.
    """

    font: tuple[str, str] | None
    width: float
    lobe: float
    pointed: bool
    stem: float
    stem_length: float
    diamond_width: float


@dataclass(frozen=True)
class Design:
    """One deck's way of printing its indices (see the module docstring)."""

    rank_font: tuple[str, str] | int
    stroke: int
    condense: float
    suits: SuitShape
    rank_height: float
    suit_height: float
    gap: float
    margin: tuple[float, float]
    four_colour: bool
    ink_shade: float
    flat_three: bool


class FontError(CompanionError, FileNotFoundError):
    """A packaged font that is not where its package keeps it."""


def font_path(package: str, name: str) -> Path:
    """Where ``name`` lies inside ``package`` (found without importing Kivy)."""
    if package == "matplotlib":
        path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name
    else:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise FontError(f"{package}: not installed, cannot read its font {name}")
        path = Path(next(iter(spec.submodule_search_locations))) / "data" / "fonts" / name
    if not path.is_file():
        raise FontError(f"{path}: font {name} of {package} not found")
    return path


@cache
def truetype(package: str, name: str) -> ImageFont.FreeTypeFont:
    """The font at the size glyphs are drawn at before scaling."""
    return ImageFont.truetype(str(font_path(package, name)), CANVAS)


def random_design(rng: np.random.Generator) -> Design:
    """A design drawn at random: font, suit shapes, index size and layout, inks."""
    rank_font: tuple[str, str] | int
    if rng.random() < TRUETYPE_SHARE:
        rank_font = RANK_FONTS[int(rng.integers(len(RANK_FONTS)))]
    else:
        rank_font = HERSHEY_FONTS[int(rng.integers(len(HERSHEY_FONTS)))]
    suit_font = (
        SUIT_FONTS[int(rng.integers(len(SUIT_FONTS)))] if rng.random() < FONT_SUIT_SHARE else None
    )
    suits = SuitShape(
        font=suit_font,
        width=float(rng.uniform(0.8, 1.25)),
        lobe=float(rng.uniform(0.2, 0.3)),
        pointed=bool(rng.random() < 0.3),
        stem=float(rng.uniform(0.08, 0.45)),
        stem_length=float(rng.uniform(0.2, 0.4)),
        diamond_width=float(rng.uniform(0.6, 0.9)),
    )
    jumbo = rng.random() < 0.2
    return Design(
        rank_font=rank_font,
        stroke=int(rng.integers(5, 15)),
        condense=float(rng.uniform(0.7, 1.15)),
        suits=suits,
        rank_height=float(rng.uniform(0.11, 0.15) if jumbo else rng.uniform(0.065, 0.105)),
        suit_height=float(rng.uniform(0.55, 0.95)),
        gap=float(rng.uniform(0.05, 0.35)),
        margin=(float(rng.uniform(0.03, 0.07)), float(rng.uniform(0.025, 0.06))),
        four_colour=bool(rng.random() < FOUR_COLOUR_SHARE),
        ink_shade=float(rng.uniform(0.7, 1.2)),
        flat_three=bool(rng.random() < FLAT_THREE_SHARE),
    )


def tight(mask: np.ndarray) -> np.ndarray:
    """``mask`` cropped to its ink (values above 0)."""
    ys, xs = np.nonzero(mask > 0)
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def flat_top_three(stroke: int) -> np.ndarray:
    """A "3" with a flat top bar and a diagonal into its lower bowl (many decks print it
    so; no packaged font does), as an ink mask at canvas size."""
    canvas = np.zeros((CANVAS + 2 * stroke, CANVAS + 2 * stroke), np.uint8)
    width = int(0.62 * CANVAS)

    def at(x: float, y: float) -> tuple[int, int]:
        return int(stroke + x * width), int(stroke + y * CANVAS)

    cv2.line(canvas, at(0.05, 0.0), at(0.92, 0.0), 255, stroke, cv2.LINE_AA)
    cv2.line(canvas, at(0.92, 0.0), at(0.42, 0.4), 255, stroke, cv2.LINE_AA)
    cv2.ellipse(canvas, at(0.45, 0.69), (int(0.47 * width), int(0.29 * CANVAS)), 0, -100, 140,
                255, stroke, cv2.LINE_AA)
    return canvas


def rank_mask(design: Design, rank: str) -> np.ndarray:
    """The rank glyph(s) as an ink mask (0..1), cropped tight, at canvas size."""
    canvas = np.zeros((2 * CANVAS, 3 * CANVAS), np.uint8)
    if rank == "3" and design.flat_three:
        canvas = flat_top_three(max(4, int(design.stroke * 1.3)))
    elif isinstance(design.rank_font, int):
        scale = CANVAS / 30
        cv2.putText(canvas, rank, (CANVAS // 4, int(1.5 * CANVAS)), design.rank_font, scale,
                    255, design.stroke, cv2.LINE_AA)
    else:
        image = Image.fromarray(canvas)
        ImageDraw.Draw(image).text(
            (CANVAS // 4, CANVAS // 4), rank, font=truetype(*design.rank_font), fill=255
        )
        canvas = np.asarray(image)
    return tight(canvas).astype(np.float32) / 255.0


def suit_mask(shape: SuitShape, suit: str) -> np.ndarray:
    """The suit symbol as an ink mask (0..1), cropped tight, at canvas size."""
    if shape.font is not None:
        drawn = Image.fromarray(np.zeros((2 * CANVAS, 2 * CANVAS), np.uint8))
        ImageDraw.Draw(drawn).text(
            (CANVAS // 4, CANVAS // 4), SUIT_CHARACTERS[suit], font=truetype(*shape.font), fill=255
        )
        return tight(np.asarray(drawn)).astype(np.float32) / 255.0
    size = CANVAS
    canvas = np.zeros((2 * size, 2 * size), np.uint8)
    middle = size
    half = size / 2
    lobe = shape.lobe * size
    if suit == "d":
        w = shape.diamond_width * half
        points = [(middle, middle - half), (middle + w, middle), (middle, middle + half),
                  (middle - w, middle)]
        cv2.fillPoly(canvas, [np.array(points, np.int32)], 255, cv2.LINE_AA)
    elif suit in "hs":
        # A heart: two lobes and a point; a spade is a heart upside down with a stem.
        sign = 1 if suit == "h" else -1
        lobe_y = middle - sign * (half - lobe)
        for side in (-1, 1):
            cv2.circle(canvas, (int(middle + side * (half * shape.width - lobe)), int(lobe_y)),
                       int(lobe), 255, -1, cv2.LINE_AA)
        tip = (middle, middle + sign * half)
        outer = half * shape.width
        points = [(middle - outer, lobe_y + sign * lobe * 0.2), tip,
                  (middle + outer, lobe_y + sign * lobe * 0.2), (middle, lobe_y - sign * lobe)]
        cv2.fillPoly(canvas, [np.array(points, np.int32)], 255, cv2.LINE_AA)
        if suit == "s":
            draw_stem(canvas, shape, (middle, lobe_y), middle + half + shape.stem_length * size)
    else:
        leaf = lobe * 1.05
        top = (middle, middle - half + leaf)
        reach = half * shape.width - leaf
        sides = [(middle - reach, middle + leaf * 0.25), (middle + reach, middle + leaf * 0.25)]
        for centre in [top, *sides]:
            if shape.pointed:
                angle = float(np.degrees(np.arctan2(centre[1] - middle, centre[0] - middle)))
                cv2.ellipse(canvas, (int(centre[0]), int(centre[1])),
                            (int(leaf * 1.15), int(leaf * 0.8)), angle, 0, 360, 255, -1,
                            cv2.LINE_AA)
            else:
                cv2.circle(canvas, (int(centre[0]), int(centre[1])), int(leaf), 255, -1,
                           cv2.LINE_AA)
        cv2.circle(canvas, (int(middle), int(middle)), int(leaf * 0.6), 255, -1, cv2.LINE_AA)
        draw_stem(canvas, shape, (middle, middle), middle + half + shape.stem_length * size)
    return tight(canvas).astype(np.float32) / 255.0


def draw_stem(
    canvas: np.ndarray, shape: SuitShape, top: tuple[float, float], foot_y: float
) -> None:
    """A stem from ``top`` down to ``foot_y``, widening to its foot."""
    foot = shape.stem * CANVAS * shape.width / 2
    neck = max(2.0, foot * 0.25)
    points = [(top[0] - neck, top[1]), (top[0] + neck, top[1]), (top[0] + foot, foot_y),
              (top[0] - foot, foot_y)]
    cv2.fillPoly(canvas, [np.array(points, np.int32)], 255, cv2.LINE_AA)


def ink_colour(design: Design, suit: str) -> np.ndarray:
    """The ink of ``suit`` in ``design`` (BGR, 0..255)."""
    if design.four_colour and suit == "d":
        colour = BLUE
    elif design.four_colour and suit == "c":
        colour = GREEN
    else:
        colour = RED if suit in "dh" else BLACK
    return np.clip(np.array(colour) * design.ink_shade, 0, 255)


def scaled(mask: np.ndarray, height: float, condense: float = 1.0) -> np.ndarray:
    """``mask`` resized to ``height`` pixels tall, its width times ``condense``."""
    rows = max(2, round(height))
    columns = max(1, round(mask.shape[1] * rows / mask.shape[0] * condense))
    return np.asarray(cv2.resize(mask, (columns, rows), interpolation=cv2.INTER_AREA))


def stamp(ink: np.ndarray, mask: np.ndarray, centre: tuple[float, float]) -> None:
    """Add ``mask`` to the ink layer ``ink`` centred at ``centre`` (clipped to the layer)."""
    rows, columns = mask.shape
    x0, y0 = round(centre[0] - columns / 2), round(centre[1] - rows / 2)
    x1, y1 = max(x0, 0), max(y0, 0)
    x2, y2 = min(x0 + columns, ink.shape[1]), min(y0 + rows, ink.shape[0])
    if x2 > x1 and y2 > y1:
        part = mask[y1 - y0 : y2 - y0, x1 - x0 : x2 - x0]
        np.maximum(ink[y1:y2, x1:x2], part, out=ink[y1:y2, x1:x2])


COURTS = ("J", "Q", "K")
#: Centre pip positions of number cards, as fractions of the pip area (x, y).
PIP_LAYOUTS = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
    5: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 1.0)),
    6: ((0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    7: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    8: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.5, 0.75), (0.0, 1.0),
        (1.0, 1.0)),
    9: ((0.0, 0.0), (1.0, 0.0), (0.0, 1 / 3), (1.0, 1 / 3), (0.5, 0.5), (0.0, 2 / 3),
        (1.0, 2 / 3), (0.0, 1.0), (1.0, 1.0)),
    10: ((0.0, 0.0), (1.0, 0.0), (0.5, 1 / 6), (0.0, 1 / 3), (1.0, 1 / 3), (0.0, 2 / 3),
         (1.0, 2 / 3), (0.5, 5 / 6), (0.0, 1.0), (1.0, 1.0)),
}


def draw_face(design: Design, card: str, rng: np.random.Generator) -> np.ndarray:
    """Card ``card`` (e.g. ``"10s"``) of ``design``, upright, as a BGRA face with rounded
    corners (transparent outside the card)."""
    rank, suit = card[:-1], card[-1]
    width, height = FACE
    ink = np.zeros((height, width), np.float32)
    glyph = scaled(rank_mask(design, rank), design.rank_height * height, design.condense)
    symbol = suit_mask(design.suits, suit)
    pip = scaled(symbol, design.suit_height * design.rank_height * height)
    rank_centre = (design.margin[0] * width + max(glyph.shape[1], pip.shape[1]) / 2,
                   design.margin[1] * height + glyph.shape[0] / 2)
    suit_centre = (rank_centre[0],
                   rank_centre[1] + glyph.shape[0] / 2 + design.gap * glyph.shape[0]
                   + pip.shape[0] / 2)
    stamp(ink, glyph, rank_centre)
    stamp(ink, pip, suit_centre)
    ink = np.maximum(ink, ink[::-1, ::-1])
    centre_ink = np.zeros_like(ink)
    area = (0.3 * width, 0.22 * height, 0.4 * width, 0.56 * height)
    if rank not in COURTS:
        count = 1 if rank == "A" else int(rank)
        big = scaled(symbol, (0.3 if count == 1 else 0.14) * height * float(rng.uniform(0.8, 1.2)))
        for fx, fy in PIP_LAYOUTS[count]:
            flipped = fy > 0.5
            stamp(centre_ink, big[::-1, ::-1] if flipped else big,
                  (area[0] + fx * area[2], area[1] + fy * area[3]))
    else:
        draw_picture(centre_ink, glyph, pip, rng)
    colour = ink_colour(design, suit)
    paper = np.array(rng.uniform(238, 252) + rng.uniform(-5, 5, 3), np.float32)
    face = np.empty((height, width, 4), np.float32)
    face[:, :, :3] = paper * (1 - ink[:, :, None]) + colour * ink[:, :, None]
    centre_colour = rng.uniform(0, 230, 3) if rank in COURTS else colour
    both = centre_ink[:, :, None]
    face[:, :, :3] = face[:, :, :3] * (1 - both) + centre_colour * both
    face[:, :, 3] = 255 * rounded_card(width, height)
    return np.clip(face, 0, 255).astype(np.uint8)


def draw_picture(
    ink: np.ndarray, glyph: np.ndarray, pip: np.ndarray, rng: np.random.Generator
) -> None:
    """A court card's picture: a frame, strokes, blobs, and a stray suit symbol and a
    rank glyph turned sideways (picture parts that look like glyphs), mirrored top to bottom."""
    height, width = ink.shape
    x0, y0, x1, y1 = int(0.22 * width), int(0.15 * height), int(0.78 * width), int(0.85 * height)
    canvas = np.zeros_like(ink)
    cv2.rectangle(canvas, (x0, y0), (x1, y1), 1.0, 2)
    for _ in range(int(rng.integers(6, 14))):
        a = (int(rng.integers(x0, x1)), int(rng.integers(y0, height // 2)))
        b = (int(rng.integers(x0, x1)), int(rng.integers(y0, height // 2)))
        if rng.random() < 0.5:
            cv2.line(canvas, a, b, 1.0, int(rng.integers(1, 4)), cv2.LINE_AA)
        else:
            axes = (int(rng.integers(3, 14)), int(rng.integers(3, 14)))
            cv2.ellipse(canvas, a, axes, float(rng.uniform(0, 180)), 0, 360, 1.0,
                        -1 if rng.random() < 0.5 else 1, cv2.LINE_AA)
    for mask in (pip, np.rot90(glyph)):
        spot = (float(rng.uniform(x0 + 10, x1 - 10)), float(rng.uniform(y0 + 10, height / 2)))
        stamp(canvas, np.ascontiguousarray(mask), spot)
    np.maximum(ink, np.maximum(canvas, canvas[::-1, ::-1]), out=ink)


def rounded_card(width: int, height: int) -> np.ndarray:
    """The card's coverage (0..1): a rectangle with rounded corners."""
    mask = np.zeros((height, width), np.uint8)
    radius = width // 16
    cv2.rectangle(mask, (radius, 0), (width - 1 - radius, height - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (width - 1, height - 1 - radius), 255, -1)
    for x in (radius, width - 1 - radius):
        for y in (radius, height - 1 - radius):
            cv2.circle(mask, (x, y), radius, 255, -1, cv2.LINE_AA)
    return mask.astype(np.float32) / 255.0
