"""Choosing gpiozero's pin factory: the real GPIO on a Pi, mock pins elsewhere.

``GPIOZERO_PIN_FACTORY`` set in the environment always wins (gpiozero reads it). Without
it, on a machine with no GPIO the companion falls back to gpiozero's MockFactory (with
PWM-capable pins, so a tonal buzzer works) and says so in one log line; the buttons then
come from the keyboard only. ``companion hw-test`` instead refuses: :func:`require_gpio`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.errors import DeviceError

ENV_FACTORY = "GPIOZERO_PIN_FACTORY"

log = logging.getLogger(__name__)


def gpio_present(dev: Path = Path("/dev"), model: Path = Path("/proc/device-tree/model")) -> bool:
    """True when this machine has GPIO: a ``/dev/gpiochip*`` or a Raspberry Pi model file.

    >>> gpio_present(Path("/nonexistent"), Path("/nonexistent/model"))
    False
    """
    if any(dev.glob("gpiochip*")):
        return True
    try:
        return "Raspberry Pi" in model.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def uses_mock(environ: Mapping[str, str] = os.environ) -> bool:
    """True when the environment asks gpiozero for mock pins."""
    return environ.get(ENV_FACTORY, "").lower() == "mock"


def reason(error: BaseException) -> str:
    """An exception in words for a one-line message: its text, else its class name.

    >>> reason(OSError("GPIO busy")), reason(AttributeError())
    ('GPIO busy', 'AttributeError')
    """
    return str(error) or type(error).__name__


def _pins_chosen_or_present(environ: Mapping[str, str], present: bool | None) -> bool:
    """True when ``GPIOZERO_PIN_FACTORY`` is set or this machine has GPIO (``present``)."""
    return bool(environ.get(ENV_FACTORY)) or (gpio_present() if present is None else present)


def require_gpio(environ: Mapping[str, str] = os.environ, present: bool | None = None) -> None:
    """Raise :class:`DeviceError` unless there is GPIO or ``GPIOZERO_PIN_FACTORY`` is set."""
    if not _pins_chosen_or_present(environ, present):
        raise DeviceError(
            "no GPIO on this machine (no /dev/gpiochip*, not a Raspberry Pi); "
            f"set {ENV_FACTORY}=mock to try the mock pins"
        )


def choose_pin_factory(environ: Mapping[str, str] = os.environ, present: bool | None = None) -> Any:
    """The gpiozero pin factory to use (see the module docstring)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    if not _pins_chosen_or_present(environ, present):
        log.info("no GPIO on this machine: using mock pins (buttons from the keyboard only)")
        return MockFactory(pin_class=MockPWMPin)
    try:
        Device.ensure_pin_factory()
    except Exception as error:  # each GPIO backend raises its own kinds
        raise DeviceError(f"cannot open the GPIO pins: {reason(error)}") from None
    return Device.pin_factory
