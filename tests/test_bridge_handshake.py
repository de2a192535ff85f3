"""A Pico whose HELLO reply is wrong never ends the bridge: hostile Picos on a pty.

The firmware logic (``firmware/virtual_pico.py``) serves a real pty, but answers HELLO
with other bytes: a panel wider than 32, an unknown button id, a reply too short, a
firmware speaking another protocol version. The host must say what is wrong once, in
words, keep retrying, and connect as soon as the Pico answers properly; under systemd the
unit's STATUS= says the panel is not connected.
"""

from __future__ import annotations

import logging
import struct
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.testing.files import write_config
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess
from hardware.bridge import BridgeTiming, open_bridge

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
sys.path.insert(0, str(FIRMWARE))

from virtual_pico import VirtualPico  # noqa: E402

FAST = BridgeTiming(
    ack_timeout=0.1, max_misses=2, keepalive=0.1, backoff_initial=0.02, backoff_max=0.1
)
WAIT = 10.0


def hello(protocol: int = 1, width: int = 16, buttons: bytes = b"\x00\x00\x00\x01") -> bytes:
    """A HELLO_REPLY payload: protocol, firmware 2.0.0, panel, hold 1000 ms, mask 0."""
    head = struct.pack("<BBBBBBHI", protocol, 2, 0, 0, width, 16, 1000, 0)
    return head + bytes((len(buttons) // 2,)) + buttons


HOSTILE = {
    "panel over 32": (hello(width=40), "panel size 40x16 is outside 1..32"),
    "unknown button": (hello(buttons=b"\x00\x07"), "button id 7 is not 0 (ok)"),
    "short payload": (hello()[:5], "HELLO_REPLY of 5 bytes, need >= 13"),
    "count too big": (hello()[:-2], "lists 2 buttons but has 15 bytes"),
    "version mismatch": (
        hello(protocol=2),
        "the Pico's firmware 2.0.0 speaks bridge protocol 2, this host speaks protocol 1",
    ),
}


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[VirtualPico]:
    pico = VirtualPico(tmp_path / "ttyPico", width=16, height=16, debounce_ms=2, hold_ms=150)
    pico.plug()
    try:
        yield pico
    finally:
        pico.unplug()


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_bad_hello_is_said_once_and_the_bridge_keeps_trying_until_it_connects(
    hostile: VirtualPico, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    reply, words = HOSTILE[case]
    hostile.link.hello_reply = reply
    problems: list[str] = []
    caplog.set_level(logging.WARNING, logger="hardware.bridge")
    bridge = open_bridge(
        str(hostile.port_link),
        size=(16, 16),
        timing=FAST,
        connect_timeout=0.05,
        on_problem=problems.append,
    )
    try:
        # many attempts, each answered with the same bad reply
        assert hostile.wait_until(lambda: hostile.link.hellos >= 6, WAIT)
        assert bridge.supervising and not bridge.online
        said = [r.getMessage() for r in caplog.records if r.name == "hardware.bridge"]
        assert len(said) == 1, said
        assert words in said[0] and "Traceback" not in caplog.text
        assert problems == [said[0].split(": ", 1)[1]]
        assert words in bridge.problem
        # the Pico is flashed right: the same bridge connects, with no restart
        hostile.link.hello_reply = None
        assert bridge.wait_online(WAIT)
        assert bridge.info is not None and bridge.info.width == 16
    finally:
        bridge.close()
    assert not bridge.supervising


def test_the_unit_status_says_the_panel_is_not_connected_until_it_is(
    tmp_path: Path, hostile: VirtualPico
) -> None:
    """``spieltisch run`` on a bridge whose firmware speaks another protocol: READY,
    STATUS= naming both versions, the problem once in the log; then the right firmware,
    and STATUS=playing."""
    hostile.link.hello_reply = hello(protocol=2)
    config = write_config(tmp_path, seats=("bot",))
    text = config.read_text("utf-8").replace(
        'type = "dummy"', f'type = "bridge"\nport = "{hostile.port_link}"'
    )
    config.write_text(text, "utf-8")
    notify = NotifySocket()
    app = ApplianceProcess(config, tmp_path / "state", notify, log_dir=tmp_path)
    try:
        assert notify.wait_for("READY=1", timeout=60) is not None, app.stderr()
        status = [m for _, m in notify.messages if "STATUS=" in m][-1]
        assert "panel not connected" in status, status
        assert "firmware 2.0.0 speaks bridge protocol 2" in status, status
        assert "this host speaks protocol 1" in status, status
        assert hostile.wait_until(lambda: hostile.link.hellos >= 5, WAIT)
        hostile.link.hello_reply = None
        assert notify.wait_for("STATUS=playing", timeout=WAIT) is not None, app.stderr()
        code, _ = app.terminate()
    finally:
        app.close()
        notify.close()
    log = app.stderr()
    assert code == 0, log
    assert log.count("speaks bridge protocol 2") == 1, log
    assert "Traceback" not in log, log
