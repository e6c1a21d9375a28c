"""The SSH-shared session: the players file (:mod:`.players`), the host key
(:mod:`.hostkey`), and the server of ``hsm serve`` (:mod:`.server`) running each
client's app through :mod:`.driver` on its :mod:`.terminal`. Only this package imports
asyncssh. The players file, the host key and the terminal load without Textual; the
server runs the apps it is given and imports none of hsm_tui.ui's screens.
"""
