"""Camera sources and the recognition of cards and dice (OpenCV).

OpenCV refuses to decode an image of more than ``MAX_IMAGE_PIXELS`` pixels: the bound
is passed to it here, before any vision module imports it (see :mod:`vision.imageio`).
"""

import os

MAX_IMAGE_PIXELS = 50_000_000
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_IMAGE_PIXELS))
