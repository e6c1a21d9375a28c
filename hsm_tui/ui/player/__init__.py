"""A player's app over the SSH-shared session: only the player's screens, each reading
the seat's projection (:mod:`hsm_tui.table.views`) and sending commands through the seat's handle.
"""
