"""A test engine for the bot protocol that writes too much, or stops reading.

    python flooding_engine.py MODE GO [PIDS]

It plays the first legal action of every ``go``, except at its GO-th ``go``
(counted in this process; 0 means never), when it misbehaves as MODE says:

- ``junk``: writes lines that are no message, forever, and reads no more;
- ``longline``: writes one line that never ends, forever, and reads no more;
- ``chatty-N``: writes N ``info`` lines, then answers as usual;
- ``deaf``: answers, then sleeps and reads no more;
- ``hang``: (needs PIDS) creates the file PIDS.go and sleeps, answering nothing,
  unless PIDS.go exists already (a program started again then plays);
- ``extra``: (at every ``go``) answers with the last legal action and then
  writes ``action`` with the first: a line no ``go`` asked for.

With PIDS, it starts a child process (that sleeps) at the handshake and appends
its own process id and the child's to PIDS: a host must stop both. Standard
library only: it stands for a program written in any language.
"""

import os
import subprocess
import sys
import time


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def flood(line):
    chunk = (line * 1000).encode()
    while True:
        sys.stdout.buffer.write(chunk)


def main():
    mode, nth = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        with open(sys.argv[3], "a") as f:
            f.write(f"{os.getpid()}\n{child.pid}\n")
    goes = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "sixtysix":
            say("id name flooding-" + mode)
            say("ready")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "quit":
            break
        elif words[0] == "go":
            goes += 1
            legal = words[words.index("legal") + 1:]
            if mode == "extra":
                say("action " + legal[-1])
                say("action " + legal[0])
                continue
            if goes == nth:
                if mode == "junk":
                    flood("this is no message\n")
                if mode == "longline":
                    flood("x")
                if mode.startswith("chatty-"):
                    for i in range(int(mode.split("-")[1])):
                        say(f"info thinking, line {i}")
                if mode == "hang" and not os.path.exists(sys.argv[3] + ".go"):
                    open(sys.argv[3] + ".go", "w").close()
                    time.sleep(3600)
                if mode == "deaf":
                    say("action " + legal[0])
                    time.sleep(3600)
            say("action " + legal[0])


if __name__ == "__main__":
    main()
