#!/usr/bin/env bash
# Build the spieltisch card image from Debian bookworm's own archive.
#
#   sudo image/build.sh arm64    # Raspberry Pi 3, 4, 400, Zero 2 W
#   sudo image/build.sh amd64    # a PC, or a VM for the boot and power-cut tests
#
# Writes out/spieltisch-<version>-<arch>.img.xz and beside it .packages (every Debian
# package in the image, with its version), .manifest (the sha256 of each file of the
# program's release directory) and .sha256 (of the .img.xz). docs/install.md, "Build
# the image", says what the card holds and why.
#
# Steps (each logged with its duration to out/build-<arch>.log):
#   base     mmdebstrap: a Debian root with the packages in image/common.sh, cached as a
#            tar keyed by the package list (delete $IMG_WORK to start over);
#   wheels   the program's dependencies as wheels, and the rules compiled by mypyc, built
#            in a copy of the base with a compiler (never in the image); for arm64 under
#            qemu-user, which takes long. Cached: the dependencies by pyproject.toml,
#            the compiled rules by the hash of rules/ and setup.py;
#   root     the program installed as the factory release (/usr/lib/spieltisch/factory;
#            the releases and "current" on the data partition), the system configured for a read-only root and a data partition, the
#            first-boot units, the boot files;
#   image    a FAT boot partition, the root and the data partition as file systems, put
#            into one disk image laid out by sfdisk; compressed with xz.
# Needs: mmdebstrap, qemu-user-static (arm64 on x86), dosfstools, mtools, fdisk,
# e2fsprogs, xz-utils, python3-venv, git.
set -euo pipefail
# shellcheck source=image/common.sh
. "$(dirname "$0")/common.sh"

ARCH=${1:-}
arch_packages "$ARCH" >/dev/null 2>&1 || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "build.sh: run as root (sudo): it chroots and mounts" >&2; exit 2; }
for tool in mmdebstrap sfdisk mkfs.vfat mcopy mkfs.ext4 xz git; do
    command -v "$tool" >/dev/null || { echo "build.sh: $tool is missing (see the header)" >&2; exit 2; }
done
foreign_exec_ready "$ARCH" || {
    echo "build.sh: cannot run $ARCH programs here: apt-get install qemu-user-static" >&2
    exit 2
}

W=$IMG_WORK/$ARCH
mkdir -p "$W" "$IMG_OUT"
LOG=$IMG_OUT/build-$ARCH.log
PKGVER=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' "$IMG_CHECKOUT/pyproject.toml")
REV=$(git -C "$IMG_CHECKOUT" rev-parse --short=8 HEAD)
git -C "$IMG_CHECKOUT" diff --quiet HEAD -- . ':!out' 2>/dev/null || REV=$REV-dirty
VERSION=${IMG_VERSION:-$PKGVER-$REV}
NAME=spieltisch-$VERSION-$ARCH
T_ALL=$(now)
log() { echo "IMGSTEP $*" | tee -a "$LOG"; }
cleanup() { chroot_down; }
trap cleanup EXIT
log "start $NAME $(date -u +%FT%TZ)"

# The program's files as git tracks them, from the working tree (so a build includes
# what is checked out, and nothing untracked: no venv, no out/).
SRC=$W/src
rm -rf "$SRC"
mkdir -p "$SRC"
(cd "$IMG_CHECKOUT" && git ls-files -z | grep -zv '^out/' | tar --null -T - -cf -) | tar -xf - -C "$SRC"
hash_of() { (cd "$SRC" && find "$@" -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16); }

# ---- base
T=$(now)
read -ra EXTRA <<<"$(arch_packages "$ARCH")"
PKGS=("${IMG_PACKAGES[@]}" "${EXTRA[@]}")
BASE_KEY=$(printf '%s\n' "$IMG_SUITE" "$IMG_MIRROR" "${PKGS[@]}" | sha256sum | cut -c1-16)
BASE=$W/base-$BASE_KEY.tar
if [ ! -s "$BASE" ]; then
    rm -f "$W"/base-*.tar
    mmdebstrap --arch="$ARCH" --variant=minbase --components=main,contrib,non-free-firmware \
        --include="$(IFS=,; echo "${PKGS[*]}")" \
        --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
        --dpkgopt='path-include=/usr/share/locale/de/*' \
        "$IMG_SUITE" "$W/base.tmp.tar" "$IMG_MIRROR"
    mv "$W/base.tmp.tar" "$BASE"
    log "base $ARCH built $(since "$T") s"
else
    log "base $ARCH cached ($BASE)"
fi
[ "${IMG_STOP_AFTER:-}" != base ] || exit 0

# ---- wheels
T=$(now)
# the dependencies' key: what pyproject.toml asks for, not the rest of the file
DEPS_KEY=$(python3 -c 'import json, sys, tomllib
p = tomllib.load(open(sys.argv[1], "rb"))["project"]
extras = {k: v for k, v in p["optional-dependencies"].items() if k in ("pi", "web")}
print(json.dumps([p["dependencies"], extras], sort_keys=True))' "$SRC/pyproject.toml" | sha256sum | cut -c1-16)
RULES_KEY=$(hash_of rules setup.py)
DEPS=$W/wheels-deps-$DEPS_KEY
COMPILED=$W/wheels-compiled-$RULES_KEY
if [ ! -d "$DEPS" ] || [ ! -d "$COMPILED" ]; then
    B=$W/buildroot
    rm -rf "$B"
    mkdir -p "$B"
    tar -xf "$BASE" -C "$B"
    chroot_up "$B"
    run_in "$B" apt-get update -q
    run_in "$B" apt-get install -y -q --no-install-recommends "${IMG_BUILD_PACKAGES[@]}"
    mkdir -p "$B/tmp/src"
    cp -a "$SRC/." "$B/tmp/src/"
    run_in "$B" python3 -m venv /tmp/venv
    # pip builds a dependency without a pyproject.toml (rpi_ws281x, arm64 only) through
    # "setup.py bdist_wheel", which needs the wheel package beside setuptools
    run_in "$B" /tmp/venv/bin/pip install -q wheel
    if [ ! -d "$DEPS" ]; then
        # every dependency of the pi and web extras, as wheels for this architecture
        run_in "$B" /tmp/venv/bin/pip wheel -q --wheel-dir /tmp/deps '/tmp/src[pi,web]'
        rm -f "$B"/tmp/deps/spieltisch-*.whl
        mkdir -p "$DEPS.tmp" && cp "$B"/tmp/deps/*.whl "$DEPS.tmp/" && mv "$DEPS.tmp" "$DEPS"
        log "wheels-deps $ARCH built $(since "$T") s"
    fi
    if [ ! -d "$COMPILED" ]; then
        T=$(now)
        # the rules compiled by mypyc for this architecture (under qemu-user for arm64)
        SPIELTISCH_COMPILE=1 run_in "$B" /tmp/venv/bin/pip wheel -v --no-deps --wheel-dir /tmp/compiled /tmp/src \
            2>&1 | grep -E 'mypyc|error|warning|gcc.*-o|Building|Created' | tail -40
        ls "$B"/tmp/compiled/spieltisch-*-cp311-*.whl >/dev/null ||
            { echo "build.sh: the compiled wheel was not built (see above)" >&2; exit 1; }
        mkdir -p "$COMPILED.tmp" && cp "$B"/tmp/compiled/*.whl "$COMPILED.tmp/" && mv "$COMPILED.tmp" "$COMPILED"
        log "wheels-compiled $ARCH built $(since "$T") s"
    fi
    chroot_down
    rm -rf "$B"
else
    log "wheels $ARCH cached ($DEPS_KEY, rules $RULES_KEY)"
fi
[ "${IMG_STOP_AFTER:-}" != wheels ] || exit 0

# ---- root
T=$(now)
R=$W/root
rm -rf "$R"
mkdir -p "$R"
tar -xf "$BASE" -C "$R"
chroot_up "$R"
. "$IMG_HERE/configure.sh"
chroot_down
log "root $ARCH $(since "$T") s"

# ---- image
T=$(now)
. "$IMG_HERE/assemble.sh"
log "image $ARCH $(since "$T") s"
log "done $NAME total $(since "$T_ALL") s: $(du -h "$IMG_OUT/$NAME.img.xz" | cut -f1) compressed"
