# Shared settings for the VM boot test's host scripts (sourced, not run).
# Everything lives under $VM_DIR (default /var/tmp/spieltisch-vm), one directory per
# architecture, so several runs or a kept root file system never collide with /tmp
# cleaners or with another user's probe.
VM_DIR=${VM_DIR:-/var/tmp/spieltisch-vm}
VM_ARCH=${VM_ARCH:-amd64}
VM_MIRROR=${VM_MIRROR:-http://deb.debian.org/debian}
VM_SUITE=${VM_SUITE:-bookworm}
VM_MEM=${VM_MEM:-1024}
VM_SMP=${VM_SMP:-2}
VM_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_CHECKOUT=$(cd "$VM_HERE/.." && pwd)
ARCH_DIR=$VM_DIR/$VM_ARCH
SHARE=$VM_DIR/share-$VM_ARCH
LOGS=$VM_DIR/logs
# What a fresh Debian needs to boot headless under qemu and run the test agent. The
# project's own packages are NOT here: the installer brings them, as on a real Pi.
VM_BASE_PACKAGES=systemd-sysv,udev,dbus,kmod,iproute2,ca-certificates,sudo,procps,sqlite3,git,python3,less
case "$VM_ARCH" in
    amd64) VM_KERNEL_PACKAGE=linux-image-amd64 ;;
    arm64) VM_KERNEL_PACKAGE=linux-image-arm64 ;;
    *) echo "vm: unknown VM_ARCH $VM_ARCH (amd64 or arm64)" >&2; exit 2 ;;
esac
mkdir -p "$ARCH_DIR" "$SHARE" "$LOGS"

# Seconds since the epoch with a fraction.
now() { date +%s.%N; }
# Elapsed seconds since $1 (from now), two decimals.
since() { python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.2f}')" "$1"; }

# Can this host run $VM_ARCH programs in a chroot? Natively, or through qemu-user's
# binfmt_misc entry, which is registered here when qemu-user-static is installed but no
# init system registered it (a container, a host without systemd-binfmt).
foreign_exec_ready() {
    [ "$VM_ARCH" != "$(dpkg --print-architecture)" ] || return 0
    local qarch conf
    case "$VM_ARCH" in arm64) qarch=aarch64 ;; *) qarch=$VM_ARCH ;; esac
    [ -e "/proc/sys/fs/binfmt_misc/qemu-$qarch" ] && return 0
    conf=/usr/lib/binfmt.d/qemu-$qarch.conf
    [ -r "$conf" ] || return 1
    [ -e /proc/sys/fs/binfmt_misc/register ] ||
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || return 1
    grep -v '^#' "$conf" >/proc/sys/fs/binfmt_misc/register
    [ -e "/proc/sys/fs/binfmt_misc/qemu-$qarch" ]
}
