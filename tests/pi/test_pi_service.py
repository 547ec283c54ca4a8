"""ui.service against a real AF_UNIX datagram socket standing in for systemd's notify socket."""

from __future__ import annotations

import io
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.errors import CompanionError
from ui.service import (
    ServiceNotifier,
    configure_logging,
    schedule_heartbeat,
    watchdog_interval,
)


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """A bound datagram socket named by NOTIFY_SOCKET, as systemd gives a Type=notify service."""
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2.0)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        yield sock


def received(sock: socket.socket) -> list[bytes]:
    """Every datagram waiting on ``sock``."""
    datagrams = []
    sock.setblocking(False)
    try:
        while True:
            datagrams.append(sock.recv(4096))
    except BlockingIOError:
        return datagrams
    finally:
        sock.settimeout(2.0)


def test_each_message_is_one_exact_datagram(notify_socket: socket.socket) -> None:
    notifier = ServiceNotifier()
    notifier.status("starting the camera")
    notifier.ready()
    notifier.alive()
    notifier.alive()
    notifier.status("game 3:\n21X, round 2")
    notifier.stopping()
    assert received(notify_socket) == [
        b"STATUS=starting the camera",
        b"READY=1",
        b"WATCHDOG=1",
        b"WATCHDOG=1",
        b"STATUS=game 3: 21X, round 2",
        b"STOPPING=1",
    ]


def test_an_abstract_socket_name_works(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"table-companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        ServiceNotifier().ready()
        assert sock.recv(64) == b"READY=1"


def test_without_notify_socket_nothing_is_sent(
    notify_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET")
    notifier = ServiceNotifier()
    for send in (notifier.ready, notifier.alive, notifier.stopping):
        send()
    notifier.status("x")
    assert not notifier.enabled
    assert received(notify_socket) == []


def test_a_vanished_manager_is_one_warning_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone.sock"))
    notifier = ServiceNotifier()
    with caplog.at_level(logging.WARNING):
        notifier.alive()
        notifier.alive()
    assert [r.getMessage() for r in caplog.records] == [
        "cannot notify systemd (WATCHDOG=...): ('Notification error #-2', -2)"
    ]


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "10000000"}, 5.0),
        ({"NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "self"}, 1.5),
        ({"NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"}, None),
        ({"NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "0"}, None),
        ({"NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "ten"}, None),
        ({"NOTIFY_SOCKET": "/run/n"}, None),
        ({"WATCHDOG_USEC": "10000000"}, None),
    ],
)
def test_watchdog_interval_is_half_the_timeout_for_this_process(
    env: dict[str, str], expected: float | None
) -> None:
    if env.get("WATCHDOG_PID") == "self":
        env = {**env, "WATCHDOG_PID": str(os.getpid())}
    assert watchdog_interval(env) == expected


def test_watchdog_interval_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", "/run/n")
    monkeypatch.setenv("WATCHDOG_USEC", "8000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert watchdog_interval() == 4.0


@pytest.fixture
def root_logger() -> Iterator[logging.Logger]:
    """The root logger, its handlers and level put back afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield root
    root.handlers[:] = handlers
    root.setLevel(level)


def test_log_lines_carry_syslog_priorities(root_logger: logging.Logger) -> None:
    stream = io.StringIO()
    configure_logging("debug", stream=stream)
    log = logging.getLogger("companion.test")
    log.debug("frame %d", 7)
    log.info("game started")
    log.warning("config.toml: bad key; using defaults")
    log.error("data directory is read-only")
    log.critical("cannot open the display")
    assert stream.getvalue().splitlines() == [
        "<7>DEBUG companion.test: frame 7",
        "<6>INFO companion.test: game started",
        "<4>WARNING companion.test: config.toml: bad key; using defaults",
        "<3>ERROR companion.test: data directory is read-only",
        "<2>CRITICAL companion.test: cannot open the display",
    ]


def test_every_traceback_line_keeps_the_priority(root_logger: logging.Logger) -> None:
    stream = io.StringIO()
    configure_logging(stream=stream)
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("companion.test").exception("the loop failed")
    lines = stream.getvalue().splitlines()
    assert lines[0] == "<3>ERROR companion.test: the loop failed"
    assert lines[-1] == "<3>RuntimeError: boom"
    assert all(line.startswith("<3>") for line in lines)


def test_level_filters_and_a_second_call_replaces_the_handler(
    root_logger: logging.Logger,
) -> None:
    first, second = io.StringIO(), io.StringIO()
    configure_logging("INFO", stream=first)
    configure_logging("WARNING", stream=second)
    logging.getLogger("companion.test").info("quiet")
    logging.getLogger("companion.test").warning("loud")
    assert first.getvalue() == ""
    assert second.getvalue() == "<4>WARNING companion.test: loud\n"


def test_an_unknown_level_is_named(root_logger: logging.Logger) -> None:
    with pytest.raises(CompanionError, match=r"unknown log level 'LOUD' \(known: DEBUG, INFO"):
        configure_logging("LOUD")


def test_default_stream_is_stderr_as_journald_reads_it() -> None:
    code = (
        "import logging; from ui.service import configure_logging; configure_logging();"
        " logging.getLogger('companion').warning('on stderr')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert (done.stdout, done.stderr) == ("", "<4>WARNING companion: on stderr\n")


def test_imports_without_kivy() -> None:
    code = "import sys, ui.service; print('kivy' in sys.modules, 'cysystemd' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.stdout == "False False\n"


# In a fresh interpreter with real Kivy: the UI loop turns (Clock.tick) for a while, then
# freezes (no ticks). Prints how many heartbeats arrived in each phase.
HEARTBEAT = """
import socket, sys, time
from kivy.clock import Clock
from ui.service import ServiceNotifier, schedule_heartbeat
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(sys.argv[1])
sock.setblocking(False)
def drain():
    count = 0
    while True:
        try:
            assert sock.recv(64) == b"WATCHDOG=1"
        except BlockingIOError:
            return count
        count += 1
event = schedule_heartbeat(ServiceNotifier(), Clock.schedule_interval)
end = time.monotonic() + 0.55
while time.monotonic() < end:
    Clock.tick()
    time.sleep(0.01)
running = drain()
time.sleep(0.55)
frozen = drain()
event.cancel()
print(running, frozen)
"""


def test_heartbeats_come_only_while_the_kivy_clock_turns(tmp_path: Path) -> None:
    path = tmp_path / "notify.sock"
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("KIVY", "WATCHDOG"))},
        "NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "200000",  # a beat every 0.1 s
        "KIVY_NO_ARGS": "1", "KIVY_NO_CONFIG": "1", "KIVY_NO_FILELOG": "1",
        "KIVY_HOME": str(tmp_path / "kivy"),
    }
    done = subprocess.run(
        [sys.executable, "-c", HEARTBEAT, str(path)], capture_output=True, text=True,
        cwd=Path(__file__).resolve().parents[2], env=environment, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    running, frozen = map(int, done.stdout.split())
    assert 2 <= running <= 6  # about 5; fewer if the machine is busy
    assert frozen == 0


def test_no_heartbeat_is_scheduled_without_a_watchdog(notify_socket: socket.socket) -> None:
    scheduled: list[float] = []
    event = schedule_heartbeat(
        ServiceNotifier(), lambda call, every: scheduled.append(every), environ={}
    )
    assert (event, scheduled) == (None, [])


def test_the_heartbeat_is_scheduled_at_half_the_watchdog(notify_socket: socket.socket) -> None:
    calls: list[tuple[Callable[[float], None], float]] = []
    schedule_heartbeat(
        ServiceNotifier(), lambda call, every: calls.append((call, every)),
        environ={"NOTIFY_SOCKET": "x", "WATCHDOG_USEC": "15000000"},
    )
    [(beat, every)] = calls
    assert every == 7.5
    beat(7.5)
    assert received(notify_socket) == [b"WATCHDOG=1"]
