"""Drivers behind small interfaces (display, input, sound, serial bridge), with fakes."""
