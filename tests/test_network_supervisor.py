"""The network supervisor's state machine against a NetworkManager in memory, on a
clock the test turns; and the table's side of it: the status file turned into notices
on the table's event queue, with the hotspot's QR code."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from controller.appliance import network, panel
from controller.appliance import status as status_file
from controller.appliance.network import FakeNetwork, join_failure, parse_scan
from controller.appliance.status import HOTSPOT, JOINING, ONLINE, STARTING, NetworkStatus
from controller.appliance.supervisor import Supervisor
from controller.appliance.watch import REPEAT_S, NetworkWatch
from controller.events import EventQueue, NoticeEvent
from controller.i18n import use


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def supervised(net: FakeNetwork, clock: Clock) -> tuple[Supervisor, list[NetworkStatus]]:
    seen: list[NetworkStatus] = []
    sup = Supervisor(
        net,
        "spieltisch-3f9a",
        seen.append,
        clock=clock,
        wait_s=60.0,
        make_password=lambda: "k7m2p9qx",
    )
    return sup, seen


def test_a_known_network_in_reach_is_simply_used() -> None:
    net = FakeNetwork(reach={"Home": "secret-pass"}, known={"Home": "secret-pass"})
    sup, seen = supervised(net, Clock())
    sup.step()
    assert sup.status == NetworkStatus(ONLINE, address="192.168.1.23")
    assert net.hotspot is None and [s.state for s in seen] == [STARTING, ONLINE]


def test_no_network_opens_the_hotspot_after_the_wait_and_not_before() -> None:
    net = FakeNetwork(reach={"Home": "secret-pass", "Nachbar": ""})
    clock = Clock()
    sup, _seen = supervised(net, clock)
    clock.now += 59.0
    sup.step()
    assert sup.status.state == STARTING and net.hotspot is None
    clock.now += 1.0
    sup.step()
    assert sup.status == NetworkStatus(
        HOTSPOT, address="10.42.0.1", hotspot="spieltisch-3f9a", password="k7m2p9qx"
    )
    assert net.hotspot == ("spieltisch-3f9a", "k7m2p9qx")
    assert [n.ssid for n in sup.networks] == ["Home", "Nachbar"]  # scanned before it opened


def in_hotspot(net: FakeNetwork) -> tuple[Supervisor, list[NetworkStatus]]:
    clock = Clock()
    sup, seen = supervised(net, clock)
    clock.now += 60.0
    sup.step()
    assert sup.status.state == HOTSPOT
    return sup, seen


def test_a_join_from_the_page_closes_the_hotspot_and_shows_the_address() -> None:
    net = FakeNetwork(reach={"Home": "secret-pass"})
    sup, seen = in_hotspot(net)
    assert sup.request_join("Home", "secret-pass")
    assert not sup.request_join("Home", "again")  # one at a time
    sup.step()
    assert seen[-2].state == JOINING and seen[-2].network == "Home"
    assert sup.status == NetworkStatus(ONLINE, "Home", "192.168.1.23")
    assert net.log[-2:] == ["hotspot down", "join Home"] and net.known == {"Home": "secret-pass"}
    sup.step()  # and it stays there
    assert sup.status.state == ONLINE


def test_a_wrong_password_brings_the_hotspot_back_with_the_reason() -> None:
    net = FakeNetwork(reach={"Home": "secret-pass"})
    sup, _seen = in_hotspot(net)
    sup.request_join("Home", "wrong-pass")
    sup.step()
    status = sup.status
    assert (status.state, status.hotspot, status.password) == (
        HOTSPOT,
        "spieltisch-3f9a",
        "k7m2p9qx",
    )
    assert (status.reason, status.network) == (network.WRONG_PASSWORD, "Home")
    assert net.hotspot is not None and net.known == {}
    use("en")
    assert panel.words(status).startswith("the password for Home was not accepted · Wi-Fi ")
    use("de")
    try:
        assert "Home" in panel.words(status) and "password for" not in panel.words(status)
    finally:
        use("en")
    sup.request_join("Home", "secret-pass")  # then the right one
    sup.step()
    assert sup.status == NetworkStatus(ONLINE, "Home", "192.168.1.23")


def test_a_home_network_out_of_reach_says_so_and_one_that_goes_away_is_waited_for() -> None:
    net = FakeNetwork(reach={"Home": "secret-pass"})
    sup, _seen = in_hotspot(net)
    sup.request_join("Elsewhere", "whatever-1")
    sup.step()
    assert (sup.status.state, sup.status.reason) == (HOTSPOT, network.OUT_OF_REACH)
    sup.request_join("Home", "secret-pass")
    sup.step()
    assert sup.status.state == ONLINE
    del net.reach["Home"]  # the router is switched off
    clock = sup.clock
    assert isinstance(clock, Clock)
    sup.step()
    assert sup.status.state == STARTING and net.hotspot is None
    clock.now += 60.0
    sup.step()
    assert sup.status.state == HOTSPOT and sup.status.reason == ""


def test_a_hotspot_nm_refuses_is_tried_again() -> None:
    class Refusing(FakeNetwork):
        def start_hotspot(self, ssid: str, password: str) -> str:
            raise network.NetworkError("no AP mode")

    net = Refusing()
    sup, _seen = in_hotspot(net)
    assert sup.status.address == "" and sup.retry_at is not None
    use("en")
    assert "could not open" in panel.words(sup.status) and panel.qr_rows(sup.status) == ()


def test_nmcli_output_is_read_as_nmcli_writes_it() -> None:
    listing = "Home\\:Net:80:WPA2\nHome\\:Net:40:WPA2\n:90:WPA2\nCafe:55:\nBad:x:--\n"
    found = parse_scan(listing)
    assert [(n.ssid, n.signal, n.secured) for n in found] == [
        ("Home:Net", 80, True),
        ("Cafe", 55, False),
        ("Bad", 0, False),
    ]
    assert (
        join_failure(
            "Error: Connection activation failed: Secrets were required, but not provided."
        )
        == network.WRONG_PASSWORD
    )
    assert join_failure("Error: No network with SSID 'X' found.") == network.OUT_OF_REACH
    assert join_failure("Error: Timeout expired (45 seconds)") == network.NO_ANSWER


def test_the_supervisor_thread_answers_a_join_at_once(tmp_path: Path) -> None:
    net = FakeNetwork(reach={"Home": "secret-pass"})
    path = tmp_path / "network.json"
    written = threading.Event()

    def publish(status: NetworkStatus) -> None:
        status_file.write(path, status)
        if status.state == ONLINE:
            written.set()

    sup = Supervisor(net, "spieltisch-3f9a", publish, wait_s=0.0)
    stop = threading.Event()
    thread = threading.Thread(target=sup.run, args=(stop, 3600.0))
    thread.start()
    try:
        for _ in range(1000):  # the hotspot opens on the first step (no wait)
            if sup.status.state == HOTSPOT:
                break
            threading.Event().wait(0.01)
        assert sup.request_join("Home", "secret-pass")
        assert written.wait(30)  # woken, not after the hour-long interval
    finally:
        stop.set()
        sup.wake.set()
        thread.join(30)
    assert status_file.read(path) == NetworkStatus(ONLINE, "Home", "192.168.1.23")


def test_the_table_shows_the_hotspot_with_its_qr_code_then_the_address(tmp_path: Path) -> None:
    use("en")
    path = tmp_path / "network.json"
    events = EventQueue()
    clock = Clock()
    online_calls: list[str] = []
    watch = NetworkWatch(path, events, clock=clock, on_online=lambda: online_calls.append("x"))
    assert watch.check() is None  # no file yet: nothing
    hotspot = NetworkStatus(
        HOTSPOT, address="10.42.0.1", hotspot="spieltisch-3f9a", password="k7m2p9qx"
    )
    status_file.write(path, hotspot)
    notice = watch.check()
    assert isinstance(notice, NoticeEvent) and events.get(0) == notice
    assert notice.text == "Wi-Fi spieltisch-3f9a, password k7m2p9qx"
    assert len(notice.qr) == 29 and all(len(row) == 29 for row in notice.qr)
    assert watch.check() is None  # unchanged: said once...
    clock.now += REPEAT_S
    assert watch.check() == notice  # ...and again while nobody has set it up
    path.write_text("{ damaged", encoding="utf-8")
    assert watch.check() is None
    status_file.write(path, NetworkStatus(ONLINE, "Home", "192.168.1.23"))
    online = watch.check()
    assert online is not None and online.text == "spieltisch.local 192.168.1.23" and online.qr == ()
    clock.now += REPEAT_S
    assert watch.check() is None  # online is said once
    assert online_calls == ["x"]  # and the page's name is announced at the address once


def test_the_watch_thread_puts_notices_while_the_queue_is_the_only_contact(tmp_path: Path) -> None:
    path = tmp_path / "network.json"
    events = EventQueue()
    watch = NetworkWatch(path, events, poll_s=0.01).start()
    try:
        status_file.write(path, NetworkStatus(ONLINE, "Home", "192.168.1.23"))
        event = events.get(30)
    finally:
        watch.close()
    assert isinstance(event, NoticeEvent) and "192.168.1.23" in event.text


def test_a_status_file_from_elsewhere_is_refused_not_crashed_on() -> None:
    for text in (
        "[]",
        '{"state": "dancing"}',
        '{"state": "online", "address": 3}',
        '{"state": "online", "problems": [1]}',
    ):
        try:
            NetworkStatus.from_json(text)
        except ValueError:
            continue
        raise AssertionError(text)
    newer = NetworkStatus.from_json('{"state": "online", "address": "10.0.0.2", "future": 1}')
    assert newer == NetworkStatus(ONLINE, address="10.0.0.2")


def test_a_running_table_shows_the_network_it_is_told_about(tmp_path: Path) -> None:
    """``spieltisch run`` as the unit starts it: the supervisor's file appears while the
    table plays, and the table says so on its panel (its log names each notice)."""
    from controller.testing.files import write_config
    from controller.testing.notify import NotifySocket
    from controller.testing.process import ApplianceProcess

    config = write_config(tmp_path, seats=("human", "human"))
    path = tmp_path / "run" / "network.json"
    notify = NotifySocket()
    app = ApplianceProcess(config, tmp_path / "state", notify, network_status=path)
    try:
        assert notify.wait_for("READY=1", timeout=120) is not None, app.stderr()
        hotspot = NetworkStatus(
            HOTSPOT, address="10.42.0.1", hotspot="spieltisch-3f9a", password="k7m2p9qx"
        )
        status_file.write(path, hotspot)
        for _ in range(1200):
            if "network on the panel: hotspot" in app.stderr():
                break
            threading.Event().wait(0.05)
        status_file.write(path, NetworkStatus(ONLINE, "Home", "192.168.1.23"))
        for _ in range(1200):
            if "spieltisch.local 192.168.1.23" in app.stderr():
                break
            threading.Event().wait(0.05)
        code, _seconds = app.terminate()
        log = app.stderr()
    finally:
        app.close()
        notify.close()
    assert code == 0
    assert "network on the panel: hotspot" in log and "k7m2p9qx" not in log
    assert "network on the panel: spieltisch.local 192.168.1.23" in log


def test_a_table_that_started_without_a_network_announces_its_name_once_it_has_one() -> None:
    """The name is claimed again at the host's addresses (here: the announcement began
    with none, as on a first start before the home network), and a second zeroconf
    instance then finds them."""
    zeroconf = pytest.importorskip("zeroconf")
    from controller.web.mdns import Announcement, local_addresses

    if not local_addresses():
        pytest.skip("no address but loopback here")
    try:
        announcement = Announcement(8080, addresses=[])
    except Exception as exc:  # no multicast here
        pytest.skip(f"no mDNS here: {exc}")
    browser = zeroconf.Zeroconf()
    try:
        assert announcement.refresh() is True
        assert announcement.refresh() is False  # unchanged: nothing sent
        info = browser.get_service_info(
            "_http._tcp.local.", "spieltisch._http._tcp.local.", timeout=3000
        )
    finally:
        browser.close()
        announcement.close()
    assert info is not None and sorted(info.parsed_addresses()) == sorted(local_addresses())


def test_a_phones_camera_reads_the_hotspot_off_a_32x32_panel(tmp_path: Path) -> None:
    """The table on a 32×32 panel, the supervisor's file saying "hotspot": the frame on
    the panel, seen large as a camera sees it, decodes to the ``WIFI:`` text that joins."""
    zxingcpp = pytest.importorskip("zxingcpp", reason="the QR decoder (pip zxing-cpp)")
    from PIL import Image

    from controller.testing.rig import ApplianceRig

    use("en")
    rig = ApplianceRig(None, seats=("human", "bot"), buttons=False, size=32)
    try:
        rig.start()
        path = tmp_path / "network.json"
        status_file.write(
            path,
            NetworkStatus(
                HOTSPOT, address="10.42.0.1", hotspot="spieltisch-3f9a", password="k7m2p9qx"
            ),
        )
        notice = NetworkWatch(path, rig.app.events).check()
        assert notice is not None
        rig.settle()
        camera = rig.frame().resize((320, 320), Image.Resampling.NEAREST)
        decoded = [found.text for found in zxingcpp.read_barcodes(camera)]
    finally:
        rig.close()
    assert decoded == ["WIFI:T:WPA;S:spieltisch-3f9a;P:k7m2p9qx;;"]


@pytest.mark.parametrize(
    ("now", "stored", "phones", "page_used", "due"),
    [
        (1299.0, 1, 0, None, False),  # the hotspot not yet open five minutes
        (1300.0, 1, 0, None, True),  # five minutes, nobody there: try the home network
        (1300.0, 0, 0, None, False),  # no network is known: nothing to try
        (1300.0, 1, 0, 1200.0, False),  # a phone used the page 100 s ago
        (1400.0, 1, 0, 1200.0, True),  # ... and has left it for 200 s, no phone joined
        (1400.0, 1, 1, 1200.0, False),  # ... but is still joined, lately busy
        (2100.0, 1, 1, 1200.0, True),  # joined, the page untouched for 15 minutes
        (1900.0, 1, 1, None, True),  # joined since the hotspot opened, never used it
        (1800.0, 1, 1, None, False),
    ],
)
def test_the_home_network_is_tried_again_only_when_no_phone_is_setting_up(
    now: float, stored: int, phones: int, page_used: float | None, due: bool
) -> None:
    from controller.appliance.supervisor import home_retry_due

    assert home_retry_due(now, 1000.0, stored, phones, page_used) is due


def test_a_hotspot_opened_for_a_silent_home_network_tries_it_again() -> None:
    from controller.appliance.supervisor import HOME_RETRY_S

    # the router is still starting after the power cut that started the table too
    net = FakeNetwork(reach={}, known={"Home": "secret-pass"})
    clock = Clock()
    sup, seen = supervised(net, clock)
    clock.now += 60.0
    sup.step()
    assert sup.status.state == HOTSPOT
    net.reach["Home"] = "secret-pass"  # the router is up now
    # a phone joined and is on the setup page: the retry waits for it
    net.phones = 1
    clock.now += HOME_RETRY_S - 10
    sup.note_page_use()
    clock.now += 10
    sup.step()
    assert sup.status.state == HOTSPOT and net.hotspot is not None
    # the phone left; the next look tries the home network, with the start's wait
    net.phones = 0
    clock.now += 180.0
    sup.step()
    assert sup.status.state == STARTING and net.hotspot is None
    sup.step()
    assert sup.status == NetworkStatus(ONLINE, address="192.168.1.23")
    assert [s.state for s in seen][-3:] == [HOTSPOT, STARTING, ONLINE]


def test_a_retry_that_finds_nothing_opens_the_same_hotspot_again() -> None:
    from controller.appliance.supervisor import HOME_RETRY_S

    net = FakeNetwork(reach={}, known={"Home": "secret-pass"})
    clock = Clock()
    sup, _seen = supervised(net, clock)
    clock.now += 60.0
    sup.step()
    first = sup.status
    clock.now += HOME_RETRY_S
    sup.step()
    assert sup.status.state == STARTING
    clock.now += 60.0
    sup.step()
    assert sup.status == first  # the same name and password: a phone rejoins by itself
    clock.now += HOME_RETRY_S - 1
    sup.step()
    assert sup.status.state == HOTSPOT  # the next try only after a full interval


def test_the_setup_page_tells_the_supervisor_a_phone_uses_it(tmp_path: Path) -> None:
    import asyncio

    from aiohttp.test_utils import TestClient, TestServer

    from controller.appliance.portal import Portal

    net = FakeNetwork(reach={"Home": "secret-pass"})
    sup, _seen = in_hotspot(net)
    assert sup.page_used is None

    async def visit() -> int:
        portal = Portal(sup, language="en", on_use=sup.note_page_use)
        async with TestClient(TestServer(portal.app())) as client:
            response = await client.get("/status.json")
            return response.status

    assert asyncio.run(visit()) == 200
    assert sup.page_used == sup.clock()


def test_the_stored_networks_are_read_from_nmcli_without_the_hotspot(tmp_path: Path) -> None:
    import sys

    script = tmp_path / "nmcli.py"
    script.write_text(
        "import sys\n"
        "assert sys.argv[1:] == ['-t', '-f', 'NAME,TYPE', 'connection', 'show']\n"
        "print('Familie\\\\:M:802-11-wireless')\n"
        "print('spieltisch-hotspot:802-11-wireless')\n"
        "print('Wired connection 1:802-3-ethernet')\n"
        "print('lo:loopback')\n"
    )
    nm = network.Nmcli("wlan0", command=(sys.executable, str(script)))
    assert nm.stored() == ["Familie:M"]
