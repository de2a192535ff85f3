#!/usr/bin/env bash
# Install spieltisch as a boot-to-game appliance on Raspberry Pi OS Bookworm (32/64-bit).
#
#   sudo systemd/install.sh              # install or upgrade, enable and (re)start
#   sudo systemd/install.sh --no-start   # install and enable, start at next boot
#   systemd/install.sh --dry-run         # print every step, change nothing (no root)
#
# What it does (README "Install on a Raspberry Pi"):
#   1. apt packages: python3-venv, the Debian builds of lgpio and spidev, a compiler
#      for wheels piwheels lacks;
#   2. a system user "spieltisch" in the gpio, spi and dialout groups;
#   3. a copy of this checkout in /opt/spieltisch/src and a venv in /opt/spieltisch/venv
#      with the "pi" extra (--system-site-packages, so the Debian lgpio is used);
#   4. /etc/spieltisch/config.toml from config.example.toml if there is none yet (an
#      existing config is never overwritten) and a config check;
#   5. the unit (and the ws2812 root drop-in if the config chooses ws2812), enabled,
#      and a polkit rule that lets the service user power off (the system button).
# Running it again upgrades in place; the saved game in /var/lib/spieltisch is kept.
set -euo pipefail

# The directories can be overridden (tests run --dry-run against a temp config dir).
PREFIX=${SPIELTISCH_PREFIX:-/opt/spieltisch}
CONF_DIR=${SPIELTISCH_CONF_DIR:-/etc/spieltisch}
UNIT_DIR=${SPIELTISCH_UNIT_DIR:-/etc/systemd/system}
USER_NAME=spieltisch
GROUPS_WANTED=(gpio spi dialout)
APT_PACKAGES=(python3-venv python3-dev python3-lgpio python3-spidev build-essential polkitd)

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DRY_RUN=0
START=1

usage() {
    sed -n '3,6p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

die() {
    echo "install.sh: error: $*" >&2
    exit 2
}

for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        --no-start) START=0 ;;
        -h | --help)
            usage
            exit 0
            ;;
        *) die "unknown option $arg (try --help)" ;;
    esac
done

# Every change to the system goes through run: printed, and executed unless --dry-run.
run() {
    printf '+'
    printf ' %q' "$@"
    printf '\n'
    if [ "$DRY_RUN" -eq 0 ]; then
        "$@"
    fi
}

step() {
    printf '\n== %s\n' "$*"
}

[ -f "$SRC/pyproject.toml" ] || die "run me from a spieltisch checkout ($SRC has no pyproject.toml)"
[ -f "$SRC/systemd/spieltisch.service" ] || die "$SRC/systemd/spieltisch.service is missing"
if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    die "needs root: sudo $0 $*"
fi
if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    . /etc/os-release
    if [ "${VERSION_CODENAME:-}" != "bookworm" ]; then
        echo "install.sh: warning: made for Raspberry Pi OS Bookworm, this is ${PRETTY_NAME:-unknown}" >&2
    fi
fi

# The display type decides the root exception; read it from the config that will be
# used (the existing one, else the example that is about to be copied).
config_file="$CONF_DIR/config.toml"
[ -f "$config_file" ] || config_file="$SRC/config.example.toml"
display_type=$(python3 - "$config_file" <<'EOF'
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as fh:
        print(tomllib.load(fh).get("display", {}).get("type", ""))
except (OSError, tomllib.TOMLDecodeError):
    print("")
EOF
)

step "1. system packages"
run apt-get update
run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

step "2. user $USER_NAME in ${GROUPS_WANTED[*]}"
for group in "${GROUPS_WANTED[@]}"; do
    if ! getent group "$group" >/dev/null; then
        run groupadd --system "$group"
    fi
done
if ! id "$USER_NAME" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir /var/lib/spieltisch --no-create-home \
        --shell /usr/sbin/nologin --comment "spieltisch game table" "$USER_NAME"
fi
groups_csv=$(IFS=,; echo "${GROUPS_WANTED[*]}")
run usermod --append --groups "$groups_csv" "$USER_NAME"

step "3. program in $PREFIX"
# A fresh copy each time, so an upgrade leaves no stale modules behind.
run rm -rf "$PREFIX/src"
run install -d -m 0755 "$PREFIX" "$PREFIX/src"
run cp -r "$SRC/pyproject.toml" "$SRC/README.md" "$SRC/config.example.toml" \
    "$SRC/rules" "$SRC/controller" "$SRC/hardware" "$SRC/systemd" "$PREFIX/src/"
run python3 -m venv --system-site-packages "$PREFIX/venv"
run "$PREFIX/venv/bin/pip" install --quiet --upgrade "$PREFIX/src[pi]"

step "4. config in $CONF_DIR"
run install -d -m 0755 "$CONF_DIR"
if [ -f "$CONF_DIR/config.toml" ]; then
    echo "keeping the existing $CONF_DIR/config.toml"
else
    run install -m 0644 "$SRC/config.example.toml" "$CONF_DIR/config.toml"
fi
run "$PREFIX/venv/bin/spieltisch" config check "$CONF_DIR/config.toml"
case "$display_type" in
    max7219 | unicornhathd | apa102)
        if command -v raspi-config >/dev/null; then
            run raspi-config nonint do_spi 0
        else
            echo "display.type = $display_type needs SPI: enable it (raspi-config, Interface Options)"
        fi
        ;;
esac

step "5. systemd unit"
run install -m 0644 "$SRC/systemd/spieltisch.service" "$UNIT_DIR/spieltisch.service"
dropin_dir="$UNIT_DIR/spieltisch.service.d"
case "$display_type" in
    ws2812 | neopixel)
        echo "display.type = $display_type: rpi_ws281x needs root, installing the ws2812 drop-in"
        run install -d -m 0755 "$dropin_dir"
        run install -m 0644 "$SRC/systemd/ws2812.conf" "$dropin_dir/ws2812.conf"
        ;;
    *)
        if [ -e "$dropin_dir/ws2812.conf" ]; then
            run rm -f "$dropin_dir/ws2812.conf"
        fi
        ;;
esac
# The system button's poweroff: logind asks polkit, which must say yes for our user.
run install -d -m 0755 /etc/polkit-1/rules.d
run install -m 0644 "$SRC/systemd/50-spieltisch-poweroff.rules" /etc/polkit-1/rules.d/
run systemctl daemon-reload
run systemctl enable spieltisch.service
if [ "$START" -eq 1 ]; then
    run systemctl restart spieltisch.service
fi

step "done"
echo "logs: journalctl -u spieltisch -f    status: systemctl status spieltisch"
echo "config: $CONF_DIR/config.toml (then: sudo systemctl restart spieltisch)"
