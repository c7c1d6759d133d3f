"""The machine a benchmark ran on, printed with every figure."""

from __future__ import annotations

import os
import platform


def machine() -> str:
    """CPU model, cores, operating system and Python."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"{platform.python_implementation()} {platform.python_version()}")
