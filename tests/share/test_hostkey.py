"""The server's host key: where it lives, made once and kept (0600 in a 0700 folder),
a damaged one refused with its path, its fingerprint as OpenSSH shows it.
"""

from __future__ import annotations

import base64
import hashlib
import stat
from pathlib import Path

import asyncssh
import pytest

from hsm_tui.share.hostkey import (
    HostKeyError,
    fingerprint,
    host_key_path,
    load_or_create_host_key,
    private_config_dir,
)


def test_the_key_lives_in_the_config_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("HSM_CONFIG_DIR", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert host_key_path() == tmp_path / ".config/hsm-tui/ssh_host_ed25519_key"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert host_key_path() == tmp_path / "xdg/hsm-tui/ssh_host_ed25519_key"
    monkeypatch.setenv("HSM_CONFIG_DIR", str(tmp_path / "hsm"))
    assert host_key_path() == tmp_path / "hsm/ssh_host_ed25519_key"


def test_the_key_is_made_once_and_kept_private(tmp_path: Path):
    path = tmp_path / "config" / "ssh_host_ed25519_key"
    key = load_or_create_host_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert key.get_algorithm() == "ssh-ed25519"
    again = load_or_create_host_key(path)
    assert again.public_data == key.public_data
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left


@pytest.mark.parametrize("damage", ["garbled", "folder"])
def test_a_damaged_key_is_refused_with_its_path(tmp_path: Path, damage: str):
    path = tmp_path / "ssh_host_ed25519_key"
    if damage == "garbled":
        path.write_bytes(b"-----BEGIN OPENSSH PRIVATE KEY-----\nnot a key\n")
    else:
        path.mkdir()
    with pytest.raises(HostKeyError, match=str(path)):
        load_or_create_host_key(path)


def test_a_key_that_cannot_be_written_is_said(tmp_path: Path):
    (tmp_path / "file").write_text("")
    with pytest.raises(HostKeyError, match="cannot write the host key"):
        load_or_create_host_key(tmp_path / "file" / "ssh_host_ed25519_key")


def test_the_fingerprint_is_openssh_s():
    key = asyncssh.generate_private_key("ssh-ed25519")
    digest = base64.b64encode(hashlib.sha256(key.public_data).digest()).decode().rstrip("=")
    assert fingerprint(key) == f"SHA256:{digest}"


def test_the_config_folder_is_made_for_the_gm_alone(monkeypatch: pytest.MonkeyPatch, tmp_path):
    monkeypatch.setenv("HSM_CONFIG_DIR", str(tmp_path / "made" / "hsm"))
    folder, notes = private_config_dir()
    assert notes == [] and folder == tmp_path / "made" / "hsm"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_config_folder_and_key_open_to_others_are_closed_and_said(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    folder = tmp_path / "hsm"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    load_or_create_host_key(folder / "ssh_host_ed25519_key")
    (folder / "ssh_host_ed25519_key").chmod(0o644)
    monkeypatch.setenv("HSM_CONFIG_DIR", str(folder))
    _, notes = private_config_dir()
    assert notes == [
        f"{folder} was open to others (755): now 700",
        f"{folder}/ssh_host_ed25519_key was open to others (644): now 600",
    ]
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "ssh_host_ed25519_key").stat().st_mode) == 0o600
    assert private_config_dir()[1] == []  # said once: now it is private


def test_a_config_folder_that_cannot_be_made_is_said(monkeypatch: pytest.MonkeyPatch, tmp_path):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("HSM_CONFIG_DIR", str(tmp_path / "file" / "hsm"))
    _, notes = private_config_dir()
    assert notes == [f"cannot make the config folder {tmp_path}/file/hsm: Not a directory"]
