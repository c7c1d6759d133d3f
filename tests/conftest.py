"""Test configuration: hypothesis settings shared by the property tests, and English.

Each property test sets its own number of examples; the profile here removes
the per-example deadline (an example plays a whole hand) so that slow
machines do not fail on timing. The tests read the game's English text: a
developer's own locale (``LANG=de_DE.UTF-8``) must not make ``sixtysix play``
speak German to them, so the locale variables that choose a language are
pinned to English; tests of other languages ask for them.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("sixtysix", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "sixtysix"))

os.environ.pop("LANGUAGE", None)
for _variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
    if os.environ.get(_variable):
        os.environ[_variable] = "C.UTF-8"
