"""``spieltisch update``: build, trust, apply and watch update bundles.

* ``keygen PRIVATE PUBLIC``: a new Ed25519 key pair for signing bundles;
* ``bundle --key PRIVATE OUT``: a signed bundle from this checkout (or ``--checkout``),
  with wheels built for this machine's architecture and Python (``--wheels DIR`` takes
  wheels built already, e.g. on a Pi);
* ``trust PUBLIC``: the table trusts bundles signed by this key from now on;
* ``apply BUNDLE``: check, install beside, switch and restart (docs/install.md,
  "Updating"); ``--inbox`` takes the bundle the page left in the state directory;
* ``status``: the running release, the way back, the last update's outcome;
* ``check``, ``rollback``, ``confirm``: what the systemd units run (systemd/);
* ``migrate --name NAME``: turn an older install into the releases layout (install.sh);
* ``factory [DIR]``: on the card image, make ``current`` on the data partition point at
  the factory release on the read-only root when it names no release (a unit runs it at
  every start, before the table).

Every refusal is one line and exit code 2, with nothing changed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from controller.release.layout import (
    FACTORY,
    KEYS_DIR,
    PREFIX,
    SHIPPED_KEYS_DIR,
    LayoutError,
    ReleaseLayout,
    adopt_factory,
    migrate,
)

if TYPE_CHECKING:
    from controller.release import apply as updating

STATE_DIR = Path("/var/lib/spieltisch")


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    top = sub.add_parser("update", help="update bundles: build, trust, apply, status")
    top.add_argument("--prefix", type=Path, default=PREFIX, help="where releases live")
    top.add_argument("--state-dir", type=Path, default=STATE_DIR, help="the state directory")
    top.add_argument(
        "--keys", type=Path, help=f"trusted keys, where trust adds one (default: {KEYS_DIR})"
    )
    top.add_argument(
        "--shipped-keys",
        type=Path,
        default=SHIPPED_KEYS_DIR,
        help=f"keys an image ships read-only, trusted too (default: {SHIPPED_KEYS_DIR})",
    )
    top.add_argument(
        "--config",
        type=Path,
        default=Path("/etc/spieltisch/config.toml"),
        help="the config a new release must accept",
    )
    top.add_argument(
        "--systemctl", default="systemctl", help="the systemctl command (for tests and staging)"
    )
    top.add_argument(
        "--trial-dropin",
        type=Path,
        help="where the trial's start limit is written (default: in /run/systemd/system;"
        " for tests and staging)",
    )
    cmds = top.add_subparsers(dest="update_command", required=True, metavar="COMMAND")
    keygen = cmds.add_parser("keygen", help="make an Ed25519 key pair for signing bundles")
    keygen.add_argument("private", type=Path, help="the private key file to write (kept secret)")
    keygen.add_argument("public", type=Path, help="the public key file to write")
    bundle = cmds.add_parser("bundle", help="build a signed bundle from a checkout")
    bundle.add_argument("out", type=Path, help="the bundle file to write")
    bundle.add_argument("--key", type=Path, required=True, help="the private key (PEM)")
    bundle.add_argument(
        "--checkout", type=Path, default=Path("."), help="the checkout to build (default: here)"
    )
    bundle.add_argument("--wheels", type=Path, help="use the wheels in this directory")
    bundle.add_argument("--pure", action="store_true", help="do not compile the rules")
    trust = cmds.add_parser("trust", help="trust bundles signed with this public key")
    trust.add_argument("public", type=Path, help="the public key file (PEM)")
    trust.add_argument("--name", help="the key's name on the table")
    do = cmds.add_parser("apply", help="install a bundle beside the running release")
    source = do.add_mutually_exclusive_group(required=True)
    source.add_argument("bundle", type=Path, nargs="?", help="the bundle file")
    source.add_argument("--inbox", action="store_true", help="the bundle the page received")
    do.add_argument(
        "--no-restart", action="store_true", help="switch, but leave restarting to the caller"
    )
    do.add_argument("--python", help="the Python that makes the new venv (default: this one's)")
    status = cmds.add_parser("status", help="the running release and the last update")
    status.add_argument("--json", action="store_true", help="print JSON")
    chk = cmds.add_parser("check", help="confirm or roll back a release being tried")
    chk.add_argument("--settle", type=float, default=60.0, help="seconds READY to confirm")
    chk.add_argument(
        "--timeout",
        type=float,
        help="seconds to wait for READY before rolling back (default: ten minutes)",
    )
    back = cmds.add_parser("rollback", help="go back to the previous release")
    back.add_argument("--reason", default="asked for", help="the reason, in the notice")
    back.add_argument(
        "--if-trial",
        action="store_true",
        help="only while an update is being tried (the unit's OnFailure=)",
    )
    cmds.add_parser("confirm", help="keep the release being tried")
    mig = cmds.add_parser("migrate", help="move an older install into releases/NAME")
    mig.add_argument("--name", required=True, help="the release name to give the old install")
    factory = cmds.add_parser(
        "factory", help="start the factory release when no release is current (the card image)"
    )
    factory.add_argument(
        "factory", type=Path, nargs="?", default=FACTORY, help=f"the factory release ({FACTORY})"
    )


def places_of(args: argparse.Namespace) -> updating.UpdatePlaces:
    """The places as absolute paths: the new release's checks run from ``/``."""
    from controller.release import apply as updating

    return updating.UpdatePlaces(
        layout=ReleaseLayout(args.prefix.absolute()),
        state_dir=args.state_dir.absolute(),
        keys_dir=(args.keys or KEYS_DIR).absolute(),
        shipped_keys_dir=args.shipped_keys.absolute(),
        config=args.config.absolute(),
        systemctl=tuple(args.systemctl.split()),
        trial_dropin=(args.trial_dropin or updating.TRIAL_DROPIN).absolute(),
    )


def run(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    out = out or sys.stdout
    if args.update_command == "factory":
        # at every start of the card, before the table: nothing heavy is imported
        try:
            changed = adopt_factory(ReleaseLayout(args.prefix.absolute()), args.factory)
        except (LayoutError, OSError) as exc:
            sys.stderr.write(f"spieltisch update factory: {exc}\n")
            return 2
        out.write("".join(f"{line}\n" for line in changed) or "releases: nothing to do\n")
        return 0
    # imported here: every other command (``run`` above all) starts without cryptography
    from controller.release import apply as updating
    from controller.release import keys as keyring
    from controller.release.bundle import BundleError, build_bundle
    from controller.release.state_file import UpdateError

    places = places_of(args)
    command = args.update_command
    try:
        if command == "keygen":
            keyring.make_key_pair(args.private, args.public)
            out.write(
                f"private key: {args.private} (keep it secret)\npublic key: {args.public}"
                " (give it to tables: spieltisch update trust FILE)\n"
            )
        elif command == "bundle":
            manifest = build_bundle(
                args.checkout.resolve(),
                args.out,
                args.key,
                wheels_from=args.wheels,
                compile_rules=not args.pure,
            )
            rules = "compiled" if manifest["compiled"] else "pure Python"
            wheels = sum(1 for name in manifest["files"] if name.startswith("wheels/"))
            sources = len(manifest["files"]) - wheels
            out.write(
                f"{args.out}: release {manifest['release']} for {manifest['arch']}, "
                f"Python {manifest['python']}, {wheels} wheels, {sources} source files, "
                f"rules {rules}\n"
            )
        elif command == "trust":
            target = keyring.trust(args.public, places.keys_dir, args.name)
            out.write(f"trusted: {target}\n")
        elif command == "apply":
            out.write(_apply(args, places, _progress(out)) + "\n")
        elif command == "status":
            return _status(places, args.json, out)
        elif command == "check":
            out.write(
                updating.check(
                    places,
                    settle=args.settle,
                    timeout=updating.CHECK_TIMEOUT_S if args.timeout is None else args.timeout,
                )
                + "\n"
            )
        elif command == "rollback":
            state = updating.read_state(places) or {}
            if args.if_trial and state.get("phase") != "trial":
                out.write("no update is being tried: nothing to roll back\n")
                return 0
            out.write(updating.rollback(places, args.reason) + "\n")
        elif command == "confirm":
            out.write(updating.confirm(places) + "\n")
        elif command == "migrate":
            moved = migrate(places.layout, args.name)
            current = places.layout.current_name()
            out.write(
                f"moved the install into releases/{args.name}\n"
                if moved
                else f"nothing to migrate (current: {current})\n"
            )
    except (UpdateError, BundleError, LayoutError, keyring.KeyError_) as exc:
        sys.stderr.write(f"spieltisch update: refused: {exc}\n")
        return 2
    return 0


def _progress(out: IO[str]) -> Callable[[str], None]:
    """Each step on its own line as it begins, written through at once: the update
    unit's journal then shows where an update was when it stopped."""

    def say(step: str) -> None:
        out.write(f"{step}...\n")
        out.flush()

    return say


def _apply(
    args: argparse.Namespace, places: updating.UpdatePlaces, progress: Callable[[str], None]
) -> str:
    from controller.release import apply as updating
    from controller.release.state_file import UpdateError, write_json

    if not args.inbox:
        return updating.apply(
            args.bundle,
            places,
            python=args.python,
            restart=not args.no_restart,
            progress=progress,
        )
    # The page (the unprivileged service) left the upload here: move it out of the
    # service's reach before checking, so it cannot change while it is checked.
    inbox = places.inbox
    with tempfile.TemporaryDirectory() as work:
        taken = Path(work) / "bundle.tar"
        if inbox.is_symlink() or (inbox.exists() and not inbox.is_file()):
            raise UpdateError(f"{inbox} is not a plain file")
        try:
            shutil.move(str(inbox), taken)
        except FileNotFoundError:
            return "no bundle waiting in the inbox"
        try:
            return updating.apply(
                taken,
                places,
                python=args.python,
                restart=not args.no_restart,
                progress=progress,
            )
        except UpdateError as exc:
            # for the page and the panel: with its time, so the panel says a second
            # refusal too, and its kind, so each says it in its own language
            write_json(
                places.update_dir / updating.NOTICE_FILE,
                {
                    "text": f"update refused: {exc}",
                    "ok": False,
                    "time": time.time(),
                    "kind": "refused",
                    "reason": str(exc),
                },
            )
            raise


def _status(places: updating.UpdatePlaces, as_json: bool, out: IO[str]) -> int:
    from controller.release import apply as updating

    info = updating.status(places)
    if as_json:
        out.write(json.dumps(info, indent=1, sort_keys=True) + "\n")
        return 0
    out.write(f"running: {info['current'] or 'no release (not a releases install)'}\n")
    out.write(f"way back: {info['previous'] or 'none'}\n")
    state = info["state"] or {}
    if state.get("phase") == "trial":
        out.write(f"being tried: {state.get('to')} (from {state.get('from')})\n")
    notice = info["notice"]
    if notice:
        out.write(f"last update: {notice.get('text')}\n")
    keys = ", ".join(info["trusted_keys"]) or "none"
    out.write(f"trusted keys: {keys}\n")
    return 0
