"""Does the companion page answer a phone while slow clients attack it?

Run by hand (the load test in ``tests/test_web_load.py`` runs the same attacks, shorter):

    .venv/bin/python benchmarks/web_slow_clients.py [--seconds 60] [--gap 3] [--sources 1]

Starts the real server with its real limits (10 s per request, 128 connections, 32 per
client address) and runs two attacks one after the other, from ``--sources`` addresses
(127.0.0.2, 127.0.0.3, ...; the phone is 127.0.0.1): 128 connections that send
complete headers announcing a 16 000-byte body and then one byte every ``--gap``
seconds, and 150 connections that drip a header line every ``--gap`` seconds. Both
reconnect whenever the server drops one. Meanwhile a phone makes one GET of
``/api/state`` on a fresh connection per drip round. Reported per attack: the phone's
requests answered, and what the server did with the attackers (dropped as too slow,
closed to make room, refused).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from arguments import counted, seconds_type  # noqa: E402

from controller.events import EventQueue  # noqa: E402
from controller.testing.slow_clients import Attack, normal_request  # noqa: E402
from controller.web.publish import FramePublisher  # noqa: E402
from controller.web.server import WebServer  # noqa: E402

ATTACKS = (("slow body", "body", 128), ("header drip", "headers", 150))


def run(name: str, kind: str, count: int, seconds: float, gap: float, sources: int) -> bool:
    server = WebServer(FramePublisher(16, 16), EventQueue(), 0, "127.0.0.1").start()
    addresses = tuple(f"127.0.0.{i + 2}" for i in range(sources))
    attack = Attack(server.port, kind, count, addresses, gap).start()
    statuses: list[int] = []
    try:
        attack.wait_rounds(2)
        first = attack.rounds
        while attack.rounds < first + max(1, round(seconds / gap)):
            statuses.append(normal_request(server.port))
            attack.wait_rounds(attack.rounds + 1)
    finally:
        attack.stop()
        counter = server.counter
        server.stop()
    answered = statuses.count(200)
    seen = ", ".join(f"{status or 'no answer'}: {n}" for status, n in Counter(statuses).items())
    print(
        f"{name} ({count} connections from {sources} address(es), a drip every {gap:g} s,"
        f" {seconds:g} s): {answered} of {len(statuses)} normal requests answered ({seen})"
    )
    print(
        f"  server: {getattr(counter, 'too_slow', '?')} dropped as too slow,"
        f" {getattr(counter, 'evicted', '?')} closed to make room,"
        f" {getattr(counter, 'refused', '?')} refused; the attack opened"
        f" {attack.counts.connected}, {attack.counts.refused} of them answered 503"
    )
    return answered == len(statuses)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=seconds_type, default=60.0)
    parser.add_argument("--gap", type=seconds_type, default=3.0)
    parser.add_argument("--sources", type=counted(1, 200), default=1)
    args = parser.parse_args()
    results = [
        run(name, kind, count, args.seconds, args.gap, args.sources)
        for name, kind, count in ATTACKS
    ]
    print("every normal request answered" if all(results) else "normal requests went unanswered")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
