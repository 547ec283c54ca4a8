"""Taught cards read from the part that shows: fanned hands, columns, overlapping rows.

Overlapping cards merge into one "card white" region, so :mod:`vision.outline` finds
no whole outline there, or one cut out of two cards. Whole reads stand only for cards
lying alone or confirmed by the matcher here (:class:`OverlapRecognizer`); what they
leave of the frame is read in three steps:

1. **Corners** (:mod:`vision.partial_pose`). The outline of each group of cards (white
   parts with gaps such as a golden border or a shadow line bridged) and of each white
   part is simplified to a polygon; every edge is re-fitted to the outline points along
   its middle (so rounded card corners do not bend it). Each end of an edge may be a
   card corner: the card's other side runs along the next edge where the two make a
   convex right angle, else square to the edge (that side is hidden).
2. **Hypotheses.** From each corner a card is laid along its two sides, either taken as
   the short side, at the card widths its group of cards suggests: whole cards read,
   whole sides (an edge between two right-angle corners) and calipers across parallel
   edges; and, round every card read (whole or from a part), the same card moved along
   its short side (the card under it in a row) or turned about a pivot beyond either end
   (the card under it in a fanned hand). A card reaching out of the group is impossible
   and dropped.
3. **Peeling** (matching in :mod:`vision.partial_match`). Every hypothesis is sampled as
   a thumbnail of its face (light divided out) and compared with the taught faces,
   either way up, by normalised correlation over its visible part, weighted to where the
   taught faces differ: the visible part is the group less what cards read before it
   claim, or the white part it came from. The best are refined (small turns, scalings,
   shifts), the best reportable one is kept and what it covers claimed (its outline, or
   only the white part it was read over: the rest lies under other cards), and the
   hypotheses it touches are scored again: the top card of a fan is whole and is read
   first, then the one under it, and so on. A strip surely a card but not which one is
   claimed unread. One read per physical card and never one card id twice.

A card whose face shows whole is reported from :data:`ACCEPT_SCORE` and is sure from
:data:`SURE_SCORE`; one read from a part (less than :data:`WHOLE_SHARE` of its face shows)
must pass the stricter :data:`ACCEPT_PART` and :data:`SURE_PART`, each with a lead over
the next best card, show :data:`TEXT_FLOOR` of its own print and tell its card from
every other (:data:`DISTINCT_FLOOR`; else it is claimed unread). A read
under its sure level is reported ``unsure``; anything under its accept level (clutter,
cards never taught, strips too narrow to tell) is not reported at all. The levels were
chosen on the tuning scenes of ``benchmarks/bench_taught_overlap.py``
(docs/vision-teaching.md has the figures).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.light import darkest_channel
from vision.observations import CardObservation
from vision.outline import MIN_AREA_FRACTION, Quad, closed_white_mask, quad_centre, side
from vision.partial_match import (
    THUMB_BLUR,
    THUMB_SIZE,
    PartialMatcher,
    blurred_grey,
    thumb_warp,
)
from vision.partial_pose import (
    Corner,
    as_quad,
    card_widths,
    fan_neighbours,
    hypotheses,
    inside_shares,
    neighbours,
    region_corners,
)
from vision.profile import (
    DEFAULT_THRESHOLD,
    FACE_SIZE,
    INDEX_FRACTION,
    Array,
    DeckProfile,
    Image,
    ProfileRecognizer,
    face_point,
)

#: The visible part loses its rim (thumbnail pixels): shadows and borders of the cards over it.
ERODE = np.ones((3, 3), np.uint8)
#: Least share of a hypothesis' face that must still show (not claimed) to be scored.
MIN_VISIBLE = 0.25
#: Least share of a hypothesised card that must lie on card-white region (the rest runs
#: over table, and the card cannot be there).
MIN_INSIDE = 0.85
#: Scale of the mask that test is made on (a coarse test is as good, and cheaper).
INSIDE_SCALE = 0.25
#: Gaps (pixels) closed between the white parts of one group of cards: a celebrity card's
#: golden border or a shadow line splits the white of overlapping cards.
BRIDGE_PIXELS = 11
#: A group of cards larger than this share of the frame is a light table, not cards.
MAX_GROUP_FRACTION = 0.25
#: White parts smaller than this share of the frame give no corners.
MIN_PART_FRACTION = 0.0004
#: A card read whole lies alone if its group of cards is at most this much larger than
#: its outline. Its whole read stands from :data:`LONE_SCORE` if it lies alone, else
#: from :data:`ACCEPT_SCORE`; one under that is read from the parts that show.
ALONE_GROWTH = 1.25
LONE_SCORE = 0.7
#: A card read claims its outline grown by this factor (its border and shadow).
CLAIM_GROWTH = 1.08
#: Under this correlation a card (most of its face showing) is not reported at all.
ACCEPT_SCORE = 0.8
#: A part showing less than this share of its face needs :data:`ACCEPT_PART` to be
#: reported, and that much ahead of the next best card; it is sure from :data:`SURE_PART`.
WHOLE_SHARE = 0.9
ACCEPT_PART = 0.88
ACCEPT_PART_MARGIN = 0.05
SURE_PART = 0.94
#: At or over this correlation, and :data:`SURE_MARGIN` ahead of the next card, a read is sure.
SURE_SCORE = 0.75
SURE_MARGIN = 0.08
SURE_PART_MARGIN = 0.1
#: How many of the best hypotheses are refined before one is kept.
REFINED = 4
#: Moves tried when refining: turn (degrees) and scaling about the anchor corner, and
#: shift (per cent of the card's width), each at full reach and then halved.
REFINE_MOVES = (
    (-3.0, 1.0, 0.0, 0.0),
    (3.0, 1.0, 0.0, 0.0),
    (0.0, 0.92, 0.0, 0.0),
    (0.0, 1.08, 0.0, 0.0),
    (0.0, 1.0, -4.0, 0.0),
    (0.0, 1.0, 4.0, 0.0),
    (0.0, 1.0, 0.0, -4.0),
    (0.0, 1.0, 0.0, 4.0),
)
#: Hypotheses scoring under this are not refined; at most this many refinements a frame
#: (the best ones first, :data:`REFINED` at a time until one is reported), and after that
#: one batch of :data:`REFINED` after each card read or claimed.
REFINE_FLOOR = 0.4
MAX_REFINEMENTS = 48
#: Most rounds of moves in one refinement (each takes the best move).
REFINE_ROUNDS = 5
#: A refinement still under this score after this many rounds is given up (on the
#: tuning and held-out scenes no read changed).
REFINE_PATIENCE = 2
REFINE_HOPE = 0.7
#: A part that scores this much but is not reported (too close to another card, or
#: showing too little of its print) is surely a card, just not which: it is claimed unread
#: when nothing else is read, so the card under it is not scored over it.
UNREAD_CLAIM = 0.94
#: ... as is one scoring this much for two cards that tie (within :data:`TIE_MARGIN`): a
#: strip of `Xth digit of pi` showing "Xth digit" is pi or e, surely a card.
TIED_CLAIM = 0.80
TIE_MARGIN = 0.01
#: A part read must show at least this share of its own print (the ink most taught faces
#: lack: the expression, not the difficulty icons every card has), sure or not.
TEXT_FLOOR = 0.1
#: ... and, over what shows, its ink must differ from every other taught card's (either
#: way up) on at least this share of the thumbnail: a part that does not tell the cards
#: apart is not read as one of them (the benchmark's legibility rule, the same 1 %).
DISTINCT_FLOOR = 0.01


@dataclass(frozen=True)
class PartialRead:
    """One card read from its visible part: id, outline (face top-left first), score,
    the next best card's score and the share of the face that showed."""

    card_id: str
    quad: Quad
    score: float
    runner_up: float
    visible: float

    @property
    def unsure(self) -> bool:
        """Whether the referee should have a look before acting on it."""
        if self.visible >= WHOLE_SHARE:
            return self.score < SURE_SCORE or self.score - self.runner_up < SURE_MARGIN
        return not _sure_part(self)


@dataclass(frozen=True)
class CardWhite:
    """A frame's "card white" (0/255, pinholes of noise closed) and the same with gaps up
    to :data:`BRIDGE_PIXELS` bridged, so each group of overlapping cards is one region."""

    white: Array
    bridged: Array

    @classmethod
    def of(cls, frame_bgr: Image) -> CardWhite:
        """The masks of ``frame_bgr``; where the frame's card white takes in a pale table
        (more than :data:`MAX_GROUP_FRACTION` of the frame: a light cloth whose brighter
        side passes the frame's level), the white brighter than that (:func:`brighter_white`)."""
        darkest = darkest_channel(frame_bgr)
        white = closed_white_mask(frame_bgr, darkest)
        if np.count_nonzero(white) > MAX_GROUP_FRACTION * white.size:
            white = brighter_white(darkest, white)
        bridge = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (BRIDGE_PIXELS, BRIDGE_PIXELS))
        return cls(white, cv2.morphologyEx(white, cv2.MORPH_CLOSE, bridge))

    def lies_alone(self, quad: Quad) -> bool:
        """Whether the card ``quad`` is a group of its own: the bridged region at its centre
        is not much larger than the card (:data:`ALONE_GROWTH`), so its outline is its own
        and not cut out of overlapping cards by a shadow line or a border."""
        centre = np.round(quad_centre(quad)).astype(int)
        height, width = self.bridged.shape[:2]
        if not (0 <= centre[0] < width and 0 <= centre[1] < height):
            return False
        if not self.bridged[centre[1], centre[0]]:
            return True
        flooded = self.bridged.copy()
        mask = np.zeros((height + 2, width + 2), np.uint8)
        area, *_ = cv2.floodFill(flooded, mask, (int(centre[0]), int(centre[1])), 128)
        card_area = cv2.contourArea(np.array(quad, np.float32))
        return bool(area <= ALONE_GROWTH * card_area)


def brighter_white(darkest: Array, white: Array) -> Array:
    """The card white (0/255, gaps up to 5 px closed, as :func:`closed_white_mask`) of a
    frame whose ``white`` takes in the table: the pixels of the ``darkest`` channel
    (blurred as for ``white``) above the Otsu level of those ``white`` marks - cards are
    brighter than the brighter side of a pale table."""
    blurred = cv2.GaussianBlur(darkest, (5, 5), 0)
    values = blurred[white > 0].reshape(-1, 1)
    level, _ = cv2.threshold(values, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    _, mask = cv2.threshold(blurred, level, 255, cv2.THRESH_BINARY)
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)))


class PartialReader:
    """Reads the taught cards of ``faces`` (canonical faces by id) from their visible parts."""

    def __init__(self, faces: Mapping[str, Image]) -> None:
        self.matcher = PartialMatcher(faces)

    def read(
        self,
        frame_bgr: Image,
        claimed: Sequence[Quad] = (),
        exclude: Sequence[str] = (),
        masks: CardWhite | None = None,
    ) -> list[PartialRead]:
        """Cards in the overlapped regions of the frame.

        ``claimed`` are outlines already accounted for (cards read whole): what they
        cover is not read again; ``exclude`` card ids already read elsewhere; ``masks``
        the frame's :class:`CardWhite` if already made.
        """
        height, width = frame_bgr.shape[:2]
        masks = CardWhite.of(frame_bgr) if masks is None else masks
        white = masks.white
        groups, _ = cv2.findContours(masks.bridged, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        taken = np.zeros((height, width), np.uint8)
        for quad in claimed:
            _claim(taken, quad, value=255)
        frame_area = width * height
        areas = [cv2.contourArea(group) for group in groups]
        # The groups of cards, largest first (numbered from 1 in this order).
        outer = [
            group
            for area, group in sorted(zip(areas, groups, strict=True), key=lambda pair: -pair[0])
            if MIN_AREA_FRACTION * frame_area <= area <= MAX_GROUP_FRACTION * frame_area
        ]
        region = np.zeros((height, width), np.uint8)
        cv2.drawContours(region, outer, -1, 255, -1)
        parts, _ = cv2.findContours(
            cv2.bitwise_and(white, cv2.bitwise_and(region, cv2.bitwise_not(taken))),
            cv2.RETR_EXTERNAL,
            cv2.CHAIN_APPROX_NONE,
        )
        pieces = []
        for part in parts:
            if cv2.contourArea(part) >= MIN_PART_FRACTION * frame_area:
                piece = np.zeros((height, width), np.uint8)
                cv2.drawContours(piece, [part], -1, 255, -1)
                pieces.append(_Piece(piece, region_corners(part), _group_of(part, outer)))
        # The groups' own outlines run along the outer edges of the cards: clean corners
        # where ink or a shadow notches the white parts.
        pieces += [
            _Piece(region, region_corners(group), number)
            for number, group in enumerate(outer, start=1)
        ]
        return self._read_region(frame_bgr, pieces, region, taken, claimed, set(exclude))

    def verify(self, frame_bgr: Image, quad: Quad) -> _Scored | None:
        """How the matcher reads the card inside ``quad``, all of its face taken to show."""
        shown = np.zeros(frame_bgr.shape[:2], np.uint8)
        cv2.fillConvexPoly(shown, np.round(np.array(quad)).astype(np.int32), 255)
        grey = blurred_grey(frame_bgr, shown, THUMB_BLUR * side(quad, 0) / FACE_SIZE[0])
        return self._score(grey, [(quad, (shown,))], set())[0]

    def _read_region(
        self,
        frame_bgr: Image,
        pieces: Sequence[_Piece],
        region: Array,
        taken: Array,
        claimed: Sequence[Quad],
        used: set[str],
    ) -> list[PartialRead]:
        known = [min(side(quad, 0), side(quad, 2)) for quad in claimed]
        # Hypotheses are laid at the widths each group's own outlines suggest (and those
        # of the cards read whole): a glare patch or another group is no card of it.
        group_widths = {
            number: card_widths(
                [corner for piece in pieces if piece.group == number for corner in piece.corners],
                known,
            )
            for number in sorted({piece.group for piece in pieces})
        }
        # The frame is blurred for the largest group's cards that have a width.
        widths = next((found for found in group_widths.values() if found), None)
        if widths is None:
            return []
        free = cv2.bitwise_and(region, cv2.bitwise_not(taken))
        grey = blurred_grey(frame_bgr, region, THUMB_BLUR * widths[0] / FACE_SIZE[0])
        # A hypothesis may reach over the coloured border round a group (a celebrity
        # card's gold is not card white): it is tested against the group grown by a bridge.
        bridge = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (BRIDGE_PIXELS, BRIDGE_PIXELS))
        reach = cv2.resize(
            cv2.dilate(region, bridge), None, fx=INSIDE_SCALE, fy=INSIDE_SCALE,
            interpolation=cv2.INTER_AREA,
        )
        candidates: list[_Candidate] = []
        seen: set[tuple[int, int, int, int]] = set()
        owns = []
        for piece in pieces:
            # A group's own outline sees the whole unclaimed group: no mask of its own.
            own = None if piece.mask is region else piece.mask & free
            if own is not None:
                owns.append(own)
            for corner in piece.corners:
                for quad in hypotheses(corner, group_widths[piece.group]):
                    key = _pose_key(quad)
                    if key not in seen:
                        seen.add(key)
                        candidates.append(_Candidate(quad, np.array(corner.point), own))

        def possible(fresh: list[_Candidate], around: Sequence[Quad]) -> list[_Candidate]:
            """``fresh`` and the :func:`neighbours` of each of ``around`` not seen before,
            less those reaching out of the group."""
            for quad in around:
                for moved, anchor in neighbours(quad) + fan_neighbours(quad):
                    key = _pose_key(moved)
                    if key not in seen:
                        seen.add(key)
                        fresh.append(_Candidate(moved, anchor, None))
            shares = inside_shares([c.quad for c in fresh], reach, INSIDE_SCALE)
            return [c for c, share in zip(fresh, shares, strict=True) if share >= MIN_INSIDE]

        candidates = possible(candidates, claimed)
        reads: list[PartialRead] = []
        refinements, budget = 0, MAX_REFINEMENTS
        while candidates:
            stale = [
                c for c in candidates if c.scored is None or c.scored.card_id in used
            ]
            for candidate, scored in zip(
                stale,
                self._score(grey, [(c.quad, c.visible(free)) for c in stale], used),
                strict=True,
            ):
                candidate.scored = scored
            # One too hidden to score (or like no card left) stays so: the visible part
            # only shrinks as cards are read.
            candidates = [c for c in candidates if c.scored is not None]
            ranked = sorted(
                (
                    c
                    for c in candidates
                    if c.scored is not None and not c.tried and c.scored.score >= REFINE_FLOOR
                ),
                key=lambda c: _rank(c.scored) if c.scored is not None else (False, -1.0),
                reverse=True,
            )
            best = _best_refined(candidates, _accepted)
            batch = 0
            for candidate in ranked:
                if refinements >= budget or (best is not None and batch == REFINED):
                    break
                refinements, batch = refinements + 1, batch + 1
                candidate.tried = True
                candidate.refined = self._refine(grey, free, candidate, used)
                best = _best_refined([c for c in (best, candidate) if c is not None], _accepted)
            # A strip surely a card but not which, scoring above the best read when that
            # read takes its face to show whole (a pose across the strips of a column), is
            # claimed unread first: a whole face over it would not leave it showing.
            surely = _best_refined(
                candidates, lambda scored: _surely_card(scored) and not _accepted(scored)
            )
            hidden = surely is not None and (
                best is None
                or (_shows_whole(best) and _refined_score(surely) > _refined_score(best))
            )
            if hidden:
                best = surely
            if best is None or best.refined is None:
                break
            quad, scored = best.refined
            # A part that does not tell its card from another is surely a card too.
            hidden = hidden or not self._tells_apart(quad, scored, best.visible(free))
            if not hidden:
                oriented: Quad = (quad[2], quad[3], quad[0], quad[1]) if scored.turned else quad
                reads.append(
                    PartialRead(
                        scored.card_id, oriented, scored.score, scored.runner_up, scored.visible
                    )
                )
                used.add(scored.card_id)
            # The refinement was scored over the mask its first scoring chose.
            over_part = best.scored is not None and best.scored.mask == 1
            covered = _covers(quad, free.shape, best.own if over_part else None, bridge)
            free[covered] = 0
            for own in owns:
                own[covered] = 0
            for candidate in candidates:
                if _overlap(candidate.quad, quad) or (
                    candidate.refined is not None and candidate.refined[1].card_id in used
                ):
                    candidate.scored, candidate.tried, candidate.refined = None, False, None
            candidates = [c for c in candidates if not _same_card(c.quad, quad)]
            candidates += possible([], [quad])
            # The card under it gets a batch of its own, whatever the frame has spent.
            budget = max(budget, refinements + REFINED)
        return reads

    def _score(
        self, grey: Array, jobs: Sequence[tuple[Quad, Sequence[Array]]], used: set[str]
    ) -> list[_Scored | None]:
        """For each (quad, visible masks) of ``jobs``, the best untaken card for the face
        inside the quad of the blurred ``grey`` frame, over each of its masks (0/255: the
        unclaimed group; the unclaimed white part the hypothesis came from), all compared
        in one batch."""
        parts, masks, owners, shares, which = [], [], [], [], []
        for number, (quad, visible) in enumerate(jobs):
            warp = thumb_warp(quad)
            part = cv2.warpPerspective(
                grey, warp, THUMB_SIZE, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
            for mask_number, shown in enumerate(visible):
                weights = _thumb_mask(shown, warp)
                share = float(weights.mean())
                if share >= MIN_VISIBLE:
                    parts.append(part.reshape(-1))
                    masks.append(weights.reshape(-1))
                    owners.append(number)
                    shares.append(share)
                    which.append(mask_number)
        best: list[_Scored | None] = [None] * len(jobs)
        if not parts:
            return best
        shown = np.stack(masks)
        scores = self.matcher.scores_many(np.stack(parts), shown)
        card_scores = scores.max(axis=1)
        untaken = card_scores.copy()
        taken = [k for k, card_id in enumerate(self.matcher.ids) if card_id in used]
        untaken[:, taken] = -np.inf
        chosen = untaken.argmax(axis=1)
        entries = np.arange(len(chosen))
        top = untaken[entries, chosen]
        others = card_scores.copy()
        others[entries, chosen] = -np.inf
        runners = others.max(axis=1) if others.shape[1] > 1 else np.full(len(chosen), -1.0)
        turned = scores[entries, 1, chosen] > scores[entries, 0, chosen]
        # How much of its print shows matters only where a part may be read.
        texts = np.ones(len(chosen), np.float32)
        readable = (top >= ACCEPT_PART) & (np.array(shares) < WHOLE_SHARE)
        texts[readable] = self.matcher.text_shares(
            shown[readable], chosen[readable], turned[readable]
        )
        for entry, (number, share, mask_number) in enumerate(
            zip(owners, shares, which, strict=True)
        ):
            if not np.isfinite(top[entry]):
                continue
            found = _Scored(
                self.matcher.ids[int(chosen[entry])],
                float(top[entry]),
                float(runners[entry]),
                share,
                bool(turned[entry]),
                mask_number,
                float(texts[entry]),
            )
            if share < WHOLE_SHARE and found.score >= ACCEPT_PART and not _accepted(found):
                found = self._decided(found, scores[entry], parts[entry], masks[entry], used)
            current = best[number]
            if current is None or _rank(found) > _rank(current):
                best[number] = found
        return best

    def _tells_apart(self, quad: Quad, scored: _Scored, visible: Sequence[Array]) -> bool:
        """Whether a part read at ``quad`` over its mask among ``visible`` shows its card
        told from every other (:data:`DISTINCT_FLOOR`); a face showing whole does."""
        if scored.visible >= WHOLE_SHARE:
            return True
        shown = _thumb_mask(visible[scored.mask], thumb_warp(quad)).reshape(1, -1)
        card = np.array([self.matcher.ids.index(scored.card_id)])
        distinct = self.matcher.distinct_shares(shown, card, np.array([scored.turned]))
        return bool(distinct[0] >= DISTINCT_FLOOR)

    def _decided(
        self, found: _Scored, scores: Array, part: Array, mask: Array, used: set[str]
    ) -> _Scored:
        """``found`` (too close to the next best card to be read) judged against that card
        where the two faces differ (:meth:`PartialMatcher.decide`): the one it shows,
        marked decided, or ``found`` as it was."""
        card_scores = scores.max(axis=0)
        first = self.matcher.ids.index(found.card_id)
        rivals = card_scores.copy()
        rivals[first] = -np.inf
        second = int(rivals.argmax())
        pair = [(k, bool(scores[1, k] > scores[0, k])) for k in (first, second)]
        winner = self.matcher.decide(part, mask, pair[0], pair[1])
        if winner is None or (winner == 1 and self.matcher.ids[second] in used):
            return found
        index, turned = pair[winner]
        other = float(card_scores[pair[1 - winner][0]])
        return _Scored(
            self.matcher.ids[index], float(card_scores[index]), other, found.visible, turned,
            found.mask,
            float(self.matcher.text_shares(mask[None], np.array([index]), np.array([turned]))[0]),
            decided=True,
        )

    def _refine(
        self, grey: Array, free: Array, candidate: _Candidate, used: set[str]
    ) -> tuple[Quad, _Scored]:
        """``candidate`` turned, scaled (about its anchor corner) and shifted: each round
        scores every small move at once and takes the best if it scores better; the
        moves halve when none does."""
        assert candidate.scored is not None
        quad, scored = candidate.quad, candidate.scored
        anchor = candidate.anchor
        reach = 1.0
        for done in range(REFINE_ROUNDS):
            if done == REFINE_PATIENCE and scored.score < REFINE_HOPE:
                break
            trials = []
            for turn, scale, dx, dy in REFINE_MOVES:
                angle = math.radians(turn * reach)
                rotation = np.array(
                    [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]
                )
                factor = 1.0 + (scale - 1.0) * reach
                shift = np.array([dx, dy]) * reach * side(quad, 0) / 100.0
                moved = (np.array(quad) - anchor) @ rotation.T * factor + anchor + shift
                trials.append((as_quad(moved), anchor + shift))
            shown = candidate.visible(free)[scored.mask]
            results = self._score(grey, [(trial, (shown,)) for trial, _ in trials], used)
            ranked = [(_rank(r), k) for k, r in enumerate(results) if r is not None]
            top = max(ranked, default=None)
            if top is not None and top[0] > _rank(scored):
                (quad, anchor), found = trials[top[1]], results[top[1]]
                assert found is not None
                scored = found
            else:
                reach /= 2.0
                if reach < 0.25:
                    break
        return quad, scored


@dataclass(frozen=True)
class _Piece:
    """A white part of a group of cards (or the group itself: ``mask`` is the region),
    the card corners on its outline and the number of its group."""

    mask: Array
    corners: list[Corner]
    group: int


@dataclass(frozen=True)
class _Scored:
    card_id: str
    score: float
    runner_up: float
    visible: float
    turned: bool
    mask: int
    text: float
    decided: bool = False


@dataclass
class _Candidate:
    quad: Quad
    anchor: Array
    own: Array | None
    scored: _Scored | None = None
    tried: bool = False
    refined: tuple[Quad, _Scored] | None = None

    def visible(self, free: Array) -> tuple[Array, ...]:
        """The masks it is scored over: the unclaimed group, and the unclaimed white
        part it came from (if not the group itself)."""
        return (free,) if self.own is None else (free, self.own)


def _group_of(part: Array, groups: Sequence[Array]) -> int:
    """The number (from 1, in the order of ``groups``) of the group of cards a white
    ``part`` (a contour inside one of them) lies in."""
    x, y = (float(value) for value in part[0, 0])
    return next(
        (
            number
            for number, group in enumerate(groups, start=1)
            if cv2.pointPolygonTest(group, (x, y), False) >= 0
        ),
        0,
    )


def _thumb_mask(shown: Array, warp: Array) -> Array:
    """The 0/1 float thumbnail of the visible mask ``shown`` (0/255) under ``warp``
    (:func:`~vision.partial_match.thumb_warp`), its rim left out."""
    seen = cv2.warpPerspective(shown, warp, THUMB_SIZE, flags=cv2.INTER_LINEAR)
    mask: Array = cv2.erode((seen >= 250).astype(np.float32), ERODE)
    return mask


def _rank(scored: _Scored) -> tuple[bool, float]:
    """How one scoring of a hypothesis compares with another: reported ones first."""
    return (_accepted(scored), scored.score)


def _best_refined(
    candidates: Sequence[_Candidate], wanted: Callable[[_Scored], bool]
) -> _Candidate | None:
    """The candidate among ``candidates`` whose refinement scores best of those ``wanted``."""
    return max(
        (c for c in candidates if c.refined is not None and wanted(c.refined[1])),
        key=_refined_score,
        default=None,
    )


def _refined_score(candidate: _Candidate) -> float:
    """The score of ``candidate``'s refinement (-1 if not refined)."""
    return candidate.refined[1].score if candidate.refined is not None else -1.0


def _shows_whole(candidate: _Candidate) -> bool:
    """Whether ``candidate``'s refinement takes its face to show whole."""
    return candidate.refined is not None and candidate.refined[1].visible >= WHOLE_SHARE


def _covers(quad: Quad, shape: tuple[int, ...], part: Array | None, bridge: Array) -> Array:
    """What a card read at ``quad`` is taken to cover in a frame of ``shape`` (a boolean
    mask): its outline grown by :data:`CLAIM_GROWTH`, and if it was read over a white
    ``part`` of the cards, only that part with its border (``bridge`` round it): the rest
    of its outline lies under other cards, and their strips are not its to claim."""
    grown = np.zeros(shape[:2], np.uint8)
    _claim(grown, quad, value=255)
    covered: Array = grown > 0
    if part is not None:
        covered &= cv2.dilate(part, bridge) > 0
    return covered


def _sure_part(read: PartialRead | _Scored) -> bool:
    """Whether a read from a part is sure: :data:`SURE_PART`, :data:`SURE_PART_MARGIN` ahead."""
    return read.score >= SURE_PART and read.score - read.runner_up >= SURE_PART_MARGIN


def _accepted(scored: _Scored) -> bool:
    """Whether a scored hypothesis is reported at all."""
    if scored.visible >= WHOLE_SHARE:
        # A part more like a card read elsewhere is not read as another card.
        return scored.score >= ACCEPT_SCORE and scored.score > scored.runner_up
    return (
        scored.score >= ACCEPT_PART
        and (scored.decided or scored.score - scored.runner_up >= ACCEPT_PART_MARGIN)
        and scored.text >= TEXT_FLOOR
    )


def _surely_card(scored: _Scored) -> bool:
    """Whether a scored part is surely a card, read or not: :data:`UNREAD_CLAIM`, or
    :data:`TIED_CLAIM` for two cards alike."""
    return scored.score >= UNREAD_CLAIM or (
        scored.score >= TIED_CLAIM and scored.score - scored.runner_up <= TIE_MARGIN
    )


def _overlap(first: Quad, second: Quad) -> bool:
    """Whether the bounding boxes of two outlines meet."""
    (ax, ay), (bx, by) = zip(*first, strict=True), zip(*second, strict=True)
    return min(ax) <= max(bx) and min(bx) <= max(ax) and min(ay) <= max(by) and min(by) <= max(ay)


def _same_card(first: Quad, second: Quad) -> bool:
    """Whether two outlines are one card (centres within a fifth of its width)."""
    return math.dist(quad_centre(first), quad_centre(second)) < 0.2 * side(first, 0)


def _pose_key(quad: Quad) -> tuple[int, int, int, int]:
    """A coarse key of an outline's centre (4 px), direction of its short side (4
    degrees, either way round) and width (5 %): hypotheses with one key are one."""
    (x0, y0), (x1, y1) = quad[0], quad[1]
    cx, cy = quad_centre(quad)
    angle = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 180.0
    return (
        round(cx / 4),
        round(cy / 4),
        round(angle / 4) % 45,
        round(math.log(side(quad, 0)) / 0.05),
    )


def _claim(mask: Array, quad: Quad, value: int = 1) -> None:
    """Mark ``quad``, grown by :data:`CLAIM_GROWTH` about its centre, in ``mask``."""
    corners = np.array(quad)
    middle = corners.mean(axis=0)
    grown = middle + (corners - middle) * CLAIM_GROWTH
    cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), value)


def observation(read: PartialRead) -> CardObservation:
    """A partial read as the observation the table loop takes."""
    return CardObservation(
        card=read.card_id,
        center=quad_centre(read.quad),
        index=face_point(read.quad, INDEX_FRACTION),
        confidence=max(0.0, min(1.0, read.score)),
        corners=read.quad,
        unsure=read.unsure,
    )


class OverlapRecognizer:
    """Taught cards whole (as :class:`~vision.profile.ProfileRecognizer` reads them, unchanged)
    and then, in what is left, from the parts that show.

    >>> from vision.profile import DeckProfile
    >>> face = np.full((140, 100, 3), 240, np.uint8); face[40:90, 30:70] = 20
    >>> recognizer = OverlapRecognizer(DeckProfile("demo", {"a": face}))
    >>> recognizer.recognize(np.zeros((360, 640, 3), np.uint8))
    []
    """

    def __init__(self, profile: DeckProfile, *, threshold: float = DEFAULT_THRESHOLD) -> None:
        self.whole = ProfileRecognizer(profile, threshold=threshold)
        self.partial = PartialReader(profile.faces)

    def _stands(
        self, frame_bgr: Image, masks: CardWhite, card: CardObservation, quad: Quad
    ) -> bool:
        """Whether a whole read stands: from :data:`LONE_SCORE` for a card lying alone,
        else only if the partial matcher, over the whole outline, reads the same card."""
        if masks.lies_alone(quad):
            return card.confidence >= LONE_SCORE
        check = self.partial.verify(frame_bgr, quad)
        return check is not None and check.card_id == card.card and _accepted(check)

    def recognize(self, frame_bgr: Image) -> list[CardObservation]:
        """Every taught card in the frame, whole ones first; one read per card id."""
        masks = CardWhite.of(frame_bgr)
        # An outline among other cards may be a covered card's white cut out by the card
        # over it (or two cards making a quadrilateral): its whole read stands only if it
        # scores well, else the partial reader reads it; no outline is claimed unread.
        whole = [
            (card, as_quad(np.array(card.corners)))
            for card in self.whole.recognize(frame_bgr)
            if card.corners is not None
        ]
        kept = [(card, quad) for card, quad in whole if self._stands(frame_bgr, masks, card, quad)]
        reads = self.partial.read(
            frame_bgr,
            claimed=[quad for _, quad in kept],
            exclude=[card.card for card, _ in kept],
            masks=masks,
        )
        return [card for card, _ in kept] + [observation(read) for read in reads]
