"""The companion page must not disturb the table: button-to-frame latency and memory
with 20 pages streaming the live mirror, against the same table without the page.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/web_load.py [--presses 300] [--clients 20] [--slow 5]

The table is ``benchmarks/latency.py``'s: the real loop thread and clock, gpiozero
MockFactory pins, luma's dummy 16x16 panel, MÄDN with two human seats and two bots,
presses timed from the pin edge to the end of the panel's ``show``. Run twice in one
process: first without the page, then with the server on and, in a separate process
(as phones would be), ``--clients`` pages streaming every frame plus ``--slow`` clients
that open the stream and never read. Reported: p99 and median latency of each run and
their difference (target: p99 rises by < 2 ms), the process RSS after each run
(target: < 25 MB more), the frames the pages received, and the panel's frames.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import latency  # noqa: E402
from arguments import counted  # noqa: E402

from controller.web.attach import mirrored, serve  # noqa: E402

CLIENTS = r"""
import asyncio, socket, sys
import aiohttp

port, clients, slow = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
frames = [0] * clients

async def watch(index):
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
            async for message in ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    frames[index] += 1

def never_read():
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 b"Sec-WebSocket-Version: 13\r\n\r\n")
    return sock

async def main():
    held = [never_read() for _ in range(slow)]
    tasks = [asyncio.create_task(watch(i)) for i in range(clients)]
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    print(sum(frames), min(frames), flush=True)
    for task in tasks:
        task.cancel()

asyncio.run(main())
"""


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run(presses: int, web: dict[str, Any] | None) -> dict[str, float]:
    original = latency.build

    def build(tmp: Path, players: tuple[str, ...], **options: float) -> Any:
        app, factory, display = original(tmp, players, **options)
        if web is not None:
            tee, publisher = mirrored(app.loop.display)
            app.loop.display = tee
            server = serve(app, publisher, 0)
            assert server is not None
            web["server"] = server
            web["clients"] = subprocess.Popen(
                [sys.executable, "-c", CLIENTS, str(server.port), str(web["n"]), str(web["slow"])],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert web["clients"].stdout is not None
            web["clients"].stdout.readline()  # "ready"
        return app, factory, display

    latency.build = build
    try:
        result = latency.measure_latency(presses)
    finally:
        latency.build = original
    result["rss_mb"] = rss_mb()
    if web is not None:
        clients = web["clients"]
        out, _ = clients.communicate("\n", timeout=30)
        total, least = (int(x) for x in out.split())
        result["page_frames"] = total
        result["least_page_frames"] = least
        web["server"].stop()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=counted(1), default=300)
    parser.add_argument("--clients", type=counted(1), default=20)
    parser.add_argument("--slow", type=counted(0), default=5)
    args = parser.parse_args()
    tempfile.gettempdir()
    base = run(args.presses, None)
    start = time.perf_counter()
    loaded = run(args.presses, {"n": args.clients, "slow": args.slow})
    took = time.perf_counter() - start
    for name, result in (("without the page", base), (f"{args.clients} pages", loaded)):
        print(
            f"{name:>18}: {result['presses']:.0f} presses, median {result['median_ms']:.2f} ms,"
            f" p99 {result['p99_ms']:.2f} ms, max {result['max_ms']:.2f} ms,"
            f" panel frames {result['frames']:.0f}, RSS {result['rss_mb']:.1f} MB"
        )
    print(
        f"pages received {loaded['page_frames']} frames (the slowest page"
        f" {loaded['least_page_frames']}) in {took:.0f} s; {args.slow} clients never read"
    )
    rise = loaded["p99_ms"] - base["p99_ms"]
    memory = loaded["rss_mb"] - base["rss_mb"]
    print(f"p99 rise {rise:+.2f} ms (target < 2 ms): {'ok' if rise < 2 else 'MISSED'}")
    print(f"RSS rise {memory:+.1f} MB (target < 25 MB): {'ok' if memory < 25 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
