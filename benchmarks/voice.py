"""The voice: rendering the catalog, its size, event-to-player latency and loop CPU.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/voice.py [--prompts 200] [--player aplay]

* **Render**: every fixed sentence in both languages with espeak-ng into an empty
  cache (what ``spieltisch voice render`` does at install): wall time, files, bytes.
* **Event to player**: the loop thread calls :meth:`Speaker.say`; the time from that
  call to the moment the player's process has been started (``Popen`` returned) on the
  worker thread; 50 sentences, said twice over. Prompts are spaced so that each one
  cuts off the one before where it still plays. ``--player aplay`` is ALSA's aplay,
  playing to ALSA's ``null`` device by default (``--device``), so that a machine
  without a sound card can play (ALSA's null sink swallows the file at once). The
  target on a Pi is 300 ms to the start of the sound; this machine is not a Pi.
* **Loop CPU**: the CPU time the loop thread spends in ``say`` (a catalog look-up,
  a lock, a notify), per prompt, by ``time.thread_time``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller import i18n
from controller.voice.catalog import Prompt, fixed_prompts
from controller.voice.player import Player
from controller.voice.render import Renderer, render_all
from controller.voice.speaker import Speaker, VoiceSettings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=int, default=200)
    parser.add_argument("--player", default="aplay", help="the play command (default aplay)")
    parser.add_argument(
        "--device", default="null", help="aplay's -D (default null: ALSA's sink, no card needed)"
    )
    args = parser.parse_args()
    command = shutil.which(args.player)
    if command is None or shutil.which("espeak-ng") is None:
        print("needs espeak-ng and the player on PATH")
        return 2
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder)
        started = time.perf_counter()
        files = set(render_all(Renderer(cache)))
        seconds = time.perf_counter() - started
        size = sum(f.stat().st_size for f in files)
        print(f"render: {len(files)} files in {seconds:.1f} s, {size / 1e6:.1f} MB")

        waits: list[float] = []
        done = threading.Event()
        count = 0

        def on_start(process: subprocess.Popen[bytes], asked: float) -> None:
            nonlocal count
            waits.append(time.monotonic() - asked)
            count += 1
            done.set()

        i18n.use("de")
        play = [command, "-q", "-D", args.device] if args.player == "aplay" else [command]
        player = Player(play, Renderer(cache).path, started=on_start)
        speaker = Speaker(VoiceSettings(volume=80, cache=cache), player)
        prompts = list(fixed_prompts())[:50]
        loop_cpu: list[float] = []
        try:
            for i in range(args.prompts):
                done.clear()
                before = time.thread_time()
                speaker.say(prompts[i % len(prompts)])
                loop_cpu.append(time.thread_time() - before)
                done.wait(10)
            speaker.say(Prompt("over"))
        finally:
            speaker.close()
        part = sorted(waits)
        print(
            f"event to player process ({args.player} -D {args.device}, {len(part)} prompts): "
            f"median {statistics.median(part) * 1000:.1f} ms, p95 "
            f"{part[int(len(part) * 0.95)] * 1000:.1f} ms, max {part[-1] * 1000:.1f} ms"
        )
        print(
            f"loop CPU per prompt: median {statistics.median(loop_cpu) * 1e6:.0f} µs, "
            f"max {max(loop_cpu) * 1e6:.0f} µs"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
