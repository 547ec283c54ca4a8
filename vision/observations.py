"""What the vision package hands to the rest of the companion: observations, never decisions.

Pixel coordinates are (x, y) in the frame; ``zone`` is filled in by the table layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class CardObservation:
    """One physical card seen in one frame.

    ``card`` is a standard name (``Kd``, ``10h``, ``JK``) or, for a taught deck, the
    catalogue id. ``center`` is the centre of the card's visible part, ``index`` the
    centre of the corner index that was read, ``corners`` the card outline when known.
    ``unsure`` marks a read the referee should not act on without a look: its confidence
    is under the recogniser's sure level, or with one deck on the table its name was also
    read, more convincingly, somewhere else (the table loop turns it into an attention item).
    """

    card: str
    center: tuple[float, float]
    index: tuple[float, float]
    confidence: float
    corners: tuple[tuple[float, float], ...] = field(default=())
    zone: str | None = None
    unsure: bool = False

    def in_zone(self, zone: str | None) -> CardObservation:
        """The same observation assigned to ``zone``."""
        return replace(self, zone=zone)

    def to_json(self) -> dict[str, object]:
        """The CLI's JSON form."""
        return {
            "card": self.card,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "index": [round(self.index[0], 1), round(self.index[1], 1)],
            "confidence": round(self.confidence, 3),
            **({"zone": self.zone} if self.zone else {}),
            **({"unsure": True} if self.unsure else {}),
        }


@dataclass(frozen=True)
class DieObservation:
    """One die: its pip count (1 to 6), centre and confidence.

    ``confidence`` is the reader's probability that this is a six-sided die read right;
    ``unsure`` is set when it is below the reader's sure threshold (where reads were at most
    1 % wrong when it was trained): the table loop should ask a player to check such a die.
    """

    value: int
    center: tuple[float, float]
    confidence: float
    zone: str | None = None
    unsure: bool = False

    def in_zone(self, zone: str | None) -> DieObservation:
        """The same observation assigned to ``zone``."""
        return replace(self, zone=zone)

    def to_json(self) -> dict[str, object]:
        """The CLI's JSON form."""
        return {
            "value": self.value,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "confidence": round(self.confidence, 3),
            **({"zone": self.zone} if self.zone else {}),
            **({"unsure": True} if self.unsure else {}),
        }
