"""``spieltisch update trust`` on the card image: the root is read-only, so the project's
key the image ships stays there (``/usr/share/spieltisch/keys``) and a key the family
adds goes to the data partition, through ``/etc/spieltisch-keys``, a link to
``/data/system/spieltisch-keys``. The updater trusts both. It used to read and write
only ``/etc/spieltisch-keys``, a directory on the read-only root of the card, so a key
could not be added there at all.

The card's places are directories in a temporary "root" and "data"; the shipped keys'
directory is made read-only (and checked unchanged, for a root user whom modes do not
stop); bundles are real toy releases installed into real venvs.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

from controller.release.layout import ReleaseLayout
from controller.testing.toy_release import toy_bundle
from tests.update_fixtures import installed_table, keys, spieltisch, update_args

IMAGE = Path(__file__).resolve().parent.parent / "image" / "configure.sh"


def card(tmp_path: Path) -> dict[str, Path]:
    """An installed table laid out as the card: the project's key shipped read-only on
    the root, ``etc/spieltisch-keys`` a link to a data directory not made yet (a fresh
    data partition)."""
    table = installed_table(tmp_path, history=True)
    shipped = tmp_path / "root" / "usr" / "share" / "spieltisch" / "keys"
    shipped.mkdir(parents=True)
    (table["state"] / "keys" / "project.pub").rename(shipped / "spieltisch-project.pub")
    (table["state"] / "keys").rmdir()
    shipped.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP)
    link = tmp_path / "root" / "etc" / "spieltisch-keys"
    link.parent.mkdir(parents=True)
    link.symlink_to(tmp_path / "data" / "system" / "spieltisch-keys")
    return {**table, "shipped": shipped, "keys": link}


def card_update(table: dict[str, Path], *args: str) -> tuple[int, str, str]:
    argv = update_args(table, *args)
    argv[argv.index("--keys") + 1] = str(table["keys"])
    ran = spieltisch(*argv[:1], "--shipped-keys", str(table["shipped"]), *argv[1:])
    return ran.returncode, ran.stdout, ran.stderr


def test_a_key_trusted_on_the_card_goes_to_the_data_partition_and_both_keys_count(
    tmp_path: Path,
) -> None:
    table = card(tmp_path)
    shipped_before = {p.name: p.read_bytes() for p in table["shipped"].iterdir()}
    builder_private, builder_public = keys(tmp_path / "family", "family")

    code, out, err = card_update(table, "trust", str(builder_public), "--name", "my-builds")
    assert code == 0, err
    added = tmp_path / "data" / "system" / "spieltisch-keys" / "my-builds.pub"
    assert out.strip() == f"trusted: {added}"
    assert added.read_bytes() == builder_public.read_bytes()
    assert {p.name: p.read_bytes() for p in table["shipped"].iterdir()} == shipped_before

    code, out, err = card_update(table, "status", "--json")
    assert code == 0, err
    assert json.loads(out)["trusted_keys"] == ["my-builds.pub", "spieltisch-project.pub"]

    # a bundle signed with the family's key, then one with the project's: both accepted
    layout = ReleaseLayout(table["prefix"])
    ours = toy_bundle(tmp_path / "ours.tar", builder_private, "0.2.0")
    code, out, err = card_update(table, "apply", "--no-restart", str(ours))
    assert code == 0, err
    assert layout.current_name() == "0.2.0"
    (table["state"] / "update" / "state.json").unlink()  # as if confirmed
    project = toy_bundle(tmp_path / "project.tar", table["private"], "0.3.0")
    code, out, err = card_update(table, "apply", "--no-restart", str(project))
    assert code == 0, err
    assert layout.current_name() == "0.3.0"


def test_a_key_of_the_shipped_name_added_on_the_card_takes_its_place(tmp_path: Path) -> None:
    """The project's key lost: the new one, trusted under the same name on the data
    partition, replaces the shipped one (bundles signed with the lost key are refused)."""
    table = card(tmp_path)
    new_private, new_public = keys(tmp_path / "new", "spieltisch-project")
    code, _out, err = card_update(table, "trust", str(new_public))
    assert code == 0, err
    old_signed = toy_bundle(tmp_path / "old.tar", table["private"], "0.2.0")
    code, _out, err = card_update(table, "apply", "--no-restart", str(old_signed))
    assert code == 2 and "does not match any key this table trusts" in err, err
    new_signed = toy_bundle(tmp_path / "new.tar", new_private, "0.2.0")
    code, _out, err = card_update(table, "apply", "--no-restart", str(new_signed))
    assert code == 0, err


def test_a_key_directory_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    """A card from before, whose keys directory is on the read-only root: one line."""
    table = card(tmp_path)
    table["keys"].unlink()
    table["keys"].write_text("a file where the directory should be\n")
    _private, public = keys(tmp_path / "family", "family")
    code, _out, err = card_update(table, "trust", str(public))
    assert code == 2 and err.count("\n") == 1, err
    assert "cannot add the key to" in err


def test_the_image_ships_the_project_key_on_the_root_and_links_the_added_keys() -> None:
    recipe = IMAGE.read_text(encoding="utf-8")
    assert 'install -m 0644 "$key" "$R/usr/share/spieltisch/keys/"' in recipe
    assert 'ln -sfn /data/system/spieltisch-keys "$R/etc/spieltisch-keys"' in recipe
    assert '"$D/system/spieltisch-keys"' in recipe
