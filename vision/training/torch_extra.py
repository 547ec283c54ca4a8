"""Whether the optional ``train`` extra (PyTorch) is installed: the dice CNN's and the
convolutional glyph model's training need it; nothing at run time does."""

from __future__ import annotations

import importlib.util


def torch_available() -> bool:
    """Whether PyTorch can be imported (the ``train`` extra is installed)."""
    return importlib.util.find_spec("torch") is not None
