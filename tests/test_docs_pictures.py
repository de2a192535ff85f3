"""Every picture in ``docs/img`` is what ``tests/docs_pictures.py`` draws from the
program as it is, pixel for pixel, and every picture the docs show is one of them.

When a change to a view, the window, the terminal or the table's timing changes a
picture, this fails; ``.venv/bin/python -m tests.docs_pictures`` draws them anew (look
at them before committing).
"""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image, ImageChops

from tests.docs_pictures import DOCS, differs, pictures
from tests.terminal_screen import MONO

ROOT = DOCS.parent.parent


def test_every_committed_picture_is_what_the_script_draws() -> None:
    drawn = pictures()
    committed = sorted(p.name for p in DOCS.glob("*.png"))
    assert committed == sorted(drawn), "docs/img holds a picture the script does not draw"
    stale = []
    if not MONO.exists():  # its text is drawn in this font; without it, all but it
        drawn.pop("sim_terminal.png")
    for name, draw in sorted(drawn.items()):
        image = draw().convert("RGB")
        with Image.open(DOCS / name) as picture:
            on_disk = picture.convert("RGB")
        if on_disk.size != image.size or ImageChops.difference(on_disk, image).getbbox():
            stale.append(name)
    assert stale == [], (
        f"out of date: {', '.join(stale)}; draw them with `python -m tests.docs_pictures`"
    )


def test_every_picture_the_docs_show_is_drawn() -> None:
    """Every picture the docs show is drawn by the script, except the companion page's
    screenshots (``img/web/``): a real browser takes those, in tests/test_web_browser.py
    and tests/test_web_phone.py (``SPIELTISCH_SCREENSHOTS=docs/img/web``), so they only
    have to exist."""
    drawn = set(pictures())
    shown = set()
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for link in re.findall(r"\]\(((?:docs/)?img/[^)]+\.png)\)", doc.read_text()):
            if link.startswith("img/web/"):
                assert (doc.parent / link).is_file(), link
                continue
            shown.add(Path(link).name)
    assert shown and shown <= drawn


def test_the_script_finds_a_picture_out_of_date(tmp_path: Path) -> None:
    """``--check`` says which picture differs, and drawing it again makes it current."""
    from tests.docs_pictures import main

    Image.new("RGB", (256, 256), (255, 0, 255)).save(tmp_path / "menu_16x16.png")
    assert main(["--check", "--dir", str(tmp_path), "menu_16x16.png"]) == 1
    assert main(["--dir", str(tmp_path), "menu_16x16.png"]) == 0
    assert main(["--check", "--dir", str(tmp_path), "menu_16x16.png"]) == 0
    with Image.open(DOCS / "menu_16x16.png") as committed:
        assert not differs(tmp_path / "menu_16x16.png", committed)
