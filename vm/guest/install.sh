#!/bin/bash
# Inside the guest, as root (vm/vm.sh exec): docs/install.md's steps, word for word, as
# the user "pi" with sudo, each one timed. The only concessions to a VM:
#  - pip reads its packages from the host's share (/etc/pip.conf: --no-index
#    --find-links), fetched on the host with pip download; the guest needs only apt;
#  - the panel is luma's dummy display and the pins are gpiozero's mock pins (a drop-in),
#    all seats bots, so that games play themselves.
#   install.sh first    clone, --dry-run, the first install (no panel chosen yet)
#   install.sh upgrade  the guide's upgrade: git pull, the installer again
#   install.sh panel    step 4: choose the panel (dummy) in the config, run the installer again
O=/mnt/host/out
mkdir -p $O
timed() {
    local start rc
    start=$(date +%s%N)
    "$@"
    rc=$?
    echo "VMTIME $(( ($(date +%s%N) - start) / 1000000 )) ms rc=$rc :: $*"
    return $rc
}
as_pi() { su - pi -c "$1"; }
case "${1:-first}" in
first)
    printf '[global]\nno-index = true\nfind-links = /mnt/host/wheels\n' >/etc/pip.conf
    timed as_pi 'sudo apt-get install -y git' >$O/install-git.log 2>&1
    timed as_pi 'rm -rf spieltisch && git clone -q --branch vm-install /mnt/host/spieltisch.bundle spieltisch'
    timed as_pi 'cd spieltisch && systemd/install.sh --dry-run' >$O/install-dry-run.log 2>&1
    tail -n 1 $O/install-dry-run.log
    timed as_pi 'cd spieltisch && sudo systemd/install.sh' </dev/null >$O/install-1.log 2>&1
    tail -n 25 $O/install-1.log
    sleep 3
    systemctl status spieltisch --no-pager | head -n 8
    ;;
upgrade)
    # the guide's upgrade: git pull (here from the host's newer bundle), the installer again
    timed as_pi 'cd spieltisch && git pull -q --ff-only /mnt/host/spieltisch.bundle vm-install'
    timed as_pi 'cd spieltisch && sudo systemd/install.sh' </dev/null >$O/install-upgrade.log 2>&1
    tail -n 25 $O/install-upgrade.log
    systemctl status spieltisch --no-pager | head -n 8
    ;;
panel)
    # step 4 of the guide: the panel in the config (here the dummy one), bots in every seat
    cfg=/etc/spieltisch/config.toml
    /opt/spieltisch/venv/bin/python - "$cfg" <<'PY'
import sys
from controller.testing.files import config_text
text = config_text(seats=("bot",) * 4).replace('bot = "random"', 'bot = "random"\nbot_delay_s = 0.2')
open(sys.argv[1], "w").write(text)
PY
    timed /opt/spieltisch/venv/bin/spieltisch config check $cfg
    mkdir -p /etc/systemd/system/spieltisch.service.d
    printf '[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=mock\n' \
        >/etc/systemd/system/spieltisch.service.d/zz-vm-mock-pins.conf
    timed as_pi 'cd spieltisch && sudo systemd/install.sh' </dev/null >$O/install-2.log 2>&1
    tail -n 25 $O/install-2.log
    sleep 3
    systemctl status spieltisch --no-pager | head -n 8
    ;;
esac
