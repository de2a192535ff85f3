"""Ship a published match equity table as Backgammon package data, with its provenance.

Reads a match equity table in GNU Backgammon's XML format (Debian's ``gnubg`` installs
them under ``/usr/share/gnubg/met/``; the default is Neil Kazaross's XG2 table, rolled
out with eXtreme Gammon to 9 points and GNU Backgammon to 15, extended to 25) and writes
``rules/backgammon/met.json`` plus its ``.provenance.json`` sidecar, which names the
source file, its sha256 and its copyright line.

    python benchmarks/make_met.py [--source /usr/share/gnubg/met/Kazaross-XG2.xml]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from rules.data import provenance_name, provenance_record

DEFAULT = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")
OUT = Path(__file__).resolve().parent.parent / "rules" / "backgammon" / "met.json"


def rows(table: ET.Element) -> list[list[float]]:
    return [[float(me.text or "nan") for me in row.findall("me")] for row in table.findall("row")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    raw = args.source.read_bytes()
    root = ET.fromstring(re.sub(rb"<!DOCTYPE[^>]*>", b"", raw))
    name = root.findtext("info/name") or args.source.stem
    pre = rows(root.find("pre-crawford-table"))  # type: ignore[arg-type]
    post_table = root.find("post-crawford-table")
    assert post_table is not None
    post = rows(post_table)[0]
    copyright_line = next(
        (line.strip() for line in raw.decode("utf-8").splitlines() if "Copyright" in line), ""
    )
    data = {
        "name": name,
        "description": root.findtext("info/description") or "",
        "pre_crawford": pre,
        "post_crawford_trailer": post,
    }
    blob = (json.dumps(data, separators=(",", ":")) + "\n").encode("utf-8")
    args.out.write_bytes(blob)
    args.out.with_name(provenance_name(args.out.name)).write_text(
        provenance_record(
            blob,
            (
                "python benchmarks/make_met.py " + " ".join(sys.argv[1:] if argv is None else argv)
            ).strip(),
            what=(
                "match equity table (rules/backgammon/met.py): pre_crawford[i][j] is the "
                "chance that a side i + 1 points away beats one j + 1 away; "
                "post_crawford_trailer[j] that a side j + 1 away beats a side 1 away "
                "after the Crawford game"
            ),
            source={
                "file": str(args.source),
                "from": "GNU Backgammon 1.07 (Debian package gnubg)",
                "table": name,
                "copyright": copyright_line,
                "sha256": hashlib.sha256(raw).hexdigest(),
            },
        ),
        encoding="utf-8",
    )
    print(f"{args.out}: {name}, {len(pre)} x {len(pre[0])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
