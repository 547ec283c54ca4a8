"""Fixtures for the hardware tests: gpiozero mock pins, optionally on a manual tick clock."""

from __future__ import annotations

from collections.abc import Iterator

import gpiozero.pins.mock
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.engine.clock import ManualClock


@pytest.fixture
def ticks(monkeypatch: pytest.MonkeyPatch) -> ManualClock:
    """The mock pins' clock: edge ticks and state times only move when the test says so."""
    clock = ManualClock(1000.0)
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", clock)
    return clock


@pytest.fixture
def factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockFactory]:
    """A fresh mock pin factory with PWM-capable pins; gpiozero's global one left unset."""
    monkeypatch.setattr(Device, "pin_factory", None)
    mock = MockFactory(pin_class=MockPWMPin)
    yield mock
    mock.reset()
