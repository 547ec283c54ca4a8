"""Is the camera fit to read cards? Colour cast, exposure, sharpness and height, each with the fix.

:func:`check_frame` measures one frame with a card (or several) face up on the table:

* **colour cast**: the gains that make the brightest near-white pixels grey
  (:func:`vision.light.white_gains`); the reader corrects casts itself, but a strong one
  costs red/black contrast;
* **exposure**: card white must be bright but not clipped;
* **sharpness**: the blur of the sharpest edges, estimated from the steepest gradient
  against the contrast (a step blurred by a Gaussian of sigma s rises at most
  contrast / (s * sqrt(2 pi)) per pixel);
* **camera height**: from the size of the whole cards seen (8.8 cm tall), else of the card
  indices the reader found (a card is about 11.5 index glyphs tall), and the camera's
  field of view. With a tilted camera it is the distance to the cards, roughly.

>>> findings = check_frame(np.full((120, 160, 3), 90, np.uint8))
>>> [finding.check for finding in findings]
['colour cast', 'exposure', 'sharpness', 'camera height']
>>> findings[-1].ok, findings[-1].fix
(False, 'lay a card face up under the camera and check again')
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.findings import Finding, good, problem
from vision.cards import CARD_PER_GLYPH, CardRecognizer
from vision.light import white_gains
from vision.outline import Quad, find_card_outlines, side
from vision.sharpness import step_sigma

#: A cast is worth fixing when one channel needs this much more gain than another.
CAST_RATIO = 1.15
#: Card white (99th percentile of grey) below this is too dark; more than this share of
#: clipped pixels is too bright.
DARK_WHITE = 120
CLIPPED_SHARE = 0.02
#: Edges blurred more than this (Gaussian sigma, pixels) lose small index strokes.
BLUR_SIGMA = 1.3
#: Index glyphs (pixels) below which reading gets unreliable, and above which the camera
#: sees less table than it could.
SMALL_GLYPH = 9.0
LARGE_GLYPH = 40.0
#: A poker card's height in centimetres, and its height over its width.
CARD_HEIGHT_CM = 8.8
CARD_PROPORTION = 8.8 / 6.3
#: Horizontal field of view of the Raspberry Pi camera module 2 (degrees).
PI_CAMERA_FOV = 62.2
CHANNELS = ("blue", "green", "red")


def colour_cast(frame_bgr: np.ndarray) -> Finding:
    """Whether card white comes out grey."""
    gains = white_gains(frame_bgr)
    ratio = max(gains) / min(gains)
    value = "gains " + " ".join(
        f"{c[0].upper()} {g:.2f}" for c, g in zip(CHANNELS, gains, strict=True)
    )
    if ratio <= CAST_RATIO:
        return good("colour cast", f"none ({value})")
    strong = CHANNELS[int(np.argmin(gains))]
    return problem(
        "colour cast",
        f"{strong} cast ({value})",
        "let the camera's automatic white balance settle while calibrating and then lock it "
        "(picamera2: AwbEnable, then ColourGains; the companion does this), or use a lamp "
        "of daylight colour",
    )


def exposure(frame_bgr: np.ndarray) -> Finding:
    """Whether card white is bright and not clipped."""
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    white = float(np.percentile(grey[::2, ::2], 99))
    clipped = float(np.mean(frame_bgr[::2, ::2].min(axis=2) >= 250))
    value = f"card white {white:.0f}, clipped {100 * clipped:.1f} %"
    if white < DARK_WHITE:
        return problem("exposure", value, "too dark: more light on the table or a longer exposure")
    if clipped > CLIPPED_SHARE:
        return problem(
            "exposure",
            value,
            "too bright: shorter exposure, or move the lamp so it does not reflect off the cards",
        )
    return good("exposure", value)


def edge_blur(frame_bgr: np.ndarray) -> float:
    """Estimated blur (Gaussian sigma, pixels) of the frame's sharpest edges."""
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    dx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8)
    dy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3, scale=1 / 8)
    steepest = float(np.percentile(np.hypot(dx, dy), 99.9))
    contrast = float(np.percentile(grey, 99) - np.percentile(grey, 1))
    return step_sigma(contrast, steepest)


def sharpness(frame_bgr: np.ndarray) -> Finding:
    """Whether the sharpest edges are sharp enough for small index strokes."""
    sigma = edge_blur(frame_bgr)
    value = f"edge blur about {sigma:.1f} px"
    if sigma <= BLUR_SIGMA:
        return good("sharpness", value)
    return problem(
        "sharpness",
        value,
        "focus the lens on the table, fix the camera so it does not shake, "
        "or add light for a shorter exposure",
    )


def camera_height(
    frame_bgr: np.ndarray, recognizer: CardRecognizer, fov_degrees: float = PI_CAMERA_FOV
) -> Finding:
    """The camera's height estimated from the size of the cards (outlines, else indices)."""
    reads = recognizer.read_indices(frame_bgr)
    if not reads:
        return problem(
            "camera height",
            "no card index found",
            "lay a card face up under the camera and check again",
        )
    glyph = float(np.median([read.candidate.glyph_size for read in reads]))
    outlines = find_card_outlines(frame_bgr)
    card_px = (
        float(np.median([card_height_px(quad) for quad in outlines]))
        if outlines
        else CARD_PER_GLYPH * glyph
    )
    focal = frame_bgr.shape[1] / 2 / math.tan(math.radians(fov_degrees) / 2)
    height_cm = focal * CARD_HEIGHT_CM / card_px
    value = f"about {height_cm:.0f} cm (index glyphs {glyph:.0f} px, cards about {card_px:.0f} px)"
    if glyph < SMALL_GLYPH:
        goal = height_cm * glyph / SMALL_GLYPH
        return problem(
            "camera height",
            value,
            f"cards too small to read reliably: lower the camera to about {goal:.0f} cm "
            "or use a higher resolution",
        )
    if glyph > LARGE_GLYPH:
        goal = height_cm * glyph / LARGE_GLYPH
        return problem(
            "camera height",
            value,
            f"the camera sees little of the table: raise it to about {goal:.0f} cm",
        )
    return good("camera height", value)


def card_height_px(quad: Quad) -> float:
    """A whole card's height in pixels: its long side, or its short side times the card's
    proportions when a tilted camera foreshortens the long side more."""
    short = (side(quad, 0) + side(quad, 2)) / 2
    long = (side(quad, 1) + side(quad, 3)) / 2
    return max(long, short * CARD_PROPORTION)


def check_frame(
    frame_bgr: np.ndarray,
    recognizer: CardRecognizer | None = None,
    fov_degrees: float = PI_CAMERA_FOV,
) -> list[Finding]:
    """Every finding for one frame (cast, exposure, sharpness, height)."""
    reader = recognizer if recognizer is not None else CardRecognizer()
    return [
        colour_cast(frame_bgr),
        exposure(frame_bgr),
        sharpness(frame_bgr),
        camera_height(frame_bgr, reader, fov_degrees),
    ]
