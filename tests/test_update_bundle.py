"""Update bundles: built, signed and checked; every refusal is one line through the real
``spieltisch update apply`` and leaves the table as it was."""

from __future__ import annotations

import base64
import gzip
import json
import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from controller.release.bundle import BundleError, check_bundle, this_arch, this_python
from controller.release.keys import load_private, sign, trusted_keys
from tests.update_fixtures import (
    Ran,
    installed_table,
    keys,
    regular,
    special,
    spieltisch,
    tar_with,
    toy_bundle,
    toy_wheel,
    update,
)


@pytest.fixture
def table(tmp_path: Path) -> dict[str, Path]:
    """An installed table: a current release, a state directory with a trusted project
    key."""
    return installed_table(tmp_path)


def snapshot(root: Path) -> dict[str, bytes | str]:
    found: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        key = str(path.relative_to(root))
        if path.is_symlink():
            found[key] = "-> " + os.readlink(path)
        elif path.is_file():
            found[key] = path.read_bytes()
        else:
            found[key] = "dir"
    return found


def apply(table: dict[str, Path], bundle: Path) -> Ran:
    return update(table, "apply", str(bundle), "--no-restart")


def assert_refused(table: dict[str, Path], bundle: Path, words: str) -> None:
    before = snapshot(table["tmp"])
    result = apply(table, bundle)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert words in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(table["tmp"]) == before


def test_a_good_bundle_is_checked_and_its_manifest_believed(table: dict[str, Path]) -> None:
    bundle = toy_bundle(table["tmp"] / "b.tar", table["private"], "0.2.0")
    into = table["tmp"] / "unpacked"
    into.mkdir()
    checked = check_bundle(bundle, into, trusted_keys(table["state"] / "keys"))
    assert (checked.release, checked.arch, checked.python) == ("0.2.0", this_arch(), this_python())
    assert checked.key == "project.pub"
    assert [p.name for p in checked.wheels.iterdir()] == ["spieltisch-0.2.0-py3-none-any.whl"]


def test_a_bundle_signed_by_a_stranger_is_refused(table: dict[str, Path]) -> None:
    stranger, _ = keys(table["tmp"] / "stranger", "stranger")
    bundle = toy_bundle(table["tmp"] / "b.tar", stranger, "0.2.0")
    assert_refused(table, bundle, "signature does not match any key this table trusts")


def test_a_table_trusting_no_key_refuses(table: dict[str, Path]) -> None:
    bundle = toy_bundle(table["tmp"] / "b.tar", table["private"], "0.2.0")
    (table["state"] / "keys" / "project.pub").unlink()
    assert_refused(table, bundle, "trusts no signing key")


def test_a_bundle_for_another_architecture_is_refused(table: dict[str, Path]) -> None:
    other = "armv6l" if this_arch() != "armv6l" else "x86_64"
    bundle = toy_bundle(table["tmp"] / "b.tar", table["private"], "0.2.0", arch=other)
    assert_refused(table, bundle, f"built for '{other}'")


def test_a_bundle_for_another_python_is_refused(table: dict[str, Path]) -> None:
    bundle = toy_bundle(table["tmp"] / "b.tar", table["private"], "0.2.0", python="3.9")
    assert_refused(table, bundle, "built for Python '3.9'")


def rewrite(bundle: Path, out: Path, change: dict[str, bytes | None]) -> Path:
    """``bundle`` with members replaced (bytes), removed (None) or added."""
    with tarfile.open(bundle) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]
    for name, data in change.items():
        if data is None:
            members.pop(name)
        else:
            members[name] = data
    return tar_with(out, [regular(n, d) for n, d in members.items()], gz=False)


def test_a_changed_wheel_fails_its_hash(table: dict[str, Path]) -> None:
    bundle = toy_bundle(table["tmp"] / "b.tar", table["private"], "0.2.0")
    name = "wheels/spieltisch-0.2.0-py3-none-any.whl"
    bad = rewrite(bundle, table["tmp"] / "bad.tar", {name: b"PK not the wheel"})
    assert_refused(table, bad, f"the hash of {name} does not match")


def test_a_wheel_slipped_in_or_left_out_is_refused(table: dict[str, Path]) -> None:
    bundle = toy_bundle(table["tmp"] / "b.tar", table["private"], "0.2.0")
    extra = rewrite(bundle, table["tmp"] / "extra.tar", {"wheels/evil-1-py3-none-any.whl": b"x"})
    assert_refused(table, extra, "holds wheels/evil-1-py3-none-any.whl, not in its manifest")
    missing = rewrite(
        bundle, table["tmp"] / "missing.tar", {"wheels/spieltisch-0.2.0-py3-none-any.whl": None}
    )
    assert_refused(table, missing, "lacks wheels/spieltisch-0.2.0-py3-none-any.whl")


def test_a_source_file_slipped_in_is_refused(table: dict[str, Path]) -> None:
    bundle = toy_bundle(table["tmp"] / "b.tar", table["private"], "0.2.0")
    extra = rewrite(bundle, table["tmp"] / "extra.tar", {"src/docs/install.md": b"# evil"})
    assert_refused(table, extra, "holds src/docs/install.md, not in its manifest")


def test_a_manifest_changed_after_signing_is_refused(table: dict[str, Path]) -> None:
    bundle = toy_bundle(table["tmp"] / "b.tar", table["private"], "0.2.0")
    with tarfile.open(bundle) as tar:
        manifest = json.loads(tar.extractfile("manifest.json").read())  # type: ignore[union-attr]
    manifest["arch"] = "anything"
    bad = rewrite(
        bundle, table["tmp"] / "bad.tar", {"manifest.json": json.dumps(manifest).encode()}
    )
    assert_refused(table, bad, "signature does not match")


def test_a_signed_manifest_of_another_kind_is_refused(table: dict[str, Path]) -> None:
    """Even a trusted key's signature makes a backup manifest no bundle."""
    raw = json.dumps({"kind": "spieltisch-backup", "format": 1}).encode()
    sig = base64.b64encode(sign(load_private(table["private"]), raw))
    bad = tar_with(
        table["tmp"] / "bad.tar",
        [regular("manifest.json", raw), regular("manifest.sig", sig)],
        gz=False,
    )
    assert_refused(table, bad, "not a spieltisch bundle's")


HOSTILE = {
    "absolute path": ([regular("/etc/passwd")], "has an absolute path"),
    "parent path": ([regular("wheels/../../x.whl")], "escapes the archive's directory"),
    "symlink": ([special("wheels/a.whl", tarfile.SYMTYPE, "/etc/shadow")], "is a link"),
    "hard link": ([special("wheels/a.whl", tarfile.LNKTYPE, "manifest.json")], "is a link"),
    "device": ([special("wheels/a.whl", tarfile.CHRTYPE)], "is a device or FIFO"),
    "fifo": ([special("manifest.json", tarfile.FIFOTYPE)], "is a device or FIFO"),
    "stray member": ([regular("run-me.sh")], "does not belong in the bundle"),
    "twice": ([regular("manifest.json"), regular("manifest.json")], "is there twice"),
    "too many": ([regular(f"wheels/w{i}.whl") for i in range(401)], "more than 400 members"),
    "no manifest": ([regular("wheels/a.whl")], "no manifest or no signature"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
@pytest.mark.parametrize("gz", [False, True], ids=["tar", "tar.gz"])
def test_hostile_bundles_are_refused_in_one_line(
    table: dict[str, Path], case: str, gz: bool
) -> None:
    members, words = HOSTILE[case]
    bundle = tar_with(table["tmp"] / "hostile.tar", list(members), gz=gz)
    assert_refused(table, bundle, words)


def test_a_compressed_bomb_is_stopped_at_the_limit(table: dict[str, Path]) -> None:
    """A member claiming 2 GiB of zeros in a small gzip file: refused from its header, and
    a raw gzip stream of zeros with no tar in it stops at the unpacking cap."""
    bomb = table["tmp"] / "bomb.tar.gz"
    info = tarfile.TarInfo("wheels/big.whl")
    info.size = 2 << 30
    with gzip.open(bomb, "wb") as fh:
        fh.write(info.tobuf(format=tarfile.USTAR_FORMAT))  # the header's claim is what counts
        fh.write(bytes(1 << 16))
    assert_refused(table, bomb, "larger than 200 MB")
    zeros = table["tmp"] / "zeros.tar.gz"
    with gzip.open(zeros, "wb", compresslevel=9) as fh:
        block = bytes(1 << 20)
        for _ in range(900):
            fh.write(block)
    assert zeros.stat().st_size < 2 << 20
    before = snapshot(table["tmp"])
    result = apply(table, zeros)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert snapshot(table["tmp"]) == before


@pytest.mark.parametrize(
    "content", [b"", b"not an archive at all\n", b"\x1f\x8b garbage"], ids=["empty", "text", "gz"]
)
def test_a_file_that_is_no_archive_is_refused(table: dict[str, Path], content: bytes) -> None:
    bad = table["tmp"] / "bad.tar"
    bad.write_bytes(content)
    assert_refused(table, bad, "refused")


def test_a_missing_bundle_file_is_one_line(table: dict[str, Path]) -> None:
    assert_refused(table, table["tmp"] / "nowhere.tar", "cannot read")


def test_check_bundle_raises_bundle_error_for_a_stranger(table: dict[str, Path]) -> None:
    stranger, _ = keys(table["tmp"] / "stranger", "stranger")
    bundle = toy_bundle(table["tmp"] / "b.tar", stranger, "0.2.0")
    into = table["tmp"] / "u"
    into.mkdir()
    with pytest.raises(BundleError, match="signature"):
        check_bundle(bundle, into, trusted_keys(table["state"] / "keys"))


def test_keygen_trust_and_status_from_the_command_line(tmp_path: Path) -> None:
    private, public = tmp_path / "me.key", tmp_path / "me.pub"
    made = spieltisch("update", "keygen", str(private), str(public))
    assert made.returncode == 0, made.stderr
    assert private.stat().st_mode & 0o077 == 0
    state = tmp_path / "state"
    trusted = spieltisch(
        "update", "--keys", str(state / "keys"), "trust", str(public), "--name", "me"
    )
    assert trusted.returncode == 0, trusted.stderr
    assert (state / "keys" / "me.pub").read_bytes() == public.read_bytes()
    refused = spieltisch("update", "--keys", str(state / "keys"), "trust", str(private))
    assert refused.returncode == 2 and "not a PEM public key" in refused.stderr
    again = spieltisch("update", "keygen", str(private), str(public))
    assert again.returncode == 2 and again.stderr.count("\n") == 1  # never overwritten
    status = spieltisch(
        "update",
        "--prefix",
        str(tmp_path / "opt"),
        "--state-dir",
        str(state),
        "--keys",
        str(state / "keys"),
        "status",
    )
    assert status.returncode == 0
    assert "trusted keys: me.pub" in status.stdout


def test_update_bundle_signs_the_wheels_of_a_checkout(tmp_path: Path) -> None:
    """``spieltisch update bundle --wheels DIR``: the release is named after the
    checkout's version and revision; the bundle passes the table's check."""
    checkout = tmp_path / "checkout"
    (checkout / "docs" / "img").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text('[project]\nname = "spieltisch"\nversion = "0.4.0"\n')
    (checkout / "docs" / "install.md").write_text("# Install\n")
    (checkout / "docs" / "img" / "panel.png").write_bytes(b"\x89PNG")
    (checkout / "config.example.toml").write_text("[game]\n")
    (checkout / "controller").mkdir()
    (checkout / "controller" / "cli.py").write_text("# code comes from the wheels only\n")
    subprocess.run(["git", "init", "-q", str(checkout)], check=True)
    wheels = tmp_path / "wheels"
    toy_wheel(wheels, "0.4.0")
    private, public = keys(tmp_path / "builder")
    out = tmp_path / "b.tar"
    made = spieltisch(
        "update",
        "bundle",
        str(out),
        "--key",
        str(private),
        "--checkout",
        str(checkout),
        "--wheels",
        str(wheels),
    )
    assert made.returncode == 0, made.stderr
    assert "release 0.4.0" in made.stdout and "1 wheels, 5 source files" in made.stdout
    (tmp_path / "trusted").mkdir()
    (tmp_path / "trusted" / "p.pub").write_bytes(public.read_bytes())
    into = tmp_path / "u"
    into.mkdir()
    checked = check_bundle(out, into, trusted_keys(tmp_path / "trusted"))
    assert checked.release.startswith("0.4.0")
    # the release's src: the docs and examples, the revision; no code
    copied = sorted(p.relative_to(checked.sources).as_posix() for p in checked.sources.rglob("*"))
    assert copied == [
        "REVISION",
        "config.example.toml",
        "docs",
        "docs/img",
        "docs/img/panel.png",
        "docs/install.md",
        "pyproject.toml",
    ]
    empty = tmp_path / "empty"
    empty.mkdir()
    refused = spieltisch(
        "update",
        "bundle",
        str(tmp_path / "c.tar"),
        "--key",
        str(private),
        "--checkout",
        str(checkout),
        "--wheels",
        str(empty),
    )
    assert refused.returncode == 2 and "holds no spieltisch wheel" in refused.stderr
