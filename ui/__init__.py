"""The Kivy touchscreen app: it composes the core, vision and hardware and holds no game rules.

Not built yet: until it is, ``make run`` shows ``companion demo``.
"""
