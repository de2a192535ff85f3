# image/build.sh's "root" step (sourced, not run): the Debian base in $R becomes the
# card's system. $R's chroot mounts are up; $ARCH, $VERSION, $SRC, $DEPS, $COMPILED, $W,
# $IMG_HERE, $IMG_OUT and $NAME come from build.sh.
F=$IMG_HERE/files
in_root() { run_in "$R" "$@"; }

# ---- the service user, as systemd/install.sh makes it
for group in gpio spi dialout; do in_root groupadd --force --system "$group"; done
in_root useradd --system --user-group --home-dir /var/lib/spieltisch --no-create-home \
    --shell /usr/sbin/nologin --comment "spieltisch game table" spieltisch
in_root usermod --append --groups gpio,spi,dialout spieltisch
# Debian's kernel makes the GPIO chips and SPI devices root's; Raspberry Pi OS gives
# them to these groups, and so does this rule
cat >"$R/etc/udev/rules.d/60-spieltisch-gpio-spi.rules" <<'EOF'
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"
EOF

# ---- the program, as the factory release: /usr/lib/spieltisch/factory on the read-only
# root holds its venv and its source (docs, config example), and RELEASE names it. The
# releases themselves live on the data partition, where an update can add one:
# /opt/spieltisch is a symlink to /data/releases, whose releases/<version> links to the
# factory release and whose "current" points at it until the first update (and again
# whenever it names no release: spieltisch-releases.service). /opt/spieltisch/venv and
# /opt/spieltisch/src, the paths the units and install.sh use, lead through "current".
REL=/usr/lib/spieltisch/factory
mkdir -p "$R$REL"
cp -a "$SRC" "$R$REL/src"
PURE=$W/wheel-pure
rm -rf "$PURE" && mkdir -p "$PURE"
[ -x "$W/hostvenv/bin/pip" ] || python3 -m venv "$W/hostvenv"
"$W/hostvenv/bin/pip" wheel -q --no-deps --wheel-dir "$PURE" "$SRC"
mkdir -p "$R/tmp/wheels"
cp "$DEPS"/*.whl "$PURE"/*.whl "$R/tmp/wheels/"
in_root python3 -m venv "$REL/venv"
in_root "$REL/venv/bin/pip" install -q --no-index --find-links /tmp/wheels 'spieltisch[pi,web]'
# The rules compiled by mypyc for this architecture, from the cached compiled wheel of
# the same rules/ and setup.py: its extension modules go beside the .py files, where the
# import system prefers them (rules.build_info reports which build runs).
SITE=$(in_root "$REL/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
python3 - "$COMPILED"/spieltisch-*.whl "$R$SITE" <<'EOF'
import sys, zipfile
wheel, site = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as zf:
    names = [n for n in zf.namelist() if n.endswith(".so")]
    for n in names:
        zf.extract(n, site)
print(f"{len(names)} compiled modules from {wheel.rsplit('/', 1)[-1]}")
EOF
in_root "$REL/venv/bin/python" -m compileall -q "$REL/venv/lib" >/dev/null || true
BUILD_LINE=$(cd / && in_root "$REL/venv/bin/python" -c \
    'from rules.build_info import describe_build; print(describe_build())')
echo "program: $VERSION, rules $BUILD_LINE" | tee -a "$LOG"
case "$BUILD_LINE" in *compiled*) ;; *) echo "build.sh: the rules are not compiled" >&2; exit 1 ;; esac
printf '{"release": "%s", "version": "%s", "compiled": true, "key": "factory"}\n' \
    "$VERSION" "$PKGVER" >"$R$REL/RELEASE"
rm -rf "${R:?}/opt/spieltisch"
ln -sfn /data/releases "$R/opt/spieltisch"
# the data partition's releases (image/assemble.sh makes its file system from $R/data)
install -d -m 0755 "$R/data/releases" "$R/data/releases/releases"
ln -sfn "$REL" "$R/data/releases/releases/$VERSION"
ln -sfn "releases/$VERSION" "$R/data/releases/current"
ln -sfn current/venv "$R/data/releases/venv"
ln -sfn current/src "$R/data/releases/src"
# the step every start runs: on the links just made it has nothing to do
in_root "$REL/venv/bin/python" -I -m controller.release.layout "$REL"

# ---- the unit, its polkit rule, and the first-start units of systemd/image/
install -m 0644 "$SRC/systemd/spieltisch.service" "$R/etc/systemd/system/spieltisch.service"
install -d -m 0755 "$R/etc/polkit-1/rules.d"
install -m 0644 "$SRC/systemd/50-spieltisch-poweroff.rules" "$R/etc/polkit-1/rules.d/"
units=(spieltisch.service)
for unit in "$SRC"/systemd/image/*.service "$SRC"/systemd/image/*.timer "$SRC"/systemd/image/*.path; do
    [ -e "$unit" ] || continue
    install -m 0644 "$unit" "$R/etc/systemd/system/"
    units+=("$(basename "$unit")")
done
for f in spieltisch-grow-data spieltisch-ssh-keys; do
    install -m 0755 "$F/$f" "$R/usr/local/sbin/$f"
    install -m 0644 "$F/$f.service" "$R/etc/systemd/system/$f.service"
    units+=("$f.service")
done
install -m 0644 "$F/spieltisch-ready-console.service" "$R/etc/systemd/system/"
units+=(spieltisch-ready-console.service)
# the releases on the data partition, before anything runs the program
install -m 0644 "$F/spieltisch-releases.service" "$R/etc/systemd/system/"
units+=(spieltisch-releases.service)
# updates, as systemd/install.sh sets them up: the rollback, the check after an update,
# the page's inbox; the project's signing key on the read-only root, where the program
# reads the keys an image ships (/usr/share/spieltisch/keys); /etc/spieltisch-keys, where
# `spieltisch update trust` adds a key of one's own, is a link into the data partition
for unit in spieltisch-rollback.service spieltisch-update-check.service \
    spieltisch-update.service spieltisch-update.path; do
    install -m 0644 "$SRC/systemd/$unit" "$R/etc/systemd/system/$unit"
done
units+=(spieltisch-update.path spieltisch-update-check.service)
install -d -m 0755 "$R/usr/share/spieltisch/keys"
for key in "$SRC"/systemd/keys/*.pub; do
    [ -e "$key" ] || continue
    install -m 0644 "$key" "$R/usr/share/spieltisch/keys/"
done
rm -rf "$R/etc/spieltisch-keys"
ln -sfn /data/system/spieltisch-keys "$R/etc/spieltisch-keys"
in_root systemctl enable "${units[@]}"
echo "enabled: ${units[*]}" | tee -a "$LOG"

# ---- the data partition, mounted on /data: $R/data is its content here; image/assemble.sh
# makes the data file system from it and leaves the mount point empty on the root.
#   spieltisch/      the service's state: the saved game, the history (/var/lib/spieltisch)
#   etc-spieltisch/  the config (/etc/spieltisch): config.example.toml with no panel
#                    chosen yet; the table starts and waits, saying so, until the
#                    settings file or the page names one
#   system/          the card's own: machine-id, hostname, SSH key, Wi-Fi networks,
#                    systemd's random seed and clock, the update keys added with
#                    `spieltisch update trust`; root's, out of the service's reach
D=$R/data
install -d -m 0755 "$D" "$D/system" "$D/system/ssh" "$D/system/nm-lib" "$D/system/systemd-lib" \
    "$D/system/spieltisch-keys"
install -d -m 0750 "$D/spieltisch"
install -d -m 0775 "$D/etc-spieltisch"
install -d -m 0700 "$D/system/nm-connections" "$D/system/spieltisch-boot"
# the time zone: /etc/localtime and /etc/timezone point into the data partition's
# system/zone/ (readable by all, as the zone must be), where the settings file's step
# replaces them, each with one rename (UTC until then)
install -d -m 0755 "$D/system/zone"
ln -sfn /usr/share/zoneinfo/Etc/UTC "$D/system/zone/localtime"
echo Etc/UTC >"$D/system/zone/timezone"
ln -sfn /data/system/zone/localtime "$R/etc/localtime"
ln -sfn /data/system/zone/timezone "$R/etc/timezone"
sed '0,/^type = /s/^type = .*/type = "none"/' "$SRC/config.example.toml" >"$D/etc-spieltisch/config.toml"
chmod 0664 "$D/etc-spieltisch/config.toml"
cp -a "$R/var/lib/NetworkManager/." "$D/system/nm-lib/" 2>/dev/null || true
cp -a "$R/var/lib/systemd/." "$D/system/systemd-lib/"
in_root chown spieltisch:spieltisch /data/spieltisch
in_root chown root:spieltisch /data/etc-spieltisch /data/etc-spieltisch/config.toml
in_root /opt/spieltisch/venv/bin/spieltisch config check /data/etc-spieltisch/config.toml
install -d "$R/etc/spieltisch" "$R/etc/ssh/spieltisch" "$R/boot/firmware" "$R/var/lib/spieltisch" \
    "$R/var/lib/spieltisch-boot"

# ---- a read-only root (docs/install.md says why not an overlay)
install -m 0644 "$F/fstab" "$R/etc/fstab"
# systemd reads both before anything is mounted; the initramfs has mounted the data
# partition by then and made them on the first boot (image/files/initramfs-data)
ln -sfn /data/system/machine-id "$R/etc/machine-id"
ln -sfn /data/system/hostname "$R/etc/hostname"
rm -f "$R/var/lib/dbus/machine-id"
ln -sfn /etc/machine-id "$R/var/lib/dbus/machine-id"
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$R/etc/hosts"
# NetworkManager writes the DNS servers to /run and leaves a symlink alone
ln -sfn /run/NetworkManager/resolv.conf "$R/etc/resolv.conf.image"
install -d "$R/etc/systemd/journald.conf.d"
printf '# spieltisch: the journal stays in RAM; the card is not worn by logs\n[Journal]\nStorage=volatile\nRuntimeMaxUse=32M\n' \
    >"$R/etc/systemd/journald.conf.d/spieltisch.conf"
install -d "$R/etc/NetworkManager/conf.d"
cat >"$R/etc/NetworkManager/conf.d/spieltisch.conf" <<'EOF'
# spieltisch: the host name is the card's own (spieltisch-XXXX), made at first boot; the
# DNS servers go to /run/NetworkManager/resolv.conf, which /etc/resolv.conf points to
# (the root is read-only, so NetworkManager must not try to replace that link)
[main]
hostname-mode=none
rc-manager=unmanaged
EOF
echo 'LANG=C.UTF-8' >"$R/etc/default/locale"
# SSH: no shared host keys (each card makes its own), off until a key is given
rm -f "$R"/etc/ssh/ssh_host_*
install -m 0644 "$F/sshd-spieltisch.conf" "$R/etc/ssh/sshd_config.d/spieltisch.conf"
install -d "$R/etc/systemd/system/ssh.service.d"
install -m 0644 "$F/ssh-dropin.conf" "$R/etc/systemd/system/ssh.service.d/spieltisch.conf"
in_root systemctl enable ssh.service
# nothing that writes to the root or wakes up to fetch: the card is updated as a whole
in_root systemctl disable apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer \
    e2scrub_all.timer fstrim.timer e2scrub_reap.service NetworkManager-wait-online.service 2>/dev/null || true
in_root passwd -l root >/dev/null
# No login prompt on the serial console: with no password nobody could use it, and a
# getty there would silence systemd's boot status on that console, which is how the
# VM test (and anyone with a serial cable) sees the table become ready.
in_root systemctl mask serial-getty@.service

# ---- the initramfs: mounts the data partition and makes the card's identity
install -m 0755 "$F/initramfs-hook" "$R/etc/initramfs-tools/hooks/spieltisch-data"
install -m 0755 "$F/initramfs-data" "$R/etc/initramfs-tools/scripts/local-bottom/spieltisch-data"

# ---- the boot partition's files, staged in $R/boot/firmware; the settings file as a
# template to fill in on any laptop, and the hotspot's captive-portal DNS answer
BOOTFILES=$R/boot/firmware
. "$IMG_HERE/boot-$ARCH.sh"
if [ -f "$SRC/systemd/image/spieltisch.toml" ]; then
    install -m 0644 "$SRC/systemd/image/spieltisch.toml" "$BOOTFILES/spieltisch.toml"
fi
if [ -d "$SRC/systemd/image/dnsmasq-shared.d" ]; then
    install -d "$R/etc/NetworkManager/dnsmasq-shared.d"
    install -m 0644 "$SRC"/systemd/image/dnsmasq-shared.d/*.conf "$R/etc/NetworkManager/dnsmasq-shared.d/"
fi

# ---- what was built: the packages and the program's files
in_root dpkg-query -W -f '${Package}\t${Version}\t${Architecture}\n' >"$IMG_OUT/$NAME.packages"
(cd "$R$REL" && find . -path '*/__pycache__' -prune -o -type f -print0 | sort -z | xargs -0 sha256sum) \
    >"$IMG_OUT/$NAME.manifest"
echo "$BUILD_LINE" >"$R$REL/BUILD"

# what systemd-tmpfiles would set up under /etc at every boot (it cannot on a
# read-only root): done once here
in_root systemd-tmpfiles --create --prefix=/etc >/dev/null 2>&1 || true

# ---- clean up: no caches, no build DNS, no logs
in_root apt-get clean
rm -rf "$R"/var/lib/apt/lists/* "$R"/var/cache/apt/*.bin "$R"/var/log/* "$R"/tmp/* "$R"/var/tmp/*
rm -rf "$R"/root/.cache
rm -f "$R/etc/resolv.conf"
mv "$R/etc/resolv.conf.image" "$R/etc/resolv.conf"
# systemd's "needs update" checks compare these with /usr: all is up to date
touch "$R/etc/.updated" "$R/var/.updated"

# ---- a fresh card's data partition, kept on the read-only root: when the data partition
# cannot be mounted, the initramfs fills a RAM /data from it (image/files/initramfs-data),
# so that the card starts as a fresh card does (the config, the links to the factory
# release, the directories the fstab binds), keeping nothing past a power-off
SKEL=$R/usr/lib/spieltisch/data-skeleton
rm -rf "$SKEL"
mkdir -p "$SKEL"
cp -a "$R/data/." "$SKEL/"
