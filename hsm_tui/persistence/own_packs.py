"""The packs a campaign's characters are exported to, and imported from, in another
campaign: ``packs/<pack id>/`` beside the campaign files (``saves/packs/``), each an
ordinary pack (``hsm content check`` passes it; ``hsm --content`` loads it too).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..campaign.making import MadeCharacter, pack_files
from ..packs import Catalog, Character, content_dirs, load
from .atomic import replace_file
from .store import default_mode, saves_folder

FOLDER = "packs"
"""The folder beside the campaign files that exported packs go in."""


def packs_folder() -> Path:
    return saves_folder() / FOLDER


def export(made: Iterable[MadeCharacter], catalog: Catalog, pack: str, name: str) -> Path:
    """Write ``made`` as the pack ``pack`` (named ``name``) in :func:`packs_folder`, each
    file whole or not at all; the folder it is in. OSError when it cannot be written.
    """
    folder = packs_folder() / pack
    folder.mkdir(parents=True, exist_ok=True)
    for file, text in pack_files(made, catalog, pack, name).items():
        replace_file(folder / file, text.encode("utf-8"), default_mode())
    return folder


def importable() -> list[tuple[str, Character]]:
    """Every character of the exported packs (its kind, then it), with the packs they
    need for their weapons; a pack with errors gives what loads of it (its problems are
    ``hsm content check``'s to name).
    """
    root = packs_folder()
    folders = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    if not folders:
        return []
    own = {f.name for f in folders}
    catalog = load([*content_dirs(), *folders]).catalog
    return [
        (kind, c)
        for kind in ("hero", "sidekick", "minion")
        for c in catalog.kind(kind).values()  # type: ignore[union-attr]
        if c.source.pack in own
    ]
