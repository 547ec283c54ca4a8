"""One base for everything a ``with`` block releases: stores, cameras, pins."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Self


class Closing(ABC):
    """Calls :meth:`close` at the end of a ``with`` block.

    >>> class Door(Closing):
    ...     def close(self) -> None:
    ...         print("closed")
    >>> with Door():
    ...     pass
    closed
    """

    @abstractmethod
    def close(self) -> None:
        """Release what is held (safe to call twice)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
