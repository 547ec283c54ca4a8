"""systemd/companion.service: `systemd-analyze verify` is clean and the unit says what it must."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ui.kiosk import kivy_environment

TEMPLATE = Path(__file__).resolve().parents[2] / "systemd" / "companion.service"
SYSTEMD_ANALYZE = "/usr/bin/systemd-analyze"


def verify(unit: Path) -> str:
    """What ``systemd-analyze verify`` says about ``unit`` ("" when clean; it exits 0 on mere
    warnings, so its words are the verdict)."""
    done = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", str(unit)], capture_output=True, text=True, check=False
    )
    return (done.stdout + done.stderr).strip() or ("" if done.returncode == 0 else "failed")


def render(tmp_path: Path, text: str | None = None) -> Path:
    """The unit as the installer writes it, with a prefix in ``tmp_path`` holding the program."""
    program = tmp_path / "venv" / "bin" / "companion"
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    unit = tmp_path / "units" / "companion.service"
    unit.parent.mkdir(exist_ok=True)
    template = TEMPLATE.read_text(encoding="utf-8") if text is None else text
    unit.write_text(template.replace("@PREFIX@", str(tmp_path)).replace("@USER@", "companion"))
    return unit


def settings(section: str) -> list[tuple[str, str]]:
    """The ``key=value`` lines of one section of the template, in order, repeats kept."""
    pairs: list[tuple[str, str]] = []
    current = ""
    for line in TEMPLATE.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            current = line.strip("[]")
        elif line and not line.startswith("#") and current == section:
            key, _, value = line.partition("=")
            pairs.append((key, value))
    return pairs


def values(section: str, key: str) -> list[str]:
    return [v for k, v in settings(section) if k == key]


def test_systemd_analyze_verify_is_clean(tmp_path: Path) -> None:
    assert verify(render(tmp_path)) == ""


def test_verify_would_catch_a_mistake(tmp_path: Path) -> None:
    broken = TEMPLATE.read_text(encoding="utf-8").replace("Type=notify", "Type=notfy")
    assert "Failed to parse service type" in verify(render(tmp_path, broken))


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("Type", "notify"),
        ("NotifyAccess", "main"),
        ("WatchdogSec", "15"),
        ("Restart", "on-failure"),
        ("User", "@USER@"),
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("StateDirectory", "table-companion"),
    ],
)
def test_the_service_section_says(key: str, expected: str) -> None:
    assert values("Service", key) == [expected]


def test_the_user_is_in_the_device_groups() -> None:
    (groups,) = values("Service", "SupplementaryGroups")
    assert {"gpio", "video", "render", "input"} <= set(groups.split())


def test_ordering_never_waits_for_the_target_that_wants_it() -> None:
    (target,) = values("Install", "WantedBy")
    after = " ".join(values("Unit", "After")).split()
    assert target == "multi-user.target"
    assert target not in after
    assert "getty@tty1.service" in after and values("Unit", "Conflicts") == ["getty@tty1.service"]


def test_the_kivy_environment_is_the_one_ui_kiosk_sets_on_the_pi() -> None:
    unit_environment = dict(v.split("=", 1) for v in values("Service", "Environment"))
    kiosk = kivy_environment(True, environ={})
    assert {k: unit_environment.get(k) for k in kiosk} == kiosk
    assert unit_environment["SDL_VIDEODRIVER"] == "kmsdrm"


def test_systemd_rates_the_hardening_ok(tmp_path: Path) -> None:
    done = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=yes", str(render(tmp_path))],
        capture_output=True, text=True, check=False,
    )
    (overall,) = [line for line in done.stdout.splitlines() if "Overall exposure level" in line]
    exposure = float(overall.split(":")[1].split()[0])
    assert exposure <= 2.0, overall  # 10 is unprotected; "OK" stops at 3.9
