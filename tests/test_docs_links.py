"""The README and the pages in docs/ link to files and headings that exist.

The reference material moved out of the README into docs/, one directory down, so every
relative link and image path in it was rewritten by hand; a renamed file or heading would
otherwise break a page silently. Links to the web are not followed (no network in tests).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(
    [
        ROOT / "README.md",
        ROOT / "wiring.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "firmware").glob("*.md"),
    ]
)

# [text](target) and ![alt](target); the text may hold inline code but no brackets.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def prose(text: str) -> str:
    """The text without code: shell lines and JSON in code look like links but are not."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def links(page: Path) -> list[str]:
    return LINK.findall(prose(page.read_text(encoding="utf-8")))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading).strip().lower()
    kept = "".join(char for char in text if char in " -_" or unicodedata.category(char)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(heading) for heading in HEADING.findall(prose(page.read_text(encoding="utf-8")))}


def relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target)


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def test_the_pages_are_found() -> None:
    names = {page_id(page) for page in PAGES}
    assert {"README.md", "docs/architecture.md", "docs/games.md", "docs/json.md"} <= names
    assert {"docs/install.md", "docs/bots.md", "docs/benchmarks.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_relative_link_and_image_exists(page: Path) -> None:
    missing = [
        target
        for target in links(page)
        if relative(target)
        and target.split("#", 1)[0]
        and not (page.parent / target.split("#", 1)[0]).exists()
    ]
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_anchor_names_a_heading(page: Path) -> None:
    broken = []
    for target in links(page):
        if not relative(target) or "#" not in target:
            continue
        path, anchor = target.split("#", 1)
        linked = (page.parent / path) if path else page
        if linked.suffix == ".md" and linked.exists() and anchor not in anchors(linked):
            broken.append(target)
    assert broken == []


def test_readme_links_every_docs_page() -> None:
    """The README's "where to go next" is the way into the reference pages."""
    readme = set(links(ROOT / "README.md"))
    wanted = {f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")}
    wanted |= {"wiring.md", "firmware/README.md"}
    assert sorted(wanted - readme) == []


def test_readme_shows_the_test_command_ci_runs() -> None:
    """CI runs exactly the command the README gives newcomers, so the two cannot drift."""
    command = (
        "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]'"
        " && .venv/bin/python -m pytest"
    )
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert command in readme.splitlines()[:30]


def test_link_pattern_reads_links_and_images_but_not_code(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "See [the rules](games.md#backgammon) and ![a frame](img/menu_16x16.png).\n"
        "Inline `[not](a-link.md)` is code.\n"
        "```sh\necho '[x](fenced.md)'\n```\n"
        '[the web](https://example.org/x.md) and [a title](install.md "Install")\n',
        encoding="utf-8",
    )
    found = links(page)
    assert found == [
        "games.md#backgammon",
        "img/menu_16x16.png",
        "https://example.org/x.md",
        "install.md",
    ]
    assert [target for target in found if relative(target)] == [
        "games.md#backgammon",
        "img/menu_16x16.png",
        "install.md",
    ]


def test_slug_follows_githubs_anchors() -> None:
    assert slug("Install on a Raspberry Pi") == "install-on-a-raspberry-pi"
    assert slug("Time: the picture lives in time") == "time-the-picture-lives-in-time"
    assert slug("MÄDN family state") == "mädn-family-state"
    assert slug("`kleiner_aerger` presets") == "kleiner_aerger-presets"
    assert slug("Mensch ärgere dich nicht, classic rules") == (
        "mensch-ärgere-dich-nicht-classic-rules"
    )
