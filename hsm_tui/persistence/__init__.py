"""Campaign files: the state ⇄ TOML codec (``codec``) and the files themselves (``store``:
atomic save with a backup, checked open, the saves folder and its recent list; ``atomic``:
any file replaced whole).
"""
