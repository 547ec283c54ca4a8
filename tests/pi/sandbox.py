"""A sandboxed Raspberry Pi for the install scripts: a tmp root and stub system commands.

The stubs (``tests/pi/stubs``) log each command line and keep state (users, groups, enabled
and active units, installed packages) in files, so ``is-enabled``, ``getent`` and
``dpkg-query`` answer as on a Pi and a second run can find everything in place.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
STUBS = Path(__file__).resolve().parent / "stubs"
PI4_MODEL = "Raspberry Pi 4 Model B Rev 1.5\0"
CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootwait quiet\n"
BOOKWORM = (
    'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n'
    'VERSION_ID="12"\nVERSION_CODENAME=bookworm\n'
)
PRESENT_GROUPS = ("video", "render", "input", "audio")


@dataclass
class Run:
    """One script run: exit code, output, and the stub commands it ran."""

    code: int
    stdout: str
    stderr: str
    commands: list[str]


class PiSandbox:
    """A fake Pi 4 on Bookworm under ``base``: ``root`` is its file system, ``state`` the stubs'."""

    def __init__(self, base: Path, model: str = PI4_MODEL, os_release: str = BOOKWORM) -> None:
        self.root = base / "root"
        self.state = base / "state"
        self.log = base / "commands.log"
        for path, text in {
            "proc/device-tree/model": model,
            "etc/os-release": os_release,
            "boot/firmware/cmdline.txt": CMDLINE,
        }.items():
            target = self.root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        for folder in ("etc/systemd/system", "opt", "usr/local/bin"):  # there on every Pi
            (self.root / folder).mkdir(parents=True)
        self.state.mkdir()
        for name in ("passwd", "members", "dpkg"):
            (self.state / name).write_text("")
        (self.state / "group").write_text("".join(g + "\n" for g in PRESENT_GROUPS))

    def run(self, script: str, *args: str, **env: str) -> Run:
        """Run ``systemd/<script>`` with the stubs first on PATH; ``env`` adds variables."""
        self.log.write_text("")
        environment = {
            "PATH": f"{STUBS}:/usr/bin:/bin",
            "COMPANION_ROOT": str(self.root),
            "STUB_LOG": str(self.log),
            "STUB_STATE": str(self.state),
            "LC_ALL": "C",
            **env,
        }
        done = subprocess.run(
            [str(REPO / "systemd" / script), *args],
            capture_output=True, text=True, env=environment, timeout=60, check=False,
        )
        commands = self.log.read_text().splitlines()
        return Run(done.returncode, done.stdout, done.stderr, commands)

    def snapshot(self) -> dict[str, str]:
        """Every file, link and directory under the root and in the stub state, with contents."""
        tree: dict[str, str] = {}
        for top in (self.root, self.state):
            for dirpath, dirnames, filenames in os.walk(top):
                for name in dirnames + filenames:
                    path = Path(dirpath) / name
                    key = str(path.relative_to(top.parent))
                    if path.is_symlink():
                        tree[key] = "-> " + os.readlink(path)
                    elif path.is_dir():
                        tree[key] = "dir"
                    else:
                        digest = hashlib.sha256(path.read_bytes()).hexdigest()
                        tree[key] = f"{oct(path.stat().st_mode)} {digest}"
        return tree

    def read(self, path: str) -> str:
        """A file under the sandbox root."""
        return (self.root / path).read_text(encoding="utf-8")
