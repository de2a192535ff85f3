#!/usr/bin/env bash
# systemd-analyze verify and security for systemd/spieltisch.service (CI runs this).
#
#   systemd/verify.sh [--docs] [SPIELTISCH_EXECUTABLE]
#
# verify checks that ExecStart's program exists, and /opt/spieltisch only exists on an
# installed Pi. So the unit is checked as a copy whose ExecStart points at the
# spieltisch console script of this checkout's venv (default .venv/bin/spieltisch, as
# .ci/run creates it); every other line is verified as written. The ws2812 drop-in is
# verified the same way, on top of the unit. Prints the security exposure score of each.
#
# --docs also writes both scores and the systemd version into docs/install.md (where
# the <!-- security:... --> marks are; SPIELTISCH_DOCS names another copy of it), so
# the figures there are this script's, not typed by hand. tests/test_systemd_unit.py
# checks that they still match.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DOCS_UPDATE=no
if [ "${1:-}" = "--docs" ]; then
    DOCS_UPDATE=yes
    shift
fi
EXE=${1:-$ROOT/.venv/bin/spieltisch}
DOCS=${SPIELTISCH_DOCS:-$ROOT/docs/install.md}
[ -x "$EXE" ] || { echo "verify.sh: error: $EXE is not an executable spieltisch" >&2; exit 2; }
command -v systemd-analyze >/dev/null || { echo "verify.sh: error: systemd-analyze not found" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed "s#^ExecStart=/opt/spieltisch/venv/bin/spieltisch #ExecStart=$EXE #" \
    "$ROOT/systemd/spieltisch.service" > "$work/spieltisch.service"
grep -q "^ExecStart=$EXE run " "$work/spieltisch.service" \
    || { echo "verify.sh: error: ExecStart not in the expected form" >&2; exit 2; }

# "→ Overall exposure level for spieltisch.service: 1.4 OK 🙂" -> "1.4 OK"
score() {
    systemd-analyze security --offline=true "$work/spieltisch.service" | tail -n 1 \
        | sed -n 's/.*exposure level for [^:]*: \([0-9][0-9.]* [A-Z]*\).*/\1/p'
}

systemd-analyze verify --man=no "$work/spieltisch.service"
installed=$(score)
echo "as installed: Overall exposure level for spieltisch.service: $installed"
mkdir "$work/spieltisch.service.d"
cp "$ROOT/systemd/ws2812.conf" "$work/spieltisch.service.d/"
systemd-analyze verify --man=no "$work/spieltisch.service"
ws2812=$(score)
echo "with the ws2812 drop-in: Overall exposure level for spieltisch.service: $ws2812"
[ -n "$installed" ] && [ -n "$ws2812" ] \
    || { echo "verify.sh: error: no exposure score in systemd-analyze security's output" >&2; exit 2; }

if [ "$DOCS_UPDATE" = yes ]; then
    version=$(systemd-analyze --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
    for mark in installed ws2812 systemd; do
        grep -q "<!-- security:$mark -->" "$DOCS" \
            || { echo "verify.sh: error: no <!-- security:$mark --> in $DOCS" >&2; exit 2; }
    done
    sed -i \
        -e "s/<!-- security:installed -->\*\*[^*]*\*\*/<!-- security:installed -->**$installed**/" \
        -e "s/<!-- security:ws2812 -->\*\*[^*]*\*\*/<!-- security:ws2812 -->**$ws2812**/" \
        -e "s/<!-- security:systemd -->[0-9]*/<!-- security:systemd -->$version/" \
        "$DOCS"
    echo "verify.sh: wrote $installed, $ws2812 (systemd $version) into $DOCS"
fi
# The update units run a release's own python (-m controller): checked the same way,
# with that python being this checkout's venv's.
PY=$(dirname "$EXE")/python
[ -x "$PY" ] || { echo "verify.sh: error: no python beside $EXE" >&2; exit 2; }
for unit in spieltisch-rollback.service spieltisch-update-check.service \
    spieltisch-update.service spieltisch-update.path; do
    sed -E "s#^ExecStart=/opt/spieltisch/(previous|current)/venv/bin/python #ExecStart=$PY #" \
        "$ROOT/systemd/$unit" > "$work/$unit"
done
grep -q "^ExecStart=$PY -I -m controller update " "$work/spieltisch-rollback.service" \
    || { echo "verify.sh: error: the rollback unit's ExecStart is not in the expected form" >&2; exit 2; }
systemd-analyze verify --man=no "$work/spieltisch.service" "$work/spieltisch-rollback.service" \
    "$work/spieltisch-update-check.service" "$work/spieltisch-update.service" \
    "$work/spieltisch-update.path"
echo "the update units: verified"
echo "verify.sh: ok"
