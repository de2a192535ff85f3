#!/usr/bin/env bash
# Build a Debian bookworm root file system with debootstrap, systemd as PID 1, in
# $VM_DIR/$VM_ARCH/rootfs. Only a minimal system: the project's packages come from the
# project's installer later, exactly as on a Pi.
#   sudo vm/build-rootfs.sh                 # amd64
#   sudo VM_ARCH=arm64 vm/build-rootfs.sh   # arm64: first (foreign) stage only; the
#                                           # second stage runs inside qemu (vm/make-image.sh)
set -euo pipefail
# shellcheck source=vm/common.sh
. "$(dirname "$0")/common.sh"
R=$ARCH_DIR/rootfs
t0=$(now)
rm -rf "$R"
foreign=()
[ "$VM_ARCH" = "$(dpkg --print-architecture)" ] || foreign=(--foreign)
debootstrap --arch "$VM_ARCH" "${foreign[@]}" --variant=minbase \
    --include="$VM_BASE_PACKAGES,$VM_KERNEL_PACKAGE" "$VM_SUITE" "$R" "$VM_MIRROR"
echo "VMSTEP debootstrap $VM_ARCH $(since "$t0") s" | tee -a "$LOGS/steps.log"
