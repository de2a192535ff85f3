#!/usr/bin/env bash
# Turn the debootstrapped root file system into a bootable raw ext4 disk image for qemu:
# host name, fstab, DHCP on the virtio NIC, the 9p share and the test agent, a user "pi"
# with sudo (as Raspberry Pi OS makes one), root autologin on the serial console for
# debugging by hand. mkfs.ext4 -d writes the image without a loop mount.
#   sudo vm/make-image.sh [SIZE]      # default 6G; the kernel and initrd are copied next to it
set -euo pipefail
# shellcheck source=vm/common.sh
. "$(dirname "$0")/common.sh"
R=$ARCH_DIR/rootfs
SIZE=${1:-6G}
[ -d "$R/usr" ] || { echo "make-image.sh: no root file system in $R: run vm/build-rootfs.sh" >&2; exit 2; }
t0=$(now)
console=ttyS0
[ "$VM_ARCH" = arm64 ] && console=ttyAMA0
echo spieltisch-vm >"$R/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 spieltisch-vm\n' >"$R/etc/hosts"
printf '/dev/vda / ext4 defaults,errors=remount-ro 0 1\n' >"$R/etc/fstab"
mkdir -p "$R/mnt/host" "$R/etc/systemd/network" "$R/etc/modules-load.d" "$R/usr/local/sbin"
printf '[Match]\nName=en* eth*\n[Network]\nDHCP=yes\n' >"$R/etc/systemd/network/10-wired.network"
rm -f "$R/etc/resolv.conf"
echo 'nameserver 10.0.2.3' >"$R/etc/resolv.conf"   # qemu user networking's DNS
printf '9p\n9pnet_virtio\n' >"$R/etc/modules-load.d/9p.conf"
install -m 0755 "$VM_HERE/guest/agent.sh" "$R/usr/local/sbin/spieltisch-vm-agent"
install -m 0644 "$VM_HERE/guest/agent.service" "$R/etc/systemd/system/spieltisch-vm-agent.service"
wants=$R/etc/systemd/system/multi-user.target.wants
mkdir -p "$wants"
ln -sf /etc/systemd/system/spieltisch-vm-agent.service "$wants/spieltisch-vm-agent.service"
ln -sf /lib/systemd/system/systemd-networkd.service "$wants/systemd-networkd.service"
mkdir -p "$R/etc/systemd/system/serial-getty@$console.service.d"
printf '[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin root --keep-baud 115200 %%I $TERM\n' \
    >"$R/etc/systemd/system/serial-getty@$console.service.d/autologin.conf"
# arm64 on an x86 host: these few commands run through qemu-user (vm/build-rootfs.sh
# ran debootstrap's second stage the same way)
foreign_exec_ready || {
    echo "make-image.sh: cannot run $VM_ARCH programs in the chroot: apt-get install qemu-user-static" >&2
    exit 2
}
[ -e "$R/debootstrap" ] && { echo "make-image.sh: $R is only a first stage: run vm/build-rootfs.sh" >&2; exit 2; }
chroot "$R" passwd -d root >/dev/null
chroot "$R" id pi >/dev/null 2>&1 || chroot "$R" useradd -m -s /bin/bash -G sudo pi
chroot "$R" apt-get clean
cp -L "$R/vmlinuz" "$ARCH_DIR/vmlinuz"
cp -L "$R/initrd.img" "$ARCH_DIR/initrd.img"
echo 'pi ALL=(ALL) NOPASSWD: ALL' >"$R/etc/sudoers.d/010_pi-nopasswd"
chmod 0440 "$R/etc/sudoers.d/010_pi-nopasswd"
rm -f "$ARCH_DIR/disk.raw"
mkfs.ext4 -q -F -L root -d "$R" "$ARCH_DIR/disk.raw" "$SIZE"
echo "VMSTEP make-image $VM_ARCH $(since "$t0") s" | tee -a "$LOGS/steps.log"
