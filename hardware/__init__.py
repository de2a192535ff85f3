"""Drivers behind small interfaces (display, input, sound, serial bridge), with fakes.

Build devices from settings with ``hardware.build``: ``open_hardware(HardwareSpec)`` (the
panel and the buttons, serial bridge included), ``build_display(DisplaySpec)``,
``build_input(HardwareSpec)``, ``build_sound(SoundSpec)``.
The interfaces are in ``hardware.interfaces``; the settings in ``hardware.specs``.
Nothing here imports a hardware library at import time.
"""
