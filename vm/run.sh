#!/usr/bin/env bash
# The boot test, end to end: a Debian bookworm VM built from nothing, the project
# installed in it with the real installer as docs/install.md says, then power cuts.
#   sudo vm/run.sh [CUTS]       # default 20; VM_ARCH=amd64, or arm64 (TCG: hours; CUTS 0)
# Steps (each timed into $VM_DIR/logs/steps.log; KEEP_ROOTFS=1 reuses a built rootfs):
#   1. vm/build-rootfs.sh: debootstrap (minimal system, no project packages)
#   2. vm/make-image.sh: the disk image with the test agent and a user "pi"
#   3. on the host: pip download of the wheels the install needs, a git bundle of HEAD
#   4. boot; guest/install.sh first: clone, --dry-run, sudo systemd/install.sh
#      (no panel chosen: the unit must start and wait with a status)
#   5. guest/install.sh panel: the dummy panel and mock pins, the installer again
#   6. a cold boot: power-on -> READY; then the installed build (compiled, if it compiled)
#      plays vm/playouts.py's seeded games, which must match the host's byte for byte
#   7. power_cuts.py: CUTS cuts during bot games, a check at every boot (CUTS 0: none)
# The report: $VM_DIR/logs/power-cuts.json; exit 1 if any target is missed.
# PLAY=MIN:MAX sets the seconds of play before each cut (power_cuts.py --play), DEADLINE=UNIX_TIME
# stops cutting then (the last boot still checks).
set -euo pipefail
# shellcheck source=vm/common.sh
. "$(dirname "$0")/common.sh"
CUTS=${1:-20}
step_time() { echo "VMSTEP $1 $VM_ARCH $2 s" | tee -a "$LOGS/steps.log"; }
case "$VM_ARCH" in
    amd64) qemu=qemu-system-x86_64 qemu_package=qemu-system-x86 ;;
    arm64) qemu=qemu-system-aarch64 qemu_package="qemu-system-arm qemu-efi-aarch64 qemu-user-static" ;;
esac
for tool in debootstrap mkfs.ext4 "$qemu" git python3; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing (apt-get install debootstrap $qemu_package e2fsprogs git)" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "run.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
"$VM_HERE/vm.sh" kill
if [ "${KEEP_ROOTFS:-0}" != 1 ] || [ ! -d "$ARCH_DIR/rootfs/usr" ]; then
    "$VM_HERE/build-rootfs.sh"
fi
"$VM_HERE/make-image.sh"
t=$(now)
rm -rf "$SHARE/wheels" "$SHARE/out" "$SHARE/cmd" "$SHARE/boot.sh"
mkdir -p "$SHARE/wheels" "$SHARE/out"
# What the guest's pip may use: wheels for the guest's platform, and for the pi extra's
# packages that have none there (lgpio, spidev and rpi_ws281x on ARM), their sources,
# which the installer builds in the guest as on a board with plain Debian.
if [ "$VM_ARCH" = "$(dpkg --print-architecture)" ]; then
    python3 -m pip download -q -d "$SHARE/wheels" "$VM_CHECKOUT[pi,web]" 'setuptools>=77' 'mypy>=1.10' wheel
else
    case "$VM_ARCH" in arm64) platform=aarch64 ;; esac
    python3 -m pip download -q -d "$SHARE/wheels" --only-binary=:all: --python-version 3.11 \
        --implementation cp --abi cp311 --abi abi3 --abi none \
        --platform "manylinux2014_$platform" --platform "manylinux_2_17_$platform" \
        --platform "manylinux_2_28_$platform" --platform "linux_$platform" \
        "$VM_CHECKOUT[web]" 'setuptools>=77' 'mypy>=1.10' wheel
    python3 "$VM_CHECKOUT/systemd/pi_extra.py" --bare "$VM_CHECKOUT/pyproject.toml" \
        | while IFS= read -r requirement; do
        python3 -m pip download -q -d "$SHARE/wheels" --no-deps --no-binary=:all: "$requirement"
    done
fi
install -m 0644 "$VM_HERE/playouts.py" "$SHARE/playouts.py"
# UPGRADE_FROM=REV: the first install from that older revision, then an upgrade to HEAD
bundle() {
    git -C "$VM_CHECKOUT" update-ref refs/heads/vm-install "$1"
    git -C "$VM_CHECKOUT" bundle create "$SHARE/spieltisch.bundle" refs/heads/vm-install 2>/dev/null
    git -C "$VM_CHECKOUT" update-ref -d refs/heads/vm-install
}
bundle "${UPGRADE_FROM:-HEAD}"
install -m 0755 "$VM_HERE/guest/install.sh" "$SHARE/install.sh"
step_time host-wheels-and-bundle "$(since "$t")"
"$VM_HERE/vm.sh" start install >/dev/null
"$VM_HERE/vm.sh" wait install agent-up 900
t=$(now)
"$VM_HERE/vm.sh" exec 'bash /mnt/host/install.sh first' 5400 | tee "$LOGS/install-first.log"
step_time install-first "$(since "$t")"
if [ -n "${UPGRADE_FROM:-}" ]; then
    # the first install from an older revision, then the guide's upgrade to HEAD
    bundle HEAD
    t=$(now)
    "$VM_HERE/vm.sh" exec 'bash /mnt/host/install.sh upgrade' 3600 | tee "$LOGS/install-upgrade.log"
    step_time install-upgrade "$(since "$t")"
fi
t=$(now)
"$VM_HERE/vm.sh" exec 'bash /mnt/host/install.sh panel' 3600 | tee "$LOGS/install-panel.log"
step_time install-again-with-the-panel "$(since "$t")"
"$VM_HERE/vm.sh" exec 'sync; systemctl poweroff' 60 || true
while "$VM_HERE/vm.sh" running; do sleep 1; done
"$VM_HERE/vm.sh" start cold >/dev/null
ready=$("$VM_HERE/vm.sh" wait cold spieltisch-ready 900)
step_time cold-boot-power-on-to-READY "${ready%% *}"
# The installed build (compiled if the compile succeeded) plays the same seeded games as
# this host's checkout, byte for byte: the two builds agree (tests/test_compiled.py), so
# a difference is the guest's CPU, compiler or Python.
t=$(now)
"$VM_HERE/vm.sh" exec 'cd / && /opt/spieltisch/venv/bin/python -I /mnt/host/playouts.py >/mnt/host/out/playouts.jsonl 2>/mnt/host/out/playouts.build' 3600
step_time "playouts-in-the-guest ($(cat "$SHARE/out/playouts.build"))" "$(since "$t")"
python3 "$VM_HERE/playouts.py" >"$LOGS/playouts-host.jsonl"
if cmp "$LOGS/playouts-host.jsonl" "$SHARE/out/playouts.jsonl"; then
    echo "VMCHECK playouts $VM_ARCH identical to the host: $(sha256sum <"$LOGS/playouts-host.jsonl" | cut -c1-16)" | tee -a "$LOGS/steps.log"
else
    echo "VMCHECK playouts $VM_ARCH DIFFER from the host" | tee -a "$LOGS/steps.log"
    exit 1
fi
"$VM_HERE/vm.sh" exec 'sync; systemctl poweroff' 60 || true
while "$VM_HERE/vm.sh" running; do sleep 1; done
[ "$CUTS" -gt 0 ] || exit 0
python3 "$VM_HERE/power_cuts.py" --cuts "$CUTS" --share "$SHARE" --report "$LOGS/power-cuts.json" \
    ${PLAY:+--play "$PLAY"} ${DEADLINE:+--deadline "$DEADLINE"}
