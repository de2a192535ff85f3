"""Ed25519 keys for update bundles: make a key pair, sign a manifest, check a signature.

All cryptography is the ``cryptography`` package's (OpenSSL underneath); nothing here
computes anything itself. The table trusts the public keys in its keys directory
(``/etc/spieltisch-keys/*.pub``, each a PEM ``PUBLIC KEY``), and on the card image
also the ones it ships on its read-only root (``/usr/share/spieltisch/keys``): the
installer writes the project's key to the first, the image to the second, and a
builder who signs their own bundles adds theirs with ``spieltisch update trust FILE``
(on the card the first is a link into the data partition). A signature is good when any one trusted
key verifies it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from hardware.atomic_file import write_atomically

MAX_KEY_BYTES = 4096
_KEY_NAME = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class KeyError_(ValueError):
    """A key file that cannot be used, in one line."""


def make_key_pair(private_path: Path, public_path: Path) -> None:
    """Write a new private key (PEM, mode 0600, never overwritten) and its public key."""
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(private)
    public_path.write_bytes(public_pem(key.public_key()))


def public_pem(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def load_private(path: Path) -> Ed25519PrivateKey:
    data = path.read_bytes()
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise KeyError_(f"{path} is not an unencrypted PEM private key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyError_(f"{path} is not an Ed25519 key")
    return key


def load_public(data: bytes, source: str) -> Ed25519PublicKey:
    if len(data) > MAX_KEY_BYTES:
        raise KeyError_(f"{source} is too large for a public key")
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as exc:
        raise KeyError_(f"{source} is not a PEM public key ({exc})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyError_(f"{source} is not an Ed25519 public key")
    return key


def trusted_keys(*directories: Path) -> dict[str, Ed25519PublicKey]:
    """The usable public keys in ``directories`` by file name, a later directory's key
    taking the place of an earlier one's of the same name (the keys added on the table
    over the ones an image ships); unusable files are left out (one broken file must
    not lock the table out of every update)."""
    keys: dict[str, Ed25519PublicKey] = {}
    for directory in directories:
        try:
            paths = sorted(directory.glob("*.pub"))
        except OSError:
            continue
        for path in paths:
            try:
                keys[path.name] = load_public(path.read_bytes(), str(path))
            except (OSError, KeyError_):
                continue
    return keys


def sign(key: Ed25519PrivateKey, message: bytes) -> bytes:
    return key.sign(message)


def verify(keys: dict[str, Ed25519PublicKey], message: bytes, signature: bytes) -> str | None:
    """The name of the trusted key that made ``signature`` over ``message``, else None."""
    for name, key in keys.items():
        try:
            key.verify(signature, message)
        except InvalidSignature:
            continue
        return name
    return None


def trust(public_file: Path, directory: Path, name: str | None = None) -> Path:
    """Copy a checked public key into ``directory`` (a new file renamed into place)."""
    data = public_file.read_bytes()
    load_public(data, str(public_file))
    stem = name or public_file.stem
    if not _KEY_NAME.match(stem):
        raise KeyError_(f"{stem!r} is not a usable key name (letters, digits, . _ -)")
    # resolved first: on the card the directory is a link into the data partition,
    # whose target a fresh data partition may not have yet
    target = directory.resolve()
    try:
        target.mkdir(parents=True, exist_ok=True)
        return write_atomically(target / f"{stem}.pub", lambda out: out.write(data))
    except OSError as exc:
        raise KeyError_(f"cannot add the key to {directory}: {exc.strerror or exc}") from None
