"""``spieltisch appliance first-boot|network``: the image's first start, run by systemd.

``first-boot`` applies the boot partition's settings file (before the table starts, so
the panel and the language are in its config) and leaves its problems for the panel.
``network`` is the supervisor: a known network, else the hotspot and its setup page.
Both run as root in their own units (``systemd/image/``); the table never waits on them.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import logging
import os
import signal
import socket
import threading
from pathlib import Path
from typing import Any

from controller.appliance import ram_data
from controller.appliance import status as status_file
from controller.appliance import supervisor as supervisor_module

log = logging.getLogger("spieltisch.appliance")

DATA_DIR = Path("/var/lib/spieltisch-boot")
"""Root's own record of what was applied, and the SSH key: persistent (the image keeps it
on the data partition), and not under the table's state directory, which systemd hands
to the table's user (sshd refuses a key file such a user could change)."""
CONFIG = Path("/etc/spieltisch/config.toml")
GRACE_S = 600.0
"""How long the setup page stays up after a join, so the phone finds it at the new
address; after that only the companion page listens."""


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    from controller.appliance.settings_file import DEFAULT_PATH

    p = sub.add_parser("appliance", help="the image's first start (systemd runs these)")
    actions = p.add_subparsers(dest="appliance_command", required=True, metavar="ACTION")
    first = actions.add_parser("first-boot", help="apply the boot partition's settings file")
    first.add_argument("--settings", type=Path, default=DEFAULT_PATH, help="the settings file")
    first.add_argument("--config", type=Path, default=CONFIG, help="the table's config")
    first.add_argument("--data", type=Path, default=DATA_DIR, help="the data directory")
    first.add_argument(
        "--status", type=Path, default=status_file.DEFAULT_PATH, help="where the panel reads"
    )
    first.add_argument("--fake", action="store_true", help="change nothing outside the files")
    first.add_argument(
        "--data-marker",
        type=Path,
        default=ram_data.MARKER,
        help="there when the data partition is in RAM: the Wi-Fi password then stays",
    )
    net = actions.add_parser("network", help="known Wi-Fi, else a hotspot and setup page")
    net.add_argument(
        "--status", type=Path, default=status_file.DEFAULT_PATH, help="where the panel reads"
    )
    net.add_argument("--config", type=Path, default=CONFIG, help="the table's config")
    net.add_argument("--port", type=int, default=80, help="the setup page's port")
    net.add_argument("--device", default="", help="the Wi-Fi device (default: NM's first)")
    net.add_argument(
        "--wait",
        type=float,
        default=supervisor_module.WAIT_S,
        metavar="S",
        help="seconds a known network gets before the hotspot opens",
    )
    net.add_argument("--name", help="the hotspot's name (default: from the host name)")


def hotspot_name(hostname: str, machine_id: str = "") -> str:
    """``spieltisch-3f9a``: the card's own host name when the image gave it its suffix,
    else a suffix from the machine id (made per card at first boot)."""
    if hostname.startswith("spieltisch-") and len(hostname) <= 32:
        return hostname
    digest = hashlib.sha256((machine_id or hostname).encode()).hexdigest()[:4]
    return f"spieltisch-{digest}"


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.appliance_command == "first-boot":
        return first_boot(args)
    return network(args)


def first_boot(args: argparse.Namespace) -> int:
    from controller import i18n
    from controller.appliance import first_boot as steps
    from controller.appliance import settings_file

    # The problems are shown on the panel: in the language the card asks for, else the
    # table's, else the locale's.
    wanted = settings_file.read(args.settings).settings.language or table_language(args.config)
    i18n.use(wanted or i18n.language_from_environment(os.environ))
    system: steps.System = steps.FakeSystem() if args.fake else steps.Commands()
    # the ws2812 panel's root drop-in goes to /run: a change to the running system, which
    # --fake leaves alone
    dropin = None if args.fake else steps.PANEL_DROPIN
    in_ram = ram_data.reason(args.data_marker) is not None
    paths = steps.Paths(
        args.settings, args.config, args.data, panel_dropin=dropin, data_in_ram=in_ram
    )
    problems = steps.apply(paths, system)
    previous = status_file.read(args.status) or status_file.NetworkStatus()
    shown = status_file.NetworkStatus(previous.state, problems=tuple(problems))
    status_file.write(args.status, shown)
    return 0


def table_language(config: Path) -> str | None:
    from controller.config import ConfigError, load_config

    try:
        return load_config(config).language
    except ConfigError:
        return None


def network(args: argparse.Namespace) -> int:
    from controller.appliance.network import Nmcli
    from controller.appliance.portal import Portal

    try:
        machine_id = Path("/etc/machine-id").read_text(encoding="ascii").strip()
    except OSError:
        machine_id = ""
    name = args.name or hotspot_name(socket.gethostname(), machine_id)
    earlier = status_file.read(args.status)
    problems = earlier.problems if earlier is not None else ()
    supervisor = supervisor_module.Supervisor(
        Nmcli(args.device),
        name,
        lambda status: status_file.write(args.status, status),
        wait_s=args.wait,
        problems=problems,
    )
    stop = threading.Event()
    thread = threading.Thread(target=supervisor.run, args=(stop,), name="supervisor")
    thread.start()
    portal = Portal(
        supervisor, language=table_language(args.config), on_use=supervisor.note_page_use
    )
    try:
        asyncio.run(serve(portal, args.port, supervisor, stop))
    finally:
        stop.set()
        supervisor.wake.set()
        thread.join(120)
    return 0


class PageSchedule:
    """When the setup page listens: in the hotspot and while joining, and for
    :data:`GRACE_S` after the table went online from there (so the phone finds the page
    at the new address). Not while a known network is being waited for, nor once the
    table is simply online: then only the companion page listens."""

    def __init__(self, grace_s: float = GRACE_S) -> None:
        self.grace_s = grace_s
        self.from_hotspot = False
        self.online_since: float | None = None

    def wanted(self, state: str, now: float) -> bool:
        from controller.appliance.status import HOTSPOT, JOINING, ONLINE

        if state in (HOTSPOT, JOINING):
            self.from_hotspot, self.online_since = True, None
            return True
        if state != ONLINE:
            self.from_hotspot, self.online_since = False, None
            return False
        if self.online_since is None:
            self.online_since = now
        return self.from_hotspot and now - self.online_since < self.grace_s


async def serve(
    portal: Any, port: int, supervisor: supervisor_module.Supervisor, stop: threading.Event
) -> None:
    """The page as :class:`PageSchedule` says, until ``stop``."""
    from aiohttp import web

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    runner = web.AppRunner(portal.app(), access_log=None)
    await runner.setup()
    site: web.TCPSite | None = None
    schedule = PageSchedule()
    while not stop.is_set():
        wanted = schedule.wanted(supervisor.status.state, loop.time())
        if wanted and site is None:
            site = web.TCPSite(runner, None, port, reuse_address=True)
            try:
                await site.start()
                log.info("setup page on port %d", port)
            except OSError as exc:
                log.error("cannot serve the setup page on port %d: %s", port, exc)
                site = None
        elif not wanted and site is not None:
            await site.stop()
            site = None
            log.info("setup page closed (the table is online)")
        await asyncio.sleep(1.0)
    await runner.cleanup()
