"""The project's public signing key, as the installer ships it to every table.

The key pair was made with ``spieltisch update keygen``; only the public half is in the
repository (docs/install.md, "Your own signing key", says who keeps the private half).
"""

from __future__ import annotations

import base64
import hashlib
import subprocess
from pathlib import Path

from cryptography.hazmat.primitives import serialization

from controller.release.keys import load_public, trusted_keys
from tests.update_fixtures import spieltisch

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "systemd" / "keys" / "spieltisch-project.pub"
LOST = {
    # the first project key: its private half was lost, so no bundle can be signed with
    # it by us, and one found by anyone else must not be trusted by a table
    "fXLcqS9drpekVBdmLkcw36wg7G21tZm90JZGW5cSKM4=",  # the raw public key, base64
}


def raw_key(pem: bytes) -> bytes:
    return load_public(pem, "key").public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )


def test_the_shipped_key_is_an_ed25519_key_that_update_trust_accepts(tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    result = spieltisch("update", "--keys", str(keys), "trust", str(SHIPPED))
    assert result.returncode == 0, result.stderr
    assert (keys / "spieltisch-project.pub").read_bytes() == SHIPPED.read_bytes()
    assert list(trusted_keys(keys)) == ["spieltisch-project.pub"]
    assert len(raw_key(SHIPPED.read_bytes())) == 32


def test_the_lost_key_is_no_longer_shipped() -> None:
    for shipped in (ROOT / "systemd" / "keys").glob("*.pub"):
        raw = base64.b64encode(raw_key(shipped.read_bytes())).decode()
        assert raw not in LOST, shipped


def test_the_docs_name_the_shipped_key_by_its_fingerprint() -> None:
    """A builder or owner compares what the table trusts with the fingerprint in the docs."""
    fingerprint = hashlib.sha256(raw_key(SHIPPED.read_bytes())).hexdigest()
    assert fingerprint in (ROOT / "docs" / "install.md").read_text(encoding="utf-8")


def test_no_private_key_is_in_the_repository() -> None:
    """Outside the tests (whose keys are made fresh or are hostile inputs), the checkout
    holds no private key."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "grep", "-l", "PRIVATE KEY-----", "--", ".", ":!tests"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert listed.stdout == ""
