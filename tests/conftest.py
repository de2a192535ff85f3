"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import os

# Off a Raspberry Pi gpiozero must use its mock pins; set before any test imports it.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
