"""``hsm`` and ``hsm play [CAMPAIGN]``: the GM's app in this terminal."""

from __future__ import annotations

import argparse
import gc

from .parser import add_content, add_seed, fail


def fill(play: argparse.ArgumentParser) -> None:
    """``play``'s own arguments."""
    add_seed(play, "seed the session's dice (replayable)")
    play.add_argument(
        "campaign",
        nargs="?",
        help="a campaign to open: a file, or a name in the saves folder (its dice go on)",
    )
    add_content(play)


def run(args: argparse.Namespace) -> int:
    """Start the app; a campaign file that does not open is refused before it draws."""
    campaign = getattr(args, "campaign", None)
    if campaign is not None and args.seed is not None:
        fail("--seed does not mix with a campaign: the campaign's own dice go on")
    gc.disable()  # until the app has drawn and loaded the engine (HsmApp.on_ready)
    try:
        from ..persistence.errors import CampaignFileError
        from ..ui.app import run_app

        return run_app(seed=args.seed, content=args.content, campaign=campaign)
    except CampaignFileError as exc:
        fail(str(exc))
    finally:  # also when the app never got that far (a bad campaign file)
        gc.enable()
