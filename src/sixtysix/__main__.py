"""``python -m sixtysix``."""

import sys

from sixtysix.cli import main

sys.exit(main())
