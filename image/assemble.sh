# image/build.sh's "image" step (sourced, not run): three file systems from $R, and one
# disk image laid out by sfdisk (an MBR: the Pi's boot ROM reads nothing else).
#   1  boot  FAT32, SPIELBOOT         the boot files (amd64: the EFI system partition),
#                                     mounted at /boot/firmware, where the settings file is
#   2  root  ext4, spieltisch-root    the system, mounted read-only
#   3  data  ext4, spieltisch-data    on /data: the config, the save, the history, the
#                                     card's name and keys;
#                                     small here, it grows to fill the card at first boot
BOOT_MIB=${IMG_BOOT_MIB:-256}
DATA_MIB=${IMG_DATA_MIB:-128}
A=$W/assemble
export MTOOLS_SKIP_CHECK=1
rm -rf "$A"
mkdir -p "$A/boot" "$A/data"
# take the boot files and the data partition's content out of the root: there, both
# are empty mount points
mv "$R/boot/firmware"/* "$A/boot/"
cp -a "$R/data/." "$A/data/"
rm -rf "${R:?}/data"/* "${R:?}/boot/firmware"/*

root_kib=$(du -sk --apparent-size "$R" | cut -f1)
ROOT_MIB=$(((root_kib * 12 / 10) / 1024 + 128))

rm -f "$A"/*.img
mkfs.vfat -F 32 -n SPIELBOOT -C "$A/boot.img" $((BOOT_MIB * 1024)) >/dev/null
mcopy -s -p -Q -i "$A/boot.img" "$A/boot"/* ::/
mkfs.ext4 -q -F -L spieltisch-root -m 0 -d "$R" "$A/root.img" "${ROOT_MIB}M"
mkfs.ext4 -q -F -L spieltisch-data -m 1 -d "$A/data" "$A/data.img" "${DATA_MIB}M"

case "$ARCH" in amd64) boot_type=ef ;; *) boot_type=c ;; esac
DISK=$A/disk.img
truncate -s $((8 + BOOT_MIB + ROOT_MIB + DATA_MIB + 1))M "$DISK"
sfdisk -q "$DISK" <<EOT
label: dos
label-id: 0x$(od -An -tx4 -N4 /dev/urandom | tr -d ' ')
start=8MiB, size=${BOOT_MIB}MiB, type=$boot_type, bootable
size=${ROOT_MIB}MiB, type=83
size=${DATA_MIB}MiB, type=83
EOT
n=0
for part in boot root data; do
    n=$((n + 1))
    start=$(sfdisk -J "$DISK" | python3 -c "import json, sys; print(json.load(sys.stdin)['partitiontable']['partitions'][$n - 1]['start'])")
    dd if="$A/$part.img" of="$DISK" bs=1M seek=$((start / 2048)) conv=notrunc,sparse status=none
done
sfdisk -l "$DISK" | tee -a "$LOG"
rm -f "$IMG_OUT/$NAME.img.xz"
xz -T2 -"${IMG_XZ_LEVEL:-3}" -c "$DISK" >"$IMG_OUT/$NAME.img.xz.tmp"
mv "$IMG_OUT/$NAME.img.xz.tmp" "$IMG_OUT/$NAME.img.xz"
(cd "$IMG_OUT" && sha256sum "$NAME.img.xz" >"$NAME.sha256")
echo "image: $IMG_OUT/$NAME.img.xz ($(du -h "$IMG_OUT/$NAME.img.xz" | cut -f1); $((8 + BOOT_MIB + ROOT_MIB + DATA_MIB + 1)) MiB written to the card)" | tee -a "$LOG"
