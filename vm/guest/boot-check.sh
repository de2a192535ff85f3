#!/bin/bash
# Run by the agent at every boot of the power-cut loop (the host copies it to
# /mnt/host/boot.sh). Waits for the unit to be active (READY), then prints one line
# "VMCHECK {json}" (guest/boot_check.py: resumed? the save, history's integrity and
# records) and, when no unfinished game is on the table, puts a new bot game there and
# prints "VMNEWGAME {json}". Marks check-done on the console, then (while the bots
# play) prints "VMSTARTUP {json}": exec -> READY of the unit's start and a bare import.
PY=/opt/spieltisch/venv/bin/python
S=/var/lib/spieltisch
mark() { echo "VMMARK $* uptime=$(cut -d' ' -f1 /proc/uptime)" >/dev/console; }
for _ in $(seq 6000); do
    [ "$(systemctl show -p ActiveState --value spieltisch)" = active ] && break
    sleep 0.1
done
sleep 2   # the resumed game's first move: the journal has said "resuming" by then
journalctl -b -u spieltisch -o short-monotonic --no-pager | tail -n 15
cd / && $PY -I /mnt/host/boot_check.py check "$S"
start=cold   # the unit's start at boot; "warm" after the restart with a new game
if ! $PY -I /mnt/host/boot_check.py unfinished "$S"; then
    start=warm
    systemctl stop spieltisch
    sudo -u spieltisch $PY -I /mnt/host/boot_check.py newgame "$S"
    systemctl start spieltisch
fi
mark check-done
# during play, after the check: the start-up figures of this boot's (last) start
$PY -I /mnt/host/boot_check.py startup "$S" "$start"
