# image/build.sh's boot files for arm64 (sourced by configure.sh), made as Debian's own
# Raspberry Pi images make them: raspi-firmware's kernel hook
# (/etc/kernel/postinst.d/z50-raspi-firmware) copies the GPU firmware, the kernel, the
# initrd and the Pi device trees to /boot/firmware and writes config.txt and
# cmdline.txt from /etc/default/raspi-firmware; here only its settings are ours:
#   ROOTPART  the root by its label, as on any card reader
#   CONSOLES  the HDMI screen and the Pi 3/4's UART (the build chroot has neither, so
#             "auto" would find only tty0)
#   CMA=0     no contiguous memory pool for the video driver: the table is headless,
#             and the hook's own notes say cma= can stop a Pi 4 from booting
#   ro        (appended to cmdline.txt) the root stays read-only from the first mount
#             on; the hook writes "rw" before it, and the last word counts
sed -i -e 's|^#\?ROOTPART=.*|ROOTPART="LABEL=spieltisch-root"|' \
    -e 's|^#\?CONSOLES=.*|CONSOLES="tty0 ttyS1,115200"|' \
    -e 's|^#\?CMA=.*|CMA=0|' "$R/etc/default/raspi-firmware"
echo "ro panic=10" >"$R/etc/default/raspi-extra-cmdline"
cp "$R"/usr/lib/raspi-firmware/* "$BOOTFILES/"
# update-initramfs runs the hook (/etc/initramfs/post-update.d/z50-raspi-firmware)
in_root update-initramfs -u -k all
grep -q '^initramfs initrd.img-' "$BOOTFILES/config.txt" ||
    { echo "build.sh: raspi-firmware wrote no config.txt with an initramfs" >&2; exit 1; }
grep -q 'root=LABEL=spieltisch-root .* ro' "$BOOTFILES/cmdline.txt" ||
    { echo "build.sh: unexpected cmdline.txt: $(cat "$BOOTFILES/cmdline.txt")" >&2; exit 1; }
echo "config.txt:" && grep -v '^#' "$BOOTFILES/config.txt" | grep . | sed 's/^/  /'
echo "cmdline.txt: $(cat "$BOOTFILES/cmdline.txt")"
ls "$BOOTFILES"/*.dtb | sed 's|.*/|  dtb: |'
