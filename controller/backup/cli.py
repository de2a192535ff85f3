"""``spieltisch backup``: ``create FILE``, ``restore FILE`` and ``reset`` (factory reset).

Every refusal is one line and exit code 2, with nothing changed. ``restore`` and
``reset`` first write a backup of what they replace into the state directory's
``backups/`` and print where; the table must be restarted afterwards to use what was
restored (the page does that itself).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, Any

from controller.release.layout import KEYS_DIR

STATE_DIR = Path("/var/lib/spieltisch")
RESTART = "restart the table to use it: sudo systemctl restart spieltisch"


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    top = sub.add_parser("backup", help="back up, restore, or factory-reset the table")
    top.add_argument("--state-dir", type=Path, default=STATE_DIR, help="the state directory")
    top.add_argument(
        "--config",
        type=Path,
        default=Path("/etc/spieltisch/config.toml"),
        help="the table's config file",
    )
    top.add_argument("--keys", type=Path, help=f"trusted keys (default: {KEYS_DIR})")
    cmds = top.add_subparsers(dest="backup_command", required=True, metavar="COMMAND")
    make = cmds.add_parser("create", help="write the config, history, save and keys to FILE")
    make.add_argument("file", type=Path, help="the backup file to write (.tar.gz)")
    back = cmds.add_parser("restore", help="check FILE whole, then put it in place")
    back.add_argument("file", type=Path, help="the backup file to restore")
    reset = cmds.add_parser("reset", help="factory reset: config and history back to new")
    reset.add_argument("--yes", action="store_true", help="do it (without: only say what)")


def run(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    # imported here: every other command starts without the backup's imports
    from controller.backup.archive import (
        BackupError,
        BackupPlaces,
        create,
        factory_reset,
        restore,
    )

    # imported here: every other command starts without the backup's imports

    out = out or sys.stdout
    places = BackupPlaces(args.state_dir, args.config, args.keys or KEYS_DIR)
    try:
        if args.backup_command == "create":
            manifest = create(places, args.file)
            out.write(f"{args.file}: {', '.join(sorted(manifest['files'])) or 'nothing'}\n")
        elif args.backup_command == "restore":
            kept, manifest = restore(places, args.file)
            keys = ""
            if manifest.get("keys_kept"):
                keys = " (the trusted keys were left as they are: they could not be written here)"
            out.write(
                f"restored {args.file} (made {manifest.get('created')}){keys}; what it "
                f"replaced is in {kept}; {RESTART}\n"
            )
        elif not args.yes:
            out.write(
                "a factory reset returns the config and the history to new (a backup "
                "of both is kept); add --yes to do it\n"
            )
        else:
            kept = factory_reset(places)
            out.write(f"factory reset done; what it removed is in {kept}; {RESTART}\n")
    except BackupError as exc:
        sys.stderr.write(f"spieltisch backup: refused: {exc}\n")
        return 2
    return 0
