"""A process an engine starts that leaves the engine's session and process group
(``setsid``) and sleeps: a kill of the engine's group misses it. It appends its
process id to the file its argument names, once it has left."""

import os
import sys
import time


def main(marker: str) -> None:
    """Leave the session, say so in ``marker``, and sleep."""
    os.setsid()
    with open(marker, "a", encoding="ascii") as out:
        out.write(f"{os.getpid()}\n")
    time.sleep(600)


if __name__ == "__main__":
    main(sys.argv[1])
