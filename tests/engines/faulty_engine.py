"""A test engine for the bot protocol that misbehaves once, on purpose.

    python faulty_engine.py MODE GO MARKER [LOG]

It plays the first legal action, except at its GO-th ``go`` (counted in this
process) when the file MARKER does not exist yet: then it creates MARKER and
misbehaves as MODE says:

- ``crash``: exits with status 3;
- ``hang``: stops answering (the host must give up on it);
- ``illegal``: answers with a well-formed action that is not legal;
- ``malformed``: answers ``action ZZ``;
- ``noise``: writes a line that is no message, then plays normally.

Every line received is appended to LOG when given. Standard library only: it
stands for a program written in any language.
"""

import os
import sys
import time

CARDS = [rank + suit for suit in "CDHS" for rank in "9JQKTA"]


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    mode, nth, marker = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    log = sys.argv[4] if len(sys.argv) > 4 else None
    goes = 0
    for line in sys.stdin:
        if log is not None:
            with open(log, "a") as f:
                f.write(line)
        words = line.split()
        if not words:
            continue
        if words[0] == "sixtysix":
            say("id name faulty-" + mode)
            say("ready")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "quit":
            break
        elif words[0] == "go":
            goes += 1
            legal = words[words.index("legal") + 1:]
            if goes == nth and not os.path.exists(marker):
                open(marker, "w").close()
                if mode == "crash":
                    sys.exit(3)
                if mode == "hang":
                    time.sleep(3600)
                if mode == "illegal":
                    say("action " + next(c for c in CARDS if c not in legal))
                    continue
                if mode == "malformed":
                    say("action ZZ")
                    continue
                if mode == "noise":
                    say("this is not a message")
            say("action " + legal[0])


if __name__ == "__main__":
    main()
