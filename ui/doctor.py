"""``companion doctor [--json] [--camera SPEC] [--config PATH] [--data-dir DIR]``: is this unit
ready for the table?

It checks the camera (one frame from ``SPEC``, default ``auto``), the GPIO pins, the display
(a desktop session, or KMS/DRM with a screen connected), the configuration file and its pin
map, and the data folder (writable, with room); on a Raspberry Pi also the touchscreen and
whether ``companion.service`` is installed, enabled and not failed (``ui.health`` has the
checks). Each problem is one line saying what is wrong and the fix. Exit code 0 when all is
well, 1 when something needs fixing (2 for bad options, as every command).

Which files it looks at: ``--config``/``--data-dir``, else ``COMPANION_CONFIG`` /
``COMPANION_DATA_DIR``, else those of the service when it is installed
(``/etc/table-companion/config.toml``, ``/var/lib/table-companion``), else the user's own.
Run it as the service's user to check its access too:
``sudo -u companion companion doctor``.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.paths import APP_NAME, CONFIG_ENV, DATA_DIR_ENV

if TYPE_CHECKING:
    from companion.findings import Finding

OK_MARK = "ok     "
PROBLEM_MARK = "PROBLEM"


def register(subcommands: Any) -> None:
    """Add ``doctor``."""
    parser = subcommands.add_parser(
        "doctor",
        help="check camera, GPIO, display, config, data folder and service",
        description="Check that this unit is ready for the table; each problem comes with its fix.",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--camera", default="auto", metavar="SPEC",
                        help="camera source to try (as for 'companion camera'; default: auto)")
    parser.add_argument("--config", type=Path, help="the configuration file to check")
    parser.add_argument("--data-dir", type=Path, help="the data folder to check")
    parser.set_defaults(handler=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    """The ``doctor`` handler: runs every check, prints them, 0 when all passed else 1."""
    from ui import health
    from ui.kiosk import on_raspberry_pi

    installed = health.SERVICE_UNIT.is_file()
    config = args.config or _chosen(CONFIG_ENV, health.SERVICE_CONFIG if installed else None,
                                    "config")
    data = args.data_dir or _chosen(DATA_DIR_ENV, health.SERVICE_DATA_DIR if installed else None,
                                    "data")
    checks: list[tuple[str, Callable[[], Finding | list[Finding]]]] = [
        ("camera", lambda: health.check_camera(args.camera)),
        ("gpio", health.check_gpio),
        ("display", health.check_display),
        ("config", lambda: health.check_config(config)),
        ("data", lambda: health.check_data_dir(data)),
    ]
    if on_raspberry_pi():
        checks += [("touch", health.check_touch), ("service", health.check_service)]
    findings = [finding for name, check in checks for finding in _run(name, check)]
    if args.json:
        print(json.dumps({"ok": all(f.ok for f in findings),
                          "checks": [f.to_json() for f in findings]}))
    else:
        for line in report(findings):
            print(line)
    return 0 if all(f.ok for f in findings) else 1


def _run(name: str, check: Callable[[], Finding | list[Finding]]) -> list[Finding]:
    """Run one check (its findings); a system call that fails inside it is that check's
    problem, not a crash."""
    from companion.findings import problem

    try:
        found = check()
    except OSError as error:
        return [problem(name, f"the check could not run: {error}",
                        "run it again as root to see whether it is a permission problem")]
    return found if isinstance(found, list) else [found]


def _chosen(variable: str, service_path: Path | None, kind: str) -> Path:
    """The path from ``variable``, else the service's, else the user's default one."""
    from platformdirs import user_config_dir, user_data_dir

    if os.environ.get(variable):
        return Path(os.environ[variable])
    if service_path is not None:
        return service_path
    if kind == "config":
        return Path(user_config_dir(APP_NAME)) / "config.toml"
    return Path(user_data_dir(APP_NAME))


def report(findings: list[Finding]) -> list[str]:
    """One line per check, problems with their fix, and a last line counting them.

    >>> from companion.findings import good, problem
    >>> for line in report([good("data", "/d: writable"), problem("gpio", "no GPIO", "use a Pi")]):
    ...     print(line)
    ok      data: /d: writable
    PROBLEM gpio: no GPIO. Fix: use a Pi
    1 of 2 checks found a problem
    """
    lines = [
        f"{OK_MARK} {f.check}: {f.detail}" if f.ok
        else f"{PROBLEM_MARK} {f.check}: {f.detail}. Fix: {f.fix}"
        for f in findings
    ]
    problems = sum(not f.ok for f in findings)
    if problems == 0:
        lines.append(f"all {len(findings)} checks passed")
    else:
        noun = "a problem" if problems == 1 else "problems"
        lines.append(f"{problems} of {len(findings)} checks found {noun}")
    return lines
