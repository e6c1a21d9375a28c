"""The server's SSH host key: made once and kept, so players' clients see the
same server every session and can warn them if another one answers in its place.
"""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh

from ..persistence.atomic import replace_file

KEY_FILE = "ssh_host_ed25519_key"


class HostKeyError(Exception):
    """A host key file that cannot be read or written, said for the GM with its path."""


def config_dir() -> Path:
    """hsm-tui's own settings folder: ``HSM_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/hsm-tui``,
    else ``~/.config/hsm-tui``.
    """
    if folder := os.environ.get("HSM_CONFIG_DIR"):
        return Path(folder)
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "hsm-tui"


def host_key_path() -> Path:
    """Where the host key is kept."""
    return config_dir() / KEY_FILE


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """The key in ``path``; the first time, a new Ed25519 key written there whole (mode
    0600; a folder made for it 0700, one already there is left as it is). A file that
    cannot be read or is not a private key raises HostKeyError.
    """
    if path.exists():
        try:
            return asyncssh.read_private_key(path)
        except (OSError, asyncssh.KeyImportError, ValueError) as err:
            raise HostKeyError(
                f"{path}: not a usable SSH host key ({err}); move it away to make a new one"
            ) from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        replace_file(path, key.export_private_key(), 0o600)
    except OSError as err:
        raise HostKeyError(f"cannot write the host key {path}: {err.strerror or err}") from None
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """``SHA256:…`` as ``ssh-keygen -lf`` and a client's first-connection prompt show it."""
    return key.get_fingerprint("sha256")
