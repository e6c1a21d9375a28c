"""The SSH-shared session (issue 21): the players file now; the server (``hsm serve``)
joins it. Only this package may import asyncssh; none of it imports Textual's screens.
"""
