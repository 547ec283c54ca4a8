"""The Kivy touchscreen app: it composes the core, vision and hardware and holds no game rules.

``companion run`` (``make run``) opens it; ``ui.app`` is the app, ``ui.screens`` its screens,
``ui.loop`` the table loop it drives, ``ui.cli`` the ``run`` and ``snapshot`` commands. See
``docs/ui.md``.
"""
