# Settings and helpers shared by image/build.sh's steps (sourced, not run).
IMG_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IMG_CHECKOUT=$(cd "$IMG_HERE/.." && pwd)
IMG_MIRROR=${IMG_MIRROR:-http://deb.debian.org/debian}
IMG_SUITE=${IMG_SUITE:-bookworm}
IMG_OUT=${IMG_OUT:-$IMG_CHECKOUT/out}
# Work files (the Debian base as a tar, cached wheels, the root being assembled) live
# outside the checkout: several gigabytes, and kept between builds as a cache.
IMG_WORK=${IMG_WORK:-/var/tmp/spieltisch-image}

# What every image has. The program's own Python packages are not here: they come from
# PyPI into the program's venv at build time, as wheels built in the build chroot.
IMG_PACKAGES=(
    # boot and base system
    systemd-sysv udev dbus kmod iproute2 netbase procps ca-certificates tzdata
    initramfs-tools zstd e2fsprogs dosfstools fdisk
    # growpart, to grow a partition by hand (the first boot grows the data partition
    # with sfdisk and resize2fs: image/files/spieltisch-grow-data)
    cloud-guest-utils
    # the program: Python and its venv; polkit lets the service user power off
    python3 python3-venv polkitd
    # networking: NetworkManager runs the home Wi-Fi and the table's own hotspot
    # (its "shared" mode needs dnsmasq-base); the clock from the network
    network-manager wpasupplicant dnsmasq-base iw wireless-regdb systemd-timesyncd
    # SSH is installed but off: the settings file turns it on, with a key
    openssh-server
)
# Only in the build chroot, never in the image: what compiles the rules (mypyc) and
# the C extensions that PyPI has no wheel for (spidev, rpi_ws281x, lgpio on ARM).
IMG_BUILD_PACKAGES=(python3-dev build-essential swig)

arch_packages() {
    case "$1" in
        amd64) echo linux-image-amd64 systemd-boot-efi ;;
        # Debian's own Raspberry Pi images: the Debian kernel, the Pi's GPU firmware and
        # boot files from raspi-firmware, and the Wi-Fi chip's firmware (bookworm's has
        # the Pi 3 and Pi 4 chips, not the Pi 400's or the Zero 2 W's: docs/install.md)
        arm64) echo linux-image-arm64 raspi-firmware firmware-brcm80211 ;;
        *) return 1 ;;
    esac
}

# Seconds since the epoch with a fraction, and the seconds since $1.
now() { date +%s.%N; }
since() { python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.0f}')" "$1"; }

# Can this host run $1 programs in a chroot? Natively, or through qemu-user's
# binfmt_misc entry (registered here if qemu-user-static is installed but nothing
# registered it, as in a container without systemd-binfmt).
foreign_exec_ready() {
    [ "$1" != "$(dpkg --print-architecture)" ] || return 0
    local qarch conf
    case "$1" in arm64) qarch=aarch64 ;; *) qarch=$1 ;; esac
    [ -e "/proc/sys/fs/binfmt_misc/qemu-$qarch" ] && return 0
    conf=/usr/lib/binfmt.d/qemu-$qarch.conf
    [ -r "$conf" ] || return 1
    [ -e /proc/sys/fs/binfmt_misc/register ] ||
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || return 1
    grep -v '^#' "$conf" >/proc/sys/fs/binfmt_misc/register
    [ -e "/proc/sys/fs/binfmt_misc/qemu-$qarch" ]
}

# Mount what programs in the chroot $1 need (/proc, /sys, /dev, the host's DNS), and
# undo it. Every mount is recorded so a failed build leaves nothing mounted.
CHROOT_MOUNTS=()
chroot_up() {
    local r=$1
    mount -t proc proc "$r/proc" && CHROOT_MOUNTS+=("$r/proc")
    mount --rbind /sys "$r/sys" && mount --make-rslave "$r/sys" && CHROOT_MOUNTS+=("$r/sys")
    mount --rbind /dev "$r/dev" && mount --make-rslave "$r/dev" && CHROOT_MOUNTS+=("$r/dev")
    mkdir -p "$r/run/tmp-build"
    mount -t tmpfs tmpfs "$r/tmp" && CHROOT_MOUNTS+=("$r/tmp")
    rm -f "$r/etc/resolv.conf"
    cp -L /etc/resolv.conf "$r/etc/resolv.conf"
    # pip in the chroot trusts what the host trusts (a build machine behind a proxy with
    # its own CA); the copy is on the chroot's /tmp, a tmpfs, so it never reaches the image
    cp -L "${PIP_CERT:-${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}}" "$r/tmp/build-ca.pem"
}
# Run a command in the chroot $1 with a clean environment: nothing of the host's shell
# (its pip settings, locale, paths) leaks into the build.
run_in() {
    local r=$1
    shift
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
        PIP_CERT=/tmp/build-ca.pem PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=60 \
        ${SPIELTISCH_COMPILE:+SPIELTISCH_COMPILE=$SPIELTISCH_COMPILE} chroot "$r" "$@"
}
chroot_down() {
    local i
    for ((i = ${#CHROOT_MOUNTS[@]} - 1; i >= 0; i--)); do
        umount -R "${CHROOT_MOUNTS[$i]}" 2>/dev/null || umount -lR "${CHROOT_MOUNTS[$i]}" || true
    done
    CHROOT_MOUNTS=()
}
