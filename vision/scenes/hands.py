"""Hands of cards as players lay them: fans spread wide enough to read each card's strip.

:meth:`SceneBuilder.build`'s ``fan`` layout packs a hand tightly (each hidden card
shows about 15 % of its face). A player who wants to read a hand spreads it wider;
:func:`spread_fan` lays such a hand (cards pivoting about a point below them, later
cards on top) with the spread and pivot chosen, so a scene shows strips of a known
size. Everything else (surface, light, camera) is drawn by the builder.

>>> from vision.scenes.synthetic import ExpressionCard, render_expression_card
>>> faces = [render_expression_card(ExpressionCard(name, name.upper())) for name in "abc"]
>>> scene = spread_fan(SceneBuilder(seed=4), faces, spread=22.0, height_cm=60.0)
>>> [card.name for card in scene.cards], [round(card.visible_fraction, 1) for card in scene.cards]
(['a', 'b', 'c'], [0.4, 0.4, 1.0])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from vision.scenes.synthetic import CARD_CM, CardFace, Scene, SceneBuilder

#: How far below a card's centre the hand pivots, as a share of the card's height.
PIVOT_REACH = 0.7


def spread_fan(
    builder: SceneBuilder,
    faces: Sequence[str | CardFace],
    *,
    spread: float,
    turn: float | None = None,
    reach: float = PIVOT_REACH,
    **options: Any,
) -> Scene:
    """A fanned hand of ``faces`` (first at the bottom), ``spread`` degrees between
    neighbours, the whole hand turned ``turn`` degrees (drawn at random if None).

    ``options`` go to :meth:`SceneBuilder.build` (surface, height_cm, tilt_degrees, ...).
    """
    base = float(builder.rng.uniform(0.0, 360.0)) if turn is None else turn
    count = len(faces)
    rotations = [base + (k - (count - 1) / 2) * spread for k in range(count)]
    pivot = -CARD_CM[1] * reach
    centres = [
        (-math.sin(math.radians(angle)) * pivot, math.cos(math.radians(angle)) * pivot)
        for angle in rotations
    ]
    return builder.build(faces, rotation=rotations, positions=centres, **options)
