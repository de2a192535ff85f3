"""``spieltisch voice render``: every fixed sentence to audio, ahead of time.

Run at install (and after an update that changed the words): the table then only
plays files. Prints what it did and how long it took, so the install log says it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import IO, Any

from controller import i18n
from controller.voice.render import DEFAULT_CACHE, Renderer, render_all
from controller.voice.speaker import VoiceSettings


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    voice = sub.add_parser("voice", help="the table's spoken prompts")
    jobs = voice.add_subparsers(dest="voice_command", required=True, metavar="JOB")
    render = jobs.add_parser(
        "render", help="render every fixed sentence with espeak-ng into the cache"
    )
    render.add_argument(
        "--cache", type=Path, default=DEFAULT_CACHE, help=f"where (default: {DEFAULT_CACHE})"
    )
    render.add_argument(
        "--config",
        type=Path,
        help="render at the volume of this config's [voice] section (default: 80 %%), "
        "in its [table] language if it names one (default: every language)",
    )
    render.add_argument("--volume", type=int, help="render at this volume in percent (0-100)")
    render.add_argument(
        "--lang",
        action="append",
        choices=i18n.LANGUAGES,
        help="only this language (repeatable; default: all)",
    )


def run(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    import sys

    out = out or sys.stdout
    volume = VoiceSettings().volume
    languages = args.lang or list(i18n.LANGUAGES)
    if args.config is not None:
        from controller.config import load_config

        config = load_config(args.config)
        volume = config.voice.volume
        if config.language is not None and not args.lang:
            languages = [config.language]  # the table speaks only this one
    if args.volume is not None:
        if not 0 <= args.volume <= 100:
            raise ValueError(f"--volume {args.volume}: allowed 0 to 100")
        volume = args.volume
    renderer = Renderer(args.cache, volume)
    before = {p.name for p in args.cache.glob("*.wav")}
    started = time.perf_counter()
    files = render_all(renderer, languages)
    seconds = time.perf_counter() - started
    unique = set(files)
    size = sum(path.stat().st_size for path in unique)
    new = len([p for p in unique if p.name not in before])
    out.write(
        f"{len(unique)} sentences in {args.cache} ({new} rendered now, {seconds:.1f} s; "
        f"{size / 1e6:.1f} MB, volume {volume} %)\n"
    )
    return 0
