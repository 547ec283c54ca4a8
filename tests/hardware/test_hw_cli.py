"""``companion hw-test`` end to end, in a subprocess like a user runs it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.cli import press_demo
from hardware.factory import gpio_present
from hardware.pins import default_pin_map

COMMAND = [sys.executable, "-m", "companion", "hw-test"]


def hw_env(tmp_path: Path, *, mock: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPIOZERO_")}
    env.setdefault("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    if mock:
        env["GPIOZERO_PIN_FACTORY"] = "mock"
    return env


def hw_test(tmp_path: Path, *args: str, mock: bool) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        env=hw_env(tmp_path, mock=mock),
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


def test_without_gpio_it_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    result = hw_test(tmp_path, "--timeout", "0.1", mock=False)
    if gpio_present():  # a wired Pi: nobody presses anything within 0.1 s
        assert result.returncode == 1 and "not pressed: player 1" in result.stdout
        return
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "companion hw-test: error: no GPIO on this machine (no /dev/gpiochip*, not a Raspberry "
        "Pi); set GPIOZERO_PIN_FACTORY=mock to try the mock pins"
    ]


def test_the_mock_demo_presses_every_button(tmp_path: Path) -> None:
    result = hw_test(tmp_path, "--demo", mock=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "player 2: button GPIO22 (header pin 15), LED GPIO23 (header pin 16)" in lines
    for name, pin in [("player 1", 17), ("player 2", 22), ("player 3", 24), ("player 4", 5)]:
        assert f"{name} (GPIO{pin}): call, first" in lines
    late = [line for line in lines if line.startswith("player 3 (GPIO24): call, +")]
    assert len(late) == 1 and late[0].endswith("ms (rank 2)")
    assert lines[-3:] == [
        "player 1 (GPIO17): stand",
        "referee (GPIO26): press",
        "all 5 buttons work",
    ]


@pytest.mark.parametrize(
    ("args", "config", "message"),
    [
        (["--demo"], None, "--demo presses mock pins: run it with GPIOZERO_PIN_FACTORY=mock"),
        ([], None, "nothing can press mock pins: add --demo to have the test press them"),
        (
            ["--demo"],
            "[hardware.referee]\nbutton = 5\n",
            "config.toml:2: hardware.players.4.button: 5 clashes with hardware.referee.button",
        ),
    ],
)
def test_mistakes_are_one_line_and_exit_2(
    tmp_path: Path, args: list[str], config: str | None, message: str
) -> None:
    if config is not None:
        (tmp_path / "config.toml").write_text(config, encoding="utf-8")
        args = [*args, "--config", str(tmp_path / "config.toml")]
    result = hw_test(tmp_path, *args, mock=config is not None or not args)
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("companion hw-test: error: ") and line.endswith(message)


def test_mock_pins_without_demo_are_refused_at_once_in_a_terminal_too(tmp_path: Path) -> None:
    terminal, keyboard = os.openpty()
    try:
        result = subprocess.run(
            COMMAND,
            capture_output=True,
            text=True,
            env=hw_env(tmp_path, mock=True),
            stdin=keyboard,
            timeout=30,  # the full --timeout of 120 s, were it waiting for presses
        )
    finally:
        os.close(keyboard)
        os.close(terminal)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "companion hw-test: error: nothing can press mock pins: add --demo to have the test "
        "press them"
    ]


def test_building_the_parser_does_not_import_gpiozero() -> None:
    code = (
        "import argparse, sys; import hardware.cli as cli; "
        "cli.register(argparse.ArgumentParser().add_subparsers()); "
        "print('gpiozero' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


def test_a_named_config_file_that_is_missing_is_one_line_and_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "pins.toml"
    result = hw_test(tmp_path, "--demo", "--config", str(missing), mock=True)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"companion hw-test: error: {missing}: no such configuration file"
    ]


def test_ctrl_c_during_the_demo_exits_130_quietly(tmp_path: Path) -> None:
    env = hw_env(tmp_path, mock=True) | {"PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(
        [*COMMAND, "--demo"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # Ctrl-C as a terminal gives it, even when this suite runs in the background (a
        # shell starts background jobs with SIGINT ignored, and the command inherits that).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as process:
        assert process.stdout is not None
        printed = []
        for line in process.stdout:
            printed.append(line)
            if line.startswith("player 1 (GPIO17): call"):
                break
        process.send_signal(signal.SIGINT)
        rest, errors = process.communicate(timeout=30)
    assert process.returncode == 130, (printed, rest, errors)
    assert errors == ""
    assert "buttons work" not in rest and "not pressed" not in rest


def test_the_demo_stops_pressing_once_told_to(factory: MockFactory) -> None:
    pin_map = default_pin_map()
    stop = threading.Event()
    stop.set()
    press_demo(pin_map, factory, stop)
    first, *others = pin_map.buttons().values()
    assert [state for _, state in factory.pin(first).states][-2:] == [False, True]
    assert all(len(factory.pin(pin).states) == 1 for pin in others)  # never driven
