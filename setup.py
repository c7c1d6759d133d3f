"""The compiled kernel (``sixtysix.kernel._ckernel``, on the rules alone:
``sixtysix.kernel._crules``); all other metadata is in pyproject.toml.

The extension is optional: without a C compiler the package still installs and
``sixtysix.kernel`` falls back to the pure-Python kernel.
"""

import sys

from setuptools import Extension, setup

KERNEL = "src/sixtysix/kernel/"
RULES = [KERNEL + "_crules.h", KERNEL + "_crules_py.h"]
# No fused multiply-add: the searches' arithmetic gives the pure kernel's floating-point
# results exactly (the same operations, rounded the same way).
FLAGS = [] if sys.platform == "win32" else ["-O3", "-ffp-contract=off"]

setup(
    ext_modules=[
        # The rules alone (State and Rng): a library of their own, built from their files only.
        Extension("sixtysix.kernel._crules", sources=[KERNEL + "_crules.c"], depends=RULES,
                  extra_compile_args=FLAGS, optional=True),
        # The kernel: the engine (policy, solver, search, vector tables) on the rules.
        Extension("sixtysix.kernel._ckernel", sources=[KERNEL + "_ckernel.c", KERNEL + "_crules.c"],
                  depends=[*RULES, KERNEL + "_cloops.h"],
                  extra_compile_args=FLAGS, optional=True),
    ],
)
