"""Sound cues on gpiozero's TonalBuzzer, driven on MockFactory(pin_class=MockPWMPin)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import get_args

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from hardware.build import build_sound
from hardware.interfaces import Cue
from hardware.sound import CUES, BuzzerSound, NullSound
from hardware.specs import SoundSpec


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


def note_ons(factory: MockFactory, pin: int) -> int:
    """How often the buzzer pin went from silent to sounding (50 % duty)."""
    states = [s.state for s in factory.pin(pin).states]
    return sum(1 for a, b in itertools.pairwise(states) if a == 0 and b == 0.5)


def test_every_cue_of_the_interface_has_notes() -> None:
    assert set(CUES) == set(get_args(Cue))


def test_every_cue_note_is_within_the_buzzers_range() -> None:
    low, high = Tone("A3").frequency, Tone("A7").frequency
    for notes in CUES.values():
        for note, seconds in notes:
            assert low <= Tone(note).frequency <= high
            assert 0 < seconds <= 0.5, "cues are short"


@pytest.mark.parametrize("cue", get_args(Cue))
def test_each_cue_plays_its_notes_and_ends_silent(factory: MockFactory, cue: Cue) -> None:
    sound = BuzzerSound(13, pin_factory=factory, tempo=0)
    try:
        sound.play(cue)
        assert sound.wait_idle(timeout=10)
        assert note_ons(factory, 13) == len(CUES[cue])
        assert factory.pin(13).state == 0
        assert factory.pin(13).frequency is None
    finally:
        sound.close()


def test_cues_queue_up_in_order(factory: MockFactory) -> None:
    sound = BuzzerSound(13, pin_factory=factory, tempo=0)
    try:
        sound.play("dice")
        sound.play("move")
        assert sound.wait_idle(timeout=10)
        assert note_ons(factory, 13) == len(CUES["dice"]) + len(CUES["move"])
    finally:
        sound.close()


def test_unknown_cue_is_a_value_error(factory: MockFactory) -> None:
    sound = BuzzerSound(13, pin_factory=factory, tempo=0)
    try:
        with pytest.raises(ValueError, match="unknown sound cue 'boom'"):
            sound.play("boom")  # type: ignore[arg-type]
    finally:
        sound.close()
    with pytest.raises(ValueError, match="allowed: dice"):
        NullSound().play("boom")  # type: ignore[arg-type]


def test_close_stops_a_cue_midway(factory: MockFactory) -> None:
    sound = BuzzerSound(13, pin_factory=factory, tempo=100)  # the win cue would take ~70 s
    sound.play("win")
    sound.close()
    assert note_ons(factory, 13) <= 1


def test_factory_gives_silence_without_a_pin(factory: MockFactory) -> None:
    assert isinstance(build_sound(SoundSpec(buzzer_pin=None)), NullSound)
    assert isinstance(build_sound(SoundSpec(buzzer_pin=13, enabled=False)), NullSound)
    sound = build_sound(SoundSpec(buzzer_pin=12), pin_factory=factory)
    assert isinstance(sound, BuzzerSound)
    sound.close()
