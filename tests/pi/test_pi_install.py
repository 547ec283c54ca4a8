"""systemd/install.sh and uninstall.sh in a sandboxed Pi: they install, are idempotent, and undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pi.sandbox import CMDLINE, REPO, PiSandbox
from tests.pi.test_pi_unit import verify

MUTATING = ("apt-get", "useradd", "usermod", "groupadd", "userdel", "venv-pip ", "python3 -m")
SERVICE_CHANGES = ("enable", "disable", "start", "stop", "restart", "daemon-reload")


def changes(commands: list[str]) -> list[str]:
    """The commands of a run that change the system (queries left out); pip's source, a
    temporary copy of the checkout, shows as ``<copy>``."""
    return [
        c.rsplit(" ", 1)[0] + " <copy>" if c.startswith("venv-pip install") else c
        for c in commands
        if c.startswith(MUTATING)
        or (c.startswith("systemctl ") and c.split()[1] in SERVICE_CHANGES)
    ]


@pytest.fixture
def pi(tmp_path: Path) -> PiSandbox:
    return PiSandbox(tmp_path)


def test_install_sets_up_everything(pi: PiSandbox) -> None:
    run = pi.run("install.sh")
    assert (run.code, run.stderr) == (0, "")
    prefix = pi.root / "opt/table-companion"
    assert changes(run.commands) == [
        "apt-get update",
        "apt-get install -y --no-install-recommends python3-venv python3-picamera2"
        " python3-lgpio libgl1-mesa-dri libegl1 libgles2 libgbm1 libdrm2 libmtdev1 espeak-ng",
        "groupadd --system gpio",
        f"useradd --system --user-group --home-dir {pi.root}/var/lib/table-companion"
        " --no-create-home --shell /usr/sbin/nologin --comment table companion companion",
        *(f"usermod -aG {g} companion" for g in ("gpio", "video", "render", "input", "audio")),
        f"python3 -m venv --system-site-packages {prefix}/venv",
        "venv-pip install --quiet --disable-pip-version-check --root-user-action=ignore"
        f" --upgrade --constraint {REPO}/systemd/pi-constraints.txt <copy>",
        "systemctl daemon-reload",
        "systemctl enable companion.service",
        "systemctl start companion.service",
    ]
    assert "venv-python -c import picamera2, lgpio, cv2" in run.commands
    assert "venv-pip-source README.md companion hardware pyproject.toml ui vision " in run.commands
    unit = pi.read("etc/systemd/system/companion.service")
    assert f"ExecStart={prefix}/venv/bin/companion run" in unit
    assert "User=companion" in unit and "@USER@" not in unit and "@PREFIX@" not in unit
    assert verify(pi.root / "etc/systemd/system/companion.service") == ""
    assert pi.read("etc/table-companion/config.toml").startswith("# The table companion")
    assert pi.read("boot/firmware/cmdline.txt") == CMDLINE.rstrip("\n") + " consoleblank=0\n"
    assert (pi.root / "usr/local/bin/companion").resolve() == prefix / "venv/bin/companion"
    assert (prefix / "docs/pi-install.md").is_file()
    assert "install.sh: reboot once for the kernel command line change" in run.stdout


def test_a_second_run_changes_nothing(pi: PiSandbox) -> None:
    assert pi.run("install.sh").code == 0
    before = pi.snapshot()
    again = pi.run("install.sh")
    assert (again.code, again.stderr) == (0, "")
    assert changes(again.commands) == []
    assert pi.snapshot() == before
    assert "install.sh: unchanged: the project in" in again.stdout
    assert "reboot" not in again.stdout


def test_an_update_reinstalls_and_restarts_but_keeps_the_config(
    pi: PiSandbox, tmp_path: Path
) -> None:
    assert pi.run("install.sh").code == 0
    config = pi.root / "etc/table-companion/config.toml"
    config.write_text("[hardware]\nhold_time = 0.8\n")
    stamp = pi.root / "opt/table-companion/installed-from.sha256"
    stamp.write_text("an older checkout\n")
    run = pi.run("install.sh")
    assert run.code == 0
    assert [c for c in changes(run.commands) if not c.startswith("venv-pip")] == [
        "systemctl restart companion.service"
    ]
    assert config.read_text() == "[hardware]\nhold_time = 0.8\n"


def test_no_start_leaves_the_service_stopped_but_enabled(pi: PiSandbox) -> None:
    run = pi.run("install.sh", "--no-start")
    assert run.code == 0
    assert "systemctl enable companion.service" in run.commands
    assert not any(c.startswith("systemctl start") for c in run.commands)


def test_uninstall_reverses_it_and_keeps_the_games(pi: PiSandbox) -> None:
    assert pi.run("install.sh").code == 0
    games = pi.root / "var/lib/table-companion/games.sqlite"
    games.parent.mkdir(parents=True)
    games.write_text("the games")
    run = pi.run("uninstall.sh")
    assert (run.code, run.stderr) == (0, "")
    assert changes(run.commands) == [
        "systemctl stop companion.service",
        "systemctl disable companion.service",
        "systemctl daemon-reload",
    ]
    for gone in ("etc/systemd/system/companion.service", "opt/table-companion"):
        assert not (pi.root / gone).exists()
    assert not (pi.root / "usr/local/bin/companion").is_symlink()
    assert pi.read("boot/firmware/cmdline.txt") == CMDLINE
    assert games.read_text() == "the games"
    assert (pi.root / "etc/table-companion/config.toml").is_file()


def test_install_then_purge_leaves_the_pi_as_it_was(pi: PiSandbox) -> None:
    pristine = pi.snapshot()
    assert pi.run("install.sh").code == 0
    run = pi.run("uninstall.sh", "--purge")
    assert run.code == 0
    assert "userdel companion" in run.commands
    after = pi.snapshot()
    differ = {k for k in after.keys() | pristine.keys() if after.get(k) != pristine.get(k)}
    # What stays: the apt packages and the gpio group, which other software may use too.
    assert differ == {"state/dpkg", "state/group"}
    assert pi.run("uninstall.sh", "--purge").code == 0  # nothing left to remove is fine


def test_not_root_goes_through_sudo(pi: PiSandbox) -> None:
    run = pi.run("install.sh", "--no-start", STUB_UID="1000")
    assert run.code == 0
    assert run.commands[:2] == ["id -u", f"sudo -- {pi_script('install.sh')} --no-start"]


def pi_script(name: str) -> str:
    return str(REPO / "systemd" / name)


@pytest.mark.parametrize(
    ("model", "os_release", "env", "message"),
    [
        ("", None, {}, "this is not a Raspberry Pi (device-tree model: 'none')"),
        ("Raspberry Pi 4 Model B Rev 1.5\0", 'VERSION_ID="11"\nVERSION_CODENAME=bullseye\n', {},
         "Raspberry Pi OS Bookworm (12) or later is needed, this is 'bullseye'"),
        ("Raspberry Pi 5 Model B Rev 1.0\0", None, {"STUB_ARCH": "armhf"},
         "the 64-bit Raspberry Pi OS (arm64) is needed, this is armhf"),
    ],
)
def test_an_unsuitable_machine_is_refused_in_one_line(
    tmp_path: Path, model: str, os_release: str | None, env: dict[str, str], message: str
) -> None:
    pi = PiSandbox(tmp_path, model=model) if os_release is None else PiSandbox(
        tmp_path, model=model, os_release=os_release)
    if not model:
        (pi.root / "proc/device-tree/model").unlink()
    run = pi.run("install.sh", **env)
    assert (run.code, run.stderr) == (2, f"install.sh: error: {message}\n")
    assert changes(run.commands) == []


def test_an_older_pi_is_warned_about_but_installed(tmp_path: Path) -> None:
    pi = PiSandbox(tmp_path, model="Raspberry Pi 3 Model B Plus Rev 1.3\0")
    run = pi.run("install.sh", "--no-start")
    assert run.code == 0
    assert "install.sh: warning: Raspberry Pi 3 Model B Plus Rev 1.3 is not tested" in run.stdout


def test_an_unknown_option_is_one_line(pi: PiSandbox) -> None:
    run = pi.run("uninstall.sh", "--purg")
    assert run.code == 2
    assert run.stderr == (
        "uninstall.sh: error: unknown option '--purg' (usage: sudo systemd/uninstall.sh"
        " [--purge])\n"
    )



def test_a_desktop_at_boot_is_warned_about(pi: PiSandbox) -> None:
    (pi.state / "enabled-display-manager.service").touch()
    run = pi.run("install.sh", "--no-start")
    assert run.code == 0
    assert "install.sh: warning: a desktop starts at boot and holds the screen" in run.stdout
    assert "sudo systemctl set-default multi-user.target" in run.stdout
