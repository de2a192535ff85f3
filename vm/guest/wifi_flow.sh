#!/bin/bash
# Inside the Wi-Fi VM, as root (vm/wifi.sh runs it through the agent): the first start
# with three mac80211_hwsim radios. Every step prints one "WIFI <uptime> ..." line;
# a failed step prints "WIFI <uptime> FAIL ...", the journals, and exits 1.
set -u
O=/mnt/host/out/wifi
mkdir -p $O
STATUS=/run/spieltisch/network.json
HOME_SSID=Zuhause
HOME_PSK=richtig-geheim-42
PAGE=10.42.0.1
up() { cut -d' ' -f1 /proc/uptime; }
log() { echo "WIFI $(up) $*"; }
dump() {
    journalctl -b --no-pager -u spieltisch-network -u spieltisch-firstboot >$O/journal-spieltisch.txt 2>&1
    journalctl -b --no-pager -u NetworkManager >$O/journal-nm.txt 2>&1
    cp -f $STATUS $O/ 2>/dev/null || true
}
fail() { log "FAIL $*"; dump; tail -n 40 $O/journal-spieltisch.txt; exit 1; }
field() { python3 -c "import json,sys; print(json.load(open('$STATUS')).get(sys.argv[1], ''))" "$1" 2>/dev/null; }
# until STATE (and, if given, REASON-WORDS in the reason) within TIMEOUT seconds
wait_status() {
    local want=$1 timeout=$2 words=${3:-} end=$(( $(date +%s) + $2 ))
    while [ "$(date +%s)" -lt $end ]; do
        if [ "$(field state)" = "$want" ] && { [ -z "$words" ] || field reason | grep -q "$words"; }; then
            return 0
        fi
        sleep 0.5
    done
    return 1
}
phone() { ip netns exec phone "$@"; }
wpa() { phone wpa_cli -p /run/wpa_supplicant-phone -i wlan2 "$@"; }
# the phone joins SSID with PSK and takes an address and a DNS server by DHCP
phone_join() {
    local ssid=$1 psk=$2 id end dns
    wpa remove_network all >/dev/null
    id=$(wpa add_network | tail -n 1)
    wpa set_network "$id" ssid "\"$ssid\"" >/dev/null
    wpa set_network "$id" psk "\"$psk\"" >/dev/null
    wpa enable_network "$id" >/dev/null
    phone_connected 120 || return 1
    phone_address
}
phone_connected() {
    local end=$(( $(date +%s) + $1 ))
    while [ "$(date +%s)" -lt $end ]; do
        wpa status | grep -q '^wpa_state=COMPLETED' && return 0
        sleep 0.5
    done
    return 1
}
phone_address() {
    phone dhclient -r -pf /run/phone-dhclient.pid -lf /run/phone.leases wlan2 >/dev/null 2>&1
    rm -f /run/phone.leases
    phone timeout 60 dhclient -1 -pf /run/phone-dhclient.pid -lf /run/phone.leases wlan2 >/dev/null 2>&1 || return 1
    dns=$(grep -o 'domain-name-servers [0-9.]*' /run/phone.leases | tail -n 1 | cut -d' ' -f2)
    echo "nameserver ${dns:-127.0.0.1}" >/etc/netns/phone/resolv.conf
    phone ip -4 -o addr show wlan2 | awk '{print $4}'
}
get() { phone curl -s -m 20 "$@"; }

# Nothing in here may leave the VM: the wired NIC loses its default route.
ip route del default 2>/dev/null || true

# -- the settings file was applied at boot -------------------------------------------
for _ in $(seq 600); do  # under emulation its Python takes a while to start
    [ "$(systemctl show -p ActiveState --value spieltisch-firstboot)" = activating ] || break
    sleep 0.5
done
systemctl is-active -q spieltisch-firstboot || fail "first-boot unit not active"
log "first-boot unit done, $(systemctl show -p ExecMainExitTimestampMonotonic --value spieltisch-firstboot | awk '{printf "%.1f", $1/1e6}') s after power-on"
grep -q "table.language: 'fr' is not allowed" $STATUS || fail "the settings problem is not in $STATUS"
log "first-boot: the wrong language is in the panel's status: $(field problems | cut -c1-90)"
[ "$(iw reg get | grep -m1 -o 'country [A-Z]*')" = "country DE" ] && log "first-boot: country DE set" || log "first-boot: country not DE: $(iw reg get | head -n 2 | tr '\n' ' ')"

# -- the radios -----------------------------------------------------------------------
modprobe mac80211_hwsim radios=3 || fail "no mac80211_hwsim in this kernel"
for _ in $(seq 100); do [ -e /sys/class/net/wlan2 ] && break; sleep 0.1; done
phy_of() { basename "$(readlink -f /sys/class/net/$1/phy80211)"; }
ip netns add home
ip netns add phone
mkdir -p /etc/netns/phone
echo "nameserver 127.0.0.1" >/etc/netns/phone/resolv.conf
iw phy "$(phy_of wlan1)" set netns name home || fail "cannot move the home radio"
iw phy "$(phy_of wlan2)" set netns name phone || fail "cannot move the phone radio"
log "radios: table wlan0 (root namespace), home wlan1, phone wlan2"

# the home network: WPA2, DHCP, in its own namespace
cat >/run/home-hostapd.conf <<HOSTAPD
interface=wlan1
driver=nl80211
ssid=$HOME_SSID
hw_mode=g
channel=6
country_code=DE
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=$HOME_PSK
HOSTAPD
home_up() {
    ip netns exec home ip link set lo up
    ip netns exec home hostapd -B -P /run/home-hostapd.pid /run/home-hostapd.conf >$O/hostapd.txt 2>&1 || return 1
    ip netns exec home ip addr replace 192.168.77.1/24 dev wlan1
    ip netns exec home dnsmasq --conf-file=/dev/null --interface=wlan1 --bind-interfaces --port=0 \
        --dhcp-range=192.168.77.50,192.168.77.99,1h --dhcp-option=3,192.168.77.1 \
        --pid-file=/run/home-dnsmasq.pid --dhcp-leasefile=/run/home-dnsmasq.leases
}
home_up || fail "the home network did not start"
log "home network $HOME_SSID up (hostapd, DHCP 192.168.77.0/24)"
# the phone
ip netns exec phone ip link set lo up
printf 'ctrl_interface=/run/wpa_supplicant-phone\n' >/run/phone-wpa.conf
phone wpa_supplicant -B -i wlan2 -c /run/phone-wpa.conf -P /run/phone-wpa.pid >/dev/null || fail "phone"

# -- no known network: the hotspot ----------------------------------------------------
start=$(date +%s.%N)
systemctl start spieltisch-network
wait_status hotspot 240 || fail "no hotspot within 240 s"
log "hotspot open $(python3 -c "import time;print(f'{time.time()-$start:.1f}')") s after the supervisor started (wait 60 s)"
HS=$(field hotspot)
HP=$(field password)
log "the panel shows: $HS / $HP"
addr=$(phone_join "$HS" "$HP") || fail "the phone did not join the hotspot"
log "phone joined $HS, got $addr, DNS $(cut -d' ' -f2 /etc/netns/phone/resolv.conf)"

# captive portal: any name leads to the page
check=$(get -o /dev/null -w '%{http_code} %{redirect_url}' http://connectivitycheck.gstatic.com/generate_204)
[ "$check" = "302 http://$PAGE/" ] || fail "captive check answered '$check'"
log "captive: http://connectivitycheck.gstatic.com/generate_204 -> $check"
get -H 'Accept-Language: de' "http://$PAGE/" >$O/portal-de.html
get "http://$PAGE/" >$O/portal.html
grep -q "<option value=\"$HOME_SSID\">" $O/portal.html || fail "the page does not list $HOME_SSID"
grep -q 'WLAN des Tischs einrichten' $O/portal-de.html || fail "no German page"
log "setup page lists: $(grep -o '<option value="[^"]*"' $O/portal.html | cut -d'"' -f2 | tr '\n' ' ')"

# submit the form and come back to the hotspot (the phone rejoins it by itself)
submit() {
    get -o $O/answer.html -w '%{http_code}' -X POST --data-urlencode "ssid=$HOME_SSID" \
        --data-urlencode "other=$1" --data-urlencode "password=$2" "http://$PAGE/join"
}
back_on_hotspot() {
    phone_connected 180 || return 1
    phone_address >/dev/null || return 1
}

# -- a network out of reach -----------------------------------------------------------
t=$(date +%s)
code=$(submit Nirgendwo irgendwas-1)
[ "$code" = 200 ] || fail "join form answered $code"
wait_status hotspot 240 "not in reach" || fail "no 'not in reach' (state $(field state), reason $(field reason))"
log "out of reach: back to the hotspot after $(( $(date +%s) - t )) s, reason: $(field reason | sed 's/{network}/Nirgendwo/')"
back_on_hotspot || fail "the phone did not come back to the hotspot"
get "http://$PAGE/" >$O/portal-out-of-reach.html
grep -q "the network Nirgendwo is not in reach" $O/portal-out-of-reach.html || fail "the page does not say why"
log "the page says: $(grep -o 'Joining did not work[^<]*' $O/portal-out-of-reach.html)"

# -- a wrong password -----------------------------------------------------------------
t=$(date +%s)
code=$(submit "" falsches-passwort)
wait_status hotspot 240 "not accepted" || fail "no 'not accepted' (state $(field state), reason $(field reason))"
log "wrong password: back to the hotspot after $(( $(date +%s) - t )) s"
back_on_hotspot || fail "the phone did not come back to the hotspot"
get "http://$PAGE/" >$O/portal-wrong-password.html
grep -q "the password for $HOME_SSID was not accepted" $O/portal-wrong-password.html || fail "the page does not say why"
log "the page says: $(grep -o 'Joining did not work[^<]*' $O/portal-wrong-password.html)"
nmcli -t -f NAME connection show | grep -qx "$HOME_SSID" && fail "a profile with the wrong password was kept"

# -- the right password ---------------------------------------------------------------
t=$(date +%s)
code=$(submit "" "$HOME_PSK")
wait_status online 240 || fail "not online (state $(field state), reason $(field reason))"
TABLE=$(field address)
log "online on $HOME_SSID at $TABLE after $(( $(date +%s) - t )) s; the panel shows: spieltisch.local $TABLE"
addr=$(phone_join "$HOME_SSID" "$HOME_PSK") || fail "the phone did not join the home network"
log "phone on $HOME_SSID with $addr"
get "http://$TABLE/" >$O/page-at-new-address.html
grep -q "http://$TABLE:8080" $O/page-at-new-address.html || fail "the page at $TABLE does not show it"
log "phone reaches the page at http://$TABLE/: $(grep -o 'The table is on[^<]*' $O/page-at-new-address.html)"
nmcli -t -f NAME connection show | grep -qx "$HOME_SSID" || fail "$HOME_SSID is not stored"

# -- the home network goes away: the hotspot opens again --------------------------------
kill "$(cat /run/home-hostapd.pid)"
t=$(date +%s)
wait_status hotspot 300 || fail "no hotspot after the home network went away"
log "home network off: hotspot again after $(( $(date +%s) - t )) s"

# -- the settings file names the home network: stored, blanked, joined without a hotspot --
systemctl stop spieltisch-network
nmcli connection delete "$HOME_SSID" >/dev/null 2>&1
nmcli connection down spieltisch-hotspot >/dev/null 2>&1
home_up || fail "the home network did not come back"
sed -i -e "s/^name = \"\"/name = \"$HOME_SSID\"/" -e "s/^password = \"\"/password = \"$HOME_PSK\"/" /boot/firmware/spieltisch.toml
systemctl restart spieltisch-firstboot || fail "first-boot failed"
cp /boot/firmware/spieltisch.toml $O/spieltisch.toml-after
grep -q "$HOME_PSK" /boot/firmware/spieltisch.toml && fail "the password is still on the card"
nmcli -t -f NAME connection show | grep -qx "$HOME_SSID" || fail "the settings file's network is not stored"
log "settings file: $HOME_SSID stored in NetworkManager, password line now: $(grep '^password' /boot/firmware/spieltisch.toml)"
t=$(date +%s)
rm -f $STATUS
systemctl start spieltisch-network
wait_status online 240 || fail "the stored network was not joined (state $(field state))"
journalctl -b --no-pager -u spieltisch-network --since "@$t" | grep -q "network: hotspot" && fail "a hotspot opened"
log "stored network joined without a hotspot after $(( $(date +%s) - t )) s at $(field address)"
dump
log "PASS"
