"""Sizes and colours of the touchscreen app: the official 7-inch display, 800x480 landscape.

A finger needs about 10 mm; the 7-inch panel has about 5.2 pixels per mm, so every target
is at least :data:`TOUCH` pixels high. The numbers that matter (the timer, totals) use
:data:`HUGE` and :data:`BIG` type, readable from across the table.
"""

from __future__ import annotations

WIDTH, HEIGHT = 800, 480
TOUCH = 56
"""The smallest button height in pixels (about 11 mm on the 7-inch screen)."""
GAP = 6
HUGE = 64
BIG = 36
TEXT = 20
SMALL = 15

RGBA = tuple[float, float, float, float]
FELT: RGBA = (0.05, 0.22, 0.13, 1)
PANEL: RGBA = (0.09, 0.30, 0.19, 1)
INK: RGBA = (1, 1, 1, 1)
DIM: RGBA = (0.75, 0.85, 0.78, 1)
GOOD: RGBA = (0.35, 0.85, 0.40, 1)
BAD: RGBA = (0.95, 0.35, 0.30, 1)
WARN: RGBA = (1.0, 0.80, 0.25, 1)
BUTTON: RGBA = (0.16, 0.42, 0.60, 1)
CHOSEN: RGBA = (0.85, 0.55, 0.10, 1)
CARD_FONT = "DejaVuSans"
"""Kivy's bundled font with the suit symbols (Roboto has none)."""
