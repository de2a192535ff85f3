#!/usr/bin/env bash
# Install spieltisch as a boot-to-game appliance on Raspberry Pi OS Bookworm (32/64-bit).
#
#   sudo systemd/install.sh              # install, or upgrade in place; enable and (re)start
#   sudo systemd/install.sh --no-start   # install and enable, start at next boot
#   sudo systemd/install.sh --uninstall  # remove everything except the saved games
#   sudo systemd/install.sh --pure       # install the rules as pure Python, do not compile
#   sudo systemd/install.sh --panel TYPE # the panel: ws2812, max7219, bridge, unicornhathd,
#                                        # apa102 or none (choose later); written to the config
#   sudo systemd/install.sh --rebuild    # rebuild the venv even if nothing changed
#   systemd/install.sh --dry-run         # print every step, change nothing (no root)
#   systemd/install.sh --root DIR        # stage into DIR (no root): every file goes
#                                        # under DIR, system commands are only logged
#                                        # to DIR/install-actions.log
#
# What it does (docs/install.md, "Install on a Raspberry Pi"):
#   1. apt packages: python3-venv, the Debian builds of lgpio and spidev, a compiler
#      for wheels piwheels lacks, espeak-ng and alsa-utils (aplay) for the voice;
#   2. a system user "spieltisch" in the gpio, spi, dialout and audio groups;
#   3. a release in /opt/spieltisch/releases/VERSION-REVISION: a copy of this checkout
#      (src) and a venv with the "pi" extra (--system-site-packages, so the Debian lgpio
#      is used), the rules compiled with mypyc (SPIELTISCH_COMPILE=1); if that fails,
#      the Backgammon evaluation's C kernel alone (SPIELTISCH_COMPILE=kernel), then pure
#      Python, and one line says so; then the "fast" extra (numpy: Debian's python3-numpy,
#      else a pip wheel; optional, one line says which). Then one rename of the symlink "current" makes
#      it the release the unit starts (/opt/spieltisch/venv and src point through it);
#      the release before stays as "previous", the way back, and older ones go. An
#      install from before releases (a real venv and src in /opt/spieltisch) is first
#      moved into releases/ as it is;
#   4. /etc/spieltisch/config.toml from config.example.toml if there is none yet (an
#      existing config is never overwritten), a config check, the voice's sentences
#      rendered ahead of time, and the state directory /var/lib/spieltisch;
#   5. the unit (and the ws2812 root drop-in if the config chooses ws2812), enabled,
#      and a polkit rule that lets the service user power off (the system button);
#      the update units (rollback, the check after an update, the page's inbox) and the
#      project's update-signing key in /etc/spieltisch-keys (docs/install.md, "Updating").
# Running it again upgrades in place: the config and the saved game are kept, and a
# summary says what changed (each installed file new / updated / unchanged, the
# program version before -> after).
#
# Two kinds of steps: files it writes (run: under DIR with --root) and changes to the
# running system, namely packages, users, ownership and systemd (system: with --root
# recorded in DIR/install-actions.log instead of run). --dry-run only prints both.
set -euo pipefail

USER_NAME=spieltisch
GROUPS_WANTED=(gpio spi dialout audio)
APT_PACKAGES=(python3-venv python3-dev build-essential polkitd espeak-ng alsa-utils)
# Only Raspberry Pi OS's archive has lgpio and spidev; on plain Debian the venv gets them
# from PyPI (the "pi" extra) or gpiozero falls back to its native pin factory. numpy (the
# "fast" extra: the Backgammon bot scores many positions at once) is in both archives;
# where apt cannot give it, pip tries a wheel, and without it the bot plays as before.
APT_OPTIONAL=(python3-lgpio python3-spidev python3-numpy)
# Without Debian's lgpio on an ARM board, pip builds the PyPI lgpio from source (it has
# no ARM wheels), linked statically: that build needs SWIG.
LGPIO_BUILD_PACKAGES=(swig)
# What of the checkout goes to $PREFIX/src: enough to pip-install it and read its docs.
SOURCE_ITEMS=(pyproject.toml setup.py README.md wiring.md docs config.example.toml rules
    controller hardware systemd)

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DRY_RUN=0
START=1
UNINSTALL=0
COMPILE=1
ROOT=""
PANEL=""
REBUILD=0
# What each panel type is (which the installer offers, which sit on SPI, which need the
# root drop-in, the size written with one) is the program's own record, hardware/panels.py:
# standard library only, so the system's Python runs it from this checkout before
# anything is installed. It sets PANELS, SPI_PANELS, ROOT_PANELS, PANEL_SIZES and
# PANEL_USB_VENDORS.
command -v python3 >/dev/null || { echo "install.sh: error: needs python3" >&2; exit 2; }
panel_types=$(python3 -I "$SRC/hardware/panels.py" --shell) \
    || { echo "install.sh: error: $SRC/hardware/panels.py --shell failed" >&2; exit 2; }
eval "$panel_types"

usage() {
    sed -n '3,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

die() {
    echo "install.sh: error: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --no-start) START=0 ;;
        --uninstall) UNINSTALL=1 ;;
        --pure) COMPILE=0 ;;
        --rebuild) REBUILD=1 ;;
        --panel | --panel=*)
            if [ "$1" = --panel ]; then
                [ $# -ge 2 ] || die "--panel needs one of: ${PANELS[*]}"
                PANEL=$2
                shift
            else
                PANEL=${1#--panel=}
            fi
            case " ${PANELS[*]} " in
                *" $PANEL "*) ;;
                *) die "--panel $PANEL is not a panel; choose one of: ${PANELS[*]}" ;;
            esac
            ;;
        --root)
            [ $# -ge 2 ] && [ -n "$2" ] || die "--root needs a directory"
            ROOT=$2
            shift
            ;;
        --root=*)
            ROOT=${1#--root=}
            [ -n "$ROOT" ] || die "--root needs a directory"
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        *) die "unknown option $1 (try --help)" ;;
    esac
    shift
done

if [ -n "$ROOT" ]; then
    ROOT=$(realpath -m -- "$ROOT")
    [ "$ROOT" != / ] || die "--root / is the real system: leave --root out"
fi
PREFIX=$ROOT/opt/spieltisch
CONF_DIR=$ROOT/etc/spieltisch
UNIT_DIR=$ROOT/etc/systemd/system
POLKIT_DIR=$ROOT/etc/polkit-1/rules.d
STATE_DIR=$ROOT/var/lib/spieltisch
ACTIONS_LOG=$ROOT/install-actions.log
UNIT=$UNIT_DIR/spieltisch.service
DROPIN_DIR=$UNIT_DIR/spieltisch.service.d
POLKIT_RULE=$POLKIT_DIR/50-spieltisch-poweroff.rules
RELEASES=$PREFIX/releases
KEYS_DIR=$ROOT/etc/spieltisch-keys
UPDATE_UNITS=(spieltisch-rollback.service spieltisch-update-check.service
    spieltisch-update.service spieltisch-update.path)

# A file change in the target: printed, and executed unless --dry-run.
run() {
    printf '+'
    printf ' %q' "$@"
    printf '\n'
    if [ "$DRY_RUN" -eq 0 ]; then
        "$@"
    fi
}

# Make symlink $1 point at $2 with one rename: a new link moved over the old, so that
# at every moment (power cut or not) $1 names one whole release.
point() {
    run ln -sfn "$2" "$1.new"
    run mv -Tf "$1.new" "$1"
}

# The release a symlink in $PREFIX ($1: current or previous) names ("" if none).
release_of() {
    local target
    target=$(readlink "$PREFIX/$1" 2>/dev/null) || return 0
    basename "$target"
}

# $1 as a release directory's name: letters, digits and . + _ - only.
safe_name() {
    printf '%s' "$1" | tr -c 'A-Za-z0-9.+_-' '_' | cut -c1-80
}

# A change to the running system (packages, users, ownership, systemd): printed, and
# executed unless --dry-run; with --root only appended to $ACTIONS_LOG. The one place
# that needs the real machine.
system() {
    local line
    line=$(printf ' %q' "$@")
    line=${line# }
    if [ -n "$ROOT" ]; then
        printf '+ %s    # recorded, not run\n' "$line"
        if [ "$DRY_RUN" -eq 0 ]; then
            printf '%s\n' "$line" >>"$ACTIONS_LOG"
        fi
    else
        printf '+ %s\n' "$line"
        if [ "$DRY_RUN" -eq 0 ]; then
            "$@"
        fi
    fi
}

CURRENT_STEP="the start"
HINT="run it again; if it fails the same way, the lines above say why"
step() {
    CURRENT_STEP=$*
    printf '\n== %s\n' "$*"
}

# What to do if the step that follows fails: one line, shown after the summary.
hint() {
    HINT=$*
}

SUMMARY=()
note() {
    SUMMARY+=("$*")
}

# new, updated or unchanged: what installing file $1 as $2 does.
file_change() {
    if [ ! -e "$2" ]; then
        echo new
    elif cmp -s "$1" "$2"; then
        echo unchanged
    else
        echo updated
    fi
}

# Install file $1 as $2 (mode 0644) and note what that changed.
install_file() {
    local change
    change=$(file_change "$1" "$2")
    echo "$change: $2"
    note "$change: $2"
    if [ "$change" != unchanged ]; then
        run install -m 0644 "$1" "$2"
    fi
}

# A package's version in $PREFIX's venv, or in venv $2 (fails if it is not installed
# there); from /, so that a checkout in the working directory is not what answers.
package_version() {
    (cd / && "${2:-$PREFIX/venv}/bin/python" -I -c \
        'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' "$1" 2>/dev/null)
}
# The program's version as installed in $PREFIX ("" if none): the package version and
# the git revision of the checkout it came from.
installed_version() {
    local version revision
    [ -x "$PREFIX/venv/bin/python" ] || return 0
    version=$(package_version spieltisch) || return 0
    revision=$(cat "$PREFIX/src/REVISION" 2>/dev/null || echo unknown)
    echo "$version (git $revision)"
}

# Which rules build the venv in $PREFIX runs ("" if none): "rules: compiled (mypyc), N
# modules" or "rules: pure Python". Asked from / with -I (isolated): run from the
# checkout, python would import the checkout's rules/ instead of the installed ones.
installed_build() {
    [ -x "$PREFIX/venv/bin/python" ] || return 0
    (cd / && "$PREFIX/venv/bin/python" -I -c \
        'from rules.build_info import describe_build; print(describe_build())' 2>/dev/null) || true
}

# The checkout's revision; safe.directory because under sudo root reads a clone owned
# by the user who made it.
source_revision() {
    git -c safe.directory="$SRC" -C "$SRC" describe --always --dirty 2>/dev/null || echo unknown
}

# The files of SOURCE_ITEMS below directory $1, one relative path a line, sorted.
tree_files() {
    [ -d "$1" ] || return 0
    (
        cd "$1"
        local item existing=()
        for item in "${SOURCE_ITEMS[@]}"; do
            [ -e "$item" ] && existing+=("$item")
        done
        [ ${#existing[@]} -gt 0 ] || exit 0
        find "${existing[@]}" -type f ! -path '*/__pycache__/*' ! -name '*.pyc' | LC_ALL=C sort
    )
}

# Print and note how the checkout differs from the installed copy in $PREFIX/src: counts,
# then each file that is new (on an upgrade), updated or removed.
report_source_changes() {
    local new=0 updated=0 unchanged=0 removed=0 path old_list new_list line
    local changed=()
    old_list=$(tree_files "$PREFIX/src")
    new_list=$(tree_files "$SRC")
    while IFS= read -r path; do
        [ -n "$path" ] || continue
        if [ ! -e "$PREFIX/src/$path" ]; then
            new=$((new + 1))
            [ -z "$old_list" ] || changed+=("  new: $path")
        elif cmp -s "$SRC/$path" "$PREFIX/src/$path"; then
            unchanged=$((unchanged + 1))
        else
            updated=$((updated + 1))
            changed+=("  updated: $path")
        fi
    done <<<"$new_list"
    while IFS= read -r path; do
        [ -n "$path" ] || continue
        removed=$((removed + 1))
        changed+=("  removed: $path")
    done < <(LC_ALL=C comm -23 <(printf '%s\n' "$old_list") <(printf '%s\n' "$new_list"))
    line="source $PREFIX/src: $new new, $updated updated, $removed removed, $unchanged unchanged"
    echo "$line"
    note "$line"
    SUMMARY+=("${changed[@]}")
}

[ -f "$SRC/pyproject.toml" ] || die "run me from a spieltisch checkout ($SRC has no pyproject.toml)"
[ -f "$SRC/systemd/spieltisch.service" ] || die "$SRC/systemd/spieltisch.service is missing"
if [ "$DRY_RUN" -eq 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    die "needs root: sudo $0 (or --root DIR to stage, --dry-run to look)"
fi
if [ -z "$ROOT" ] && [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    . /etc/os-release
    if [ "${VERSION_CODENAME:-}" != "bookworm" ]; then
        echo "install.sh: warning: made for Raspberry Pi OS Bookworm, this is ${PRETTY_NAME:-unknown}" >&2
    fi
fi
# From here on, whatever fails (set -e) still ends with what changed so far and one line
# saying what to do: never a silent end in the middle.
FAILED_COMMAND=""
TEMP_FILES=()
on_error() {
    FAILED_COMMAND=$BASH_COMMAND
}
on_exit() {
    local rc=$?
    rm -f "${TEMP_FILES[@]}"
    [ "$rc" -ne 0 ] || return 0
    trap - ERR
    printf '\n== failed: what changed before it stopped\n'
    if [ ${#SUMMARY[@]} -gt 0 ]; then printf '%s\n' "${SUMMARY[@]}"; else echo "nothing"; fi
    echo "install.sh: failed in step \"$CURRENT_STEP\" (${FAILED_COMMAND:-exit $rc}, exit $rc): $HINT" >&2
    exit "$rc"
}
trap on_error ERR
trap on_exit EXIT

if [ -n "$ROOT" ]; then
    echo "staging into $ROOT: files go there, system commands are recorded in $ACTIONS_LOG"
    run install -d -m 0755 "$ROOT"
fi

was_installed=0
[ -e "$PREFIX/venv" ] && was_installed=1
if [ -n "$ROOT" ] && [ "$DRY_RUN" -eq 0 ]; then
    if [ "$UNINSTALL" -eq 1 ]; then
        action=uninstall
    elif [ "$was_installed" -eq 1 ]; then
        action=upgrade
    else
        action=install
    fi
    printf '# install.sh: %s\n' "$action" >>"$ACTIONS_LOG"
fi

# Does the service user exist? In staging mode the host is not asked: the user exists
# exactly when an earlier install is there, as on the Pi.
user_exists() {
    if [ -n "$ROOT" ]; then
        [ "$was_installed" -eq 1 ]
    else
        id "$USER_NAME" >/dev/null 2>&1
    fi
}

# -- uninstall ---------------------------------------------------------------------------

if [ "$UNINSTALL" -eq 1 ]; then
    step "1. stop and disable the service"
    if [ -e "$UNIT" ]; then
        system systemctl disable --now spieltisch.service
    else
        echo "no unit $UNIT: nothing to stop"
    fi

    step "2. remove the program, unit, drop-ins, polkit rule and config"
    for unit in "${UPDATE_UNITS[@]}"; do
        if [ -e "$UNIT_DIR/$unit" ]; then
            system systemctl disable --now "$unit"
            run rm -f "$UNIT_DIR/$unit"
            note "removed: $UNIT_DIR/$unit"
        fi
    done
    for path in "$PREFIX" "$UNIT" "$DROPIN_DIR" "$POLKIT_RULE" "$CONF_DIR" "$KEYS_DIR"; do
        if [ -e "$path" ]; then
            run rm -rf "$path"
            note "removed: $path"
        fi
    done
    system systemctl daemon-reload

    step "3. user $USER_NAME"
    if user_exists; then
        system userdel "$USER_NAME"
        note "removed: user $USER_NAME (the groups ${GROUPS_WANTED[*]} stay, they are the system's)"
    fi

    step "done"
    printf '%s\n' "${SUMMARY[@]}"
    if [ -d "$STATE_DIR" ]; then
        echo "kept: the saved games in $STATE_DIR (remove them with: sudo rm -r $STATE_DIR)"
    else
        echo "no saved games ($STATE_DIR does not exist)"
    fi
    exit 0
fi

# -- install or upgrade ------------------------------------------------------------------

version_before=$(installed_version)
if [ -n "$version_before" ]; then
    echo "upgrading spieltisch $version_before in $PREFIX"
fi

# display.type of config file $1 ("" if it cannot be read).
config_display_type() {
    python3 - "$1" <<'EOF'
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as fh:
        print(tomllib.load(fh).get("display", {}).get("type", ""))
except (OSError, tomllib.TOMLDecodeError):
    print("")
EOF
}

# Config $1 with the [display] section set for panel $2, written to $3: the type, and
# the size the panel is written with, if it has one (PANEL_SIZES: max7219's four chained
# modules, 32x8). Every other line stays as it is.
config_with_panel() {
    local size=""
    [ -z "$2" ] || size=${PANEL_SIZES[$2]:-}
    python3 - "$1" "$2" "$3" "$size" <<'EOF'
import re, sys
source, panel, target, size = sys.argv[1:]
sizes = {}
if size:
    width, height = size.split("x")
    sizes[panel] = {"width": width, "height": height}
lines = open(source, encoding="utf-8").read().splitlines(keepends=True)
section, out, typed = "", [], False
for line in lines:
    header = re.match(r"\s*\[+([^\]]+)\]", line)
    if header:
        if section == "display" and not typed:
            out.append(f'type = "{panel}"\n')
            typed = True
        section = header.group(1).strip()
    elif section == "display":
        key = re.match(r"\s*(type|width|height)\s*=", line)
        if key and key.group(1) == "type":
            line, typed = f'type = "{panel}"\n', True
        elif key and panel in sizes:
            line = f"{key.group(1)} = {sizes[panel][key.group(1)]}\n"
    out.append(line)
if not typed:
    if section == "display":
        out.append(f'type = "{panel}"\n')
    else:
        out[:0] = ["[display]\n", f'type = "{panel}"\n']
open(target, "w", encoding="utf-8").write("".join(out))
EOF
}

# A panel on USB (the Pico bridge, vendor id 2E8A) is the one kind that can be seen
# from here: PANEL_USB_VENDORS maps the vendor ids to their panel types.
detect_panel() {
    local vendor id
    if [ -z "$ROOT" ]; then
        for vendor in /sys/bus/usb/devices/*/idVendor; do
            [ -r "$vendor" ] || continue
            id=$(cat "$vendor")
            [ -n "${PANEL_USB_VENDORS[$id]:-}" ] && { echo "${PANEL_USB_VENDORS[$id]}"; return; }
        done
    fi
    echo none
}

# Ask on the terminal which panel the table has.
ask_panel() {
    local answer i
    {
        echo "Which panel does this table have?"
        for i in "${!PANELS[@]}"; do echo "  $((i + 1))) ${PANELS[$i]}"; done
    } >&2
    while :; do
        read -r -p "panel [1-${#PANELS[@]}, Enter = none: choose later]: " answer || answer=""
        answer=${answer:-${#PANELS[@]}}
        if [[ $answer =~ ^[0-9]+$ ]] && [ "$answer" -ge 1 ] && [ "$answer" -le ${#PANELS[@]} ]; then
            echo "${PANELS[$((answer - 1))]}"
            return
        fi
        case " ${PANELS[*]} " in *" $answer "*) echo "$answer"; return ;; esac
        echo "not a panel: $answer" >&2
    done
}

# The panel decides the config's display.type, the root exception and SPI: --panel, the
# existing config's, or (a first install) asked on a terminal or detected.
config_file="$CONF_DIR/config.toml"
panel_source=""
if [ -n "$PANEL" ]; then
    panel_source="--panel"
elif [ ! -f "$config_file" ]; then
    if [ -t 0 ] && [ -t 2 ] && [ "$DRY_RUN" -eq 0 ]; then
        PANEL=$(ask_panel)
        panel_source="your answer"
    else
        PANEL=$(detect_panel)
        panel_source="detected"
    fi
fi
if [ -n "$PANEL" ]; then
    display_type=$PANEL
    if [ "$PANEL" = none ]; then
        echo "panel: none yet ($panel_source): the table waits for one; later: sudo systemd/install.sh --panel TYPE"
    else
        echo "panel: $PANEL ($panel_source)"
    fi
else
    display_type=$(config_display_type "$config_file")
    echo "panel: $display_type (from $config_file)"
fi

step "1. system packages"
hint "check the network and the apt lines above (sudo apt-get update), then run sudo systemd/install.sh again"
# Is package $1 installed (on the target; with --root, on this host)?
apt_installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}
# The optional packages the archive offers (a candidate version), as apt last saw it:
# one apt-cache call, which takes seconds on a small board.
optional_in_archive() {
    apt-cache policy "${APT_OPTIONAL[@]}" 2>/dev/null \
        | awk '/^[^ ].*:$/ { name = substr($0, 1, length($0) - 1) }
               /^  Candidate:/ && $2 != "(none)" { print name }' || true
}
AVAILABLE=" $(optional_in_archive | tr '\n' ' ') "
apt_available() {
    [[ $AVAILABLE == *" $1 "* ]]
}
# On an ARM board without Debian's lgpio the pi extra builds it: add what that needs.
lgpio_from_source() {
    case "$(uname -m)" in aarch64 | armv7l | armv6l) ;; *) return 1 ;; esac
    ! apt_installed python3-lgpio && ! apt_available python3-lgpio
}
if lgpio_from_source; then
    APT_PACKAGES+=("${LGPIO_BUILD_PACKAGES[@]}")
fi
# Nothing to do when every package is installed, or (the optional ones) not in the
# archive as apt last saw it: then a re-run asks apt nothing, not even an update.
missing=()
for package in "${APT_PACKAGES[@]}"; do
    apt_installed "$package" || missing+=("$package")
done
for package in "${APT_OPTIONAL[@]}"; do
    apt_installed "$package" || ! apt_available "$package" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ] && [ -z "$ROOT" ]; then
    echo "the packages are installed (${APT_PACKAGES[*]}; optional: ${APT_OPTIONAL[*]}): apt skipped"
else
    system apt-get update
    [ -n "$ROOT" ] || [ "$DRY_RUN" -eq 1 ] || AVAILABLE=" $(optional_in_archive | tr '\n' ' ') "
    wanted=("${APT_PACKAGES[@]}")
    for package in "${APT_OPTIONAL[@]}"; do
        if apt_installed "$package" || apt_available "$package"; then
            wanted+=("$package")
        else
            echo "$package: not in this system's archive (only Raspberry Pi OS has it): the venv gets it from PyPI instead"
        fi
    done
    system apt-get install -y --no-install-recommends "${wanted[@]}"
fi

step "2. user $USER_NAME in ${GROUPS_WANTED[*]}"
hint "the useradd/groupadd lines above say why; fix that, then run sudo systemd/install.sh again"
for group in "${GROUPS_WANTED[@]}"; do
    # --force: succeed if the group exists (Raspberry Pi OS has all three)
    system groupadd --force --system "$group"
done
if ! user_exists; then
    system useradd --system --user-group --home-dir /var/lib/spieltisch --no-create-home \
        --shell /usr/sbin/nologin --comment "spieltisch game table" "$USER_NAME"
fi
groups_csv=$(IFS=,; echo "${GROUPS_WANTED[*]}")
system usermod --append --groups "$groups_csv" "$USER_NAME"

step "3. program in $PREFIX"
hint "pip's lines above say why (network? space: df -h /opt); then run sudo systemd/install.sh again (--pure skips compiling)"
# An install from before releases: its venv and source move into releases/ as they are
# (a rename each, nothing rebuilt); the old paths become symlinks through "current", so
# the venv's scripts, which name $PREFIX/venv/bin/python, keep working.
if [ -d "$PREFIX/venv" ] && [ ! -L "$PREFIX/venv" ]; then
    legacy=$(safe_name "$(package_version spieltisch || echo 0)-$(cat "$PREFIX/src/REVISION" 2>/dev/null || echo old)")
    run install -d -m 0755 "$RELEASES/$legacy"
    run mv -T "$PREFIX/venv" "$RELEASES/$legacy/venv"
    if [ -d "$PREFIX/src" ] && [ ! -L "$PREFIX/src" ]; then
        run mv -T "$PREFIX/src" "$RELEASES/$legacy/src"
    fi
    point "$PREFIX/current" "releases/$legacy"
    point "$PREFIX/venv" current/venv
    point "$PREFIX/src" current/src
    note "migrated: $PREFIX/venv and $PREFIX/src into $RELEASES/$legacy (releases side by side)"
fi
report_source_changes
revision_file=$(mktemp)
TEMP_FILES+=("$revision_file")
source_revision >"$revision_file"
# Everything the venv and the compiled build are made from: the source files, the
# build choice, the Python and the machine, the compiler and Debian's lgpio/spidev. When
# none of it changed since the last install, the venv is kept as it is (seconds instead
# of minutes); --rebuild forces a new one.
inputs_hash() {
    {
        tree_files "$SRC" | (cd "$SRC" && tr '\n' '\0' | xargs -0 -r sha256sum)
        echo "compile=$COMPILE cc=${CC:-} machine=$(uname -m)"
        python3 -VV
        command -v "${CC:-cc}" || echo "no compiler"
        for package in "${APT_OPTIONAL[@]}"; do
            dpkg-query -W -f='${Package} ${Version} ${Status}\n' "$package" 2>/dev/null || echo "$package absent"
        done
    } | sha256sum | cut -c1-16
}
# The "pi" extra's packages (lgpio, spidev, rpi_ws281x), one at a time, each optional:
# Raspberry Pi OS has them as Debian packages or piwheels wheels, plain Debian on ARM
# builds them from source (lgpio statically: PYPI=1 is its setup.py's switch for that).
# One line each says what the table got; a panel or the pins fall back, or the config
# check names the missing module.
install_pi_extra() {
    local requirement name log
    if [ "$DRY_RUN" -eq 1 ]; then
        run env PYPI=1 "$REL/venv/bin/pip" install "(each package of the pi extra in $REL/src/pyproject.toml)"
        return 0
    fi
    log=$(mktemp)
    TEMP_FILES+=("$log")
    while IFS= read -r requirement; do
        name=${requirement%%[<>=!~;[ ]*}
        # not --quiet: pip's "Ignoring NAME: markers ..." says it is not for this machine;
        # not --upgrade: a Debian build (the venv sees the system's packages) that
        # satisfies it is kept
        if run env PYPI=1 "$REL/venv/bin/pip" install "$requirement" >"$log" 2>&1; then
            head -n 1 "$log"
            if grep -q "^Ignoring $name: markers" "$log"; then
                echo "pi extra: $name: not for this machine ($(uname -m))"
            else
                echo "pi extra: $name $(package_version "$name" "$REL/venv")"
            fi
        else
            cat "$log"
            echo "pi extra: $name: not installed (no wheel for $(uname -m), and building it failed: see above)"
            note "pi extra: $name missing (see its lines above): what needs it stays unavailable"
        fi
    done < <("$REL/venv/bin/python" -I "$SRC/systemd/pi_extra.py" "$REL/src/pyproject.toml")
}
# The "fast" extra (numpy), optional: Debian's python3-numpy (step 1; the venv sees the
# system's packages) when it is there, else pip's wheel; without either the Backgammon bot
# scores positions with the C kernel, or one at a time, and plays the same moves.
install_fast_extra() {
    local requirement name log
    if [ "$DRY_RUN" -eq 1 ]; then
        run "$REL/venv/bin/pip" install "(the fast extra in $REL/src/pyproject.toml, unless Debian's python3-numpy is there)"
        return 0
    fi
    if (cd / && "$REL/venv/bin/python" -I -c 'import numpy' 2>/dev/null); then
        echo "fast extra: numpy $(package_version numpy "$REL/venv") (Debian's python3-numpy)"
        return 0
    fi
    log=$(mktemp)
    TEMP_FILES+=("$log")
    while IFS= read -r requirement; do
        name=${requirement%%[<>=!~;[ ]*}
        if run "$REL/venv/bin/pip" install "$requirement" >"$log" 2>&1; then
            echo "fast extra: $name $(package_version "$name" "$REL/venv")"
        else
            cat "$log"
            echo "fast extra: $name: not installed (see above): the Backgammon bot plays as before, without it"
            note "fast extra: $name missing (see its lines above): the Backgammon bot's fast path is the C kernel or none"
        fi
    done < <("$REL/venv/bin/python" -I "$SRC/systemd/pi_extra.py" --extra fast "$REL/src/pyproject.toml")
}
# Which fast path the Backgammon bot takes in the venv in $PREFIX ("" if none installed).
installed_fast_path() {
    [ -x "$PREFIX/venv/bin/python" ] || return 0
    (cd / && "$PREFIX/venv/bin/python" -I -c \
        'from rules.backgammon import native; import importlib.util as u; print("Backgammon fast path: " + ("the C kernel" if native.kernel() else "numpy" if u.find_spec("numpy") else "none (pure Python)"))' 2>/dev/null) || true
}
INPUTS_FILE=$PREFIX/venv/.spieltisch-inputs
inputs=$(inputs_hash)
# The new release's name: the program's version and the checkout's revision.
NAME=$(safe_name "$(sed -n 's/^version = "\(.*\)"/\1/p' "$SRC/pyproject.toml")-$(cat "$revision_file")")
running=$(release_of current)
REL=$RELEASES/$NAME
reuse=0
if [ "$REBUILD" -eq 0 ] && [ -f "$INPUTS_FILE" ] && [ "$(cat "$INPUTS_FILE")" = "$inputs" ] \
    && (cd / && "$PREFIX/venv/bin/python" -I -c 'import controller.cli, rules' 2>/dev/null); then
    reuse=1
fi
if [ "$reuse" -eq 1 ]; then
    echo "nothing changed since the last install (inputs $inputs): the venv and its build are reused"
    note "reused: $PREFIX/venv (inputs $inputs unchanged; --rebuild makes a new one)"
    compiled_ok=0
    run install -m 0644 "$revision_file" "$PREFIX/src/REVISION"
else
    # A new release beside the running one; only when it has the running one's name
    # (the same revision, rebuilt) is it rebuilt in place. A leftover of a run that
    # failed halfway is removed first. A fresh source copy each time, so an upgrade
    # leaves no stale modules behind.
    if [ "$NAME" != "$running" ]; then
        run rm -rf "$REL"
    else
        run rm -rf "$REL/src"
    fi
    run install -d -m 0755 "$PREFIX" "$RELEASES" "$REL" "$REL/src"
    copy=()
    for item in "${SOURCE_ITEMS[@]}"; do
        [ -e "$SRC/$item" ] && copy+=("$SRC/$item")
    done
    run cp -r "${copy[@]}" "$REL/src/"
    run find "$REL/src" -name __pycache__ -prune -exec rm -rf {} +
    run install -m 0644 "$revision_file" "$REL/src/REVISION"
    run python3 -m venv --system-site-packages "$REL/venv"
    # The rules compiled (docs/install.md, "The compiled build"): step 1 brought the compiler
    # and the Python headers. Should compiling fail anyway (say, out of memory on a small
    # board), the pure-Python rules play the same games, only the bots think slower.
    # The program first, without the pi extra: a board on which one of the extra's
    # packages will not build still gets a table that plays.
    compiled_ok=0
    kernel_ok=0
    if [ "$COMPILE" -eq 1 ]; then
        if run env SPIELTISCH_COMPILE=1 "$REL/venv/bin/pip" install --quiet --upgrade \
            "$REL/src[web]"; then
            compiled_ok=1
        else
            # The Backgammon evaluation's C kernel alone takes seconds where mypyc takes
            # many minutes (and may run out of memory on a small board).
            echo "install.sh: compiling the rules failed (see above): trying the C kernel alone"
            if run env SPIELTISCH_COMPILE=kernel "$REL/venv/bin/pip" install --quiet --upgrade \
                "$REL/src[web]"; then
                kernel_ok=1
            else
                echo "install.sh: the C kernel failed too (see above): installing the rules as pure Python"
            fi
        fi
    fi
    if [ "$compiled_ok" -eq 0 ] && [ "$kernel_ok" -eq 0 ]; then
        run "$REL/venv/bin/pip" install --quiet --upgrade "$REL/src[web]"
    fi
    install_pi_extra
    install_fast_extra
    # pip builds in the source tree; the copy stays a plain copy of the checkout
    run rm -rf "$REL/src/build" "$REL/src/spieltisch.egg-info"
    if [ "$DRY_RUN" -eq 0 ]; then
        printf '%s\n' "$inputs" >"$REL/venv/.spieltisch-inputs"
    fi
    # The switch: the running release becomes the way back, then one rename makes the
    # new one current.
    if [ -n "$running" ] && [ "$running" != "$NAME" ]; then
        point "$PREFIX/previous" "releases/$running"
    fi
    point "$PREFIX/current" "releases/$NAME"
    [ "$NAME" = "$running" ] || note "current: $RELEASES/$NAME${running:+ (the way back: $running)}"
fi
# The paths the unit and the docs name, through "current" (a directory left by a
# migration cut short is a copy of the checkout: it goes).
for item in venv src; do
    if [ -L "$PREFIX/$item" ] && [ "$(readlink "$PREFIX/$item")" = "current/$item" ]; then
        continue
    fi
    if [ -e "$PREFIX/$item" ] && [ ! -L "$PREFIX/$item" ]; then
        run rm -rf "$PREFIX/${item:?}"
    fi
    point "$PREFIX/$item" "current/$item"
done
# Only the current release and the way back are kept.
if [ -d "$RELEASES" ] && [ "$DRY_RUN" -eq 0 ]; then
    keep_current=$(release_of current)
    keep_previous=$(release_of previous)
    for dir in "$RELEASES"/*/; do
        [ -d "$dir" ] || continue
        name=$(basename "$dir")
        if [ "$name" != "$keep_current" ] && [ "$name" != "$keep_previous" ]; then
            run rm -rf "$RELEASES/${name:?}"
            note "removed: the old release $RELEASES/$name"
        fi
    done
fi
if [ "$DRY_RUN" -eq 0 ]; then
    version_after=$(installed_version)
else
    version_after="$(sed -n 's/^version = "\(.*\)"/\1/p' "$SRC/pyproject.toml") (git $(cat "$revision_file"))"
fi
if [ -n "$version_before" ]; then
    SUMMARY=("program: $version_before -> $version_after" "${SUMMARY[@]}")
else
    SUMMARY=("program: new, $version_after" "${SUMMARY[@]}")
fi
build=$(installed_build)
if [ -n "$build" ]; then
    echo "$build"
    SUMMARY=("${SUMMARY[0]}" "$build" "${SUMMARY[@]:1}")
    if [ "$COMPILE" -eq 1 ] && [ "$compiled_ok" -eq 1 ] && [ "$build" = "rules: pure Python" ]; then
        echo "install.sh: the rules run as pure Python: compiling needs a C compiler and the Python headers"
    fi
fi
fast_path=$(installed_fast_path)
if [ -n "$fast_path" ]; then
    echo "$fast_path"
    SUMMARY+=("$fast_path")
fi

# GPIO: Debian's lgpio (Raspberry Pi OS), else the PyPI lgpio the pi extra brings, else
# gpiozero's native pin factory (pure Python, /dev/gpiomem; no Pi 5). One line says which.
GPIO_DROPIN=$DROPIN_DIR/gpio.conf
gpio_factory=lgpio
if (cd / && "$PREFIX/venv/bin/python" -I -c 'import lgpio' 2>/dev/null); then
    if apt_installed python3-lgpio && [ -z "$ROOT" ]; then
        gpio_line="GPIO: lgpio (Debian's python3-lgpio)"
    else
        gpio_line="GPIO: lgpio (from PyPI, the pi extra)"
    fi
elif [ "$DRY_RUN" -eq 1 ]; then
    gpio_line="GPIO: lgpio if the install brings it, else gpiozero's native pin factory"
else
    gpio_factory=native
    gpio_line="GPIO: gpiozero's native pin factory (no lgpio: neither python3-lgpio nor a PyPI build for $(uname -m))"
fi
echo "$gpio_line"
SUMMARY=("${SUMMARY[0]}" "$gpio_line" "${SUMMARY[@]:1}")

step "4. config in $CONF_DIR, saved games in $STATE_DIR"
hint "the lines above say which file; fix it, then run sudo systemd/install.sh again"
run install -d -m 0755 "$CONF_DIR"
# The companion page's Setup saves the config as the service's user: it writes a new
# file in this directory and renames it over config.toml, so the service's group may
# write the directory (the unit's ReadWritePaths= lets it, under ProtectSystem=strict).
system chgrp "$USER_NAME" "$CONF_DIR"
run chmod 0775 "$CONF_DIR"
new_config=$(mktemp)
TEMP_FILES+=("$new_config")
if [ -f "$CONF_DIR/config.toml" ]; then
    old_type=$(config_display_type "$CONF_DIR/config.toml")
    if [ -n "$PANEL" ] && [ "$PANEL" != "$old_type" ]; then
        config_with_panel "$CONF_DIR/config.toml" "$PANEL" "$new_config"
        run install -m 0644 "$new_config" "$CONF_DIR/config.toml"
        note "updated: $CONF_DIR/config.toml (display.type ${old_type:-unset} -> $PANEL, the rest kept)"
    else
        echo "keeping the existing $CONF_DIR/config.toml"
        note "kept: $CONF_DIR/config.toml"
    fi
else
    config_with_panel "$SRC/config.example.toml" "$display_type" "$new_config"
    run install -m 0644 "$new_config" "$CONF_DIR/config.toml"
    note "new: $CONF_DIR/config.toml (from config.example.toml, display.type $display_type: edit it for your table)"
fi
config_ok=1
run "$PREFIX/venv/bin/spieltisch" config check "$CONF_DIR/config.toml" || config_ok=0
# The voice's fixed sentences, rendered now so the table only plays files (at the
# config's volume; a broken config renders at the default one). A failure costs only
# the voice's head start: the table renders what is missing in the background.
voice_volume=()
[ "$config_ok" -eq 1 ] && voice_volume=(--config "$CONF_DIR/config.toml")
if run "$PREFIX/venv/bin/spieltisch" voice render "${voice_volume[@]}"; then
    note "voice: the prompts are rendered (espeak-ng)"
else
    note "voice: not rendered now; the table renders its prompts when it starts"
fi
if [ -d "$STATE_DIR" ]; then
    saves=$(find "$STATE_DIR" -maxdepth 1 -type f -name 'session.json*' 2>/dev/null | wc -l)
    note "kept: $STATE_DIR ($saves save file(s))"
else
    note "new: $STATE_DIR (empty)"
fi
# systemd (StateDirectory=) would create it at the first start; creating it here lets
# the owner see where the saves go before then.
run install -d -m 0750 "$STATE_DIR"
system chown "$USER_NAME:$USER_NAME" "$STATE_DIR"
if [[ " ${SPI_PANELS[*]} " == *" $display_type "* ]]; then
    if [ -n "$ROOT" ] || command -v raspi-config >/dev/null; then
        system raspi-config nonint do_spi 0
    else
        echo "display.type = $display_type needs SPI: enable it (raspi-config, Interface Options)"
    fi
fi

step "5. systemd unit"
hint "the systemctl lines above say why; then run sudo systemd/install.sh again"
run install -d -m 0755 "$UNIT_DIR"
install_file "$SRC/systemd/spieltisch.service" "$UNIT"
if [[ " ${ROOT_PANELS[*]} " == *" $display_type "* ]]; then
    echo "display.type = $display_type: rpi_ws281x needs root, installing the ws2812 drop-in"
    run install -d -m 0755 "$DROPIN_DIR"
    install_file "$SRC/systemd/ws2812.conf" "$DROPIN_DIR/ws2812.conf"
elif [ -e "$DROPIN_DIR/ws2812.conf" ]; then
    run rm -f "$DROPIN_DIR/ws2812.conf"
    note "removed: $DROPIN_DIR/ws2812.conf (display.type is $display_type)"
fi
gpio_dropin=$(mktemp)
TEMP_FILES+=("$gpio_dropin")
if [ "$gpio_factory" = native ]; then
    printf '%s\n' "# Written by install.sh: no lgpio here, so gpiozero's own pin factory." \
        "[Service]" "Environment=GPIOZERO_PIN_FACTORY=native" >"$gpio_dropin"
    run install -d -m 0755 "$DROPIN_DIR"
    install_file "$gpio_dropin" "$GPIO_DROPIN"
elif [ -e "$GPIO_DROPIN" ]; then
    run rm -f "$GPIO_DROPIN"
    note "removed: $GPIO_DROPIN (lgpio is there now)"
fi
# Updates: the units that roll back, confirm, and take the page's bundles; the keys
# the table trusts (root's: the service cannot change them). Keys the owner added with
# spieltisch update trust stay.
for unit in "${UPDATE_UNITS[@]}"; do
    install_file "$SRC/systemd/$unit" "$UNIT_DIR/$unit"
done
run install -d -m 0755 "$KEYS_DIR"
for key in "$SRC"/systemd/keys/*.pub; do
    [ -e "$key" ] || continue
    install_file "$key" "$KEYS_DIR/$(basename "$key")"
done
# The system button's poweroff: logind asks polkit, which must say yes for our user.
run install -d -m 0755 "$POLKIT_DIR"
install_file "$SRC/systemd/50-spieltisch-poweroff.rules" "$POLKIT_RULE"
system systemctl daemon-reload
system systemctl enable spieltisch.service spieltisch-update.path spieltisch-update-check.service
start_failed=0
if [ "$START" -eq 1 ]; then
    hint "see journalctl -u spieltisch -b"
    if ! system systemctl restart spieltisch.service; then
        start_failed=1
        note "not started: spieltisch.service failed to start"
    elif [ -z "$ROOT" ] && [ "$DRY_RUN" -eq 0 ]; then
        status=$(systemctl show -p StatusText --value spieltisch.service 2>/dev/null || true)
        [ -z "$status" ] || note "started: spieltisch.service (status: $status)"
    fi
fi

step "done: what changed"
printf '%s\n' "${SUMMARY[@]}"
if [ "$start_failed" -eq 1 ]; then
    echo
    journalctl -u spieltisch.service -b -n 8 --no-pager 2>/dev/null || true
    echo "install.sh: installed, but the service did not start (the journal lines above say why):" \
        "fix $CONF_DIR/config.toml (or: sudo systemd/install.sh --panel TYPE), then: sudo systemctl restart spieltisch" >&2
    exit 1
fi
echo
echo "logs: journalctl -u spieltisch -f    status: systemctl status spieltisch"
echo "config: $CONF_DIR/config.toml (then: sudo systemctl restart spieltisch)"
if [ "$config_ok" -eq 0 ]; then
    echo "install.sh: warning: $CONF_DIR/config.toml has errors (listed above): fix them," \
        "check with: $PREFIX/venv/bin/spieltisch config check $CONF_DIR/config.toml" >&2
fi
