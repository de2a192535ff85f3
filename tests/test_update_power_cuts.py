"""Power cuts during an update, counted: 20 SIGKILLs of a real ``spieltisch update apply``
at random moments of its phases (benchmarks/update_power_cuts.py runs 100). Every
"boot" after a cut must come up on one whole release, the old or the new, with the
config, the history and the save as they were (controller.testing.update_cuts)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from controller.testing.update_cuts import update_cuts

ROOT = Path(__file__).resolve().parent.parent
Record = Callable[[str, object], None]


def test_twenty_power_cuts_during_an_update_lose_nothing(
    tmp_path: Path, record_property: Record
) -> None:
    lines: list[str] = []
    stats = update_cuts(
        tmp_path,
        cuts=20,
        seed=5,
        config=(ROOT / "config.example.toml").read_text(encoding="utf-8"),
        report=lines.append,
    )
    record_property("update_power_cuts", stats.line())
    print(stats.line())  # shown with -rP or -s
    assert stats.problems == [], "\n".join(lines)
    assert stats.cuts == 20
    assert stats.on_old + stats.on_new == 20, "\n".join(lines)
    assert stats.data_lost == 0 and stats.broken_release == 0
    # the cuts reached both sides of the switch: before it (the first phase's cuts come
    # while the process starts) and after it (the restarting phase's)
    assert stats.on_old > 0 and stats.on_new > 0, "\n".join(lines)
    assert stats.phases["starting"] > 0
    assert len(stats.phases) >= 4, stats.line()
