"""Serial bridge: frame round trip over a pty, and bytes on the wire per frame.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/bridge_roundtrip.py [--frames 500] [--size 32]
        [--micropython ../shared/tools/micropython]

Three measurements in one run (four with ``--micropython``), so the ratios are
meaningful on a noisy machine:

1. *bridge*: ``display.show(frame)`` then ``bridge.flush()`` through the real host
   driver to the real firmware logic (``firmware/virtual_pico.py``) on a pty, i.e.
   encode, pty, firmware decode + CRC + panel, ACK back, host decode, thread wake-ups;
2. *raw pty*: the same number of payload bytes written to a pty and a 1-byte answer
   read back, with no protocol at all: the floor the bridge is compared against;
3. the encoded packet size against the raw payload;
4. with ``--micropython``: *bridge* again, with the firmware logic in a MicroPython
   unix-port process (``firmware/unix_pico.py``) instead of a CPython thread. That
   process also reports every frame to the test harness as hex on stderr, which a
   Pico does not do, so this is an upper bound for the interpreter's share.

On a real Pico the round trip is dominated by USB transfer and by clocking the LEDs
(~30 µs per WS2812 pixel: ~31 ms for 32×32), which this benchmark does not model.
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware"))

from PIL import Image
from virtual_pico import MicroPythonPico, VirtualPico

from hardware import bridge_protocol as bp
from hardware.bridge import open_bridge


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bridge_roundtrips(frames: int, side: int, micropython: str | None = None) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        link = Path(tmp) / "pico"
        pico: VirtualPico | MicroPythonPico
        if micropython:
            pico = MicroPythonPico(link, micropython, width=side, height=side)
        else:
            pico = VirtualPico(link, width=side, height=side)
        with pico:
            return timed_frames(pico.port_link, frames, side)


def timed_frames(port: Path, frames: int, side: int) -> list[float]:
    bridge = open_bridge(str(port))
    display = bridge.display()
    images = [Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)) for _ in range(8)]
    samples = []
    for i in range(frames + 20):
        start = time.perf_counter()
        display.show(images[i % len(images)])
        if not bridge.flush(5.0):
            raise SystemExit("frame was not acknowledged within 5 s")
        if i >= 20:  # warm-up
            samples.append(time.perf_counter() - start)
    display.close()
    return samples


def raw_pty_roundtrips(frames: int, size: int) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def echo() -> None:
        got = 0
        while not stop.is_set():
            if select.select([master], [], [], 0.05)[0]:
                got += len(os.read(master, 65536))
                while got >= size:
                    got -= size
                    os.write(master, b"\x06")

    thread = threading.Thread(target=echo, daemon=True)
    thread.start()
    payload = os.urandom(size)
    samples = []
    try:
        for i in range(frames + 20):
            start = time.perf_counter()
            os.write(slave, payload)
            os.read(slave, 1)
            if i >= 20:
                samples.append(time.perf_counter() - start)
    finally:
        stop.set()
        thread.join()
        os.close(master)
        os.close(slave)
    return samples


def decode_rate(side: int) -> tuple[float, float]:
    """MB/s of the host decoder and of the firmware decoder (both under CPython)."""
    import protocol as fw

    packet = bp.frame(1, os.urandom(side * side * 3))
    data = packet * 200
    host = bp.Decoder()
    start = time.perf_counter()
    assert len(host.feed(data)) == 200
    host_rate = len(data) / (time.perf_counter() - start) / 1e6
    firmware = fw.Decoder(side * side * 3)
    count = [0]
    start = time.perf_counter()
    firmware.feed(data, lambda t, s, p: count.__setitem__(0, count[0] + 1))
    fw_rate = len(data) / (time.perf_counter() - start) / 1e6
    assert count[0] == 200
    return host_rate, fw_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=counted(1), default=500)
    parser.add_argument(
        "--size",
        type=counted(1, bp.MAX_PANEL_SIDE),
        default=32,
        help="panel side (default 32)",
    )
    parser.add_argument("--micropython", metavar="BINARY", help="also time the firmware under it")
    args = parser.parse_args()
    payload = args.size * args.size * 3
    wire = len(bp.frame(0, bytes(payload)))
    bridge = bridge_roundtrips(args.frames, args.size)
    raw = raw_pty_roundtrips(args.frames, payload)
    b_med, r_med = statistics.median(bridge), statistics.median(raw)
    b_p99, r_p99 = percentile(bridge, 0.99), percentile(raw, 0.99)
    print(f"{args.size}x{args.size} RGB frame, {args.frames} round trips over a pty")
    print(f"  bridge   median {b_med * 1e3:7.3f} ms   p99 {b_p99 * 1e3:7.3f} ms")
    print(f"  raw pty  median {r_med * 1e3:7.3f} ms   p99 {r_p99 * 1e3:7.3f} ms")
    print(f"  ratio    median {b_med / r_med:7.2f} x    p99 {b_p99 / r_p99:7.2f} x")
    print(
        f"  bytes per frame: {wire} on the wire for {payload} of pixels "
        f"({wire / payload:.4f} x, +{wire - payload} bytes); ACK back: {bp.OVERHEAD + 1}"
    )
    if args.micropython:
        mpy = bridge_roundtrips(args.frames, args.size, args.micropython)
        m_med, m_p99 = statistics.median(mpy), percentile(mpy, 0.99)
        print(f"  bridge, firmware under MicroPython: median {m_med * 1e3:7.3f} ms")
        print(f"           p99 {m_p99 * 1e3:7.3f} ms; {m_med / b_med:.2f} x the CPython firmware")
    host_rate, fw_rate = decode_rate(args.size)
    print(f"  decode (CPython): host {host_rate:.1f} MB/s, firmware module {fw_rate:.1f} MB/s")


if __name__ == "__main__":
    main()
