"""What a covered card's visible part looks like, compared with the taught faces
(:mod:`vision.partial`).

A part is sampled from the frame as a small grey thumbnail of the face inside a card
outline (:func:`thumb_warp`), from the frame with the paper's own level divided out
(:func:`blurred_grey`), and compared with every taught face, either way up, by masked
normalised correlation weighted to where the taught faces differ
(:class:`PartialMatcher`); two cards too close to tell are judged where their faces
differ (:meth:`PartialMatcher.decide`).
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from vision.outline import Quad
from vision.profile import FACE_CORNERS, FACE_SIZE, INSET, Array, Image

#: Thumbnail (width, height) of a face's inner part that partial matches are scored on.
THUMB_SIZE = (40, 56)
#: Blur (in canonical-face pixels) a frame gets before a face is sampled from it at
#: thumbnail size: the taught thumbnails' blur and shrinking together.
THUMB_BLUR = 1.7
#: Reach of the paper level divided out of a frame (in thumbnail blurs) and the grey
#: level paper gets.
FLAT_REACH = 4.0
PAPER_LEVEL = 230.0
#: Grey-level spread under which a part counts as plain (its correlation is damped).
MIN_SPREAD = 6.0
#: Most hypotheses compared with the taught faces in one matrix product.
BATCH = 8
#: Least weight of a thumbnail pixel in a match (where all taught faces look alike).
WEIGHT_FLOOR = 0.15
#: A part too close to two cards to tell by correlation is judged where their faces
#: differ by this many grey levels (if at least this share of its thumbnail), and read
#: as the one whose face explains it there this many times better.
PAIR_DIFF = 30.0
PAIR_LEAST = 0.01
PAIR_RATIO = 1.5
#: Print is what is darker than this share of a face's paper.
INK_SHARE = 0.6


def thumbnail(face: Image) -> Array:
    """The blurred grey inner part of a canonical face, as :data:`THUMB_SIZE` float32."""
    grey = face if face.ndim == 2 else cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    inset_x, inset_y = round(FACE_SIZE[0] * INSET), round(FACE_SIZE[1] * INSET)
    inner = cv2.GaussianBlur(
        grey[inset_y:-inset_y, inset_x:-inset_x].astype(np.float32), (0, 0), 1.2
    )
    small: Array = cv2.resize(inner, THUMB_SIZE, interpolation=cv2.INTER_AREA)
    return small


class PartialMatcher:
    """Masked normalised correlation of a face part against every taught face, either
    way up, weighted towards where the taught faces differ.

    Each thumbnail pixel is weighted by how much the taught faces differ there (their
    spread, over :data:`WEIGHT_FLOOR`): plain card and marks every card shares (a frame,
    the same difficulty icons) tell nothing about which card a strip is, the print that
    differs does.
    """

    def __init__(self, faces: Mapping[str, Image]) -> None:
        self.ids = list(faces)
        upright = np.stack([thumbnail(faces[i]) for i in self.ids])
        spread = upright.std(axis=0)
        peak = float(spread.max())
        weights = WEIGHT_FLOOR + (1.0 - WEIGHT_FLOOR) * (spread / peak if peak > 0 else spread)
        # The thumbnails and their squares (cards x pixels), and the weights. A card turned
        # half a turn is compared by turning the part instead (a flattened thumbnail read
        # backwards), so both ways up are one product.
        self._thumbs = np.asarray(upright, np.float32).reshape(len(self.ids), -1)
        self._squares = self._thumbs * self._thumbs
        self._weights = np.asarray(weights, np.float32).reshape(-1)
        # Each card's own print: its ink (darker than INK_SHARE of its paper) that at
        # least half of the taught faces lack.
        ink = self._thumbs < INK_SHARE * np.median(self._thumbs, axis=1, keepdims=True)
        self._text = (ink & (ink.mean(axis=0) < 0.5)).astype(np.float32)
        # Every card's ink, upright and turned half a turn (2 x cards rows).
        self._inks = np.concatenate([ink, ink[:, ::-1]]).astype(np.float32)

    def text_shares(self, masks: Array, cards: Array, turned: Array) -> Array:
        """How much of its own print each of ``cards`` (indices; ``turned``: half a turn)
        shows over the matching row of ``masks`` (flattened thumbnails, 0/1): its ink that
        most taught faces lack (the expression, not the icons every card has).

        >>> plain = np.full((140, 100, 3), 240, np.uint8)
        >>> a, b, c = plain.copy(), plain.copy(), plain.copy()
        >>> for face in (a, b, c): face[10:30, 10:30] = 20  # an icon every card has
        >>> a[100:120, 20:80] = 20  # a's own print, low on the face
        >>> matcher = PartialMatcher({"a": a, "b": b, "c": c})
        >>> top = np.zeros(THUMB_SIZE[::-1], np.float32); top[:28] = 1
        >>> matcher.text_shares(top.reshape(1, -1), np.array([0, 0]), np.array([False, True]))
        array([0., 1.], dtype=float32)
        """
        text = self._text[cards]
        text[turned] = text[turned][:, ::-1]
        shares: Array = (text * masks).sum(axis=1) / np.maximum(text.sum(axis=1), 1.0)
        return shares

    def distinct_shares(self, masks: Array, cards: Array, turned: Array) -> Array:
        """How plainly each of ``cards`` (indices; ``turned``: half a turn) is told from
        the others over the matching row of ``masks`` (flattened thumbnails, 0/1): the
        least share of the thumbnail, over every other taught card either way up, where
        one of the two has ink and the other not (1 for a deck of one card: there is no
        other card to tell it from).

        >>> plain = np.full((140, 100, 3), 240, np.uint8)
        >>> a, b = plain.copy(), plain.copy()
        >>> for face in (a, b): face[10:30, 10:30] = 20  # an icon both cards have
        >>> a[100:120, 20:80] = 20  # a's own print, low on the face
        >>> matcher = PartialMatcher({"a": a, "b": b})
        >>> top = np.zeros(THUMB_SIZE[::-1], np.float32); top[:28] = 1
        >>> matcher.distinct_shares(top.reshape(1, -1), np.array([0]), np.array([False]))
        array([0.], dtype=float32)
        """
        count = len(self.ids)
        if count == 1:
            return np.ones(len(cards), np.float32)
        shown = np.asarray(masks, np.float32)
        own = self._inks[cards + count * np.asarray(turned, np.int64)] * shown
        # |own xor other| summed over the mask: own + other - 2 own other, each masked.
        differ = (own.sum(axis=1)[:, None] + (shown - 2.0 * own) @ self._inks.T) / shown.shape[1]
        rows = np.arange(len(cards))
        differ[rows, cards] = differ[rows, cards + count] = np.inf
        least: Array = differ.min(axis=1).astype(np.float32)
        return least

    def decide(
        self, part: Array, mask: Array, first: tuple[int, bool], second: tuple[int, bool]
    ) -> int | None:
        """Which of two cards (index, turned) a flattened thumbnail ``part`` shows, judged
        only where their faces differ (by :data:`PAIR_DIFF` grey levels) over ``mask``: 0
        or 1 if one explains the part there :data:`PAIR_RATIO` times better than the
        other (each fitted to the part by gain and offset over all of ``mask``), else None.

        >>> plain = np.full((140, 100, 3), 240, np.uint8)
        >>> pi, e = plain.copy(), plain.copy(); pi[20:40, 20:80] = 20; e[20:40, 20:80] = 20
        >>> pi[90:110, 20:50] = 20; e[90:110, 60:80] = 20  # the one word that differs
        >>> matcher = PartialMatcher({"pi": pi, "e": e})
        >>> mask = np.ones(THUMB_SIZE[0] * THUMB_SIZE[1], np.float32)
        >>> part = thumbnail(e).reshape(-1)
        >>> matcher.decide(part, mask, (0, False), (1, False))
        1
        """
        faces = [self._thumbs[k][::-1] if up else self._thumbs[k] for k, up in (first, second)]
        shown = mask > 0
        differ = (np.abs(faces[0] - faces[1]) > PAIR_DIFF) & shown
        if differ.sum() < PAIR_LEAST * part.size:
            return None
        residuals = []
        for face in faces:
            design = np.stack([face[shown], np.ones(int(shown.sum()), np.float32)], axis=1)
            (gain, offset), *_ = np.linalg.lstsq(design, part[shown].astype(np.float32), rcond=None)
            residuals.append(float(np.abs(part[differ] - (gain * face[differ] + offset)).mean()))
        if residuals[0] * PAIR_RATIO < residuals[1]:
            return 0
        if residuals[1] * PAIR_RATIO < residuals[0]:
            return 1
        return None

    def scores_many(self, parts: Array, masks: Array) -> Array:
        """Correlation of each of ``parts`` (thumbnails) over its ``masks`` (0/1) with each
        taught card, ``parts`` and ``masks`` one flattened thumbnail a row; the result is
        parts x 2 orientations (the card upright, turned half a turn) x cards.

        >>> faces = {"a": np.tile(np.arange(100, dtype=np.uint8), (140, 1)),
        ...          "b": np.tile(np.arange(140, dtype=np.uint8)[:, None], (1, 100))}
        >>> matcher = PartialMatcher({k: cv2.merge([v] * 3) for k, v in faces.items()})
        >>> half = np.zeros(THUMB_SIZE[::-1], np.float32); half[:, :20] = 1
        >>> part = thumbnail(faces["a"]).reshape(1, -1)
        >>> matcher.scores_many(part, half.reshape(1, -1))[0][:, 0].round(2).tolist()
        [1.0, -1.0]

        Compared :data:`BATCH` rows at a time: a product that small stays on one core
        (a BLAS library spreads larger ones over threads that mostly wait).
        """
        if len(parts) > BATCH:
            chunks = [
                self.scores_many(parts[start : start + BATCH], masks[start : start + BATCH])
                for start in range(0, len(parts), BATCH)
            ]
            joined: Array = np.concatenate(chunks)
            return joined
        count = len(parts)
        values = np.asarray(parts, np.float32)
        shown = np.asarray(masks, np.float32)
        values = np.concatenate([values, values[:, ::-1]])
        weights = np.concatenate([shown, shown[:, ::-1]]) * self._weights
        total = np.maximum(weights.sum(axis=1), 1e-6)
        centred = values - ((values * weights).sum(axis=1) / total)[:, None]
        floor = total * MIN_SPREAD**2
        spread = np.sqrt(np.maximum((centred * centred * weights).sum(axis=1), floor))
        means = (weights @ self._thumbs.T) / total[:, None]
        taught_spread = np.sqrt(
            np.maximum(weights @ self._squares.T - total[:, None] * means**2, floor[:, None])
        )
        both = ((centred * weights) @ self._thumbs.T) / (taught_spread * spread[:, None])
        result: Array = np.stack([both[:count], both[count:]], axis=1)
        return result


def thumb_warp(quad: Quad) -> Array:
    """The homography from the frame to the thumbnail of the face inside ``quad``."""
    width, height = FACE_SIZE
    inset_x, inset_y = round(width * INSET), round(height * INSET)
    scale_x = THUMB_SIZE[0] / (width - 2 * inset_x)
    scale_y = THUMB_SIZE[1] / (height - 2 * inset_y)
    inner = np.array(
        [[scale_x, 0.0, -inset_x * scale_x], [0.0, scale_y, -inset_y * scale_y], [0.0, 0.0, 1.0]]
    )
    face = cv2.getPerspectiveTransform(np.array(quad, np.float32), FACE_CORNERS)
    warp: Array = inner @ face
    return warp


def blurred_grey(frame_bgr: Image, region: Array, sigma: float) -> Array:
    """The frame in grey, blurred by ``sigma`` pixels over ``region``'s bounding box only
    (so a face sampled from it at thumbnail size is smoothed as a taught one is)."""
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    x, y, width, height = cv2.boundingRect(region)
    pad = int(3 * sigma) + 2
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(grey.shape[1], x + width + pad), min(grey.shape[0], y + height + pad)
    box = grey[y0:y1, x0:x1]
    # The paper's own level (print dilated away, smoothed) divided out: light falling
    # unevenly or a glare patch does not change what the face looks like.
    size = 2 * round(sigma * FLAT_REACH) + 1
    paper = cv2.GaussianBlur(
        cv2.dilate(box, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))),
        (0, 0),
        sigma * FLAT_REACH,
    )
    flat = cv2.divide(box, np.maximum(paper, 1), scale=PAPER_LEVEL)
    grey[y0:y1, x0:x1] = cv2.GaussianBlur(flat, (0, 0), sigma)
    return np.asarray(grey)
