"""The pure core of the table companion: cards, games, referee, log and scores.

Nothing here imports Kivy, OpenCV or gpiozero, and nothing reads the wall clock:
a clock is always passed in (see :mod:`companion.engine.clock`).
"""

__version__ = "0.1.0"
