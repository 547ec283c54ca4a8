"""Talking to systemd: readiness, the watchdog heartbeat, status lines, and journald-ready logs.

The unit (``systemd/companion.service``) is ``Type=notify`` with ``WatchdogSec=``, so the app:

1. calls :func:`configure_logging` first thing, so every line on stderr carries its level;
2. calls :meth:`ServiceNotifier.ready` once the first frame of the UI is on the screen: from
   a handler of Kivy's ``Window.on_flip`` that unbinds itself (``App.on_start`` runs before
   the first frame is drawn);
3. calls ``schedule_heartbeat(notifier, Clock.schedule_interval)`` (Kivy's clock), which has
   :meth:`ServiceNotifier.alive` called every :func:`watchdog_interval` seconds. The Kivy clock
   runs its callbacks on the UI thread, so ``WATCHDOG=1`` is sent only while the UI loop
   turns: a frozen UI stops the heartbeat and systemd kills and restarts it
   (``Restart=on-failure``);
4. calls :meth:`ServiceNotifier.stopping` when it begins to shut down.

Everything here is a no-op when ``NOTIFY_SOCKET`` is unset (started by hand, in tests), and
imports without Kivy.

Why cysystemd: it sends through libsystemd's own ``sd_notify()`` (bundled in its wheels for
x86-64 and 64-bit ARM, so nothing to compile on the Pi), which handles every socket form
systemd uses (paths, abstract ``@`` names, ``vsock:``). It is maintained (2.0.5, 2026), typed,
and used widely. ``sdnotify`` is pure Python but unmaintained since 2017; ``systemd-python``
must be compiled against ``libsystemd-dev`` (or taken from apt as ``python3-systemd``, out of
reach of an ordinary venv); ``systemd-watchdog`` 1.0.2+ needs Python 3.12.

The log format follows sd-daemon(3): a ``<N>`` syslog priority at the start of each line, which
journald reads (``SyslogLevelPrefix=`` is on by default) and strips:

>>> import logging
>>> record = logging.LogRecord("companion.referee", logging.WARNING, "", 0, "camera lost", (), None)
>>> JournalFormatter().format(record)
'<4>WARNING companion.referee: camera lost'
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Mapping
from typing import Final, TextIO, TypeVar

from companion.errors import CompanionError

NOTIFY_SOCKET: Final = "NOTIFY_SOCKET"
WATCHDOG_USEC: Final = "WATCHDOG_USEC"
WATCHDOG_PID: Final = "WATCHDOG_PID"

#: syslog priority (sd-daemon(3)) of each logging level; a level in between takes the next lower.
SYSLOG_PRIORITY: Final = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}
LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

log = logging.getLogger(__name__)

Scheduled = TypeVar("Scheduled")


class ServiceNotifier:
    """Sends sd_notify(3) messages to systemd; every method is a no-op without ``NOTIFY_SOCKET``.

    A message that cannot be sent (the manager went away) is logged once as a warning and
    never raises: the game goes on.

    >>> notifier = ServiceNotifier(environ={})
    >>> notifier.enabled, notifier.ready()
    (False, None)
    """

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        """``environ`` (default: ``os.environ`` now) tells whether systemd started us."""
        self.enabled = bool((os.environ if environ is None else environ).get(NOTIFY_SOCKET))
        self._warned = False

    def ready(self) -> None:
        """``READY=1``: start-up is finished (call it after the first UI frame is drawn)."""
        self._send("READY")

    def alive(self) -> None:
        """``WATCHDOG=1``: the UI loop is alive. Call it only from a Kivy clock callback."""
        self._send("WATCHDOG")

    def status(self, text: str) -> None:
        """``STATUS=text``: one line shown by ``systemctl status`` (newlines become spaces)."""
        self._send("STATUS", " ".join(text.split()))

    def stopping(self) -> None:
        """``STOPPING=1``: the app is shutting down on purpose."""
        self._send("STOPPING")

    def _send(self, name: str, value: str = "") -> None:
        if not self.enabled:
            return
        from cysystemd.daemon import Notification, notify

        try:
            notify(Notification[name], value, return_exceptions=False)
        except (ValueError, RuntimeError, OSError) as error:
            if not self._warned:
                self._warned = True
                log.warning("cannot notify systemd (%s=...): %s", name, error)


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between heartbeats: half of ``WATCHDOG_USEC``; None when no watchdog is asked for.

    As sd_watchdog_enabled(3): the watchdog is for this process only when ``WATCHDOG_PID`` is
    unset or names it, and only under systemd (``NOTIFY_SOCKET`` set).

    >>> watchdog_interval({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "10000000"})
    5.0
    >>> watchdog_interval({"WATCHDOG_USEC": "10000000"}) is None
    True
    """
    env = os.environ if environ is None else environ
    usec = env.get(WATCHDOG_USEC, "")
    pid = env.get(WATCHDOG_PID)
    if not env.get(NOTIFY_SOCKET) or not usec.isdigit() or int(usec) == 0:
        return None
    if pid is not None and pid != str(os.getpid()):
        return None
    return int(usec) / 2_000_000


def schedule_heartbeat(
    notifier: ServiceNotifier,
    schedule_interval: Callable[[Callable[[float], None], float], Scheduled],
    environ: Mapping[str, str] | None = None,
) -> Scheduled | None:
    """Have ``notifier.alive()`` called every :func:`watchdog_interval` seconds by the UI clock.

    ``schedule_interval`` is ``kivy.clock.Clock.schedule_interval``; its event is returned (to
    ``cancel()`` at shutdown), or None when systemd asked for no watchdog.

    >>> schedule_heartbeat(ServiceNotifier(environ={}), lambda call, every: "event", environ={})
    """
    interval = watchdog_interval(environ)
    if interval is None or not notifier.enabled:
        return None
    return schedule_interval(lambda _elapsed: notifier.alive(), interval)


class JournalFormatter(logging.Formatter):
    """``<N>LEVEL logger: message``, with the ``<N>`` prefix on every line of a multi-line record.

    journald takes each line as its own entry, so a traceback keeps its priority throughout.
    """

    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


def syslog_priority(levelno: int) -> int:
    """The syslog priority for a logging level number.

    >>> syslog_priority(logging.INFO), syslog_priority(logging.INFO + 5), syslog_priority(1)
    (6, 6, 7)
    """
    fitting = [level for level in SYSLOG_PRIORITY if level <= levelno]
    return SYSLOG_PRIORITY[max(fitting)] if fitting else SYSLOG_PRIORITY[logging.DEBUG]


def configure_logging(level: str = "INFO", stream: TextIO | None = None) -> logging.Handler:
    """Log to stderr (or ``stream``) at ``level`` in the journald form; returns the handler.

    Calling it again replaces the handler it installed before instead of adding a second.
    An unknown level is a :class:`~companion.errors.CompanionError` naming the known ones.
    """
    name = level.strip().upper()
    if name not in LEVELS:
        raise CompanionError(f"unknown log level {level!r} (known: {', '.join(LEVELS)})")
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h.formatter, JournalFormatter)]:
        root.removeHandler(old)
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(JournalFormatter())
    root.addHandler(handler)
    root.setLevel(name)
    return handler
