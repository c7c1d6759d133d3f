"""The compiled kernel (``sixtysix.kernel._ckernel``); all other metadata is in pyproject.toml.

The extension is optional: without a C compiler the package still installs and
``sixtysix.kernel`` falls back to the pure-Python kernel.
"""

import sys

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sixtysix.kernel._ckernel",
            sources=["src/sixtysix/kernel/_ckernel.c"],
            depends=["src/sixtysix/kernel/_cloops.h", "src/sixtysix/kernel/_cnet.h",
                     "src/sixtysix/kernel/_cinfer.h"],
            # No fused multiply-add: the searches' arithmetic gives the pure kernel's
            # floating-point results exactly (the same operations, rounded the same way).
            extra_compile_args=[] if sys.platform == "win32" else ["-O3", "-ffp-contract=off"],
            optional=True,
        ),
    ],
)
