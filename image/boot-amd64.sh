# image/build.sh's boot files for amd64 (sourced by configure.sh): the boot partition is
# the EFI system partition. systemd-boot (Debian's systemd-boot-efi) is the firmware's
# fallback loader EFI/BOOT/BOOTX64.EFI, so any UEFI PC or VM boots the disk without
# boot entries in its NVRAM; it starts the kernel and initrd copied beside it.
in_root update-initramfs -u -k all
KVER=$(ls "$R"/boot/vmlinuz-* | sed "s|.*/vmlinuz-||" | sort -V | tail -n 1)
install -d "$BOOTFILES/EFI/BOOT" "$BOOTFILES/loader/entries"
install -m 0644 "$R/usr/lib/systemd/boot/efi/systemd-bootx64.efi" "$BOOTFILES/EFI/BOOT/BOOTX64.EFI"
install -m 0644 "$R/boot/vmlinuz-$KVER" "$BOOTFILES/vmlinuz"
install -m 0644 "$R/boot/initrd.img-$KVER" "$BOOTFILES/initrd.img"
printf 'default spieltisch.conf\ntimeout 0\neditor no\n' >"$BOOTFILES/loader/loader.conf"
cat >"$BOOTFILES/loader/entries/spieltisch.conf" <<EOT
title   spieltisch $VERSION
linux   /vmlinuz
initrd  /initrd.img
options root=LABEL=spieltisch-root ro rootwait console=tty0 console=ttyS0,115200 panic=10
EOT
