"""Games per CPU-second, for this checkout and optionally a compiled build, side by side.

The throughput scripts (``rules_throughput.py``, ``backgammon_throughput.py``) describe
their cases as functions that play one whole game from a seeded RNG; this module times
them. Two choices make the figures comparable on a shared, noisy 2-core machine:

* the clock is the *process CPU time* (``time.process_time``), not wall time: another
  process taking the core away does not count against the case being measured;
* every case runs in short alternating slices (``rounds`` per case), so pure, compiled
  and peer meet the same machine state, and ratios from one run stay meaningful.

A compiled build (``--compiled DIR``: a directory with a mypyc-compiled ``rules``
package, e.g. ``pip install --target DIR .`` with ``SPIELTISCH_COMPILE=1``) cannot share
a process with this checkout's pure ``rules``, so it runs in a :class:`Worker`
subprocess with ``DIR`` first on ``sys.path``; the worker builds the same cases from the
same script and measures them with the same code on request.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO

Case = Callable[[random.Random], object]
"""Plays one whole game with the RNG it is given (same RNG state, same game)."""

BENCHMARKS = Path(__file__).resolve().parent


def run_slice(case: Case, rng: random.Random, seconds: float) -> tuple[int, float]:
    """Whole games until ``seconds`` of process CPU time have passed: (games, seconds).

    At least one game is always played, so a slow case still reports a rate."""
    games = 0
    start = time.process_time()
    while True:
        case(rng)
        games += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return games, spent


class Local:
    """Cases run in this process; each keeps its own RNG across slices."""

    def __init__(self, cases: Mapping[str, Case]) -> None:
        self.cases = dict(cases)
        self._rngs: dict[str, random.Random] = {}

    def names(self) -> list[str]:
        return list(self.cases)

    def run(self, name: str, seconds: float) -> tuple[int, float]:
        case = self.cases[name]
        rng = self._rngs.get(name)
        if rng is None:
            case(random.Random(0))  # first call fills caches, outside the measurement
            rng = self._rngs[name] = random.Random(1)
        return run_slice(case, rng, seconds)

    def close(self) -> None:
        pass


class Worker:
    """The same cases, built in a subprocess that imports ``rules`` from ``build``.

    ``module`` (a script in benchmarks/) and ``factory`` name the function that builds
    the cases; the worker runs :func:`worker_main` and answers one JSON line per slice.
    """

    def __init__(self, build: Path, module: str, factory: str) -> None:
        self.build = build
        self._proc = subprocess.Popen(
            [sys.executable, str(BENCHMARKS / "measure.py"), str(build), module, factory],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        hello = self._receive()
        self.compiled: list[str] = hello["compiled"]
        self.modules: int = hello["modules"]
        self._names: list[str] = hello["cases"]

    def names(self) -> list[str]:
        return list(self._names)

    def _receive(self) -> dict[str, object]:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            # The worker said why on stderr (no compiled modules, an import error).
            raise SystemExit(f"the worker for {self.build} stopped")
        answer: dict[str, object] = json.loads(line)
        return answer

    def run(self, name: str, seconds: float) -> tuple[int, float]:
        stdin = self._proc.stdin
        assert stdin is not None
        stdin.write(json.dumps({"case": name, "seconds": seconds}) + "\n")
        stdin.flush()
        answer = self._receive()
        games, spent = answer["games"], answer["seconds"]
        assert isinstance(games, int) and isinstance(spent, float)
        return games, spent

    def close(self) -> None:
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        self._proc.wait(timeout=30)


Runner = Local | Worker


def interleaved(
    lines: Mapping[str, tuple[Runner, str]], seconds: float, rounds: int = 5
) -> dict[str, float]:
    """Games per CPU-second of each line (a runner and one of its cases), measured in
    ``rounds`` alternating slices of ``seconds / rounds`` each."""
    games = dict.fromkeys(lines, 0)
    spent = dict.fromkeys(lines, 0.0)
    for _ in range(rounds):
        for label, (runner, name) in lines.items():
            g, s = runner.run(name, seconds / rounds)
            games[label] += g
            spent[label] += s
    return {label: games[label] / spent[label] for label in lines}


def compiled_modules() -> tuple[list[str], int]:
    """The imported ``rules`` modules that are extension modules, and how many there are
    in all: proof that a compiled build, not the source beside it, is being measured."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    ours = [m for name, m in sys.modules.items() if name == "rules" or name.startswith("rules.")]
    compiled = sorted(
        m.__name__ for m in ours if str(getattr(m, "__file__", "")).endswith(suffixes)
    )
    return compiled, len(ours)


def worker_main(build: str, module: str, factory: str, out: IO[str]) -> int:
    """Import ``rules`` from ``build`` before anything else can import it from this
    checkout (the scripts put the checkout on ``sys.path`` themselves), then serve
    slices read from stdin."""
    sys.path.insert(0, str(Path(build).resolve()))
    import rules  # noqa: F401  (the compiled package, now fixed in sys.modules)

    importlib.import_module("rules.playout")
    sys.path.insert(1, str(BENCHMARKS))
    cases: Mapping[str, Case] = getattr(importlib.import_module(module), factory)()
    compiled, total = compiled_modules()
    if not compiled:
        print(f"{build} holds no compiled rules modules", file=sys.stderr)
        return 1
    local = Local(cases)
    out.write(json.dumps({"cases": local.names(), "compiled": compiled, "modules": total}) + "\n")
    out.flush()
    for line in sys.stdin:
        request = json.loads(line)
        games, spent = local.run(request["case"], request["seconds"])
        out.write(json.dumps({"games": games, "seconds": spent}) + "\n")
        out.flush()
    return 0


def report(
    cases: Mapping[str, Case],
    peers: Mapping[str, Case],
    ratios: Mapping[str, tuple[str, str]],
    seconds: float,
    compiled: Path | None,
    module: str,
    factory: str,
) -> dict[str, tuple[float, float | None]]:
    """Measure and print a table: per case, pure and compiled games per CPU-second and
    compiled/pure; per peer its rate. ``ratios`` maps a case to (reference, text): the
    reference is a peer or another case (then pure is compared with pure, compiled
    with compiled), the text is printed after the ratio.

    ``module`` and ``factory`` name the function that builds ``cases``, for the worker
    (see :class:`Worker`). Returns case or peer -> (pure rate, compiled rate or None).
    """
    pure = Local(cases)
    others = Local(peers)
    worker = Worker(compiled, module, factory) if compiled is not None else None
    lines: dict[str, tuple[Runner, str]] = {}
    for label in peers:
        lines["peer " + label] = (others, label)
    for name in cases:
        lines["pure " + name] = (pure, name)
        if worker is not None:
            lines["compiled " + name] = (worker, name)
    print(f"python {sys.version.split()[0]}, games per CPU-second, {seconds:g} s of CPU per line")
    if worker is not None:
        done = f"{len(worker.compiled)} of {worker.modules} rules modules compiled"
        print(f"compiled build: {compiled} ({done})")
    try:
        rates = interleaved(lines, seconds)
    finally:
        if worker is not None:
            worker.close()
    out: dict[str, tuple[float, float | None]] = {}
    for label in peers:
        out[label] = (rates["peer " + label], None)
    for name in cases:
        out[name] = (rates["pure " + name], rates.get("compiled " + name))
    width = max(len(n) for n in out) + 2
    title = f"{'':{width}s} {'pure':>9s}"
    if worker is not None:
        title += f" {'compiled':>9s} {'c/p':>6s}"
    print(title + "   ratio to reference" + (" (pure / compiled)" if worker else ""))
    for label in peers:
        print(f"{label:{width}s} {out[label][0]:9.1f}  (peer)")
    for name in cases:
        p, c = out[name]
        row = f"{name:{width}s} {p:9.1f}"
        if c is not None:
            row += f" {c:9.1f} {c / p:5.2f}x"
        if name in ratios and ratios[name][0] in out:
            reference, text = ratios[name]
            ref_pure, ref_compiled = out[reference]
            row += f"   {p / ref_pure:5.2f}x"
            if c is not None:
                row += f" / {c / (ref_compiled or ref_pure):5.2f}x"
            row += " " + text
        print(row)
    return out


if __name__ == "__main__":
    sys.exit(worker_main(sys.argv[1], sys.argv[2], sys.argv[3], sys.stdout))
