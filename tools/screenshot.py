"""The terminal game's picture in the README and the docs, drawn by Textual.

    python tools/screenshot.py [--out docs/images/terminal-game.svg]

Plays a seeded match against the computer (``medium``, classic rules, English, no
animation) in a headless terminal of 100 × 30 cells, a few tricks in, and saves the
screen with Textual's ``save_screenshot``: an SVG of the terminal's cells, text and
colours as the game drew them. Records and settings go to a temporary data directory,
not the player's. Run it again after changing the game's screen, and commit the file.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

from sixtysix import i18n
from sixtysix.bots.analysis import Budget
from sixtysix.game.actions import Action
from sixtysix.tui.app import SixtySixApp
from sixtysix.tui.storage import Settings

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images" / "terminal-game.svg"
SIZE = (100, 30)
SEED = 12
#: The player's actions before the picture: three tricks and their draws, each card the first
#: one offered; then he is to lead, with two marriages in hand.
TURNS = 7


async def picture(out: Path) -> None:
    app = SixtySixApp(seed=SEED, settings=Settings(level="medium", speed="off", language="en"),
                      hint_budget=Budget(worlds=4), replay_budget=Budget(worlds=4))
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        for _ in range(TURNS):
            screen = app.game
            assert screen is not None
            view = screen.session.view
            if view is None or not screen.my_turn:
                break
            # Draw when the trick is won, else the first card the game offers (key 1).
            await pilot.press("d" if Action.parse("D") in view.legal else "1")
            await app.workers.wait_for_complete()
            await pilot.pause()
        out.parent.mkdir(parents=True, exist_ok=True)
        app.save_screenshot(filename=out.name, path=str(out.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the SVG file (default: %(default)s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        os.environ["SIXTYSIX_DATA_DIR"] = data
        with i18n.use("en"):
            asyncio.run(picture(args.out.resolve()))
    print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
