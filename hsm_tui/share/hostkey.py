"""The server's SSH host key: made once and kept, so players' clients see the
same server every session and can warn them if another one answers in its place; and the
config folder it is kept in, with ``serve.log``, both for the GM's eyes only.
"""

from __future__ import annotations

import os
import stat
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


def private_config_dir() -> tuple[Path, list[str]]:
    """The config folder, made 0700, or one already there taken to 0700, with the host
    key in it taken to 0600; and what was changed or could not be, one line each (the
    key and ``serve.log`` name who plays from where: not for other users' eyes).
    """
    folder = config_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as err:
        return folder, [f"cannot make the config folder {folder}: {err.strerror or err}"]
    notes = [keep_private(folder, 0o700), keep_private(folder / KEY_FILE, 0o600)]
    return folder, [note for note in notes if note]


def keep_private(path: Path, mode: int) -> str:
    """Take ``path`` (if there) to ``mode`` when others may read or write it: "" when it
    was private already, else the line that says what was done or why it could not be.
    """
    try:
        was = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return ""
    except OSError as err:
        return f"cannot check who may read {path}: {err.strerror or err}"
    if not was & 0o077:
        return ""
    try:
        path.chmod(mode)
    except OSError as err:
        return f"{path} is open to others ({was:o}) and cannot be changed: {err.strerror or err}"
    return f"{path} was open to others ({was:o}): now {mode:o}"


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
