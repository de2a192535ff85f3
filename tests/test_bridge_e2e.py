"""Host driver against the real firmware logic over a pty.

``firmware/virtual_pico.py`` runs ``link.Link`` — the object ``main.py`` runs on the
Pico — in a thread behind an ``os.openpty()`` pair; the host driver opens the other end
through a symlink, as it would ``/dev/serial/by-id/...``. The tests marked
``BOTH_INTERPRETERS`` also run against the firmware under MicroPython
(``MicroPythonPico``: ``firmware/unix_pico.py`` in the unix port, the pty as its
stdin/stdout like the Pico's USB serial). Nothing here sleeps: every wait is on a
queue, condition or event with a timeout.
"""

from __future__ import annotations

import hashlib
import json
import queue
import random
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from serial.tools.list_ports_common import ListPortInfo

from hardware import bridge_protocol as bp
from hardware.bridge import (
    BridgeTiming,
    SerialBridge,
    find_pico_port,
    open_bridge,
)
from hardware.interfaces import ButtonEvent, Display, HardwareError, InputBackend
from rules.playout import sample_roll
from rules.registry import get_game

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
sys.path.insert(0, str(FIRMWARE))

from virtual_pico import MicroPythonPico, VirtualPico  # noqa: E402

from tests.micropython_binary import micropython_or_skip  # noqa: E402

Pico = VirtualPico | MicroPythonPico

FAST = BridgeTiming(
    ack_timeout=0.2, max_misses=3, keepalive=0.1, backoff_initial=0.02, backoff_max=0.2
)
WAIT = 10.0  # generous: the machine is shared; nothing asserts on time


class Status:
    """Collects ``on_status`` calls and lets a test wait for a given state."""

    def __init__(self) -> None:
        self.changes: queue.Queue[bool] = queue.Queue()
        self.history: list[bool] = []

    def __call__(self, online: bool) -> None:
        self.changes.put(online)

    def wait(self, online: bool) -> None:
        while True:
            got = self.changes.get(timeout=WAIT)
            self.history.append(got)
            if got == online:
                return


@pytest.fixture
def pico(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Pico]:
    """The firmware in-process; with ``BOTH_INTERPRETERS`` also under MicroPython."""
    link = tmp_path / "ttyPico"
    virtual: Pico
    if getattr(request, "param", "cpython") == "micropython":
        binary = micropython_or_skip().path
        virtual = MicroPythonPico(link, binary, width=16, height=16, debounce_ms=2, hold_ms=150)
    else:
        virtual = VirtualPico(link, width=16, height=16, debounce_ms=2, hold_ms=150)
    virtual.plug()
    yield virtual
    virtual.unplug()
    if isinstance(virtual, MicroPythonPico):
        assert virtual.output == [], "the firmware under MicroPython said something unexpected"


BOTH_INTERPRETERS = pytest.mark.parametrize("pico", ["cpython", "micropython"], indirect=True)


@pytest.fixture
def status() -> Status:
    return Status()


@pytest.fixture
def bridge(pico: Pico, status: Status) -> Iterator[SerialBridge]:
    b = open_bridge(str(pico.port_link), timing=FAST, on_status=status, connect_timeout=WAIT)
    status.wait(True)
    yield b
    b.close()


def image(seed: int, size: tuple[int, int] = (16, 16)) -> Image.Image:
    data = random.Random(seed).randbytes(size[0] * size[1] * 3)
    return Image.frombytes("RGB", size, data)


def press(pico: Pico, events: queue.Queue[ButtonEvent], index: int) -> list[ButtonEvent]:
    """Press and release button ``index`` on the Pico; return what the host received."""
    pico.set_button(index, True)
    down = events.get(timeout=WAIT)
    pico.set_button(index, False)
    up = events.get(timeout=WAIT)
    return [down, up]


@BOTH_INTERPRETERS
def test_handshake_reports_the_firmwares_panel_and_buttons(bridge: SerialBridge) -> None:
    """PROTOCOL.md §4.1: HELLO answered with versions, size and buttons."""
    assert bridge.online
    assert bridge.info is not None
    assert bridge.info.firmware_version == "1.0.0"
    assert bridge.size == (16, 16)
    assert [(b.seat, b.button) for b in bridge.info.buttons] == [
        (0, "ok"),
        (0, "next"),
        (1, "ok"),
        (1, "next"),
        (None, "system"),
    ]


@BOTH_INTERPRETERS
def test_display_and_input_handles_implement_the_hardware_interfaces(
    bridge: SerialBridge, pico: Pico
) -> None:
    """One port, both roles: the same bridge is a Display and an InputBackend."""
    display: Display = bridge.display()
    buttons: InputBackend = bridge.input()
    assert (display.width, display.height, display.mode) == (16, 16, "RGB")
    assert open_bridge(str(pico.port_link)) is bridge  # shared, not a second port
    display.close()
    assert bridge.online  # the input handle still holds the port
    buttons.close()
    assert not bridge.online


@BOTH_INTERPRETERS
def test_frames_arrive_pixel_exact_and_brightness_is_applied(
    bridge: SerialBridge, pico: Pico
) -> None:
    """PROTOCOL.md §4.2, §4.3: ACK after drawing; the newest frame wins."""
    display = bridge.display()
    for seed in range(5):
        display.show(image(seed))
    assert bridge.flush(WAIT)
    pico.sync()
    assert pico.panel.frames[-1] == image(4).tobytes()
    display.set_brightness(0.5)
    assert bridge.flush(WAIT)
    pico.sync()
    assert pico.panel.brightness == 128
    with pytest.raises(ValueError, match="image is 8x8, the panel is 16x16"):
        display.show(image(0, (8, 8)))
    with pytest.raises(ValueError, match=r"brightness 1\.5 is outside"):
        display.set_brightness(1.5)
    display.close()


@BOTH_INTERPRETERS
def test_button_presses_on_the_pico_reach_the_event_sink(bridge: SerialBridge, pico: Pico) -> None:
    """PROTOCOL.md §5.4: debounced down/up and a held press, with seat and button."""
    events: queue.Queue[ButtonEvent] = queue.Queue()
    buttons = bridge.input()
    buttons.start(events.put)
    got = press(pico, events, 3)
    assert [(e.seat, e.button, e.kind) for e in got] == [(1, "next", "down"), (1, "next", "up")]
    pico.set_button(4, True)
    assert events.get(timeout=WAIT).kind == "down"
    held = events.get(timeout=WAIT)
    assert (held.seat, held.button, held.kind) == (None, "system", "held")
    pico.set_button(4, False)
    assert events.get(timeout=WAIT).kind == "up"
    buttons.close()


def test_button_packets_for_buttons_the_hello_did_not_list_are_dropped(
    bridge: SerialBridge, pico: Pico, caplog: pytest.LogCaptureFixture
) -> None:
    """A Pico that reports seat 7 or seat 200 (its HELLO listed seats 0 and 1 and the
    system button) reached the table with presses at seats it does not have. They are
    dropped at the bridge, said once per button; the listed buttons still work."""
    events: queue.Queue[ButtonEvent] = queue.Queue()
    buttons = bridge.input()
    buttons.start(events.put)
    unlisted = [(7, 0), (200, 1), (2, 0), (0, 2), (bp.SYSTEM_SEAT, 0)]
    for repeat in range(2):
        for number, (seat, button) in enumerate(unlisted):
            for kind in (1, 0):  # down, up
                payload = struct.pack("<BBBI", seat, button, kind, 0)
                pico.inject(bp.encode(bp.MsgType.BUTTON, (200 + 10 * repeat + number), payload))
    # the same stream then carries a real press: whatever came first has been handled
    got = press(pico, events, 0)
    assert [(e.seat, e.button, e.kind) for e in got] == [(0, "ok", "down"), (0, "ok", "up")]
    assert events.empty()
    assert bridge.stats.unknown_buttons == 2 * 2 * len(unlisted)
    said = [r.getMessage() for r in caplog.records if "HELLO did not list it" in r.getMessage()]
    assert len(said) == len(unlisted), said
    assert "seat 7" in said[0] and "seat 200" in said[1] and "seat system" in said[4]
    buttons.close()


@BOTH_INTERPRETERS
def test_unplug_goes_offline_then_reconnects_and_everything_flows_again(
    bridge: SerialBridge, pico: Pico, status: Status
) -> None:
    """Close the pty, reopen it; frames and events flow again."""
    display = bridge.display()
    events: queue.Queue[ButtonEvent] = queue.Queue()
    buttons = bridge.input()
    buttons.start(events.put)
    display.show(image(1))
    assert bridge.flush(WAIT)

    pico.unplug()
    status.wait(False)
    assert not bridge.online
    display.show(image(2))  # the game goes on while the panel is away; show never blocks
    display.show(image(3))
    pico.replug()
    status.wait(True)
    assert bridge.flush(WAIT)
    pico.sync()
    assert pico.panel.frames[-1] == image(3).tobytes()  # newest frame, resent at once
    assert image(2).tobytes() not in pico.panel.frames  # superseded, never sent
    assert bridge.stats.connects == 2
    got = press(pico, events, 0)
    assert [(e.seat, e.button, e.kind) for e in got] == [(0, "ok", "down"), (0, "ok", "up")]
    assert status.history == [True, False, True]
    display.close()
    buttons.close()


def test_a_button_released_while_unplugged_is_released_at_reconnect(
    bridge: SerialBridge, pico: VirtualPico, status: Status
) -> None:
    """PROTOCOL.md §6.3: the HELLO_REPLY's down mask repairs the missed UP."""
    events: queue.Queue[ButtonEvent] = queue.Queue()
    buttons = bridge.input()
    buttons.start(events.put)
    pico.set_button(1, True)
    assert events.get(timeout=WAIT).kind == "down"
    pico.unplug()
    status.wait(False)
    pico.set_button(1, False)
    pico.link.poll_buttons([False] * 5, 0)  # the Pico saw the release while unplugged
    pico.replug()
    status.wait(True)
    up = events.get(timeout=WAIT)
    assert (up.seat, up.button, up.kind) == (0, "next", "up")
    buttons.close()


def test_a_lost_up_event_is_repaired_by_the_next_pong(
    bridge: SerialBridge, pico: VirtualPico
) -> None:
    """PROTOCOL.md §6.3: the PONG's down mask emits the UP that never arrived."""
    events: queue.Queue[ButtonEvent] = queue.Queue()
    buttons = bridge.input()
    buttons.start(events.put)
    pico.set_button(0, True)
    assert events.get(timeout=WAIT).kind == "down"
    pico.drop_output = True  # the BUTTON "up" packet is lost on the way
    pico.set_button(0, False)
    assert pico.wait_until(lambda: pico.link.debouncer.mask() == 0, WAIT)
    pico.drop_output = False
    up = events.get(timeout=WAIT)  # from the keep-alive PONG, not a BUTTON packet
    assert (up.seat, up.button, up.kind) == (0, "ok", "up")
    assert bridge.stats.connects == 1  # repaired on the live link, not by a reconnect
    buttons.close()


@BOTH_INTERPRETERS
def test_when_acks_stop_the_host_goes_offline_and_recovers_when_they_return(
    bridge: SerialBridge, pico: Pico, status: Status
) -> None:
    """PROTOCOL.md §6.2: after 3 unanswered packets the link is lost and reconnected."""
    display = bridge.display()
    pico.drop_output = True  # the Pico still reads, but nothing comes back
    display.show(image(7))
    status.wait(False)
    assert bridge.stats.resends >= FAST.max_misses
    pico.drop_output = False
    status.wait(True)
    assert bridge.flush(WAIT)
    pico.sync()
    assert pico.panel.frames[-1] == image(7).tobytes()
    display.close()


@BOTH_INTERPRETERS
def test_garbage_from_the_pico_side_does_not_disturb_the_link(
    bridge: SerialBridge, pico: Pico
) -> None:
    """PROTOCOL.md §6.1 on the live link: noise between packets is skipped."""
    events: queue.Queue[ButtonEvent] = queue.Queue()
    buttons = bridge.input()
    buttons.start(events.put)
    rng = random.Random(3)
    for _ in range(20):
        pico.inject(rng.randbytes(300))
        press(pico, events, 2)
    display = bridge.display()
    display.show(image(5))
    assert bridge.flush(WAIT)
    assert bridge.online
    display.close()
    buttons.close()


def test_open_bridge_fails_with_one_clear_line_when_nothing_answers(tmp_path: Path) -> None:
    with pytest.raises(HardwareError, match=r"serial bridge on .*missing did not answer"):
        open_bridge(str(tmp_path / "missing"), timing=FAST, connect_timeout=0.3)


def test_a_32x32_firmware_runs_in_a_third_of_a_picos_heap_under_micropython(
    tmp_path: Path,
) -> None:
    """firmware/README, resources: the buffers are allocated once and are small.

    The unix port's heap is capped at 64 KB, a third of the Pico's ~190 KB, although
    its 64-bit objects are larger than the Pico's 32-bit ones: the handshake, 30
    frames of 32×32 and a button press still work.
    """
    binary = micropython_or_skip().path
    side = (32, 32)
    with MicroPythonPico(
        tmp_path / "pico", binary, width=32, height=32, debounce_ms=2, heap_size="64k"
    ) as pico:
        status = Status()
        bridge = open_bridge(
            str(pico.port_link), timing=FAST, on_status=status, connect_timeout=WAIT
        )
        try:
            status.wait(True)
            display = bridge.display()
            events: queue.Queue[ButtonEvent] = queue.Queue()
            buttons = bridge.input()
            buttons.start(events.put)
            for seed in range(30):
                display.show(image(seed, side))
                assert bridge.flush(WAIT)
            pico.sync()
            assert pico.panel.frames[-1] == image(29, side).tobytes()
            assert [e.kind for e in press(pico, events, 1)] == ["down", "up"]
        finally:
            bridge.close()
        assert pico.output == []


def test_the_micropython_pico_reports_a_firmware_that_does_not_start(tmp_path: Path) -> None:
    with pytest.raises(
        RuntimeError, match=r"/bin/false did not start unix_pico\.py \(exit status 1\)"
    ):
        MicroPythonPico(tmp_path / "pico", "/bin/false").plug()
    assert not (tmp_path / "pico").exists()
    with pytest.raises(FileNotFoundError):
        MicroPythonPico(tmp_path / "pico", str(tmp_path / "no-such-binary")).plug()
    assert not (tmp_path / "pico").exists()


def test_unix_pico_refuses_bad_arguments_with_one_line() -> None:
    binary = micropython_or_skip().path
    result = subprocess.run(
        [binary, str(FIRMWARE / "unix_pico.py"), "3", "16"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("usage: micropython unix_pico.py CONTROL_FD WIDTH")
    assert result.stderr.count("\n") == 1


def test_open_bridge_with_a_size_starts_offline_and_connects_later(tmp_path: Path) -> None:
    """Boot without the Pico: the display exists and the panel appears when plugged."""
    status = Status()
    link = tmp_path / "later"
    b = open_bridge(str(link), size=(16, 16), timing=FAST, on_status=status, connect_timeout=0.05)
    display = b.display()
    display.show(image(9))
    with VirtualPico(link) as late:
        status.wait(True)
        assert b.flush(WAIT)
        assert late.panel.frames[-1] == image(9).tobytes()
        display.close()


def test_auto_port_picks_the_device_with_the_raspberry_pi_vid() -> None:
    """port = "auto" finds the Pico by USB VID 0x2E8A."""
    other = ListPortInfo("/dev/ttyUSB0")
    other.vid, other.pid = 0x0403, 0x6001
    pico_b = ListPortInfo("/dev/ttyACM1")
    pico_b.vid, pico_b.pid = 0x2E8A, 0x0005
    pico_a = ListPortInfo("/dev/ttyACM0")
    pico_a.vid, pico_a.pid = 0x2E8A, 0x0005
    assert find_pico_port([other, pico_b, pico_a]) == "/dev/ttyACM0"
    with pytest.raises(HardwareError, match="no Raspberry Pi Pico found"):
        find_pico_port([other])


# -- a whole game through the bridge ---------------------------------------------------------


def render(state_json: dict[str, object]) -> Image.Image:
    """A stand-in view: a frame that changes with every state (the real views are the
    controller's job); what matters here is that each one arrives exactly."""
    digest = hashlib.sha256(json.dumps(state_json, sort_keys=True).encode()).digest()
    return Image.frombytes("RGB", (16, 16), (digest * 24)[:768])


@BOTH_INTERPRETERS
def test_a_game_played_with_pico_buttons_survives_an_unplug_mid_game(
    bridge: SerialBridge, pico: Pico, status: Status
) -> None:
    """A firmware-logic-to-host game over a pty, unplugged and replugged.

    Every roll is an OK press by the seat to act, every move is k NEXT presses and an
    OK; after each step the new state is drawn and must arrive on the panel exactly.
    Half-way the pty is closed; the game state is untouched and play continues.
    """
    game = get_game("maedn", "classic")
    state = game.new_state(2)
    seats = {colour: i for i, colour in enumerate(state.to_json()["players"])}
    rng = random.Random(8)
    display = bridge.display()
    events: queue.Queue[ButtonEvent] = queue.Queue()
    buttons = bridge.input()
    buttons.start(events.put)
    steps = 0
    while not state.is_terminal() and steps < 60:
        if steps == 30:
            pico.unplug()
            status.wait(False)
            before = state
            display.show(render(state.to_json()))  # drawn while offline: kept, not lost
            pico.replug()
            status.wait(True)
            assert state == before
        player = state.current_player
        assert player is not None
        seat = seats[player]
        ok, nxt = 2 * seat, 2 * seat + 1
        if state.is_chance():
            (down, _up) = press(pico, events, ok)
            assert (down.seat, down.button) == (seat, "ok")
            state = state.roll(sample_roll(state.chance_outcomes(), rng))
        else:
            moves = state.legal_moves()
            choice = rng.randrange(len(moves))
            cursor = 0
            for _ in range(choice):
                (down, _up) = press(pico, events, nxt)
                assert (down.seat, down.button) == (seat, "next")
                cursor = (cursor + 1) % len(moves)
            press(pico, events, ok)
            state = state.apply(moves[cursor])
        display.show(render(state.to_json()))
        assert bridge.flush(WAIT)
        pico.sync()
        assert pico.panel.frames[-1] == render(state.to_json()).tobytes()
        steps += 1
    assert steps == 60 or state.is_terminal()
    assert bridge.stats.connects == 2
    display.close()
    buttons.close()
