"""Choosing the pin factory: real GPIO, the environment's choice, or mock pins."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.errors import DeviceError
from hardware.factory import choose_pin_factory, gpio_present, require_gpio, uses_mock


def test_gpio_is_a_gpiochip_or_a_raspberry_pi(tmp_path: Path) -> None:
    dev, model = tmp_path / "dev", tmp_path / "model"
    dev.mkdir()
    assert not gpio_present(dev, model)
    model.write_text("Generic x86 board\x00")
    assert not gpio_present(dev, model)
    model.write_text("Raspberry Pi 4 Model B Rev 1.4\x00")
    assert gpio_present(dev, model)
    model.unlink()
    (dev / "gpiochip0").touch()
    assert gpio_present(dev, model)


def test_without_gpio_the_self_test_refuses_in_one_line() -> None:
    with pytest.raises(DeviceError) as caught:
        require_gpio({}, present=False)
    assert "\n" not in str(caught.value)
    assert "no GPIO on this machine" in str(caught.value)
    assert "GPIOZERO_PIN_FACTORY=mock" in str(caught.value)
    require_gpio({"GPIOZERO_PIN_FACTORY": "mock"}, present=False)
    require_gpio({}, present=True)
    assert uses_mock({"GPIOZERO_PIN_FACTORY": "MOCK"}) and not uses_mock({})


def test_off_the_pi_the_fallback_is_pwm_mock_pins_said_in_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="hardware.factory"):
        factory = choose_pin_factory({}, present=False)
    assert isinstance(factory, MockFactory) and factory.pin_class is MockPWMPin
    assert [r.getMessage() for r in caplog.records] == [
        "no GPIO on this machine: using mock pins (buttons from the keyboard only)"
    ]


def test_the_environment_choice_is_respected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory = choose_pin_factory(present=False)
    assert isinstance(factory, MockFactory) and factory is Device.pin_factory
    factory.close()


def test_a_pin_factory_that_cannot_load_is_a_device_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    with pytest.raises(DeviceError, match="cannot open the GPIO pins: "):
        choose_pin_factory(present=True)
