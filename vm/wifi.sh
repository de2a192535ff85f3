#!/usr/bin/env bash
# The first start's Wi-Fi, end to end, with simulated radios: a Debian bookworm VM with
# NetworkManager and the program's first-start units (systemd/image/), and inside it
# the kernel's mac80211_hwsim with three radios: one for the table's NetworkManager, one
# for a "home network" (hostapd and a DHCP server in their own network namespace), one
# for a "phone" (wpa_supplicant and dhclient in another). vm/guest/wifi_flow.sh then
# plays the family: no known network, so the hotspot opens; the phone reads its name
# and password from the status the panel shows, joins it, is sent to the setup page by
# the captive DNS, and gives a network out of reach, then a wrong password (each time
# the hotspot comes back with the reason), then the right one; the table joins the home
# network and the phone reaches the page there at the new address. Last, the home
# network is switched off (the hotspot opens again), and the settings file names it
# (stored in NetworkManager, password blanked on the card, joined with no hotspot).
#   sudo vm/wifi.sh            # KEEP_ROOTFS=1 reuses the built root file system
# Results: $VM_DIR/logs/wifi-flow.log (the guest's "WIFI" lines with uptime seconds) and
# $VM_DIR/share-amd64/out/wifi/ (the pages, the status files, the units' journals).
# Exit 0 only if every step passed. Under TCG (no KVM) it takes 10 to 30 minutes.
set -euo pipefail
export VM_DIR=${VM_DIR:-/var/tmp/spieltisch-wifi-vm}
export VM_ARCH=amd64
export VM_EXTRA_PACKAGES=libpam-systemd,network-manager,wpasupplicant,hostapd,iw,wireless-regdb,dnsmasq-base,isc-dhcp-client,curl,python3-venv
# shellcheck source=vm/common.sh
. "$(dirname "$0")/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "wifi.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
for tool in debootstrap mkfs.ext4 qemu-system-x86_64 git python3; do
    command -v "$tool" >/dev/null || { echo "wifi.sh: $tool is missing" >&2; exit 2; }
done
R=$ARCH_DIR/rootfs
step() { echo "VMSTEP $1 $(since "$2") s" | tee -a "$LOGS/steps.log"; }
"$VM_HERE/vm.sh" kill
if [ "${KEEP_ROOTFS:-0}" != 1 ] || [ ! -d "$R/usr" ]; then
    "$VM_HERE/build-rootfs.sh"
fi
t=$(now)
# The program, as the image installs it: a venv in /opt/spieltisch with the web extra,
# from wheels fetched here (the guest has no index); not compiled (not needed here).
PY=${PYTHON:-python3}
rm -rf "$SHARE/wheels" "$R/opt/spieltisch"
mkdir -p "$SHARE/wheels" "$R/opt/spieltisch/src" "$R/mnt/wheels"
"$PY" -m pip download -q -d "$SHARE/wheels" "$VM_CHECKOUT[web]" 'setuptools>=77' wheel
git -C "$VM_CHECKOUT" archive HEAD | tar -x -C "$R/opt/spieltisch/src"
mount --bind "$SHARE/wheels" "$R/mnt/wheels"
trap 'umount "$R/mnt/wheels" 2>/dev/null || true' EXIT
chroot "$R" python3 -m venv /opt/spieltisch/venv
chroot "$R" /opt/spieltisch/venv/bin/pip install -q --no-index --find-links /mnt/wheels \
    "/opt/spieltisch/src[web]"
umount "$R/mnt/wheels"
trap - EXIT
# The first-start units and the captive portal's DNS answer, as the image installs them.
# The first-boot unit runs at boot; the supervisor is started by the flow once the
# radios exist and two of them are moved away (else NM could take the phone's radio).
install -m 0644 "$VM_CHECKOUT"/systemd/image/*.service "$R/etc/systemd/system/"
mkdir -p "$R/etc/NetworkManager/dnsmasq-shared.d" "$R/etc/NetworkManager/conf.d" "$R/boot/firmware"
install -m 0644 "$VM_CHECKOUT/systemd/image/dnsmasq-shared.d/spieltisch-portal.conf" \
    "$R/etc/NetworkManager/dnsmasq-shared.d/"
# the VM's wired NIC stays systemd-networkd's (the agent's), NetworkManager has the radios
printf '[keyfile]\nunmanaged-devices=interface-name:en*;interface-name:eth*\n' \
    >"$R/etc/NetworkManager/conf.d/spieltisch-vm.conf"
# The settings file as a family might leave it: the country set, a wrong language.
sed -e 's/^country = ""/country = "DE"/' -e 's/^language = ""/language = "fr"/' \
    "$VM_CHECKOUT/systemd/image/spieltisch.toml" >"$R/boot/firmware/spieltisch.toml"
mkdir -p "$R/etc/spieltisch"
printf '[display]\ntype = "none"\n' >"$R/etc/spieltisch/config.toml"
wants=$R/etc/systemd/system/multi-user.target.wants
mkdir -p "$wants"
ln -sf /etc/systemd/system/spieltisch-firstboot.service "$wants/"
ln -sf /lib/systemd/system/NetworkManager.service "$wants/NetworkManager.service"
step wifi-program "$t"
"$VM_HERE/make-image.sh" 4G
install -m 0755 "$VM_HERE/guest/wifi_flow.sh" "$SHARE/wifi_flow.sh"
rm -rf "$SHARE/out/wifi" "$SHARE/cmd"
mkdir -p "$SHARE/out"
t=$(now)
"$VM_HERE/vm.sh" start wifi >/dev/null
"$VM_HERE/vm.sh" wait wifi agent-up 900 | tee -a "$LOGS/steps.log"
step wifi-boot "$t"
t=$(now)
rc=0
"$VM_HERE/vm.sh" exec 'bash /mnt/host/wifi_flow.sh' 2400 >"$LOGS/wifi-flow.log" 2>&1 || rc=$?
step wifi-flow "$t"
grep -a '^WIFI' "$LOGS/wifi-flow.log" || true
"$VM_HERE/vm.sh" kill
echo "wifi.sh: flow exit $rc; log $LOGS/wifi-flow.log, files $SHARE/out/wifi/"
exit "$rc"
