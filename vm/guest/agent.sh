#!/bin/bash
# The boot test's agent inside the guest (installed as /usr/local/sbin/spieltisch-vm-agent
# by vm/make-image.sh, started by spieltisch-vm-agent.service).
#  - mounts the host's 9p share on /mnt/host;
#  - writes "VMMARK <name>" lines to the serial console (the host times them against
#    power-on): agent-up, and spieltisch-ready when the unit is active (for Type=notify
#    that is READY=1), with the unit's StatusText;
#  - runs /mnt/host/boot.sh once per boot if there is one (the power-cut check);
#  - runs the host's commands: /mnt/host/cmd/NAME.sh -> NAME.out and NAME.rc.
SHARE=/mnt/host
mark() { echo "VMMARK $* uptime=$(cut -d' ' -f1 /proc/uptime)" >/dev/console; }
for _ in $(seq 100); do
    mountpoint -q $SHARE && break
    mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 host0 $SHARE 2>/dev/null && break
    sleep 0.1
done
mkdir -p $SHARE/cmd $SHARE/out
mark agent-up boot=$(cat /proc/sys/kernel/random/boot_id)
(
    while :; do
        state=$(systemctl show -p ActiveState --value spieltisch 2>/dev/null)
        if [ "$state" = active ]; then
            mark spieltisch-ready "$(systemctl show -p StatusText --value spieltisch)"
            break
        fi
        sleep 0.05
    done
) &
if [ -x $SHARE/boot.sh ]; then
    ( $SHARE/boot.sh >"$SHARE/out/boot-$(date +%s%N).log" 2>&1; mark boot-sh-done rc=$? ) &
fi
while :; do
    for f in $SHARE/cmd/*.sh; do
        [ -e "$f" ] || continue
        n=${f%.sh}
        mv "$f" "$n.run" || continue
        (
            bash "$n.run" >"$n.out.tmp" 2>&1
            echo $? >"$n.rc.tmp"
            mv "$n.out.tmp" "$n.out"
            mv "$n.rc.tmp" "$n.rc"
            rm -f "$n.run"
        ) &
    done
    sleep 0.2
done
