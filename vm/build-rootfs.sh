#!/usr/bin/env bash
# Build a Debian bookworm root file system with debootstrap, systemd as PID 1, in
# $VM_DIR/$VM_ARCH/rootfs. Only a minimal system: the project's packages come from the
# project's installer later, exactly as on a Pi. VM_EXTRA_PACKAGES (comma-separated) adds
# packages for another test's VM (vm/wifi.sh: NetworkManager, hostapd, ...).
#   sudo vm/build-rootfs.sh                 # amd64
#   sudo VM_ARCH=arm64 vm/build-rootfs.sh   # arm64 on an x86 host: the first (foreign)
#       stage, then the second stage in a chroot through qemu-user (apt-get install
#       qemu-user-static; the binfmt_misc entry is registered here if it is missing).
#       Both steps are timed separately into steps.log.
set -euo pipefail
# shellcheck source=vm/common.sh
. "$(dirname "$0")/common.sh"
R=$ARCH_DIR/rootfs
t0=$(now)
rm -rf "$R"
foreign=()
[ "$VM_ARCH" = "$(dpkg --print-architecture)" ] || foreign=(--foreign)
debootstrap --arch "$VM_ARCH" "${foreign[@]}" --variant=minbase \
    --include="$VM_BASE_PACKAGES,$VM_KERNEL_PACKAGE${VM_EXTRA_PACKAGES:+,$VM_EXTRA_PACKAGES}" \
    "$VM_SUITE" "$R" "$VM_MIRROR"
if [ ${#foreign[@]} -eq 0 ]; then
    echo "VMSTEP debootstrap $VM_ARCH $(since "$t0") s" | tee -a "$LOGS/steps.log"
    exit 0
fi
echo "VMSTEP debootstrap-first-stage $VM_ARCH $(since "$t0") s" | tee -a "$LOGS/steps.log"
t0=$(now)
foreign_exec_ready || {
    echo "build-rootfs.sh: cannot run $VM_ARCH programs here: apt-get install qemu-user-static" >&2
    exit 2
}
# debootstrap in a container leaves /proc and /sys as symlinks; the chroot needs them real
for d in proc sys; do if [ -L "$R/$d" ]; then rm "$R/$d"; mkdir "$R/$d"; fi; done
chroot "$R" /debootstrap/debootstrap --second-stage
echo "VMSTEP debootstrap-second-stage-qemu-user $VM_ARCH $(since "$t0") s" | tee -a "$LOGS/steps.log"
