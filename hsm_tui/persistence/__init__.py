"""Campaign files: the state ⇄ TOML codec (``codec``, ``snapshot``; ``lines``: the logs and
undo steps as lines of JSON, read and written in bulk) and the files
themselves (``store``: atomic save with three backups, checked open, the saves folder and
its recent list; ``versions``: each ``format_version`` and the steps between them;
``autosave``: the session written after every change; ``lock``: the campaign one hsm-tui
holds; ``atomic``: any file replaced whole, and the temporary files a crash left).
"""
