"""The browser side of ``hsm serve --web``: players join with an invite, in a tab, and get
the same per-seat app as over SSH, on the same loop and under the same limits."""
