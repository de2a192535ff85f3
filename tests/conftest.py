"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import os

import pytest

# The firmware checks run under MicroPython too, so they use plain asserts; under
# CPython pytest should still explain a failing one. Must happen before any import.
pytest.register_assert_rewrite("tests.firmware_checks")

# Off a Raspberry Pi gpiozero must use its mock pins; set before any test imports it.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
