"""The repository explains itself: no comment, docstring, message or doc cites what a
reader of it cannot open.

A private design document's section numbers, numbers on an issue tracker, the file names
of the German rule texts and remarks about the order things were built in all point
outside the repository. Code, tests and docs say what they mean instead, or link into
``docs/``. Upstream trackers are fine when the project is named ("gpiozero" before the
issue number): that is a link anyone can follow.

Like the layering tests this reads the files, so a citation fails here whether or not
any test runs the line. The examples below are cut in two and joined at run time, so that a
plain ``grep`` over the repository finds no citation in this file either.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = (
    "rules",
    "controller",
    "hardware",
    "firmware",
    "systemd",
    "benchmarks",
    "docs",
    "tests",
    "README.md",
    "config.example.toml",
    "wiring.md",
)
"""The product, its docs and its tests: everything a reader of the repository reads."""

CITATIONS: dict[str, re.Pattern[str]] = {
    "the design document": re.compile(r"\bDESIGN\b"),
    "an issue number": re.compile(r"\b[Ii]ssues?\s*#?\d+"),
    "a tracker number": re.compile(
        r"\b(?:PRs?|[Pp]ull\s+requests?|[Ff]ix(?:es|ed)?|[Cc]loses?|[Rr]esolves?|[Ss]ee)\s+#\d+"
        r"|[(\[]#\d{1,4}[)\]]"
    ),
    "a rule text's number": re.compile(r"\b[Ss]eeds?\s+00\d\b"),
    "a rule text's file name": re.compile(r"\b00\d_(?:[0-9a-f]{16}|\*)\.txt\b"),
    "the rule texts as seeds": re.compile(r"\bseed\s+(?:texts?|rules?)\b|\bthe\s+seed's|\bseeds/"),
    "a build-order remark": re.compile(r"\bas\s+games\s+land\b|\bmissing\s+in\s+this\s+checkout\b"),
}
"""What counts as a citation. ``#`` followed by digits is one only in a tracker's sense
("fixes #N", "(#N)"): a seat number in a table or a hex colour is not."""

UPSTREAM = re.compile(
    r"\b(?:gpiozero|luma(?:\.[\w.]+)?|transitions|pyserial|lgpio|rpi_ws281x|MicroPython"
    r"|micropython|CPython|systemd|GNU\s+Backgammon|gnubg|python-chess|OpenSpiel)\s+$"
)
"""A project named right before an issue number: a citation of its own public tracker."""

STILL_TO_SWEEP: frozenset[str] = frozenset()
"""Files that still cite and are being rewritten in other changes. This list only
shrinks: once a file is clean the test below asks for its removal, and at the end it is
empty."""

SKIPPED_PARTS = {"__pycache__"}


def citations_in(text: str) -> list[str]:
    """Every citation in ``text`` as "line: what (the matched words)"."""
    found: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for what, pattern in CITATIONS.items():
            for match in pattern.finditer(line):
                if what.startswith(("an issue", "a tracker")) and UPSTREAM.search(
                    line[: match.start()]
                ):
                    continue
                found.append(f"{number}: {what} ({match.group()!r})")
    return found


def text_files() -> dict[str, str]:
    """The scanned files that are text, by path relative to the repository root. Binary
    files (golden PNGs, shipped tables) and caches are left out; so is this file, whose
    patterns would match themselves."""
    paths: list[Path] = []
    for name in SCANNED:
        top = ROOT / name
        paths += [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
    files: dict[str, str] = {}
    for path in paths:
        relative = path.relative_to(ROOT)
        if path == Path(__file__).resolve() or any(
            part.startswith(".") or part in SKIPPED_PARTS for part in relative.parts
        ):
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            files[relative.as_posix()] = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return files


def test_no_citation_points_outside_the_repository() -> None:
    offenders = {
        path: found
        for path, text in text_files().items()
        if path not in STILL_TO_SWEEP and (found := citations_in(text))
    }
    assert offenders == {}, (
        "say what is meant, or link into docs/, instead of citing: "
        + "; ".join(f"{path}:{found}" for path, found in offenders.items())
    )


def test_files_still_to_sweep_still_need_it() -> None:
    """The allow-list only shrinks: a file that is gone or clean must leave it."""
    files = text_files()
    done = sorted(path for path in STILL_TO_SWEEP if not citations_in(files.get(path, "")))
    assert done == [], f"clean or gone, remove from STILL_TO_SWEEP: {done}"


def spliced(*parts: str) -> str:
    """Concatenate ``parts``; the examples are cut in two so that no citation stands
    whole in this file (see the module docstring)."""
    return "".join(parts)


@pytest.mark.parametrize(
    "text",
    [
        spliced("threads (DESIGN", " §3)"),
        spliced("see DESIGN", ".md"),
        spliced("(issue", " 7)"),
        spliced("Issue", " 9, item 4:"),
        spliced("fixed in issue #", "14"),
        spliced("fixes #", "12"),
        spliced("the cube works now (#", "31)"),
        spliced("Seed", " 003:"),
        spliced("Mini-Maki (seed", " 004)"),
        spliced("from 004", "_b7a0a27589a3e397.txt"),
        spliced("see 000", "_*.txt"),
        spliced("the seed", "'s rule"),
        spliced("engines may be missing in this", " checkout"),
        spliced("more views as games", " land"),
    ],
)
def test_citations_are_found(text: str) -> None:
    assert citations_in(text) != []


@pytest.mark.parametrize(
    "text",
    [
        spliced("names another (gpiozero issue #", "1106)"),
        spliced("luma.led_matrix issue #", "250"),
        "| seat 1 OK/ROLL | 17 | 11 | `[[seats]]` #1 `ok` |",
        'fill = "#ff8800"  # a hex colour, also "#123" and "#abc"',
        "rules play minimaki --games 200 --seed 3",
        "random.Random(seed) with seed=5",
        "the issue is that the panel is dark",
        "the design of the views",
    ],
)
def test_other_hashes_numbers_and_words_are_not_citations(text: str) -> None:
    assert citations_in(text) == []
