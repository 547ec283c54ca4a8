"""Player buttons, buzzer and lights through gpiozero: events for the referee, never rules.

* :mod:`hardware.pins` — the ``[hardware]`` pin map and its validation;
* :mod:`hardware.buttons` — debounce, press or hold, the fair first-press lockout;
* :mod:`hardware.gpio` — buttons on gpiozero pins, timed by the pin factory's edge ticks;
* :mod:`hardware.keyboard` — the same events from keys;
* :mod:`hardware.sounds`, :mod:`hardware.lights` — patterns, voice and LEDs;
* :mod:`hardware.table` — all of it as one :class:`~hardware.table.Table`;
* :mod:`hardware.factory` — which pin factory; :mod:`hardware.cli` — ``companion hw-test``.

See ``docs/hardware.md`` for wiring and behaviour.
"""
