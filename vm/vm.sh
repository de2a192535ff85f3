#!/usr/bin/env bash
# Power the test VM on and off, wait for its marks, run commands in it.
#   vm/vm.sh start NAME [KERNEL_ARGS]  power on; console log $VM_DIR/logs/NAME.serial,
#                                      the power-on time in NAME.t0
#   vm/vm.sh kill                      pull the plug: kill -9 qemu (no shutdown, no sync)
#   vm/vm.sh running                   exit 0 if qemu runs
#   vm/vm.sh wait NAME MARK [TIMEOUT]  seconds from power-on to the console's "VMMARK MARK"
#   vm/vm.sh exec 'COMMAND' [TIMEOUT]  run COMMAND as root in the guest (via the agent)
#   vm/vm.sh accel                     which accelerator start uses (kvm or tcg), and why
# Every boot is a fresh power-on: -no-reboot ends qemu when the guest reboots.
# Accelerator: KVM where /dev/kvm can run this kernel, else TCG (emulation, 10-30 times
# slower). A usable-looking /dev/kvm is not enough: a nested "PVM" host (kvm_pvm) opens
# it, yet a stock Debian kernel never gets past its real-mode setup there. So the first
# start probes once: the guest's kernel without a root file system must print its
# banner and panic within 60 s under KVM; the answer is kept in $ARCH_DIR/accel (delete
# it to probe again). VM_ACCEL=kvm or VM_ACCEL=tcg skips the probe. arm64 on an x86
# host is always TCG, on an arm64 host KVM.
set -euo pipefail
# shellcheck source=vm/common.sh
. "$(dirname "$0")/common.sh"
PIDFILE=$ARCH_DIR/qemu.pid
cmd=${1:-}
[ $# -gt 0 ] && shift
# The accelerator for this host and kernel (see the header): prints kvm or tcg.
accel() {
    local cache=$ARCH_DIR/accel log pid
    if [ -n "${VM_ACCEL:-}" ]; then echo "$VM_ACCEL"; return; fi
    if [ "$VM_ACCEL_ARCH" != "$(uname -m)" ] || [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
        echo tcg
        return
    fi
    # an arm64 host's KVM runs a stock kernel; the PVM trap is an x86 one
    if [ "$VM_ACCEL_ARCH" = aarch64 ]; then echo kvm; return; fi
    if [ -f "$cache" ] && [ "$cache" -nt "$ARCH_DIR/vmlinuz" ]; then cat "$cache"; return; fi
    log=$LOGS/kvm-probe.serial
    : >"$log"
    qemu-system-x86_64 -enable-kvm -cpu host -m 256 -kernel "$ARCH_DIR/vmlinuz" \
        -append "console=ttyS0 root=/dev/nonexistent panic=-1" -display none -monitor none \
        -serial "file:$log" -no-reboot </dev/null >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 600); do
        kill -0 "$pid" 2>/dev/null || break
        grep -aq "Kernel panic" "$log" && break
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    if grep -aq "Kernel panic" "$log"; then echo kvm >"$cache"; else echo tcg >"$cache"; fi
    echo "vm.sh: /dev/kvm $( [ "$(cat "$cache")" = kvm ] && echo runs || echo "does not run" ) this kernel (probe: $log): $(cat "$cache")" >&2
    cat "$cache"
}
case "$VM_ARCH" in amd64) VM_ACCEL_ARCH=x86_64 ;; arm64) VM_ACCEL_ARCH=aarch64 ;; esac
case "$cmd" in
accel) accel ;;
start)
    name=${1:-boot}
    log=$LOGS/$name.serial
    : >"$log"
    now >"$log.t0"
    if [ "$VM_ARCH" = amd64 ]; then
        if [ "$(accel)" = kvm ]; then accel=(-enable-kvm -cpu host); else accel=(-accel tcg,thread=multi -cpu max); fi
        qemu=(qemu-system-x86_64 "${accel[@]}" -append "root=/dev/vda rw console=ttyS0 quiet ${2:-}")
        initrd=${INITRD:-$ARCH_DIR/initrd.img}
    else
        if [ "$(accel)" = kvm ]; then accel=(-enable-kvm -cpu host); else accel=(-cpu cortex-a72 -accel tcg,thread=multi); fi
        qemu=(qemu-system-aarch64 -M virt "${accel[@]}"
            -append "root=/dev/vda rw console=ttyAMA0 ${2:-}")
        initrd=${INITRD:-$ARCH_DIR/initrd.img}
    fi
    setsid "${qemu[@]}" -m "$VM_MEM" -smp "$VM_SMP" \
        -kernel "$ARCH_DIR/vmlinuz" -initrd "$initrd" \
        -drive "file=$ARCH_DIR/disk.raw,format=raw,if=none,id=d0,cache=writeback" \
        -device virtio-blk-pci,drive=d0 \
        -nic user,model=virtio-net-pci \
        -virtfs "local,path=$SHARE,mount_tag=host0,security_model=none,id=host0" \
        -display none -monitor none -serial "file:$log" -no-reboot \
        </dev/null >"$LOGS/$name.qemu-stderr" 2>&1 &
    echo $! >"$PIDFILE"
    echo $!
    ;;
kill)
    if [ -f "$PIDFILE" ]; then
        pid=$(cat "$PIDFILE")
        kill -9 "$pid" 2>/dev/null || true
        while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
    fi
    rm -f "$PIDFILE"
    ;;
running) [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null ;;
wait)
    name=$1 mark=$2 timeout=${3:-300}
    log=$LOGS/$name.serial
    t0=$(cat "$log.t0")
    end=$(($(date +%s) + timeout))
    while [ "$(date +%s)" -lt "$end" ]; do
        if line=$(grep -a -m1 "VMMARK $mark" "$log" 2>/dev/null); then
            printf '%.2f %s\n' "$(since "$t0")" "$line"
            exit 0
        fi
        if ! "$0" running; then echo "vm.sh: qemu ended before $mark" >&2; exit 1; fi
        sleep 0.1
    done
    echo "vm.sh: no $mark within $timeout s" >&2
    exit 1
    ;;
exec)
    mkdir -p "$SHARE/cmd"
    n=$SHARE/cmd/c$$-$(date +%s%N)
    printf '%s\n' "$1" >"$n.tmp"
    mv "$n.tmp" "$n.sh"
    end=$(($(date +%s) + ${2:-600}))
    while [ ! -e "$n.rc" ]; do
        [ "$(date +%s)" -lt "$end" ] || { echo "vm.sh exec: timeout" >&2; exit 124; }
        sleep 0.2
    done
    cat "$n.out"
    rc=$(cat "$n.rc")
    rm -f "$n.out" "$n.rc"
    exit "$rc"
    ;;
*) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
