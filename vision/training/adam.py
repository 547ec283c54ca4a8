"""Adam steps for the project's numpy-trained networks (glyphs, dice, the dice detector).

>>> weights = [np.array([1.0, -1.0])]
>>> adam = Adam(weights, rate=0.1)
>>> adam.update([np.array([2.0, -2.0])])
>>> weights[0].round(3).tolist()  # the first step moves each weight by the rate
[0.9, -0.9]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]


class Adam:
    """Adam steps (0.9, 0.999, 1e-8) for a list of weight arrays, updated in place;
    ``rate`` may be changed between steps (a schedule)."""

    def __init__(self, params: list[Array], rate: float) -> None:
        self.params, self.rate, self.step = params, rate, 0
        self.first = [np.zeros_like(p) for p in params]
        self.second = [np.zeros_like(p) for p in params]

    def update(self, gradients: list[Array]) -> None:
        """One step down ``gradients`` (one per weight array)."""
        self.step += 1
        for i, gradient in enumerate(gradients):
            self.first[i] = 0.9 * self.first[i] + 0.1 * gradient
            self.second[i] = 0.999 * self.second[i] + 0.001 * gradient**2
            corrected = self.first[i] / (1.0 - 0.9**self.step)
            spread = np.sqrt(self.second[i] / (1.0 - 0.999**self.step)) + 1e-8
            self.params[i] -= self.rate * corrected / spread
