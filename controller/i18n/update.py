"""Brings the catalogs up to date with the source: ``python -m controller.i18n.update``.

A maintainer's tool, not part of the running table (it needs Babel, a test dependency):

1. extracts every text marked with ``_``, ``ngettext``, ``pgettext`` or ``N_`` from
   ``controller/`` and ``hardware/`` into ``locale/spieltisch.pot``;
2. merges it into each language's ``.po``, so new texts appear there untranslated and
   texts no longer used are dropped;
3. compiles each ``.po`` into the ``.mo`` that ships.

``--check`` changes nothing and exits 1 if any of the three files would change, or if a
catalog has a missing or fuzzy entry: what the tests and CI run.
"""

from __future__ import annotations

import argparse
import io
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from controller.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = LOCALE_DIR.parents[2]
SOURCES = ("controller", "hardware")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
HEADER = "# The words of the spieltisch table, from its source (python -m controller.i18n.update)."
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""Dates in the headers stay fixed, so that an unchanged source gives unchanged files."""


def extract() -> Catalog:
    """The template: every marked text in the source, with where it is used."""
    template = Catalog(
        project="spieltisch",
        version="",
        domain=DOMAIN,
        charset="utf-8",
        fuzzy=False,
        header_comment=HEADER,
        msgid_bugs_address="",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
    )
    for folder in SOURCES:
        found = extract_from_dir(
            ROOT / folder,
            method_map=[("**/testing/**.py", "ignore"), ("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=("Translators:",),
        )
        for filename, lineno, message, comments, context in found:
            where = f"{folder}/{filename}"
            template.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return template


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=88, omit_header=False, sort_output=True, include_lineno=False)
    return out.getvalue()


def _mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def problems(catalog: Catalog, language: str) -> list[str]:
    """Entries a player would meet in English or half-translated."""
    found = []
    for message in catalog:
        if not message.id:
            continue
        shown = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            found.append(f"{language}: fuzzy: {shown!r}")
        elif not all(strings):
            found.append(f"{language}: missing: {shown!r}")
    return found


def plan() -> tuple[dict[Path, bytes], list[str]]:
    """What each catalog file should hold now, and the entries still to translate."""
    template = extract()
    wanted = {TEMPLATE: _po_bytes(template)}
    todo: list[str] = []
    for language in LANGUAGES:
        if language == "en":
            continue
        po_path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        with po_path.open("rb") as handle:
            catalog = read_po(handle, locale=language, domain=DOMAIN)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.revision_date = FIXED_DATE
        catalog.obsolete.clear()
        wanted[po_path] = _po_bytes(catalog)
        wanted[po_path.with_suffix(".mo")] = _mo_bytes(catalog)
        todo += problems(catalog, language)
    return wanted, todo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m controller.i18n.update")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    wanted, todo = plan()
    stale = [
        path for path, data in wanted.items() if not path.exists() or path.read_bytes() != data
    ]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is not current: run python -m controller.i18n.update")
        for line in todo:
            print(line)
        return 1 if stale or todo else 0
    for path in stale:
        path.write_bytes(wanted[path])
        print(f"wrote {path.relative_to(ROOT)}")
    for line in todo:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
